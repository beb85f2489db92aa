/* unc_opt.c - the --uncertainty option of estimate, scale and plan. */
#include "unc_opt.h"

#include <stdio.h>
#include <stdlib.h>

#include "../base/xalloc.h"
#include "../plan/unc.h"

/* --uncertainty's count (from min up; 0 turns the draws off) and --seed
 * into u; --seed without draws refused unless seed_alone.  -1, or an exit
 * code after a message. */
static int parse_draws(const struct cli_opts *o, double min, int seed_alone, struct unc_opt *u)
{
    double v;
    int rc;
    if (o->uncertainty && *o->uncertainty) {
        if ((rc = scenario_whole_opt("--uncertainty", o->uncertainty, min, UNC_MAX_SAMPLES, &v)) >=
            0)
            return rc;
        u->samples = (size_t)v;
        u->on = v > 0;
    }
    if (o->seed) {
        if (!u->on && !seed_alone)
            return cli_error("--seed: only with --uncertainty");
        if ((rc = scenario_whole_opt("--seed", o->seed, 0, 4294967295.0, &v)) >= 0)
            return rc;
        u->seed = (unsigned long)v;
    }
    return -1;
}

int unc_opt_parse(const struct cli_opts *o, struct unc_opt *u)
{
    *u = (struct unc_opt){o->uncertainty != NULL, UNC_DEFAULT_SAMPLES, UNC_DEFAULT_SEED, 0};
    return parse_draws(o, 1, 0, u);
}

int unc_opt_parse_plan(const struct cli_opts *o, struct unc_opt *u)
{
    *u = (struct unc_opt){1, o->uncertainty ? UNC_DEFAULT_SAMPLES : UNC_COMMAND_SAMPLES,
                          UNC_DEFAULT_SEED, 0};
    int rc = parse_draws(o, 0, 1, u);
    if (rc >= 0)
        return rc;
    if (!o->confidence)
        return -1;
    char *end;
    u->confidence = strtod(o->confidence, &end);
    if (end == o->confidence || *end || !(u->confidence > 0 && u->confidence < 1))
        return cli_error("--confidence '%s': must be a share of the draws above 0 and below 1 "
                         "(0.9: nine draws in ten)",
                         o->confidence);
    if (!u->on)
        return cli_error("--confidence: needs the draws (--uncertainty=0 turns them off)");
    return -1;
}

int unc_opt_conf_targets(const struct unc_opt *u, const struct cli_opts *o)
{
    if (u->confidence > 0 && o->budget && !o->deadline && !o->energy)
        return cli_error("--confidence: plans the fewest that meet a --deadline or an --energy "
                         "limit; with --budget alone the plan is the fastest within it");
    return -1;
}

/* The draws for a; times (may be NULL) gets each draw's time-to-train. */
static int run(const struct unc_opt *u, const struct unc_at *a, const struct desc_src *src,
               struct unc_result *r, double *times)
{
    struct cp_error err = {0};
    if (unc_job_run(&a->job, src, a->count, a->mode, u->samples, u->seed, r, times, &err) !=
        CP_OK)
        return cli_error("--uncertainty: %s", err.msg);
    return -1;
}

void unc_opt_head(const struct unc_opt *u, const struct tm_job *j, const struct unc_result *r)
{
    char e[160] = "";
    if (r->model_error > 0)
        snprintf(e, sizeof e, "%s the model's own error (%s +- %.3g %%)", r->ranged ? " and" : "",
                 j->kind->model_error_key, 100 * r->model_error);
    if (r->ranged == 0 && !(r->model_error > 0))
        printf("uncertainty: no hardware key has a +- range, so the band is the point "
               "estimate\n(give ranges with --set 'section.key=VALUE+-SPREAD'); P50 [P10, P90] "
               "of the draws\n");
    else if (r->ranged == 0)
        printf("uncertainty: %zu draws of%s (seed %lu); P50 [P10, P90]\n", r->samples, e, u->seed);
    else
        printf("uncertainty: %zu draws of the %zu hardware keys with a +- range%s (seed %lu);\n"
               "P50 [P10, P90]\n",
               r->samples, r->ranged, e, u->seed);
}

const char *unc_opt_band(const struct unc_band *b, unit_dim d, int duration, char *buf, size_t n)
{
    char a[3][48];
    const double v[3] = {b->p10, b->p50, b->p90};
    for (int i = 0; i < 3; i++) {
        if (duration)
            out_duration(v[i], a[i], sizeof a[i]);
        else if (d == UNIT_ENERGY)
            out_energy(v[i], a[i], sizeof a[i]);
        else
            unit_format(v[i], d, a[i], sizeof a[i]);
    }
    snprintf(buf, n, "%s [%s, %s]", a[1], a[0], a[2]);
    return buf;
}

int unc_opt_print(const struct unc_opt *u, const struct unc_at *a, const struct desc_src *src,
                  double deadline)
{
    if (!u->on)
        return -1;
    struct unc_result r;
    double *times = deadline > 0 ? xmalloc(u->samples * sizeof *times) : NULL;
    int rc = run(u, a, src, &r, times);
    if (rc >= 0) {
        free(times);
        return rc;
    }
    char b[160];
    printf("\n");
    unc_opt_head(u, &a->job, &r);
    printf("  step time      %s\n", unc_opt_band(&r.step_s, UNIT_TIME, 0, b, sizeof b));
    printf("  time to train  %s\n", unc_opt_band(&r.time_s, UNIT_TIME, 1, b, sizeof b));
    printf("  energy         %s\n", unc_opt_band(&r.energy_J, UNIT_ENERGY, 0, b, sizeof b));
    if (times) {
        size_t k = 0;
        for (size_t i = 0; i < r.samples; i++)
            k += times[i] <= deadline;
        printf("  meets the deadline in %.1f %% of draws\n", 100.0 * (double)k / (double)r.samples);
        free(times);
    }
    return -1;
}

static const char *const csv_cols[] = {
    "step_time_p10_s",     "step_time_p50_s",     "step_time_p90_s",
    "time_to_train_p10_s", "time_to_train_p50_s", "time_to_train_p90_s",
};
static const char *const text_cols[] = {"step time P50 [P10, P90]",
                                        "time to train P50 [P10, P90]"};

int unc_opt_columns(const struct unc_opt *u, const struct unc_at *a, size_t n,
                    const struct desc_src *src, int csv, struct out_table *t)
{
    if (!u->on)
        return -1;
    size_t old = t->ncols, add = csv ? 6 : 2;
    /* the header must outlive t: keep the widest one built so far */
    static const char *hdr[128];
    if (old + add > sizeof hdr / sizeof hdr[0])
        return cli_error("--uncertainty: table too wide");
    for (size_t c = 0; c < old; c++)
        hdr[c] = t->header[c];
    for (size_t c = 0; c < add; c++)
        hdr[old + c] = csv ? csv_cols[c] : text_cols[c];
    out_widen(t, old + add, hdr);
    for (size_t i = 0; i < t->nrows; i++) {
        if (i >= n || a[i].skip) {
            for (size_t c = 0; c < add; c++)
                out_set(t, i, old + c, csv ? "" : "-");
            continue;
        }
        struct unc_result r;
        int rc = run(u, &a[i], src, &r, NULL);
        if (rc >= 0)
            return rc;
        char b[160];
        if (csv) {
            const double v[6] = {r.step_s.p10, r.step_s.p50, r.step_s.p90,
                                 r.time_s.p10, r.time_s.p50, r.time_s.p90};
            for (size_t c = 0; c < 6; c++)
                out_set(t, i, old + c, unit_format_exact(v[c], b, sizeof b));
        } else {
            out_set(t, i, old, unc_opt_band(&r.step_s, UNIT_TIME, 0, b, sizeof b));
            out_set(t, i, old + 1, unc_opt_band(&r.time_s, UNIT_TIME, 1, b, sizeof b));
        }
    }
    return -1;
}
