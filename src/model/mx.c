/* mx.c - MemoryX capacity, flash spill and optimizer update. */
#include "mx.h"

#include <math.h>

#include "minmax.h"

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

double mx_flash_fraction(const struct mx_spec *mx, double servers, double state_bytes)
{
    double dram = servers * mx->server_dram_bytes;
    if (state_bytes <= dram || !(mx->server_flash_bytes > 0))
        return 0;
    return mm_min(state_bytes - dram, servers * mx->server_flash_bytes) / state_bytes;
}

double mx_update_time(const struct mx_spec *mx, const struct wl_desc *wl, double params,
                      double flash_fraction)
{
    return mx_update_time_bpp(mx, mx_bytes_per_param(wl), params, flash_fraction);
}

double mx_servers_to_hold(const struct mx_spec *mx, double state_bytes)
{
    return mm_max(1, ceil(state_bytes / mx->server_dram_bytes));
}

double mx_tier_servers(const struct mx_spec *mx, double tier_bytes)
{
    return ceil(tier_bytes / (mx->server_dram_bytes + mx->server_flash_bytes));
}

int mx_smallest_tier(const struct mx_spec *mx, double bytes)
{
    int best = -1;
    for (size_t i = 0; i < mx->tiers.n; i++)
        if (mx_capacity(mx, mx_tier_servers(mx, mx->tiers.item[i].value)) >= bytes &&
            (best < 0 || mx->tiers.item[i].value < mx->tiers.item[best].value))
            best = (int)i;
    return best;
}
