/* dtoa.c - exact "%.15g".."%.17g" round-trip text (see dtoa.h) for the
 * values the common path (dtoa_emit.c) leaves undecided: the fixed-point
 * arithmetic with the rounding interval scaled too, and exact integers for
 * the ties.  The powers of ten it scales by are in dtoa_pow10.c, the
 * writer of the chosen digits in dtoa_emit.c.
 *
 * A double v = c * 2^q is scaled by 10^j into 128-bit fixed point: c,
 * shifted so its top bit is set, times a 128-bit truncated 10^j from the
 * table, keeping the top 128 bits of the 192-bit product.  Both
 * truncations only lose, and together by less than two units in the last
 * place, so the exact scaled value t lies in [r, r + 2) (units 2^-sh).  Every
 * comparison below asks whether the answer holds for the whole of that
 * range and gives up otherwise. */
#include "dtoa.h"

#include <stdint.h>
#include <string.h>

#include "dtoa_int.h"

/* Error bound of scale(), in units of its result (the proof gives 2). */
#define SCALE_ERR 3

/* m * 2^q * 10^j as r * 2^-sh (r as described above).  Returns 0 when j is
 * outside the table or the binary point would fall outside a usable range
 * (integer part must fit 64 bits, fraction must be wide). */
static int scale(uint64_t m, int q, int j, u128 *r, int *sh)
{
    if (j < POW10_MIN || j > POW10_MAX)
        return 0;
    int lz = __builtin_clzll(m);
    uint64_t mm = m << lz;
    const struct pow10_entry *p = &pow10_tab[j - POW10_MIN];
    u128 a = (u128)mm * p->hi;
    u128 b = (u128)mm * p->lo;
    *r = a + (b >> 64);
    *sh = -(q - lz + p->e + 64);
    return *sh >= 66 && *sh <= 120;
}

/* Round t to the nearest integer; 0 when t may be a tie (or too close to
 * one to tell). */
static int round_near(u128 r, int sh, uint64_t *d)
{
    uint64_t ip = (uint64_t)(r >> sh);
    u128 fr = r & (((u128)1 << sh) - 1);
    u128 half = (u128)1 << (sh - 1);
    if (fr + SCALE_ERR <= half)
        *d = ip;
    else if (fr > half)
        *d = ip + 1; /* t's fraction is above a half, or t crossed ip + 1 */
    else
        return 0;
    return 1;
}

/* Sign of d - t: -1 or +1 when certain, 0 when d may equal t. */
static int cmp_int(uint64_t d, u128 r, int sh)
{
    uint64_t ip = (uint64_t)(r >> sh);
    u128 fr = r & (((u128)1 << sh) - 1);
    if (d < ip)
        return -1;
    if (d == ip)
        return fr == 0 ? 0 : -1; /* t >= r, equal to d only if fr is 0 */
    if (d - ip >= 2)
        return 1; /* t < r + 2 units < ip + 2 */
    /* d == ip + 1: t < d unless fr + err may reach a whole unit */
    return fr + SCALE_ERR <= ((u128)1 << sh) ? 1 : 0;
}

/* d rounded to p digits (15 <= p <= 17), from t = r / 2^sh, the value
 * scaled to 17 digits: floor(t / 10^k) plus one if the rest is above half
 * of 10^k (k = 17 - p, 0 to 2).  0 when the rest may be a tie. */
static int round_down_digits(u128 r, int sh, int k, uint64_t *d)
{
    if (k == 0)
        return round_near(r, sh, d);
    /* 10^k as a constant in each branch: the compiler divides by
     * multiplying, where a divisor read from a table costs a division */
    uint64_t ip = (uint64_t)(r >> sh), quot = k == 1 ? ip / 10 : ip / 100;
    uint64_t p10k = k == 1 ? 10 : 100;
    u128 fr = r & (((u128)1 << sh) - 1);
    u128 t = ((u128)(ip - quot * p10k) << sh) + fr;
    u128 half = ((u128)(p10k / 2)) << sh;
    if (t + SCALE_ERR <= half)
        *d = quot;
    else if (t > half)
        *d = quot + 1;
    else
        return 0;
    return 1;
}

/* v = c * 2^q, the lower end of its rounding interval lo_m * 2^lo_q (the
 * upper end is (2c + 1) * 2^(q - 1)), its decimal exponent x
 * (floor(log10 |v|)) and its sign. */
struct dv {
    uint64_t c, lo_m;
    int q, lo_q, x, neg;
};

/* v's rounding interval scaled by 10^j as scale() scales v. */
struct bounds {
    u128 rl, ru;
    int shl, shu;
};

/* Fill v (all but x) from the bits of d: -1 for an infinity or a NaN, 0
 * for a zero (only neg is set), else 1. */
static int decode(double d, struct dv *v)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    v->neg = (int)(bits >> 63);
    int be = (int)(bits >> FRAC_BITS) & EXP_ALL_ONES;
    uint64_t f = bits & ((UINT64_C(1) << FRAC_BITS) - 1);
    if (be == EXP_ALL_ONES)
        return -1;
    if (be == 0 && f == 0)
        return 0;
    v->c = be ? f | (UINT64_C(1) << FRAC_BITS) : f;
    v->q = be ? be - EXP_BIAS : 1 - EXP_BIAS;
    int irregular = f == 0 && be > 1; /* the gap below is half the gap above */
    /* Rounding interval of v: (lo, hi); strtod reads back v for values
     * strictly inside (ties on the edges are left undecided). */
    v->lo_m = irregular ? 4 * v->c - 1 : 2 * v->c - 1;
    v->lo_q = irregular ? v->q - 2 : v->q - 1;
    return 1;
}

/* "0" or "-0"; returns the length. */
static int write_zero(char *out, int neg)
{
    char *o = out;
    if (neg)
        *o++ = '-';
    *o++ = '0';
    *o = '\0';
    return (int)(o - out);
}

/* Set v->x: estimated from the binary exponent, then corrected against v
 * scaled to 17 digits (r, sh: v scaled by 10^(16 - x) for the estimate).
 * *moved is 0 when the estimate stood, so r is v scaled for the final x.
 * Returns 0 when the scaling is out of range. */
static int decimal_exponent(struct dv *v, u128 *r, int *sh, int *moved)
{
    int e2 = v->q + 63 - __builtin_clzll(v->c);
    int x = dtoa_floor_log10_pow2(e2);
    if (!scale(v->c, v->q, 16 - x, r, sh))
        return 0;
    uint64_t ip = (uint64_t)(*r >> *sh);
    *moved = 1;
    if (ip >= dtoa_pow10_u64[17])
        x++;
    else if (ip < dtoa_pow10_u64[16] - 1)
        x--;
    else
        *moved = 0;
    v->x = x;
    return 1;
}

/* v's rounding interval scaled by 10^j; 0 when out of range. */
static int scale_bounds(const struct dv *v, int j, struct bounds *b)
{
    return scale(v->lo_m, v->lo_q, j, &b->rl, &b->shl) &&
           scale(2 * v->c + 1, v->q - 1, j, &b->ru, &b->shu);
}

/* Is the p-digit candidate d, times mul to match the bounds' scaling,
 * inside v's rounding interval?  -1 when that cannot be told (or d is not
 * p digits), 0 when it is outside, else the length of v's text written to
 * out. */
static int judge(uint64_t d, uint64_t mul, int p, const struct dv *v, const struct bounds *b,
                 char *out)
{
    if (d < dtoa_pow10_u64[p - 1] || d > dtoa_pow10_u64[p])
        return -1;
    uint64_t big = d * mul;
    int cl = cmp_int(big, b->rl, b->shl), cu = cmp_int(big, b->ru, b->shu);
    if (cl == 0 || cu == 0)
        return -1;
    if (!(cl > 0 && cu < 0))
        return 0;
    int x = v->x;
    if (d == dtoa_pow10_u64[p]) { /* rounding carried into a new digit */
        d = dtoa_pow10_u64[p - 1];
        x++;
    }
    return dtoa_emit_g(out, v->neg, d, p, x);
}

/* The lengths decided without scaling v's rounding interval, the common
 * case.  t = r / 2^sh is v at 17 digits: in units of t, v's rounding
 * interval reaches hw = t / (2c) = 2^(q-1) * 10^j above t and as far
 * below it (half that below a power of two).  In doubles, t's fraction
 * and hw are off by far less than QUICK_MARGIN units, so a candidate (a
 * multiple of 10^(17 - p) near t) more than QUICK_MARGIN inside or outside
 * the interval is in or out for certain; anything closer is left to the
 * exact search.  Returns the length written, or 0 to let it decide. */
#define QUICK_MARGIN 1e-6
/* Units of t beyond which no candidate reads back: hw < t / 2^53 < 12
 * (t < 10^17, c >= 2^52 for the normal doubles the quick path takes; a
 * subnormal's wider hw is checked against it below). */
#define QUICK_REACH 12
static int quick_lengths(const struct dv *v, u128 r, int sh, char *out)
{
    static const uint64_t unit[3] = {100, 10, 1};
    /* t's integer part and the top 64 bits of its fraction, from r's
     * halves (66 <= sh <= 120, so 2 <= s <= 56) */
    int s = sh - 64;
    uint64_t hi = (uint64_t)(r >> 64), lo = (uint64_t)r;
    uint64_t ip = hi >> s;
    if (ip < dtoa_pow10_u64[16])
        return 0;
    double frac = (double)((hi << (64 - s)) | (lo >> s)) * 0x1p-64;
    double hw = ((double)ip + frac) / (2.0 * (double)v->c);
    int irregular = v->lo_q == v->q - 2; /* decode(): the gap below is half */
    double hw_below = irregular ? hw / 2 : hw;
    uint64_t q10 = ip / 10, q100 = q10 / 10;
    uint64_t rest[3] = {ip - q100 * 100, ip - q10 * 10, 0};
    /* 15 digits: t at least QUICK_REACH from both multiples of 100 round
     * it (when hw is below that), so %.15g does not read back, whichever
     * way it rounds */
    int i = rest[0] >= QUICK_REACH + 1 && rest[0] <= 99 - QUICK_REACH - 1 && hw < QUICK_REACH;
    for (; i < 3; i++) {
        double m = (double)unit[i], tm = (double)rest[i] + frac; /* t mod 10^k */
        if (tm > m / 2 - QUICK_MARGIN && tm < m / 2 + QUICK_MARGIN) {
            /* %.pg's rounding not certain: it does not matter when
             * neither way reads back */
            if (m / 2 - QUICK_MARGIN > hw + QUICK_MARGIN)
                continue;
            return 0;
        }
        int up = tm > m / 2;
        double dist = up ? m - tm : tm, reach = up ? hw : hw_below;
        if (dist > reach - QUICK_MARGIN && dist < reach + QUICK_MARGIN)
            return 0;
        if (dist > reach)
            continue; /* %.pg does not read back */
        uint64_t d = (i == 0 ? q100 : i == 1 ? q10 : ip) + (uint64_t)up;
        int p = 15 + i, x = v->x;
        if (d == dtoa_pow10_u64[p]) { /* rounding carried into a new digit */
            d = dtoa_pow10_u64[p - 1];
            x++;
        }
        return dtoa_emit_g(out, v->neg, d, p, x);
    }
    return 0; /* %.17g always reads back: not reached */
}

/* The loop of search_each_length with one scaling instead of three per
 * length: v, and its rounding interval, scaled once to 17 digits; each
 * shorter candidate is the 17-digit value rounded, compared times
 * 10^(17 - p) with the interval.  The same answers (both decide only when
 * certain); returns the length written, or 0 to let the loop decide.
 * given, when not NULL, is v already scaled to 17 digits (given_sh). */
static int shortest_from_17(const struct dv *v, const u128 *given, int given_sh, char *out)
{
    int j = 16 - v->x;
    u128 r;
    int sh;
    struct bounds b;
    if (given)
        r = *given, sh = given_sh;
    else if (!scale(v->c, v->q, j, &r, &sh))
        return 0;
    int n = quick_lengths(v, r, sh, out);
    if (n > 0)
        return n;
    if (!scale_bounds(v, j, &b))
        return 0;
    for (int p = 15; p <= 17; p++) {
        uint64_t d;
        int k = 17 - p;
        if (!round_down_digits(r, sh, k, &d))
            return 0;
        n = judge(d, dtoa_pow10_u64[k], p, v, &b, out);
        if (n != 0)
            return n < 0 ? 0 : n;
    }
    return 0;
}

/* For p = 15, 16, 17: v scaled to p digits and rounded, the first that
 * lies inside v's rounding interval; -1 when a step cannot be decided. */
static int search_each_length(const struct dv *v, char *out)
{
    for (int p = 15; p <= 17; p++) {
        int j = p - 1 - v->x;
        uint64_t d;
        u128 r;
        int sh;
        struct bounds b;
        if (!scale(v->c, v->q, j, &r, &sh) || !round_near(r, sh, &d))
            return -1;
        if (!scale_bounds(v, j, &b))
            return -1;
        int n = judge(d, 1, p, v, &b, out);
        if (n != 0)
            return n;
    }
    return -1; /* unreachable: %.17g always reads back */
}

/* The answer in exact integers, for the v the fixed point leaves
 * undecided (a rounding tie, mostly: a value with few fraction bits, such
 * as 21705569198631.3125, whose 17th digit is followed by exactly a half).
 * It takes v = c * 2^q with -EXACT_MAX_SH <= q < 0 and j = 16 - x from 0
 * to 17: then t = v * 10^j is c * 10^j / 2^sh (sh = -q), c * 10^j below
 * 2^113, exactly.  For each length p, d is t / 10^(17 - p) rounded to
 * the nearest, a tie to the even one (printf's rounding of an exact
 * decimal); it reads back when d * 10^(17 - p) / 10^j lies strictly inside
 * v's rounding interval, compared exactly after multiplying all by
 * 10^j * 2^(sh + 2) (d * 10^(17 - p) < 2^57, so that is below 2^127 while
 * sh <= EXACT_MAX_SH).  On the interval's edge (strtod's own tie) it
 * gives up, -1; else the length written. */
#define EXACT_MAX_SH 68
static int exact_lengths(const struct dv *v, char *out)
{
    int j = 16 - v->x, sh = -v->q;
    if (j < 0 || j > 17 || sh <= 0 || sh > EXACT_MAX_SH)
        return -1;
    u128 t = (u128)v->c * dtoa_pow10_u64[j];
    u128 hi = (u128)(2 * v->c + 1) * 2 * dtoa_pow10_u64[j];
    u128 lo = (u128)v->lo_m * dtoa_pow10_u64[j] * (v->lo_q == v->q - 1 ? 2 : 1);
    if (t >> sh < dtoa_pow10_u64[16] || t >> sh >= dtoa_pow10_u64[17])
        return -1; /* x was not v's decimal exponent */
    for (int p = 15; p <= 17; p++) {
        int k = 17 - p;
        u128 den = (u128)dtoa_pow10_u64[k] << sh;
        uint64_t d = (uint64_t)(t / den);
        u128 rest2 = 2 * (t % den);
        d += rest2 > den || (rest2 == den && (d & 1));
        u128 at = ((u128)d * dtoa_pow10_u64[k]) << (sh + 2);
        if (at == lo || at == hi)
            return -1;
        if (at > lo && at < hi) {
            int x = v->x;
            if (d == dtoa_pow10_u64[p]) { /* rounding carried into a new digit */
                d = dtoa_pow10_u64[p - 1];
                x++;
            }
            return dtoa_emit_g(out, v->neg, d, p, x);
        }
    }
    return -1; /* not reached: %.17g reads back */
}

int dtoa_exact_g(double d, char out[DTOA_BUF])
{
    struct dv v;
    int kind = decode(d, &v);
    if (kind <= 0)
        return kind < 0 ? -1 : write_zero(out, v.neg);
    u128 r;
    int sh, moved;
    if (!decimal_exponent(&v, &r, &sh, &moved))
        return -1;
    /* v scaled at 16 - x is r when the estimate of x stood */
    int n = shortest_from_17(&v, moved ? NULL : &r, sh, out);
    if (n != 0)
        return n;
    n = search_each_length(&v, out);
    return n >= 0 ? n : exact_lengths(&v, out);
}
