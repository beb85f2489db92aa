/* meas_valid.c - the lines of validate over both kinds and their figures
 * (meas_valid.h). */
#include "meas_valid.h"

#include <math.h>
#include <stdlib.h>

#include "../base/xalloc.h"

const char *const vkind_name[VKIND_N] = {"weight-streaming", "gpu"};

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double validate_median_abs(const double *v, size_t n)
{
    double *a = xmalloc((n ? n : 1) * sizeof *a);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            a[k++] = fabs(v[i]);
    qsort(a, k, sizeof *a, by_value); /* 8 files of 10,000 runs: not insertion */
    double m = k == 0 ? NAN : k % 2 ? a[k / 2] : (a[k / 2 - 1] + a[k / 2]) / 2;
    free(a);
    return m;
}

double validate_max_abs(const double *v, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && !(fabs(v[i]) <= m))
            m = fabs(v[i]);
    return m;
}

size_t validate_errors_of(const struct vline *l, size_t n, enum vkind kind, int loo, double *v)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (l[i].kind == kind)
            v[k++] = loo ? l[i].loo_error : l[i].error;
    return k;
}
