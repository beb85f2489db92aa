/* unc.h - uncertainty of a configuration's step time, time-to-train and
 * energy from the +- ranges of its hardware description (cerebras-plan(5)).
 *
 * Every numeric key with a range is drawn independently and uniformly over
 * [centre - half-width, centre + half-width]: the files state a range, not
 * a shape, and the uniform is the least-committal distribution on it.  The
 * analytic model (param_eval) runs on each draw and the results are
 * summarised by their 5th, 50th and 95th percentiles.
 *
 * Valid draws: the loader refuses a range whose ends leave the key's own
 * valid values, but a rule spanning keys (e.g. sparsity.overhead below 1)
 * can still fail inside a range.  Such a draw of a key is REDRAWN (up to
 * UNC_MAX_REDRAWS times, then CP_EINPUT): this keeps each key uniform on
 * the valid part of its range instead of piling probability on a clamped
 * end.  With the shipped files no rule can fail, so no redraw happens. */
#ifndef CP_UNC_H
#define CP_UNC_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "../base/status.h"
#include "../model/cluster.h"

#define UNC_DEFAULT_SAMPLES 1000
#define UNC_DEFAULT_SEED 1
#define UNC_MAX_SAMPLES 1000000
#define UNC_MAX_REDRAWS 1000 /* per key and draw, before giving up */

struct unc_band {
    double p05, p50, p95;
};

struct unc_result {
    size_t samples; /* draws evaluated */
    size_t ranged;  /* hardware keys with a range */
    struct unc_band step_s, time_s, energy_J;
};

/* Draw `samples` hardware descriptions around base->hw: each numeric key k
 * with src->spread[k] > 0 uniform in [v - spread, v + spread] (GSL
 * gsl_rng_mt19937 seeded with seed; keys drawn in schema order, so the same
 * seed gives the same draws whatever the cluster), evaluate base on each with
 * param_eval(), and summarise with percentiles (gsl_sort +
 * gsl_stats_quantile_from_sorted_data, which interpolates linearly between
 * order statistics).  times (may be NULL) receives the time_s of each draw
 * in draw order.  With no ranged key every band is the point value (base
 * evaluated once; times, if given, holds it samples times).  Seed 0 is
 * GSL's default seed for mt19937 (4357).  CP_ENOMEM / CP_EINPUT (samples 0
 * or above UNC_MAX_SAMPLES, or a key with no valid draw) with err filled;
 * r is filled only on CP_OK. */
cp_status unc_run(const struct cluster *base, const struct desc_src *src, size_t samples,
                  unsigned long seed, struct unc_result *r, double *times, struct cp_error *err);

/* One draw, as unc_run makes them: out = *hw with every ranged key (in
 * schema order) replaced by a uniform draw from rng over its range, redrawn
 * while param_valid() refuses it.  CP_EINPUT with err filled when a key
 * finds no valid value in UNC_MAX_REDRAWS tries.  Exposed for tests. */
cp_status unc_draw(const struct hw_desc *hw, const struct desc_src *src, gsl_rng *rng,
                   struct hw_desc *out, struct cp_error *err);

#endif
