/* cmd_sensitivity.c - `sensitivity`: the elasticity of time-to-train (or,
 * with --metric, the energy or the cost) to
 * every numeric hardware key at one configuration, largest first, on
 * either kind of cluster (the method is in src/plan/sens.h; the keys,
 * their values and the evaluations are the kind's, through tm.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../plan/sens.h"
#include "job.h"
#include "out.h"

static const char *const text_header[] = {"key", "value", "range", "elasticity", "reading"};

/* What the elasticities are of (--metric); one command a process. */
static enum sens_metric metric;
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
        snprintf(buf, n, "%s%s", r->value == 0 ? "value 0: no elasticity" : sens_metric_word(metric),
                 r->value == 0 ? "" : " not finite here");
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
        snprintf(buf, n, "%s ~ value^%s", sens_metric_word(metric),
                 fmt_el(r->elasticity, a, sizeof a));
    return buf;
}

static void row_text(struct out_table *t, const struct tm_kind *k, const struct sens_row *r)
{
    unit_dim dim = k->param_dim(r->param);
    char name[96], val[64], range[96], el[32], why[128];
    k->param_name(r->param, name, sizeof name);
    unit_format(r->value, dim, val, sizeof val);
    range[0] = '\0';
    if (r->spread > 0) {
        char w[64];
        snprintf(range, sizeof range, "+- %s (%.3g %%)", unit_format(r->spread, dim, w, sizeof w),
                 100 * r->spread / fabs(r->value));
    }
    if (r->defined)
        fmt_el(r->elasticity, el, sizeof el);
    else
        snprintf(el, sizeof el, "-");
    out_row(t, (const char *[]){name, val, range, el, reading(r, why, sizeof why)});
}

static void row_csv(struct out_table *t, const struct tm_kind *k, const struct sens_row *r)
{
    char name[96], c[6][40];
    k->param_name(r->param, name, sizeof name);
    out_row(t, (const char *[]){
                   name,
                   fmt_exact(r->value, c[0], sizeof c[0]),
                   unit_base_symbol(k->param_dim(r->param)),
                   fmt_exact(r->spread, c[1], sizeof c[1]),
                   fmt_exact(r->elasticity, c[2], sizeof c[2]),
                   fmt_exact(r->abserr, c[3], sizeof c[3]),
                   fmt_exact(r->below, c[4], sizeof c[4]),
                   fmt_exact(r->above, c[5], sizeof c[5]),
               });
}

/* The configuration and its time-to-train, above the text table: r and
 * detail are j at its count; label the tier as given (--memoryx). */
static void print_header(const struct tm_job *j, const char *label, const struct tm_result *r,
                         const void *detail)
{
    char what[1024], b[64], w[256];
    printf("%s: time-to-train %s, bottleneck %s\n",
           j->kind->describe(j->own, label, r, detail, what, sizeof what),
           out_duration(r->time_s, b, sizeof b), r->part_name[r->bottleneck]);
    if (!r->feasible)
        printf("infeasible: %s\n", j->kind->infeasible_why(r, detail, w, sizeof w));
    if (metric == SENS_ENERGY)
        printf("energy %s at %s\n", out_energy(r->energy_J, b, sizeof b),
               unit_format(r->power_W, UNIT_POWER, w, sizeof w));
    else if (metric == SENS_COST && r->cost >= 0)
        printf("cost %s\n", cost_format(r->cost, r->currency, b, sizeof b));
    printf("elasticity = d ln(%s) / d ln(value), central differences at +-%g %% "
           "(one-sided at a kink or a limit)\n\n",
           sens_metric_name(metric), 100 * SENS_STEP);
}

/* The reason the kind gives for not ranking the key named name. */
static const char *skip_why(const struct tm_kind *k, const char *name)
{
    char buf[96];
    for (size_t i = 0; i < k->nparams(); i++)
        if (strcmp(k->param_name(i, buf, sizeof buf), name) == 0)
            return k->param_skip_why(i);
    return NULL;
}

/* "not ranked:" and a line per reason of the kind's keys not ranked, with
 * its keys, in the kind's order. */
static void print_skipped(const struct tm_kind *k)
{
    const char *const *key = k->skipped;
    printf("\nnot ranked:\n");
    for (size_t i = 0; key[i]; i++) {
        const char *why = skip_why(k, key[i]);
        if (i > 0 && strcmp(why, skip_why(k, key[i - 1])) == 0)
            continue;
        printf(" ");
        for (size_t m = i; key[m] && strcmp(skip_why(k, key[m]), why) == 0; m++)
            printf("%s %s", m > i ? "," : "", key[m]);
        printf(": %s\n", why);
    }
}

/* The table of rows (but those the kind does not rank) under the header,
 * and the keys not ranked. */
static int emit(const struct cli_opts *o, const struct tm_job *j, const char *label,
                const struct tm_result *r, const void *detail, const struct sens_row *rows,
                size_t n)
{
    const struct tm_kind *k = j->kind;
    struct out_table t;
    out_init(&t, o->csv ? 8 : 5, o->csv ? csv_header : text_header);
    for (size_t i = 0; i < n; i++) {
        if (k->param_skip_why(rows[i].param))
            continue;
        if (o->csv)
            row_csv(&t, k, &rows[i]);
        else
            row_text(&t, k, &rows[i]);
    }
    if (!o->csv)
        print_header(j, label, r, detail);
    int rc = cli_emit(o, &t);
    out_free(&t);
    if (rc == EXIT_OK && !o->csv) {
        print_skipped(k);
        rc = cli_flush();
    }
    return rc;
}

int cmd_sensitivity(struct cli_opts *o)
{
    static const char *const metric_word[] = {"time", "energy", "cost"};
    metric = SENS_TIME;
    if (o->metric) {
        size_t i = 0;
        while (i < 3 && strcmp(o->metric, metric_word[i]) != 0)
            i++;
        if (i == 3)
            return cli_error("sensitivity: --metric '%s': expected time, energy or cost", o->metric),
                   EXIT_USAGE;
        metric = (enum sens_metric)i;
    }
    static struct job j;
    int rc = job_load(o, "sensitivity", &j);
    if (rc >= 0)
        return rc;
    size_t size = j.tm.kind->detail_size;
    void *detail = xmalloc(size);
    memset(detail, 0, size);
    struct tm_result r;
    struct cp_error err = {0};
    if (tm_eval(&j.tm, 0, TM_STRONG, &r, detail, &err) != CP_OK)
        rc = cli_error("%s", err.msg);
    else if (!r.runs)
        rc = (cli_error("%s on %g x %s: %s", j.model, j.tm.count, j.system, r.why),
              r.bad_input ? EXIT_USAGE : EXIT_VERDICT);
    if (rc < 0) {
        static struct sens_row rows[DESC_MAX_KEYS];
        size_t n = sens_run_of(&j.tm, j.hw_src, metric, rows);
        rc = emit(o, &j.tm, j.label, &r, detail, rows, n);
    }
    free(detail);
    return rc;
}
