/* pscan.c - the planner's scan over the training-model interface
 * (pscan.h). */
#include "pscan.h"

#include <math.h>
#include <string.h>

#include "../base/xalloc.h"
#include "unc.h"

double pscan_pick(double time_s, double energy_J, double cost, enum plan_metric m)
{
    return m == PLAN_TIME ? time_s : m == PLAN_ENERGY ? energy_J : cost;
}

double pscan_metric(const struct tm_result *r, enum plan_metric m)
{
    return pscan_pick(r->time_s, r->energy_J, r->cost, m);
}

int pscan_meets(const double limit[PLAN_NMETRICS], const struct tm_result *r)
{
    if (!r->feasible)
        return 0;
    for (int m = 0; m < PLAN_NMETRICS; m++) {
        double v = pscan_metric(r, (enum plan_metric)m);
        if (limit[m] > 0 && !(v <= limit[m] && (m != PLAN_COST || v >= 0)))
            return 0;
    }
    return 1;
}

/* How far r is from the limits: with a time limit alone its time, else the
 * largest ratio of a figure to its limit (a cost without a price is
 * infinitely far). */
static double distance(const double limit[PLAN_NMETRICS], const struct tm_result *r)
{
    if (!(limit[PLAN_ENERGY] > 0) && !(limit[PLAN_COST] > 0))
        return r->time_s;
    double x = limit[PLAN_TIME] > 0 ? r->time_s / limit[PLAN_TIME] : 0;
    if (limit[PLAN_ENERGY] > 0)
        x = fmax(x, r->energy_J / limit[PLAN_ENERGY]);
    if (limit[PLAN_COST] > 0)
        x = fmax(x, r->cost >= 0 ? r->cost / limit[PLAN_COST] : INFINITY);
    return x;
}

static cp_status eval_at(const struct pscan_spec *s, double n, struct tm_result *r, void *detail,
                         struct cp_error *err)
{
    if (s->eval)
        return s->eval(s->eval_user, n, r, detail, err);
    return tm_eval(s->job, n, TM_STRONG, r, detail, err);
}

/* The least of each metric of a feasible r, at n. */
static void note_least(struct pscan_result *res, double n, const struct tm_result *r)
{
    for (int m = 0; m < PLAN_NMETRICS; m++) {
        double v = pscan_metric(r, (enum plan_metric)m);
        if (v >= 0 && (res->least_n[m] == 0 || v < res->least[m]))
            res->least[m] = v, res->least_n[m] = n;
    }
}

/* What the scan keeps while it runs: the counts of the answer (with its
 * time), below and the nearest (with its distance), each evaluated again
 * at the end rather than copied at every count. */
struct state {
    double time_s, below, nearest, nearest_d;
};

/* Note r at n in res and x; returns 1 when the scan stops there. */
static int note(const struct pscan_spec *s, double n, const struct tm_result *r,
                struct pscan_result *res, struct state *x)
{
    res->runs += r->runs != 0;
    if (!r->feasible)
        return 0;
    note_least(res, n, r);
    if (pscan_meets(s->limit, r)) {
        if (s->goal == PSCAN_FASTEST) {
            if (!isfinite(r->time_s))
                return 0;
            if (!res->found || r->time_s < x->time_s)
                x->time_s = r->time_s, res->count = n;
            res->found = 1;
            return 0;
        }
        if (!res->found)
            res->count = n, res->found = 1;
        return !s->whole;
    }
    if (res->found)
        return 0;
    double d = distance(s->limit, r);
    if (x->nearest == 0 || d < x->nearest_d)
        x->nearest = n, x->nearest_d = d;
    x->below = n;
    return 0;
}

cp_status pscan_run(const struct pscan_spec *s, struct pscan_result *res, struct cp_error *err)
{
    memset(res, 0, sizeof *res);
    for (int m = 0; m < PLAN_NMETRICS; m++)
        res->least[m] = INFINITY;
    struct state x = {0, 0, 0, INFINITY};
    struct tm_result cur;
    int stopped = 0;
    for (double n = s->first; n <= s->max && !stopped; n += s->step) {
        if (s->progress)
            s->progress(s->progress_user, (size_t)n, (size_t)s->max);
        res->counts++;
        res->last = n;
        if (s->may_run && !s->may_run(s->user, n))
            continue;
        cp_status st = eval_at(s, n, &cur, s->detail, err);
        if (st != CP_OK)
            return st;
        res->evaluated++;
        if (s->seen)
            s->seen(s->user, n, &cur, s->detail);
        stopped = note(s, n, &cur, res, &x);
    }
    res->complete = !stopped;
    /* below and the nearest evaluated again, the answer (or the nearest)
     * last so that the detail is its */
    cp_status st = CP_OK;
    if (res->found && s->goal == PSCAN_FEWEST && x.below > 0) {
        res->below = x.below;
        st = eval_at(s, x.below, &res->rb, s->detail_below ? s->detail_below : s->detail, err);
    }
    if (st == CP_OK && res->found)
        st = eval_at(s, res->count, &res->r, s->detail, err);
    else if (st == CP_OK && x.nearest > 0) {
        res->count = x.nearest;
        st = eval_at(s, x.nearest, &res->r, s->detail, err);
    }
    return st;
}

/* ---- planning to a confidence level ---- */

/* The first count at or above n (a multiple of the step from first, up to
 * max) that counts (see pscan.h), or 0; *share its share. */
static cp_status counted(const struct pscan_spec *s, const struct pscan_conf *c, double n,
                         struct pscan_conf_result *res, double *at, double *share,
                         struct cp_error *err)
{
    struct tm_result *r = xmalloc(sizeof *r); /* large (its why) */
    cp_status st = CP_OK;
    *at = 0;
    n = s->first + ceil((fmax(n, s->first) - s->first) / s->step) * s->step;
    for (; n <= s->max && *at == 0 && st == CP_OK; n += s->step) {
        if (s->may_run && !s->may_run(s->user, n))
            continue;
        st = tm_eval(s->job, n, TM_STRONG, r, s->detail, err);
        if (st == CP_OK && r->feasible)
            *at = n;
    }
    free(r);
    if (st != CP_OK || *at == 0)
        return st;
    struct unc_draws d;
    st = unc_job_draws(s->job, c->src, *at, TM_STRONG, c->samples, c->seed, &d, err);
    if (st != CP_OK)
        return st;
    *share = unc_share(&d, s->limit);
    unc_draws_free(&d);
    res->drawn++;
    return CP_OK;
}

/* Whether the count standing for n meets p: *at that count (0: none). */
static cp_status meets_at(const struct pscan_spec *s, const struct pscan_conf *c, double n,
                          struct pscan_conf_result *res, double *at, double *share, int *yes,
                          struct cp_error *err)
{
    cp_status st = counted(s, c, n, res, at, share, err);
    *yes = st == CP_OK && *at > 0 && *share >= c->p;
    return st;
}

cp_status pscan_confident(const struct pscan_spec *s, const struct pscan_conf *c, double from,
                          struct pscan_conf_result *res, struct cp_error *err)
{
    memset(res, 0, sizeof *res);
    double at, share, lo, hi;
    int yes;
    cp_status st = meets_at(s, c, from, res, &at, &share, &yes, err);
    if (st != CP_OK)
        return st;
    res->from_share = at == from ? share : -1;
    res->count = at, res->share = share;
    /* lo: a value whose count misses p (or below first); hi: one whose
     * count meets it */
    if (yes) {
        hi = from, lo = from;
        for (double gap = s->step; lo >= s->first && st == CP_OK; gap *= 2) {
            lo = hi - gap;
            if (lo < s->first)
                break;
            double a, sh;
            st = meets_at(s, c, lo, res, &a, &sh, &yes, err);
            if (!yes)
                break;
            hi = lo, res->count = a, res->share = sh;
        }
        if (lo < s->first)
            lo = s->first - s->step;
    } else {
        lo = from, hi = from;
        for (double gap = s->step; st == CP_OK; gap *= 2) {
            hi = fmin(lo + gap, s->max);
            double a, sh;
            st = meets_at(s, c, hi, res, &a, &sh, &yes, err);
            if (a > 0)
                res->count = a, res->share = sh;
            if (yes || a == 0 || hi >= s->max)
                break;
            lo = hi;
        }
        if (!yes)
            return st; /* not found: the largest count drawn */
    }
    /* bisect (lo, hi] to one step: the smallest value whose count meets p */
    while (st == CP_OK && hi - lo > s->step) {
        double mid = lo + floor((hi - lo) / s->step / 2) * s->step, a, sh;
        st = meets_at(s, c, mid, res, &a, &sh, &yes, err);
        if (yes)
            hi = mid, res->count = a, res->share = sh;
        else
            lo = mid;
    }
    res->found = st == CP_OK;
    return st;
}
