/* catalog.c - resolving description names to text (see catalog.h). */
#include "catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/words.h"
#include "../base/xalloc.h"
#include "desc.h"

/* Larger description files are surely not descriptions. */
#define CAT_FILE_MAX (1 << 20)

static const char *kind_dir(enum cat_kind k)
{
    return k == CAT_HW ? "hw" : "models";
}

cp_status cat_dirs_init(struct cat_dirs *d, const char *data_dir, char *env_path,
                        const char *installed, struct cp_error *err)
{
    d->n = 0;
    const char *all[CAT_MAX_DIRS + 1];
    size_t n = 0;
    if (data_dir && *data_dir)
        all[n++] = data_dir;
    char *save = NULL;
    for (char *tok = env_path ? strtok_r(env_path, ":", &save) : NULL; tok;
         tok = strtok_r(NULL, ":", &save)) {
        if (n == CAT_MAX_DIRS)
            return cp_fail(err, CP_EINPUT, "CEREBRAS_PLAN_PATH: more than %d directories to search",
                           CAT_MAX_DIRS);
        all[n++] = tok;
    }
    if (installed && *installed) {
        if (n == CAT_MAX_DIRS)
            return cp_fail(err, CP_EINPUT, "more than %d directories to search", CAT_MAX_DIRS);
        all[n++] = installed;
    }
    memcpy(d->dir, all, n * sizeof all[0]);
    d->n = n;
    return CP_OK;
}

enum cat_kind cat_kind_of(const char *text)
{
    if (strncmp(text, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte-order mark, as inih skips */
        text += 3;
    for (const char *line = text; line && *line;) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (strncmp(line, "[model]", 7) == 0)
            return CAT_MODEL;
        if (strncmp(line, "[system]", 8) == 0)
            return CAT_HW;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return CAT_ANY;
}

/* Open path for reading only if it is a regular file: a FIFO or a device
 * would block or never end, a directory cannot be read. */
static FILE *open_regular(const char *path, struct cp_error *err, cp_status *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *st =
            cp_fail(err, errno == ENOENT ? CP_ENOTFOUND : CP_EIO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        *st = cp_fail(err, CP_EIO, "%s: %s", path,
                      S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        *st = cp_fail(err, CP_EIO, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

static cp_status read_file(const char *path, char **text, struct cp_error *err)
{
    cp_status st = CP_OK;
    FILE *f = open_regular(path, err, &st);
    if (!f)
        return st;
    char *buf = xmalloc(CAT_FILE_MAX + 1);
    size_t n = fread(buf, 1, CAT_FILE_MAX + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n > CAT_FILE_MAX || memchr(buf, '\0', n)) {
        free(buf);
        if (bad)
            return cp_fail(err, CP_EIO, "%s: read error", path);
        return cp_fail(err, CP_EINPUT, "%s: %s", path,
                       n > CAT_FILE_MAX ? "larger than 1 MiB" : "binary data (a NUL byte)");
    }
    buf[n] = '\0';
    *text = buf;
    return CP_OK;
}

/* A description read from a file without its UTF-8 byte-order mark (inih
 * skips it too), and each value written wholly in double quotes without
 * them, so that whatever scans the text for its kind ([model], [system],
 * system.kind) reads it as the parser does. */
static cp_status read_desc(const char *path, char **text, struct cp_error *err)
{
    cp_status st = read_file(path, text, err);
    if (st != CP_OK)
        return st;
    if (strncmp(*text, "\xEF\xBB\xBF", 3) == 0)
        memmove(*text, *text + 3, strlen(*text + 3) + 1);
    for (char *line = *text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        desc_unquote_line(line);
    return st;
}

/* A file named outright (not searched for) that is missing cannot be read. */
static cp_status not_found_is_eio(cp_status st, struct cp_error *err)
{
    if (st != CP_ENOTFOUND)
        return st;
    if (err)
        err->status = CP_EIO;
    return CP_EIO;
}

static int is_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL || (n >= 4 && strcmp(arg + n - 4, ".ini") == 0);
}

static void base_name(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t len = strlen(b);
    if (len >= 4 && strcmp(b + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(out, n, "%.*s", (int)len, b);
}

static cp_status resolve_path(const char *arg, enum cat_kind want, struct cat_entry *out,
                              struct cp_error *err)
{
    cp_status st = read_desc(arg, &out->text, err);
    if (st != CP_OK)
        return not_found_is_eio(st, err);
    out->kind = cat_kind_of(out->text);
    snprintf(out->origin, sizeof out->origin, "%s", arg);
    base_name(arg, out->name, sizeof out->name);
    if (out->kind == CAT_ANY || (want != CAT_ANY && out->kind != want)) {
        const char *need = want == CAT_HW      ? "a [system] section (a hardware description)"
                           : want == CAT_MODEL ? "a [model] section (a model description)"
                                               : "a [model] or [system] section";
        const char *cr = strchr(out->text, '\r');
        int cr_only = cr && cr[1] != '\n';
        cat_entry_free(out);
        if (cr_only)
            return cp_fail(err, CP_EINPUT,
                           "%s:1: expected %s; the file has CR-only line ends (use LF or CR LF)",
                           arg, need);
        return cp_fail(err, CP_EINPUT, "%s:1: expected %s", arg, need);
    }
    return CP_OK;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= CAT_NAME_MAX)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return 0;
    return 1;
}

static cp_status try_dir(const char *dir, enum cat_kind k, const char *name, struct cat_entry *out,
                         struct cp_error *err)
{
    char path[CAT_ORIGIN_MAX];
    int w = snprintf(path, sizeof path, "%s/%s/%s.ini", dir, kind_dir(k), name);
    if (w < 0 || (size_t)w >= sizeof path)
        return cp_fail(err, CP_EINPUT, "%s: directory path too long to search", dir);
    cp_status st = read_desc(path, &out->text, err);
    if (st == CP_OK) {
        out->kind = k;
        snprintf(out->origin, sizeof out->origin, "%s", path);
        snprintf(out->name, sizeof out->name, "%s", name);
    }
    return st;
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A built-in file that is a description (its ".ini" was dropped from the
 * name; the name may hold dots: llama3.1-405b), not a data file kept
 * beside them (hw/measurements.csv, the reports' gnuplot scripts). */
static int embedded_is_desc(const struct cat_embedded *e, enum cat_kind k)
{
    return strcmp(e->kind, kind_dir(k)) == 0 && !ends_with(e->name, ".csv") &&
           !ends_with(e->name, ".gp");
}

static cp_status try_embedded(enum cat_kind k, const char *name, struct cat_entry *out)
{
    for (size_t i = 0; i < cat_nembedded; i++) {
        const struct cat_embedded *e = &cat_embedded[i];
        if (!embedded_is_desc(e, k) || strcmp(e->name, name) != 0)
            continue;
        out->kind = k;
        out->text = xstrdup(e->text);
        snprintf(out->name, sizeof out->name, "%s", name);
        snprintf(out->origin, sizeof out->origin, "<built-in>/%s/%s.ini", e->kind, name);
        return CP_OK;
    }
    return CP_ENOTFOUND;
}

/* Sources in order (directories, then the built-in copies); within one
 * source, models before hardware. */
cp_status cat_resolve(const struct cat_dirs *d, const char *arg, enum cat_kind want,
                      struct cat_entry *out, struct cp_error *err)
{
    memset(out, 0, sizeof *out);
    if (is_path(arg))
        return resolve_path(arg, want, out, err);
    if (!valid_name(arg))
        return cp_fail(err, CP_EINPUT, "'%s' is not a valid description name", arg);
    for (size_t i = 0; i <= d->n; i++) {
        for (int k = CAT_MODEL; k <= CAT_HW; k++) {
            if (want != CAT_ANY && want != (enum cat_kind)k)
                continue;
            cp_status st =
                i < d->n ? try_dir(d->dir[i], k, arg, out, err) : try_embedded(k, arg, out);
            if (st != CP_ENOTFOUND)
                return st;
        }
    }
    const char *what = want == CAT_HW      ? "hardware"
                       : want == CAT_MODEL ? "model"
                                           : "model or hardware";
    char close[3 * CAT_NAME_MAX + 16] = "";
    struct cat_list l;
    struct cp_error ignored;
    if (cat_list(d, want, &l, &ignored) == CP_OK) {
        const char **names = xmalloc((l.n + 1) * sizeof *names);
        for (size_t i = 0; i < l.n; i++)
            names[i] = l.items[i].name;
        words_suggest(arg, names, l.n, close, sizeof close);
        free(names);
        cat_list_free(&l);
    }
    if (*close)
        return cp_fail(err, CP_ENOTFOUND, "no %s description named '%s'; did you mean %s? (see "
                       "'cerebras-plan list')", what, arg, close);
    return cp_fail(err, CP_ENOTFOUND, "no %s description named '%s' (try 'cerebras-plan list')",
                   what, arg);
}

cp_status cat_read_file(const char *path, struct cat_entry *out, struct cp_error *err)
{
    memset(out, 0, sizeof *out);
    out->kind = CAT_ANY;
    cp_status st = read_file(path, &out->text, err);
    if (st != CP_OK)
        return not_found_is_eio(st, err);
    snprintf(out->origin, sizeof out->origin, "%s", path);
    base_name(path, out->name, sizeof out->name);
    return CP_OK;
}

cp_status cat_find_data(const struct cat_dirs *d, const char *subdir, const char *file,
                        struct cat_entry *out, struct cp_error *err)
{
    memset(out, 0, sizeof *out);
    out->kind = CAT_ANY;
    snprintf(out->name, sizeof out->name, "%s", file);
    for (size_t i = 0; i < d->n; i++) {
        int w = snprintf(out->origin, sizeof out->origin, "%s/%s/%s", d->dir[i], subdir, file);
        if (w < 0 || (size_t)w >= sizeof out->origin)
            return cp_fail(err, CP_EINPUT, "%s: directory path too long to search", d->dir[i]);
        cp_status st = read_file(out->origin, &out->text, err);
        if (st != CP_ENOTFOUND)
            return st;
    }
    for (size_t i = 0; i < cat_nembedded; i++) {
        const struct cat_embedded *e = &cat_embedded[i];
        if (strcmp(e->kind, subdir) == 0 && strcmp(e->name, file) == 0) {
            out->text = xstrdup(e->text);
            snprintf(out->origin, sizeof out->origin, "<built-in>/%s/%s", subdir, file);
            return CP_OK;
        }
    }
    return cp_fail(err, CP_ENOTFOUND, "no %s/%s in the search path or built in", subdir, file);
}

void cat_entry_free(struct cat_entry *e)
{
    free(e->text);
    e->text = NULL;
}

/* ---- listing ---- */

static int has_item(const struct cat_list *l, enum cat_kind k, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == k && strcmp(l->items[i].name, name) == 0)
            return 1;
    return 0;
}

static void add_item(struct cat_list *l, size_t *cap, enum cat_kind k, const char *name,
                     const char *origin)
{
    if (has_item(l, k, name))
        return;
    if (l->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        l->items = xrealloc(l->items, *cap * sizeof *l->items);
    }
    struct cat_entry *e = &l->items[l->n++];
    memset(e, 0, sizeof *e);
    e->kind = k;
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->origin, sizeof e->origin, "%s", origin);
}

static void list_dir(const char *dir, enum cat_kind k, struct cat_list *l, size_t *cap)
{
    char path[CAT_ORIGIN_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, kind_dir(k));
    DIR *dp = opendir(path);
    if (!dp)
        return; /* a missing directory in the search path is not an error */
    for (struct dirent *de; (de = readdir(dp)) != NULL;) {
        char name[CAT_NAME_MAX], file[CAT_ORIGIN_MAX];
        size_t len = strlen(de->d_name);
        if (len < 5 || len - 4 >= CAT_NAME_MAX || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), de->d_name);
        if (!valid_name(name))
            continue;
        int w = snprintf(file, sizeof file, "%s/%s", path, de->d_name);
        struct stat sb;
        if (w < 0 || (size_t)w >= sizeof file || stat(file, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue; /* not a description file (a directory, a FIFO, ...) */
        add_item(l, cap, k, name, file);
    }
    closedir(dp);
}

static int by_kind_name(const void *a, const void *b)
{
    const struct cat_entry *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return words_natural_cmp(x->name, y->name);
}

cp_status cat_list(const struct cat_dirs *d, enum cat_kind want, struct cat_list *out,
                   struct cp_error *err)
{
    (void)err;
    size_t cap = 0;
    memset(out, 0, sizeof *out);
    for (int k = CAT_MODEL; k <= CAT_HW; k++) {
        if (want != CAT_ANY && want != (enum cat_kind)k)
            continue;
        for (size_t i = 0; i < d->n; i++)
            list_dir(d->dir[i], k, out, &cap);
        for (size_t i = 0; i < cat_nembedded; i++) {
            char origin[CAT_ORIGIN_MAX];
            if (!embedded_is_desc(&cat_embedded[i], k))
                continue;
            snprintf(origin, sizeof origin, "<built-in>/%s/%s.ini", cat_embedded[i].kind,
                     cat_embedded[i].name);
            add_item(out, &cap, k, cat_embedded[i].name, origin);
        }
    }
    if (out->n)
        qsort(out->items, out->n, sizeof *out->items, by_kind_name);
    return CP_OK;
}

cp_status cat_open(const struct cat_entry *item, struct cat_entry *out, struct cp_error *err)
{
    *out = *item;
    out->text = NULL;
    if (strncmp(item->origin, "<built-in>/", 11) == 0) {
        if (try_embedded(item->kind, item->name, out) == CP_OK)
            return CP_OK;
        return cp_fail(err, CP_ENOTFOUND, "%s: not built in", item->origin);
    }
    return not_found_is_eio(read_desc(item->origin, &out->text, err), err);
}

void cat_list_free(struct cat_list *l)
{
    free(l->items);
    l->items = NULL;
    l->n = 0;
}
