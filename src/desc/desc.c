/* desc.c - description files: INI text against a key schema (see desc.h).
 *
 * libinih does the lexing; its handler gets no line number in the Debian
 * build, so text is fed through our own reader that counts lines.  Lines
 * longer than inih's buffer are rejected up front, so the count stays true. */
#include "desc.h"

#include <ctype.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* inih's buffer holds INI_MAX_LINE bytes including "\r\n\0". */
_Static_assert(DESC_LINE_MAX == INI_MAX_LINE - 3, "DESC_LINE_MAX must follow libinih's buffer");

struct reader {
    const char *p;
    int line;
};

static char *read_line(char *str, int num, void *stream)
{
    struct reader *r = stream;
    if (*r->p == '\0')
        return NULL;
    int i = 0;
    while (i < num - 1 && r->p[0] != '\0') {
        char c = *r->p++;
        str[i++] = c;
        if (c == '\n')
            break;
    }
    str[i] = '\0';
    r->line++;
    return str;
}

struct parse {
    const struct desc_schema *s;
    void *target;
    struct desc_src *src;
    struct reader rd;
    struct cp_error *err;
    int failed;  /* line of the first error the handler found, or 0 */
    int overlay; /* K: desc_overlay() of src->overlays[K-1]; 0: desc_load() */
    int seen[DESC_MAX_KEYS];
    char list_seen[DESC_LIST_MAX];
};

int desc_find(const struct desc_schema *s, const char *section, const char *name)
{
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i].section, section) == 0 && strcmp(s->keys[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int known_section(const struct desc_schema *s, const char *section)
{
    if (s->list_section && strcmp(section, s->list_section) == 0)
        return 1;
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i].section, section) == 0)
            return 1;
    return 0;
}

/* "[system], [memoryx] or [swarmx]" for hints. */
static void list_sections(const struct desc_schema *s, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < s->nkeys; i++) {
        const char *sec = s->keys[i].section;
        char item[48];
        snprintf(item, sizeof item, "[%s]", sec);
        if (strstr(buf, item))
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? " " : "", item);
    }
    if (s->list_section) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, " [%s]", s->list_section);
    }
}

static void list_keys(const struct desc_schema *s, const char *section, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < s->nkeys; i++) {
        if (strcmp(s->keys[i].section, section) != 0)
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", s->keys[i].name);
    }
}

static void trim_end(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

static int parse_bool(const char *v, int *out)
{
    static const char *yes[] = {"true", "yes", "1", "on"};
    static const char *no[] = {"false", "no", "0", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0)
            return *out = 1, 0;
        if (strcmp(v, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

static int parse_choice(const char *v, const char *choices, int *out)
{
    size_t vlen = strlen(v);
    int idx = 0;
    for (const char *p = choices; *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && strncmp(p, v, len) == 0)
            return *out = idx, 0;
        p += len + (bar ? 1 : 0);
    }
    return -1;
}

/* Length of the UTF-8 sequence at s (1 to 4) and its code point in *cp,
 * or 0 when it is not well formed (cut short, overlong, a surrogate,
 * beyond U+10FFFF). */
static int utf8_seq(const unsigned char *s, unsigned *cp)
{
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    unsigned c = s[0];
    int len = c < 0x80             ? 1
              : (c & 0xe0) == 0xc0 ? 2
              : (c & 0xf0) == 0xe0 ? 3
              : (c & 0xf8) == 0xf0 ? 4
                                   : 0;
    if (len == 0)
        return 0;
    *cp = len == 1 ? c : c & (0x7fu >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3fu);
    }
    if (*cp < least[len] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return len;
}

/* desc_text_check(), with the offset of the byte at fault in *at. */
static int text_check_at(const char *s, size_t *at, char *why, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; u[i];) {
        unsigned cp;
        int len = utf8_seq(u + i, &cp);
        *at = i;
        if (len == 0)
            return snprintf(why, n, "byte %zu (0x%02X) is not UTF-8 text", i + 1, u[i]), -1;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return snprintf(why, n,
                            "control character %s%0*X at byte %zu (text is printed as it is; "
                            "remove it)",
                            cp < 0x80 ? "0x" : "U+", cp < 0x80 ? 2 : 4, cp, i + 1),
                   -1;
        i += (size_t)len;
    }
    return 0;
}

int desc_text_check(const char *s, char *why, size_t n)
{
    size_t at;
    return text_check_at(s, &at, why, n);
}

static int check_number(const struct desc_key *k, double v, char *why, size_t n)
{
    if (!isfinite(v)) /* the end of a range beyond the largest double */
        return snprintf(why, n, "is out of range"), -1;
    if (v < 0)
        return snprintf(why, n, "must not be negative"), -1;
    if (v == 0 && !(k->flags & DESC_ZERO_OK))
        return snprintf(why, n, "must be greater than zero"), -1;
    if ((k->flags & DESC_AT_MOST_1) && v > 1)
        return snprintf(why, n, "is a fraction and must be at most 1 (or 100 %%)"), -1;
    if ((k->flags & DESC_INTEGER) && v > DESC_WHOLE_MAX)
        return snprintf(why, n, "%g is too large for a whole number (at most 2^53, about 9.007e15)",
                        v),
               -1;
    if ((k->flags & DESC_INTEGER) && v != floor(v))
        return snprintf(why, n, "must be a whole number"), -1;
    return 0;
}

/* Split "V +- R" (or "V ± R") in buf: cut buf after V and return R, or
 * NULL when there is no range. */
static char *split_range(char *buf)
{
    char *p = strstr(buf, "+-"), *q = strstr(buf, "\xc2\xb1");
    if (q && (!p || q < p))
        p = q;
    if (!p)
        return NULL;
    *p = '\0';
    trim_end(buf);
    p += 2;
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* Parse the range text r of key k around centre v into *spread. */
static int parse_spread(const struct desc_key *k, double v, const char *r, double *spread,
                        char *why, size_t n)
{
    if (k->flags & DESC_INTEGER)
        return snprintf(why, n, "a whole-number key takes no +- range"), -1;
    size_t len = strlen(r);
    if (len > 0 && r[len - 1] == '%') {
        char *end;
        double pct = strtod(r, &end);
        while (isspace((unsigned char)*end))
            end++;
        if (end == r || end != r + len - 1 || !isfinite(pct) || pct < 0)
            return snprintf(why, n, "range '+- %s': expected a percentage such as 50%%", r), -1;
        *spread = pct / 100 * fabs(v);
    } else if (unit_parse(r, k->dim, spread, why, n) != 0) {
        return -1;
    }
    if (!(*spread >= 0) || !isfinite(*spread))
        return snprintf(why, n, "range '+- %s' must be a finite non-negative amount", r), -1;
    char sub[160];
    double ends[2] = {v - *spread, v + *spread};
    for (int i = 0; i < 2; i++)
        if (check_number(k, ends[i], sub, sizeof sub) != 0)
            return snprintf(why, n, "range reaches %g, which %s", ends[i], sub), -1;
    return 0;
}

/* Convert value for key k into target and its range into *spread (0 for
 * none); on failure write why. */
static int store(const struct desc_key *k, const char *value, void *target, double *spread,
                 char *why, size_t n)
{
    char *field = (char *)target + k->off;
    char buf[512];
    if (desc_text_check(value, why, n) != 0)
        return -1;
    snprintf(buf, sizeof buf, "%s", value);
    char *range = split_range(buf);
    *spread = 0;
    if (range && k->type != DESC_NUM && k->type != DESC_NUM_OR_WORD)
        return snprintf(why, n, "only a number takes a +- range"), -1;
    switch (k->type) {
    case DESC_NUM_OR_WORD:
        if (strcmp(buf, k->choices) == 0) {
            if (range)
                return snprintf(why, n, "'%s' takes no +- range", k->choices), -1;
            *(int *)((char *)target + k->word_off) = 1;
            return 0;
        }
        /* fall through */
    case DESC_NUM: {
        double v, r = 0;
        if (unit_parse(buf, k->dim, &v, why, n) != 0 || check_number(k, v, why, n) != 0)
            return -1;
        if (range && parse_spread(k, v, range, &r, why, n) != 0)
            return -1;
        *(double *)field = v + 0.0; /* -0 becomes 0 */
        *spread = r;
        if (k->type == DESC_NUM_OR_WORD)
            *(int *)((char *)target + k->word_off) = 0;
        return 0;
    }
    case DESC_BOOL:
        if (parse_bool(value, (int *)field) == 0)
            return 0;
        snprintf(why, n, "'%s' is not a boolean (use true or false)", value);
        return -1;
    case DESC_CHOICE:
        if (parse_choice(value, k->choices, (int *)field) == 0)
            return 0;
        snprintf(why, n, "'%s' is not one of %s", value, k->choices);
        return -1;
    case DESC_TEXT:
        if (strlen(value) >= DESC_TEXT_MAX)
            return snprintf(
                       why, n,
                       "text longer than %d bytes (%zu here; in UTF-8 a character takes 1 to 4)",
                       DESC_TEXT_MAX - 1, strlen(value)),
                   -1;
        snprintf(field, DESC_TEXT_MAX, "%s", value);
        return 0;
    }
    return -1;
}

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
    const char *origin = p->overlay ? p->src->overlays[p->overlay - 1] : p->src->origin;
    if (*section)
        cp_fail(p->err, CP_EINPUT, "%s:%d: %s.%s: %s", origin, p->rd.line, section, name, why);
    else
        cp_fail(p->err, CP_EINPUT, "%s:%d: %s: %s", origin, p->rd.line, name, why);
    p->failed = p->rd.line;
    return 0;
}

static struct desc_list *list_of(const struct desc_schema *s, void *target)
{
    return (struct desc_list *)((char *)target + s->list_off);
}

static int list_index(const struct desc_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->item[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* 0 if name may name an entry of the schema's list: not empty, plain
 * text, none of list_words; else -1 and why. */
static int list_name_check(const struct desc_schema *s, const char *name, char *why, size_t n)
{
    if (*name == '\0')
        return snprintf(why, n, "empty name (expected '%s.NAME=VALUE')", s->list_section), -1;
    if (strlen(name) >= DESC_NAME_MAX)
        return snprintf(why, n,
                        "name longer than %d bytes (%zu here; in UTF-8 a character takes 1 to 4)",
                        DESC_NAME_MAX - 1, strlen(name)),
               -1;
    if (desc_text_check(name, why, n) != 0)
        return -1;
    int idx;
    if (s->list_words && parse_choice(name, s->list_words, &idx) == 0) {
        char words[128] = "";
        for (const char *w = s->list_words; *w; w++) {
            size_t len = strlen(words);
            snprintf(words + len, sizeof words - len, *w == '|' ? ", " : "%c", *w);
        }
        return snprintf(why, n,
                        "'%s' is not a name an entry may take (%s mean something else "
                        "where an entry is named)",
                        name, words),
               -1;
    }
    return 0;
}

/* -1 (and why) when name reads as a value of the list's dimension other
 * than v: where a name or a value may be given (--memoryx), the name would
 * win and the size it names be silently ignored. */
static int list_name_misleads(const struct desc_schema *s, const char *name, double v, char *why,
                              size_t n)
{
    char sub[160], a[48], b[48];
    double as;
    if (unit_parse(name, s->list_dim, &as, sub, sizeof sub) != 0 || fabs(as - v) <= 1e-9 * fabs(v))
        return 0;
    return snprintf(why, n,
                    "the name reads as %s but the entry is %s (where a name or a size may be "
                    "given, the name wins); rename it or make them agree",
                    unit_format(as, s->list_dim, a, sizeof a),
                    unit_format(v, s->list_dim, b, sizeof b)),
           -1;
}

/* Set entry name of the schema's list section to value (replacing an entry
 * of that name); on failure write why. */
static int list_store(const struct desc_schema *s, void *target, const char *name,
                      const char *value, char *why, size_t n)
{
    struct desc_list *l = list_of(s, target);
    int i = list_index(l, name);
    if (i < 0 && l->n == DESC_LIST_MAX)
        return snprintf(why, n, "more than %d entries", DESC_LIST_MAX), -1;
    if (list_name_check(s, name, why, n) != 0 || desc_text_check(value, why, n) != 0)
        return -1;
    if (strstr(value, "+-") || strstr(value, "\xc2\xb1"))
        return snprintf(why, n, "an entry of [%s] takes no +- range (it is an exact amount)",
                        s->list_section),
               -1;
    double v;
    if (unit_parse(value, s->list_dim, &v, why, n) != 0)
        return -1;
    if (v <= 0)
        return snprintf(why, n, "must be greater than zero"), -1;
    if (list_name_misleads(s, name, v, why, n) != 0)
        return -1;
    if (i < 0) {
        i = (int)l->n++;
        snprintf(l->item[i].name, DESC_NAME_MAX, "%s", name);
    }
    l->item[i].value = v;
    return 0;
}

static int handle_list(struct parse *p, const char *name, const char *value)
{
    char why[320];
    int at = list_index(list_of(p->s, p->target), name);
    if (at >= 0 && (!p->overlay || p->list_seen[at]))
        return fail_at(p, p->s->list_section, name, "duplicate key");
    if (list_store(p->s, p->target, name, value, why, sizeof why) != 0)
        return fail_at(p, p->s->list_section, name, "%s", why);
    p->list_seen[list_index(list_of(p->s, p->target), name)] = 1;
    return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct parse *p = user;
    if (p->failed)
        return 0;
    if (*section == '\0')
        return fail_at(p, "", name, "key outside any section (put it under [section])");
    if (*name == '\0')
        return fail_at(p, section, name, "empty key name (expected 'key = value')");
    if (!known_section(p->s, section)) {
        char secs[256];
        list_sections(p->s, secs, sizeof secs);
        return fail_at(p, section, name, "unknown section [%s] in a %s file (known: %s)", section,
                       p->s->kind, secs);
    }
    if (p->s->list_section && strcmp(section, p->s->list_section) == 0)
        return handle_list(p, name, value);
    int i = desc_find(p->s, section, name);
    if (i < 0) {
        char keys[512];
        list_keys(p->s, section, keys, sizeof keys);
        return fail_at(p, section, name, "unknown key (keys of [%s]: %s)", section, keys);
    }
    if (p->seen[i])
        return fail_at(p, section, name, "duplicate key (first given on line %d)", p->src->line[i]);
    char why[CP_ERROR_MAX / 4];
    if (*value == '\0')
        return fail_at(p, section, name, "empty value (%s)", p->s->keys[i].help);
    if (store(&p->s->keys[i], value, p->target, &p->src->spread[i], why, sizeof why) != 0)
        return fail_at(p, section, name, "%s", why);
    p->seen[i] = 1;
    p->src->line[i] = p->rd.line;
    p->src->in_overlay[i] = p->overlay;
    return 1;
}

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
        list_of(s, target)->n = 0;
}

/* A "[name]" header at the start of the line, for a schema without that
 * section: report it (inih would only tell us about its keys, if any). */
static int check_header(const struct desc_schema *s, const char *start, const char *end,
                        const char *origin, int line, struct cp_error *err)
{
    while (start < end && (*start == ' ' || *start == '\t'))
        start++;
    const char *close = memchr(start, ']', (size_t)(end - start));
    if (start == end || *start != '[' || !close)
        return 0;
    char name[DESC_LINE_MAX + 1], secs[256]; /* lines were checked to fit */
    snprintf(name, sizeof name, "%.*s", (int)(close - start - 1), start + 1);
    if (known_section(s, name))
        return 0;
    list_sections(s, secs, sizeof secs);
    cp_fail(err, CP_EINPUT, "%s:%d: [%s]: unknown section in a %s file (known: %s)", origin, line,
            name, s->kind, secs);
    return -1;
}

/* The first control character (C0 but tab, or DEL) of the line [start,
 * end) outside a value, or NULL.  A value (after the first '=' or ':' of a
 * "key = value" line) is store()'s to check, which names its key. */
static const char *control_outside_value(const char *start, const char *end)
{
    const char *p = start;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    int keyline = p < end && *p != '[' && *p != ';' && *p != '#';
    for (const char *q = start; q < end; q++) {
        if (keyline && (*q == '=' || *q == ':'))
            return NULL;
        if (((unsigned char)*q < ' ' && *q != '\t') || *q == 0x7f)
            return q;
    }
    return NULL;
}

/* Before inih sees the text: reject lines longer than its buffer (it would
 * split them and our line count would drift), control characters outside
 * values (a name in a message must not move the terminal) and unknown
 * section headers. */
static int check_lines(const struct desc_schema *s, const char *text, const char *origin,
                       struct cp_error *err)
{
    int line = 1;
    const char *start = text;
    for (const char *q = text;; q++) {
        if (*q == '\n' || *q == '\0') {
            long len = q - start - (q > start && q[-1] == '\r');
            const char *c = control_outside_value(start, start + len);
            if (c) {
                cp_fail(err, CP_EINPUT, "%s:%d: control character 0x%02X at byte %ld%s", origin,
                        line, (unsigned char)*c, (long)(c - start) + 1,
                        *c == '\r' ? " (a carriage return inside a line: CR-only line ends? "
                                     "use LF or CR LF)"
                                   : " (a description is plain text)");
                return -1;
            }
            if (len > DESC_LINE_MAX) {
                cp_fail(err, CP_EINPUT, "%s:%d: line longer than %d characters (split the comment)",
                        origin, line, DESC_LINE_MAX);
                return -1;
            }
            if (check_header(s, start, q, origin, line, err) != 0)
                return -1;
            if (*q == '\0')
                return 0;
            line++;
            start = q + 1;
        }
    }
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
    if (check_lines(p->s, text, origin, p->err) != 0)
        return CP_EINPUT;
    p->rd.p = text;
    ini_allow_multiline = false;
    int rc = ini_parse_stream(read_line, &p->rd, handler, p);
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
    int k = ++src->noverlays;
    snprintf(src->overlays[k - 1], sizeof src->overlays[k - 1], "%s", origin);
    struct parse p = {.s = s, .target = target, .src = src, .err = err, .overlay = k};
    return run_parse(&p, text, origin);
}

const char *desc_where(const struct desc_src *src, int i, char *buf, size_t n)
{
    int line = i >= 0 ? src->line[i] : 0;
    if (line > 0)
        snprintf(buf, n, "%s:%d",
                 src->in_overlay[i] ? src->overlays[src->in_overlay[i] - 1] : src->origin, line);
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
     * value is store()'s to report, naming the key) */
    if (text_check_at(assign, &bad, why, sizeof why) != 0 && bad < strcspn(assign, "="))
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
    trim_end(key); /* "--set 'model.layers = 97'" */
    char value[256];
    snprintf(value, sizeof value, "%s", eq + 1);
    trim_end(value); /* as inih trims values read from files */
    const char *v0 = value;
    while (isspace((unsigned char)*v0))
        v0++;
    memmove(value, v0, strlen(v0) + 1);
    if (s->list_section && strcmp(sec, s->list_section) == 0) {
        if (list_store(s, target, key, value, why, sizeof why) != 0)
            return cp_fail(err, CP_EINPUT, "--set %s.%s: %s", sec, key, why);
        return CP_OK;
    }
    int i = desc_find(s, sec, key);
    if (i < 0)
        return cp_fail(err, CP_EINPUT, "--set %s.%s: no such key in a %s description", sec, key,
                       s->kind);
    double spread;
    if (store(&s->keys[i], value, target, &spread, why, sizeof why) != 0)
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

static const char *choice_name(const char *choices, int idx, char *buf, size_t n)
{
    const char *p = choices;
    for (int i = 0; i < idx && p; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, n, "?");
        return buf;
    }
    const char *bar = strchr(p, '|');
    snprintf(buf, n, "%.*s", (int)(bar ? (size_t)(bar - p) : strlen(p)), p);
    return buf;
}

char *desc_format(const struct desc_key *k, const void *target, char *buf, size_t n)
{
    const char *field = (const char *)target + k->off;
    switch (k->type) {
    case DESC_NUM_OR_WORD:
        if (*(const int *)((const char *)target + k->word_off)) {
            snprintf(buf, n, "%s", k->choices);
            return buf;
        }
        /* fall through */
    case DESC_NUM:
        return unit_format(*(const double *)field, k->dim, buf, n);
    case DESC_BOOL:
        snprintf(buf, n, "%s", *(const int *)field ? "true" : "false");
        return buf;
    case DESC_CHOICE:
        choice_name(k->choices, *(const int *)field, buf, n);
        return buf;
    case DESC_TEXT:
        snprintf(buf, n, "%s", field);
        return buf;
    }
    return buf;
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
