/* mx.c - MemoryX capacity, flash spill and optimizer update. */
#include "mx.h"

#include <math.h>

const char *const mx_part_name[MX_NPARTS] = {"weights", "master", "optimizer", "grad_accum"};

double mx_part_bytes(const struct wl_desc *wl, enum mx_part part)
{
    switch (part) {
    case MX_WEIGHT:
        return wl->weight_bytes;
    case MX_MASTER:
    case MX_GRAD_ACCUM:
        return wl->master_bytes;
    case MX_OPTIMIZER:
        return wl->optimizer_bytes;
    default:
        return 0;
    }
}

double mx_bytes_per_param(const struct wl_desc *wl)
{
    double sum = 0;
    for (int p = 0; p < MX_NPARTS; p++)
        sum += mx_part_bytes(wl, (enum mx_part)p);
    return sum;
}

double mx_flash_fraction(const struct mx_spec *mx, double tier_bytes, double state_bytes)
{
    double dram = fmin(tier_bytes, mx->dram_bytes);
    if (state_bytes <= dram)
        return 0;
    return (state_bytes - dram) / state_bytes;
}

double mx_update_time(const struct mx_spec *mx, const struct wl_desc *wl, double params,
                      double flash_fraction)
{
    double flops = params * mx->update_flop_per_param / mx->update_flops;
    double bytes = params * 2 * mx_bytes_per_param(wl);
    double mem =
        bytes * ((1 - flash_fraction) / mx->dram_bw_Bps + flash_fraction / mx->flash_bw_Bps);
    return fmax(flops, mem);
}

int mx_smallest_tier(const struct mx_spec *mx, double bytes)
{
    int best = -1;
    for (size_t i = 0; i < mx->tiers.n; i++)
        if (mx->tiers.item[i].value >= bytes &&
            (best < 0 || mx->tiers.item[i].value < mx->tiers.item[best].value))
            best = (int)i;
    return best;
}
