/* claim_gpu.h - the claims that compare a weight-streaming system with GPUs
 * (the kinds ratio, gpu_time, gpu_count and power of claim.h), judged with
 * the published chip figures of both descriptions, the GPU model's layout
 * search and the comparison of one job on both (cmp.h): entries of
 * claim_types (claim.c).  The weight-streaming kinds are claim_ws.h's.
 *
 * A claim's figure is within CLAIM_GPU_TOL of its target when it holds: the
 * seeds round their headline figures.
 *
 * ratio: the figure of the system's chip over the same figure of the
 * GPU's (cores: [chip] cores over [gpu] cores; on_chip_memory: [system]
 * sram over [gpu] l2_cache; memory_bandwidth: [chip] memory_bandwidth
 * over [gpu] hbm_bandwidth; fabric_bandwidth: [chip] fabric_bandwidth
 * over twice [network] nvlink_bandwidth, both directions as NVIDIA quotes
 * it; die_area: [chip] die_area_mm2 over [gpu] die_area_mm2), or for
 * memoryx the GPUs whose HBM holds the claim's MemoryX tier, ceil(tier /
 * [gpu] hbm).  Holds at target x (1 - CLAIM_GPU_TOL) or more; when it falls
 * short, holds only under stated conditions if another GPU described
 * meets it (the reason names them and the GPU figure the claim needs),
 * else does not hold.
 *
 * gpu_time: the job on the claim's GPUs (their fastest layout at the
 * claim's precision, cmp_gpu_at()).  The claim says GPUs take the target:
 * holds when the model's time-to-train is at least target x (1 -
 * CLAIM_GPU_TOL); else holds only under stated conditions, named in the
 * reason: the FLOP rate each GPU may sustain at most (against the
 * model's) for the time to last that long.  Does not hold when no layout
 * of that many GPUs runs the job.
 *
 * gpu_count: the fewest GPUs (in whole nodes, cmp_count_step()) on which
 * some layout fits at all, and the fewest that train within the claim's
 * deadline (cmp_run()).  Holds when the first is at least target x (1 -
 * CLAIM_GPU_TOL) (the GPUs are needed to hold the model); holds only under
 * the stated deadline when the second is; else does not hold, and the
 * reason gives the time on the target's GPUs (the fewest from the target
 * up that run).
 *
 * power: the power of the weight-streaming cluster over the GPU
 * cluster's, for one job: at the claim's deadline, the fewest of each
 * that meet it (cmp_run()); with no deadline, the claim's systems and the
 * fewest GPUs as fast; with gpus given, also those GPUs as they are.
 * Whose power: chips counts the systems (system.power) against the GPUs'
 * boards (gpu.power); nodes counts all the model does on both sides (the
 * systems with their MemoryX, activation and SwarmX servers; the GPU
 * nodes whole at system.node_power).  Holds when the ratio is at most
 * target x (1 + CLAIM_GPU_TOL) for the same job; holds only under stated
 * conditions when only the other count makes it, or when only the given
 * GPUs make it and they finish sooner (a different job); else does not
 * hold.  The reason gives the GPUs whose power the target takes.
 *
 * No I/O; errors in struct cp_error. */
#ifndef CP_CLAIM_GPU_H
#define CP_CLAIM_GPU_H

#include "claim.h"

/* Relative slack of a claim's figure against the target.  Assumed: 5 %,
 * the seeds' headline figures have two significant digits ("52x", "880x",
 * "287 GPUs") and rounding to those moves a figure by up to 5 %. */
#define CLAIM_GPU_TOL 0.05

/* The judges, each given in->hw, in->gpu and in->others, and in->ws but
 * for a ratio claim.  CP_OK with the verdict, the claim's figure in
 * r->predicted (a ratio; a count of GPUs; seconds; a power fraction) and
 * the reason with the numbers; CP_EINPUT when a figure the claim needs is
 * not given in a description (err names the key) or the claim's tier is
 * not one of the system's. */
cp_status claim_gpu_ratio(const struct claim_in *in, struct claim_result *r, struct cp_error *err);
cp_status claim_gpu_time(const struct claim_in *in, struct claim_result *r, struct cp_error *err);
cp_status claim_gpu_count(const struct claim_in *in, struct claim_result *r, struct cp_error *err);
cp_status claim_gpu_power(const struct claim_in *in, struct claim_result *r, struct cp_error *err);

#endif
