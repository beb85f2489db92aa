/* dtoa_int.h - what the files of dtoa_roundtrip_g share (not part of the
 * API; see dtoa.h): the layout of a double, the table of powers of ten
 * (dtoa_pow10.c), the %g-style writer of a decided digit string and the
 * common path (dtoa_emit.c), and the exact paths (dtoa.c). */
#ifndef CP_BASE_DTOA_INT_H
#define CP_BASE_DTOA_INT_H

#include <stdint.h>

#include "dtoa.h"

__extension__ typedef unsigned __int128 u128;

/* IEEE 754 binary64: v = c * 2^q with c the fraction (and the implicit bit
 * of a normal v) and q = be - EXP_BIAS for a biased exponent be > 0. */
#define FRAC_BITS 52
#define EXP_ALL_ONES 0x7ff /* biased exponent of infinities and NaNs */
#define EXP_BIAS (1023 + FRAC_BITS)
/* log10(2) ~= LOG10_2_NUM / 2^LOG10_2_SHIFT, for the first estimate of
 * the decimal exponent from the binary one (then corrected by one either
 * way against v scaled). */
#define LOG10_2_NUM 78913
#define LOG10_2_SHIFT 18

/* floor(e2 * log10(2)) for -1074 <= e2 <= 1023 (every double's binary
 * exponent), shifted by LOG10_BIAS to stay positive: no branch on the
 * sign. */
#define LOG10_BIAS 400
static inline int dtoa_floor_log10_pow2(int e2)
{
    return (int)(((uint32_t)(e2 * LOG10_2_NUM + (LOG10_BIAS << LOG10_2_SHIFT))) >>
                 LOG10_2_SHIFT) -
           LOG10_BIAS;
}

/* 10^j ~= (hi * 2^64 + lo) * 2^e, the mantissa truncated to 128 bits with
 * its top bit set. */
struct pow10_entry {
    uint64_t hi, lo;
    int e;
};

#define POW10_MIN (-300)
#define POW10_MAX 345
extern const struct pow10_entry pow10_tab[POW10_MAX - POW10_MIN + 1];

/* 10^i for i from 0 to 17, exactly. */
extern const uint64_t dtoa_pow10_u64[18];

/* Write printf's %g layout of the p-digit value d * 10^(x - p + 1), with
 * 10^(p-1) <= d < 10^p and p <= 17, to out (DTOA_BUF bytes), with a '-'
 * first when neg.  Returns the length written (out is NUL-terminated). */
int dtoa_emit_g(char *out, int neg, uint64_t d, int p, int x);

/* dtoa_fast_g (dtoa.h), dtoa_roundtrip_g's first path (also tested
 * alone): the same text and length when it settles v, else -1 (always
 * for zeros, subnormals, infinities, NaNs and powers of two).
 * dtoa_exact_g, its other paths (dtoa.c): the same contract as
 * dtoa_roundtrip_g. */

#endif
