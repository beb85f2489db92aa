/* minmax.h - fmax and fmin inline.  The libm calls are not inlined at -O2
 * (the C semantics for NaN rule out maxsd); these return the same bits:
 * the non-NaN argument when one is NaN, else the larger (smaller), and y
 * when they compare equal (so of +0 and -0, y), as glibc's x86-64 fmax and
 * fmin do.  For the model's hot paths, where the calls cost more than the
 * comparisons.  And mm_same(): the keys of what the hot paths keep. */
#ifndef CP_MINMAX_H
#define CP_MINMAX_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline double mm_max(double x, double y)
{
    return isnan(y) ? x : x > y ? x : y;
}

static inline double mm_min(double x, double y)
{
    return isnan(y) ? x : x < y ? x : y;
}

/* x and y are the same bits (of +0 and -0, or two NaNs, only when they
 * are): a number kept from an earlier call may stand for the new one. */
static inline int mm_same(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/* The bits of x (mm_same() of many numbers at once: their XORs ORed). */
static inline uint64_t mm_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

#endif
