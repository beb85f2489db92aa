/* units.c - parsing and formatting of dimensioned values (see units.h). */
#include "units.h"

#include "dtoa.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dim_info {
    const char *name, *symbol, *example;
};

/* The time units unit_parse() takes, for messages. */
#define TIME_UNITS "ns, us, ms, s, min, h, d, w (7 d), y (365.25 d)"

static const struct dim_info dims[UNIT_NDIMS] = {
    [UNIT_COUNT] = {"count", "", "3e11"},
    [UNIT_FRACTION] = {"fraction", "", "0.45 or 45 %"},
    [UNIT_BYTES] = {"size", "B", "40 GB"},
    [UNIT_BYTE_RATE] = {"bandwidth", "B/s", "150 GB/s"},
    [UNIT_FLOP] = {"FLOP count", "FLOP", "3.14e23 FLOP"},
    [UNIT_FLOP_RATE] = {"FLOP rate", "FLOP/s", "7.5 PFLOP/s"},
    [UNIT_TIME] = {"time", "s", "1.5 us"},
    [UNIT_POWER] = {"power", "W", "23 kW"},
    [UNIT_ENERGY] = {"energy", "J", "500 MWh"},
};

const char *unit_dim_name(unit_dim d)
{
    return dims[d].name;
}
const char *unit_base_symbol(unit_dim d)
{
    return dims[d].symbol;
}
const char *unit_example(unit_dim d)
{
    return dims[d].example;
}

struct named_factor {
    const char *sym;
    double factor;
};

/* Symbols, and the words people type for the long ones ("30 days", "4 weeks"). */
static const struct named_factor time_units[] = {
    {"s", 1.0},
    {"ms", 1e-3},
    {"us", 1e-6},
    {"ns", 1e-9},
    {"min", 60.0},
    {"h", UNIT_HOUR_S},
    {"d", 86400.0},
    {"w", 7 * 86400.0},
    {"y", 365.25 * 86400.0}, /* Julian year */
    {"sec", 1.0},
    {"second", 1.0},
    {"seconds", 1.0},
    {"minute", 60.0},
    {"minutes", 60.0},
    {"hour", UNIT_HOUR_S},
    {"hours", UNIT_HOUR_S},
    {"hr", UNIT_HOUR_S},
    {"day", 86400.0},
    {"days", 86400.0},
    {"week", 7 * 86400.0},
    {"weeks", 7 * 86400.0},
    {"year", 365.25 * 86400.0},
    {"years", 365.25 * 86400.0},
    {"yr", 365.25 * 86400.0},
};

static const struct named_factor bin_prefixes[] = {
    {"Ki", 0x1p10}, {"Mi", 0x1p20}, {"Gi", 0x1p30}, {"Ti", 0x1p40}, {"Pi", 0x1p50}, {"Ei", 0x1p60},
};

static const struct named_factor dec_prefixes[] = {
    {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18},
};

struct base_unit {
    const char *sym;
    unit_dim dim;
    double factor;
    int binary_ok; /* may take a Ki/Mi/... prefix */
};

static const struct base_unit bases[] = {
    {"B", UNIT_BYTES, 1.0, 1},       {"b", UNIT_BYTES, 0.125, 1},
    {"B/s", UNIT_BYTE_RATE, 1.0, 1}, {"b/s", UNIT_BYTE_RATE, 0.125, 1},
    {"FLOP", UNIT_FLOP, 1.0, 0},     {"FLOP/s", UNIT_FLOP_RATE, 1.0, 0},
    {"W", UNIT_POWER, 1.0, 0},       {"J", UNIT_ENERGY, 1.0, 0},
    {"Wh", UNIT_ENERGY, UNIT_HOUR_S, 0},  {"", UNIT_COUNT, 1.0, 0},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int match_base(const char *rest, double pf, int binary, unit_dim *dim, double *factor)
{
    for (size_t i = 0; i < NELEM(bases); i++) {
        if (strcmp(rest, bases[i].sym) != 0)
            continue;
        if (binary && !bases[i].binary_ok)
            return -1;
        *dim = bases[i].dim;
        *factor = pf * bases[i].factor;
        return 0;
    }
    return -1;
}

/* Try each prefix of table; the empty prefix is tried by the caller. */
static int match_prefixed(const char *u, const struct named_factor *tab, size_t n, int binary,
                          unit_dim *dim, double *factor)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(tab[i].sym);
        if (strncmp(u, tab[i].sym, len) == 0 &&
            match_base(u + len, tab[i].factor, binary, dim, factor) == 0)
            return 0;
    }
    return -1;
}

int unit_classify(const char *u, unit_dim *dim, double *factor)
{
    for (size_t i = 0; i < NELEM(time_units); i++) {
        if (strcmp(u, time_units[i].sym) == 0) {
            *dim = UNIT_TIME;
            *factor = time_units[i].factor;
            return 0;
        }
    }
    if (strcmp(u, "%") == 0) {
        *dim = UNIT_FRACTION;
        *factor = 0.01;
        return 0;
    }
    if (match_base(u, 1.0, 0, dim, factor) == 0)
        return 0;
    if (match_prefixed(u, bin_prefixes, NELEM(bin_prefixes), 1, dim, factor) == 0)
        return 0;
    return match_prefixed(u, dec_prefixes, NELEM(dec_prefixes), 0, dim, factor);
}

static int compatible(unit_dim want, unit_dim got)
{
    return want == got || (want == UNIT_FRACTION && got == UNIT_COUNT);
}

/* "a" or "an" before the dimension's name. */
static const char *article(unit_dim d)
{
    return strchr("aeiou", unit_dim_name(d)[0]) ? "an" : "a";
}

/* The example a parse error gives: for a time, every unit that reads. */
static const char *parse_example(unit_dim d)
{
    return d == UNIT_TIME ? "30 d or 1.5 us (time units: " TIME_UNITS ")" : unit_example(d);
}

/* Why a number is out of range: beyond a double, or so small it reads as 0. */
#define UNIT_TOO_LARGE "above the largest number, about 1.8e308"
#define UNIT_TOO_SMALL "below the smallest number, about 4.9e-324, so it would read as 0"

/* 1 if the number text[0..end) has a digit other than 0 before its exponent. */
static int nonzero_digit(const char *text, const char *end)
{
    for (const char *q = text; q < end && *q != 'e' && *q != 'E'; q++)
        if (*q >= '1' && *q <= '9')
            return 1;
    return 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

/* 1 if a and b are the same letters, ignoring ASCII case. */
static int same_but_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* Letters in which a and b, of the same length, differ. */
static int case_diffs(const char *a, const char *b)
{
    int n = 0;
    for (; *a; a++, b++)
        n += *a != *b;
    return n;
}

/* A unit spelled u except for case ("KW" for kW, "gb/s" for GB/s) into
 * buf, with its dimension in *dim: of one that suits want if one does,
 * and of those the one fewest letters away ("Gb/S" is Gb/s, not GB/s);
 * NULL if none. */
static const char *case_twin(const char *u, unit_dim want, char *buf, size_t n, unit_dim *dim)
{
    const char *found = NULL;
    int best = 0, best_ok = 0;
    char cand[32];
    unit_dim d;
    double f;
    size_t ncand =
        NELEM(time_units) + 1 + NELEM(bases) * (1 + NELEM(bin_prefixes) + NELEM(dec_prefixes));
    for (size_t i = 0; i < ncand; i++) {
        size_t k = i;
        if (k < NELEM(time_units)) {
            snprintf(cand, sizeof cand, "%s", time_units[k].sym);
        } else if ((k -= NELEM(time_units)) == 0) {
            snprintf(cand, sizeof cand, "%%");
        } else {
            k--;
            size_t b = k % NELEM(bases), pi = k / NELEM(bases);
            const char *pfx = pi == 0 ? ""
                              : pi <= NELEM(bin_prefixes)
                                  ? bin_prefixes[pi - 1].sym
                                  : dec_prefixes[pi - 1 - NELEM(bin_prefixes)].sym;
            snprintf(cand, sizeof cand, "%s%s", pfx, bases[b].sym);
        }
        if (!same_but_case(u, cand) || strcmp(u, cand) == 0 || unit_classify(cand, &d, &f) != 0)
            continue;
        int ok = compatible(want, d), diffs = case_diffs(u, cand);
        if (!found || ok > best_ok || (ok == best_ok && diffs < best)) {
            snprintf(buf, n, "%s", cand);
            found = buf;
            *dim = d;
            best = diffs;
            best_ok = ok;
        }
    }
    return found;
}

/* The example of a hint: one of the dimension wanted when it has a unit. */
static const char *hint_example(unit_dim want, const char *other)
{
    return *unit_base_symbol(want) || want == UNIT_TIME ? unit_example(want) : other;
}

/* Hints for the spellings people most often reach for, in buf. */
static const char *unit_hint(const char *u, unit_dim want, char *buf, size_t n)
{
    char twin[32];
    unit_dim d;
    if (case_twin(u, want, twin, sizeof twin, &d) && compatible(want, d) && twin[0] == 'k' &&
        (d == UNIT_BYTES || d == UNIT_BYTE_RATE))
        snprintf(buf, n, "units are case-sensitive: write %s (decimal) or Ki%s (binary), e.g. %s",
                 twin, twin + 1, hint_example(want, "48 KiB"));
    else if (case_twin(u, want, twin, sizeof twin, &d) && compatible(want, d))
        snprintf(buf, n, "units are case-sensitive: write %s, e.g. %s", twin,
                 hint_example(want, "48 KiB"));
    else if (strstr(u, "FLOPS") || strstr(u, "flops") || strstr(u, "Flops"))
        snprintf(buf, n, "write FLOP/s, e.g. 7.5 PFLOP/s");
    else if (strstr(u, "ps") && !strstr(u, "/"))
        snprintf(buf, n, "write rates with /s, e.g. %s",
                 want == UNIT_BYTE_RATE ? "100 Gb/s or 150 GB/s" : hint_example(want, "150 GB/s"));
    else if (strstr(u, "iFLOP") || strstr(u, "iW"))
        snprintf(buf, n, "binary prefixes (Ki, Mi, ...) apply to bytes and bits only");
    else if (u[0] == 'K')
        snprintf(buf, n,
                 "the kilo prefix is k (decimal) or Ki (binary, bytes and bits only), e.g. %s",
                 hint_example(want, "48 KiB"));
    else if (strcmp(u, "m") == 0 || strcmp(u, "mo") == 0 || strncmp(u, "month", 5) == 0)
        snprintf(buf, n, "time units are " TIME_UNITS);
    else if (case_twin(u, want, twin, sizeof twin, &d) && d != UNIT_COUNT)
        snprintf(buf, n, "units are case-sensitive, and %s is %s %s, not %s %s, e.g. %s", twin,
                 article(d), unit_dim_name(d), article(want), unit_dim_name(want),
                 parse_example(want));
    else
        snprintf(buf, n, "see cerebras-plan(5) for the units");
    return buf;
}

int unit_parse(const char *text, unit_dim want, double *out, char *why, size_t why_n)
{
    while (isspace((unsigned char)*text))
        text++;
    /* strtod takes "nan", "inf" and hex floats; we want plain decimals only. */
    if (!(isdigit((unsigned char)text[0]) || text[0] == '.' ||
          ((text[0] == '-' || text[0] == '+') &&
           (isdigit((unsigned char)text[1]) || text[1] == '.')))) {
        snprintf(why, why_n, "'%s' is not a number (expected e.g. %s)", text, parse_example(want));
        return -1;
    }
    const char *digits = text + (text[0] == '-' || text[0] == '+');
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        snprintf(why, why_n, "'%s': hexadecimal numbers are not accepted", text);
        return -1;
    }
    char *end;
    double v = strtod(text, &end);
    if (!isfinite(v)) {
        snprintf(why, why_n, "'%s' is out of range (%s)", text, UNIT_TOO_LARGE);
        return -1;
    }
    if (v == 0 && nonzero_digit(text, end)) {
        snprintf(why, why_n, "'%s' is out of range (%s)", text, UNIT_TOO_SMALL);
        return -1;
    }
    char u[64];
    while (isspace((unsigned char)*end))
        end++;
    snprintf(u, sizeof u, "%s", end);
    trim(u);

    unit_dim got;
    double f;
    if (unit_classify(u, &got, &f) != 0) {
        char hint[320];
        snprintf(why, why_n, "unknown unit '%s' (%s)", u, unit_hint(u, want, hint, sizeof hint));
        return -1;
    }
    if (!compatible(want, got)) {
        if (got == UNIT_COUNT && f == 1.0)
            snprintf(why, why_n, "missing unit: %s %s needs one, e.g. %s", article(want),
                     unit_dim_name(want), parse_example(want));
        else
            snprintf(why, why_n, "unit '%s' is %s %s, but %s %s is expected, e.g. %s", u,
                     article(got), unit_dim_name(got), article(want), unit_dim_name(want),
                     parse_example(want));
        return -1;
    }
    double scaled = v * f;
    if (!isfinite(scaled) || (scaled == 0 && v != 0)) {
        snprintf(why, why_n, "'%s' is out of range (%s)", text,
                 isfinite(scaled) ? UNIT_TOO_SMALL : UNIT_TOO_LARGE);
        return -1;
    }
    v = scaled;
    *out = v + 0.0; /* "-0" is 0: no -0 enters the program */
    return 0;
}

static char *format_time(double v, char *buf, size_t n)
{
    static const struct named_factor scale[] = {
        {"d", 86400.0}, {"h", UNIT_HOUR_S}, {"min", 60.0}, {"s", 1.0},
        {"ms", 1e-3},   {"us", 1e-6},  {"ns", 1e-9},
    };
    double a = fabs(v);
    for (size_t i = 0; i < NELEM(scale); i++) {
        if (a >= scale[i].factor || i + 1 == NELEM(scale)) {
            if (a == 0.0)
                i = 3;
            snprintf(buf, n, "%.4g %s", v / scale[i].factor, scale[i].sym);
            return buf;
        }
    }
    return buf;
}

static char *format_count(double v, char *buf, size_t n)
{
    /* Whole below 1e7 in full; from 1e6 a fraction is rounded away rather
     * than %.6g's exponent. */
    if (fabs(v) < 1e7 && (v == floor(v) || fabs(v) >= 1e6))
        snprintf(buf, n, "%.0f", v);
    else if (fabs(v) < 1e7)
        snprintf(buf, n, "%.6g", v);
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}

char *unit_format_exact(double v, char *buf, size_t n)
{
    /* The shortest of %.15g..%.17g that reads back as the same double.
     * dtoa_roundtrip_g computes exactly that text without stdio; when it
     * cannot decide (or the text would not fit), ask printf and strtod. */
    char tmp[DTOA_BUF];
    v += 0.0; /* -0 prints as 0, here and in every unit_format*() */
    int len = dtoa_roundtrip_g(v, tmp);
    if (len >= 0 && (size_t)len < n) {
        memcpy(buf, tmp, (size_t)len + 1);
        return buf;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

char *unit_format(double v, unit_dim d, char *buf, size_t n)
{
    v += 0.0;
    if (d == UNIT_TIME)
        return format_time(v, buf, n);
    if (d == UNIT_COUNT)
        return format_count(v, buf, n);
    if (d == UNIT_FRACTION) {
        snprintf(buf, n, "%.4g", v);
        return buf;
    }
    const char *pfx = "";
    double a = fabs(v), s = 1.0;
    if (a != 0.0 && (a >= 1e21 || a < 1.0)) {
        snprintf(buf, n, "%.4g %s", v, unit_base_symbol(d));
        return buf;
    }
    for (size_t i = 0; i < NELEM(dec_prefixes); i++) {
        if (a >= dec_prefixes[i].factor) {
            pfx = dec_prefixes[i].sym;
            s = dec_prefixes[i].factor;
        }
    }
    snprintf(buf, n, "%.4g %s%s", v / s, pfx, unit_base_symbol(d));
    return buf;
}

char *unit_format_duration(double seconds, char *buf, size_t n)
{
    const double year = 365.25 * 86400;
    seconds += 0.0;
    if (!(fabs(seconds) >= 2 * year))
        return unit_format(seconds, UNIT_TIME, buf, n);
    snprintf(buf, n, "%.4g years", seconds / year);
    return buf;
}

char *unit_format_energy(double joules, char *buf, size_t n)
{
    static const struct named_factor scale[] = {
        {"TWh", 1e12}, {"GWh", 1e9}, {"MWh", 1e6}, {"kWh", 1e3}, {"Wh", 1},
    };
    double wh = joules / UNIT_HOUR_S + 0.0;
    size_t i = 0;
    while (i + 1 < NELEM(scale) && !(fabs(wh) >= scale[i].factor))
        i++;
    snprintf(buf, n, "%.4g %s", wh / scale[i].factor, scale[i].sym);
    return buf;
}
