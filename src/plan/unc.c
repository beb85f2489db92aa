/* unc.c - Monte Carlo over the hardware description's +- ranges (see
 * unc.h for the distribution, the redraw rule and the percentiles). */
#include "unc.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../base/xalloc.h"

/* Half-width of the range of the kind's parameter i in src, or 0. */
static double key_spread(const struct tm_kind *k, const struct desc_src *src, size_t i)
{
    double s = src->spread[k->param_index(i)];
    return s > 0 ? s : 0;
}

static size_t count_ranged(const struct tm_kind *k, const struct desc_src *src)
{
    size_t n = 0;
    for (size_t i = 0; i < k->nparams(); i++)
        n += key_spread(k, src, i) > 0;
    return n;
}

/* The index of the kind's model-error parameter (tm.h model_error_key),
 * or -1 when it names none. */
static long error_param(const struct tm_kind *k)
{
    char name[96];
    for (size_t i = 0; k->model_error_key && i < k->nparams(); i++)
        if (strcmp(k->param_name(i, name, sizeof name), k->model_error_key) == 0)
            return (long)i;
    return -1;
}

double unc_model_error(const struct tm_job *j)
{
    long e = error_param(j->kind);
    return e < 0 ? 0 : j->kind->param_get(j->own, (size_t)e);
}

/* The ranged parameters of job j: each one's index, value and half-width,
 * in the kind's order (listed once for all the draws of a run), and the
 * model-error parameter's index (-1: none). */
struct ranged {
    long err;
    size_t n;
    struct {
        size_t i;
        double v, s;
    } p[DESC_MAX_KEYS];
};

static void ranged_list(const struct tm_job *j, const struct desc_src *src, struct ranged *r)
{
    const struct tm_kind *k = j->kind;
    size_t np = k->nparams();
    r->n = 0;
    r->err = error_param(k);
    for (size_t i = 0; i < np && r->n < DESC_MAX_KEYS; i++) {
        double s = key_spread(k, src, i);
        if (s > 0) {
            r->p[r->n].i = i;
            r->p[r->n].v = k->param_get(j->own, i);
            r->p[r->n++].s = s;
        }
    }
}

/* One draw of the parameters of r into a clone of j made in buf. */
static cp_status draw(const struct tm_job *j, const struct ranged *r, gsl_rng *rng, void *buf,
                      void **drawn, struct cp_error *err)
{
    const struct tm_kind *k = j->kind;
    void *c = k->clone(j->own, buf);
    *drawn = c;
    for (size_t q = 0; q < r->n; q++) {
        size_t i = r->p[q].i;
        double v = r->p[q].v, s = r->p[q].s, x = 0;
        int tries = 0;
        do {
            if (tries++ == UNC_MAX_REDRAWS) {
                char name[96];
                return cp_fail(err, CP_EINPUT,
                               "uncertainty: %s = %g +- %g: no valid value in %d draws",
                               k->param_name(i, name, sizeof name), v, s, UNC_MAX_REDRAWS);
            }
            x = v - s + 2 * s * gsl_rng_uniform(rng);
        } while (!k->param_valid(c, i, x));
        k->param_set(c, i, x);
    }
    return CP_OK;
}

cp_status unc_job_draw(const struct tm_job *j, const struct desc_src *src, gsl_rng *rng,
                       void *buf, void **drawn, struct cp_error *err)
{
    struct ranged r;
    ranged_list(j, src, &r);
    return draw(j, &r, rng, buf, drawn, err);
}

struct unc_band unc_band_of(double *data, size_t n)
{
    gsl_sort(data, 1, n);
    if (data[0] == data[n - 1]) /* every draw the same: exactly it (the
                                   interpolation may round off a bit) */
        return (struct unc_band){data[0], data[0], data[0], data[0], data[0]};
    return (struct unc_band){
        .p05 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.05),
        .p10 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.10),
        .p50 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.50),
        .p90 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.90),
        .p95 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.95),
    };
}

/* One evaluation of job at count into draw slot i of d; a result that
 * does not run, or with a figure that is not finite, is CP_EINPUT (draw
 * 0: the job itself; N: draw N of the +- ranges). */
static cp_status eval_one(const struct tm_job *job, double count, enum tm_scaling mode,
                          void *detail, size_t draw, struct unc_draws *d, size_t i,
                          struct cp_error *err)
{
    struct tm_result r;
    memset(detail, 0, job->kind->detail_size); /* the description may differ */
    cp_status st = tm_eval(job, count, mode, &r, detail, err);
    if (st != CP_OK)
        return st;
    if (!r.runs)
        return draw ? cp_fail(err, CP_EINPUT, "uncertainty: draw %zu of the +- ranges: %s", draw,
                              r.why)
                    : cp_fail(err, CP_EINPUT, "uncertainty: %s", r.why);
    /* the same finiteness gate as every other producer (train_check):
     * a draw that leaves the representable range is refused, never
     * sorted into the percentiles */
    const char *bad = job->kind->nonfinite(&r, detail);
    if (bad)
        return cp_fail(err, CP_EINPUT,
                       "uncertainty: draw %zu of the +- ranges gives a %s that is not a "
                       "finite number; narrow the ranges (see show --csv, column spread)",
                       draw, bad);
    d->step_s[i] = r.step_s;
    d->time_s[i] = r.time_s;
    d->energy_J[i] = r.energy_J;
    d->cost[i] = r.cost;
    d->feasible[i] = (unsigned char)(r.feasible != 0);
    return CP_OK;
}

/* Draw slot i of d times f, the model's own error in this draw (a cost
 * below 0, no price, stays as it is). */
static void scale_draw(struct unc_draws *d, size_t i, double f)
{
    d->step_s[i] *= f;
    d->time_s[i] *= f;
    d->energy_J[i] *= f;
    if (d->cost[i] >= 0)
        d->cost[i] *= f;
}

/* Evaluate the d->n draws of j into d: each a draw of the ranged keys,
 * then (when the kind states a model error) a factor uniform in 1 +- the
 * drawn description's model error. */
static cp_status sample(const struct tm_job *j, const struct desc_src *src, double count,
                        enum tm_scaling mode, gsl_rng *rng, struct unc_draws *d,
                        struct cp_error *err)
{
    const struct tm_kind *k = j->kind;
    void *buf = xmalloc(k->clone_size), *detail = xmalloc(k->detail_size), *drawn;
    struct ranged r;
    ranged_list(j, src, &r);
    cp_status st = CP_OK;
    for (size_t i = 0; i < d->n && st == CP_OK; i++) {
        st = draw(j, &r, rng, buf, &drawn, err);
        struct tm_job dj = {k, drawn, j->count};
        if (st == CP_OK)
            st = eval_one(&dj, count, mode, detail, i + 1, d, i, err);
        if (st == CP_OK && r.err >= 0)
            scale_draw(d, i, 1 + k->param_get(drawn, (size_t)r.err) * (2 * gsl_rng_uniform(rng) - 1));
    }
    free(buf);
    free(detail);
    return st;
}

void unc_draws_free(struct unc_draws *d)
{
    free(d->step_s);
    free(d->feasible);
    d->step_s = d->time_s = d->energy_J = d->cost = NULL;
    d->feasible = NULL;
}

/* d's arrays for n draws; 0, or -1 when out of memory (d freed). */
static int draws_alloc(struct unc_draws *d, size_t n)
{
    *d = (struct unc_draws){.n = n};
    d->step_s = malloc(4 * n * sizeof *d->step_s);
    d->feasible = malloc(n);
    if (!d->step_s || !d->feasible) {
        unc_draws_free(d);
        return -1;
    }
    d->time_s = d->step_s + n;
    d->energy_J = d->step_s + 2 * n;
    d->cost = d->step_s + 3 * n;
    return 0;
}

cp_status unc_job_draws(const struct tm_job *j, const struct desc_src *src, double count,
                        enum tm_scaling mode, size_t samples, unsigned long seed,
                        struct unc_draws *d, struct cp_error *err)
{
    if (samples == 0 || samples > UNC_MAX_SAMPLES)
        return cp_fail(err, CP_EINPUT, "uncertainty: %zu samples: must be from 1 to %d", samples,
                       UNC_MAX_SAMPLES);
    if (draws_alloc(d, samples) != 0)
        return cp_fail(err, CP_ENOMEM, "uncertainty: out of memory for %zu samples", samples);
    d->ranged = count_ranged(j->kind, src);
    d->model_error = unc_model_error(j);
    cp_status st;
    if (d->ranged == 0 && !(d->model_error > 0)) {
        /* nothing drawn: the point estimate, exactly, in every draw */
        void *detail = xmalloc(j->kind->detail_size);
        st = eval_one(j, count, mode, detail, 0, d, 0, err);
        free(detail);
        for (size_t i = 1; st == CP_OK && i < samples; i++) {
            d->step_s[i] = d->step_s[0], d->time_s[i] = d->time_s[0];
            d->energy_J[i] = d->energy_J[0], d->cost[i] = d->cost[0];
            d->feasible[i] = d->feasible[0];
        }
    } else {
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng) {
            unc_draws_free(d);
            return cp_fail(err, CP_ENOMEM, "uncertainty: out of memory for the generator");
        }
        gsl_rng_set(rng, seed);
        st = sample(j, src, count, mode, rng, d, err);
        gsl_rng_free(rng);
    }
    if (st != CP_OK)
        unc_draws_free(d);
    return st;
}

double unc_share(const struct unc_draws *d, const double limit[PLAN_NMETRICS])
{
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++) {
        const double v[PLAN_NMETRICS] = {d->time_s[i], d->energy_J[i], d->cost[i]};
        int meets = d->feasible[i];
        for (int m = 0; m < PLAN_NMETRICS && meets; m++)
            meets = !(limit[m] > 0) || (v[m] <= limit[m] && (m != PLAN_COST || v[m] >= 0));
        k += (size_t)meets;
    }
    return d->n ? (double)k / (double)d->n : 0;
}

cp_status unc_job_run(const struct tm_job *j, const struct desc_src *src, double count,
                      enum tm_scaling mode, size_t samples, unsigned long seed,
                      struct unc_result *r, double *times, struct cp_error *err)
{
    struct unc_draws d;
    cp_status st = unc_job_draws(j, src, count, mode, samples, seed, &d, err);
    if (st != CP_OK)
        return st;
    if (times)
        memcpy(times, d.time_s, samples * sizeof *times);
    *r = (struct unc_result){.samples = samples, .ranged = d.ranged, .model_error = d.model_error};
    r->step_s = unc_band_of(d.step_s, samples);
    r->time_s = unc_band_of(d.time_s, samples);
    r->energy_J = unc_band_of(d.energy_J, samples);
    unc_draws_free(&d);
    return CP_OK;
}
