/* cost.c - the failure rate and cost of a bill of materials, and money
 * as people write it.  See cost.h. */
#include "cost.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "gp.h"

/* A kilowatt-hour in joules. */
#define COST_KWH_J (1000 * UNIT_HOUR_S)

double cost_failure_rate(const struct bom_line *b, size_t n)
{
    double rate = 0;
    for (size_t i = 0; i < n; i++)
        rate += gp_rate(b[i].count, b[i].mtbf_s);
    return rate;
}

void cost_eval(const struct bom_line *b, size_t n, double wall_s, double energy_J,
               const struct site_spec *s, double rental_units, double rental_price,
               struct cost_result *o)
{
    memset(o, 0, sizeof *o);
    int priced = 0;
    o->rental = rental_price >= 0;
    if (o->rental) {
        o->capital = rental_units * wall_s / UNIT_HOUR_S * rental_price;
        priced = 1;
    } else if (s->years_s > 0) {
        for (size_t i = 0; i < n && i < COST_MAX_LINES; i++) {
            o->line[i] = b[i].count * b[i].price * wall_s / s->years_s;
            o->capital += o->line[i];
            priced |= b[i].price > 0;
        }
    }
    if (s->energy_price_kwh > 0) {
        double pue = s->pue > 0 ? s->pue : 1;
        o->energy = energy_J / COST_KWH_J * pue * s->energy_price_kwh; /* no overflow first */
        priced = 1;
    }
    o->total = priced ? o->capital + o->energy : -1;
}

/* The currencies written as a symbol, with their codes. */
static const struct {
    const char *symbol, *code;
} symbols[] = {{"$", "USD"}, {"\xe2\x82\xac", "EUR"}, {"\xc2\xa3", "GBP"}, {"\xc2\xa5", "JPY"}};

static const char *symbol_of(const char *code)
{
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strcmp(symbols[i].code, code) == 0)
            return symbols[i].symbol;
    return NULL;
}

const char *cost_format(double v, const char *currency, char *buf, size_t n)
{
    static const char *const suffix[] = {"", "k", "M", "B", "T"};
    size_t k = 0;
    double a = v;
    while (fabs(a) >= 1000 && k + 1 < sizeof suffix / sizeof suffix[0])
        a /= 1000, k++;
    const char *sym = currency ? symbol_of(currency) : NULL;
    if (sym)
        snprintf(buf, n, "%s%.4g%s", sym, a, suffix[k]);
    else if (currency && currency[0])
        snprintf(buf, n, "%.4g%s%s %s", a, k ? " " : "", suffix[k], currency);
    else
        snprintf(buf, n, "%.4g%s", a, suffix[k]);
    return buf;
}

int cost_currency_is(const char *cur, const char *currency)
{
    if (!cur[0])
        return 1;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strcmp(symbols[i].symbol, cur) == 0)
            return strcmp(symbols[i].code, currency) == 0;
    return strcasecmp(cur, currency) == 0;
}

/* The leading currency symbol or three-letter code of *p (moved past
 * them and any blank) into cur ("" when there is none). */
static void take_currency(const char **p, char *cur, size_t ncur)
{
    size_t len = 0;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strncmp(*p, symbols[i].symbol, strlen(symbols[i].symbol)) == 0)
            len = strlen(symbols[i].symbol);
    if (!len) {
        while (isalpha((unsigned char)(*p)[len]))
            len++;
        if (len != 3) /* a code is three letters (ISO 4217) */
            len = 0;
    }
    snprintf(cur, ncur, "%.*s", (int)len, *p);
    *p += len;
    while (**p == ' ')
        (*p)++;
}

int cost_parse(const char *text, double *v, char *cur, size_t ncur, char *why, size_t nwhy)
{
    const char *p = text;
    char after[16] = "";
    take_currency(&p, cur, ncur);
    char *end;
    double x = strtod(p, &end);
    if (end == p || !isfinite(x) || x < 0) {
        snprintf(why, nwhy, "'%s' is not an amount of money (such as $10M, 2.5M USD or 400k)",
                 text);
        return -1;
    }
    static const char scale_ch[] = "kMB";
    const char *s = *end ? strchr(scale_ch, *end) : NULL;
    if (s) {
        x *= pow(1000, (double)(s - scale_ch + 1));
        end++;
    }
    const char *q = end;
    while (*q == ' ')
        q++;
    take_currency(&q, after, sizeof after);
    if (*q || (cur[0] && after[0])) {
        snprintf(why, nwhy, "'%s' is not an amount of money (such as $10M, 2.5M USD or 400k)",
                 text);
        return -1;
    }
    if (after[0])
        snprintf(cur, ncur, "%s", after);
    *v = x;
    return 0;
}
