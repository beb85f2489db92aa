/* sens.h - sensitivity of time-to-train to every numeric hardware key: the
 * elasticity d ln(time) / d ln(value) at one configuration, of either kind
 * of cluster, through the training-model interface's parameter
 * operations (tm.h): the kind says which keys there are, their values,
 * which are whole numbers, which values are valid, and evaluates the job
 * with one changed.  On GPUs an evaluation is the layout search at the
 * job's count, so a key that changes the fastest layout shows as a kink.
 *
 * Continuous keys: f(u) = ln time(p0 e^u) differentiated at u = 0 with
 * GSL's gsl_deriv_central at step h = SENS_STEP (= 0.01, values within
 * about +-1 %).  Why 0.01: the model is a sum of max() and min() of power
 * laws, so f is nearly linear in u between regime changes and the 5-point
 * rule's truncation error is negligible; the round-off error of ln time
 * (~1e-16) divided by h stays near 1e-14; and a 1 % change is a change a
 * measurement could resolve, so a regime boundary within 1 % shows as a
 * kink rather than hiding between points a millionth apart.  Where p0 e^h
 * or p0 e^-h is not a valid value (param_valid: a fraction reaching 1,
 * sparsity.overhead reaching 1) only the other side is used
 * (gsl_deriv_backward or gsl_deriv_forward).
 *
 * Kinks: the model is piecewise (a layer costs the slowest of its streams;
 * the stream rate is the least of three bandwidths; micro-batches and
 * tree depth are whole numbers).  At a kink the central difference is the
 * average of two different slopes and GSL's error estimate does not see
 * it, so the one-sided elasticities (gsl_deriv_backward and
 * gsl_deriv_forward at the same h) are reported too, and the row is marked
 * when they differ by more than SENS_KINK_TOL: e.g. with system I/O,
 * SwarmX link and MemoryX all at 150 GB/s, lowering any one slows the
 * streams but raising one alone does nothing.
 *
 * Whole-number keys (param_whole: swarmx.fanout, system.max_matmul_dim,
 * system.max_systems; gpu.sm_count, fit.tile_rows): the model is a step
 * function of them, so there is no derivative.  Their row is an arc elasticity over whole values:
 * v_lo = the largest whole value <= v e^-h and at most v - 1, v_hi = the
 * smallest >= v e^h and at least v + 1; below and above are
 * ln(t(v) / t(v_lo)) / ln(v / v_lo) and ln(t(v_hi) / t(v)) / ln(v_hi / v),
 * elasticity the arc from v_lo to v_hi (or the one valid side, e.g. fanout
 * 2 has no valid 1), abserr 0 (the quotients are exact), and step = 1. */
#ifndef CP_SENS_H
#define CP_SENS_H

#include <stddef.h>

#include "../desc/desc.h"
#include "../tm/tm.h"

#define SENS_STEP 0.01     /* h, in ln(value) */
#define SENS_KINK_TOL 0.01 /* one-sided elasticities further apart: a kink */

struct sens_row {
    size_t param;      /* the kind's parameter index (tm.h) */
    int key;           /* its description schema index (param_index) */
    double value;      /* the key's value, SI */
    double spread;     /* its +- half-width from the file, SI (0: none) */
    double elasticity; /* d ln(time_s) / d ln(value) */
    double abserr;     /* GSL's estimate of the derivative's error */
    int defined;       /* 0 when value is 0 (no elasticity), or the time is
                          not finite near it; the numbers below are then NaN */
    double below;      /* elasticity on lowering the value (NaN: not valid) */
    double above;      /* elasticity on raising it (NaN: not valid)         */
    int kink;          /* below and above differ by more than SENS_KINK_TOL */
    int step;          /* whole-number key: arc elasticities, see above     */
    double lo, hi;     /* whole-number key: the neighbours used (NaN: none) */
};

/* What the elasticities are of: the time-to-train (tm_result.time_s), the
 * energy of the run (energy_J: power keys move it, and every key that
 * moves the time) or its cost (cost: the [cost] prices too). */
enum sens_metric { SENS_TIME, SENS_ENERGY, SENS_COST };

/* "time-to-train", "energy", "cost"; and the short word "time", "energy",
 * "cost" (for "time ~ value^-0.99"). */
const char *sens_metric_name(enum sens_metric m);
const char *sens_metric_word(enum sens_metric m);

/* One row per parameter of j's kind (nparams() rows into rows), sorted by
 * |elasticity| descending (ties in schema order), undefined rows last (in
 * schema order), each at j's own count with its global batch (TM_STRONG).
 * The kind's param_skip_why names the keys whose elasticity is not a
 * ranking of what to measure (limits, capacities): their rows are computed
 * all the same, and the front end leaves them out.  j's own job must have
 * been checked by its loader and run at its count (tm_eval: r.runs); src
 * gives the ranges (indexed by param_index; may be NULL: no ranges).
 * Returns the number of rows. */
size_t sens_run(const struct tm_job *j, const struct desc_src *src, struct sens_row *rows);

/* sens_run() with the elasticities of metric m instead of the time (a job
 * with no cost, m SENS_COST: every row undefined). */
size_t sens_run_of(const struct tm_job *j, const struct desc_src *src, enum sens_metric m,
                   struct sens_row *rows);

#endif
