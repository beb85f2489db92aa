/* money.c - goodput and cost for people.  See money.h. */
#include "money.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "../base/units.h"
#include "../cli/out.h"

const char *money_goodput_text(const struct gp_result *gp, double time_ff_s, double ckpt_bytes,
                               char *buf, size_t n)
{
    char ff[64], m[64], bytes[64], ck[64], tau[64], rs[64];
    out_duration(time_ff_s, ff, sizeof ff);
    if (isinf(gp->mtbf_s)) {
        snprintf(buf, n, "100 %% (no part has an MTBF: failures not counted)");
        return buf;
    }
    out_duration(gp->mtbf_s, m, sizeof m);
    if (!gp->finishes) {
        snprintf(buf, n,
                 "0 %%: the job never finishes (job MTBF %s, below the %s restart plus half a "
                 "checkpoint interval lost to each failure)",
                 m, out_duration(gp->restart_s, rs, sizeof rs));
        return buf;
    }
    snprintf(buf, n,
             "%.1f %% (failure-free %s; job MTBF %s, a %s checkpoint in %s every %s, restart %s; "
             "%.4g interruptions expected)",
             100 * gp->goodput, ff, m, unit_format(ckpt_bytes, UNIT_BYTES, bytes, sizeof bytes),
             out_duration(gp->ckpt_s, ck, sizeof ck), out_duration(gp->interval_s, tau, sizeof tau),
             out_duration(gp->restart_s, rs, sizeof rs), gp->interruptions);
    return buf;
}

/* printf onto buf at *len, never past n (a cut text stays cut). */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t n, size_t *len,
                                                         const char *fmt, ...)
{
    if (*len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    *len = k < 0 ? *len : (size_t)k >= n - *len ? n - 1 : *len + (size_t)k;
}

/* ", name $X" for each costed line of b into buf at *len. */
static void line_texts(const struct cost_result *c, const struct bom_line *b, size_t nb,
                       const char *cur, char *buf, size_t n, size_t *len)
{
    char v[48];
    int first = 1;
    for (size_t i = 0; i < nb && i < COST_MAX_LINES; i++) {
        if (!(b[i].price > 0) || !(b[i].count > 0))
            continue;
        append(buf, n, len, "%s%s %s", first ? "" : ", ", b[i].name,
               cost_format(c->line[i], cur, v, sizeof v));
        first = 0;
    }
}

const char *money_cost_text(const struct cost_result *c, const struct bom_line *b, size_t nb,
                            const struct site_spec *site, double energy_J, double units,
                            double wall_s, double price, const char *unit, char *buf, size_t n)
{
    const char *cur = site->currency;
    char t[48], a[48], e[48], en[48], yr[48];
    if (c->total < 0)
        return snprintf(buf, n, "not costed (no price: --price, or the [cost] keys)"), buf;
    size_t len = 0;
    buf[0] = '\0';
    append(buf, n, &len, "%s: ", cost_format(c->total, cur, t, sizeof t));
    if (c->rental) {
        append(buf, n, &len, "rental %s (%.6g %s-hours at %g)",
               cost_format(c->capital, cur, a, sizeof a), units * wall_s / UNIT_HOUR_S, unit, price);
    } else {
        append(buf, n, &len, "capital %s over %s (", cost_format(c->capital, cur, a, sizeof a),
               out_duration(site->years_s, yr, sizeof yr));
        line_texts(c, b, nb, cur, buf, n, &len);
        append(buf, n, &len, ")");
    }
    append(buf, n, &len, ", energy %s (%s x PUE %g at %g %s/kWh)",
           cost_format(c->energy, cur, e, sizeof e), out_energy(energy_J, en, sizeof en),
           site->pue > 0 ? site->pue : 1, site->energy_price_kwh, cur);
    return buf;
}
