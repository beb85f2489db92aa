/* desc_list.c - the optional list section of a schema (desc.h): entries
 * of any name with a value of one dimension, such as the MemoryX capacity
 * tiers of a hardware file.  A name is plain text, none of the schema's
 * reserved words, and must not read as a different amount than its value. */
#include "desc_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct desc_list *desc_list_of(const struct desc_schema *s, void *target)
{
    return (struct desc_list *)((char *)target + s->list_off);
}

int desc_list_index(const struct desc_list *l, const char *name)
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
    if (s->list_words && desc_parse_choice(name, s->list_words, &idx) == 0) {
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
int desc_list_store(const struct desc_schema *s, void *target, const char *name, const char *value,
                    char *why, size_t n)
{
    struct desc_list *l = desc_list_of(s, target);
    int i = desc_list_index(l, name);
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
