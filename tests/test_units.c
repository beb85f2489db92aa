/* test_units.c - unit_parse, unit_classify and unit_format (src/base/units.h).
 *
 * Every accepted unit is parsed with a "high entropy" mantissa (2.385, not 2)
 * so a wrong factor cannot hide, and every error path is triggered and its
 * reason checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---- */

struct ok_case {
    const char *text;
    unit_dim dim;
    double want; /* SI base units */
};

static void check_ok_cases(const struct ok_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = -12345.0;
        char why[256] = "";
        int rc = unit_parse(c[i].text, c[i].dim, &v, why, sizeof why);
        if (rc != 0) {
            print_error("unit_parse(\"%s\", %s) failed: %s\n", c[i].text, unit_dim_name(c[i].dim),
                        why);
            fail();
        }
        double rel = c[i].want == 0.0 ? fabs(v) : fabs(v - c[i].want) / fabs(c[i].want);
        if (!(rel <= 1e-15)) {
            print_error("unit_parse(\"%s\", %s) = %.17g, want %.17g\n", c[i].text,
                        unit_dim_name(c[i].dim), v, c[i].want);
            fail();
        }
    }
}

struct err_case {
    const char *text;
    unit_dim dim;
    const char *reason; /* substring the reason must contain */
};

static void check_err_cases(const struct err_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = -12345.0;
        char why[256] = "";
        int rc = unit_parse(c[i].text, c[i].dim, &v, why, sizeof why);
        if (rc != -1) {
            print_error("unit_parse(\"%s\", %s) succeeded with %.17g, want an error "
                        "containing \"%s\"\n",
                        c[i].text, unit_dim_name(c[i].dim), v, c[i].reason);
            fail();
        }
        if (v != -12345.0) {
            print_error("unit_parse(\"%s\") failed but wrote the output\n", c[i].text);
            fail();
        }
        if (strstr(why, c[i].reason) == NULL) {
            print_error("unit_parse(\"%s\", %s): reason \"%s\" lacks \"%s\"\n", c[i].text,
                        unit_dim_name(c[i].dim), why, c[i].reason);
            fail();
        }
    }
}

/* ---- parsing: every dimension and unit ---- */

static void test_parse_bytes_decimal(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 B", UNIT_BYTES, 2.385},
        {"2.385 kB", UNIT_BYTES, 2.385e3},
        {"2.385 MB", UNIT_BYTES, 2.385e6},
        {"2.385 GB", UNIT_BYTES, 2.385e9},
        {"2.385 TB", UNIT_BYTES, 2.385e12},
        {"2.385 PB", UNIT_BYTES, 2.385e15},
        {"2.385 EB", UNIT_BYTES, 2.385e18},
        {"40GB", UNIT_BYTES, 40e9},               /* no space */
        {"  \t7.25 TB \t ", UNIT_BYTES, 7.25e12}, /* surrounding blanks */
        {"7.25\tTB", UNIT_BYTES, 7.25e12},        /* tab separator */
        {"1.5e3 GB", UNIT_BYTES, 1.5e12},
        {".5 kB", UNIT_BYTES, 500.0},
        {"+3.125 MB", UNIT_BYTES, 3.125e6},
        {"-3.125 MB", UNIT_BYTES, -3.125e6}, /* sign is the caller's check */
        {"0 B", UNIT_BYTES, 0.0},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_bytes_binary(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 KiB", UNIT_BYTES, 2.385 * 1024.0},
        {"2.385 MiB", UNIT_BYTES, 2.385 * 1048576.0},
        {"2.385 GiB", UNIT_BYTES, 2.385 * 1073741824.0},
        {"2.385 TiB", UNIT_BYTES, 2.385 * 1099511627776.0},
        {"2.385 PiB", UNIT_BYTES, 2.385 * 1125899906842624.0},
        {"2.385 EiB", UNIT_BYTES, 2.385 * 1152921504606846976.0},
        {"48 KiB", UNIT_BYTES, 49152.0},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_bits(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 b", UNIT_BYTES, 2.385 / 8},
        {"2.385 kb", UNIT_BYTES, 2.385e3 / 8},
        {"2.385 Mb", UNIT_BYTES, 2.385e6 / 8},
        {"2.385 Gb", UNIT_BYTES, 2.385e9 / 8},
        {"2.385 Tb", UNIT_BYTES, 2.385e12 / 8},
        {"2.385 Pb", UNIT_BYTES, 2.385e15 / 8},
        {"2.385 Eb", UNIT_BYTES, 2.385e18 / 8},
        {"2.385 Kib", UNIT_BYTES, 2.385 * 1024.0 / 8},
        {"2.385 Mib", UNIT_BYTES, 2.385 * 1048576.0 / 8},
        {"2.385 Gib", UNIT_BYTES, 2.385 * 1073741824.0 / 8},
        {"2.385 Tib", UNIT_BYTES, 2.385 * 1099511627776.0 / 8},
        {"2.385 Pib", UNIT_BYTES, 2.385 * 1125899906842624.0 / 8},
        {"2.385 Eib", UNIT_BYTES, 2.385 * 1152921504606846976.0 / 8},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_byte_rate(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 B/s", UNIT_BYTE_RATE, 2.385},
        {"2.385 kB/s", UNIT_BYTE_RATE, 2.385e3},
        {"2.385 MB/s", UNIT_BYTE_RATE, 2.385e6},
        {"2.385 GB/s", UNIT_BYTE_RATE, 2.385e9},
        {"2.385 TB/s", UNIT_BYTE_RATE, 2.385e12},
        {"2.385 PB/s", UNIT_BYTE_RATE, 2.385e15},
        {"2.385 EB/s", UNIT_BYTE_RATE, 2.385e18},
        {"2.385 KiB/s", UNIT_BYTE_RATE, 2.385 * 1024.0},
        {"2.385 GiB/s", UNIT_BYTE_RATE, 2.385 * 1073741824.0},
        {"2.385 EiB/s", UNIT_BYTE_RATE, 2.385 * 1152921504606846976.0},
        {"2.385 b/s", UNIT_BYTE_RATE, 2.385 / 8},
        {"2.385 kb/s", UNIT_BYTE_RATE, 2.385e3 / 8},
        {"2.385 Mb/s", UNIT_BYTE_RATE, 2.385e6 / 8},
        {"2.385 Gb/s", UNIT_BYTE_RATE, 2.385e9 / 8},
        {"2.385 Tb/s", UNIT_BYTE_RATE, 2.385e12 / 8},
        {"2.385 Pb/s", UNIT_BYTE_RATE, 2.385e15 / 8},
        {"2.385 Eb/s", UNIT_BYTE_RATE, 2.385e18 / 8},
        {"2.385 Mib/s", UNIT_BYTE_RATE, 2.385 * 1048576.0 / 8},
        {"2.385 Tib/s", UNIT_BYTE_RATE, 2.385 * 1099511627776.0 / 8},
        {"1.2 Tb/s", UNIT_BYTE_RATE, 150e9}, /* 12 x 100 GbE */
        {"150 GB/s", UNIT_BYTE_RATE, 150e9},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_flop(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 FLOP", UNIT_FLOP, 2.385},     {"2.385 kFLOP", UNIT_FLOP, 2.385e3},
        {"2.385 MFLOP", UNIT_FLOP, 2.385e6},  {"2.385 GFLOP", UNIT_FLOP, 2.385e9},
        {"2.385 TFLOP", UNIT_FLOP, 2.385e12}, {"2.385 PFLOP", UNIT_FLOP, 2.385e15},
        {"2.385 EFLOP", UNIT_FLOP, 2.385e18}, {"3.14e23 FLOP", UNIT_FLOP, 3.14e23},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_flop_rate(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 FLOP/s", UNIT_FLOP_RATE, 2.385},     {"2.385 kFLOP/s", UNIT_FLOP_RATE, 2.385e3},
        {"2.385 MFLOP/s", UNIT_FLOP_RATE, 2.385e6},  {"2.385 GFLOP/s", UNIT_FLOP_RATE, 2.385e9},
        {"2.385 TFLOP/s", UNIT_FLOP_RATE, 2.385e12}, {"2.385 PFLOP/s", UNIT_FLOP_RATE, 2.385e15},
        {"2.385 EFLOP/s", UNIT_FLOP_RATE, 2.385e18}, {"7.5 PFLOP/s", UNIT_FLOP_RATE, 7.5e15},
        {"15.84PFLOP/s", UNIT_FLOP_RATE, 15.84e15},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_time(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 s", UNIT_TIME, 2.385},
        {"2.385 ms", UNIT_TIME, 2.385e-3},
        {"2.385 us", UNIT_TIME, 2.385e-6},
        {"2.385 ns", UNIT_TIME, 2.385e-9},
        {"2.385 min", UNIT_TIME, 2.385 * 60},
        {"2.385 h", UNIT_TIME, 2.385 * 3600},
        {"2.385 d", UNIT_TIME, 2.385 * 86400},
        {"1.5us", UNIT_TIME, 1.5e-6},
        {"2.385 w", UNIT_TIME, 2.385 * 7 * 86400},
        {"2.385 y", UNIT_TIME, 2.385 * 365.25 * 86400},
        {"2.385 sec", UNIT_TIME, 2.385},
        {"2.385 seconds", UNIT_TIME, 2.385},
        {"2.385 minutes", UNIT_TIME, 2.385 * 60},
        {"2.385 hr", UNIT_TIME, 2.385 * 3600},
        {"2.385 hours", UNIT_TIME, 2.385 * 3600},
        {"30 days", UNIT_TIME, 30 * 86400.0},
        {"1 day", UNIT_TIME, 86400.0},
        {"4 weeks", UNIT_TIME, 28 * 86400.0},
        {"1 year", UNIT_TIME, 365.25 * 86400},
        {"2 years", UNIT_TIME, 2 * 365.25 * 86400},
        {"2.385 yr", UNIT_TIME, 2.385 * 365.25 * 86400},
        {"84 d", UNIT_TIME, 84 * 86400.0},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_power(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385 W", UNIT_POWER, 2.385},     {"2.385 kW", UNIT_POWER, 2.385e3},
        {"2.385 MW", UNIT_POWER, 2.385e6},  {"2.385 GW", UNIT_POWER, 2.385e9},
        {"2.385 TW", UNIT_POWER, 2.385e12}, {"2.385 PW", UNIT_POWER, 2.385e15},
        {"2.385 EW", UNIT_POWER, 2.385e18}, {"23 kW", UNIT_POWER, 23e3},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_count(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"2.385", UNIT_COUNT, 2.385},
        {"3e11", UNIT_COUNT, 3e11},
        {"2.385e11", UNIT_COUNT, 2.385e11},
        {"2.385E-3", UNIT_COUNT, 2.385e-3},
        {"2.385e+4", UNIT_COUNT, 23850.0},
        {"300 G", UNIT_COUNT, 300e9}, /* bare decimal prefix */
        {"2.385 k", UNIT_COUNT, 2.385e3},
        {"2.385 M", UNIT_COUNT, 2.385e6},
        {"2.385 G", UNIT_COUNT, 2.385e9},
        {"2.385 T", UNIT_COUNT, 2.385e12},
        {"2.385 P", UNIT_COUNT, 2.385e15},
        {"2.385 E", UNIT_COUNT, 2.385e18},
        {"2.385T", UNIT_COUNT, 2.385e12},
        {"  100000  ", UNIT_COUNT, 100000.0},
        {"-4.125", UNIT_COUNT, -4.125},
        {"+.625", UNIT_COUNT, 0.625},
        {"50257", UNIT_COUNT, 50257.0},
        /* a zero however written, and a subnormal, are not "too small" */
        {"0e-400", UNIT_COUNT, 0.0},
        {"0.000e-999", UNIT_COUNT, 0.0},
        {"1e-310", UNIT_COUNT, 1e-310},
    };
    check_ok_cases(c, NELEM(c));
}

static void test_parse_fraction(void **state)
{
    (void)state;
    static const struct ok_case c[] = {
        {"0.455", UNIT_FRACTION, 0.455}, {"45.5 %", UNIT_FRACTION, 0.455},
        {"45.5%", UNIT_FRACTION, 0.455}, {"2.385 %", UNIT_FRACTION, 0.02385},
        {"100 %", UNIT_FRACTION, 1.0},   {"1", UNIT_FRACTION, 1.0},
        {"1.2", UNIT_FRACTION, 1.2}, /* the range is the caller's check */
        {"2.5e-1", UNIT_FRACTION, 0.25},
    };
    check_ok_cases(c, NELEM(c));
}

/* ---- parsing: error paths ---- */

static void test_parse_not_a_number(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"", UNIT_BYTES, "is not a number (expected e.g. 40 GB)"},
        {"   ", UNIT_COUNT, "is not a number (expected e.g. 3e11)"},
        {"abc", UNIT_TIME, "'abc' is not a number (expected e.g. 30 d or 1.5 us (time units: ns"},
        {"GB", UNIT_BYTES, "'GB' is not a number"},
        {"- 5 GB", UNIT_BYTES, "is not a number"},
        {"-", UNIT_COUNT, "is not a number"},
        {"e5", UNIT_COUNT, "is not a number"},
        {"one", UNIT_COUNT, "is not a number"},
        {"true", UNIT_COUNT, "is not a number"},
        {"chinchilla", UNIT_COUNT, "is not a number"},
        {"nan", UNIT_COUNT, "is not a number"},
        {"NaN", UNIT_FRACTION, "is not a number"},
        {"-nan", UNIT_COUNT, "is not a number"},
        {"nan GB", UNIT_BYTES, "is not a number"},
        {"inf", UNIT_COUNT, "is not a number"},
        {"-inf", UNIT_COUNT, "is not a number"},
        {"+INF", UNIT_COUNT, "is not a number"},
        {"infinity", UNIT_FLOP, "is not a number"},
        {"Infinity FLOP/s", UNIT_FLOP_RATE, "is not a number"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_out_of_range(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"1e999", UNIT_COUNT, "'1e999' is out of range"},
        {"-1e999 GB", UNIT_BYTES, "is out of range"},
        {"1e300 EB", UNIT_BYTES, "is out of range"}, /* finite, x 1e18 is not */
        {"1e305 EFLOP/s", UNIT_FLOP_RATE, "is out of range"},
        {"1.7e308 d", UNIT_TIME, "is out of range"},
        {"1e400", UNIT_COUNT, "'1e400' is out of range (above the largest number"},
        /* too small to be told from 0: not let through as a 0 */
        {"1e-400", UNIT_COUNT, "'1e-400' is out of range (below the smallest number"},
        {"-1e-400 s", UNIT_TIME, "'-1e-400 s' is out of range (below the smallest number"},
        {"1e-320 ns", UNIT_TIME, "'1e-320 ns' is out of range (below the smallest number"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_hex_bare_prefix(void **state)
{
    (void)state;
    /* strtod stops at the x of a bare "0x": caught by the explicit check. */
    static const struct err_case c[] = {
        {"0x", UNIT_COUNT, "hexadecimal numbers are not accepted"},
        {"0X", UNIT_COUNT, "hexadecimal numbers are not accepted"},
        {"0xZZ GB", UNIT_BYTES, "hexadecimal numbers are not accepted"},
    };
    check_err_cases(c, NELEM(c));
}

/* strtod() would take hexadecimal floats whole ("0x10" as 16); they are
 * rejected before it runs, with or without a sign. */
static void test_parse_rejects_hex_with_digits(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"0x10", UNIT_COUNT, "hexadecimal"},
        {"0x1A", UNIT_COUNT, "hexadecimal"},
        {"0x1p3 GB", UNIT_BYTES, "hexadecimal"},
        {"-0x10", UNIT_COUNT, "hexadecimal"},
        {"0X1.8P1", UNIT_COUNT, "hexadecimal"},
        {"+0x1p-2", UNIT_FRACTION, "hexadecimal"},
        {"  0x28 GB", UNIT_BYTES, "'0x28 GB': hexadecimal numbers are not accepted"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_unknown_unit(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"7.5 PFLOPS", UNIT_FLOP_RATE, "unknown unit 'PFLOPS' (write FLOP/s, e.g. 7.5 PFLOP/s)"},
        {"7.5 Pflops", UNIT_FLOP_RATE, "write FLOP/s"},
        {"7.5 TFlops", UNIT_FLOP_RATE, "write FLOP/s"},
        {"48 KB", UNIT_BYTES,
         "unknown unit 'KB' (units are case-sensitive: write kB (decimal) or KiB (binary)"},
        /* the hint's example is of the dimension wanted, not always bytes */
        {"23 KW", UNIT_POWER, "unknown unit 'KW' (units are case-sensitive: write kW, e.g. 23 kW)"},
        {"1 Gb/S", UNIT_BYTE_RATE,
         "unknown unit 'Gb/S' (units are case-sensitive: write Gb/s, e.g. 150 GB/s)"},
        {"2 MS", UNIT_TIME, "unknown unit 'MS' (units are case-sensitive: write ms, e.g. 1.5 us)"},
        {"23 KW", UNIT_BYTE_RATE,
         "unknown unit 'KW' (the kilo prefix is k (decimal) or Ki (binary, bytes and bits only), "
         "e.g. 150 GB/s)"},
        {"2 Kw", UNIT_TIME, "unknown unit 'Kw' (the kilo prefix is k"},
        {"2 MS", UNIT_POWER,
         "unknown unit 'MS' (units are case-sensitive, and ms is a time, not a "
         "power, e.g. 23 kW)"},
        {"5 Kfoo", UNIT_POWER, "unknown unit 'Kfoo' (the kilo prefix is k (decimal) or Ki"},
        {"48 Kb/s", UNIT_BYTE_RATE,
         "units are case-sensitive: write kb/s (decimal) or Kib/s (binary)"},
        {"100 Gbps", UNIT_BYTE_RATE, "unknown unit 'Gbps' (write rates with /s"},
        {"5 months", UNIT_TIME, "time units are ns, us, ms, s, min, h, d, w (7 d), y"},
        {"5 m", UNIT_TIME, "time units are ns"},
        {"5 mo", UNIT_TIME, "time units are ns"},
        {"3 furlongs", UNIT_COUNT, "unknown unit 'furlongs' (see cerebras-plan(5)"},
        {"2.385 gb", UNIT_BYTES, "unknown unit 'gb'"}, /* case-sensitive */
        {"2.385 mB", UNIT_BYTES, "unknown unit 'mB'"}, /* no milli prefix */
        {"2.385 KiKiB", UNIT_BYTES, "unknown unit 'KiKiB'"},
        {"2.385 kGB", UNIT_BYTES, "unknown unit 'kGB'"},
        {"2.385 ks", UNIT_TIME, "unknown unit 'ks'"}, /* no prefixes on time */
        {"2.385 flop", UNIT_FLOP, "unknown unit 'flop'"},
        {"2.385 B/h", UNIT_BYTE_RATE, "unknown unit 'B/h'"},
        {"2.385 GB / s", UNIT_BYTE_RATE, "unknown unit 'GB / s'"},
        {"2.385 %%", UNIT_FRACTION, "unknown unit '%%'"},
        {"1.5.3 GB", UNIT_BYTES, "unknown unit '.3 GB'"},
        {"2.385 G B", UNIT_BYTES, "unknown unit 'G B'"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_binary_prefix_not_on_flop(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"2.385 GiFLOP/s", UNIT_FLOP_RATE,
         "unknown unit 'GiFLOP/s' (binary prefixes (Ki, Mi, ...) apply to bytes and bits only)"},
        {"2.385 MiFLOP", UNIT_FLOP, "apply to bytes and bits only"},
        {"2.385 TiFLOP", UNIT_FLOP, "unknown unit 'TiFLOP'"},
        {"2.385 PiW", UNIT_POWER, "apply to bytes and bits only"},
        {"2.385 Gi", UNIT_COUNT, "unknown unit 'Gi'"}, /* not a count prefix either */
        {"2.385 Eis", UNIT_TIME, "unknown unit 'Eis'"},
    };
    check_err_cases(c, NELEM(c));
}

/* "KiFLOP" and "KiW" get the binary-prefix hint, not the kilo-prefix hint
 * that would recommend the very Ki the user wrote. */
static void test_parse_kibi_flop_hint(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"2.385 KiFLOP", UNIT_FLOP, "apply to bytes and bits only"},
        {"2.385 KiW", UNIT_POWER, "apply to bytes and bits only"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_wrong_dimension(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"150 GB/s", UNIT_BYTES, "unit 'GB/s' is a bandwidth, but a size is expected, e.g. 40 GB"},
        {"40 GB", UNIT_BYTE_RATE,
         "unit 'GB' is a size, but a bandwidth is expected, e.g. 150 GB/s"},
        {"1.2 Tb", UNIT_BYTE_RATE, "unit 'Tb' is a size, but a bandwidth"},
        {"7.5 PFLOP/s", UNIT_FLOP, "unit 'PFLOP/s' is a FLOP rate, but a FLOP count is expected"},
        {"3.14e23 FLOP", UNIT_FLOP_RATE, "is a FLOP count, but a FLOP rate is expected"},
        {"1.5 us", UNIT_BYTES, "unit 'us' is a time, but a size is expected"},
        {"23 kW", UNIT_TIME,
         "unit 'kW' is a power, but a time is expected, e.g. 30 d or 1.5 us (time units: "},
        {"2.385 s", UNIT_POWER, "is a time, but a power is expected, e.g. 23 kW"},
        {"45.5 %", UNIT_COUNT, "unit '%' is a fraction, but a count is expected, e.g. 3e11"},
        {"2.385 GB", UNIT_COUNT, "unit 'GB' is a size, but a count is expected"},
        {"2.385 GB", UNIT_FRACTION, "unit 'GB' is a size, but a fraction is expected"},
        {"45.5 %", UNIT_BYTES, "unit '%' is a fraction, but a size is expected"},
        /* a bare prefix is a count, not a size */
        {"300 G", UNIT_BYTES, "unit 'G' is a count, but a size is expected"},
        {"2.385 k", UNIT_POWER, "unit 'k' is a count, but a power is expected"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_missing_unit(void **state)
{
    (void)state;
    static const struct err_case c[] = {
        {"2.385", UNIT_BYTES, "missing unit: a size needs one, e.g. 40 GB"},
        {"2.385e9", UNIT_BYTE_RATE, "missing unit: a bandwidth needs one, e.g. 150 GB/s"},
        {"3.14e23", UNIT_FLOP, "missing unit: a FLOP count needs one, e.g. 3.14e23 FLOP"},
        {"7.5e15", UNIT_FLOP_RATE, "missing unit: a FLOP rate needs one, e.g. 7.5 PFLOP/s"},
        {"2.385", UNIT_TIME,
         "missing unit: a time needs one, e.g. 30 d or 1.5 us (time units: ns, us, ms, s, min, h, "
         "d, w"},
        {" 23000 ", UNIT_POWER, "missing unit: a power needs one, e.g. 23 kW"},
    };
    check_err_cases(c, NELEM(c));
}

static void test_parse_why_truncated_safely(void **state)
{
    (void)state;
    char why[12];
    memset(why, 'Z', sizeof why);
    double v = 0;
    assert_int_equal(unit_parse("7.5 PFLOPS", UNIT_FLOP_RATE, &v, why, 8), -1);
    assert_int_equal(strlen(why), 7);
    assert_int_equal(why[8], 'Z'); /* nothing written past why_n */
    /* A very long unit is cut to fit the internal buffer, still an error. */
    char text[200];
    snprintf(text, sizeof text, "2.385 %0150d", 0);
    char why2[256];
    assert_int_equal(unit_parse(text, UNIT_COUNT, &v, why2, sizeof why2), -1);
    assert_non_null(strstr(why2, "unknown unit"));
}

/* ---- classification ---- */

static void test_classify(void **state)
{
    (void)state;
    static const struct {
        const char *u;
        unit_dim dim;
        double factor;
    } c[] = {
        {"", UNIT_COUNT, 1.0},
        {"k", UNIT_COUNT, 1e3},
        {"G", UNIT_COUNT, 1e9},
        {"E", UNIT_COUNT, 1e18},
        {"%", UNIT_FRACTION, 0.01},
        {"B", UNIT_BYTES, 1.0},
        {"b", UNIT_BYTES, 0.125},
        {"TB", UNIT_BYTES, 1e12},
        {"KiB", UNIT_BYTES, 1024.0},
        {"Eib", UNIT_BYTES, 0x1p60 / 8},
        {"B/s", UNIT_BYTE_RATE, 1.0},
        {"b/s", UNIT_BYTE_RATE, 0.125},
        {"Mib/s", UNIT_BYTE_RATE, 0x1p20 / 8},
        {"FLOP", UNIT_FLOP, 1.0},
        {"PFLOP", UNIT_FLOP, 1e15},
        {"FLOP/s", UNIT_FLOP_RATE, 1.0},
        {"EFLOP/s", UNIT_FLOP_RATE, 1e18},
        {"s", UNIT_TIME, 1.0},
        {"ms", UNIT_TIME, 1e-3},
        {"us", UNIT_TIME, 1e-6},
        {"ns", UNIT_TIME, 1e-9},
        {"min", UNIT_TIME, 60.0},
        {"h", UNIT_TIME, 3600.0},
        {"d", UNIT_TIME, 86400.0},
        {"W", UNIT_POWER, 1.0},
        {"kW", UNIT_POWER, 1e3},
    };
    for (size_t i = 0; i < NELEM(c); i++) {
        unit_dim d = UNIT_NDIMS;
        double f = -1;
        if (unit_classify(c[i].u, &d, &f) != 0) {
            print_error("unit_classify(\"%s\") failed\n", c[i].u);
            fail();
        }
        if (d != c[i].dim || f != c[i].factor) {
            print_error("unit_classify(\"%s\") = %s x %.17g, want %s x %.17g\n", c[i].u,
                        unit_dim_name(d), f, unit_dim_name(c[i].dim), c[i].factor);
            fail();
        }
    }
    static const char *const bad[] = {
        "KB", "PFLOPS", "Gi", "KiFLOP", "GiFLOP/s", "MiW",  "ks",  " B",   "B ",
        "gb", "flop",   "%%", "GB/h",   "s/B",      "kmin", "bit", "byte", "x",
    };
    for (size_t i = 0; i < NELEM(bad); i++) {
        unit_dim d = UNIT_NDIMS;
        double f = -1;
        if (unit_classify(bad[i], &d, &f) != -1) {
            print_error("unit_classify(\"%s\") accepted as %s x %g\n", bad[i], unit_dim_name(d), f);
            fail();
        }
    }
}

static void test_dim_names(void **state)
{
    (void)state;
    assert_string_equal(unit_dim_name(UNIT_COUNT), "count");
    assert_string_equal(unit_dim_name(UNIT_FRACTION), "fraction");
    assert_string_equal(unit_dim_name(UNIT_BYTES), "size");
    assert_string_equal(unit_dim_name(UNIT_BYTE_RATE), "bandwidth");
    assert_string_equal(unit_dim_name(UNIT_FLOP), "FLOP count");
    assert_string_equal(unit_dim_name(UNIT_FLOP_RATE), "FLOP rate");
    assert_string_equal(unit_dim_name(UNIT_TIME), "time");
    assert_string_equal(unit_dim_name(UNIT_POWER), "power");
    assert_string_equal(unit_base_symbol(UNIT_COUNT), "");
    assert_string_equal(unit_base_symbol(UNIT_FRACTION), "");
    assert_string_equal(unit_base_symbol(UNIT_BYTES), "B");
    assert_string_equal(unit_base_symbol(UNIT_BYTE_RATE), "B/s");
    assert_string_equal(unit_base_symbol(UNIT_FLOP), "FLOP");
    assert_string_equal(unit_base_symbol(UNIT_FLOP_RATE), "FLOP/s");
    assert_string_equal(unit_base_symbol(UNIT_TIME), "s");
    assert_string_equal(unit_base_symbol(UNIT_POWER), "W");
    /* Every example in messages must itself parse as its dimension (the
     * fraction's example names two spellings; check each). */
    for (int d = 0; d < UNIT_NDIMS; d++) {
        if (d == UNIT_FRACTION)
            continue;
        double v;
        char why[128];
        if (unit_parse(unit_example((unit_dim)d), (unit_dim)d, &v, why, sizeof why) != 0) {
            print_error("example '%s' of %s does not parse: %s\n", unit_example((unit_dim)d),
                        unit_dim_name((unit_dim)d), why);
            fail();
        }
    }
    assert_string_equal(unit_example(UNIT_FRACTION), "0.45 or 45 %");
}

/* ---- formatting ---- */

static void check_fmt(double v, unit_dim d, const char *want, const char *file, int line)
{
    char buf[64];
    memset(buf, 'Z', sizeof buf);
    char *r = unit_format(v, d, buf, sizeof buf);
    if (r != buf || strcmp(buf, want) != 0) {
        print_error("%s:%d: unit_format(%.17g, %s) = \"%s\", want \"%s\"\n", file, line, v,
                    unit_dim_name(d), buf, want);
        _fail(file, line);
    }
}
#define assert_fmt(v, d, want) check_fmt((v), (d), (want), __FILE__, __LINE__)

static void test_format(void **state)
{
    (void)state;
    assert_fmt(7.5e15, UNIT_FLOP_RATE, "7.5 PFLOP/s");
    assert_fmt(15.84e15, UNIT_FLOP_RATE, "15.84 PFLOP/s");
    assert_fmt(40e9, UNIT_BYTES, "40 GB");
    assert_fmt(2.385e12, UNIT_BYTES, "2.385 TB");
    assert_fmt(2.4e15, UNIT_BYTES, "2.4 PB");
    assert_fmt(49152, UNIT_BYTES, "49.15 kB"); /* 48 KiB, shown decimal */
    assert_fmt(999, UNIT_BYTES, "999 B");
    assert_fmt(2.385, UNIT_BYTES, "2.385 B");
    assert_fmt(0.5, UNIT_BYTES, "0.5 B"); /* below 1: no prefix */
    assert_fmt(0, UNIT_BYTES, "0 B");
    assert_fmt(150e9, UNIT_BYTE_RATE, "150 GB/s");
    assert_fmt(23e3, UNIT_POWER, "23 kW");
    assert_fmt(-23e3, UNIT_POWER, "-23 kW");
    assert_fmt(3.14e23, UNIT_FLOP, "3.14e+23 FLOP"); /* beyond E: plain exponent */
    assert_fmt(2.385e18, UNIT_FLOP, "2.385 EFLOP");
    assert_fmt(1e21, UNIT_FLOP, "1e+21 FLOP");
    assert_fmt(1.5e-6, UNIT_TIME, "1.5 us");
    assert_fmt(2.385e-3, UNIT_TIME, "2.385 ms");
    assert_fmt(2.385e-9, UNIT_TIME, "2.385 ns");
    assert_fmt(2.385e-12, UNIT_TIME, "0.002385 ns");
    assert_fmt(2.385, UNIT_TIME, "2.385 s");
    assert_fmt(90, UNIT_TIME, "1.5 min");
    assert_fmt(5400, UNIT_TIME, "1.5 h");
    assert_fmt(2.385 * 86400, UNIT_TIME, "2.385 d");
    assert_fmt(0, UNIT_TIME, "0 s");
    assert_fmt(1536, UNIT_COUNT, "1536");
    assert_fmt(2.385, UNIT_COUNT, "2.385");
    assert_fmt(0, UNIT_COUNT, "0");
    assert_fmt(0.455, UNIT_FRACTION, "0.455");
    assert_fmt(1, UNIT_FRACTION, "1");
}

static void test_format_truncates(void **state)
{
    (void)state;
    char buf[8];
    memset(buf, 'Z', sizeof buf);
    unit_format(7.5e15, UNIT_FLOP_RATE, buf, 5);
    assert_string_equal(buf, "7.5 ");
    assert_int_equal(buf[5], 'Z');
}

/* Formatting keeps 4 significant digits; parsing the text back must give
 * the value to that precision in every dimension with a unit. */
static void test_format_parse_round_trip(void **state)
{
    (void)state;
    static const double vals[] = {2.385, 23.85e3, 2.385e9, 238.5e15, 0.2385, 7.125e-6};
    static const unit_dim ds[] = {UNIT_BYTES, UNIT_BYTE_RATE, UNIT_FLOP,  UNIT_FLOP_RATE,
                                  UNIT_TIME,  UNIT_POWER,     UNIT_COUNT, UNIT_FRACTION};
    for (size_t i = 0; i < NELEM(ds); i++) {
        for (size_t j = 0; j < NELEM(vals); j++) {
            char buf[64], why[128];
            double back = -1;
            unit_format(vals[j], ds[i], buf, sizeof buf);
            if (unit_parse(buf, ds[i], &back, why, sizeof why) != 0) {
                print_error("'%s' (%s) does not parse back: %s\n", buf, unit_dim_name(ds[i]), why);
                fail();
            }
            assert_rel(back, vals[j], 5e-4);
        }
    }
}

/* units.h gives "1.746e+11" as an example of unit_format's output for a
 * large count: four significant digits, as for the other dimensions. */
static void test_format_count_header_example(void **state)
{
    (void)state;
    assert_fmt(1.746e11, UNIT_COUNT, "1.746e+11");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_bytes_decimal),
        cmocka_unit_test(test_parse_bytes_binary),
        cmocka_unit_test(test_parse_bits),
        cmocka_unit_test(test_parse_byte_rate),
        cmocka_unit_test(test_parse_flop),
        cmocka_unit_test(test_parse_flop_rate),
        cmocka_unit_test(test_parse_time),
        cmocka_unit_test(test_parse_power),
        cmocka_unit_test(test_parse_count),
        cmocka_unit_test(test_parse_fraction),
        cmocka_unit_test(test_parse_not_a_number),
        cmocka_unit_test(test_parse_out_of_range),
        cmocka_unit_test(test_parse_hex_bare_prefix),
        cmocka_unit_test(test_parse_rejects_hex_with_digits),
        cmocka_unit_test(test_parse_unknown_unit),
        cmocka_unit_test(test_parse_binary_prefix_not_on_flop),
        cmocka_unit_test(test_parse_kibi_flop_hint),
        cmocka_unit_test(test_parse_wrong_dimension),
        cmocka_unit_test(test_parse_missing_unit),
        cmocka_unit_test(test_parse_why_truncated_safely),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_dim_names),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_truncates),
        cmocka_unit_test(test_format_parse_round_trip),
        cmocka_unit_test(test_format_count_header_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
