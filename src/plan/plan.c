/* plan.c - the smallest (or fastest) cluster that meets a target (plan.h). */
#include "plan.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../model/mx.h"
#include "../model/ws_tm.h"
#include "pscan.h"

const char *const plan_metric_name[PLAN_NMETRICS] = {"deadline", "energy", "budget"};
static const char *const metric_what[PLAN_NMETRICS] = {"time-to-train", "energy", "cost"};

double plan_metric_of(const struct train_result *r, enum plan_metric m)
{
    return pscan_pick(r->time_s, r->energy_J, r->cost, m);
}

struct ctx {
    const struct cluster *base;
    const struct plan_opts *po;
    enum plan_metric m;
    double nmax, sparsity;
    plan_trace_fn fn;
    void *user;
    int iters, scans, sparsity_iters;
    double least[PLAN_NMETRICS], least_n[PLAN_NMETRICS]; /* of the last scan */
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

/* The primary metric of base at n systems and sparsity; infinite where no
 * token count reaches the dense loss at that sparsity (TW_SPARSE_LOSS). */
static double metric_at(const struct ctx *x, double n, double sparsity)
{
    struct cluster c;
    struct train_result r;
    eval_at(x, n, sparsity, &c, &r);
    return r.warnings & TW_SPARSE_LOSS ? INFINITY : plan_metric_of(&r, x->m);
}

/* The sparsity in [x->sparsity, CLUSTER_MAX_SPARSITY] where the metric
 * at n is least, by golden-section search to PLAN_SPARSITY_STEP / 4: at
 * equal quality it falls with the sparsity (less compute and fewer bytes
 * per token) and then rises (more tokens, desc/loss.h). */
static double fastest_sparsity(const struct ctx *x, double n)
{
    const double g = (sqrt(5) - 1) / 2; /* the golden ratio's inverse */
    double a = x->sparsity, b = CLUSTER_MAX_SPARSITY;
    double p = b - g * (b - a), q = a + g * (b - a);
    double fp = metric_at(x, n, p), fq = metric_at(x, n, q);
    while (b - a > PLAN_SPARSITY_STEP / 4) {
        if (fp <= fq)
            b = q, q = p, fq = fp, p = b - g * (b - a), fp = metric_at(x, n, p);
        else
            a = p, p = q, fp = fq, q = a + g * (b - a), fq = metric_at(x, n, q);
    }
    /* on the plan's grid (k / 1000 is the double nearest the decimal) */
    double steps = 1 / PLAN_SPARSITY_STEP;
    double s = fmax(x->sparsity, round((fp <= fq ? p : q) * steps) / steps);
    double f = metric_at(x, n, s);
    /* the ends, which the search only approaches */
    if (metric_at(x, n, x->sparsity) <= f)
        s = x->sparsity, f = metric_at(x, n, s);
    return metric_at(x, n, CLUSTER_MAX_SPARSITY) < f ? CLUSTER_MAX_SPARSITY : s;
}

static void trace(struct ctx *x, const char *stage, int iter, double lo, double hi, double at,
                  double value)
{
    x->iters++;
    if (strcmp(stage, "scan") == 0)
        x->scans++;
    else
        x->sparsity_iters++;
    if (x->fn)
        x->fn(&(struct plan_iter){stage, iter, lo, hi, at, value}, x->user);
}

/* The scan's evaluation of base at n systems, at the sparsity scanned
 * (eval_at, through the weight-streaming kind of the interface). */
struct scan_at {
    const struct ctx *x;
    double sparsity;
};

static cp_status scan_eval(void *user, double n, struct tm_result *r, void *detail,
                           struct cp_error *err)
{
    const struct scan_at *a = user;
    struct cluster c;
    eval_at(a->x, n, a->sparsity, &c, detail);
    ws_tm_result(detail, n, r);
    (void)err;
    return CP_OK;
}

/* Scan 1..N_max at sparsity s (pscan.h, every N, for the least of each
 * metric): *pick is the smallest N that meets every
 * target (with a budget alone, the fastest), 0 if none; *n_least the
 * feasible N where the primary metric is least (the first such; 1 when
 * none is feasible), and x->least, x->least_n those of every metric. */
static void scan(struct ctx *x, double s, double *pick, double *n_least)
{
    struct scan_at a = {x, s};
    struct train_result t;
    struct pscan_spec sp = {.eval = scan_eval,
                            .eval_user = &a,
                            .detail = &t,
                            .first = 1,
                            .step = 1,
                            .max = x->nmax,
                            .goal = x->m == PLAN_COST ? PSCAN_FASTEST : PSCAN_FEWEST,
                            .whole = 1};
    for (int m = 0; m < PLAN_NMETRICS; m++)
        sp.limit[m] = x->po->limit[m];
    struct pscan_result res;
    struct cp_error err = {0};
    pscan_run(&sp, &res, &err); /* scan_eval does not fail */
    *pick = res.found ? res.count : 0;
    for (int m = 0; m < PLAN_NMETRICS; m++)
        x->least[m] = res.least[m], x->least_n[m] = res.least_n[m];
    *n_least = x->least_n[x->m] > 0 ? x->least_n[x->m] : 1;
    double at = *pick ? *pick : *n_least;
    trace(x, "scan", 1, 1, x->nmax, at, metric_at(x, at, s));
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

/* The least sparsity in [x->sparsity, CLUSTER_MAX_SPARSITY] at which n
 * meets the primary limit, rounded up to PLAN_SPARSITY_STEP; -1 if even
 * the fastest (fastest_sparsity()) does not.  Below the fastest the
 * metric falls with the sparsity, so the root is bracketed; fn sees the
 * iterations when traced. */
static cp_status least_sparsity(struct ctx *x, double n, int traced, double *out,
                                struct cp_error *err)
{
    struct sp_ctx c = {x, n};
    gsl_function F = {excess_s, &c};
    double a = x->sparsity, b = fastest_sparsity(x, n);
    *out = -1;
    if (excess_s(b, &c) > 0)
        return CP_OK;
    double hi = a;
    if (excess_s(a, &c) > 0) {
        gsl_root_fsolver *sv = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
        if (!sv)
            return cp_fail(err, CP_ENOMEM, "plan: out of memory for the root solver");
        int st = gsl_root_fsolver_set(sv, &F, a, b);
        hi = b;
        for (int it = 1; st == GSL_SUCCESS && it <= PLAN_MAX_ITER; it++) {
            st = gsl_root_fsolver_iterate(sv);
            if (st != GSL_SUCCESS)
                break;
            double lo = gsl_root_fsolver_x_lower(sv), r = gsl_root_fsolver_root(sv);
            hi = gsl_root_fsolver_x_upper(sv);
            if (traced)
                trace(x, "sparsity", it, lo, hi, r, metric_at(x, n, r));
            if (hi - lo < PLAN_SPARSITY_STEP / 4)
                break;
        }
        gsl_root_fsolver_free(sv);
        if (st != GSL_SUCCESS)
            return cp_fail(err, CP_EIO, "plan: root solver failed on the sparsity: %s",
                           gsl_strerror(st));
    }
    /* whole steps: k / 1000 is the double nearest the decimal, k x 0.001
     * is not */
    double steps = 1 / PLAN_SPARSITY_STEP, k = ceil(hi * steps - 1e-9);
    while (k / steps > a && excess_s((k - 1) / steps, &c) <= 0)
        k--;
    while (k / steps < b && excess_s(k / steps, &c) > 0)
        k++;
    *out = fmax(a, fmin(k / steps, b));
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

const char *plan_metric_format(double v, enum plan_metric m, char *buf, size_t n)
{
    if (m == PLAN_TIME)
        return unit_format_duration(v, buf, n);
    if (m == PLAN_ENERGY)
        return unit_format_energy(v, buf, n);
    snprintf(buf, n, "%.4g", v);
    return buf;
}

static void why_unreachable(const struct ctx *x, const struct plan_result *res, double n,
                            double sparsity, char *buf, size_t len)
{
    static const char *const capname[] = {
        "the generation's maximum, system.max_systems",
        "one sequence per system of the batch; --allow-batch may grow it",
        "the critical batch, in sequences",
    };
    char a[64], b[64], d[64], hint[160];
    plan_metric_format(metric_at(x, n, sparsity), x->m, a, sizeof a);
    plan_metric_format(x->po->limit[x->m], x->m, b, sizeof b);
    /* sparsity at equal quality (desc/loss.h) helps only up to the
     * fastest sparsity, and is suggested only when that meets the limit */
    double best = fastest_sparsity(x, n), at_best = metric_at(x, n, best);
    plan_metric_format(at_best, x->m, d, sizeof d);
    if (x->po->allow_sparsity)
        snprintf(hint, sizeof hint, "; no sparsity meets it: at %g it is least at equal quality",
                 best);
    else if (at_best <= x->po->limit[x->m])
        snprintf(hint, sizeof hint, "; --allow-sparsity may reach it");
    else
        snprintf(hint, sizeof hint,
                 "; no sparsity reaches it at equal quality (the best, %g, gives %s)", best, d);
    snprintf(buf, len,
             "the least %s over 1..%g systems (%s) is %s, at %g system%s and sparsity %g; the "
             "%s is %s%s",
             metric_what[x->m], res->max_systems, capname[res->cap], a, n, n == 1 ? "" : "s",
             sparsity, plan_metric_name[x->m], b, hint);
}

/* Verdicts that no number of systems changes: the MemoryX servers given,
 * SRAM per sequence, the activation servers given per sequence. */
#define PLAN_ANY_SIZE (TW_MEMORYX | TW_SRAM | TW_ACT_STORE)

/* Append to buf (of n bytes, len used) with printf's rules; returns the new
 * length, at most n - 1. */
static size_t add(char *buf, size_t n, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t add(char *buf, size_t n, size_t len, const char *fmt, ...)
{
    if (len + 1 >= n)
        return len;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
    return k < 0 ? len : len + (size_t)k >= n ? n - 1 : len + (size_t)k;
}

/* "infeasible WHERE: memoryx_full (state ... vs ...); ..." for c evaluated
 * as r: each failing verdict with the limit and the numbers that bind. */
static void why_infeasible(const struct cluster *c, const struct train_result *r, const char *where,
                           char *buf, size_t n)
{
    const struct hw_desc *hw = c->hw;
    const struct step_result *st = &r->step;
    char a[32], b[32], d[32], w[128];
    size_t len = add(buf, n, 0, "infeasible %s: %s", where,
                     train_warn_names(r->warnings & TW_INFEASIBLE, w, sizeof w));
    if (r->warnings & TW_MEMORYX)
        len = add(buf, n, len,
                  "; the state, %s (%.4g B/param), exceeds the room of %g MemoryX server%s, %s "
                  "(%s each); %g server%s hold%s it in DRAM",
                  unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), r->bytes_per_param,
                  st->mx_servers, st->mx_servers == 1 ? "" : "s",
                  unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b),
                  unit_format(mx_capacity(&hw->mx, 1), UNIT_BYTES, d, sizeof d), st->mx_hold,
                  st->mx_hold == 1 ? "" : "s", st->mx_hold == 1 ? "s" : "");
    if (r->warnings & TW_SRAM)
        len = add(buf, n, len,
                  "; one sequence needs %s of SRAM (activations %s) vs the wafer's %s less %s "
                  "of stream buffers",
                  unit_format(st->sram_per_seq, UNIT_BYTES, a, sizeof a),
                  step_act_label(st, w, sizeof w),
                  unit_format(hw->wse.sram_bytes, UNIT_BYTES, b, sizeof b),
                  unit_format(step_buffer_bytes(hw), UNIT_BYTES, d, sizeof d));
    if (r->warnings & TW_ACT_STORE)
        add(buf, n, len,
            "; one sequence's checkpoints, %s, exceed the room of %g activation "
            "server%s per system, %s; %g server%s hold%s them",
            unit_format(st->ckpt_per_seq, UNIT_BYTES, a, sizeof a), st->act_servers,
            st->act_servers == 1 ? "" : "s",
            unit_format(st->act_servers * hw->act.server_bytes, UNIT_BYTES, b, sizeof b),
            ceil(st->ckpt_per_seq / hw->act.server_bytes),
            ceil(st->ckpt_per_seq / hw->act.server_bytes) == 1 ? "" : "s",
            ceil(st->ckpt_per_seq / hw->act.server_bytes) == 1 ? "s" : "");
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
    res->scans = x->scans;
    res->sparsity_iters = x->sparsity_iters;
    for (int m = 0; m < PLAN_NMETRICS; m++)
        res->least[m] = x->least[m], res->least_n[m] = x->least_n[m];
}

/* The least sparsity over every N (each N's own least, by Brent), the N
 * that needs it traced; *s_out -1 when no N reaches the limit. */
static cp_status least_over_n(struct ctx *x, double *s_out, struct cp_error *err)
{
    double best = -1, best_n = 0, s;
    for (double n = 1; n <= x->nmax; n++) {
        cp_status st = least_sparsity(x, n, 0, &s, err);
        if (st != CP_OK)
            return st;
        if (s >= 0 && (best < 0 || s < best))
            best = s, best_n = n;
    }
    *s_out = best;
    return best < 0 ? CP_OK : least_sparsity(x, best_n, 1, &s, err);
}

/* The primary metric, the first target given, in *m; --budget needs a
 * price. */
static cp_status primary(const struct cluster *base, const struct plan_opts *po,
                         enum plan_metric *m, struct cp_error *err)
{
    int k = 0;
    while (k < PLAN_NMETRICS && !(po->limit[k] > 0))
        k++;
    if (k == PLAN_NMETRICS)
        return cp_fail(err, CP_EINPUT, "plan: give a target: --deadline, --energy or --budget");
    const struct site_spec *site = &base->hw->site;
    const struct ws_price_spec *pr = &base->hw->price;
    int priced = base->price >= 0 || site->energy_price_kwh > 0 ||
                 (site->years_s > 0 && (pr->system > 0 || pr->memoryx > 0 || pr->act > 0 ||
                                        pr->swarmx > 0));
    if (po->limit[PLAN_COST] > 0 && !priced)
        return cp_fail(err, CP_EINPUT,
                       "--budget: nothing is priced: give --price (per system-hour) or the "
                       "[cost] keys of the hardware");

    *m = (enum plan_metric)k;
    return CP_OK;
}

/* No N meets every target at x->sparsity: the least sparsity at which some
 * N meets the primary one, and the scan there (*pick, *n_least) when there
 * is one. */
static cp_status raise_sparsity(struct ctx *x, struct plan_result *res, double *pick,
                                double *n_least, struct cp_error *err)
{
    double s;
    cp_status st = least_over_n(x, &s, err);
    if (st != CP_OK)
        return st;
    if (s >= 0) {
        /* at that sparsity some N meets the searched target; the scan
         * finds the plan's N, or none if another target fails */
        x->sparsity = s;
        res->sparsity_raised = s > x->base->sparsity;
        scan(x, s, pick, n_least);
    }
    return CP_OK;
}

/* No N meets every target: res->why says whether none is feasible, the
 * primary target is out of reach, or the targets conflict, and res holds
 * the size that shows it. */
static void no_pick(struct ctx *x, double n_least, struct plan_result *res)
{
    const struct plan_opts *po = x->po;
    if (x->least_n[x->m] == 0) {
        /* no N feasible, for a reason that does depend on N */
        finish(x, 1, x->sparsity, res);
        char at[64];
        snprintf(at, sizeof at, "at every cluster size 1..%g", x->nmax);
        why_infeasible(&res->best, &res->r, at, res->why, sizeof res->why);
        return;
    }
    if (!(metric_at(x, n_least, x->sparsity) <= po->limit[x->m])) {
        double s = po->allow_sparsity ? fastest_sparsity(x, n_least) : x->sparsity;
        double p2;
        if (po->allow_sparsity)
            scan(x, s, &p2, &n_least);
        why_unreachable(x, res, n_least, s, res->why, sizeof res->why);
        finish(x, n_least, s, res);
    } else {
        snprintf(res->why, sizeof res->why,
                 "no cluster size meets every target at once (the %s alone is met; it is "
                 "least at %g system%s)",
                 plan_metric_name[x->m], n_least, n_least == 1 ? "" : "s");
        finish(x, n_least, x->sparsity, res);
    }
}

cp_status plan_solve(const struct cluster *base, const struct plan_opts *po, plan_trace_fn fn,
                     void *user, struct plan_result *res, struct cp_error *err)
{
    memset(res, 0, sizeof *res);
    enum plan_metric m = PLAN_TIME;
    cp_status st = primary(base, po, &m, err);
    if (st != CP_OK)
        return st;
    struct ctx x = {base, po, m, 1, base->sparsity, fn, user, 0, 0, 0, {0}, {0}};
    res->primary = x.m;
    cap(base, po, res);
    x.nmax = res->max_systems;

    struct cluster c;
    struct train_result r;
    eval_at(&x, 1, x.sparsity, &c, &r);
    if (r.warnings & PLAN_ANY_SIZE) {
        finish(&x, 1, x.sparsity, res);
        why_infeasible(&c, &r, "at any cluster size", res->why, sizeof res->why);
        return CP_OK;
    }
    double pick, n_least;
    scan(&x, x.sparsity, &pick, &n_least);
    if (!pick && po->allow_sparsity) {
        st = raise_sparsity(&x, res, &pick, &n_least, err);
        if (st != CP_OK)
            return st;
    }
    if (!pick) {
        no_pick(&x, n_least, res);
        return CP_OK;
    }
    finish(&x, pick, x.sparsity, res);
    res->reached = 1;
    return CP_OK;
}
