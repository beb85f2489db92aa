/* dtoa_int.h - what the files of dtoa_roundtrip_g share (not part of the
 * API; see dtoa.h): the table of powers of ten (dtoa_pow10.c) and the
 * %g-style writer of a decided digit string (dtoa_emit.c). */
#ifndef CP_BASE_DTOA_INT_H
#define CP_BASE_DTOA_INT_H

#include <stdint.h>

#include "dtoa.h"

/* 10^j ~= (hi * 2^64 + lo) * 2^e, the mantissa truncated to 128 bits with
 * its top bit set. */
struct pow10_entry {
    uint64_t hi, lo;
    int e;
};

#define POW10_MIN (-300)
#define POW10_MAX 345
extern const struct pow10_entry pow10_tab[POW10_MAX - POW10_MIN + 1];

/* Write printf's %g layout of the p-digit value d * 10^(x - p + 1), with
 * 10^(p-1) <= d < 10^p and p <= 17, to out (DTOA_BUF bytes), with a '-'
 * first when neg.  Returns the length written (out is NUL-terminated). */
int dtoa_emit_g(char *out, int neg, uint64_t d, int p, int x);

/* dtoa_roundtrip_g's first path alone (exported for tests/test_dtoa.c):
 * the same text and length when it settles v, else -1 (always for zeros,
 * infinities and NaNs). */
int dtoa_fast_g(double v, char out[DTOA_BUF]);

#endif
