/* desc.c - description files: INI text against a key schema (see desc.h).
 *
 * libinih does the lexing; its handler gets no line number in the Debian
 * build, so text is fed through our own reader that counts lines
 * (desc_lines.c, which also rejects lines longer than inih's buffer up
 * front, so the count stays true).  This file holds the parse itself: the
 * handler that fills the target key by key, required keys, overlays and
 * --set overrides, and the messages that name where a value came from.
 * Values are converted in desc_value.c, list entries in desc_list.c and text
 * checked in desc_text.c. */
#include "desc.h"

#include <ctype.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "desc_int.h"

/* One run of inih over a description (desc_load) or an overlay. */
struct parse {
    const struct desc_schema *s;
    void *target;
    struct desc_src *src;
    struct desc_reader rd;
    struct cp_error *err;
    int failed;  /* line of the first error the handler found, or 0 */
    int overlay; /* K: desc_overlay() of src->overlays[K-1]; 0: desc_load() */
    int seen[DESC_MAX_KEYS];
    char list_seen[DESC_LIST_MAX];
};

/* Record the first error of a run as "origin:line: section.name: why"; returns 0, which
 * tells inih the line failed. */
static int fail_at(struct parse *p, const char *section, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(struct parse *p, const char *section, const char *name, const char *fmt, ...)
{
    if (p->failed)
        return 0;
    char why[CP_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const char *origin = p->overlay ? desc_overlay_name(p->src, p->overlay - 1) : p->src->origin;
    if (*section)
        cp_fail(p->err, CP_EINPUT, "%s:%d: %s.%s: %s", origin, p->rd.line, section, name, why);
    else
        cp_fail(p->err, CP_EINPUT, "%s:%d: %s: %s", origin, p->rd.line, name, why);
    p->failed = p->rd.line;
    return 0;
}

/* A line of the list section: one entry, not given twice in one file. */
static int handle_list(struct parse *p, const char *name, const char *value)
{
    char why[320];
    int at = desc_list_index(desc_list_of(p->s, p->target), name);
    if (at >= 0 && (!p->overlay || p->list_seen[at]))
        return fail_at(p, p->s->list_section, name, "duplicate key");
    if (desc_list_store(p->s, p->target, name, value, why, sizeof why) != 0)
        return fail_at(p, p->s->list_section, name, "%s", why);
    p->list_seen[desc_list_index(desc_list_of(p->s, p->target), name)] = 1;
    return 1;
}

/* inih's handler: check section.name and store value into the target. */
static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct parse *p = user;
    if (p->failed)
        return 0;
    if (*section == '\0')
        return fail_at(p, "", name, "key outside any section (put it under [section])");
    if (*name == '\0')
        return fail_at(p, section, name, "empty key name (expected 'key = value')");
    if (!desc_known_section(p->s, section)) {
        char secs[256];
        desc_list_sections(p->s, secs, sizeof secs);
        return fail_at(p, section, name, "unknown section [%s] in a %s file (known: %s)", section,
                       p->s->kind, secs);
    }
    if (p->s->list_section && strcmp(section, p->s->list_section) == 0)
        return handle_list(p, name, value);
    int i = desc_find(p->s, section, name);
    if (i < 0) {
        char keys[512];
        desc_list_keys(p->s, section, keys, sizeof keys);
        return fail_at(p, section, name, "unknown key (keys of [%s]: %s)", section, keys);
    }
    if (p->seen[i])
        return fail_at(p, section, name, "duplicate key (first given on line %d)", p->src->line[i]);
    char why[CP_ERROR_MAX / 4];
    if (*value == '\0')
        return fail_at(p, section, name, "empty value (%s)", p->s->keys[i].help);
    if (desc_store(&p->s->keys[i], value, p->target, &p->src->spread[i], why, sizeof why) != 0)
        return fail_at(p, section, name, "%s", why);
    p->seen[i] = 1;
    p->src->line[i] = p->rd.line;
    p->src->in_overlay[i] = p->overlay;
    return 1;
}

/* Every key's default into target (an empty text, an empty list). */
static void apply_defaults(const struct desc_schema *s, void *target)
{
    for (size_t i = 0; i < s->nkeys; i++) {
        const struct desc_key *k = &s->keys[i];
        char *field = (char *)target + k->off;
        if (k->type == DESC_NUM || k->type == DESC_NUM_OR_WORD)
            *(double *)field = k->def;
        else if (k->type == DESC_TEXT)
            field[0] = '\0';
        else
            *(int *)field = (int)k->def;
    }
    if (s->list_section)
        desc_list_of(s, target)->n = 0;
}

/* Line of the "[section]" header in text, or 0 if there is none. */
static int section_line(const char *text, const char *section)
{
    size_t len = strlen(section);
    int line = 1;
    for (const char *q = text; *q; line++) {
        while (*q == ' ' || *q == '\t')
            q++;
        if (q[0] == '[' && strncmp(q + 1, section, len) == 0 && q[len + 1] == ']')
            return line;
        q = strchr(q, '\n');
        if (!q)
            break;
        q++;
    }
    return 0;
}

/* A missing key is reported at its section's header (where it belongs), or
 * at the end of the file if the section is missing too. */
static cp_status check_required(struct parse *p, const char *text)
{
    for (size_t i = 0; i < p->s->nkeys; i++) {
        const struct desc_key *k = &p->s->keys[i];
        if (!(k->flags & DESC_REQUIRED) || p->seen[i])
            continue;
        int line = section_line(text, k->section);
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d: %s.%s: missing required key (add '%s = %s' under [%s]%s: %s)",
                       p->src->origin,
                       line             ? line
                       : p->rd.line > 0 ? p->rd.line
                                        : 1,
                       k->section, k->name, k->name,
                       k->type == DESC_NUM && k->dim != UNIT_COUNT ? unit_example(k->dim) : "...",
                       k->section, line ? "" : ", a section this file lacks", k->help);
    }
    return CP_OK;
}

/* Run inih over text with p set up; CP_OK or the first error. */
static cp_status run_parse(struct parse *p, const char *text, const char *origin)
{
    if (desc_check_lines(p->s, text, origin, p->err) != 0)
        return CP_EINPUT;
    p->rd.p = text;
    ini_allow_multiline = false;
    int rc = ini_parse_stream(desc_read_line, &p->rd, handler, p);
    /* inih goes on after a syntax error; report whichever error came first. */
    if (p->failed && !(rc > 0 && rc < p->failed))
        return CP_EINPUT;
    if (rc > 0)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d: syntax error: expected '[section]', 'key = value' or a comment",
                       origin, rc);
    if (rc < 0)
        return cp_fail(p->err, CP_ENOMEM, "%s: out of memory while parsing", origin);
    return CP_OK;
}

cp_status desc_load(const struct desc_schema *s, const char *text, const char *origin, void *target,
                    struct desc_src *src, struct cp_error *err)
{
    struct desc_src local;
    struct parse p = {.s = s, .target = target, .src = src ? src : &local, .err = err};
    memset(p.src, 0, sizeof *p.src);
    snprintf(p.src->origin, sizeof p.src->origin, "%s", origin);
    apply_defaults(s, target);
    cp_status st = run_parse(&p, text, origin);
    return st == CP_OK ? check_required(&p, text) : st;
}

cp_status desc_overlay(const struct desc_schema *s, const char *text, const char *origin,
                       void *target, struct desc_src *src, struct cp_error *err)
{
    if (src->noverlays == DESC_OVERLAY_MAX)
        return cp_fail(err, CP_EINPUT, "%s: more than %d overlays on one description", origin,
                       DESC_OVERLAY_MAX);
    size_t at = 0, len = strlen(origin);
    if (src->noverlays > 0) {
        const char *last = desc_overlay_name(src, src->noverlays - 1);
        at = (size_t)(last - src->overlay_names) + strlen(last) + 1;
    }
    if (len >= sizeof src->overlay_names - at)
        return cp_fail(err, CP_EINPUT,
                       "%s: the overlays' file names take more than %zu bytes together: give "
                       "shorter paths",
                       origin, sizeof src->overlay_names);
    memcpy(src->overlay_names + at, origin, len + 1);
    src->overlay_at[src->noverlays] = (unsigned short)at;
    int k = ++src->noverlays;
    struct parse p = {.s = s, .target = target, .src = src, .err = err, .overlay = k};
    return run_parse(&p, text, origin);
}

const char *desc_overlay_name(const struct desc_src *src, int i)
{
    return src->overlay_names + src->overlay_at[i];
}

const char *desc_where(const struct desc_src *src, int i, char *buf, size_t n)
{
    int line = i >= 0 ? src->line[i] : 0;
    if (line > 0)
        snprintf(buf, n, "%s:%d",
                 src->in_overlay[i] ? desc_overlay_name(src, src->in_overlay[i] - 1) : src->origin, line);
    else if (line < 0)
        snprintf(buf, n, "--set");
    else
        snprintf(buf, n, "%s (default)", src->origin);
    return buf;
}

cp_status desc_set(const struct desc_schema *s, const char *assign, void *target,
                   struct desc_src *src, struct cp_error *err)
{
    char sec[64], key[64], why[CP_ERROR_MAX / 2];
    size_t bad;
    /* a name before '=' that would move the terminal in a message (a bad
     * value is desc_store()'s to report, naming the key) */
    if (desc_text_check_at(assign, &bad, why, sizeof why) != 0 && bad < strcspn(assign, "="))
        return cp_fail(err, CP_EINPUT, "--set: %s", why);
    const char *dot = strchr(assign, '.'), *eq = strchr(assign, '=');
    if (!dot || !eq || dot > eq || (size_t)(dot - assign) >= sizeof sec ||
        (size_t)(eq - dot - 1) >= sizeof key)
        return cp_fail(err, CP_EINPUT, "--set %s: expected section.key=value", assign);
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - assign), assign);
    for (const char *q = sec; *q; q++)
        if (isspace((unsigned char)*q))
            return cp_fail(err, CP_EINPUT,
                           "--set '%s': a blank in the section name '%s' (expected "
                           "section.key=value)",
                           assign, sec);
    snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
    desc_trim_end(key); /* "--set 'model.layers = 97'" */
    char value[256];
    snprintf(value, sizeof value, "%s", eq + 1);
    desc_trim_end(value); /* as inih trims values read from files */
    const char *v0 = value;
    while (isspace((unsigned char)*v0))
        v0++;
    memmove(value, v0, strlen(v0) + 1);
    if (s->list_section && strcmp(sec, s->list_section) == 0) {
        if (desc_list_store(s, target, key, value, why, sizeof why) != 0)
            return cp_fail(err, CP_EINPUT, "--set %s.%s: %s", sec, key, why);
        return CP_OK;
    }
    int i = desc_find(s, sec, key);
    if (i < 0)
        return cp_fail(err, CP_EINPUT, "--set %s.%s: no such key in a %s description", sec, key,
                       s->kind);
    double spread;
    if (desc_store(&s->keys[i], value, target, &spread, why, sizeof why) != 0)
        return cp_fail(err, CP_EINPUT, "--set %s.%s: %s", sec, key, why);
    if (src) {
        src->line[i] = -1;
        src->in_overlay[i] = 0;
        src->spread[i] = spread;
    }
    return CP_OK;
}

cp_status desc_load_set(const struct desc_schema *s, const char *text, const char *origin,
                        const char *const *sets, size_t nsets, void *target, struct desc_src *src,
                        struct cp_error *err)
{
    cp_status st = desc_load(s, text, origin, target, src, err);
    for (size_t i = 0; st == CP_OK && i < nsets; i++)
        st = desc_set(s, sets[i], target, src, err);
    return st;
}

cp_status desc_key_error(const struct desc_schema *s, const struct desc_src *src,
                         const char *section, const char *name, struct cp_error *err,
                         const char *fmt, ...)
{
    char why[CP_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    int i = desc_find(s, section, name);
    char where[DESC_ORIGIN_MAX + 16];
    desc_where(src, i, where, sizeof where);
    if (i >= 0 && src->line[i] < 0)
        return cp_fail(err, CP_EINPUT, "--set %s.%s: %s", section, name, why);
    if (i >= 0 && src->line[i] > 0)
        return cp_fail(err, CP_EINPUT, "%s: %s.%s: %s", where, section, name, why);
    return cp_fail(err, CP_EINPUT, "%s: %s.%s (default): %s", src->origin, section, name, why);
}

void desc_default_name(char name[DESC_TEXT_MAX], const char *origin)
{
    if (name[0] || !origin)
        return;
    const char *base = strrchr(origin, '/');
    base = base ? base + 1 : origin;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    if (n >= DESC_TEXT_MAX)
        n = DESC_TEXT_MAX - 1;
    memcpy(name, base, n);
    name[n] = '\0';
}
