/* mx.h - MemoryX: what it stores per parameter, whether a tier holds it,
 * how much of it spills to flash, and how long the optimizer update takes.
 *
 * State per parameter, from the workload's precisions: the streamed weight
 * copy (weight_bytes), the master copy (master_bytes), the optimizer
 * moments (optimizer_bytes) and a gradient accumulator at master precision
 * (master_bytes).  The update of p parameters costs
 *   max(p x update_flop_per_param / update_flops,
 *       p x 2 x state bytes x (dram share / dram_bandwidth
 *                              + flash share / flash_bandwidth))
 * since it reads and writes every state byte once.  A tier's first
 * memoryx.dram bytes are DRAM; state beyond them is on flash. */
#ifndef CP_MX_H
#define CP_MX_H

#include "../spec/hw.h"
#include "../spec/wl.h"

enum mx_part { MX_WEIGHT, MX_MASTER, MX_OPTIMIZER, MX_GRAD_ACCUM, MX_NPARTS };
extern const char *const mx_part_name[MX_NPARTS];

/* Bytes per parameter of one part, and of all parts. */
double mx_part_bytes(const struct wl_desc *wl, enum mx_part part);
double mx_bytes_per_param(const struct wl_desc *wl);

/* Fraction of state_bytes that lives on flash in a tier of tier_bytes. */
double mx_flash_fraction(const struct mx_spec *mx, double tier_bytes, double state_bytes);

/* Seconds to update params parameters whose state has flash_fraction on
 * flash. */
double mx_update_time(const struct mx_spec *mx, const struct wl_desc *wl, double params,
                      double flash_fraction);

/* Index of the smallest tier that holds bytes, or -1. */
int mx_smallest_tier(const struct mx_spec *mx, double bytes);

#endif
