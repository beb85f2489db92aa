/* money.h - goodput and cost for people, the same lines for every kind
 * (estimate, compare, plan): what failures take and what the job costs,
 * with the figures each rests on. */
#ifndef CP_MONEY_H
#define CP_MONEY_H

#include <stddef.h>

#include "../tm/cost.h"
#include "../tm/gp.h"

/* "88.1 % (failure-free 41.3 d; job MTBF 2.1 h, a 5.7 TB checkpoint in
 * 2.8 s every 3.2 min, restart 10.05 min; 530 interruptions expected)"
 * into buf: goodput and the figures behind it.  Returns buf. */
const char *money_goodput_text(const struct gp_result *gp, double time_ff_s, double ckpt_bytes,
                               char *buf, size_t n);

/* "$1.38M: capital $1.2M over 4 years (systems $1.1M, memoryx $12k ...),
 * energy $180k (476.8 MWh x PUE 1.58 at 0.08 USD/kWh)" into buf; with a
 * rental price, "rental $X (H unit-hours at P)" in place of capital; unit
 * names the unit of the rental ("system", "GPU").  "not costed" when
 * nothing is priced.  Returns buf. */
const char *money_cost_text(const struct cost_result *c, const struct bom_line *b, size_t nb,
                            const struct site_spec *site, double energy_J, double units,
                            double wall_s, double price, const char *unit, char *buf, size_t n);

#endif
