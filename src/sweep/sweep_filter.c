/* sweep_filter.c - --columns and --where filters (the --best row of each
 * group is the grid's: src/grid/grid_best.c). */
#include "sweep_filter.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/words.h"
#include "../base/xalloc.h"
#include "../cli/cli.h"

int sweep_col(const char *name, const char *const *names, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

const char *sweep_col_hint(const char *name, const char *const *names, size_t ncols, char *buf,
                           size_t n)
{
    char near[256];
    if (words_suggest(name, names, ncols, near, sizeof near) > 0)
        snprintf(buf, n, "did you mean %s?", near);
    else
        snprintf(buf, n, "the names are the CSV header's: cerebras-plan sweep --csv | head -n 1");
    return buf;
}

int sweep_columns_parse(const char *flag, const char *arg, const char *const *names, size_t ncols,
                        size_t *sel, size_t max, size_t *nsel)
{
    *nsel = 0;
    for (const char *p = arg; *p;) {
        size_t len = strcspn(p, ",");
        const char *end = p + len;
        while (p < end && isspace((unsigned char)*p))
            p++;
        size_t n = (size_t)(end - p);
        while (n && isspace((unsigned char)p[n - 1]))
            n--;
        char name[128], hint[320];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        int c = n ? sweep_col(name, names, ncols) : -1;
        if (n && c < 0)
            return cli_error("%s '%s': no column '%s' (%s)", flag, arg, name,
                             sweep_col_hint(name, names, ncols, hint, sizeof hint));
        if (c >= 0 && *nsel == max)
            return cli_error("%s '%s': more than %zu columns", flag, arg, max);
        if (c >= 0)
            sel[(*nsel)++] = (size_t)c;
        p = *end ? end + 1 : end;
    }
    if (*nsel == 0)
        return cli_error("%s '%s': no column names", flag, arg);
    return -1;
}

int sweep_col_is_text(const char *const *names, size_t col, size_t nbase)
{
    /* the weight-streaming columns' (est.h), then the GPU columns' */
    static const char *const text[] = {
        "model",       "system",    "memoryx",         "bottleneck",
        "activations", "warnings",  "stream_bound_by", "gradient_bound_by",
        "kind",        "precision", "recompute",       "reason"};
    if (col >= nbase)
        return 1;
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (strcmp(names[col], text[i]) == 0)
            return 1;
    return 0;
}

int sweep_where_parse(const char *flag, const char *arg, const char *const *names, size_t ncols,
                      size_t nbase, struct sweep_where *w)
{
    static const struct {
        const char *s;
        enum sweep_op op;
    } ops[] = {
        {"<=", SWEEP_LE}, {">=", SWEEP_GE}, {"<", SWEEP_LT}, {">", SWEEP_GT}, {"=", SWEEP_EQ}};
    size_t at = strcspn(arg, "<>=");
    if (arg[at] == '\0')
        return cli_error("%s '%s': expected COL<=V, COL<V, COL>=V, COL>V or COL=V", flag, arg);
    size_t i = 0;
    while (strncmp(arg + at, ops[i].s, strlen(ops[i].s)) != 0)
        i++;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)at, arg);
    int col = sweep_col(name, names, ncols);
    char hint[320];
    if (col < 0)
        return cli_error("%s '%s': no column '%s' (%s)", flag, arg, name,
                         sweep_col_hint(name, names, ncols, hint, sizeof hint));
    w->col = (size_t)col;
    w->op = ops[i].op;
    w->text = arg + at + strlen(ops[i].s);
    if (sweep_col_is_text(names, w->col, nbase)) {
        if (w->op != SWEEP_EQ)
            return cli_error("%s '%s': column '%s' holds text; only = applies", flag, arg, name);
        return -1;
    }
    /* A plain number, or for seconds a time with its unit ("30d"). */
    size_t len = strlen(name);
    int secs = len > 2 && strcmp(name + len - 2, "_s") == 0;
    char why[256];
    if (unit_parse(w->text, UNIT_COUNT, &w->v, why, sizeof why) != 0 &&
        (!secs || unit_parse(w->text, UNIT_TIME, &w->v, why, sizeof why) != 0))
        return cli_error("%s '%s': '%s': %s", flag, arg, w->text, why);
    return -1;
}

int sweep_where_holds(const struct sweep_where *w, const char *const *cells,
                      const unsigned char *num, const double *value, size_t nnum)
{
    const char *c = cells[w->col];
    if (w->text && w->op == SWEEP_EQ && strcmp(c, w->text) == 0)
        return 1;
    double x;
    if (w->col < nnum && num[w->col]) {
        x = value[w->col];
    } else {
        char *end;
        x = strtod(c, &end);
        if (end == c || *end)
            return 0;
    }
    switch (w->op) {
    case SWEEP_LE:
        return x <= w->v;
    case SWEEP_LT:
        return x < w->v;
    case SWEEP_GE:
        return x >= w->v;
    case SWEEP_GT:
        return x > w->v;
    case SWEEP_EQ:
        return x == w->v;
    }
    return 0;
}
