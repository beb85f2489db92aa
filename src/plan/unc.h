/* unc.h - uncertainty of a configuration's step time, time-to-train and
 * energy from the +- ranges of its hardware description (cerebras-plan(5)),
 * written once over the training-model interface (src/tm/tm.h), so either
 * kind of cluster: the keys drawn are the kind's parameters (tm_kind
 * nparams ...) that have a range.
 *
 * Every numeric key with a range is drawn independently and uniformly over
 * [centre - half-width, centre + half-width]: the files state a range, not
 * a shape, and the uniform is the least-committal distribution on it.  The
 * kind's model runs on each draw (eval of a clone of the job whose
 * description holds the draw) and the results are summarised by their
 * 10th, 50th and 90th percentiles (P10/P50/P90; the 5th and 95th too).
 *
 * The model's own error.  The constants' ranges are not all a model can
 * be wrong by: a kind names (tm.h model_error_key) a key of its
 * description holding the half-width e of its relative error on the step
 * time beyond its constants, from its validation residuals (the files
 * state the source).  After the keys of a draw, a factor f uniform in
 * [1 - e, 1 + e] (e as drawn, when the key has a range itself) multiplies
 * the draw's step time, time-to-train, energy and cost: the model is as
 * likely too slow as too fast by up to e.  The model never reads the key,
 * so point estimates are unchanged.
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
#include "../desc/desc.h"
#include "../tm/tm.h"
#include "plan.h"

#define UNC_DEFAULT_SAMPLES 1000
#define UNC_DEFAULT_SEED 1
#define UNC_MAX_SAMPLES 1000000
#define UNC_MAX_REDRAWS 1000 /* per key and draw, before giving up */

/* A few commands draw by default (compare, plan): fewer draws, so that
 * a plan or a comparison with a GPU side's layout search per draw stays
 * about a second. */
#define UNC_COMMAND_SAMPLES 200

struct unc_band {
    double p05, p10, p50, p90, p95;
};

struct unc_result {
    size_t samples;     /* draws evaluated */
    size_t ranged;      /* hardware keys with a range */
    double model_error; /* half-width of the model's own error drawn (0: none) */
    struct unc_band step_s, time_s, energy_J;
};

/* Each draw's figures, in draw order (n of each; the arrays are
 * unc_job_draws's, freed by unc_draws_free): SI units, with the model's
 * own error applied; cost < 0 when no price was given. */
struct unc_draws {
    size_t n, ranged;
    double model_error;
    double *step_s, *time_s, *energy_J, *cost;
    unsigned char *feasible; /* the draw runs and every fatal verdict holds */
};

/* The half-width of job j's model error (its description's value of the
 * kind's model_error_key), 0 when the kind names none. */
double unc_model_error(const struct tm_job *j);

/* The draws of unc_job_run into d (allocated here; unc_draws_free).
 * Errors as unc_job_run's; d is left empty on error. */
cp_status unc_job_draws(const struct tm_job *j, const struct desc_src *src, double count,
                        enum tm_scaling mode, size_t samples, unsigned long seed,
                        struct unc_draws *d, struct cp_error *err);
void unc_draws_free(struct unc_draws *d);

/* The share (0..1) of d's draws that meet every limit of limit[] (s, J,
 * currency; <= 0: none), by pscan_meets' rule: feasible, each limited
 * figure at most its limit, a limited cost not negative. */
double unc_share(const struct unc_draws *d, const double limit[PLAN_NMETRICS]);

/* Sort data (n values, n > 0) in place; its P05 .. P95 (GSL's quantiles:
 * linear between order statistics). */
struct unc_band unc_band_of(double *data, size_t n);

/* Draw `samples` descriptions around job j's: each parameter i of its
 * kind whose key has a range in src (src->spread[param_index(i)] > 0)
 * uniform in [v - spread, v + spread] (GSL gsl_rng_mt19937 seeded with
 * seed; the parameters drawn in the kind's order, so the same seed gives
 * the same draws whatever the count), evaluate j on each at count (j's
 * own when <= 0) under mode, apply the model's own error, and summarise
 * with percentiles (unc_band_of).  times (may be NULL) receives the
 * time_s of each draw in draw order.  With no ranged key and no model
 * error every band is the point value (j evaluated once; times, if
 * given, holds it samples times).
 * Seed 0 is GSL's default seed for mt19937 (4357).  A draw at which the
 * job does not run or gives a figure that is not finite is CP_EINPUT
 * naming the draw; CP_ENOMEM / CP_EINPUT (samples 0 or above
 * UNC_MAX_SAMPLES, or a key with no valid draw) with err filled; r is
 * filled only on CP_OK. */
cp_status unc_job_run(const struct tm_job *j, const struct desc_src *src, double count,
                      enum tm_scaling mode, size_t samples, unsigned long seed,
                      struct unc_result *r, double *times, struct cp_error *err);

/* One draw, as unc_job_run makes them: a clone of j (made in buf, of
 * j->kind->clone_size bytes; *drawn points to it) with every ranged
 * parameter replaced in order by a uniform draw from rng over its range,
 * redrawn while the kind's param_valid refuses it in the clone as drawn
 * so far.  CP_EINPUT with err filled when a key finds no valid value in
 * UNC_MAX_REDRAWS tries. */
cp_status unc_job_draw(const struct tm_job *j, const struct desc_src *src, gsl_rng *rng,
                       void *buf, void **drawn, struct cp_error *err);

#endif
