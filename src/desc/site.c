/* site.c - the checks of the keys every kind shares about its site.  See
 * site.h. */
#include "site.h"

const char *site_inconsistency(const struct site_spec *s, int any_price,
                               const char **section, const char **key)
{
    if (s->pue != 0 && s->pue < 1) {
        *section = "cost", *key = "pue";
        return "must be at least 1 (facility power over IT power)";
    }
    if (any_price && !(s->years_s > 0)) {
        *section = "cost", *key = "years";
        return "must be given (and positive) when a part has a price";
    }
    if ((any_price || s->energy_price_kwh > 0) && s->currency[0] == '\0') {
        *section = "cost", *key = "currency";
        return "must be given when a price is";
    }
    return NULL;
}

double site_ckpt_Bps(const struct site_spec *s, double parts_Bps)
{
    return s->storage_Bps > 0 && s->storage_Bps < parts_Bps ? s->storage_Bps : parts_Bps;
}
