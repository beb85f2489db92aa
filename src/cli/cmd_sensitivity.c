/* cmd_sensitivity.c - `sensitivity`: the elasticity of time-to-train to
 * every numeric hardware key at one configuration, largest first (the
 * method is in src/plan/sens.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../plan/param.h"
#include "../plan/sens.h"
#include "scenario.h"

static const char *const text_header[] = {"key", "value", "range", "elasticity", "reading"};
static const char *const csv_header[] = {"key",        "value",  "unit",  "spread",
                                         "elasticity", "abserr", "below", "above"};

/* An elasticity for people: three decimals, or two significant digits
 * when that would round a nonzero value to 0. */
static const char *fmt_el(double e, char *buf, size_t n)
{
    if (e == 0)
        snprintf(buf, n, "0");
    else if (fabs(e) >= 5e-4)
        snprintf(buf, n, "%+.3f", e);
    else
        snprintf(buf, n, "%+.1e", e);
    return buf;
}

/* A number for CSV: exact SI, or an empty cell when not finite. */
static const char *fmt_exact(double v, char *buf, size_t n)
{
    if (!isfinite(v))
        buf[0] = '\0';
    else
        unit_format_exact(v + 0.0, buf, n); /* -0 prints as 0 */
    return buf;
}

/* What a row means, in a few words. */
static const char *reading(const struct sens_row *r, char *buf, size_t n)
{
    char a[32], b[32];
    if (!r->defined)
        snprintf(buf, n, "%s", r->value == 0 ? "value 0: no elasticity" : "time not finite here");
    else if (r->kink)
        snprintf(buf, n, "kink: %s lowering, %s raising", fmt_el(r->below, a, sizeof a),
                 fmt_el(r->above, b, sizeof b));
    else if (r->step && isfinite(r->lo) && isfinite(r->hi))
        snprintf(buf, n, "whole number: arc %.17g..%.17g", r->lo, r->hi);
    else if (r->step)
        snprintf(buf, n, "whole number: arc to %.17g only", isfinite(r->lo) ? r->lo : r->hi);
    else if (!isfinite(r->below) || !isfinite(r->above))
        snprintf(buf, n, "one-sided: %s would leave the valid values",
                 isfinite(r->below) ? "raising" : "lowering");
    else if (r->elasticity == 0)
        snprintf(buf, n, "no effect here");
    else if (fabs(r->elasticity) < 5e-4)
        snprintf(buf, n, "negligible here");
    else
        snprintf(buf, n, "time ~ value^%s", fmt_el(r->elasticity, a, sizeof a));
    return buf;
}

static void row_text(struct out_table *t, const struct scenario *s, const struct sens_row *r)
{
    const struct desc_key *k = &hw_schema.keys[r->key];
    char name[96], val[64], range[96], el[32], why[128];
    param_name(r->key, name, sizeof name);
    desc_format(k, &s->hw, val, sizeof val);
    range[0] = '\0';
    if (r->spread > 0) {
        char w[64];
        snprintf(range, sizeof range, "+- %s (%.3g %%)",
                 unit_format(r->spread, k->dim, w, sizeof w), 100 * r->spread / fabs(r->value));
    }
    if (r->defined)
        fmt_el(r->elasticity, el, sizeof el);
    else
        snprintf(el, sizeof el, "-");
    out_row(t, (const char *[]){name, val, range, el, reading(r, why, sizeof why)});
}

static void row_csv(struct out_table *t, const struct sens_row *r)
{
    const struct desc_key *k = &hw_schema.keys[r->key];
    char name[96], c[6][40];
    param_name(r->key, name, sizeof name);
    out_row(t, (const char *[]){
                   name,
                   fmt_exact(r->value, c[0], sizeof c[0]),
                   unit_base_symbol(k->dim),
                   fmt_exact(r->spread, c[1], sizeof c[1]),
                   fmt_exact(r->elasticity, c[2], sizeof c[2]),
                   fmt_exact(r->abserr, c[3], sizeof c[3]),
                   fmt_exact(r->below, c[4], sizeof c[4]),
                   fmt_exact(r->above, c[5], sizeof c[5]),
               });
}

/* The configuration and its time-to-train, above the text table. */
static void print_header(const struct scenario *s)
{
    struct train_result r;
    param_eval(&s->c, &s->hw, &r);
    char a[64], b[64], w[256];
    printf("%s on %g x %s, MemoryX %s (%g servers, %s), sparsity %g: time-to-train %s, "
           "bottleneck %s\n",
           s->wl.name, s->c.systems, s->hw.wse.name, s->tier, r.step.mx_servers,
           unit_format(r.memoryx_bytes, UNIT_BYTES, a, sizeof a), s->c.sparsity,
           out_duration(r.time_s, b, sizeof b), step_res_name[r.step.bottleneck]);
    if (!r.feasible)
        printf("infeasible: %s\n", train_warn_names(r.warnings & TW_INFEASIBLE, w, sizeof w));
    printf("elasticity = d ln(time-to-train) / d ln(value), central differences at +-%g %% "
           "(one-sided at a kink or a limit)\n\n",
           100 * SENS_STEP);
}

/* "not ranked:" and a line per reason in sens_skipped, with its keys. */
static void print_skipped(void)
{
    printf("\nnot ranked:\n");
    for (size_t i = 0; i < sens_nskipped; i++) {
        const char *why = sens_skipped[i].why;
        if (i > 0 && strcmp(why, sens_skipped[i - 1].why) == 0)
            continue;
        printf(" ");
        for (size_t j = i; j < sens_nskipped && strcmp(sens_skipped[j].why, why) == 0; j++)
            printf("%s %s", j > i ? "," : "", sens_skipped[j].key);
        printf(": %s\n", why);
    }
}

int cmd_sensitivity(struct cli_opts *o)
{
    static struct scenario s;
    int rc = scenario_load(o, &s);
    if (rc >= 0)
        return rc;
    static struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_run(&s.c, &s.hw_src, rows);
    struct out_table t;
    out_init(&t, o->csv ? 8 : 5, o->csv ? csv_header : text_header);
    for (size_t i = 0; i < n; i++) {
        if (sens_skip_why(rows[i].key))
            continue;
        if (o->csv)
            row_csv(&t, &rows[i]);
        else
            row_text(&t, &s, &rows[i]);
    }
    if (!o->csv)
        print_header(&s);
    rc = cli_emit(o, &t);
    out_free(&t);
    if (rc == EXIT_OK && !o->csv) {
        print_skipped();
        rc = cli_flush();
    }
    return rc;
}
