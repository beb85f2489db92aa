/* sweep_file.c - read a sweep file's [sweep] section into the sweep's
 * options (see sweep_file.h), with each value's FILE:LINE for messages. */
#include "sweep_file.h"

#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/catalog.h"
#include "../desc/gpuhw.h"
#include "../desc/hw.h"
#include "../desc/wl.h"

enum {
    K_MODEL,
    K_SYSTEM,
    K_SYSTEMS,
    K_SPARSITY,
    K_MEMORYX,
    K_WHERE,
    K_BEST,
    K_GROUP_BY,
    K_PRECISION,
    K_LAYOUTS,
    K_N
};
static const char *const key_name[K_N] = {"model", "system", "systems",  "sparsity",  "memoryx",
                                          "where", "best",   "group_by", "precision", "layouts"};
#define KNOWN_KEYS                                                                                 \
    "model, system, systems, sparsity, memoryx, where, best, group_by, precision, layouts, or "    \
    "section.key for a hardware or model key axis"

struct sf {
    const char *path;
    const char *rest; /* the file's text still to read */
    int line, failed;
    char msg[1024];
    char *val[K_N];
    int at[K_N];
    char *set[CLI_MAX_SETS]; /* "section.key=A,B" */
    int set_at[CLI_MAX_SETS];
    size_t nset;
    char *label[K_N];
    size_t nlabel;
};

static struct sf sf;

/* One line of the text for inih; a line longer than its buffer ends the
 * parse with an error, as in a description, rather than being split. */
static char *read_line(char *str, int num, void *stream)
{
    struct sf *p = stream;
    if (!*p->rest || p->failed)
        return NULL;
    size_t n = strcspn(p->rest, "\n"), take = n + (p->rest[n] == '\n');
    size_t len = n - (n > 0 && p->rest[n - 1] == '\r');
    p->line++;
    if (len > (size_t)num - 3) { /* inih's buffer holds "\r\n\0" too */
        snprintf(p->msg, sizeof p->msg, "%s:%d: line longer than %d characters", p->path, p->line,
                 num - 3);
        p->failed = p->line;
        return NULL;
    }
    memcpy(str, p->rest, take);
    str[take] = '\0';
    p->rest += take;
    return str;
}

static int fail(struct sf *p, const char *key, const char *why)
{
    if (!p->failed) {
        snprintf(p->msg, sizeof p->msg, "%.400s:%d: %.100s: %.400s", p->path, p->line, key, why);
        p->failed = p->line;
    }
    return 0;
}

/* The schema of key name: the model's for model.KEY, else the
 * weight-streaming system's unless only a GPU system has the key. */
static const struct desc_schema *set_schema(const char *name)
{
    if (strncmp(name, "model.", 6) == 0)
        return &wl_schema;
    char sec[64];
    const char *dot = strchr(name, '.');
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - name), name);
    if (desc_find(&hw_schema, sec, dot + 1) < 0 && desc_find(&gpuhw_schema, sec, dot + 1) >= 0)
        return &gpuhw_schema;
    return &hw_schema;
}

/* A section.key axis is checked here, each comma item applied to a scratch
 * description of its kind, so that a bad value is reported at its line. */
static int check_set(struct sf *p, const char *name, const char *value)
{
    static union {
        struct hw_desc hw;
        struct wl_desc wl;
        struct gpuhw_desc gpu;
    } scratch;
    const struct desc_schema *s = set_schema(name);
    size_t skip = strlen("--set ") + strlen(name) + strlen(": ");
    for (const char *q = value; q;) {
        const char *comma = strchr(q, ',');
        int len = comma ? (int)(comma - q) : (int)strlen(q);
        char assign[512];
        snprintf(assign, sizeof assign, "%s=%.*s", name, len, q);
        struct cp_error err = {0};
        memset(&scratch, 0, sizeof scratch);
        if (desc_set(s, assign, &scratch, NULL, &err) != CP_OK)
            return fail(p, name, strlen(err.msg) > skip ? err.msg + skip : err.msg);
        q = comma ? comma + 1 : NULL;
    }
    return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct sf *p = user;
    char why[512];
    if (strcmp(section, "sweep") != 0) {
        snprintf(why, sizeof why, "%s%s%s: a sweep file has one section, [sweep]",
                 *section ? "in [" : "before [sweep]", section, *section ? "]" : "");
        return fail(p, name, why);
    }
    if (!*value)
        return fail(p, name, "no value");
    size_t k = 0;
    while (k < K_N && strcmp(name, key_name[k]) != 0)
        k++;
    if (k < K_N) {
        if (p->val[k]) {
            snprintf(why, sizeof why, "given twice (first on line %d)", p->at[k]);
            return fail(p, name, why);
        }
        p->val[k] = xstrdup(value);
        p->at[k] = p->line;
        return 1;
    }
    const char *dot = strchr(name, '.');
    if (!dot || dot == name || !dot[1]) {
        snprintf(why, sizeof why, "unknown key (the keys: %s)", KNOWN_KEYS);
        return fail(p, name, why);
    }
    size_t len = strlen(name);
    for (size_t i = 0; i < p->nset; i++)
        if (strncmp(p->set[i], name, len) == 0 && p->set[i][len] == '=') {
            snprintf(why, sizeof why, "given twice (first on line %d)", p->set_at[i]);
            return fail(p, name, why);
        }
    if (p->nset == CLI_MAX_SETS)
        return fail(p, name, "too many section.key axes");
    if (!check_set(p, name, value))
        return 0;
    size_t n = len + strlen(value) + 2;
    p->set[p->nset] = xmalloc(n);
    snprintf(p->set[p->nset], n, "%s=%s", name, value);
    p->set_at[p->nset++] = p->line;
    return 1;
}

/* 1 if a line of text, after blanks (and a byte-order mark), is "[sweep]". */
static int has_sweep_section(const char *text)
{
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0)
        text += 3;
    for (const char *q = text; q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL) {
        q += strspn(q, " \t");
        if (strncmp(q, "[sweep]", 7) == 0)
            return 1;
    }
    return 0;
}

static const char *label(struct sf *p, size_t k)
{
    size_t n = strlen(p->path) + strlen(key_name[k]) + 32;
    char *s = xmalloc(n);
    snprintf(s, n, "%s:%d: %s", p->path, p->at[k], key_name[k]);
    return p->label[p->nlabel++] = s;
}

void sweep_labels_init(struct sweep_labels *lab, const struct cli_opts *o)
{
    memset(lab, 0, sizeof *lab);
    lab->model = "-m";
    lab->system = "-s";
    lab->systems = o->systems ? "--systems" : "-n";
    lab->sparsity = "--sparsity";
    lab->memoryx = "--memoryx";
    lab->best = "--best";
    lab->group_by = "--group-by";
    lab->precision = "--precision";
    lab->layouts = "--layouts";
    for (size_t i = 0; i < CLI_MAX_WHERE; i++)
        lab->where[i] = "--where";
}

/* Fill *opt and *lab from key k if the command line left *opt unset. */
static void take(struct sf *p, size_t k, const char **opt, const char **lab)
{
    if (p->val[k] && !*opt) {
        *opt = p->val[k];
        *lab = label(p, k);
    }
}

/* Read and parse the file at path into sf.  Returns -1, or an exit code
 * after a message. */
static int parse_file(struct sf *p, const char *path)
{
    /* A regular file of at most 1 MiB without NUL bytes, as a description:
     * a directory, a FIFO or binary data is refused, not read as empty. */
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_read_file(path, &e, &err) != CP_OK) {
        const char *why = err.msg;
        size_t n = strlen(path);
        if (strncmp(why, path, n) == 0 && strncmp(why + n, ": ", 2) == 0)
            why += n + 2;
        return cli_error("%s: cannot open the sweep file: %.*s", path, (int)strcspn(why, ","), why);
    }
    p->rest = e.text;
    ini_allow_multiline = false;
    int rc = ini_parse_stream(read_line, p, handler, p);
    int sectioned = has_sweep_section(e.text);
    cat_entry_free(&e);
    p->rest = NULL;
    /* inih goes on after an error and returns the first one's line. */
    if (p->failed && (rc <= 0 || p->failed <= rc))
        return cli_error("%s", p->msg);
    if (rc > 0)
        return cli_error("%s:%d: syntax error: expected '[sweep]', 'key = value' or a comment",
                         path, rc);
    if (rc < 0)
        return cli_error("%s: out of memory while reading the sweep file", path);
    if (!sectioned) /* an empty file is a mistake, not the default grid */
        return cli_error("%s: no [sweep] section (a sweep file gives its axes under [sweep])",
                         path);
    return -1;
}

/* The file's --set lines after the command line's, unless the command line
 * sets the same key.  Returns -1, or an exit code after a message. */
static int take_sets(struct sf *p, struct cli_opts *o, struct sweep_labels *lab)
{
    size_t ncli = o->nsets;
    for (size_t i = 0; i < p->nset; i++) {
        size_t len = strcspn(p->set[i], "=") + 1, j = 0;
        while (j < ncli && strncmp(o->sets[j], p->set[i], len) != 0)
            j++;
        if (j < ncli) /* the command line's --set of the same key */
            continue;
        if (o->nsets == CLI_MAX_SETS)
            return cli_error("%s:%d: too many --set options and axes", p->path, p->set_at[i]);
        o->sets[o->nsets++] = p->set[i];
        lab->file_scenario = 1;
    }
    return -1;
}

/* The file's where = "COND; COND", unless the command line has --where.
 * Returns -1, or an exit code after a message. */
static int take_where(struct sf *p, struct cli_opts *o, struct sweep_labels *lab)
{
    if (!p->val[K_WHERE] || o->nwhere)
        return -1;
    const char *where = label(p, K_WHERE);
    char *save = NULL;
    for (char *t = strtok_r(p->val[K_WHERE], ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        t += strspn(t, " \t");
        size_t n = strlen(t);
        while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
            t[--n] = '\0';
        if (!n)
            continue;
        if (o->nwhere == CLI_MAX_WHERE)
            return cli_error("%s: more than %d conditions", where, CLI_MAX_WHERE);
        lab->where[o->nwhere] = where;
        o->where[o->nwhere++] = t;
    }
    return -1;
}

int sweep_file_load(const char *path, struct cli_opts *o, struct sweep_labels *lab)
{
    sweep_file_free();
    struct sf *p = &sf;
    p->path = lab->path = path;
    int rc = parse_file(p, path);
    if (rc >= 0)
        return rc;
    take(p, K_MODEL, &o->model, &lab->model);
    take(p, K_SYSTEM, &o->system, &lab->system);
    if (!o->nsys)
        take(p, K_SYSTEMS, &o->systems, &lab->systems);
    take(p, K_SPARSITY, &o->sparsity, &lab->sparsity);
    take(p, K_BEST, &o->best, &lab->best);
    take(p, K_GROUP_BY, &o->group_by, &lab->group_by);
    take(p, K_PRECISION, &o->precision, &lab->precision);
    take(p, K_LAYOUTS, &o->layouts, &lab->layouts);
    if (p->val[K_MEMORYX] && !o->memoryx) {
        o->memoryx = p->val[K_MEMORYX];
        lab->file_scenario = 1;
    }
    if ((rc = take_sets(p, o, lab)) >= 0)
        return rc;
    return take_where(p, o, lab);
}

void sweep_file_free(void)
{
    for (size_t k = 0; k < K_N; k++)
        free(sf.val[k]);
    for (size_t i = 0; i < sf.nset; i++)
        free(sf.set[i]);
    for (size_t i = 0; i < sf.nlabel; i++)
        free(sf.label[i]);
    memset(&sf, 0, sizeof sf);
}
