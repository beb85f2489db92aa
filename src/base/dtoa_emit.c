/* dtoa_emit.c - the text of a decided value: the digits of an integer d,
 * trailing zeros dropped, laid out as printf's %g lays out p significant
 * digits with decimal exponent x (exponent form when x < -4 or x >= p,
 * else plain, as C11 7.21.6.1 says for %g without '#'). */
#include "dtoa_int.h"

#include <string.h>

/* Room for the digits of a 17-digit value, with slack. */
#define DIGITS_MAX 20

/* The p digits of d (10^(p-1) <= d < 10^p) into dig, two per division;
 * returns how many are left once trailing zeros are dropped (at least 1). */
static int digits_of(uint64_t d, int p, char dig[DIGITS_MAX])
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233"
        "34353637383940414243444546474849505152535455565758596061626364656667"
        "6869707172737475767778798081828384858687888990919293949596979899";
    int at = p - 1;
    for (; at >= 1; at -= 2) {
        unsigned r = (unsigned)(d % 100);
        d /= 100;
        dig[at] = pairs[2 * r + 1];
        dig[at - 1] = pairs[2 * r];
    }
    if (at == 0)
        dig[0] = (char)('0' + d % 10);
    int nd = p;
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    return nd;
}

/* "D.DDDe+XX" (at least two exponent digits, as printf); returns the end. */
static char *put_exponent_form(char *o, const char *dig, int nd, int x)
{
    *o++ = dig[0];
    if (nd > 1) {
        *o++ = '.';
        memcpy(o, dig + 1, (size_t)(nd - 1));
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

/* 0 <= x < p: "DDD" padded with zeros to x + 1 digits, or "DD.DDD";
 * returns the end. */
static char *put_plain_form(char *o, const char *dig, int nd, int x)
{
    if (nd <= x + 1) {
        memcpy(o, dig, (size_t)nd);
        o += nd;
        for (int i = nd; i <= x; i++)
            *o++ = '0';
    } else {
        memcpy(o, dig, (size_t)(x + 1));
        o += x + 1;
        *o++ = '.';
        memcpy(o, dig + x + 1, (size_t)(nd - x - 1));
        o += nd - x - 1;
    }
    return o;
}

/* -4 <= x < 0: "0.000DDD"; returns the end. */
static char *put_fraction_form(char *o, const char *dig, int nd, int x)
{
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < -x - 1; i++)
        *o++ = '0';
    memcpy(o, dig, (size_t)nd);
    return o + nd;
}

int dtoa_emit_g(char *out, int neg, uint64_t d, int p, int x)
{
    char dig[DIGITS_MAX];
    int nd = digits_of(d, p, dig);
    char *o = out;
    if (neg)
        *o++ = '-';
    if (x < -4 || x >= p)
        o = put_exponent_form(o, dig, nd, x);
    else if (x >= 0)
        o = put_plain_form(o, dig, nd, x);
    else
        o = put_fraction_form(o, dig, nd, x);
    *o = '\0';
    return (int)(o - out);
}
