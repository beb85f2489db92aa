/* cmp.c - a training job on a weight-streaming cluster and on a GPU
 * cluster (cmp.h): the planner or one evaluation for the first, scans of
 * GPU counts through the layout search for the second. */
#include "cmp.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../gpu/gpu_tm.h"
#include "../model/ws_tm.h"
#include "pscan.h"

double cmp_count_step(const struct gpuhw_desc *g)
{
    double s = 1, n = g->net.gpus_per_node;
    while (2 * s <= n && fmod(n, 2 * s) == 0)
        s *= 2;
    return s;
}

/* The job as the GPU model runs it: the workload at the cluster's batch. */
static struct wl_desc gpu_job(const struct cluster *c)
{
    struct wl_desc w = *c->wl;
    w.batch = c->global_seqs;
    return w;
}

/* Whole steps the job takes: the same on both sides (train.h). */
static double job_steps(const struct cluster *c)
{
    struct train_result r;
    train_eval(c, &r);
    return r.steps;
}

cp_status cmp_check(const struct cmp_spec *s, struct cp_error *err)
{
    if (s->mode == CMP_DEADLINE && !(s->deadline_s > 0 && isfinite(s->deadline_s)))
        return cp_fail(err, CP_EINPUT, "deadline = %g s: must be a time greater than zero",
                       s->deadline_s);
    if (s->mode != CMP_DEADLINE && s->mode != CMP_SYSTEMS)
        return cp_fail(err, CP_EINPUT, "mode = %d is neither a deadline nor a count of systems",
                       (int)s->mode);
    if (isnan(s->gpu_price) || isinf(s->gpu_price))
        return cp_fail(err, CP_EINPUT, "gpu price = %g: not a number", s->gpu_price);
    struct wl_desc w = gpu_job(s->ws);
    if (gpu_search_fixed_check(s->gpu, &w, &s->layout, err) != CP_OK)
        return CP_EINPUT;
    /* the finiteness gate (gpu.h) over the counts a scan reaches, for the
     * job's whole steps at the GPU price */
    double tokens = job_steps(s->ws) * w.batch * w.seq_len;
    return gpu_range_check(s->gpu, &w, cmp_count_step(s->gpu), CMP_GPU_MAX, tokens, s->gpu_price,
                           err);
}

/* The GPU kind's job (gpu_tm.h) for w at its batch under s's layout
 * spec, one layout kept, steps whole steps at s's price. */
static struct gpu_tm_job tm_job_of(const struct cmp_spec *s, const struct wl_desc *w,
                                   double steps)
{
    /* no penalty here: the steps carry the weight-streaming side's charge */
    struct gpu_tm_job j = {s->gpu, w, s->layout, steps * w->batch * w->seq_len, s->gpu_price, 0, 0};
    j.spec.batch = w->batch;
    j.spec.keep = 1;
    return j;
}

/* The job of w under s's layout spec, its divisors listed once for
 * every count (gpu_search_job_init), as the GPU kind lists them. */
static cp_status job_init(const struct cmp_spec *s, const struct wl_desc *w,
                          struct gpu_search_job *j, struct cp_error *err)
{
    struct gpu_tm_job t = tm_job_of(s, w, 1);
    return gpu_search_job_init(s->gpu, w, &t.spec, j, err);
}

/* A side's figures from its kind's result r (it runs), in nodes. */
static void side_of(const struct tm_result *r, double nodes, struct cmp_side *x)
{
    x->units = r->count;
    x->nodes = nodes;
    x->step_s = r->step_s;
    x->steps = r->steps;
    x->time_s = r->time_s;
    x->tokens_per_s = r->tokens_per_s;
    x->mfu = r->mfu;
    x->power_W = r->power_W;
    x->energy_J = r->energy_J;
    x->cost = r->cost;
    x->goodput = r->gp.goodput;
}

/* g from the GPU kind's result r (it runs) and its detail. */
static void gpu_from(const struct tm_result *r, const struct gpu_tm_detail *d, struct cmp_gpu *g)
{
    g->layout = d->sr.hit[0].layout;
    g->res = d->sr.hit[0].result;
    side_of(r, d->run.nodes, &g->s);
}

/* A zeroed GPU detail (no divisors listed yet, gpu_tm.h), to free. */
static struct gpu_tm_detail *detail_new(size_t n)
{
    struct gpu_tm_detail *d = xmalloc(n * sizeof *d);
    memset(d, 0, n * sizeof *d);
    return d;
}

cp_status cmp_gpu_at(const struct cmp_spec *s, double gpus, struct cmp_gpu *g, struct cp_error *err)
{
    if (cmp_check(s, err) != CP_OK)
        return CP_EINPUT;
    struct wl_desc w = gpu_job(s->ws);
    struct gpu_tm_job j = tm_job_of(s, &w, job_steps(s->ws));
    const struct tm_job t = {&tm_gpu, &j, gpus};
    struct gpu_tm_detail *d = detail_new(1);
    struct tm_result *r = xmalloc(sizeof *r); /* large (its why) */
    cp_status st = tm_eval(&t, gpus, TM_STRONG, r, d, err);
    if (st == CP_OK && !r->runs)
        st = cp_fail(err, CP_EINPUT, "%s", r->why);
    if (st == CP_OK)
        gpu_from(r, d, g);
    free(r);
    free(d);
    return st;
}

static void scan_init(struct cmp_scan *st, double step, double max)
{
    memset(st, 0, sizeof *st);
    st->step = step;
    st->max = max;
    st->least_mem = INFINITY;
}

/* Why no count of st ran, into buf. */
static void scan_why(const struct cmp_scan *st, char *buf, size_t n)
{
    if (st->counts == 0)
        snprintf(buf, n, "no count of GPUs to search (%.0f GPUs, in steps of %.0f)", st->max,
                 st->step);
    else if (st->least_mem < INFINITY)
        snprintf(buf, n,
                 "no count of %.0f to %.0f GPUs (in steps of %.0f) runs the job; the "
                 "nearest: %s",
                 st->step, st->last, st->step, st->refusal);
    else
        snprintf(buf, n, "no layout of %.0f to %.0f GPUs (in steps of %.0f) divides the job",
                 st->step, st->last, st->step);
}

/* A scan of the counts step, 2 step, ... max of one job: its divisors
 * listed once, and the counts some layout divides marked
 * (gpu_search_counts) up to `marked`, doubled as the scan goes, so a scan
 * that stops early pays for the counts it reached; the others are passed
 * over without a search. */
struct scan_job {
    struct gpu_search_job j;
    double step, max;
    unsigned char *can; /* marked + 1 bytes */
    double marked;
    int any; /* a count of the scan marked */
};

/* The scan's job into sj; CP_EINPUT into why (n bytes) when the job is
 * refused or when its figures cannot make a multiple of step (said at
 * once, naming their powers of two).  sj->can is freed by scan_job_free
 * in either case. */
static cp_status scan_job_init(const struct cmp_spec *s, const struct wl_desc *w, double step,
                               double max, struct scan_job *sj, char *why, size_t n)
{
    struct cp_error err = {0};
    sj->can = NULL;
    sj->marked = 0;
    sj->any = 0;
    sj->step = step;
    sj->max = max;
    if (job_init(s, w, &sj->j, &err) != CP_OK) {
        snprintf(why, n, "%.1000s", err.msg);
        return CP_EINPUT;
    }
    if (max >= step && !gpu_search_step_possible(&sj->j, step, max, why, n))
        return CP_EINPUT;
    return CP_OK;
}

/* Whether some tp pp cp dp of the scan's job divides count k (<= max). */
static int scan_can(struct scan_job *sj, double k)
{
    if (k > sj->marked) {
        sj->marked = fmin(sj->max, fmax(k, fmax(4096, 4 * sj->marked)));
        free(sj->can);
        sj->can = xmalloc((size_t)sj->marked + 1);
        gpu_search_counts(&sj->j, sj->marked, sj->step, sj->can, NULL, 0);
    }
    int can = sj->can[(size_t)k];
    sj->any |= can;
    return can;
}

/* When the scan ended without a count to search, why (n bytes) says so
 * naming the figures; returns whether it did. */
static int scan_none(struct scan_job *sj, char *why, size_t n)
{
    if (sj->any || !(sj->max >= sj->step))
        return 0;
    free(sj->can);
    sj->can = xmalloc((size_t)sj->max + 1);
    gpu_search_counts(&sj->j, sj->max, sj->step, sj->can, why, n);
    return 1;
}

static void scan_job_free(struct scan_job *sj)
{
    free(sj->can);
    sj->can = NULL;
}

/* The bound of s's scans: its max_gpus, or CMP_GPU_MAX. */
static double scan_max(const struct cmp_spec *s)
{
    return s->max_gpus > 0 ? fmin(s->max_gpus, CMP_GPU_MAX) : CMP_GPU_MAX;
}

/* A scan's tally beside pscan's: the counts some layout divides (sj,
 * passed over without a search when none does) and the searches' figures
 * (st). */
struct tally {
    struct scan_job *sj;
    struct cmp_scan *st;
};

static int tally_may_run(void *user, double n)
{
    struct tally *t = user;
    return scan_can(t->sj, n);
}

static void tally_seen(void *user, double n, const struct tm_result *r, const void *detail)
{
    const struct tally *t = user;
    const struct gpu_tm_detail *d = detail;
    struct cmp_scan *st = t->st;
    (void)n;
    st->layouts += d->sr.evaluated;
    st->capacity = d->sr.capacity;
    if (!r->runs && d->sr.divided > 0 && d->sr.least_mem < st->least_mem) {
        st->least_mem = d->sr.least_mem;
        snprintf(st->refusal, sizeof st->refusal, "%.511s", r->why);
    }
}

/* One scan of GPU counts: w at its batch under s's layout spec, for steps
 * whole steps at s's price, at the counts step..max, against limit[] for
 * goal (pscan.h), tallied in st.  *res and d (and db, below's detail) are
 * pscan's; 0 when the scan could not start or no count ran, why (n bytes)
 * then saying why when it can name the job's figures. */
struct gpu_scan {
    const struct cmp_spec *s;
    const struct wl_desc *w;
    double steps, max;
    const double *limit;
    enum pscan_goal goal;
};

static int gpu_scan(const struct gpu_scan *g, struct cmp_scan *st, struct pscan_result *res,
                    struct gpu_tm_detail *d, struct gpu_tm_detail *db, char *why, size_t n)
{
    const struct cmp_spec *s = g->s;
    double step = cmp_count_step(s->gpu);
    struct scan_job sj;
    scan_init(st, step, g->max);
    if (scan_job_init(s, g->w, step, g->max, &sj, why, n) != CP_OK) {
        scan_job_free(&sj);
        return 0;
    }
    struct gpu_tm_job job = tm_job_of(s, g->w, g->steps);
    const struct tm_job tj = {&tm_gpu, &job, step};
    struct tally t = {&sj, st};
    struct pscan_spec sp = {.job = &tj,
                            .detail = d,
                            .detail_below = db,
                            .first = step,
                            .step = step,
                            .max = g->max,
                            .goal = g->goal,
                            .may_run = tally_may_run,
                            .seen = tally_seen,
                            .user = &t,
                            .progress = s->progress,
                            .progress_user = s->progress_user};
    memcpy(sp.limit, g->limit, sizeof sp.limit);
    struct cp_error err = {0};
    pscan_run(&sp, res, &err); /* the GPU kind's eval does not fail */
    st->counts = res->counts;
    st->last = res->last;
    st->runs = res->runs;
    int ran = res->count > 0;
    if (!ran)
        scan_none(&sj, why, n);
    scan_job_free(&sj);
    return ran;
}

/* The fewest GPUs, in steps of the count step up to the scan's bound,
 * that meet the limits (pscan.h's PSCAN_FEWEST: the first count that meets
 * them in r->g, gpu_ok, the last smaller count that runs in r->below);
 * with a budget alone the fastest count that meets it (PSCAN_FASTEST).
 * When none meets them, the nearest in r->g. */
void cmp_gpu_fewest(const struct cmp_spec *s, const struct wl_desc *w, double steps,
                    struct cmp_result *r)
{
    int budget_alone = s->budget > 0 && !(s->energy_J > 0) && !(r->target_s > 0);
    double step = cmp_count_step(s->gpu);
    const double limit[PLAN_NMETRICS] = {r->target_s, s->energy_J, s->budget};
    const struct gpu_scan g = {s,     w, steps, floor(scan_max(s) / step) * step,
                               limit, budget_alone ? PSCAN_FASTEST : PSCAN_FEWEST};
    struct gpu_tm_detail *d = detail_new(2);
    struct pscan_result *res = xmalloc(sizeof *res);
    r->gpu_ran = gpu_scan(&g, &r->scan, res, d, d + 1, r->gpu_why, sizeof r->gpu_why);
    if (r->gpu_ran) {
        gpu_from(&res->r, d, &r->g);
        r->gpu_ok = res->found;
        r->has_below = res->below > 0;
        if (r->has_below)
            gpu_from(&res->rb, d + 1, &r->below);
    } else if (!r->gpu_why[0]) {
        scan_why(&r->scan, r->gpu_why, sizeof r->gpu_why);
    }
    free(res);
    free(d);
}

int cmp_gpu_first(const struct cmp_spec *s, double from, double to, struct cmp_gpu *g)
{
    double step = cmp_count_step(s->gpu), max = floor(fmin(to, scan_max(s)) / step) * step;
    struct wl_desc w = gpu_job(s->ws);
    struct cp_error err = {0};
    struct scan_job sj;
    char why[8];
    int found = 0;
    sj.can = NULL;
    if (cmp_check(s, &err) != CP_OK ||
        scan_job_init(s, &w, step, max, &sj, why, sizeof why) != CP_OK) {
        scan_job_free(&sj);
        return 0;
    }
    struct gpu_tm_job j = tm_job_of(s, &w, job_steps(s->ws));
    const struct tm_job t = {&tm_gpu, &j, step};
    struct gpu_tm_detail *d = detail_new(1);
    struct tm_result *r = xmalloc(sizeof *r); /* large (its why) */
    for (double n = ceil(from / step) * step; n <= max && !found; n += step)
        found = scan_can(&sj, n) && tm_eval(&t, n, TM_STRONG, r, d, &err) == CP_OK && r->runs;
    if (found)
        gpu_from(r, d, g);
    free(r);
    free(d);
    scan_job_free(&sj);
    return found;
}

cp_status cmp_gpu_confident(const struct cmp_spec *s, const struct wl_desc *w, double steps,
                            double from, const struct cmp_result *r, const struct pscan_conf *pc,
                            struct pscan_conf_result *res, struct cmp_gpu *g, struct cp_error *err)
{
    double step = cmp_count_step(s->gpu), max = floor(scan_max(s) / step) * step;
    char why[8];
    struct scan_job sj;
    if (scan_job_init(s, w, step, max, &sj, why, sizeof why) != CP_OK) {
        scan_job_free(&sj);
        return cp_fail(err, CP_EINPUT, "the job's figures run no count");
    }
    struct gpu_tm_job job = tm_job_of(s, w, steps);
    const struct tm_job tj = {&tm_gpu, &job, step};
    struct cmp_scan st;
    scan_init(&st, step, max);
    struct tally t = {&sj, &st};
    struct gpu_tm_detail *d = detail_new(1);
    struct pscan_spec sp = {.job = &tj, .detail = d, .first = step, .step = step, .max = max,
                            .may_run = tally_may_run, .user = &t};
    const double limit[PLAN_NMETRICS] = {r->target_s, s->energy_J, s->budget};
    memcpy(sp.limit, limit, sizeof sp.limit);
    cp_status rc = pscan_confident(&sp, pc, from, res, err);
    struct tm_result *tr = xmalloc(sizeof *tr); /* large (its why) */
    if (rc == CP_OK && res->count > 0 &&
        (rc = tm_eval(&tj, res->count, TM_STRONG, tr, d, err)) == CP_OK)
        gpu_from(tr, d, g);
    free(tr);
    free(d);
    scan_job_free(&sj);
    return rc;
}

/* The fastest GPU count whose nodes draw at most r->eq_power_W
 * (PSCAN_FASTEST with no limit over the counts whose nodes fit). */
static void gpu_equal_power(const struct cmp_spec *s, const struct wl_desc *w, double steps,
                            struct cmp_result *r)
{
    const struct gpu_net *net = &s->gpu->net;
    double step = cmp_count_step(s->gpu);
    double nodes = floor(r->eq_power_W / net->node_power_W);
    double max =
        fmin(floor(nodes * net->gpus_per_node / step) * step, floor(scan_max(s) / step) * step);
    const double none[PLAN_NMETRICS] = {0};
    const struct gpu_scan g = {s, w, steps, max, none, PSCAN_FASTEST};
    struct gpu_tm_detail *d = detail_new(1);
    struct pscan_result *res = xmalloc(sizeof *res);
    r->eq_ok = gpu_scan(&g, &r->eq_scan, res, d, NULL, r->eq_why, sizeof r->eq_why);
    if (r->eq_ok)
        gpu_from(&res->r, d, &r->eq);
    free(res);
    free(d);
}

/* The weight-streaming side's figures from its cluster and result. */
static void ws_fill(struct cmp_result *r)
{
    struct tm_result *t = xmalloc(sizeof *t); /* large (its why) */
    ws_tm_result(&r->wr, r->ws.systems, t);
    side_of(t, r->ws.systems, &r->w);
    free(t);
}

/* Remove the first hint of the planner's message that names a flag of
 * `plan` compare does not take (the batch and sparsity are the job's). */
static void cut_hint(char *why)
{
    static const char *const hint[] = {"; --allow-sparsity may reach it",
                                       "; --allow-batch may grow it"};
    for (size_t i = 0; i < sizeof hint / sizeof hint[0]; i++) {
        char *at = strstr(why, hint[i]);
        if (at)
            memmove(at, at + strlen(hint[i]), strlen(at + strlen(hint[i])) + 1);
    }
}

/* The weight-streaming cluster: planned for the deadline, or given. */
static cp_status ws_side(const struct cmp_spec *s, struct cmp_result *r, struct cp_error *err)
{
    if (s->mode == CMP_DEADLINE) {
        struct plan_opts po = {{0}, 0, 0};
        po.limit[PLAN_TIME] = s->deadline_s;
        if (plan_solve(s->ws, &po, NULL, NULL, &r->plan, err) != CP_OK)
            return CP_EINPUT;
        r->ws = r->plan.best;
        r->wr = r->plan.r;
        r->ws_ok = r->plan.reached;
        if (!r->ws_ok) {
            snprintf(r->ws_why, sizeof r->ws_why, "%s", r->plan.why);
            cut_hint(r->ws_why);
        }
    } else {
        r->ws = *s->ws;
        train_eval(&r->ws, &r->wr);
        r->ws_ok = r->wr.feasible;
        char w[256];
        if (!r->ws_ok)
            snprintf(r->ws_why, sizeof r->ws_why, "%g x %s is infeasible: %s", r->ws.systems,
                     r->ws.hw->wse.name,
                     train_warn_names(r->wr.warnings & TW_INFEASIBLE, w, sizeof w));
    }
    ws_fill(r);
    return CP_OK;
}

cp_status cmp_run(const struct cmp_spec *s, struct cmp_result *r, struct cp_error *err)
{
    memset(r, 0, sizeof *r);
    if (cmp_check(s, err) != CP_OK || ws_side(s, r, err) != CP_OK)
        return CP_EINPUT;
    struct wl_desc w = gpu_job(s->ws);
    double steps = job_steps(s->ws);
    r->target_s = s->mode == CMP_DEADLINE ? s->deadline_s : r->ws_ok ? r->w.time_s : 0;
    if (r->target_s > 0) {
        cmp_gpu_fewest(s, &w, steps, r);
    } else {
        snprintf(r->gpu_why, sizeof r->gpu_why,
                 "not searched: the weight-streaming cluster has no time to match");
    }
    if (r->wr.feasible) {
        r->eq_power_W = r->w.power_W;
        gpu_equal_power(s, &w, steps, r);
        if (!r->eq_ok && !r->eq_why[0])
            scan_why(&r->eq_scan, r->eq_why, sizeof r->eq_why);
    }
    return CP_OK;
}

/* ---- bands and confidence (cmp.h) ---- */

/* The draws of one side's job j at count into d and its band b. */
static cp_status side_band(const struct tm_job *j, const struct desc_src *src, double count,
                           double deadline, size_t samples, unsigned long seed,
                           struct unc_draws *d, struct cmp_side_band *b, struct cp_error *err)
{
    cp_status st = unc_job_draws(j, src, count, TM_STRONG, samples, seed, d, err);
    if (st != CP_OK)
        return st;
    const double limit[PLAN_NMETRICS] = {deadline, 0, 0};
    b->on = 1;
    b->ranged = d->ranged;
    b->model_error = d->model_error;
    b->model_error_key = j->kind->model_error_key;
    b->share = deadline > 0 ? unc_share(d, limit) : NAN;
    double *v = xmalloc(samples * sizeof *v);
    double *const from[] = {d->step_s, d->time_s, d->energy_J};
    struct unc_band *const to[] = {&b->step_s, &b->time_s, &b->energy_J};
    for (int k = 0; k < 3; k++) {
        memcpy(v, from[k], samples * sizeof *v);
        *to[k] = unc_band_of(v, samples);
    }
    free(v);
    return CP_OK;
}

/* The paired ratios of the two sides' draws into b. */
static void ratios(const struct unc_draws *dw, const struct unc_draws *dg, struct cmp_bands *b)
{
    size_t n = dw->n, faster = 0;
    double *t = xmalloc(2 * n * sizeof *t), *e = t + n;
    for (size_t i = 0; i < n; i++) {
        t[i] = dg->time_s[i] / dw->time_s[i];
        e[i] = dg->energy_J[i] / dw->energy_J[i];
        faster += t[i] < 1;
    }
    b->paired = 1;
    b->gpu_faster = (double)faster / (double)n;
    b->ratio_time = unc_band_of(t, n);
    b->ratio_energy = unc_band_of(e, n);
    free(t);
}

cp_status cmp_bands(const struct cmp_spec *s, const struct cmp_result *r,
                    const struct desc_src *ws_src, const struct desc_src *gpu_src, size_t samples,
                    unsigned long seed, struct cmp_bands *b, struct cp_error *err)
{
    memset(b, 0, sizeof *b);
    b->samples = samples;
    b->seed = seed;
    double deadline = s->mode == CMP_DEADLINE ? s->deadline_s : 0;
    struct unc_draws dw = {0}, dg = {0};
    cp_status st = CP_OK;
    if (r->wr.feasible) {
        const struct tm_job j = {&tm_ws, &r->ws, r->ws.systems};
        st = side_band(&j, ws_src, r->ws.systems, deadline, samples, seed, &dw, &b->w, err);
    }
    if (st == CP_OK && r->gpu_ran) {
        struct wl_desc w = gpu_job(s->ws);
        struct gpu_tm_job job = tm_job_of(s, &w, job_steps(s->ws));
        const struct tm_job j = {&tm_gpu, &job, r->g.s.units};
        st = side_band(&j, gpu_src, r->g.s.units, deadline, samples, seed + 1, &dg, &b->g, err);
    }
    if (st == CP_OK && b->w.on && b->g.on)
        ratios(&dw, &dg, b);
    unc_draws_free(&dw);
    unc_draws_free(&dg);
    return st;
}

void cmp_jobs_of(const struct cmp_spec *s, const struct cmp_result *r, struct cmp_jobs *j)
{
    j->w = gpu_job(s->ws);
    j->g = tm_job_of(s, &j->w, job_steps(s->ws));
    j->side[0] = (struct tm_job){&tm_ws, &r->ws, r->ws.systems};
    j->side[1] = (struct tm_job){&tm_gpu, &j->g, r->g.s.units};
}

/* The weight-streaming side moved to n systems (its plan's sparsity and
 * batch), with its figures. */
static void ws_move(struct cmp_result *r, double n)
{
    r->ws.systems = n;
    train_eval(&r->ws, &r->wr);
    ws_fill(r);
    r->plan.has_below = 0; /* the point plan's N - 1 is no runner-up now */
}

cp_status cmp_confident(const struct cmp_spec *s, struct cmp_result *r,
                        const struct pscan_conf *pc_ws, const struct pscan_conf *pc_gpu,
                        struct pscan_conf_result *ws_conf, struct pscan_conf_result *gpu_conf,
                        struct cp_error *err)
{
    memset(ws_conf, 0, sizeof *ws_conf);
    memset(gpu_conf, 0, sizeof *gpu_conf);
    cp_status st = CP_OK;
    if (r->ws_ok) {
        static struct train_result detail;
        const struct cluster best = r->ws;
        const struct tm_job job = {&tm_ws, &best, best.systems};
        struct pscan_spec sp = {.job = &job, .detail = &detail, .first = 1, .step = 1,
                                .max = r->plan.max_systems};
        sp.limit[PLAN_TIME] = s->deadline_s;
        st = pscan_confident(&sp, pc_ws, best.systems, ws_conf, err);
        if (st == CP_OK && ws_conf->count > 0)
            ws_move(r, ws_conf->count);
        if (st == CP_OK && !ws_conf->found) {
            r->ws_ok = 0;
            snprintf(r->ws_why, sizeof r->ws_why,
                     "no count of up to %g systems meets the deadline in %g of the draws",
                     r->plan.max_systems, pc_ws->p);
        }
    }
    if (st == CP_OK && r->gpu_ok) {
        struct wl_desc w = gpu_job(s->ws);
        st = cmp_gpu_confident(s, &w, job_steps(s->ws), r->g.s.units, r, pc_gpu, gpu_conf, &r->g,
                               err);
        r->gpu_ok = st == CP_OK && gpu_conf->found;
        r->has_below = 0;
    }
    if (st == CP_OK && r->wr.feasible) {
        struct wl_desc w = gpu_job(s->ws);
        r->eq_power_W = r->w.power_W;
        r->eq_ok = 0;
        r->eq_why[0] = '\0';
        gpu_equal_power(s, &w, job_steps(s->ws), r);
        if (!r->eq_ok && !r->eq_why[0])
            scan_why(&r->eq_scan, r->eq_why, sizeof r->eq_why);
    }
    return st;
}
