/* dtoa_emit.c - the text of a decided value: the digits of an integer d,
 * trailing zeros dropped, laid out as printf's %g lays out p significant
 * digits with decimal exponent x (exponent form when x < -4 or x >= p,
 * else plain, as C11 7.21.6.1 says for %g without '#').
 *
 * The text is laid out in a scratch buffer with copies of fixed sizes
 * (which the compiler turns into a few moves, where copies of a computed
 * length call memcpy), then DTOA_BUF bytes of it go to out. */
#include "dtoa_int.h"

#include <string.h>

#include "dtoa.h"

/* Digits of a value, and the scratch buffer: room for a fixed copy of
 * DIGITS bytes starting anywhere in the text (at most 1 + 2 + 4 + 1 before
 * it), and for DTOA_BUF bytes copied out. */
#define DIGITS 17
#define SCRATCH 64

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The 8 digits of x < 10^8 into dig[0..8): its halves, then two digits
 * of each half per step. */
static inline void eight_digits(uint32_t x, char *dig)
{
    uint32_t hi = x / 10000, lo = x % 10000;
    memcpy(dig, pairs + 2 * (hi / 100), 2);
    memcpy(dig + 2, pairs + 2 * (hi % 100), 2);
    memcpy(dig + 4, pairs + 2 * (lo / 100), 2);
    memcpy(dig + 6, pairs + 2 * (lo % 100), 2);
}

/* The DIGITS digits of d < 10^DIGITS, zeros first, into dig (DIGITS bytes
 * and DIGITS more of room): the last eight and the eight before them each
 * in 32-bit arithmetic (two short chains of divisions instead of one
 * long one), the first alone. */
static inline void digits_of(uint64_t d, char *dig)
{
    uint64_t hi = d / 100000000;
    eight_digits((uint32_t)(d - hi * 100000000), dig + 9);
    eight_digits((uint32_t)(hi % 100000000), dig + 1);
    dig[0] = (char)('0' + hi / 100000000);
}

/* "D.DDDe+XX" (at least two exponent digits, as printf); returns the end. */
static char *put_exponent_form(char *o, const char *dig, int nd, int x)
{
    *o++ = dig[0];
    if (nd > 1) {
        *o++ = '.';
        memcpy(o, dig + 1, DIGITS);
        o += nd - 1;
    }
    *o++ = 'e';
    *o++ = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100)
        *o++ = (char)('0' + ax / 100);
    *o++ = (char)('0' + ax / 10 % 10);
    *o++ = (char)('0' + ax % 10);
    return o;
}

/* 0 <= x < p: "DDD" (the digits of d include the zeros up to x + 1), or
 * "DD.DDD"; returns the end. */
static char *put_plain_form(char *o, const char *dig, int nd, int x)
{
    memcpy(o, dig, DIGITS);
    if (nd <= x + 1)
        return o + x + 1;
    o[x + 1] = '.';
    memcpy(o + x + 2, dig + x + 1, DIGITS);
    return o + nd + 1;
}

/* -4 <= x < 0: "0.000DDD"; returns the end. */
static char *put_fraction_form(char *o, const char *dig, int nd, int x)
{
    memcpy(o, "0.000", 5);
    memcpy(o + 1 - x, dig, DIGITS);
    return o + 1 - x + nd;
}

int dtoa_emit_g(char *out, int neg, uint64_t d, int p, int x)
{
    char all[2 * DIGITS], text[SCRATCH];
    digits_of(d, all);
    const char *dig = all + DIGITS - p;
    int nd = p;
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    char *o = text;
    *o = '-';
    o += neg != 0;
    if (x < -4 || x >= p)
        o = put_exponent_form(o, dig, nd, x);
    else if (x >= 0)
        o = put_plain_form(o, dig, nd, x);
    else
        o = put_fraction_form(o, dig, nd, x);
    *o = '\0';
    memcpy(out, text, DTOA_BUF);
    return (int)(o - text);
}
