/* pscan.h - the planner's scan, written once for every kind of cluster:
 * a job evaluated through the training-model interface (tm.h) at the
 * counts first, first + step, ... up to max, against limits on the
 * time-to-train, the energy and the cost, and what the planners pick from
 * it (cerebras-plan(1), PLAN, says it in words):
 *  - the answer: with PSCAN_FEWEST the first count that meets every limit;
 *    with PSCAN_FASTEST (a budget alone, or the fastest cluster within a
 *    power) the fastest that meets them, the first of equal times;
 *  - below: the last feasible count before the answer (PSCAN_FEWEST,
 *    when an answer was found);
 *  - nearest, when no count meets the limits: the least of the largest
 *    ratio of a figure to its limit (with one limit, the least figure),
 *    the first of equals;
 *  - the least of each figure over the feasible counts, and its count.
 * A count meets the limits when it is feasible (tm.h: it runs and every
 * fatal verdict holds), each figure limited is finite and at most its
 * limit, and a limited cost is not negative (a cost below 0 means no
 * price was given).
 *
 * Why a scan and not a root finder: the figures are not monotone in the
 * count.  A weight-streaming cluster's step time is a step function of N
 * (its whole sequences per system) with small rises inside each step; a
 * GPU count's layouts depend on its divisors, and many counts run none.
 *
 * How far: PSCAN_FASTEST scans every count; PSCAN_FEWEST stops at its
 * answer, unless the caller asks for the whole range (whole): then the
 * least of each figure is over every count, as the weight-streaming
 * planner's "nearest" limit and its "every N evaluated" need (a range of
 * at most a generation's max_systems).  A GPU range, up to 10^6 GPUs in
 * steps of a node, stops at the answer.  A PSCAN_FASTEST answer needs a
 * finite time.
 *
 * Pure arithmetic over the interface; no I/O. */
#ifndef CP_PSCAN_H
#define CP_PSCAN_H

#include "../tm/tm.h"
#include "plan.h"

enum pscan_goal { PSCAN_FEWEST, PSCAN_FASTEST };

/* Evaluate the scanned job at count into r and detail (the kind's,
 * detail_size bytes).  CP_OK when r is filled (a run or a refusal). */
typedef cp_status (*pscan_eval_fn)(void *user, double count, struct tm_result *r, void *detail,
                                   struct cp_error *err);

struct pscan_spec {
    /* The job, evaluated at each count by tm_eval (strong scaling), or by
     * eval (with eval_user) when it is set: a planner that changes more
     * than the count (weight streaming's sparsity, a batch grown with the
     * count) passes its own. */
    const struct tm_job *job;
    pscan_eval_fn eval;
    void *eval_user;
    void *detail; /* job->kind->detail_size bytes, the caller's: at the
                     end the answer's (or the nearest's)             */
    void *detail_below; /* optional: the same for below               */
    double first, step, max;
    double limit[PLAN_NMETRICS]; /* s, J, currency; <= 0: none     */
    enum pscan_goal goal;
    int whole; /* PSCAN_FEWEST: scan on past the answer, to max        */
    /* Optional: whether count can run at all (a cheap test, as the GPU
     * layouts' divisors give); a count it refuses is counted as scanned
     * and not evaluated. */
    int (*may_run)(void *user, double count);
    /* Optional: sees every count evaluated, with its result and detail
     * (a kind's own tally: the layouts a GPU search evaluated). */
    void (*seen)(void *user, double count, const struct tm_result *r, const void *detail);
    void *user; /* of may_run and seen                                */
    /* Optional: the scan's progress, count n of max. */
    void (*progress)(void *user, size_t n, size_t max);
    void *progress_user;
};

struct pscan_result {
    double counts;    /* counts scanned (evaluated or passed over)      */
    double evaluated; /* of them, evaluated                            */
    double runs;      /* of them, a configuration of the job runs       */
    double last;      /* the last count scanned; 0 when none            */
    int complete;     /* every count from first to max was scanned      */
    int found;        /* a count meets every limit                      */
    double count;     /* the answer (found), else the nearest; 0: none  */
    struct tm_result r;        /* at count                              */
    double below;              /* PSCAN_FEWEST, found: the last count
                                  before it that runs; 0 when none      */
    struct tm_result rb;       /* at below                              */
    double least[PLAN_NMETRICS], least_n[PLAN_NMETRICS]; /* over the
                                  feasible counts scanned; least_n 0
                                  where none (the cost: none priced)    */
};

/* Of a time, an energy and a cost, the one metric m is. */
double pscan_pick(double time_s, double energy_J, double cost, enum plan_metric m);

/* The metric m of r (time_s, energy_J or cost). */
double pscan_metric(const struct tm_result *r, enum plan_metric m);

/* Whether r meets every limit of limit[] (see above). */
int pscan_meets(const double limit[PLAN_NMETRICS], const struct tm_result *r);

/* Scan s into res.  CP_OK, an answer found or not; an eval's error
 * otherwise (err filled). */
cp_status pscan_run(const struct pscan_spec *s, struct pscan_result *res, struct cp_error *err);

/* Planning to a confidence level, written once for every kind: the
 * smallest count whose draws (src/plan/unc.h: the job's +- ranges and its
 * model's own error, samples draws seeded with seed, the same draws at
 * every count) meet every limit of s->limit in a share of at least p.
 *
 * The share is taken to grow with the count (more units, a shorter time),
 * so the counts are searched by galloping then bisection from `from` (the
 * point estimate's answer): upward at steps of s->step, 2 s->step, 4
 * s->step, ... while the share is below p (downward the same way while it
 * is at least p), then bisected to one step.  A count counts when s's
 * may_run takes it and the job, evaluated there by tm_eval (strong
 * scaling; s->eval is not used), is feasible; any other count stands for
 * the next one up that is.  A few dozen counts are drawn at most, where a
 * scan would draw every one.  Only s->job, first, step, max, limit,
 * may_run, user and detail are read. */
struct pscan_conf {
    const struct desc_src *src; /* the ranges of s->job's description */
    size_t samples;
    unsigned long seed;
    double p; /* 0 < p < 1 */
};

struct pscan_conf_result {
    int found;         /* a count's share is at least p                   */
    double count;      /* the answer (found), else the largest drawn; 0
                          when no count counts                            */
    double share;      /* its share of draws meeting the limits           */
    double from_share; /* the share at from (-1 when from does not count) */
    double drawn;      /* counts whose draws were evaluated               */
};

cp_status pscan_confident(const struct pscan_spec *s, const struct pscan_conf *c, double from,
                          struct pscan_conf_result *res, struct cp_error *err);

#endif
