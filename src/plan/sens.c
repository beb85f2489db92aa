/* sens.c - elasticities of time-to-train (or energy, or cost) to the numeric hardware keys (the
 * method, the step and the treatment of kinks and whole-number keys are in
 * sens.h). */
#include "sens.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_deriv.h>
#include <gsl/gsl_errno.h>

#include "../base/xalloc.h"

/* The function GSL differentiates: ln time with one key changed. */
struct sens_fn {
    const struct tm_job *j;
    size_t param;
    double p0;    /* the key's value in j's description */
    void *detail; /* j->kind->detail_size bytes, the evaluations' */
    enum sens_metric metric;
};

const char *sens_metric_name(enum sens_metric m)
{
    return m == SENS_ENERGY ? "energy" : m == SENS_COST ? "cost" : "time-to-train";
}

const char *sens_metric_word(enum sens_metric m)
{
    return m == SENS_ENERGY ? "energy" : m == SENS_COST ? "cost" : "time";
}

/* ln of the metric with the key at v; NaN when the job does not run there
 * or the metric is not finite and positive (a cost of -1: not priced). */
static double ln_time_at(struct sens_fn *f, double v)
{
    struct tm_result r;
    struct cp_error err = {0};
    if (tm_param_eval(f->j, f->param, v, 0, TM_STRONG, &r, f->detail, &err) != CP_OK || !r.runs)
        return NAN;
    double x = f->metric == SENS_ENERGY ? r.energy_J : f->metric == SENS_COST ? r.cost : r.time_s;
    return x > 0 && isfinite(x) ? log(x) : NAN;
}

/* f(u) = ln time(p0 e^u), for gsl_function. */
static double ln_time_u(double u, void *arg)
{
    struct sens_fn *f = arg;
    return ln_time_at(f, f->p0 * exp(u));
}

static int valid(const struct sens_fn *f, double v)
{
    return f->j->kind->param_valid(f->j->own, f->param, v);
}

/* A GSL derivative of F at 0 into *d and *err; NaN when GSL fails or the
 * result is not finite. */
typedef int (*deriv_fn)(const gsl_function *, double, double, double *, double *);
static double deriv(deriv_fn how, gsl_function *F, double *err)
{
    double d = NAN, e = NAN;
    if (how(F, 0, SENS_STEP, &d, &e) != GSL_SUCCESS || !isfinite(d))
        d = NAN, e = NAN;
    if (err)
        *err = e;
    return d;
}

/* A continuous key: central difference in ln(value), one-sided where one
 * side leaves the valid values, and the one-sided slopes for kinks. */
static void row_smooth(struct sens_fn *f, struct sens_row *row)
{
    gsl_function F = {ln_time_u, f};
    int up = valid(f, f->p0 * exp(SENS_STEP)), down = valid(f, f->p0 * exp(-SENS_STEP));
    double err_up = NAN, err_down = NAN;
    row->above = up ? deriv(gsl_deriv_forward, &F, &err_up) : NAN;
    row->below = down ? deriv(gsl_deriv_backward, &F, &err_down) : NAN;
    if (up && down) {
        row->elasticity = deriv(gsl_deriv_central, &F, &row->abserr);
    } else if (up) {
        row->elasticity = row->above, row->abserr = err_up;
    } else if (down) {
        row->elasticity = row->below, row->abserr = err_down;
    }
}

/* A whole-number key: arc elasticities to the nearest whole values at
 * least a unit and about SENS_STEP in ln(value) away. */
static void row_whole(struct sens_fn *f, struct sens_row *row)
{
    double v = f->p0, f0 = ln_time_at(f, v);
    double hi = fmax(v + 1, ceil(v * exp(SENS_STEP)));
    double lo = fmin(v - 1, floor(v * exp(-SENS_STEP)));
    double f_hi = NAN, f_lo = NAN;
    row->step = 1;
    row->hi = row->lo = NAN;
    if (valid(f, hi)) {
        row->hi = hi, f_hi = ln_time_at(f, hi);
        row->above = (f_hi - f0) / log(hi / v);
    }
    if (lo > 0 && valid(f, lo)) {
        row->lo = lo, f_lo = ln_time_at(f, lo);
        row->below = (f0 - f_lo) / log(v / lo);
    }
    if (isfinite(row->above) && isfinite(row->below))
        row->elasticity = (f_hi - f_lo) / log(hi / lo);
    else
        row->elasticity = isfinite(row->above) ? row->above : row->below;
    row->abserr = isfinite(row->elasticity) ? 0 : NAN;
}

static void sens_key(struct sens_fn *f, const struct desc_src *src, struct sens_row *row)
{
    const struct tm_kind *k = f->j->kind;
    int key = k->param_index(f->param);
    *row = (struct sens_row){.param = f->param,
                             .key = key,
                             .value = k->param_get(f->j->own, f->param),
                             .spread = src ? src->spread[key] : 0,
                             .elasticity = NAN,
                             .abserr = NAN,
                             .below = NAN,
                             .above = NAN,
                             .lo = NAN,
                             .hi = NAN};
    if (row->value == 0)
        return;
    f->p0 = row->value;
    if (k->param_whole(f->param))
        row_whole(f, row);
    else
        row_smooth(f, row);
    row->defined = isfinite(row->elasticity);
    row->kink = isfinite(row->above) && isfinite(row->below) &&
                fabs(row->above - row->below) > SENS_KINK_TOL;
    if (!row->defined)
        row->elasticity = row->abserr = NAN;
}

/* Defined rows first by |elasticity| descending, then schema order. */
static int by_size(const void *pa, const void *pb)
{
    const struct sens_row *a = pa, *b = pb;
    if (a->defined != b->defined)
        return a->defined ? -1 : 1;
    if (a->defined) {
        double x = fabs(a->elasticity), y = fabs(b->elasticity);
        if (x != y)
            return x > y ? -1 : 1;
    }
    return (a->key > b->key) - (a->key < b->key);
}

size_t sens_run(const struct tm_job *j, const struct desc_src *src, struct sens_row *rows)
{
    return sens_run_of(j, src, SENS_TIME, rows);
}

size_t sens_run_of(const struct tm_job *j, const struct desc_src *src, enum sens_metric m,
                   struct sens_row *rows)
{
    size_t n = j->kind->nparams();
    struct sens_fn f = {.j = j, .detail = xmalloc(j->kind->detail_size), .metric = m};
    memset(f.detail, 0, j->kind->detail_size); /* no divisors listed yet */
    for (size_t i = 0; i < n; i++) {
        f.param = i;
        sens_key(&f, src, &rows[i]);
    }
    free(f.detail);
    qsort(rows, n, sizeof rows[0], by_size);
    return n;
}
