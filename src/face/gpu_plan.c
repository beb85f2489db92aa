/* gpu_plan.c - `plan` on a GPU system: the fewest GPUs whose fastest
 * layout trains the job within the deadline, energy and budget given
 * (with a budget alone the fastest within it) (every count in steps
 * of whole nodes searched upward, as compare does: src/plan/cmp.h), with
 * the layout, time, power, energy and cost, and the largest smaller count
 * that misses it.  The counts end at GSCEN_MAX_GPUS, the most -n takes
 * (estimate, scale and sweep refuse more).  Fixed figures the job refuses
 * at any count (--tp 3 of 64 heads, --pp 97 of 96 layers) are refused up
 * front naming the flag (cmpo_fixed_check), as estimate and compare do.
 * Exit 1 when no count up to the bound meets it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../plan/cmp.h"
#include "cmp_opts.h"
#include "../cli/progress.h"
#include "gscen.h"
#include "gpu.h"
#include "unc_opt.h"
#include "../gpu/gpu_tm.h"
#include "../cli/out.h"

/* "fewest 512 GPUs (64 nodes): tp 8 pp 8 cp 2 vp 8 dp 4 mbs 1, FSDP, recompute
 * none; ..." (cp when above 1, FSDP when on) */
static void print_side(const char *what, const struct cmp_gpu *g)
{
    const struct gpu_layout *l = &g->layout;
    char a[32], b[32], c[32], cp[32] = "";
    if (l->cp > 1)
        snprintf(cp, sizeof cp, " cp %g", l->cp);
    printf("%-9s %.0f GPUs (%.0f node%s): tp %g pp %g%s vp %g dp %g mbs %g%s, recompute %s; %s, "
           "%s at %s\n",
           what, g->s.units, g->s.nodes, g->s.nodes == 1 ? "" : "s", l->tp, l->pp, cp, l->vp, l->dp,
           l->mbs, l->fsdp ? ", FSDP" : "", gpu_recompute_name[l->recompute],
           out_duration(g->s.time_s, a, sizeof a), out_energy(g->s.energy_J, b, sizeof b),
           out_num(0, g->s.power_W, UNIT_POWER, c, 32));
}

/* Whether the deadline is the only target. */
static int time_alone(const struct cmp_spec *sp)
{
    return !(sp->energy_J > 0) && !(sp->budget > 0);
}

/* What the answer is: the fewest that meet the targets; with a budget
 * alone the fastest within it; when none meets them the fastest (a
 * deadline alone) or the nearest. */
static const char *answer_label(const struct cmp_spec *sp, const struct cmp_result *r)
{
    if (r->gpu_ok)
        return sp->budget > 0 && !(sp->energy_J > 0) && !(r->target_s > 0) ? "fastest" : "fewest";
    return time_alone(sp) ? "fastest" : "nearest";
}

/* The columns of --csv. */
static const char *const h[] = {"model",
                                "system",
                                "deadline_s",
                                "met",
                                "gpus",
                                "nodes",
                                "tp",
                                "pp",
                                "vp",
                                "dp",
                                "cp",
                                "fsdp",
                                "mbs",
                                "recompute",
                                "time_to_train_s",
                                "power_W",
                                "energy_J",
                                "cost",
                                "energy_limit_J",
                                "budget"};

static int emit_csv(const struct cli_opts *o, const struct gscen *s, const struct cmp_spec *sp,
                    const struct cmp_result *r, const struct unc_opt *uo, const struct unc_at *at)
{
    struct out_table t;
    out_init(&t, sizeof h / sizeof h[0], h);
    const struct cmp_gpu *g = &r->g;
    const struct gpu_layout *l = &g->layout;
    const double v[] = {r->target_s, g->s.units,   g->s.nodes,    l->tp,           l->pp,
                        l->vp,       l->dp,        l->cp,         l->fsdp ? 1 : 0, l->mbs,
                        g->s.time_s, g->s.power_W, g->s.energy_J, g->s.cost};
    char c[14][32], e[32] = "", b[32] = "";
    for (size_t i = 0; i < 14; i++)
        out_num(1, v[i], UNIT_COUNT, c[i], 32);
    if (sp->energy_J > 0)
        out_num(1, sp->energy_J, UNIT_COUNT, e, 32);
    if (sp->budget > 0)
        out_num(1, sp->budget, UNIT_COUNT, b, 32);
    out_row(&t, (const char *[]){s->model,
                                 s->system,
                                 r->target_s > 0 ? c[0] : "",
                                 r->gpu_ok ? "1" : "0",
                                 c[1],
                                 c[2],
                                 c[3],
                                 c[4],
                                 c[5],
                                 c[6],
                                 c[7],
                                 c[8],
                                 c[9],
                                 gpu_recompute_name[l->recompute],
                                 c[10],
                                 c[11],
                                 c[12],
                                 g->s.cost >= 0 ? c[13] : "",
                                 e,
                                 b});
    int rc = unc_opt_columns(uo, at, 1, &s->g_src, 1, &t);
    if (rc < 0)
        rc = cli_emit(o, &t);
    out_free(&t);
    return rc;
}

/* --confidence: the point estimate's answer and the confident one's
 * draws (pscan.h). */
struct conf {
    double point;
    struct pscan_conf_result r;
};

/* The answer as text: the job, the fewest (or fastest) count and the one
 * below it, what was searched, the cost. */
static int print_text(const struct gscen *s, const struct cmp_spec *sp, const struct cmp_result *r,
                      double steps, const struct unc_opt *uo, const struct unc_at *at,
                      const struct conf *cf)
{
    char a[32], targets[160] = "";
    size_t len = 0;
    if (r->target_s > 0)
        len += (size_t)snprintf(targets, sizeof targets, "; deadline %s",
                                out_duration(r->target_s, a, sizeof a));
    if (sp->energy_J > 0 && len < sizeof targets)
        len += (size_t)snprintf(targets + len, sizeof targets - len, "; energy at most %s",
                                out_energy(sp->energy_J, a, sizeof a));
    if (sp->budget > 0 && len < sizeof targets)
        snprintf(targets + len, sizeof targets - len, "; cost at most %.6g", sp->budget);
    double critical, tokens = gscen_tokens(s, s->spec.batch, &critical);
    printf("%s on %s, %s: %.4g token%s%s in %.0f step%s%s\n\n", s->wl.name, s->g.name,
           gpuhw_prec_name[s->spec.precision], tokens, tokens == 1 ? "" : "s",
           tokens != s->tokens ? " (with the batch penalty)" : "", steps, steps == 1 ? "" : "s",
           targets);
    print_side(answer_label(sp, r), &r->g);
    if (uo->confidence > 0 && cf->r.count > 0)
        printf("  at confidence %g: met in %.1f %% of %zu draws (seed %lu), each in its own "
               "fastest layout; the point estimate's answer, %.0f GPUs, in %.1f %%\n",
               uo->confidence, 100 * cf->r.share, uo->samples, uo->seed, cf->point,
               100 * cf->r.from_share);
    if (r->has_below)
        print_side("below", &r->below);
    printf("\nsearched %.0f counts of %.0f to %.0f GPUs in steps of %.0f (%.0f run a layout, "
           "%.0f layouts evaluated); power is whole nodes at %s each, the vendor's maximum\n",
           r->scan.counts, r->scan.step, r->scan.last, r->scan.step, r->scan.runs, r->scan.layouts,
           out_num(0, s->g.net.node_power_W, UNIT_POWER, a, sizeof a));
    if (r->g.s.cost >= 0) {
        char c[48];
        printf("cost %s (%.6g GPU-hours%s, with energy; cerebras-plan(1), Cost)\n",
               cost_format(r->g.s.cost, s->g.site.currency, c, sizeof c),
               r->g.s.nodes * s->g.net.gpus_per_node * r->g.s.time_s / UNIT_HOUR_S,
               s->price >= 0 ? " at the --price" : " of capital");
    }
    int rc = unc_opt_print(uo, at, &s->g_src, r->target_s);
    return rc >= 0 ? rc : cli_flush();
}

/* The targets of po, finite; -1 or an exit code after a message. */
static int check_targets(const struct cli_opts *o, const struct plan_opts *po)
{
    const char *const arg[PLAN_NMETRICS] = {o->deadline, o->energy, o->budget};
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (arg[m] && !isfinite(po->limit[m]))
            return cli_error("%s '%s': must be finite", plan_limit_flag[m], arg[m]);
    return -1;
}

/* --confidence: r moved to the fewest GPUs whose draws meet the targets
 * in the share asked (cmp_gpu_confident); the count below is dropped
 * unless the answer stays.  -1, or an exit code after a message. */
static int plan_confident(const struct gscen *s, const struct cmp_spec *spec, double steps,
                          const struct unc_opt *uo, struct cmp_result *r, struct conf *cf)
{
    if (!(uo->confidence > 0) || !r->gpu_ok)
        return -1;
    struct cp_error err = {0};
    const struct pscan_conf pc = {&s->g_src, uo->samples, uo->seed, uo->confidence};
    if (cmp_gpu_confident(spec, &s->wl, steps, r->g.s.units, r, &pc, &cf->r, &r->g, &err) !=
        CP_OK)
        return cli_error("--confidence: %s", err.msg);
    r->gpu_ok = cf->r.found;
    r->has_below = r->has_below && cf->r.count == cf->point;
    return -1;
}

int gpu_plan(struct cli_opts *o)
{
    if (o->allow_sparsity || o->allow_batch)
        return cli_error("plan: %s applies to weight-streaming systems (%s)",
                         o->allow_sparsity ? "--allow-sparsity" : "--allow-batch",
                         o->allow_sparsity ? "sparsity is a weight-streaming option"
                                           : "the GPU search keeps the job's batch");
    struct plan_opts po;
    struct unc_opt uo;
    int rc = plan_targets(o, "GPU", &po);
    if (rc >= 0 || (rc = check_targets(o, &po)) >= 0 || (rc = unc_opt_parse_plan(o, &uo)) >= 0 ||
        (rc = unc_opt_conf_targets(&uo, o)) >= 0)
        return rc;
    static struct gscen s;
    if ((rc = gscen_load(o, "plan", &s)) >= 0 ||
        (rc = cmpo_fixed_check(o, &s.spec, &s.wl, &s.g)) >= 0)
        return rc;
    if ((rc = plan_budget_currency(o, s.g.site.currency, s.g.name)) >= 0)
        return rc;
    static struct cmp_result r;
    memset(&r, 0, sizeof r); /* a second run in one process starts afresh */
    r.target_s = po.limit[PLAN_TIME];
    struct cmp_spec spec = {.mode = CMP_DEADLINE,
                            .deadline_s = r.target_s,
                            .gpu = &s.g,
                            .layout = s.spec,
                            .gpu_price = isnan(s.price) ? -1 : s.price,
                            .max_gpus = GSCEN_MAX_GPUS,
                            .energy_J = po.limit[PLAN_ENERGY],
                            .budget = po.limit[PLAN_COST]};
    double steps = gscen_steps(&s, s.spec.batch);
    struct progress pg;
    progress_start(&pg, "plan: GPU counts searched");
    spec.progress = progress_show;
    spec.progress_user = &pg;
    cmp_gpu_fewest(&spec, &s.wl, steps, &r);
    progress_end(&pg);
    if (!r.gpu_ran)
        return cli_error("plan: %s on %s: %s", s.model, s.system, r.gpu_why), EXIT_VERDICT;
    struct conf cf = {r.g.s.units, {0}};
    if ((rc = plan_confident(&s, &spec, steps, &uo, &r, &cf)) >= 0)
        return rc;
    /* --uncertainty: the answer's count, each draw its own fastest layout */
    static struct gpu_tm_job g;
    g = (struct gpu_tm_job){&s.g, &s.wl, s.spec, s.tokens, s.price, s.ref_batch, s.batch_penalty};
    g.spec.gpus = r.g.s.units;
    const struct unc_at at = {{&tm_gpu, &g, g.spec.gpus}, 0, TM_STRONG, 0};
    rc = o->csv ? emit_csv(o, &s, &spec, &r, &uo, &at)
                : print_text(&s, &spec, &r, steps, &uo, &at, &cf);
    if (rc == EXIT_OK && !r.gpu_ok) {
        if (time_alone(&spec))
            cli_error("plan: no count of up to %.0f GPUs meets the deadline; the fastest is above",
                      r.scan.last);
        else
            cli_error("plan: no count of up to %.0f GPUs meets the targets; the nearest is above",
                      r.scan.last);
        rc = EXIT_VERDICT;
    }
    return rc;
}
