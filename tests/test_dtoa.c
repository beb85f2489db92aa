/* test_dtoa.c - unit_format_exact (src/base/units.c, via src/base/dtoa.c)
 * against the reference: the first of %.15g, %.16g, %.17g that strtod
 * reads back exactly.
 *
 * Millions of doubles: random bit patterns over every exponent (subnormals
 * included), values of the kinds the tool prints, and values with few
 * fraction bits (rounding ties at 15 to 17 digits), halves and ratios.
 * Each value is checked through dtoa_roundtrip_g and through its first
 * path alone (dtoa_fast_g, 128-bit integers only).  DTOA_TEST_N in the
 * environment sets the number of random draws per family (default 260000,
 * thirteen families plus the fixed cases: over three million values);
 * DTOA_TEST_SEED seeds the generator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dtoa.h"
#include "base/dtoa_int.h"
#include "base/units.h"

static char *oracle(double v, char *buf, size_t n)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_u64(void)
{
    /* splitmix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double unit_rand(void)
{
    return (double)(next_u64() >> 11) * 0x1p-53;
}

static unsigned long checked, fast, fast1, failed;

static void check_one(double v)
{
    char want[64], got[64], raw[DTOA_BUF];
    oracle(v, want, sizeof want);
    unit_format_exact(v, got, sizeof got);
    checked++;
    if (dtoa_fast_g(v, raw) >= 0) { /* the first path, on its own */
        fast1++;
        if (strcmp(raw, want) != 0 && failed++ < 20)
            print_error("dtoa_fast_g %a: got \"%s\", want \"%s\"\n", v, raw, want);
    }
    if (dtoa_roundtrip_g(v, raw) >= 0) {
        fast++;
        if (strcmp(raw, want) != 0 && failed++ < 20)
            print_error("dtoa %a: got \"%s\", want \"%s\"\n", v, raw, want);
    }
    /* the same with whole numbers first (the sweep's cells) */
    int n = dtoa_roundtrip_whole_g(v, raw);
    if (n >= 0 && (strcmp(raw, want) != 0 || n != (int)strlen(want)) && failed++ < 20)
        print_error("dtoa_roundtrip_whole_g %a: got \"%s\", want \"%s\"\n", v, raw, want);
    /* unit_format_exact prints -0 as 0 (units.h): compare with v + 0.0 */
    char want0[64];
    oracle(v + 0.0, want0, sizeof want0);
    if (strcmp(got, want0) != 0 && failed++ < 20)
        print_error("unit_format_exact %a: got \"%s\", want \"%s\"\n", v, got, want0);
}

static void check_both_signs(double v)
{
    check_one(v);
    check_one(-v);
}

static unsigned long draws(void)
{
    const char *s = getenv("DTOA_TEST_N");
    return s && *s ? strtoul(s, NULL, 10) : 260000;
}

static void test_fixed(void **state)
{
    (void)state;
    static const double fixed[] = {
        0.0,
        DBL_MAX,
        DBL_MIN,
        DBL_TRUE_MIN,
        DBL_EPSILON,
        1.0,
        0.1,
        0.2,
        0.3,
        1.0 / 3,
        2.0 / 3,
        0.06000000000000001,
        9007199254740991.0,
        9007199254740992.0,
        9007199254740993.0,
        1234567890123455.0,
        1500000000000000.5,
        5e-324,
        1e-323,
        2.2250738585072009e-308,
        1.7976931348623157e308,
        1e23,
        9.999999999999999e22,
        8.41e21,
        5e-5,
        1e-4,
        1e-5,
        123456789012345.0,
        999999999999999.0,
        999999999999999.9,
        1e15,
        1e16,
        1e17,
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_both_signs(fixed[i]);
    /* powers of two and ten, and their neighbours */
    for (int e = -1074; e <= 1023; e++) {
        double v = ldexp(1.0, e);
        check_both_signs(v);
        check_both_signs(nextafter(v, 0));
        check_both_signs(nextafter(v, INFINITY));
    }
    for (int e = -323; e <= 308; e++) {
        char t[32];
        snprintf(t, sizeof t, "1e%d", e);
        double v = strtod(t, NULL);
        check_both_signs(v);
        check_both_signs(nextafter(v, 0));
        check_both_signs(nextafter(v, INFINITY));
    }
    /* non-finite values take the snprintf path */
    char got[64], want[64];
    const double nf[] = {INFINITY, -INFINITY, NAN, -NAN};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(unit_format_exact(nf[i], got, sizeof got),
                            oracle(nf[i], want, sizeof want));
    /* a buffer too small for the text: truncated exactly as before */
    for (size_t n = 1; n < 26; n++)
        assert_string_equal(unit_format_exact(-1.0 / 3, got, n), oracle(-1.0 / 3, want, n));
    assert_int_equal(failed, 0);
}

static void test_random(void **state)
{
    (void)state;
    unsigned long n = draws();
    const char *seed = getenv("DTOA_TEST_SEED");
    if (seed && *seed)
        rng = strtoull(seed, NULL, 0);
    checked = fast = fast1 = failed = 0;
    for (unsigned long i = 0; i < n; i++) {
        uint64_t b = next_u64();
        double v;
        memcpy(&v, &b, sizeof v);
        if (isfinite(v))
            check_one(v);         /* any bit pattern: every exponent, subnormals */
        b &= 0x800fffffffffffffu; /* subnormals only */
        memcpy(&v, &b, sizeof v);
        check_one(v);
        check_one(1e-9 * pow(10.0, 34 * unit_rand())); /* 1e-9 .. 1e25 */
        check_one((double)(next_u64() >> 11));         /* integers < 2^53 */
        uint64_t k = next_u64() % 100000000u;
        check_one((double)k / 1000);
        check_one((double)k * 0.001);
        check_one((double)(k % 1000) * 0.02);
        check_one(unit_rand() * 1e6 / (1.0 + unit_rand() * 1e3));
        /* few fraction bits: 17 digits and then often exactly a half
         * (the ties dtoa.c settles in exact integers) */
        check_one(ldexp((double)(next_u64() >> (11 + next_u64() % 40)), -(int)(next_u64() % 24)));
        /* halves and quarters of integers, and ratios of counts (the
         * sweep's times and rates: 1808.5063018486878, 172473628.99470565) */
        check_one((double)(next_u64() >> (12 + next_u64() % 40)) + 0.5);
        check_one((double)(next_u64() >> (12 + next_u64() % 40)) + 0.25);
        check_one((double)(next_u64() >> (20 + next_u64() % 40)) /
                  (double)(1 + (next_u64() >> (30 + next_u64() % 30))));
        check_one(3e11 / (double)(1 + next_u64() % 2048) * (1 - (double)(next_u64() % 50) * 0.02));
    }
    print_message("%lu values, %lu on the fast path (%.4f %%), %lu on its first path (%.4f %%), "
                  "%lu mismatches\n",
                  checked, fast, 100.0 * (double)fast / (double)checked, fast1,
                  100.0 * (double)fast1 / (double)checked, failed);
    assert_int_equal(failed, 0);
    assert_true(fast > checked / 100 * 97);  /* the fallback stays rare */
    assert_true(fast1 > checked / 100 * 85); /* all but subnormals and ties */
}

/* Each layout of the text (exponent form below x = -4 and from x = p on,
 * "0.000DDD", "DDD.DDD" with the point after each digit, "DDD" with
 * zeros up to the point) at every x from -6 to 20, with 1 to 17
 * significant digits, both signs: digits up to the first word of eight,
 * across both, and carries (9.99..., rounding into a new digit). */
static void test_layouts(void **state)
{
    (void)state;
    checked = failed = 0;
    for (int x = -6; x <= 20; x++) {
        double scale = pow(10.0, x);
        for (int nd = 1; nd <= 17; nd++) {
            for (int i = 0; i < 200; i++) {
                /* nd digits, the first not 0 */
                uint64_t m = 1 + next_u64() % 9;
                for (int k = 1; k < nd; k++)
                    m = m * 10 + next_u64() % 10;
                char t[48];
                snprintf(t, sizeof t, "%llue%d", (unsigned long long)m, x - nd + 1);
                double v = strtod(t, NULL);
                check_both_signs(v);
                check_both_signs(nextafter(v, 0));
                check_both_signs(nextafter(v, INFINITY));
            }
            check_both_signs(scale * (1 + 1e-16 * nd));
            check_both_signs(scale * (10 - 1e-15 * nd)); /* 9.99...: may carry */
        }
    }
    assert_int_equal(failed, 0);
}

/* dtoa_roundtrip_whole_g: the plain digits of whole numbers below 10^15,
 * as %.15g prints them; anything else (fractions, -0, 10^15 and up,
 * infinities, NaN) as dtoa_roundtrip_g writes it. */
static void test_whole(void **state)
{
    (void)state;
    char got[DTOA_BUF], want[64];
    static const double whole[] = {0, 1, 9, 10, 99, 100, 12345678, 99999999, 100000000,
                                   100000001, 123456789, 1234567890123, 999999999999999.0,
                                   3145728, 174604259328, 7421703487488};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        for (int sign = 1; sign >= -1; sign -= 2) {
            double v = sign * whole[i];
            if (v == 0 && sign < 0)
                continue;
            snprintf(want, sizeof want, "%.15g", v);
            assert_int_equal(dtoa_roundtrip_whole_g(v, got), (int)strlen(want));
            assert_string_equal(got, want);
        }
    /* -0 as printf prints it */
    assert_int_equal(dtoa_roundtrip_whole_g(-0.0, got), 2);
    assert_string_equal(got, "-0");
    for (unsigned long i = 0; i < draws(); i++) {
        double v = (double)(long long)(next_u64() % 1000000000000000u >> (next_u64() % 50));
        v = next_u64() & 1 ? -v : v;
        if (v == 0)
            continue;
        snprintf(want, sizeof want, "%.15g", v);
        assert_int_equal(dtoa_roundtrip_whole_g(v, got), (int)strlen(want));
        assert_string_equal(got, want);
    }
    /* 999999999999999.875 among them */
    const double not_whole[] = {0.5, -1.5, 1e15, -1e15, 1e300, 1e-300, INFINITY, -INFINITY, NAN,
                                nextafter(1e15, 0)};
    for (size_t i = 0; i < sizeof not_whole / sizeof not_whole[0]; i++) {
        int n = dtoa_roundtrip_g(not_whole[i], want);
        assert_int_equal(dtoa_roundtrip_whole_g(not_whole[i], got), n);
        if (n >= 0)
            assert_string_equal(got, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
