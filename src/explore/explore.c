/* explore.c - the explorer's state and keys (explore.h). */
#include "explore.h"

#include <curses.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../plan/param.h"
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

/* Steps: coarse with Left/Right, fine with -/+. */
#define XP_SPARSITY_COARSE 0.05
#define XP_SPARSITY_FINE 0.01
#define XP_OVERLAP_COARSE 0.1
#define XP_OVERLAP_FINE 0.01
#define XP_HW_COARSE 1.25
#define XP_HW_FINE 1.02
#define XP_SEQLEN_FINE 128

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

/* Reload model and system by name, keeping the scenario's settings. */
static int reload(struct xp_state *x, const char *model, const char *system)
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
    int rc = scenario_load(o, &x->s);
    if (rc >= 0)
        return rc;
    x->s.c.hw = &x->s.hw;
    x->s.c.wl = &x->s.wl;
    x->loaded_hw = x->s.hw;
    x->loaded_seq_len = x->s.wl.seq_len;
    struct cp_error err = {0};
    if (cat_list(&o->dirs, CAT_MODEL, &x->models, &err) != CP_OK ||
        cat_list(&o->dirs, CAT_HW, &x->systems, &err) != CP_OK)
        return cli_error("explore: %s", err.msg);
    x->model_i = index_of(&x->models, x->s.model);
    x->system_i = index_of(&x->systems, x->s.system);
    x->hwkey = param_find("system.utilization");
    x->chart_cols = 60;
    xp_status(x, "? help   arrows move and step   Enter types a value   q quits");
    return -1;
}

void xp_free(struct xp_state *x)
{
    cat_list_free(&x->models);
    cat_list_free(&x->systems);
    free(x->draws);
    x->draws = NULL;
}

static void curve_speedup(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    double max = fmax(x->s.hw.wse.max_systems, x->s.c.systems);
    size_t n = (size_t)fmin(fmax(x->chart_cols, 2), XP_CURVE_MAX);
    struct train_result one, r;
    train_at(&x->s.c, 1, SCALE_STRONG, &one);
    cv->n = 0;
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        double N = round(exp(log(max) * (double)i / (double)(n - 1)));
        if (N == last)
            continue;
        last = N;
        train_at(&x->s.c, N, SCALE_STRONG, &r);
        cv->x[cv->n] = N;
        cv->y[cv->n] = r.feasible ? r.tokens_per_s / one.tokens_per_s : NAN;
        cv->n++;
    }
}

static void curve_breakdown(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    double max = fmax(x->s.hw.wse.max_systems, x->s.c.systems);
    cv->n = 0;
    for (double N = 1; cv->n < XP_CURVE_MAX; N = N * 2 < max || N == max ? N * 2 : max) {
        if (N > max)
            break;
        struct train_result r;
        train_at(&x->s.c, N, SCALE_STRONG, &r);
        cv->x[cv->n] = N;
        cv->y[cv->n] = r.step.step_s;
        for (int k = 0; k < STEP_NRES; k++)
            cv->part[cv->n][k] = r.step.critical[k];
        cv->n++;
    }
}

static void curve_sparsity(struct xp_state *x)
{
    struct xp_curve *cv = &x->curve;
    size_t n = (size_t)fmin(fmax(x->chart_cols, 2), XP_CURVE_MAX);
    cv->n = 0;
    for (size_t i = 0; i < n; i++) {
        struct cluster c = x->s.c;
        c.sparsity = CLUSTER_MAX_SPARSITY * (double)i / (double)(n - 1);
        struct train_result r;
        train_eval(&c, &r);
        cv->x[cv->n] = c.sparsity;
        cv->y[cv->n] = r.time_s;
        cv->n++;
    }
}

/* The quantity chart x->chart plots at xv (systems, or sparsity) with the
 * hardware hw: speedup over one (the tokens/s of one system on hw), step
 * time or time to train. */
static double chart_quantity(const struct xp_state *x, const struct hw_desc *hw, double xv,
                             double one)
{
    struct cluster c = x->s.c;
    struct train_result r;
    c.hw = hw;
    if (!c.overlap_set)
        c.overlap = hw->mx.boundary_overlap;
    if (x->chart == XP_CHART_SPARSITY) {
        c.sparsity = xv;
        train_eval(&c, &r);
        return r.time_s;
    }
    train_at(&c, xv, SCALE_STRONG, &r);
    if (x->chart == XP_CHART_BREAKDOWN)
        return r.step.step_s;
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
    size_t d = 0;
    for (; d < XP_UNC_SAMPLES; d++) {
        struct hw_desc hw;
        struct cp_error err = {0};
        double one = 0;
        if (unc_draw(&x->s.hw, &x->s.hw_src, rng, &hw, &err) != CP_OK)
            break;
        if (x->chart == XP_CHART_SPEEDUP) {
            struct cluster c = x->s.c;
            struct train_result r;
            c.hw = &hw;
            if (!c.overlap_set)
                c.overlap = hw.mx.boundary_overlap;
            train_at(&c, 1, SCALE_STRONG, &r);
            one = r.tokens_per_s;
        }
        for (size_t j = 0; j < m; j++)
            x->draws[j * XP_UNC_SAMPLES + d] = chart_quantity(x, &hw, x->curve.x[idx[j]], one);
    }
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
    train_eval(&x->s.c, &x->r);
    x->band_ok = 0;
    if (x->unc) {
        struct cp_error err = {0};
        x->band_ok = unc_run(&x->s.c, &x->s.hw_src, XP_UNC_SAMPLES, UNC_DEFAULT_SEED, &x->band,
                             NULL, &err) == CP_OK;
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
        return param_name(x->hwkey, buf, n);
    snprintf(buf, n, "%s", xp_param_name[p]);
    return buf;
}

/* "hw key NAME = VALUE" on the status line: the whole name, whatever the
 * width of the parameters panel. */
static void show_hwkey(struct xp_state *x)
{
    char name[96], v[64];
    xp_status(x, "hw key %s = %s", param_name(x->hwkey, name, sizeof name),
              xp_value(x, XP_HWVAL, v, sizeof v));
}

static void step_to(struct xp_state *x, int dir, int fine);

/* Step parameter p: dir -1 or +1, fine or coarse.  A numeric step that
 * takes the model out of its range (a batch doubled to 1e308, a bandwidth
 * divided towards zero) is undone, with the reason in the status line. */
static void step(struct xp_state *x, int dir, int fine)
{
    enum xp_param p = (enum xp_param)x->sel;
    if (p == XP_MODEL || p == XP_SYSTEM || p == XP_MEMORYX || p == XP_HWKEY) {
        step_to(x, dir, fine); /* shipped choices only */
        return;
    }
    struct cluster keep = x->s.c;
    double seq_len = x->s.wl.seq_len, hwval = param_get(&x->s.hw, x->hwkey);
    step_to(x, dir, fine);
    struct cp_error err = {0};
    if (train_check(&x->s.c, &err) != CP_OK) {
        x->s.c = keep;
        x->s.wl.seq_len = seq_len;
        *param_ptr(&x->s.hw, x->hwkey) = hwval;
        char label[96];
        xp_status(x, "%s: %.200s", xp_label(x, (enum xp_param)x->sel, label, sizeof label),
                  err.msg);
    }
}

static void step_to(struct xp_state *x, int dir, int fine)
{
    struct cluster *c = &x->s.c;
    switch ((enum xp_param)x->sel) {
    case XP_MODEL: {
        size_t n = x->models.n, i = (x->model_i + n + (size_t)(dir + (int)n)) % n;
        reload(x, x->models.items[i].name, x->s.system);
        break;
    }
    case XP_SYSTEM: {
        size_t n = x->systems.n, i = (x->system_i + n + (size_t)(dir + (int)n)) % n;
        reload(x, x->s.model, x->systems.items[i].name);
        break;
    }
    case XP_SYSTEMS:
        c->systems = fine ? c->systems + dir : (dir > 0 ? c->systems * 2 : floor(c->systems / 2));
        c->systems = fmin(fmax(c->systems, 1), CLUSTER_MAX_SYSTEMS);
        break;
    case XP_MEMORYX: {
        const struct desc_list *t = &x->s.hw.mx.tiers;
        if (t->n == 0)
            break;
        int at = -1;
        for (size_t i = 0; i < t->n; i++)
            if (strcmp(t->item[i].name, x->s.tier) == 0)
                at = (int)i;
        /* The cycle: sized for the run, then each tier, then sized again. */
        int i = at + dir;
        if (at < 0)
            i = dir > 0 ? 0 : (int)t->n - 1;
        if (i < 0 || i >= (int)t->n)
            scenario_auto_tier(&x->s);
        else
            scenario_memoryx(&x->s, t->item[i].name);
        break;
    }
    case XP_SPARSITY:
        c->sparsity += dir * (fine ? XP_SPARSITY_FINE : XP_SPARSITY_COARSE);
        c->sparsity = fmin(fmax(round(c->sparsity * 1e6) / 1e6, 0), CLUSTER_MAX_SPARSITY);
        break;
    case XP_BATCH:
        c->global_seqs = fine ? c->global_seqs + dir
                              : (dir > 0 ? c->global_seqs * 2 : floor(c->global_seqs / 2));
        c->global_seqs = fmax(c->global_seqs, 1);
        break;
    case XP_SEQLEN:
        x->s.wl.seq_len = fine ? x->s.wl.seq_len + dir * XP_SEQLEN_FINE
                               : (dir > 0 ? x->s.wl.seq_len * 2 : floor(x->s.wl.seq_len / 2));
        x->s.wl.seq_len = fmax(x->s.wl.seq_len, 1);
        break;
    case XP_OVERLAP:
        c->overlap += dir * (fine ? XP_OVERLAP_FINE : XP_OVERLAP_COARSE);
        c->overlap = fmin(fmax(round(c->overlap * 1e6) / 1e6, 0), 1);
        c->overlap_set = 1;
        break;
    case XP_HWKEY: {
        size_t n = param_count(), i = 0;
        while (i < n && param_key(i) != x->hwkey)
            i++;
        x->hwkey = param_key((i + n + (size_t)(dir + (int)n)) % n);
        show_hwkey(x);
        break;
    }
    case XP_HWVAL: {
        double v = param_get(&x->s.hw, x->hwkey), f = fine ? XP_HW_FINE : XP_HW_COARSE;
        double nv = dir > 0 ? v * f : v / f;
        if (hw_schema.keys[x->hwkey].flags & DESC_INTEGER)
            nv = v + dir;
        if (v == 0)
            nv = dir > 0 ? 0.01 : 0;
        char label[96], a[64];
        if (param_valid(&x->s.hw, x->hwkey, nv))
            *param_ptr(&x->s.hw, x->hwkey) = nv;
        else
            xp_status(x, "%s cannot go %s %s", xp_label(x, XP_HWVAL, label, sizeof label),
                      dir > 0 ? "above" : "below",
                      unit_format(v, hw_schema.keys[x->hwkey].dim, a, sizeof a));
        if (!c->overlap_set)
            c->overlap = x->s.hw.mx.boundary_overlap;
        break;
    }
    case XP_NPARAMS:
        break;
    }
}

/* Apply the prompt's text to the selected parameter. */
static void apply_input(struct xp_state *x)
{
    struct cluster *c = &x->s.c, keep = *c;
    char why[256] = "";
    double v;
    const char *in = x->input;
    int bad = 0;
    switch ((enum xp_param)x->sel) {
    case XP_MODEL:
        bad = reload(x, in, x->s.system) != 0;
        snprintf(why, sizeof why, "no model '%s'", in);
        break;
    case XP_SYSTEM:
        bad = reload(x, x->s.model, in) != 0;
        snprintf(why, sizeof why, "no system '%s'", in);
        break;
    case XP_MEMORYX:
        if (strcmp(in, "sized") == 0)
            scenario_auto_tier(&x->s);
        else
            bad = scenario_memoryx(&x->s, in) >= 0;
        snprintf(why, sizeof why, "not a tier, a size or 'sized'");
        break;
    case XP_HWKEY: {
        int k = param_find(in);
        bad = k < 0;
        if (!bad)
            x->hwkey = k;
        snprintf(why, sizeof why, "not a numeric hardware key (section.key, as show lists them)");
        break;
    }
    case XP_HWVAL:
        bad = unit_parse(in, hw_schema.keys[x->hwkey].dim, &v, why, sizeof why) != 0;
        if (!bad && !(bad = !param_valid(&x->s.hw, x->hwkey, v))) {
            double *p = param_ptr(&x->s.hw, x->hwkey), was = *p;
            struct cp_error err = {0};
            *p = v;
            if (train_check(c, &err) != CP_OK) {
                *p = was;
                bad = 1;
                snprintf(why, sizeof why, "%.200s", err.msg);
            }
        } else if (!why[0]) {
            snprintf(why, sizeof why, "not a valid value of this key");
        }
        break;
    default: {
        unit_dim d = x->sel == XP_SPARSITY || x->sel == XP_OVERLAP ? UNIT_FRACTION : UNIT_COUNT;
        bad = unit_parse(in, d, &v, why, sizeof why) != 0;
        if (bad)
            break;
        if (x->sel == XP_SYSTEMS)
            c->systems = v;
        else if (x->sel == XP_SPARSITY)
            c->sparsity = v;
        else if (x->sel == XP_BATCH)
            c->global_seqs = v;
        else if (x->sel == XP_OVERLAP)
            c->overlap = v, c->overlap_set = 1;
        else if (x->sel == XP_SEQLEN)
            bad = !(v >= 1 && v == floor(v)), snprintf(why, sizeof why, "a whole number >= 1");
        if (!bad && x->sel == XP_SEQLEN)
            x->s.wl.seq_len = v;
        struct cp_error err = {0};
        if (!bad && (cluster_check(c, &err) != CP_OK || train_check(c, &err) != CP_OK)) {
            *c = keep;
            bad = 1;
            snprintf(why, sizeof why, "%.200s", err.msg);
        }
        break;
    }
    }
    char label[96];
    xp_label(x, (enum xp_param)x->sel, label, sizeof label);
    if (bad)
        xp_status(x, "%s '%s': %s", label, in, why);
    else if (x->sel == XP_HWKEY)
        show_hwkey(x);
    else
        xp_status(x, "%s = %s", label, in);
}

int xp_key(struct xp_state *x, int key)
{
    if (x->help) { /* any key closes the help */
        x->help = 0;
        return 0;
    }
    if (x->prompt) {
        size_t len = strlen(x->input);
        if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            x->prompt = 0;
            apply_input(x);
        } else if (key == 27) {
            x->prompt = 0;
            xp_status(x, "cancelled");
        } else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len > 0) {
            x->input[len - 1] = '\0';
        } else if (key >= 32 && key < 127 && len + 1 < sizeof x->input) {
            x->input[len] = (char)key;
            x->input[len + 1] = '\0';
        }
        return 0;
    }
    switch (key) {
    case 'q':
    case 'Q':
        return 1;
    case '?':
    case 'h':
        x->help = 1;
        break;
    case KEY_UP:
    case 'k':
        x->sel = (x->sel + XP_NPARAMS - 1) % XP_NPARAMS;
        break;
    case KEY_DOWN:
    case 'j':
        x->sel = (x->sel + 1) % XP_NPARAMS;
        break;
    case KEY_LEFT:
        step(x, -1, 0);
        break;
    case KEY_RIGHT:
        step(x, +1, 0);
        break;
    case '-':
        step(x, -1, 1);
        break;
    case '+':
    case '=':
        step(x, +1, 1);
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
        x->prompt = 1;
        x->input[0] = '\0';
        break;
    case 'c':
        x->chart = (enum xp_chart)((x->chart + 1) % XP_NCHARTS);
        break;
    case 'u':
        x->unc = !x->unc;
        xp_status(x, "uncertainty bands %s",
                  x->unc ? "on: " XP_BAND_LABEL " of the draws of "
                           "the hardware ranges"
                         : "off");
        break;
    default:
        break;
    }
    return 0;
}
