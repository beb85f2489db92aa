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

/* The ranged parameters of job j: each one's index, value and half-width,
 * in the kind's order (listed once for all the draws of a run). */
struct ranged {
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

/* Sort data (n values) in place and take its 5/50/95 % quantiles. */
static struct unc_band band_of(double *data, size_t n)
{
    gsl_sort(data, 1, n);
    return (struct unc_band){
        .p05 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.05),
        .p50 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.50),
        .p95 = gsl_stats_quantile_from_sorted_data(data, 1, n, 0.95),
    };
}

static struct unc_band band_point(double v)
{
    return (struct unc_band){v, v, v};
}

/* One evaluation of job at count into step, time and energy; a result
 * that does not run, or with a figure that is not finite, is CP_EINPUT
 * (what: "" for the job itself, or " of draw N of the +- ranges"). */
static cp_status eval_one(const struct tm_job *job, double count, enum tm_scaling mode,
                          void *detail, size_t draw, double *step, double *time, double *energy,
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
    *step = r.step_s;
    *time = r.time_s;
    *energy = r.energy_J;
    return CP_OK;
}

/* Evaluate n draws into step[], time[], energy[]. */
static cp_status sample(const struct tm_job *j, const struct desc_src *src, double count,
                        enum tm_scaling mode, gsl_rng *rng, size_t n, double *step, double *time,
                        double *energy, struct cp_error *err)
{
    const struct tm_kind *k = j->kind;
    void *buf = xmalloc(k->clone_size), *detail = xmalloc(k->detail_size), *drawn;
    struct ranged r;
    ranged_list(j, src, &r);
    cp_status st = CP_OK;
    for (size_t i = 0; i < n && st == CP_OK; i++) {
        st = draw(j, &r, rng, buf, &drawn, err);
        struct tm_job dj = {k, drawn, j->count};
        if (st == CP_OK)
            st = eval_one(&dj, count, mode, detail, i + 1, &step[i], &time[i], &energy[i], err);
    }
    free(buf);
    free(detail);
    return st;
}

cp_status unc_job_run(const struct tm_job *j, const struct desc_src *src, double count,
                      enum tm_scaling mode, size_t samples, unsigned long seed,
                      struct unc_result *r, double *times, struct cp_error *err)
{
    if (samples == 0 || samples > UNC_MAX_SAMPLES)
        return cp_fail(err, CP_EINPUT, "uncertainty: %zu samples: must be from 1 to %d", samples,
                       UNC_MAX_SAMPLES);
    size_t ranged = count_ranged(j->kind, src);
    if (ranged == 0) {
        /* no ranged key: the point estimate, exactly, in every band */
        double step, time, energy;
        void *detail = xmalloc(j->kind->detail_size);
        cp_status st = eval_one(j, count, mode, detail, 0, &step, &time, &energy, err);
        free(detail);
        if (st != CP_OK)
            return st;
        *r = (struct unc_result){.samples = samples, .ranged = 0};
        r->step_s = band_point(step);
        r->time_s = band_point(time);
        r->energy_J = band_point(energy);
        for (size_t i = 0; times && i < samples; i++)
            times[i] = time;
        return CP_OK;
    }
    double *buf = malloc(3 * samples * sizeof *buf);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!buf || !rng) {
        free(buf);
        if (rng)
            gsl_rng_free(rng);
        return cp_fail(err, CP_ENOMEM, "uncertainty: out of memory for %zu samples", samples);
    }
    gsl_rng_set(rng, seed);
    double *step = buf, *time = buf + samples, *energy = buf + 2 * samples;
    cp_status st = sample(j, src, count, mode, rng, samples, step, time, energy, err);
    if (st == CP_OK) {
        if (times)
            memcpy(times, time, samples * sizeof *times);
        *r = (struct unc_result){.samples = samples, .ranged = ranged};
        r->step_s = band_of(step, samples);
        r->time_s = band_of(time, samples);
        r->energy_J = band_of(energy, samples);
    }
    gsl_rng_free(rng);
    free(buf);
    return st;
}
