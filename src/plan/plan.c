/* plan.c - the smallest (or largest) cluster that meets a target (plan.h). */
#include "plan.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const plan_metric_name[PLAN_NMETRICS] = {"deadline", "energy", "budget"};
static const unit_dim metric_dim[PLAN_NMETRICS] = {UNIT_TIME, UNIT_ENERGY, UNIT_COUNT};
static const char *const metric_what[PLAN_NMETRICS] = {"time-to-train", "energy", "cost"};

double plan_metric_of(const struct train_result *r, enum plan_metric m)
{
    switch (m) {
    case PLAN_TIME:
        return r->time_s;
    case PLAN_ENERGY:
        return r->energy_J;
    case PLAN_COST:
    case PLAN_NMETRICS:
        break;
    }
    return r->cost;
}

int plan_meets(const struct plan_opts *po, const struct train_result *r)
{
    if (!r->feasible)
        return 0;
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (po->limit[m] > 0 && !(plan_metric_of(r, (enum plan_metric)m) <= po->limit[m]))
            return 0;
    return 1;
}

struct ctx {
    const struct cluster *base;
    const struct plan_opts *po;
    enum plan_metric m;
    double nmax, sparsity;
    plan_trace_fn fn;
    void *user;
    int iters;
};

/* base at n systems and the given sparsity; with allow_batch the batch
 * grows to one sequence per system and its extra tokens are charged. */
static void eval_at(const struct ctx *x, double n, double sparsity, struct cluster *c,
                    struct train_result *r)
{
    *c = *x->base;
    c->systems = n;
    c->sparsity = sparsity;
    if (x->po->allow_batch) {
        c->global_seqs = fmax(x->base->global_seqs, n);
        c->batch_penalty = 1;
    }
    train_eval(c, r);
}

static double metric_at(const struct ctx *x, double n, double sparsity)
{
    struct cluster c;
    struct train_result r;
    eval_at(x, n, sparsity, &c, &r);
    return plan_metric_of(&r, x->m);
}

static int primary_ok(const struct ctx *x, double n, double sparsity)
{
    return metric_at(x, n, sparsity) <= x->po->limit[x->m];
}

/* ln N to whole systems, rounded up, within 1..N_max. */
static double whole(const struct ctx *x, double u)
{
    double n = ceil(exp(u) * (1 - 1e-12));
    return fmin(fmax(n, 1), x->nmax);
}

static double ln_metric_u(double u, void *p)
{
    const struct ctx *x = p;
    return log(metric_at(x, whole(x, u), x->sparsity));
}

static double excess_u(double u, void *p)
{
    const struct ctx *x = p;
    return log(metric_at(x, whole(x, u), x->sparsity) / x->po->limit[x->m]);
}

static void trace(struct ctx *x, const char *stage, int iter, double lo, double hi, double at,
                  double value)
{
    x->iters++;
    if (x->fn)
        x->fn(&(struct plan_iter){stage, iter, lo, hi, at, value}, x->user);
}

/* N at which the metric is smallest (at x->sparsity). */
static cp_status minimum_n(struct ctx *x, double *n_out, struct cp_error *err)
{
    double umax = log(x->nmax), best_u = 0, best = INFINITY;
    int best_i = 0;
    double fu[PLAN_GRID];
    for (int i = 0; i < PLAN_GRID; i++) {
        double u = umax * i / (PLAN_GRID - 1);
        fu[i] = ln_metric_u(u, x);
        if (fu[i] < best)
            best = fu[i], best_u = u, best_i = i;
    }
    *n_out = whole(x, best_u);
    if (best_i == 0 || best_i == PLAN_GRID - 1 || x->nmax < 3)
        return CP_OK; /* at an end of the range: nothing to refine */
    double a = umax * (best_i - 1) / (PLAN_GRID - 1), b = umax * (best_i + 1) / (PLAN_GRID - 1);
    if (!(fu[best_i] < fu[best_i - 1] && fu[best_i] < fu[best_i + 1]))
        return CP_OK; /* a flat step: the grid point is as good */
    gsl_function F = {ln_metric_u, x};
    gsl_min_fminimizer *s = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!s)
        return cp_fail(err, CP_ENOMEM, "plan: out of memory for the minimiser");
    int st = gsl_min_fminimizer_set(s, &F, best_u, a, b);
    for (int it = 1; st == GSL_SUCCESS && it <= PLAN_MAX_ITER; it++) {
        st = gsl_min_fminimizer_iterate(s);
        if (st != GSL_SUCCESS)
            break;
        double lo = gsl_min_fminimizer_x_lower(s), hi = gsl_min_fminimizer_x_upper(s);
        double m = gsl_min_fminimizer_x_minimum(s);
        trace(x, "minimum", it, whole(x, lo), whole(x, hi), whole(x, m), exp(ln_metric_u(m, x)));
        if (whole(x, hi) - whole(x, lo) <= 1)
            break;
    }
    if (st == GSL_SUCCESS) {
        double m = gsl_min_fminimizer_x_minimum(s);
        if (ln_metric_u(m, x) < best)
            *n_out = whole(x, m);
    }
    gsl_min_fminimizer_free(s);
    /* the step function may hide a lower neighbour from Brent */
    for (double n = *n_out - 1; n >= 1 && n >= *n_out - 2; n--)
        if (metric_at(x, n, x->sparsity) < metric_at(x, *n_out, x->sparsity))
            *n_out = n;
    if (st != GSL_SUCCESS && st != GSL_EINVAL)
        return cp_fail(err, CP_EIO, "plan: minimiser failed: %s", gsl_strerror(st));
    return CP_OK;
}

/* Brent root of f in [a, b] (f(a), f(b) of opposite signs) until the
 * bracket spans at most one whole step as judged by done(); *lo, *hi get
 * the final bracket. */
static cp_status brent(struct ctx *x, const char *stage, gsl_function *F, double a, double b,
                       int (*done)(const struct ctx *, double, double), double *lo, double *hi,
                       double (*show)(const struct ctx *, double), struct cp_error *err)
{
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return cp_fail(err, CP_ENOMEM, "plan: out of memory for the root solver");
    int st = gsl_root_fsolver_set(s, F, a, b);
    *lo = a, *hi = b;
    for (int it = 1; st == GSL_SUCCESS && it <= PLAN_MAX_ITER; it++) {
        st = gsl_root_fsolver_iterate(s);
        if (st != GSL_SUCCESS)
            break;
        *lo = gsl_root_fsolver_x_lower(s), *hi = gsl_root_fsolver_x_upper(s);
        double r = gsl_root_fsolver_root(s);
        trace(x, stage, it, show(x, *lo), show(x, *hi), show(x, r),
              exp(GSL_FN_EVAL(F, r)) * x->po->limit[x->m]);
        if (done(x, *lo, *hi))
            break;
    }
    gsl_root_fsolver_free(s);
    if (st != GSL_SUCCESS)
        return cp_fail(err, CP_EIO, "plan: root solver failed in %s: %s", stage, gsl_strerror(st));
    return CP_OK;
}

static int systems_done(const struct ctx *x, double lo, double hi)
{
    return whole(x, hi) - whole(x, lo) <= 1;
}

static double systems_show(const struct ctx *x, double u)
{
    return whole(x, u);
}

static int sparsity_done(const struct ctx *x, double lo, double hi)
{
    (void)x;
    return hi - lo < PLAN_SPARSITY_STEP / 4;
}

static double sparsity_show(const struct ctx *x, double s)
{
    (void)x;
    return s;
}

/* The N the primary limit picks at x->sparsity, given the metric's
 * minimum at n_min (where the limit is met). */
static cp_status pick_n(struct ctx *x, double n_min, double *n_out, struct cp_error *err)
{
    gsl_function F = {excess_u, x};
    double s = x->sparsity, lo, hi, n;
    if (x->m != PLAN_COST) { /* smallest N: the falling side, 1..n_min */
        if (primary_ok(x, 1, s) || n_min == 1)
            return *n_out = 1, CP_OK;
        cp_status st =
            brent(x, "systems", &F, 0, log(n_min), systems_done, &lo, &hi, systems_show, err);
        if (st != CP_OK)
            return st;
        n = whole(x, hi);
        while (n > 1 && primary_ok(x, n - 1, s))
            n--;
        while (n < n_min && !primary_ok(x, n, s))
            n++;
    } else { /* largest N: the rising side, n_min..N_max */
        if (primary_ok(x, x->nmax, s) || n_min == x->nmax)
            return *n_out = x->nmax, CP_OK;
        cp_status st = brent(x, "systems", &F, log(n_min), log(x->nmax), systems_done, &lo, &hi,
                             systems_show, err);
        if (st != CP_OK)
            return st;
        n = whole(x, lo);
        while (n < x->nmax && primary_ok(x, n + 1, s))
            n++;
        while (n > n_min && !primary_ok(x, n, s))
            n--;
    }
    *n_out = n;
    return CP_OK;
}

struct sp_ctx {
    struct ctx *x;
    double n;
};

static double excess_s(double sparsity, void *p)
{
    const struct sp_ctx *c = p;
    return log(metric_at(c->x, c->n, sparsity) / c->x->po->limit[c->x->m]);
}

/* Least sparsity (in PLAN_SPARSITY_STEP) above x->sparsity at which n
 * meets the primary limit, or -1 if even CLUSTER_MAX_SPARSITY does not. */
static cp_status least_sparsity(struct ctx *x, double n, double *out, struct cp_error *err)
{
    struct sp_ctx c = {x, n};
    gsl_function F = {excess_s, &c};
    double a = x->sparsity, b = CLUSTER_MAX_SPARSITY, lo, hi;
    if (excess_s(b, &c) > 0)
        return *out = -1, CP_OK;
    cp_status st = brent(x, "sparsity", &F, a, b, sparsity_done, &lo, &hi, sparsity_show, err);
    if (st != CP_OK)
        return st;
    double s = fmin(ceil(hi / PLAN_SPARSITY_STEP - 1e-9) * PLAN_SPARSITY_STEP, b);
    while (s > a && excess_s(s - PLAN_SPARSITY_STEP, &c) <= 0)
        s -= PLAN_SPARSITY_STEP;
    while (s < b && excess_s(s, &c) > 0)
        s = fmin(s + PLAN_SPARSITY_STEP, b);
    *out = s;
    return CP_OK;
}

/* N_max and what sets it. */
static void cap(const struct cluster *base, const struct plan_opts *po, struct plan_result *res)
{
    const struct hw_desc *hw = base->hw;
    res->max_systems = hw->wse.max_systems;
    res->cap = PLAN_CAP_GENERATION;
    if (!po->allow_batch) {
        if (base->global_seqs < res->max_systems)
            res->max_systems = base->global_seqs, res->cap = PLAN_CAP_BATCH;
        return;
    }
    struct train_result r;
    train_eval(base, &r);
    double crit_seqs = fmax(base->global_seqs, floor(r.critical_tokens / base->wl->seq_len));
    if (crit_seqs < res->max_systems)
        res->max_systems = crit_seqs, res->cap = PLAN_CAP_CRITICAL;
}

static void fmt(double v, enum plan_metric m, char *buf, size_t n)
{
    if (m == PLAN_COST)
        snprintf(buf, n, "%.4g", v);
    else
        unit_format(v, metric_dim[m], buf, n);
}

static void why_unreachable(const struct ctx *x, const struct plan_result *res, double n,
                            double sparsity, char *buf, size_t len)
{
    static const char *const capname[] = {
        "the generation's maximum, system.max_systems",
        "one sequence per system of the batch; --allow-batch may grow it",
        "the critical batch, in sequences",
    };
    char a[64], b[64];
    fmt(metric_at(x, n, sparsity), x->m, a, sizeof a);
    fmt(x->po->limit[x->m], x->m, b, sizeof b);
    snprintf(buf, len,
             "the least %s over 1..%g systems (%s) is %s, at %g system%s and sparsity %g; the "
             "%s is %s%s",
             metric_what[x->m], res->max_systems, capname[res->cap], a, n, n == 1 ? "" : "s",
             sparsity,
             plan_metric_name[x->m], b,
             x->po->allow_sparsity ? " (even at the largest sparsity allowed)"
                                   : "; --allow-sparsity may reach it");
}

static void finish(struct ctx *x, double n, double sparsity, struct plan_result *res)
{
    eval_at(x, n, sparsity, &res->best, &res->r);
    res->has_below = n > 1;
    if (res->has_below)
        eval_at(x, n - 1, sparsity, &res->below, &res->rb);
    res->has_above = n < res->max_systems;
    if (res->has_above)
        eval_at(x, n + 1, sparsity, &res->above, &res->ra);
    res->iterations = x->iters;
}

cp_status plan_solve(const struct cluster *base, const struct plan_opts *po, plan_trace_fn fn,
                     void *user, struct plan_result *res, struct cp_error *err)
{
    memset(res, 0, sizeof *res);
    int m = 0;
    while (m < PLAN_NMETRICS && !(po->limit[m] > 0))
        m++;
    if (m == PLAN_NMETRICS)
        return cp_fail(err, CP_EINPUT, "plan: give a target: --deadline, --energy or --budget");
    if (po->limit[PLAN_COST] > 0 && !(base->price >= 0))
        return cp_fail(err, CP_EINPUT, "--budget: needs --price (per system-hour)");
    struct ctx x = {base, po, (enum plan_metric)m, 1, base->sparsity, fn, user, 0};
    res->primary = x.m;
    cap(base, po, res);
    x.nmax = res->max_systems;

    struct cluster c;
    struct train_result r;
    eval_at(&x, 1, x.sparsity, &c, &r);
    if (r.warnings & (TW_MEMORYX | TW_SRAM)) {
        char w[128];
        finish(&x, 1, x.sparsity, res);
        snprintf(res->why, sizeof res->why, "infeasible at any cluster size: %s",
                 train_warn_names(r.warnings & (TW_MEMORYX | TW_SRAM), w, sizeof w));
        return CP_OK;
    }
    double n_min, n;
    cp_status st = minimum_n(&x, &n_min, err);
    if (st != CP_OK)
        return st;
    if (!primary_ok(&x, n_min, x.sparsity)) {
        double s = -1;
        if (po->allow_sparsity && (st = least_sparsity(&x, n_min, &s, err)) != CP_OK)
            return st;
        if (s < 0) {
            double best_s = po->allow_sparsity ? CLUSTER_MAX_SPARSITY : x.sparsity;
            why_unreachable(&x, res, n_min, best_s, res->why, sizeof res->why);
            finish(&x, n_min, best_s, res);
            return CP_OK;
        }
        res->sparsity_raised = 1;
        x.sparsity = s;
        if ((st = minimum_n(&x, &n_min, err)) != CP_OK)
            return st;
    }
    if ((st = pick_n(&x, n_min, &n, err)) != CP_OK)
        return st;
    /* the other targets: move away from the primary's edge until all hold */
    double n0 = n, step = x.m == PLAN_COST ? -1 : 1, end = x.m == PLAN_COST ? 1 : x.nmax;
    for (;; n += step) {
        eval_at(&x, n, x.sparsity, &c, &r);
        if (plan_meets(po, &r) || n == end)
            break;
    }
    finish(&x, n, x.sparsity, res);
    res->reached = plan_meets(po, &res->r);
    if (!res->reached)
        snprintf(res->why, sizeof res->why,
                 "no cluster size meets every target at once (the %s alone needs %g systems)",
                 plan_metric_name[x.m], n0);
    return CP_OK;
}
