/* site.h - what every kind of cluster shares about where it runs: the
 * storage its checkpoints go to, the time a job takes to start again
 * after a failure, and what running it costs beyond its parts (the
 * currency, the years its capital is spread over, the price of energy and
 * the data centre's PUE).  Both description schemas (hw.h, gpuhw.h) take
 * these keys from SITE_DESC_KEYS, in [reliability] and [cost]; each kind
 * adds the MTBF, checkpoint bandwidth and price of its own parts there.
 * A checkpoint moves at the least of the parts' summed bandwidth and the
 * storage's (site_ckpt_Bps).
 *
 * Every key is optional: 0 (or no currency) means not modelled, so a
 * description without them trains without failures and has no cost. */
#ifndef CP_SITE_H
#define CP_SITE_H

#include <stddef.h>

#include "desc.h"

struct site_spec {
    double storage_Bps;            /* shared checkpoint storage, bytes/s, each way;
                                      0: not binding (the parts' own rates) */
    double restart_s;              /* start again after a failure, beyond the restore */
    char currency[DESC_TEXT_MAX];  /* "USD", "EUR": the prices' currency        */
    double years_s;                /* capital spread over this long, seconds      */
    double energy_price_kwh;       /* currency per kWh at the meter               */
    double pue;                    /* power usage effectiveness (0: not given, 1)  */
};

#define SITE_DESC_KEYS(off)                                                                        \
    {"reliability", "storage_bandwidth", DESC_NUM, UNIT_BYTE_RATE, DESC_ZERO_OK,                   \
     (off) + offsetof(struct site_spec, storage_Bps), 0, NULL, 0,                                  \
     "bandwidth of the shared storage checkpoints are written to and read from"},                  \
        {"reliability", "restart", DESC_NUM, UNIT_TIME, DESC_ZERO_OK,                              \
         (off) + offsetof(struct site_spec, restart_s), 0, NULL, 0,                                \
         "time a job takes to start again after a failure, beyond reading its checkpoint"},        \
        {"cost", "currency", DESC_TEXT, UNIT_COUNT, 0, (off) + offsetof(struct site_spec, currency), \
         0, NULL, 0, "currency of every price (USD, EUR, ...)"},                                   \
        {"cost", "years", DESC_NUM, UNIT_TIME, DESC_ZERO_OK,                                       \
         (off) + offsetof(struct site_spec, years_s), 0, NULL, 0,                                  \
         "years the capital price of the parts is spread over"},                                   \
        {"cost", "energy_price", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK,                               \
         (off) + offsetof(struct site_spec, energy_price_kwh), 0, NULL, 0,                         \
         "price of one kWh of electricity, in the currency"},                                      \
        {"cost", "pue", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, (off) + offsetof(struct site_spec, pue), \
         0, NULL, 0, "power usage effectiveness of the data centre (facility / IT power)"}

/* What is wrong with s given whether any part has a price, and the
 * section and key it is about, or NULL when nothing is. */
const char *site_inconsistency(const struct site_spec *s, int any_price,
                               const char **section, const char **key);

/* The bandwidth a checkpoint is written and read at: parts_Bps (the
 * writers' summed bandwidth) or the storage's, whichever binds. */
double site_ckpt_Bps(const struct site_spec *s, double parts_Bps);

#endif
