/* ws_plan.c - the weight-streaming face of `plan`: the cluster that meets a deadline, an energy
 * target or a budget, with the runners-up either side and its bill of materials (systems, MemoryX,
 * activation and SwarmX servers, power and energy); the search is src/plan. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ws.h"
#include "../model/ws_tm.h"
#include "../model/mx.h"
#include "../plan/plan.h"
#include "../plan/pscan.h"
#include "est.h"
#include "unc_opt.h"

/* A time or an energy as the estimate writes it, a cost as plan's own
 * messages do, so one output uses one unit for each quantity. */
static const char *fmt_metric(double v, enum plan_metric m, char *buf, size_t n)
{
    if (m == PLAN_TIME)
        return out_duration(v, buf, n);
    if (m == PLAN_ENERGY)
        return out_energy(v, buf, n);
    return plan_metric_format(v, m, buf, n);
}

/* "s" when a count of x is not one. */
static const char *plural(double x)
{
    return x == 1 ? "" : "s";
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

static void print_runner(const char *label, const struct plan_opts *po, const struct cluster *c,
                         const struct train_result *r)
{
    char d[512];
    describe(po, r, d, sizeof d);
    printf("  %-6s %g system%s, batch %g: %s\n", label, c->systems, plural(c->systems),
           c->global_seqs, d);
}

/* Units a suggested limit is written in, largest first: the first not
 * more than half the value is taken (the last otherwise). */
struct limit_unit {
    const char *sym;
    double factor;
};
static const struct limit_unit time_units[] = {
    {"y", PLAN_YEAR_S}, {"d", 86400}, {"h", UNIT_HOUR_S}, {"min", 60}, {"s", 1}};
static const struct limit_unit energy_units[] = {
    {"TWh", 3.6e15}, {"GWh", 3.6e12}, {"MWh", 3.6e9}, {"kWh", 3.6e6}, {"Wh", UNIT_HOUR_S}};
static const struct limit_unit cost_units[] = {{"", 1}};
static const struct {
    const struct limit_unit *u;
    size_t n;
} limit_units[PLAN_NMETRICS] = {{time_units, 5}, {energy_units, 5}, {cost_units, 1}};
/* Significant digits of a suggested limit, and how many roundings up are
 * tried before it is written in full. */
#define SUGGEST_DIGITS 3
#define SUGGEST_TRIES 4

/* v (SI) as an argument of metric m's flag, rounded up to SUGGEST_DIGITS
 * significant digits so that it reads back as v or more ("7700y"). */
static const char *round_up(double v, enum plan_metric m, char *buf, size_t n)
{
    const struct limit_unit *u = limit_units[m].u;
    size_t k = 0;
    while (k + 1 < limit_units[m].n && v < 2 * u[k].factor)
        k++;
    double x = v / u[k].factor, q = pow(10, floor(log10(x)) - (SUGGEST_DIGITS - 1));
    double d = ceil(x / q);
    for (int tries = 0; tries < SUGGEST_TRIES; tries++, d++) {
        double back;
        char why[128];
        snprintf(buf, n, "%.15g%s", d * q, u[k].sym);
        if (unit_parse(buf, plan_limit_dim[m], &back, why, sizeof why) == 0 && back >= v)
            return buf;
    }
    /* every digit: reads back exactly */
    snprintf(buf, n, "%.17g%s", v, unit_base_symbol(plan_limit_dim[m]));
    return buf;
}

/* "nearest: the fastest plan reaches ...; --deadline X would be met" when
 * the searched target is out of reach but some N is feasible. */
static void print_nearest(const struct plan_opts *po, const struct plan_result *res)
{
    enum plan_metric m = res->primary;
    if (!(res->least_n[m] > 0) || res->least[m] <= po->limit[m])
        return;
    static const char *const lead[PLAN_NMETRICS] = {
        "the fastest plan reaches", "the least energy found is", "the least cost found is"};
    char a[64], b[64];
    int others = 0;
    for (int k = 0; k < PLAN_NMETRICS; k++)
        others += k != (int)m && po->limit[k] > 0;
    printf("nearest: %s %s on %g system%s; %s %s%s would be met\n", lead[m],
           fmt_metric(res->least[m], m, a, sizeof a), res->least_n[m], plural(res->least_n[m]),
           plan_limit_flag[m], round_up(res->least[m], m, b, sizeof b), others ? " alone" : "");
}

/* One row of the bill of materials: count (text), memory each and in all
 * (bytes; < 0: none), power each and in all (W). */
static void bom_row(struct out_table *t, const char *item, const char *count, double mem_each,
                    double mem_total, double power_each, double power_total)
{
    char a[4][48];
    out_row(t, (const char *[]){
                   item,
                   count,
                   mem_each >= 0 ? unit_format(mem_each, UNIT_BYTES, a[0], sizeof a[0]) : "-",
                   mem_total >= 0 ? unit_format(mem_total, UNIT_BYTES, a[1], sizeof a[1]) : "-",
                   unit_format(power_each, UNIT_POWER, a[2], sizeof a[2]),
                   unit_format(power_total, UNIT_POWER, a[3], sizeof a[3]),
               });
}

/* The bill of materials of c evaluated as r: every system and server with
 * its memory and power, the total power, and the run's energy. */
static void print_bom(const struct scenario *s, const struct cluster *c,
                      const struct train_result *r)
{
    static const char *const hdr[] = {"item",         "count",      "memory each",
                                      "memory total", "power each", "power total"};
    const struct hw_desc *hw = &s->hw;
    const struct step_result *st = &r->step;
    const double *pw = r->power_part;
    char n[4][64], item[sizeof hw->wse.name + 16], a[64], b[64];
    struct out_table t;
    out_init(&t, 6, hdr);
    snprintf(item, sizeof item, "%s systems", hw->wse.name);
    snprintf(n[0], sizeof n[0], "%.0f", c->systems);
    bom_row(&t, item, n[0], hw->wse.sram_bytes, c->systems * hw->wse.sram_bytes, hw->wse.power_W,
            pw[TRAIN_POWER_SYSTEMS]);
    snprintf(n[1], sizeof n[1], "%.0f%s", st->mx_servers, c->mx_servers == 0 ? " (sized)" : "");
    bom_row(&t, "MemoryX servers", n[1], mx_capacity(&hw->mx, 1), r->memoryx_bytes,
            hw->mx.server_power_W, pw[TRAIN_POWER_MEMORYX]);
    snprintf(n[2], sizeof n[2], "%.0f (%.0f per system)", c->systems * st->act_servers,
             st->act_servers);
    bom_row(&t, "activation servers", n[2], hw->act.server_bytes,
            c->systems * st->act_servers * hw->act.server_bytes, hw->act.server_power_W,
            pw[TRAIN_POWER_ACT]);
    snprintf(n[3], sizeof n[3], "%.0f", r->swx_nodes);
    bom_row(&t, "SwarmX nodes", n[3], -1, -1, hw->swx.node_power_W, pw[TRAIN_POWER_SWARMX]);
    out_row(&t, (const char *[]){"total", "", "", "", "",
                                 unit_format(r->power_W, UNIT_POWER, a, sizeof a)});
    printf("bill of materials (activations %s):\n", step_act_label(st, b, sizeof b));
    out_text.write(stdout, &t);
    out_free(&t);
    printf("energy: %s for the run, %s for %s\n\n",
           fmt_metric(r->energy_J, PLAN_ENERGY, a, sizeof a),
           unit_format(r->power_W, UNIT_POWER, b, sizeof b),
           out_duration(r->time_s, n[0], sizeof n[0]));
}

/* With --confidence: the count whose draws meet the targets in the share
 * asked (pscan_confident), and the point estimate's own answer. */
struct conf {
    const struct unc_opt *u;
    double point; /* the point estimate's answer, systems */
    struct pscan_conf_result r;
};

/* "at confidence 0.9: met in 91.0 % of 200 draws (seed 1); the point
 * estimate's answer, 22 systems, in 52.5 %" */
static void print_conf(const struct conf *c)
{
    if (!c || !(c->u->confidence > 0))
        return;
    printf("  at confidence %g: met in %.1f %% of %zu draws (seed %lu); the point estimate's "
           "answer, %g system%s, in %.1f %%\n",
           c->u->confidence, 100 * c->r.share, c->u->samples, c->u->seed, c->point,
           plural(c->point), 100 * c->r.from_share);
}

static void print_plan(const struct scenario *s, const struct plan_opts *po,
                       const struct plan_result *res, double model_seqs, const struct conf *cf)
{
    const struct cluster *b = &res->best;
    char d[512], lim[64];
    printf("plan: %s on %s, MemoryX %s;", s->wl.name, s->hw.wse.name, s->tier);
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (po->limit[m] > 0)
            printf(" %s %s", plan_metric_name[m],
                   fmt_metric(po->limit[m], (enum plan_metric)m, lim, sizeof lim));
    printf("\nsearch: every N of 1..%g system%s (%s) evaluated, %d scan%s", res->max_systems,
           plural(res->max_systems),
           res->cap == PLAN_CAP_GENERATION ? "system.max_systems"
           : res->cap == PLAN_CAP_BATCH    ? "one sequence per system of the batch"
                                           : "the critical batch",
           res->scans, plural(res->scans));
    if (res->sparsity_iters > 0)
        printf(" and %d Brent iteration%s on the sparsity", res->sparsity_iters,
               plural(res->sparsity_iters));
    printf("\n\n");
    if (!res->reached) {
        printf("unreachable: %s\n", res->why);
        print_nearest(po, res);
        printf("\nbest achievable: %g system%s at sparsity %g\n\n", b->systems, plural(b->systems),
               b->sparsity);
        print_bom(s, b, &res->r);
        est_print(s, &res->r);
        return;
    }
    describe(po, &res->r, d, sizeof d);
    printf("answer: %g system%s, MemoryX %s, sparsity %g%s, batch %g sequence%s%s\n  %s\n",
           b->systems, plural(b->systems), s->tier, b->sparsity,
           res->sparsity_raised ? " (raised to meet it)" : "", b->global_seqs,
           plural(b->global_seqs), b->global_seqs != model_seqs ? " (grown)" : "", d);
    print_conf(cf);
    if (res->has_below)
        print_runner("N - 1:", po, &res->below, &res->rb);
    else
        printf("  N - 1: none (one system is the smallest cluster)\n");
    if (res->has_above)
        print_runner("N + 1:", po, &res->above, &res->ra);
    else
        printf("  N + 1: none (%g system%s is the largest searched)\n", res->max_systems,
               plural(res->max_systems));
    printf("\n");
    print_bom(s, b, &res->r);
    est_print(s, &res->r);
}

/* res moved to n systems (the answer at a confidence level): the plan's
 * cluster and its neighbours evaluated there. */
static void move_plan(struct plan_result *res, double n)
{
    struct cluster *const c[] = {&res->best, &res->below, &res->above};
    struct train_result *const r[] = {&res->r, &res->rb, &res->ra};
    const double at[] = {n, n - 1, n + 1};
    const struct cluster base = res->best;
    res->has_below = n > 1;
    res->has_above = n < res->max_systems;
    for (int i = 0; i < 3; i++) {
        *c[i] = base;
        c[i]->systems = at[i];
        if (i == 0 || (i == 1 && res->has_below) || (i == 2 && res->has_above))
            train_eval(c[i], r[i]);
    }
}

/* --confidence: the fewest systems whose draws meet the targets in the
 * share asked, at the plan's sparsity and batch; the plan moved there.
 * -1, or an exit code after a message. */
static int plan_confident(const struct scenario *s, const struct plan_opts *po,
                          struct plan_result *res, struct conf *cf)
{
    cf->point = res->best.systems;
    if (!(cf->u->confidence > 0) || !res->reached)
        return -1;
    static struct train_result detail;
    const struct cluster best = res->best;
    const struct tm_job job = {&tm_ws, &best, best.systems};
    struct pscan_spec sp = {.job = &job, .detail = &detail, .first = 1, .step = 1,
                            .max = res->max_systems};
    memcpy(sp.limit, po->limit, sizeof sp.limit);
    const struct pscan_conf pc = {&s->hw_src, cf->u->samples, cf->u->seed, cf->u->confidence};
    struct cp_error err = {0};
    if (pscan_confident(&sp, &pc, best.systems, &cf->r, &err) != CP_OK)
        return cli_error("--confidence: %s", err.msg);
    if (!cf->r.found) {
        res->reached = 0;
        snprintf(res->why, sizeof res->why,
                 "no count of up to %g systems meets the targets in %g of the draws; %g "
                 "systems in %.1f %%",
                 res->max_systems, cf->u->confidence, cf->r.count, 100 * cf->r.share);
    }
    if (cf->r.count > 0)
        move_plan(res, cf->r.count);
    return -1;
}

int ws_plan(struct cli_opts *o)
{
    int refused = scenario_refuse_gpu_opts(o, "plan");
    if (refused >= 0)
        return refused;
    static struct scenario s;
    struct plan_opts po;
    int rc = plan_targets(o, "system", &po);
    if (rc >= 0)
        return rc;
    struct unc_opt uo;
    if ((rc = unc_opt_parse_plan(o, &uo)) >= 0 || (rc = unc_opt_conf_targets(&uo, o)) >= 0)
        return rc;
    if ((rc = scenario_load(o, &s)) >= 0 ||
        (rc = plan_budget_currency(o, s.hw.site.currency, s.hw.wse.name)) >= 0)
        return rc;
    static struct plan_result res;
    struct cp_error err = {0};
    if (o->verbose && !o->csv)
        printf("search steps (stage, iteration, bracket, estimate, metric in SI units):\n");
    if (plan_solve(&s.c, &po, o->verbose && !o->csv ? print_iter : NULL, NULL, &res, &err) != CP_OK)
        return cli_error("%s", err.msg);
    if (o->verbose && !o->csv)
        printf("\n");
    struct conf cf = {.u = &uo};
    if ((rc = plan_confident(&s, &po, &res, &cf)) >= 0)
        return rc;
    double model_seqs = s.c.global_seqs;
    s.c = res.best;
    if (o->csv) {
        struct out_table t;
        struct unc_at at[3];
        size_t n = 0;
        out_init(&t, est_ncols, est_header);
        est_row(&t, &s, &res.best, &res.r);
        at[n++] = (struct unc_at){{&tm_ws, &res.best, res.best.systems}, 0, TM_STRONG, 0};
        if (res.reached && res.has_below) {
            est_row(&t, &s, &res.below, &res.rb);
            at[n++] = (struct unc_at){{&tm_ws, &res.below, res.below.systems}, 0, TM_STRONG, 0};
        }
        if (res.reached && res.has_above) {
            est_row(&t, &s, &res.above, &res.ra);
            at[n++] = (struct unc_at){{&tm_ws, &res.above, res.above.systems}, 0, TM_STRONG, 0};
        }
        if ((rc = unc_opt_columns(&uo, at, n, &s.hw_src, 1, &t)) < 0)
            rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        print_plan(&s, &po, &res, model_seqs, &cf);
        const struct unc_at best = {{&tm_ws, &s.c, s.c.systems}, 0, TM_STRONG, 0};
        if ((rc = unc_opt_print(&uo, &best, &s.hw_src, po.limit[PLAN_TIME])) < 0)
            rc = cli_flush();
    }
    if (rc == EXIT_OK && !res.reached)
        rc = EXIT_VERDICT;
    return rc;
}
