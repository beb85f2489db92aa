/* explore.c - the explorer's state: the scenario, its results, the chart's
 * curve and its band (explore.h; the keys are explore_key.c). */
#include "explore.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../grid/grid.h"
#include "../model/param.h"
#include "../desc/tfm.h"

const char *const xp_param_name[XP_NPARAMS] = {
    "model", "system",  "systems", "memoryx", "sparsity",
    "batch", "seq_len", "overlap", "hw key",  "hw value",
};
const char *const xp_chart_title[XP_NCHARTS] = {
    "speedup against N (fixed global batch)",
    "step time by resource against N",
    "time to train against sparsity",
};

void xp_status(struct xp_state *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->status, sizeof x->status, fmt, ap);
    va_end(ap);
}

static size_t index_of(const struct cat_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return i;
    return 0;
}

int xp_reload(struct xp_state *x, const char *model, const char *system)
{
    static struct scenario t;
    struct cluster keep = x->s.c;
    if (scenario_load_names(x->o, model, system, &t) >= 0)
        return -1;
    int same_model = strcmp(model, x->s.model) == 0;
    x->s = t;
    struct cluster *c = &x->s.c;
    c->hw = &x->s.hw;
    c->wl = &x->s.wl;
    scenario_auto_tier(&x->s);
    c->systems = keep.systems;
    c->sparsity = keep.sparsity;
    c->overlap = keep.overlap_set ? keep.overlap : x->s.hw.mx.boundary_overlap;
    c->overlap_set = keep.overlap_set;
    /* what the options set beyond the names, as scenario_load does */
    c->act_servers = keep.act_servers;
    c->act = keep.act;
    c->act_k = keep.act_k <= x->s.wl.layers ? keep.act_k : 0;
    c->batch_penalty = keep.batch_penalty;
    c->price = keep.price;
    if (same_model) {
        c->global_seqs = keep.global_seqs;
        c->tokens = keep.tokens;
    } else if (x->o->tokens && strcmp(x->o->tokens, "chinchilla") != 0) {
        c->tokens = keep.tokens;
    } else if (x->o->tokens) {
        c->tokens = WL_CHINCHILLA_TOKENS_PER_PARAM * tfm_params(&x->s.wl);
    }
    x->loaded_hw = x->s.hw;
    x->loaded_seq_len = x->s.wl.seq_len;
    x->model_i = index_of(&x->models, x->s.model);
    x->system_i = index_of(&x->systems, x->s.system);
    return 0;
}

int xp_init(struct xp_state *x, struct cli_opts *o)
{
    memset(x, 0, sizeof *x);
    x->o = o;
    /* a kind the weight-streaming scenario does not load: the interface's */
    int rc = job_face(o) != job_default_face() ? xp_tm_init(x)
                                                : scenario_refuse_gpu_opts(o, "explore");
    if (rc >= 0 || (!x->t.on && (rc = scenario_load(o, &x->s)) >= 0))
        return rc;
    x->s.c.hw = &x->s.hw;
    x->s.c.wl = &x->s.wl;
    x->loaded_hw = x->s.hw;
    x->loaded_seq_len = x->s.wl.seq_len;
    struct cp_error err = {0};
    if (cat_list(&o->dirs, CAT_MODEL, &x->models, &err) != CP_OK ||
        cat_list(&o->dirs, CAT_HW, &x->systems, &err) != CP_OK)
        return cli_error("explore: %s", err.msg);
    x->chart_cols = 60;
    xp_status(x, "? help   arrows move and step   Enter types a value   q quits");
    if (x->t.on)
        return -1;
    /* Left and Right step through the systems of the default system's
     * kind (weight streaming) only: the others are explored over the
     * interface (explore_tm.c).  One that does not open is kept. */
    size_t k = 0;
    for (size_t i = 0; i < x->systems.n; i++) {
        const struct face *f = job_listed_face(&x->systems.items[i]);
        if (!f || f == job_default_face())
            x->systems.items[k++] = x->systems.items[i];
    }
    x->systems.n = k;
    x->model_i = index_of(&x->models, x->s.model);
    x->system_i = index_of(&x->systems, x->s.system);
    x->hwkey = param_find("system.utilization");
    return -1;
}

void xp_free(struct xp_state *x)
{
    cat_list_free(&x->models);
    cat_list_free(&x->systems);
    free(x->draws);
    x->draws = NULL;
    xp_tm_free(x);
}

/* The job own (the scenario's cluster, or a draw of it) through the
 * interface at n systems, strong scaling, into r: the weight-streaming
 * screen's kind is the default system's, its detail a train_result. */
static void eval_at(const struct xp_state *x, const void *own, double n, struct tm_result *r)
{
    const struct tm_job j = {job_default_face()->kind, own, x->s.c.systems};
    struct train_result detail;
    struct cp_error err = {0};
    if (tm_eval(&j, n, TM_STRONG, r, &detail, &err) != CP_OK)
        r->runs = r->feasible = 0;
}

static void curve_speedup(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    double max = fmax(x->s.hw.wse.max_systems, x->s.c.systems);
    size_t n = (size_t)fmin(fmax(x->chart_cols, 2), XP_CURVE_MAX);
    struct tm_result one, r;
    eval_at(x, &x->s.c, 1, &one);
    cv->n = 0;
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        double N = round(exp(log(max) * (double)i / (double)(n - 1)));
        if (N == last)
            continue;
        last = N;
        eval_at(x, &x->s.c, N, &r);
        cv->x[cv->n] = N;
        cv->y[cv->n] = r.feasible ? r.tokens_per_s / one.tokens_per_s : NAN;
        cv->n++;
    }
}

/* The step time and its parts at 1, 2, 4, ... systems up to the most the
 * hardware takes (or the scenario's size, if more), at the scenario's
 * global batch. */
static void curve_breakdown(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    double max = fmax(x->s.hw.wse.max_systems, x->s.c.systems), ns[XP_CURVE_MAX];
    size_t n = 0;
    for (double N = 1; n < XP_CURVE_MAX && N <= max; N = N * 2 < max || N == max ? N * 2 : max)
        ns[n++] = N;
    for (cv->n = 0; cv->n < n; cv->n++) {
        struct tm_result r;
        eval_at(x, &x->s.c, ns[cv->n], &r);
        cv->x[cv->n] = ns[cv->n];
        cv->y[cv->n] = r.step_s;
        for (size_t k = 0; k < TM_MAX_PARTS; k++)
            cv->part[cv->n][k] = k < r.nparts ? r.part_s[k] : 0;
    }
}

/* The time to train at sparsities from 0 to the most the model takes, one
 * per chart column. */
static void curve_sparsity(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    size_t n = (size_t)fmin(fmax(x->chart_cols, 2), XP_CURVE_MAX);
    double sp[XP_CURVE_MAX];
    for (size_t i = 0; i < n; i++)
        sp[i] = CLUSTER_MAX_SPARSITY * (double)i / (double)(n - 1);
    struct grid g = {.base = &x->s.c, .sp = sp, .nsp = n, .ns = &x->s.c.systems, .nn = 1,
                     .mode = SCALE_STRONG};
    for (cv->n = 0; cv->n < n; cv->n++) {
        struct cluster c;
        struct train_result r;
        grid_eval(&g, cv->n, &c, &r);
        cv->x[cv->n] = c.sparsity;
        cv->y[cv->n] = r.time_s;
    }
}

/* The quantity chart x->chart plots at xv (systems, or sparsity) on the
 * drawn job own (a clone of the scenario's cluster with the draw's
 * hardware): speedup over one (the tokens/s of one system on it), step
 * time or time to train. */
static double chart_quantity(const struct xp_state *x, const void *own, double xv, double one)
{
    struct tm_result r;
    if (x->chart == XP_CHART_SPARSITY) { /* the weight-streaming model's own knob */
        struct cluster c = *(const struct cluster *)own;
        struct train_result t;
        c.sparsity = xv;
        train_eval(&c, &t);
        return t.time_s;
    }
    eval_at(x, own, xv, &r);
    if (x->chart == XP_CHART_BREAKDOWN)
        return r.step_s;
    return r.feasible ? r.tokens_per_s / one : NAN;
}

/* The points of the curve evaluated for the band: every step-th and the
 * last, at most XP_BAND_POINTS + 1.  Returns their count. */
static size_t band_points(size_t n, size_t *idx)
{
    size_t step = n > XP_BAND_POINTS ? (n - 1 + XP_BAND_POINTS - 1) / XP_BAND_POINTS : 1, m = 0;
    for (size_t i = 0; i < n; i += step)
        idx[m++] = i;
    if (idx[m - 1] != n - 1)
        idx[m++] = n - 1;
    return m;
}

/* Evaluate the chart's quantity on every draw of the hardware (the draws
 * of the results' band: same seed, same order) at the points idx[0..m),
 * into x->draws (one row of XP_UNC_SAMPLES per point).  Returns the draws
 * made. */
static size_t band_draws(struct xp_state *x, const size_t *idx, size_t m)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return 0;
    gsl_rng_set(rng, UNC_DEFAULT_SEED);
    const struct tm_job job = {job_default_face()->kind, &x->s.c, x->s.c.systems};
    void *buf = xmalloc(job.kind->clone_size), *drawn;
    size_t d = 0;
    for (; d < XP_UNC_SAMPLES; d++) {
        struct cp_error err = {0};
        double one = 0;
        if (unc_job_draw(&job, &x->s.hw_src, rng, buf, &drawn, &err) != CP_OK)
            break;
        if (x->chart == XP_CHART_SPEEDUP) {
            struct tm_result r;
            eval_at(x, drawn, 1, &r);
            one = r.tokens_per_s;
        }
        for (size_t j = 0; j < m; j++)
            x->draws[j * XP_UNC_SAMPLES + d] = chart_quantity(x, drawn, x->curve.x[idx[j]], one);
    }
    free(buf);
    gsl_rng_free(rng);
    return d;
}

/* The band of the curve: the XP_BAND_LO and XP_BAND_HI percentiles of its
 * quantity over the draws at the band's points (the finite values, when
 * at least half are), linear between them; NAN where there is none. */
static void curve_band(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    for (size_t i = 0; i < cv->n; i++)
        cv->lo[i] = cv->hi[i] = NAN;
    if (!x->band_ok || cv->n == 0)
        return;
    if (!x->draws)
        x->draws = xmalloc((XP_BAND_POINTS + 1) * XP_UNC_SAMPLES * sizeof *x->draws);
    size_t idx[XP_BAND_POINTS + 1], m = band_points(cv->n, idx), nd = band_draws(x, idx, m);
    for (size_t j = 0; j < m && nd > 0; j++) {
        double *v = x->draws + j * XP_UNC_SAMPLES;
        size_t k = 0;
        for (size_t d = 0; d < nd; d++)
            if (isfinite(v[d]))
                v[k++] = v[d];
        if (2 * k < nd)
            continue;
        gsl_sort(v, 1, k);
        cv->lo[idx[j]] = gsl_stats_quantile_from_sorted_data(v, 1, k, XP_BAND_LO);
        cv->hi[idx[j]] = gsl_stats_quantile_from_sorted_data(v, 1, k, XP_BAND_HI);
    }
    for (size_t j = 0; j + 1 < m; j++)
        for (size_t i = idx[j] + 1; i < idx[j + 1]; i++) {
            double t = (double)(i - idx[j]) / (double)(idx[j + 1] - idx[j]);
            cv->lo[i] = cv->lo[idx[j]] + t * (cv->lo[idx[j + 1]] - cv->lo[idx[j]]);
            cv->hi[i] = cv->hi[idx[j]] + t * (cv->hi[idx[j + 1]] - cv->hi[idx[j]]);
        }
}

void xp_recompute(struct xp_state *x)
{
    if (x->t.on) {
        char why[CP_ERROR_MAX];
        if (xp_tm_recompute(x, why, sizeof why) != 0)
            xp_status(x, "%s", why);
        return;
    }
    /* the scenario's job through the interface: its result in x->t.r, the
     * kind's detail (the train_result) in x->r */
    const struct tm_job job = {job_default_face()->kind, &x->s.c, x->s.c.systems};
    struct cp_error err = {0};
    if (tm_eval(&job, 0, TM_STRONG, &x->t.r, &x->r, &err) != CP_OK) {
        x->t.r.runs = x->t.r.feasible = 0;
        snprintf(x->t.r.why, sizeof x->t.r.why, "%s", err.msg);
    }
    x->band_ok = 0;
    if (x->unc) {
        x->band_ok = unc_job_run(&job, &x->s.hw_src, 0, TM_STRONG, XP_UNC_SAMPLES,
                                 UNC_DEFAULT_SEED, &x->band, NULL, &err) == CP_OK;
        if (!x->band_ok)
            xp_status(x, "uncertainty: %s", err.msg);
    }
    if (x->chart == XP_CHART_SPEEDUP)
        curve_speedup(x);
    else if (x->chart == XP_CHART_BREAKDOWN)
        curve_breakdown(x);
    else
        curve_sparsity(x);
    curve_band(x);
}

const char *xp_value(const struct xp_state *x, enum xp_param p, char *buf, size_t n)
{
    const struct cluster *c = &x->s.c;
    if (x->t.on)
        return xp_tm_value(x, p, buf, n);
    switch (p) {
    case XP_MODEL:
        snprintf(buf, n, "%s", x->s.model);
        break;
    case XP_SYSTEM:
        snprintf(buf, n, "%s", x->s.system);
        break;
    case XP_SYSTEMS:
        snprintf(buf, n, "%g", c->systems);
        break;
    case XP_MEMORYX:
        snprintf(buf, n, "%s", x->s.tier);
        break;
    case XP_SPARSITY:
        snprintf(buf, n, "%.4g", c->sparsity);
        break;
    case XP_BATCH:
        snprintf(buf, n, "%g seqs", c->global_seqs);
        break;
    case XP_SEQLEN:
        snprintf(buf, n, "%g", x->s.wl.seq_len);
        break;
    case XP_OVERLAP:
        snprintf(buf, n, "%.3g", c->overlap);
        break;
    case XP_HWKEY:
        param_name(x->hwkey, buf, n);
        break;
    case XP_HWVAL:
        unit_format(param_get(&x->s.hw, x->hwkey), hw_schema.keys[x->hwkey].dim, buf, n);
        break;
    case XP_NPARAMS:
        buf[0] = '\0';
        break;
    }
    return buf;
}

const char *xp_label(const struct xp_state *x, enum xp_param p, char *buf, size_t n)
{
    if (p == XP_HWVAL)
        return x->t.on ? xp_tm_param_label(x, buf, n) : param_name(x->hwkey, buf, n);
    if (p == XP_SYSTEMS && x->t.on)
        snprintf(buf, n, "%s", x->t.j.tm.kind->units);
    else
        snprintf(buf, n, "%s", xp_param_name[p]);
    return buf;
}
