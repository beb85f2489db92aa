/* mx.h - MemoryX: what it stores per parameter, how much of it lands on
 * flash, how long the optimizer update takes, and how many servers a run
 * needs.
 *
 * State per parameter, from the workload's precisions: the streamed weight
 * copy (weight_bytes), the master copy (master_bytes), the optimizer
 * moments (optimizer_bytes) and a gradient accumulator at master precision
 * (master_bytes).  MemoryX is S identical servers over which the state is
 * sharded evenly, so each holds and updates 1/S of every layer.  A server
 * fills its DRAM first; state beyond S x server_memory goes to the servers'
 * flash (none unless server_flash > 0).  One server updates p parameters in
 *   max(p x update_flop_per_param / server_update_flops,
 *       p x 2 x state bytes x (dram share / server_memory_bandwidth
 *                              + flash share / server_flash_bandwidth))
 * since it reads and writes every state byte once. */
#ifndef CP_MX_H
#define CP_MX_H

#include "../desc/hw.h"
#include "../desc/wl.h"
#include "minmax.h"

enum mx_part { MX_WEIGHT, MX_MASTER, MX_OPTIMIZER, MX_GRAD_ACCUM, MX_NPARTS };
extern const char *const mx_part_name[MX_NPARTS];

/* Bytes per parameter of one part, and of all parts. */
double mx_part_bytes(const struct wl_desc *wl, enum mx_part part);
static inline double mx_bytes_per_param(const struct wl_desc *wl)
{
    /* mx_part_bytes() of each part added in order from 0, written out and
     * inline: the model asks for it in every evaluation */
    _Static_assert(MX_WEIGHT == 0 && MX_MASTER == 1 && MX_OPTIMIZER == 2 && MX_GRAD_ACCUM == 3 &&
                       MX_NPARTS == 4,
                   "mx_bytes_per_param() adds the parts in this order");
    return 0.0 + wl->weight_bytes + wl->master_bytes + wl->optimizer_bytes + wl->master_bytes;
}

/* Bytes servers MemoryX servers hold (DRAM and flash). */
static inline double mx_capacity(const struct mx_spec *mx, double servers)
{
    return servers * (mx->server_dram_bytes + mx->server_flash_bytes);
}

/* Fraction of state_bytes that lives on flash across servers servers. */
double mx_flash_fraction(const struct mx_spec *mx, double servers, double state_bytes);

/* Seconds for one server to update params parameters whose state has
 * flash_fraction on flash. */
double mx_update_time(const struct mx_spec *mx, const struct wl_desc *wl, double params,
                      double flash_fraction);
/* The same for a state of bytes_per_param (mx_bytes_per_param() of the
 * workload) worked out once by the caller; inline, as the step asks for it
 * for every layer of every evaluation. */
static inline double mx_update_time_bpp(const struct mx_spec *mx, double bytes_per_param,
                                        double params, double flash_fraction)
{
    double flops = params * mx->update_flop_per_param / mx->server_update_flops;
    double bytes = params * 2 * bytes_per_param;
    double mem = bytes * (1 - flash_fraction) / mx->server_mem_bw_Bps;
    if (flash_fraction > 0)
        mem += bytes * flash_fraction / mx->server_flash_bw_Bps;
    return mm_max(flops, mem);
}

/* Fewest servers whose DRAM holds state_bytes (at least 1). */
double mx_servers_to_hold(const struct mx_spec *mx, double state_bytes);

/* Servers that make up a published tier of tier_bytes (whole servers). */
double mx_tier_servers(const struct mx_spec *mx, double tier_bytes);

/* Index of the smallest tier whose servers hold bytes, or -1. */
int mx_smallest_tier(const struct mx_spec *mx, double bytes);

#endif
