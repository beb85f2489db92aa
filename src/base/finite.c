/* finite.c - the finiteness gate (finite.h). */
#include "finite.h"

#include <math.h>

size_t finite_first(const struct finite_fig *f, size_t n)
{
    size_t i = 0;
    while (i < n && isfinite(f[i].value))
        i++;
    return i;
}

cp_status finite_check(const struct finite_fig *f, size_t n, const char *at, struct cp_error *err)
{
    size_t i = finite_first(f, n);
    if (i == n)
        return CP_OK;
    return cp_fail(err, CP_EINPUT,
                   "the inputs are outside the range the model can represent: the %s is not a "
                   "finite number%s (look for a value near zero or far too large in %s)",
                   f[i].name, at, f[i].inputs);
}
