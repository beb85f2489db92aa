/* dtoa.h - exact decimal text for doubles, without stdio.
 *
 * dtoa_roundtrip_g(v, out) writes what the first of printf's "%.15g",
 * "%.16g" and "%.17g" (C locale, correctly rounded) that reads back as v
 * would print.  It works on integers only (128-bit fixed point against a
 * table of powers of ten) and gives up, returning -1, whenever it cannot
 * prove a decision: a rounding tie, a candidate on the edge of v's rounding
 * interval, or v infinite or NaN.  The caller then falls back to
 * snprintf/strtod. */
#ifndef CP_BASE_DTOA_H
#define CP_BASE_DTOA_H

#include <math.h>
#include <stdint.h>

/* Room out must have: sign, 17 digits, '.', "e-308", NUL, with slack. */
#define DTOA_BUF 32

/* dtoa_roundtrip_g's common path (a normal v, in 64-bit integers) and the
 * exact paths for what it leaves undecided (-1): each with its contract. */
int dtoa_fast_g(double v, char out[DTOA_BUF]);
int dtoa_exact_g(double v, char out[DTOA_BUF]);

/* Length written to out (NUL-terminated), or -1 when undecided.  Any of
 * out's DTOA_BUF bytes may be written, past the NUL too.  Inline: the
 * call saved is a tenth of the common path's cost. */
static inline int dtoa_roundtrip_g(double v, char out[DTOA_BUF])
{
    int n = dtoa_fast_g(v, out);
    return n > 0 ? n : dtoa_exact_g(v, out);
}

/* The plain digits of u < 10^15 (as "%.15g" prints a whole number), after a '-' when neg (so "-0" for neg
 * and u = 0): the length written to out (NUL-terminated). */
int dtoa_whole_digits(int neg, uint64_t u, char out[DTOA_BUF]);

/* dtoa_roundtrip_g(v, out), the same text and result, with a whole v below
 * 10^15 written as its digits without the scaling: "%.15g" prints such a
 * v exactly, and reads back.  -0 too: u = 0 with neg is "-0", as printf
 * prints it. */
static inline int dtoa_roundtrip_whole_g(double v, char out[DTOA_BUF])
{
    double a = fabs(v);
    if (a < 1e15) {
        long long i = (long long)a; /* a < 10^15: in range */
        if ((double)i == a)
            return dtoa_whole_digits(signbit(v) != 0, (uint64_t)i, out);
    }
    return dtoa_roundtrip_g(v, out);
}

#endif
