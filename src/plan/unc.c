/* unc.c - Monte Carlo over the hardware description's +- ranges (see
 * unc.h for the distribution, the redraw rule and the percentiles). */
#include "unc.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../model/param.h"

/* Half-width of schema key k's range, or 0 when it has none (or is not a
 * number the model takes as a parameter). */
static double key_spread(const struct desc_src *src, size_t k)
{
    if (hw_schema.keys[k].type != DESC_NUM || !(src->spread[k] > 0))
        return 0;
    return src->spread[k];
}

static size_t count_ranged(const struct desc_src *src)
{
    size_t n = 0;
    for (size_t k = 0; k < hw_schema.nkeys; k++)
        n += key_spread(src, k) > 0;
    return n;
}

cp_status unc_draw(const struct hw_desc *hw, const struct desc_src *src, gsl_rng *rng,
                   struct hw_desc *out, struct cp_error *err)
{
    *out = *hw;
    for (size_t k = 0; k < hw_schema.nkeys; k++) {
        double s = key_spread(src, k);
        if (s == 0)
            continue;
        double v = param_get(hw, (int)k), x = 0;
        int tries = 0;
        do {
            if (tries++ == UNC_MAX_REDRAWS) {
                char name[96];
                return cp_fail(err, CP_EINPUT,
                               "uncertainty: %s = %g +- %g: no valid value in %d draws",
                               param_name((int)k, name, sizeof name), v, s, UNC_MAX_REDRAWS);
            }
            x = v - s + 2 * s * gsl_rng_uniform(rng);
        } while (!param_valid(out, (int)k, x));
        *param_ptr(out, (int)k) = x;
    }
    return CP_OK;
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

/* No ranged key: the point estimate, exactly, in every band. */
static void point_result(const struct cluster *base, size_t samples, struct unc_result *r,
                         double *times)
{
    struct train_result tr;
    param_eval(base, base->hw, &tr);
    *r = (struct unc_result){.samples = samples, .ranged = 0};
    r->step_s = band_point(tr.step.step_s);
    r->time_s = band_point(tr.time_s);
    r->energy_J = band_point(tr.energy_J);
    for (size_t i = 0; times && i < samples; i++)
        times[i] = tr.time_s;
}

/* Evaluate n draws into step[], time[], energy[]. */
static cp_status sample(const struct cluster *base, const struct desc_src *src, gsl_rng *rng,
                        size_t n, double *step, double *time, double *energy, struct cp_error *err)
{
    for (size_t i = 0; i < n; i++) {
        struct hw_desc hw;
        cp_status st = unc_draw(base->hw, src, rng, &hw, err);
        if (st != CP_OK)
            return st;
        struct train_result tr;
        param_eval(base, &hw, &tr);
        /* the same finiteness gate as every other producer (train_check):
         * a draw that leaves the representable range is refused, never
         * sorted into the percentiles */
        const char *bad = train_nonfinite(&tr);
        if (bad)
            return cp_fail(err, CP_EINPUT,
                           "uncertainty: draw %zu of the +- ranges gives a %s that is not a "
                           "finite number; narrow the ranges (see show --csv, column spread)",
                           i + 1, bad);
        step[i] = tr.step.step_s;
        time[i] = tr.time_s;
        energy[i] = tr.energy_J;
    }
    return CP_OK;
}

cp_status unc_run(const struct cluster *base, const struct desc_src *src, size_t samples,
                  unsigned long seed, struct unc_result *r, double *times, struct cp_error *err)
{
    if (samples == 0 || samples > UNC_MAX_SAMPLES)
        return cp_fail(err, CP_EINPUT, "uncertainty: %zu samples: must be from 1 to %d", samples,
                       UNC_MAX_SAMPLES);
    size_t ranged = count_ranged(src);
    if (ranged == 0) {
        point_result(base, samples, r, times);
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
    cp_status st = sample(base, src, rng, samples, step, time, energy, err);
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
