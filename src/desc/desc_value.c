/* desc_value.c - the schema's keys and the values they take: looking up a
 * section or key (and listing them for hints), converting a value's text
 * to SI units with its checks and an optional "+- range", and formatting a
 * key's value back for people (desc_format()). */
#include "desc_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int desc_find(const struct desc_schema *s, const char *section, const char *name)
{
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i].section, section) == 0 && strcmp(s->keys[i].name, name) == 0)
            return (int)i;
    return -1;
}

int desc_known_section(const struct desc_schema *s, const char *section)
{
    if (s->list_section && strcmp(section, s->list_section) == 0)
        return 1;
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i].section, section) == 0)
            return 1;
    return 0;
}

/* "[system] [memoryx] [swarmx]" for hints (see desc_int.h). */
void desc_list_sections(const struct desc_schema *s, char *buf, size_t n)
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

void desc_list_keys(const struct desc_schema *s, const char *section, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < s->nkeys; i++) {
        if (strcmp(s->keys[i].section, section) != 0)
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", s->keys[i].name);
    }
}

void desc_trim_end(char *s)
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

int desc_parse_choice(const char *v, const char *choices, int *out)
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

int desc_number_check(const struct desc_key *k, double v, char *why, size_t n)
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
    desc_trim_end(buf);
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
        if (desc_number_check(k, ends[i], sub, sizeof sub) != 0)
            return snprintf(why, n, "range reaches %g, which %s", ends[i], sub), -1;
    return 0;
}

/* Convert value for key k into target and its range into *spread (0 for
 * none); on failure write why. */
int desc_store(const struct desc_key *k, const char *value, void *target, double *spread, char *why,
               size_t n)
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
        if (unit_parse(buf, k->dim, &v, why, n) != 0 || desc_number_check(k, v, why, n) != 0)
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
        if (desc_parse_choice(value, k->choices, (int *)field) == 0)
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
