/* range.c - parse "1,2,4", "A..B" and "A..BxF". */
#include "range.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "cli.h"

static int num(const char *flag, const char *whole, const char *s, double *v)
{
    char why[256];
    if (unit_parse(s, UNIT_COUNT, v, why, sizeof why) != 0)
        return cli_error("%s '%s': '%s': %s", flag, whole, s, why);
    return -1;
}

static int push(const char *flag, const char *whole, double **vals, size_t *n, size_t *cap,
                double v)
{
    if (*n == RANGE_MAX)
        return cli_error("%s '%s': more than %d values", flag, whole, RANGE_MAX);
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *vals = xrealloc(*vals, *cap * sizeof **vals);
    }
    (*vals)[(*n)++] = v;
    return -1;
}

static int item(const char *flag, const char *whole, const char *what, char *s, double **vals,
                size_t *n, size_t *cap)
{
    char *dots = strstr(s, "..");
    double a, b, f = 0;
    int rc;
    if (!dots) {
        if ((rc = num(flag, whole, s, &a)) >= 0)
            return rc;
        return push(flag, whole, vals, n, cap, a);
    }
    *dots = '\0';
    char *hi = dots + 2, *x = strchr(hi, 'x');
    if (x) {
        *x = '\0';
        if ((rc = num(flag, whole, x + 1, &f)) >= 0)
            return rc;
        if (!(f > 1))
            return cli_error("%s '%s': the factor after 'x' must be above 1", flag, whole);
    }
    if ((rc = num(flag, whole, s, &a)) >= 0 || (rc = num(flag, whole, hi, &b)) >= 0)
        return rc;
    if (!(b >= a))
        return cli_error("%s '%s': the range must not run backwards", flag, whole);
    if (!x && b - a >= RANGE_MAX)
        return cli_error("%s '%s': more than %d values", flag, whole, RANGE_MAX);
    if (x && !(a > 0))
        return cli_error("%s '%s': a geometric range must start above 0", flag, whole);
    /* Step by index, so rounding does not accumulate. */
    for (double i = 0;; i++) {
        double v = x ? a * pow(f, i) : a + i;
        if (v > b * (1 + 1e-12))
            break;
        if (what && x && a == floor(a) && v != floor(v))
            return cli_error("%s '%s': the factor %s makes %.15g, not a whole number of %s "
                             "(give a whole factor, or a list)",
                             flag, whole, x + 1, v, what);
        if ((rc = push(flag, whole, vals, n, cap, v)) >= 0)
            return rc;
    }
    return -1;
}

int range_parse(const char *flag, const char *arg, const char *what, double **vals, size_t *n)
{
    char *copy = xstrdup(arg);
    size_t cap = 0;
    *vals = NULL;
    *n = 0;
    int rc = -1;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc < 0; tok = strtok_r(NULL, ",", &save))
        rc = item(flag, arg, what, tok, vals, n, &cap);
    if (rc < 0 && *n == 0)
        rc = cli_error("%s '%s': no values", flag, arg);
    free(copy);
    if (rc >= 0) {
        free(*vals);
        *vals = NULL;
        *n = 0;
    }
    return rc;
}
