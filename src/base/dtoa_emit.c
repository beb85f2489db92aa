/* dtoa_emit.c - the common path of dtoa_roundtrip_g (see dtoa.h): a
 * normal double's shortest of "%.15g".."%.17g" decided in 64-bit integers
 * after one 128-bit product, and the text of any decided value laid out
 * as printf's %g would; the values it cannot settle go to the exact paths
 * (dtoa.c).  Also the plain digits of whole numbers (dtoa_whole_digits).
 *
 * Digits are made sixteen at a time, one byte each, by dividing lanes of
 * a register at once (multiply and shift; SSE2 where the compiler targets
 * it, else two 64-bit words of lanes), and stored eight or sixteen bytes
 * at a time straight into out; a decimal point is made by storing the
 * digits after it again, one byte further on.  Every store stays inside
 * out's DTOA_BUF bytes. */
#include "dtoa.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "dtoa_int.h"

#define DTOA_1E8 100000000u
#define DTOA_1E16 10000000000000000u
#define DTOA_1E17 100000000000000000u
/* '0' in every byte of a word of eight digits. */
#define ASCII_ZEROS 0x3030303030303030u

/* Store w's eight bytes at o, its lowest byte first (the first digit of a
 * word of digits first). */
static inline void put8(char *o, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(o, &w, sizeof w);
}

/* The 8 digits of n < 10^8 (zeros first) as the bytes of a word, the
 * first digit in the lowest byte, each byte 0 to 9: halves of 4 digits in
 * two 32-bit lanes, each split into pairs (x / 100 as x * 5243 >> 19,
 * exact for x < 10^4) in four 16-bit lanes, each split into digits (x / 10
 * as x * 103 >> 10, exact for x < 100); no lane's product reaches the
 * next.  Each split puts the quotient q in a lane's low half and x - q * d
 * in its high half, as (x << w) + q * (1 - d * 2^w): one multiply. */
static inline uint64_t digits8(uint32_t n)
{
    uint64_t hi = (uint64_t)n * 0xd1b71759u >> 45; /* n / 10^4, as compilers do it */
    uint64_t v = ((uint64_t)n << 32) + hi * (1 - (UINT64_C(10000) << 32));
    uint64_t q = ((v * 5243) >> 19) & 0x0000007f0000007fu;
    uint64_t w = (v << 16) + q * (1 - (UINT64_C(100) << 16));
    uint64_t t = ((w * 103) >> 10) & 0x000f000f000f000fu;
    return (w << 8) + t * (1 - (UINT64_C(10) << 8));
}

#ifdef __SSE2__
/* c, which the compiler no longer sees as a constant: a multiply by it
 * stays one instruction instead of a row of shifts and adds. */
static inline __m128i opaque(__m128i c)
{
    __asm__("" : "+x"(c));
    return c;
}
#endif

/* The 16 digits of h * 10^8 + l (h, l < 10^8) as two words of digits
 * (values 0 to 9; a the first eight). */
static inline void digits16(uint32_t h, uint32_t l, uint64_t *a, uint64_t *b)
{
#ifdef __SSE2__
    /* h and l in the two 64-bit lanes, each split into groups of 4 digits
     * (x / 10^4 as x * 0xd1b71759 >> 45, exact for x < 10^8) in 32-bit
     * lanes 0 and 2, then gathered in the 16-bit lanes 0 to 3; in those, x
     * / 100 as the high half of x * 5243 shifted by 3 (x * 5243 >> 19),
     * x / 10 as the high half of x * 6554 (exact for x < 100) */
    __m128i x = _mm_set_epi64x(l, h);
    __m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)0xd1b71759)), 45);
    __m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, opaque(_mm_set1_epi32(10000))));
    x = _mm_shuffle_epi32(_mm_or_si128(hi, _mm_slli_epi32(lo, 16)), _MM_SHUFFLE(3, 1, 2, 0));
    __m128i q = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi16(5243)), 3);
    __m128i r = _mm_sub_epi16(x, _mm_mullo_epi16(q, opaque(_mm_set1_epi16(100))));
    __m128i w = _mm_unpacklo_epi16(q, r);
    __m128i t = _mm_mulhi_epu16(w, _mm_set1_epi16(6554));
    __m128i u = _mm_sub_epi16(w, _mm_mullo_epi16(t, opaque(_mm_set1_epi16(10))));
    __m128i d = _mm_or_si128(t, _mm_slli_epi16(u, 8));
    *a = (uint64_t)_mm_cvtsi128_si64(d);
    *b = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d));
#else
    *a = digits8(h);
    *b = digits8(l);
#endif
}

/* The 17 digits of D (10^16 <= D < 10^17): the first as a character, the
 * next sixteen as two words of characters (a, b), and the number of
 * digits left when trailing zeros are dropped. */
struct digits17 {
    uint64_t a, b;
    char first;
    int nd;
};

static inline struct digits17 split17(uint64_t D)
{
    struct digits17 g;
    /* the first nine digits, then the first alone (32-bit: cheaper) */
    uint64_t h9 = D / DTOA_1E8;
    uint32_t l = (uint32_t)(D - h9 * DTOA_1E8);
    uint32_t top = (uint32_t)h9 / DTOA_1E8, h = (uint32_t)h9 - top * DTOA_1E8;
    digits16(h, l, &g.a, &g.b);
    /* a word's last digit is its highest byte: its leading zero bytes are
     * the trailing zero digits */
    g.nd = g.b   ? 10 + ((63 - __builtin_clzll(g.b)) >> 3) /* 17 - clz / 8 */
           : g.a ? 2 + ((63 - __builtin_clzll(g.a)) >> 3)
                 : 1;
    g.first = (char)('0' + top);
    g.a += ASCII_ZEROS;
    g.b += ASCII_ZEROS;
    return g;
}

/* "D.DDDe+XX" (at least two exponent digits, as printf); returns the end. */
static char *put_exponent_form(char *o, const struct digits17 *g, int x)
{
    *o++ = g->first;
    if (g->nd > 1) {
        o[0] = '.';
        put8(o + 1, g->a);
        put8(o + 9, g->b);
        o += g->nd;
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

/* 0 <= x <= 16: "DDD" (the first x + 1 digits, zeros included), or
 * "DD.DDD" with the point after digit x; returns the end.  The point
 * overwrites a digit, which the word holding it, shifted past the digits
 * before the point, puts back one byte on. */
static inline char *put_plain_form(char *o, const struct digits17 *g, int x)
{
    o[0] = g->first;
    put8(o + 1, g->a);
    if (g->nd <= x + 1) {
        put8(o + 9, g->b);
        return o + x + 1;
    }
    if (x < 8) {
        o[x + 1] = '.';
        put8(o + x + 2, g->a >> (8 * x));
        put8(o + 10, g->b);
    } else {
        put8(o + 9, g->b);
        o[x + 1] = '.';
        put8(o + x + 2, g->b >> (8 * (x - 8)));
    }
    return o + g->nd + 1;
}

/* -4 <= x < 0: "0.000DDD"; returns the end. */
static inline char *put_fraction_form(char *o, const struct digits17 *g, int x)
{
    memcpy(o, "0.000000", 8);
    o += 1 - x;
    o[0] = g->first;
    put8(o + 1, g->a);
    put8(o + 9, g->b);
    return o + g->nd;
}

/* dtoa_emit_g for the p-digit value given as D = d * 10^(17 - p), its 17
 * digits (10^16 <= D < 10^17). */
static inline int emit17(char *out, int neg, uint64_t D, int p, int x)
{
    struct digits17 g = split17(D);
    char *o = out;
    *o = '-';
    o += neg != 0;
    if (x >= 0 && x < p)
        o = put_plain_form(o, &g, x);
    else if (x < -4 || x >= p)
        o = put_exponent_form(o, &g, x);
    else
        o = put_fraction_form(o, &g, x);
    *o = '\0';
    return (int)(o - out);
}

int dtoa_emit_g(char *out, int neg, uint64_t d, int p, int x)
{
    return emit17(out, neg, d * dtoa_pow10_u64[17 - p], p, x);
}

/* The common case, a normal v, in 64-bit integers after one 128-bit
 * product.  v = c * 2^q (2^52 <= c < 2^53) is scaled by 10^j, j = 14 - x,
 * with 10^j = P * 2^e (P the table's 128-bit mantissa, top bit set): r =
 * mm * P / 2^64 with mm = c * 2^k, k = q + e + 136, puts the binary point
 * of u = v * 10^j = r / 2^72 at a fixed place (scale() in dtoa.c shifts c
 * to the top instead and moves the point).  r is below u * 2^72 by less
 * than 2 (P and the product truncated).  u's integer part holds the first
 * 15 digits; its fraction, times 100, gives the 16th and 17th and the
 * fraction of t = 100 u = v * 10^(16 - x) below them.  u is in [10^14,
 * 10^16) (x right, or one too low), and mm = r * 2^64 / P is in (u * 2^8,
 * u * 2^9], so k is from 1 to 10 (from 3 to 6 in fact, k depending on
 * v's binary exponent alone: checked for each): mm fits, and r < 2^126.
 * The half-gap above v, hw = 2^(q-1) * 10^(j+2), is 100 * P * 2^(k - 81)
 * units of 2^-56 of t: P's top half times 100 * 2^k shifted by 17 (v's
 * rounding interval reaches hw above t and below; at a power of two, c =
 * 2^52, only hw / 2 below, and those are left to the exact paths).
 * Everything after is in units of 2^-56 of t: t mod 10^k (k = 17 - p)
 * truncated, off by less than 2 units, and hw off by less than 2.  For p
 * = 15, 16, 17 the candidate is t / 10^k rounded to the nearest; it reads
 * back when its distance from t is below hw.  Each decision is taken only
 * FAST_MARGIN units clear of the errors; anything closer (a rounding tie,
 * an edge of the interval) is left to the exact paths (-1). */
#define FAST_MARGIN 8
#define FAST_UNIT 56  /* 100 * 2^56 < 2^63 */
#define FAST_POINT 72 /* r = u * 2^FAST_POINT */
#define DTOA_1E14 100000000000000u
#define DTOA_1E15 1000000000000000u

/* v scaled as above: t = 100 * ip + r100 + fr / 2^FAST_UNIT (ip < 10^15,
 * r100 < 100, fr off by less than 2) and hw; 0 when ip is below 10^14 (x
 * too high: u just below a power of ten).  With F the 64 bits of u's
 * fraction (truncated, below u's by less than 1.1 units of 2^-64), F * 100
 * is r100 in its top half and t's fraction in its bottom half, below t's
 * by less than 1.5 units of 2^-56 once shifted.  x from the binary
 * exponent is at most one too low: then u has 16 digits, its last is
 * r100's first, and the fraction times 10 gives the other (t = 10 u); hw
 * is likewise P times 10.  100 * 2^k fits 32 bits. */
static inline int fast_scale(uint64_t c, int q, int *x, uint64_t *ip, uint32_t *r100, uint64_t *fr,
                             uint64_t *hw)
{
    const struct pow10_entry *p = &pow10_tab[14 - *x - POW10_MIN];
    int k = q + p->e + 136;
    if (__builtin_expect((unsigned)k > 10, 0)) /* not for a normal v: a guard */
        return 0;
    uint64_t mm = c << k;
    u128 r = (u128)mm * p->hi + (uint64_t)(((u128)mm * p->lo) >> 64);
    uint64_t i = (uint64_t)(r >> FAST_POINT), f = (uint64_t)(r >> (FAST_POINT - 64));
    uint32_t m = 100, top = 0;
    if (i >= DTOA_1E15) { /* x one too low */
        uint64_t i10 = i / 10;
        top = (uint32_t)(i - i10 * 10) * 10;
        i = i10;
        m = 10;
        (*x)++;
    }
    u128 tf = (u128)f * m, hp = (u128)p->hi * (m << k);
    *ip = i;
    *r100 = top + (uint32_t)(tf >> 64);
    *fr = (uint64_t)tf >> (64 - FAST_UNIT);
    *hw = (uint64_t)(hp >> 17); /* below 2^60: hw < 8 * t */
    return i >= DTOA_1E14;
}

/* One length's test in units of 2^-FAST_UNIT of t: rem = t mod 10^k (k =
 * 17 - p), m = 10^k; t rounded to p digits goes up when *up.  1 when that
 * reads back, 0 when it does not, -1 when not certain (the rounding may be
 * a tie, or the candidate is on the edge of v's interval). */
static inline int fast_try(uint64_t rem, uint64_t m, uint64_t hw, int *up)
{
    uint64_t half = m >> 1;
    *up = 0;
    if (rem + FAST_MARGIN > half && rem <= half + FAST_MARGIN)
        return -1; /* the rounding may be a tie */
    *up = rem > half;
    uint64_t dist = *up ? m - rem : rem;
    if (dist >= hw + FAST_MARGIN)
        return 0; /* %.pg does not read back */
    return dist + FAST_MARGIN > hw ? -1 : 1;
}

/* The first of 15, 16, 17 digits that reads back, as p and its last two
 * digits' place, tail (the rounded value is 100 * ip + tail, tail <= 100);
 * 0 when a step is undecided. */
static inline int fast_pick(uint32_t r100, uint64_t fr, uint64_t hw, uint32_t *tail, int *p)
{
    int up, n;
    /* hw is below 12 units of t (t < 10^17, c >= 2^52): t at least 13
     * from both multiples of 100 leaves %.15g out, whichever way it
     * rounds */
    if (r100 - 13 > 86 - 13) {
        n = fast_try((uint64_t)r100 << FAST_UNIT | fr, (uint64_t)100 << FAST_UNIT, hw, &up);
        *tail = 100 * (uint32_t)up, *p = 15;
        if (n != 0)
            return n > 0;
    }
    uint32_t r10 = r100 / 10, r1 = r100 - r10 * 10;
    n = fast_try((uint64_t)r1 << FAST_UNIT | fr, (uint64_t)10 << FAST_UNIT, hw, &up);
    *tail = (r10 + (uint32_t)up) * 10, *p = 16;
    if (n != 0)
        return n > 0;
    /* %.17g always reads back: t rounded is at most half a unit away, and
     * hw is at least 0.55 units (t >= 10^16, c < 2^53), more than half a
     * unit with both errors and the margin; only a tie is undecided */
    uint64_t half = (uint64_t)1 << (FAST_UNIT - 1);
    *tail = r100 + (fr > half), *p = 17;
    return fr + FAST_MARGIN <= half || fr > half + FAST_MARGIN;
}

static inline int fast_g(double d, char *out)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int be = (int)(bits >> FRAC_BITS) & EXP_ALL_ONES;
    uint64_t f = bits & ((UINT64_C(1) << FRAC_BITS) - 1), c = f | (UINT64_C(1) << FRAC_BITS);
    /* left to the exact paths: subnormals, zeros, infinities, NaNs (be 0
     * or all ones; then x is from -308 to 308: j in the table) and powers
     * of two (f = 0: rare in what the tool prints) */
    if ((unsigned)be - 1 >= EXP_ALL_ONES - 1 || f == 0)
        return -1;
    int q = be - EXP_BIAS, x = dtoa_floor_log10_pow2(q + FRAC_BITS);
    uint64_t ip = 0, fr = 0, hw = 0;
    uint32_t r100 = 0, tail;
    /* rare: left to the exact paths */
    if (!fast_scale(c, q, &x, &ip, &r100, &fr, &hw))
        return -1;
    int p;
    if (!fast_pick(r100, fr, hw, &tail, &p))
        return -1;
    uint64_t D = ip * 100 + tail;
    if (D == DTOA_1E17) { /* rounding carried into a new digit */
        D = DTOA_1E16;
        x++;
    }
    return emit17(out, (int)(bits >> 63), D, p, x);
}

int dtoa_fast_g(double d, char out[DTOA_BUF])
{
    return fast_g(d, out);
}

/* The plain digits of u < 10^15, after a '-' when neg: "%.15g" of a whole
 * number.  A word of digits' leading zeros are its lowest zero bytes. */
static inline int whole_digits(int neg, uint64_t u, char *out)
{
    uint64_t a, b;
    char *o = out;
    *o = '-';
    o += neg;
    if (u < DTOA_1E8) {
        /* the last digit's byte marked, for u = 0 (a = 0) */
        a = digits8((uint32_t)u);
        int lz = __builtin_ctzll(a | UINT64_C(1) << 56) / 8;
        put8(o, (a + ASCII_ZEROS) >> (8 * lz));
        o += 8 - lz;
    } else {
        uint32_t h = (uint32_t)(u / DTOA_1E8); /* h > 0: a has a nonzero byte */
        digits16(h, (uint32_t)(u - (uint64_t)h * DTOA_1E8), &a, &b);
        int lz = __builtin_ctzll(a) / 8;
        put8(o, (a + ASCII_ZEROS) >> (8 * lz));
        put8(o + 8 - lz, b + ASCII_ZEROS);
        o += 16 - lz;
    }
    *o = '\0';
    return (int)(o - out);
}

int dtoa_whole_digits(int neg, uint64_t u, char out[DTOA_BUF])
{
    return whole_digits(neg, u, out);
}
