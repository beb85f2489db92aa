/* report_unc.c - the report's bands (report_unc.h). */
#include "report_unc.h"

#include <math.h>
#include <string.h>

/* The comparison the bands are of and the bands. */
struct report_unc_res {
    struct cmp_result r;
    struct cmp_bands b;
};

/* One row per quantity of one side (or the ratio) of u's bands. */
static void side_rows(struct out_table *t, const char *side, const char *system, double units,
                      const struct unc_band *const b[3], const char *const unit[3])
{
    static const char *const quantity[] = {"step_time", "time_to_train", "energy"};
    char n[32], v[3][40];
    if (isnan(units))
        n[0] = '\0';
    else
        unit_format_exact(units, n, sizeof n);
    for (int i = 0; i < 3; i++) {
        if (!b[i])
            continue;
        const double p[3] = {b[i]->p10, b[i]->p50, b[i]->p90};
        for (int k = 0; k < 3; k++)
            unit_format_exact(p[k], v[k], sizeof v[k]);
        out_row(t, (const char *[]){side, system, n, quantity[i], unit[i], v[0], v[1], v[2]});
    }
}

int report_unc_table(const struct scenario *s, struct report_cmp *x, struct out_table *t)
{
    static const char *const hdr[] = {"side", "system", "units", "quantity",
                                      "unit", "p10",    "p50",   "p90"};
    static struct report_unc_res u;
    memset(&u, 0, sizeof u);
    out_init(t, 8, hdr);
    struct cp_error err = {0};
    if (cmp_run(&x->spec, &u.r, &err) != CP_OK ||
        cmp_bands(&x->spec, &u.r, &s->hw_src, &x->src, REPORT_UNC_SAMPLES, REPORT_UNC_SEED, &u.b,
                  &err) != CP_OK)
        return cli_error("report: uncertainty: %s", err.msg);
    const struct cmp_bands *b = &u.b;
    static const char *const si[] = {"s", "s", "J"};
    if (b->w.on)
        side_rows(t, "weight_streaming", s->hw.wse.name, u.r.ws.systems,
                  (const struct unc_band *const[]){&b->w.step_s, &b->w.time_s, &b->w.energy_J},
                  si);
    if (b->g.on)
        side_rows(t, "gpu", x->g.name, u.r.g.s.units,
                  (const struct unc_band *const[]){&b->g.step_s, &b->g.time_s, &b->g.energy_J},
                  si);
    static const char *const ratio[] = {"", "", ""};
    if (b->paired)
        side_rows(t, "gpu_over_weight_streaming", "", NAN,
                  (const struct unc_band *const[]){NULL, &b->ratio_time, &b->ratio_energy},
                  ratio);
    x->unc = &u;
    return -1;
}

/* "P50 [P10, P90]" of a side's band b as a duration or an energy. */
static const char *cell(int on, const struct unc_band *b, int energy, char *buf, size_t n)
{
    if (!on)
        return "-";
    return unc_opt_band(b, energy ? UNIT_ENERGY : UNIT_TIME, !energy, buf, n);
}

void report_unc_index(FILE *f, const struct scenario *s, const struct report_cmp *x)
{
    const struct report_unc_res *u = x->unc;
    if (!u)
        return;
    const struct cmp_bands *b = &u->b;
    char a[160], c[160], d[64];
    fprintf(f, "## Uncertainty\n\n");
    fprintf(f,
            "%g x %s and the fewest %s as fast (%.0f), each drawn %zu times over its "
            "description's +- ranges and its model's own error (%s +- %.3g %%; %s +- %.3g %%), "
            "the two sides independent (seeds %lu and %lu) and paired for the ratio "
            "(cerebras-plan(1), UNCERTAINTY).  P50 [P10, P90]; the rows are in "
            "uncertainty.csv.\n\n",
            u->r.ws.systems, s->hw.wse.name, x->g.name, u->r.g.s.units, b->samples,
            b->w.model_error_key ? b->w.model_error_key : "-", 100 * b->w.model_error,
            b->g.model_error_key ? b->g.model_error_key : "-", 100 * b->g.model_error, b->seed,
            b->seed + 1);
    fprintf(f, "| quantity | %s | %s | GPU / WS |\n|---|---|---|---|\n", s->hw.wse.name,
            x->g.name);
    const struct {
        const char *label;
        const struct unc_band *w, *g, *r;
        int energy;
    } row[] = {{"step time", &b->w.step_s, &b->g.step_s, &b->ratio_time, 0},
               {"time to train", &b->w.time_s, &b->g.time_s, &b->ratio_time, 0},
               {"energy", &b->w.energy_J, &b->g.energy_J, &b->ratio_energy, 1}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(d, sizeof d, "-");
        if (b->paired)
            snprintf(d, sizeof d, "%.3g [%.3g, %.3g]", row[i].r->p50, row[i].r->p10,
                     row[i].r->p90);
        fprintf(f, "| %s | %s | %s | %s |\n", row[i].label,
                cell(b->w.on, row[i].w, row[i].energy, a, sizeof a),
                cell(b->g.on, row[i].g, row[i].energy, c, sizeof c), d);
    }
    if (b->paired)
        fprintf(f, "\nThe GPU cluster trains sooner in %.1f %% of the paired draws.\n",
                100 * b->gpu_faster);
    fprintf(f, "\n");
}
