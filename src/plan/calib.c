/* calib.c - fitting hardware keys to measured points (see calib.h).
 *
 * The unknowns x are the keys in a transformed space (log for positive
 * keys, logit for fractions), so every x the solver tries maps to a value
 * of the right sign and range; what the transform cannot rule out (a rule
 * spanning keys) is charged as a large residual, which the trust region
 * rejects by shrinking its step.
 *
 * The solver's "converged" means a stationary point, which it also finds
 * where a key has run so far (towards 0, or to a value beyond any figure)
 * that nothing depends on it: the fit is judged again by its residuals and
 * its values (see calib.h) before it is called converged. */
#include "calib.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "../desc/gpuhw.h"
#include "../model/param.h"

/* Solver settings (numerical, not hardware): the trust region stops when a
 * step changes no x by more than CALIB_XTOL relative (x is a log or logit,
 * so this is a relative change in the key of about 1e-10) or the gradient
 * falls below CALIB_GTOL; it gives up after CALIB_MAX_ITER iterations. */
#define CALIB_XTOL 1e-10
#define CALIB_GTOL 1e-12
#define CALIB_FTOL 0.0 /* unused by GSL 2.x */
#define CALIB_MAX_ITER 500
/* Residual of every point while a trial value is invalid: far above any
 * log ratio a real fit sees (e^1000). */
#define CALIB_PENALTY 1e3
/* Columns of the Jacobian smaller than this, relative to the largest,
 * count as not constraining their key (above finite-difference noise). */
#define CALIB_COVAR_EPSREL 1e-8
/* "No step lowers the residuals" counts as convergence when a Gauss-Newton
 * step would lower chi2 by less than this fraction of it (a stationary
 * point, up to finite-difference error). */
#define CALIB_FLAT 1e-8
/* A key whose residuals change by less than this per unit of x (for a
 * positive key, an elasticity) is one the points do not depend on. */
#define CALIB_MIN_SLOPE 1e-12
/* Finite-difference step in x: a relative change of 1e-4 in the key, large
 * enough to see a key with a small effect above rounding. */
#define CALIB_FD_STEP 1e-4

struct fit {
    struct calib_point *pts;
    size_t npts, nkeys;
    const struct calib_key *keys;
    const struct calib_spec *spec;
    int logit[CALIB_MAX_KEYS];
    double slope0[CALIB_MAX_KEYS]; /* key_slope_max() at the start */
    struct hw_desc *scratch;       /* one per point */
};

/* "line 12", or "point 3" for a point with no line. */
static const char *point_name(const struct calib_point *p, size_t i, char *buf, size_t n)
{
    if (p->line > 0)
        snprintf(buf, n, "line %d", p->line);
    else
        snprintf(buf, n, "point %zu", i + 1);
    return buf;
}

double calib_predict(const struct cluster *c, const struct hw_desc *hw, enum meas_quantity q)
{
    struct train_result r;
    param_eval(c, hw, &r);
    switch (q) {
    case MEAS_STEP_TIME:
        return r.step.step_s;
    case MEAS_TOKENS_PER_S:
        return r.tokens_per_s;
    case MEAS_SAMPLES_PER_S:
        return c->global_seqs / r.step.step_s;
    case MEAS_SPEEDUP: {
        struct cluster one = *c;
        struct train_result r1;
        one.hw = hw;
        if (!one.overlap_set)
            one.overlap = hw->mx.boundary_overlap;
        train_at(&one, 1, SCALE_WEAK, &r1);
        return r.tokens_per_s / r1.tokens_per_s;
    }
    default:
        return NAN;
    }
}

static double key_value(const struct fit *f, size_t j, double x)
{
    return f->logit[j] ? 1 / (1 + exp(-x)) : f->keys[j].start * exp(x);
}

/* dv/dx of key j at value v. */
static double key_slope(const struct fit *f, size_t j, double v)
{
    return f->logit[j] ? v * (1 - v) : v;
}

/* Point i's hardware with the keys at x, in its scratch copy; 0, or -1
 * when a value is not valid there. */
static int set_keys(struct fit *f, size_t i, const gsl_vector *x)
{
    struct hw_desc *hw = &f->scratch[i];
    *hw = *f->pts[i].c->hw;
    for (size_t j = 0; j < f->nkeys; j++) {
        if (!calib_applies(&f->spec[j], &f->pts[i]))
            continue;
        double v = key_value(f, j, gsl_vector_get(x, j));
        if (!param_valid(hw, f->keys[j].key, v))
            return -1;
        *param_ptr(hw, f->keys[j].key) = v;
    }
    return 0;
}

/* ln(model) - ln(measured) of point i at x, or the penalty. */
static double residual(struct fit *f, size_t i, const gsl_vector *x)
{
    const struct calib_point *p = &f->pts[i];
    if (set_keys(f, i, x) != 0)
        return CALIB_PENALTY;
    double m = calib_predict(p->c, &f->scratch[i], p->quantity);
    if (!(m > 0) || !isfinite(m))
        return CALIB_PENALTY;
    return log(m) - log(p->measured);
}

static int residuals(const gsl_vector *x, void *params, gsl_vector *r)
{
    struct fit *f = params;
    for (size_t i = 0; i < f->npts; i++)
        gsl_vector_set(r, i, residual(f, i, x));
    return GSL_SUCCESS;
}

/* Check each key can be fitted and fill res->keys with its start. */
static cp_status check_keys(const struct calib_point *pts, size_t npts,
                            const struct calib_spec *keys, size_t nkeys, struct calib_result *res,
                            int *logit, struct cp_error *err)
{
    char name[128], other[128];
    if (nkeys == 0 || nkeys > CALIB_MAX_KEYS)
        return cp_fail(err, CP_EINPUT, "fit 1 to %d keys (not %zu)", CALIB_MAX_KEYS, nkeys);
    for (size_t j = 0; j < nkeys; j++) {
        int k = keys[j].key;
        if (k < 0 || (size_t)k >= hw_schema.nkeys || hw_schema.keys[k].type != DESC_NUM)
            return cp_fail(err, CP_EINPUT, "key %d is not a numeric hardware key", k);
        param_name(k, name, sizeof name);
        for (size_t i = 0; i < j; i++)
            if (keys[i].key == k &&
                (!keys[i].scope[0] || !keys[j].scope[0] || !strcmp(keys[i].scope, keys[j].scope)))
                return cp_fail(err, CP_EINPUT, "%s is named twice for the same points", name);
        size_t first = 0;
        while (first < npts && !calib_applies(&keys[j], &pts[first]))
            first++;
        if (first == npts)
            return cp_fail(err, CP_EINPUT, "%s:%s: no point is on system %s", keys[j].scope, name,
                           keys[j].scope);
        unsigned flags = hw_schema.keys[k].flags;
        double v0 = param_get(pts[first].c->hw, k);
        if (flags & DESC_INTEGER)
            return cp_fail(err, CP_EINPUT,
                           "cannot fit %s: it is a whole number, which least squares cannot fit",
                           name);
        if (v0 == 0)
            return cp_fail(err, CP_EINPUT,
                           "cannot fit %s: its starting value is 0 and the fit scales it; give a "
                           "nonzero start with --set %s=VALUE",
                           name, param_name(k, other, sizeof other));
        if ((flags & DESC_AT_MOST_1) && v0 >= 1)
            return cp_fail(err, CP_EINPUT,
                           "cannot fit %s: its starting value is 1, the edge of its range; give "
                           "a start between 0 and 1 with --set %s=VALUE",
                           name, param_name(k, other, sizeof other));
        logit[j] = (flags & DESC_AT_MOST_1) != 0;
        res->keys[j] = (struct calib_key){k, keys[j].scope, v0, v0, NAN, NULL};
    }
    return CP_OK;
}

/* Each point's value on its own hardware, and chi2 of those. */
static cp_status eval_before(struct calib_point *pts, size_t npts, struct calib_result *res,
                             struct cp_error *err)
{
    char at[32];
    for (size_t i = 0; i < npts; i++) {
        double m = calib_predict(pts[i].c, pts[i].c->hw, pts[i].quantity);
        point_name(&pts[i], i, at, sizeof at);
        if (!(m > 0) || !isfinite(m))
            return cp_fail(err, CP_EINPUT, "%s: the model gives no %s for it", at,
                           meas_quantity_name[pts[i].quantity]);
        if (!(pts[i].measured > 0) || !isfinite(pts[i].measured))
            return cp_fail(err, CP_EINPUT, "%s: the measured value must be positive", at);
        pts[i].before = pts[i].after = m;
        double r = log(m) - log(pts[i].measured);
        res->chi2_before += r * r;
    }
    return CP_OK;
}

/* The largest |d residual / d x| of key j over the points: how much the
 * points' figures depend on it, as an elasticity for a positive key. */
static double key_slope_max(const gsl_matrix *J, size_t j)
{
    double m = 0;
    for (size_t i = 0; i < J->size1; i++)
        m = fmax(m, fabs(gsl_matrix_get(J, i, j)));
    return m;
}

/* The cost reduction a Gauss-Newton step from here would predict,
 * g^T (J^T J)^-1 g with g = J^T r: 0 at a stationary point, whatever the
 * scale of the keys.  Uses cov as scratch; NAN if it cannot be computed. */
static double predicted_reduction(const gsl_matrix *J, const gsl_vector *r, gsl_matrix *cov)
{
    gsl_vector *g = gsl_vector_alloc(J->size2), *cg = gsl_vector_alloc(J->size2);
    double pred = NAN;
    if (g && cg && gsl_blas_dgemv(CblasTrans, 1.0, J, r, 0.0, g) == GSL_SUCCESS &&
        gsl_multifit_nlinear_covar(J, CALIB_COVAR_EPSREL, cov) == GSL_SUCCESS &&
        gsl_blas_dgemv(CblasNoTrans, 1.0, cov, g, 0.0, cg) == GSL_SUCCESS)
        gsl_blas_ddot(g, cg, &pred);
    gsl_vector_free(g);
    gsl_vector_free(cg);
    return pred;
}

/* A key the points' figures do not depend on at the solver's stop, in
 * res->stop: one they never depended on, or one that ran (from the start,
 * where they did) to where they no longer do.  1 if there is one. */
static int key_slack(const struct fit *f, const gsl_matrix *J, const gsl_vector *x,
                     struct calib_result *res)
{
    char name[128], v0[48], v[48];
    for (size_t j = 0; j < f->nkeys; j++) {
        if (key_slope_max(J, j) >= CALIB_MIN_SLOPE)
            continue;
        param_name(res->keys[j].key, name, sizeof name);
        unit_dim d = hw_schema.keys[res->keys[j].key].dim;
        if (f->slope0[j] < CALIB_MIN_SLOPE)
            snprintf(res->stop, sizeof res->stop,
                     "did not converge: no point's figure depends on %s", name);
        else
            snprintf(res->stop, sizeof res->stop,
                     "did not converge: %s ran from %s to %s, where no point's figure depends on "
                     "it any more; no value of it brings the model to the points",
                     name, unit_format(res->keys[j].start, d, v0, sizeof v0),
                     unit_format(key_value(f, j, gsl_vector_get(x, j)), d, v, sizeof v));
        return 1;
    }
    return 0;
}

/* Why the driver stopped, in words, and whether that is convergence (so
 * far: judge() looks at the points next). */
static void stop_reason(const struct fit *f, int st, int info, gsl_multifit_nlinear_workspace *w,
                        gsl_matrix *cov, struct calib_result *res)
{
    const gsl_matrix *J = gsl_multifit_nlinear_jac(w);
    const gsl_vector *r = gsl_multifit_nlinear_residual(w);
    if (key_slack(f, J, gsl_multifit_nlinear_position(w), res))
        return;
    double chi2, pred = predicted_reduction(J, r, cov);
    gsl_blas_ddot(r, r, &chi2);
    if (st == GSL_SUCCESS || (info == GSL_ENOPROG && pred <= CALIB_FLAT * chi2)) {
        res->converged = 1;
        snprintf(res->stop, sizeof res->stop, "converged: %s",
                 st != GSL_SUCCESS ? "no step lowers the residuals and none is predicted to"
                 : info == 1       ? "the last step was below the tolerance (xtol)"
                                   : "the gradient was below the tolerance (gtol)");
    } else if (info == GSL_ENOPROG) {
        snprintf(res->stop, sizeof res->stop,
                 "did not converge: no step lowers the residuals, though a %.2g reduction of "
                 "chi2 is predicted",
                 pred);
    } else if (st == GSL_EMAXITER) {
        snprintf(res->stop, sizeof res->stop, "did not converge in %d iterations", CALIB_MAX_ITER);
    } else {
        snprintf(res->stop, sizeof res->stop, "did not converge: %s", gsl_strerror(st));
    }
}

/* Point i against the residual the fit may leave; 0, or -1 with the
 * reason in res->stop. */
static int judge_residual(const struct calib_point *p, size_t i, struct calib_result *res)
{
    double tol = res->dof == 0 ? CALIB_EXACT_TOL : log(CALIB_MISS_FACTOR);
    double r = log(p->after / p->measured);
    char at[32], lim[128];
    if (fabs(r) <= tol)
        return 0;
    point_name(p, i, at, sizeof at);
    if (!isfinite(r)) {
        snprintf(res->stop, sizeof res->stop,
                 "did not converge: the model gives no figure for %s with the values found", at);
        return -1;
    }
    if (res->dof == 0)
        snprintf(lim, sizeof lim,
                 "where a fit with as many points as keys meets each, to %g in ln(model / "
                 "measured)",
                 CALIB_EXACT_TOL);
    else
        snprintf(lim, sizeof lim, "more than a factor of %g either way, the most a fit may leave",
                 CALIB_MISS_FACTOR);
    snprintf(res->stop, sizeof res->stop, "did not converge: %s is still off by %+.2f %%, %s", at,
             100 * (p->after / p->measured - 1), lim);
    return -1;
}

/* The solver converged: do the points agree with the values, and can every
 * command take them?  If not, res->converged is cleared with the reason. */
static void judge(const struct fit *f, struct calib_result *res)
{
    for (size_t i = 0; i < f->npts && res->converged; i++)
        if (judge_residual(&f->pts[i], i, res) != 0)
            res->converged = 0;
    for (size_t i = 0; i < f->npts && res->converged; i++) {
        struct hw_desc hw;
        struct cp_error err = {0};
        char at[32];
        calib_apply(res, f->spec, &f->pts[i], &hw);
        if (calib_check_hw(&f->pts[i], &hw, &err) != CP_OK) {
            res->converged = 0;
            snprintf(res->stop, sizeof res->stop,
                     "did not converge to values a command can use: with them, %s: %.400s",
                     point_name(&f->pts[i], i, at, sizeof at), err.msg);
        }
    }
}

/* A fit that did not converge with a point above what the model can give:
 * that point is the reason to name. */
static void name_ceiling(const struct fit *f, struct calib_result *res)
{
    char why[256];
    for (size_t i = 0; i < f->npts && !res->converged; i++)
        if (calib_beyond(&f->pts[i], i, why, sizeof why)) {
            snprintf(res->stop, sizeof res->stop,
                     "did not converge: %s; no value of the keys reaches it", why);
            return;
        }
}

/* Fitted values, each point's after, and the standard errors. */
static cp_status finish(struct fit *f, gsl_multifit_nlinear_workspace *w, gsl_matrix *cov,
                        struct calib_result *res, struct cp_error *err)
{
    gsl_vector *x = gsl_multifit_nlinear_position(w);
    gsl_vector *r = gsl_multifit_nlinear_residual(w);
    gsl_blas_ddot(r, r, &res->chi2);
    for (size_t i = 0; i < f->npts; i++)
        f->pts[i].after = set_keys(f, i, x) == 0
                              ? calib_predict(f->pts[i].c, &f->scratch[i], f->pts[i].quantity)
                              : NAN;
    for (size_t j = 0; j < f->nkeys; j++)
        res->keys[j].fitted = key_value(f, j, gsl_vector_get(x, j));
    if (res->dof == 0) {
        for (size_t j = 0; j < f->nkeys; j++)
            res->keys[j].se_why = "as many points as keys, dof = 0";
        return CP_OK;
    }
    const gsl_matrix *J = gsl_multifit_nlinear_jac(w);
    int any = 0;
    for (size_t j = 0; j < f->nkeys; j++)
        any |= key_slope_max(J, j) >= CALIB_MIN_SLOPE;
    int st = any ? gsl_multifit_nlinear_covar(J, CALIB_COVAR_EPSREL, cov) : GSL_FAILURE;
    if (any && st != GSL_SUCCESS)
        return cp_fail(err, CP_EINPUT, "covariance of the fit: %s", gsl_strerror(st));
    double scale = res->chi2 / (double)res->dof;
    for (size_t j = 0; j < f->nkeys; j++) {
        double c = any ? gsl_matrix_get(cov, j, j) : 0;
        struct calib_key *k = &res->keys[j];
        if (key_slope_max(J, j) < CALIB_MIN_SLOPE || !(c > 0) || !isfinite(c))
            k->se_why = "the points do not constrain it";
        else
            k->se = key_slope(f, j, k->fitted) * sqrt(c * scale);
    }
    return CP_OK;
}

static cp_status run(struct fit *f, struct calib_result *res, struct cp_error *err)
{
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.fdtype = GSL_MULTIFIT_NLINEAR_CTRDIFF;
    par.h_df = CALIB_FD_STEP;
    gsl_multifit_nlinear_fdf fdf = {
        .f = residuals, .df = NULL, .fvv = NULL, .n = f->npts, .p = f->nkeys, .params = f};
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, f->npts, f->nkeys);
    gsl_vector *x0 = gsl_vector_alloc(f->nkeys);
    gsl_matrix *cov = gsl_matrix_alloc(f->nkeys, f->nkeys);
    cp_status st = CP_OK;
    if (!w || !x0 || !cov) {
        st = cp_fail(err, CP_ENOMEM, "out of memory for the fit");
        goto out;
    }
    for (size_t j = 0; j < f->nkeys; j++) {
        double v0 = f->keys[j].start;
        gsl_vector_set(x0, j, f->logit[j] ? log(v0 / (1 - v0)) : 0.0);
    }
    int gs = gsl_multifit_nlinear_init(x0, &fdf, w);
    if (gs != GSL_SUCCESS) {
        st = cp_fail(err, CP_EINPUT, "the fit could not start: %s", gsl_strerror(gs));
        goto out;
    }
    for (size_t j = 0; j < f->nkeys; j++)
        f->slope0[j] = key_slope_max(gsl_multifit_nlinear_jac(w), j);
    int info = 0;
    gs = gsl_multifit_nlinear_driver(CALIB_MAX_ITER, CALIB_XTOL, CALIB_GTOL, CALIB_FTOL, NULL, NULL,
                                     &info, w);
    res->iterations = gsl_multifit_nlinear_niter(w);
    stop_reason(f, gs, info, w, cov, res);
    st = finish(f, w, cov, res, err);
    if (st == CP_OK && res->converged)
        judge(f, res);
    if (st == CP_OK)
        name_ceiling(f, res);
out:
    gsl_matrix_free(cov);
    gsl_vector_free(x0);
    if (w)
        gsl_multifit_nlinear_free(w);
    return st;
}

double calib_ceiling(const struct calib_point *p)
{
    return p->quantity == MEAS_SPEEDUP ? p->c->systems : INFINITY;
}

const char *calib_beyond(const struct calib_point *p, size_t i, char *buf, size_t n)
{
    double top = calib_ceiling(p);
    char at[32];
    if (!(p->measured > top))
        return NULL;
    snprintf(buf, n,
             "%s measures a speedup of %.4gx on %.0f system%s, above %.4gx, the most the model "
             "can give there (perfect weak scaling)",
             point_name(p, i, at, sizeof at), p->measured, p->c->systems,
             p->c->systems == 1 ? "" : "s", top);
    return buf;
}

cp_status calib_check_hw(const struct calib_point *p, const struct hw_desc *hw,
                         struct cp_error *err)
{
    char name[128];
    const char *sec, *key, *why = hw_inconsistency(hw, &sec, &key);
    if (why)
        return cp_fail(err, CP_EINPUT, "%s.%s: %s", sec, key, why);
    for (size_t i = 0; i < param_count(); i++) {
        int k = param_key(i);
        if (!param_valid(hw, k, param_get(hw, k)))
            return cp_fail(err, CP_EINPUT,
                           "%s = %g is not a value a hardware description may give it",
                           param_name(k, name, sizeof name), param_get(hw, k));
    }
    struct cluster c = *p->c;
    c.hw = hw;
    if (!c.overlap_set)
        c.overlap = hw->mx.boundary_overlap;
    return train_check(&c, err);
}

/* Is "section.key" a key of GPU descriptions (gpuhw_schema)? */
static int is_gpu_key(const char *tok)
{
    const char *dot = strchr(tok, '.');
    char sec[64];
    if (!dot || (size_t)(dot - tok) >= sizeof sec)
        return 0;
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - tok), tok);
    return desc_find(&gpuhw_schema, sec, dot + 1) >= 0;
}

cp_status calib_parse_keys(const char *list, struct calib_spec *out, size_t *n,
                           struct cp_error *err)
{
    char buf[1024];
    *n = 0;
    if (strlen(list) >= sizeof buf)
        return cp_fail(err, CP_EINPUT, "the list is longer than %zu bytes", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        tok += strspn(tok, " \t");
        for (size_t len = strlen(tok); len > 0 && strchr(" \t", tok[len - 1]); len--)
            tok[len - 1] = '\0';
        struct calib_spec k = {.key = -1};
        char *colon = strchr(tok, ':');
        if (colon) {
            *colon = '\0';
            if (colon == tok || (size_t)(colon - tok) >= sizeof k.scope)
                return cp_fail(err, CP_EINPUT, "'%s:%s': the system before ':' is %s", tok,
                               colon + 1, colon == tok ? "empty" : "too long");
            snprintf(k.scope, sizeof k.scope, "%s", tok);
            tok = colon + 1;
        }
        k.key = param_find(tok);
        if (k.key < 0 && strncmp(tok, HW_CHIP_SECTION ".", sizeof HW_CHIP_SECTION) == 0)
            return cp_fail(err, CP_EINPUT,
                           "'%s': a [chip] figure, which only claims reads; the model does not "
                           "use it, so it cannot be fitted",
                           tok);
        if (k.key < 0 && is_gpu_key(tok))
            return cp_fail(err, CP_EINPUT,
                           "'%s': a key of GPU descriptions; --fit fits weight-streaming hardware "
                           "keys (validate refits the GPU constants fit.* on GPU runs by itself)",
                           tok);
        if (k.key < 0)
            return cp_fail(err, CP_EINPUT,
                           "'%s': not a numeric hardware key (section.key, or SYSTEM:section.key; "
                           "'cerebras-plan show cs3' lists them)",
                           tok);
        if (hw_schema.keys[k.key].flags & DESC_INTEGER)
            return cp_fail(err, CP_EINPUT, "'%s': a whole-number key cannot be fitted", tok);
        for (size_t j = 0; j < *n; j++)
            if (out[j].key == k.key && strcmp(out[j].scope, k.scope) == 0)
                return cp_fail(err, CP_EINPUT, "'%s': named twice", tok);
        if (*n == CALIB_MAX_KEYS)
            return cp_fail(err, CP_EINPUT, "more than %d keys", CALIB_MAX_KEYS);
        out[(*n)++] = k;
    }
    if (*n == 0)
        return cp_fail(err, CP_EINPUT, "'%s': no key named", list);
    return CP_OK;
}

const char *calib_key_name(const struct calib_key *k, char *buf, size_t n)
{
    char name[128];
    param_name(k->key, name, sizeof name);
    snprintf(buf, n, "%s%s%s", k->scope, k->scope[0] ? ":" : "", name);
    return buf;
}

int calib_applies(const struct calib_spec *k, const struct calib_point *p)
{
    return k->scope[0] == '\0' || (p->system && strcmp(k->scope, p->system) == 0);
}

void calib_apply(const struct calib_result *res, const struct calib_spec *keys,
                 const struct calib_point *p, struct hw_desc *out)
{
    *out = *p->c->hw;
    for (size_t j = 0; j < res->nkeys; j++)
        if (calib_applies(&keys[j], p))
            *param_ptr(out, keys[j].key) = res->keys[j].fitted;
}

cp_status calib_fit(struct calib_point *pts, size_t npts, const struct calib_spec *keys,
                    size_t nkeys, struct calib_result *res, struct cp_error *err)
{
    *res = (struct calib_result){.nkeys = nkeys, .npoints = npts};
    struct fit f = {.pts = pts, .npts = npts, .nkeys = nkeys, .keys = res->keys, .spec = keys};
    if (npts == 0)
        return cp_fail(err, CP_EINPUT, "no points to fit");
    cp_status st = check_keys(pts, npts, keys, nkeys, res, f.logit, err);
    if (st != CP_OK)
        return st;
    if (npts < nkeys)
        return cp_fail(err, CP_EINPUT, "%zu keys need at least %zu points (there %s %zu)", nkeys,
                       nkeys, npts == 1 ? "is" : "are", npts);
    res->dof = npts - nkeys;
    if ((st = eval_before(pts, npts, res, err)) != CP_OK)
        return st;
    f.scratch = xmalloc(npts * sizeof *f.scratch);
    st = run(&f, res, err);
    free(f.scratch);
    return st;
}
