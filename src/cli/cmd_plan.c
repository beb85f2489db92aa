/* cmd_plan.c - `plan`: the cluster that meets a deadline, an energy target
 * or a budget, with the runners-up either side (the search is src/plan). */
#include <stdio.h>
#include <string.h>

#include "../plan/plan.h"
#include "est.h"
#include "unc_opt.h"

static const unit_dim limit_dim[PLAN_NMETRICS] = {UNIT_TIME, UNIT_ENERGY, UNIT_COUNT};
static const char *const limit_flag[PLAN_NMETRICS] = {"--deadline", "--energy", "--budget"};

static const char *fmt_metric(double v, enum plan_metric m, char *buf, size_t n)
{
    if (m == PLAN_TIME)
        return out_duration(v, buf, n);
    if (m == PLAN_ENERGY) {
        snprintf(buf, n, "%.4g MWh", v / 3.6e9);
        return buf;
    }
    snprintf(buf, n, "%.4g", v);
    return buf;
}

/* "time-to-train 23.9 h <= 1 d; energy ..." for every target given. */
static void describe(const struct plan_opts *po, const struct train_result *r, char *buf, size_t n)
{
    static const char *const what[PLAN_NMETRICS] = {"time-to-train", "energy", "cost"};
    size_t len = 0;
    buf[0] = '\0';
    if (!r->feasible) {
        char w[128];
        snprintf(buf, n, "infeasible (%s)",
                 train_warn_names(r->warnings & TW_INFEASIBLE, w, sizeof w));
        return;
    }
    for (int m = 0; m < PLAN_NMETRICS && len < n; m++) {
        if (!(po->limit[m] > 0))
            continue;
        char a[64], b[64];
        double v = plan_metric_of(r, (enum plan_metric)m);
        int ok = v <= po->limit[m];
        len += (size_t)snprintf(buf + len, n - len, "%s%s %s %s %s (%s)", len ? "; " : "", what[m],
                                fmt_metric(v, (enum plan_metric)m, a, sizeof a), ok ? "<=" : ">",
                                fmt_metric(po->limit[m], (enum plan_metric)m, b, sizeof b),
                                ok ? "meets" : "misses");
    }
}

static void print_iter(const struct plan_iter *it, void *user)
{
    (void)user;
    if (strcmp(it->stage, "sparsity") == 0)
        printf("  %-8s %3d  bracket %.6f..%.6f  at %.6f  metric %.6g\n", it->stage, it->iter,
               it->lo, it->hi, it->x, it->value);
    else
        printf("  %-8s %3d  bracket %g..%g systems  at %g  metric %.6g\n", it->stage, it->iter,
               it->lo, it->hi, it->x, it->value);
}

/* Parse the targets into po; -1 or an exit code. */
static int parse_targets(const struct cli_opts *o, struct plan_opts *po)
{
    const char *arg[PLAN_NMETRICS] = {o->deadline, o->energy, o->budget};
    int any = 0;
    for (int m = 0; m < PLAN_NMETRICS; m++) {
        po->limit[m] = 0;
        if (!arg[m])
            continue;
        char why[256];
        if (unit_parse(arg[m], limit_dim[m], &po->limit[m], why, sizeof why) != 0)
            return cli_error("%s '%s': %s", limit_flag[m], arg[m], why);
        if (!(po->limit[m] > 0))
            return cli_error("%s '%s': must be greater than zero", limit_flag[m], arg[m]);
        any = 1;
    }
    if (!any)
        return cli_error("plan: give a target: --deadline TIME, --energy ENERGY or --budget "
                         "AMOUNT (with --price)");
    if (o->budget && !o->price)
        return cli_error("--budget '%s': needs --price, the cost of one system-hour", o->budget);
    po->allow_sparsity = o->allow_sparsity;
    po->allow_batch = o->allow_batch;
    return -1;
}

static void print_runner(const char *label, const struct plan_opts *po, const struct cluster *c,
                         const struct train_result *r)
{
    char d[512];
    describe(po, r, d, sizeof d);
    printf("  %-6s %g systems, batch %g: %s\n", label, c->systems, c->global_seqs, d);
}

static void print_plan(const struct scenario *s, const struct plan_opts *po,
                       const struct plan_result *res, double model_seqs)
{
    const struct cluster *b = &res->best;
    char d[512], lim[64];
    printf("plan: %s on %s, MemoryX %s;", s->wl.name, s->hw.wse.name, s->tier);
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (po->limit[m] > 0)
            printf(" %s %s", plan_metric_name[m],
                   fmt_metric(po->limit[m], (enum plan_metric)m, lim, sizeof lim));
    printf("\nsearch: 1..%g systems (%s), %d solver iterations\n\n", res->max_systems,
           res->cap == PLAN_CAP_GENERATION ? "system.max_systems"
           : res->cap == PLAN_CAP_BATCH    ? "one sequence per system of the batch"
                                           : "the critical batch",
           res->iterations);
    if (!res->reached) {
        printf("unreachable: %s\n\nbest achievable: %g system%s at sparsity %g\n\n", res->why,
               b->systems, b->systems == 1 ? "" : "s", b->sparsity);
        est_print(s, &res->r);
        return;
    }
    describe(po, &res->r, d, sizeof d);
    printf("answer: %g systems, MemoryX %s, sparsity %g%s, batch %g sequences%s\n  %s\n",
           b->systems, s->tier, b->sparsity, res->sparsity_raised ? " (raised to meet it)" : "",
           b->global_seqs, b->global_seqs != model_seqs ? " (grown)" : "", d);
    if (res->has_below)
        print_runner("N - 1:", po, &res->below, &res->rb);
    else
        printf("  N - 1: none (one system is the smallest cluster)\n");
    if (res->has_above)
        print_runner("N + 1:", po, &res->above, &res->ra);
    else
        printf("  N + 1: none (%g systems is the largest searched)\n", res->max_systems);
    printf("\n");
    est_print(s, &res->r);
}

int cmd_plan(struct cli_opts *o)
{
    if (o->nsys)
        return cli_error("plan: -n does not apply (plan chooses the number of systems)");
    static struct scenario s;
    struct plan_opts po;
    int rc = parse_targets(o, &po);
    if (rc >= 0)
        return rc;
    struct unc_opt uo;
    if ((rc = unc_opt_parse(o, &uo)) >= 0)
        return rc;
    if ((rc = scenario_load(o, &s)) >= 0)
        return rc;
    static struct plan_result res;
    struct cp_error err = {0};
    if (o->verbose && !o->csv)
        printf("solver iterations (stage, iteration, bracket, estimate, metric in SI units):\n");
    if (plan_solve(&s.c, &po, o->verbose && !o->csv ? print_iter : NULL, NULL, &res, &err) != CP_OK)
        return cli_error("%s", err.msg);
    if (o->verbose && !o->csv)
        printf("\n");
    double model_seqs = s.c.global_seqs;
    s.c = res.best;
    if (o->csv) {
        struct out_table t;
        struct cluster cs[3];
        size_t n = 0;
        out_init(&t, est_ncols, est_header);
        est_row(&t, &s, &res.best, &res.r);
        cs[n++] = res.best;
        if (res.reached && res.has_below) {
            est_row(&t, &s, &res.below, &res.rb);
            cs[n++] = res.below;
        }
        if (res.reached && res.has_above) {
            est_row(&t, &s, &res.above, &res.ra);
            cs[n++] = res.above;
        }
        if ((rc = unc_opt_columns(&uo, &s, 1, &t, cs)) < 0)
            rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        print_plan(&s, &po, &res, model_seqs);
        if ((rc = unc_opt_print(&uo, &s, po.limit[PLAN_TIME])) < 0)
            rc = cli_flush();
    }
    if (rc == EXIT_OK && !res.reached)
        rc = EXIT_VERDICT;
    return rc;
}
