/* gpu_run.h - a published GPU run (a row of the GPU measurement corpus,
 * gmeas.h) as a job for the GPU model: its workload and the layout it ran.
 *
 * The corpus gives each run's shape and parallel layout; what it leaves
 * out (dropout, the optimizer's state, the interleaving, the recompute,
 * whether the 2021 stack had sequence parallelism) is filled from what
 * each source's software ran, one table per source and recipe in
 * gpu_run.c with its citation, never per row; a source the table does not
 * know gets the modern stack's defaults (the last entry).  Shared by
 * `validate` and the tests, so both judge the same reading. */
#ifndef CP_GPU_RUN_H
#define CP_GPU_RUN_H

#include "../desc/gmeas.h"
#include "gpu.h"

/* GPT-3's vocabulary (Brown et al. 2020), for rows whose vocab is unknown
 * (MLPerf: C4 SentencePiece "~50k"; NeMo GPT3 rows). */
#define GPU_RUN_VOCAB_GPT3 50257

/* The workload of a row: shape from the row, dropout and optimizer state
 * from its source's recipe, gated FFN when that count comes nearer the
 * published parameters. */
void gpu_run_workload(const struct gmeas_row *r, struct wl_desc *w);

/* The layout of a row on g: the published tp/pp/dp/cp/mbs/vp, the 2021
 * stack's features where the source is Narayanan et al. 2021, and the
 * published recompute or, where unknown, the least a framework could run
 * that fits (none, selective, block of k = vp, 2 vp, ... layers a stage,
 * full). */
struct gpu_layout gpu_run_layout(const struct gpuhw_desc *g, const struct wl_desc *w,
                                 const struct gmeas_row *r);

/* Workload and layout of a row, checked; the model's step into res.
 * CP_EINPUT (message naming the figure) when the layout does not divide. */
cp_status gpu_run_eval(const struct gpuhw_desc *g, const struct gmeas_row *r,
                       struct gpu_result *res, struct cp_error *err);

#endif
