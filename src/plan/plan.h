/* plan.h - planning backwards from a target: the smallest cluster that
 * trains a model by a deadline or within an energy budget, or the fastest
 * a money budget buys, and (optionally) the least sparsity or the
 * larger batch that makes the target reachable.
 *
 * The search (cerebras-plan(1), PLAN, says it in words):
 *  - Candidates are whole numbers of systems N from 1 to N_max, the
 *    smallest of the generation's system.max_systems, the global batch in
 *    sequences (every system needs one), and with allow_batch, where the
 *    batch grows to N sequences once N passes it, the critical batch.
 *  - Each target is a metric that must not exceed a limit: time-to-train
 *    (deadline), energy, cost (budget).  With a deadline or an energy limit
 *    the plan is the smallest N that meets every target; with a budget
 *    alone, the fastest within it, of equal times the smallest N (past
 *    the point where the weights' stream sets the step, more systems cost
 *    more and finish no sooner).
 *  - N is scanned by the planner's scan of every kind (pscan.h), every
 *    value from 1 to N_max: the metrics are step functions of N (a
 *    system's whole sequences, ceil(B / N), set the step time) with small
 *    rises inside each step (SwarmX depth) and, for energy and cost,
 *    zigzags between steps, so no bracketing solver finds the smallest
 *    meeting N reliably.  One evaluation takes well under a microsecond,
 *    so a scan of 2048 sizes costs about a millisecond.
 *  - If no N meets the targets and allow_sparsity is set: for each N the
 *    least sparsity that meets the searched limit is a root of
 *    ln(metric / limit) in the sparsity (the metric falls with the
 *    sparsity), found by GSL's Brent solver and rounded up to
 *    PLAN_SPARSITY_STEP; the least over all N is taken and N scanned again
 *    at it.
 *  - The plan keeps the cluster's servers as given: MemoryX servers as set
 *    in base, or sized for each run when 0, and activation servers per
 *    system as set in base, or the hardware's count when 0 (step.h).  A configuration infeasible at every N (state larger
 *    than the MemoryX servers given, one sequence too large for SRAM or
 *    for the activation servers given) is not searched; why names the limit
 *    with its numbers.
 *  - Every scan also records the least of each metric over its feasible N
 *    and where it falls: when a target is out of reach, the least of the
 *    searched metric is the nearest limit that would be met. */
#ifndef CP_PLAN_H
#define CP_PLAN_H

#include "../model/train.h"

/* Sparsity is planned in steps of 0.1 %: finer is not a decision anyone
 * takes, and rounding up keeps the plan on the meeting side. */
#define PLAN_SPARSITY_STEP 0.001
/* Iteration cap of the GSL root solver. */
#define PLAN_MAX_ITER 100

enum plan_metric { PLAN_TIME, PLAN_ENERGY, PLAN_COST, PLAN_NMETRICS };
extern const char *const plan_metric_name[PLAN_NMETRICS]; /* "deadline", ... */

struct plan_opts {
    double limit[PLAN_NMETRICS]; /* s, J, currency; <= 0 when not given   */
    int allow_sparsity;          /* may raise the sparsity                 */
    int allow_batch;             /* may grow the batch to N sequences      */
};

/* One solver iteration, for --verbose. */
struct plan_iter {
    const char *stage; /* "scan" (one per scan), "sparsity" (Brent) */
    int iter;
    double lo, hi, x; /* bracket and estimate, in systems or sparsity */
    double value;     /* the metric at x (rounded to whole systems)   */
};
typedef void (*plan_trace_fn)(const struct plan_iter *it, void *user);

/* Why N_max is what it is. */
enum plan_cap { PLAN_CAP_GENERATION, PLAN_CAP_BATCH, PLAN_CAP_CRITICAL };

struct plan_result {
    int reached; /* every target met by best                   */
    enum plan_metric primary;
    struct cluster best;   /* the plan, or the best achievable           */
    struct train_result r; /* best evaluated                             */
    int has_below, has_above;
    struct cluster below, above; /* N - 1 and N + 1 at the plan's sparsity */
    struct train_result rb, ra;
    double max_systems; /* N_max */
    enum plan_cap cap;  /* what sets N_max                                */
    int sparsity_raised;
    int iterations;     /* lines the trace saw: scans + sparsity_iters   */
    int scans;          /* evaluations of every N in 1..N_max            */
    int sparsity_iters; /* Brent iterations on the sparsity, traced N    */
    /* The least of each metric (s, J, currency) over the feasible N of
     * the last scan, at best's sparsity and batch rules, and the N where
     * it first falls; least_n 0 where no N is feasible (and for the cost
     * without a price). */
    double least[PLAN_NMETRICS], least_n[PLAN_NMETRICS];
    char why[512]; /* unreachable: why, with the numbers             */
};

/* A Julian year, s: times of two or more are written in years. */
#define PLAN_YEAR_S (365.25 * 86400)

/* v (SI: s, J or currency) of metric m for people, as plan's messages
 * write it: a time as unit_format() does below two years and in years
 * from there, an energy in Wh with a decimal
 * prefix up to TWh ("1.564 GWh": the unit energy is bought and budgeted
 * in, and the one the estimate uses, so a plan's target, result and
 * estimate read alike), a cost as a plain number.  Returns buf. */
const char *plan_metric_format(double v, enum plan_metric m, char *buf, size_t n);

/* The metric m of r (time_s, energy_J or cost). */
double plan_metric_of(const struct train_result *r, enum plan_metric m);

/* Plan base (its systems field is ignored) for po.  fn (may be NULL) sees
 * every scan and solver iteration.  CP_OK with res filled, reached or
 * not; CP_EINPUT when po has no target, or a budget without base->price;
 * CP_EIO (err filled) when the GSL solver fails, which needs GSL's error
 * handler off (gsl_set_error_handler_off(); else GSL aborts). */
cp_status plan_solve(const struct cluster *base, const struct plan_opts *po, plan_trace_fn fn,
                     void *user, struct plan_result *res, struct cp_error *err);

#endif
