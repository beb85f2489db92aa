/* gpu_plan.c - `plan --deadline` on a GPU system: the fewest GPUs whose
 * fastest layout trains the job within the deadline (every count in steps
 * of whole nodes searched upward, as compare does: src/plan/cmp.h), with
 * the layout, time, power, energy and cost, and the largest smaller count
 * that misses it.  The counts end at GSCEN_MAX_GPUS, the most -n takes
 * (estimate, scale and sweep refuse more).  Fixed figures the job refuses
 * at any count (--tp 3 of 64 heads, --pp 97 of 96 layers) are refused up
 * front naming the flag (cmpo_fixed_check), as estimate and compare do.
 * Exit 1 when no count up to the bound meets it. */
#include <math.h>
#include <stdio.h>

#include "../plan/cmp.h"
#include "cmp_opts.h"
#include "progress.h"
#include "gscen.h"
#include "job.h"
#include "out.h"

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

static int emit_csv(const struct cli_opts *o, const struct gscen *s, const struct cmp_result *r)
{
    static const char *const h[] = {
        "model",   "system",   "deadline_s", "met",       "gpus",
        "nodes",   "tp",       "pp",         "vp",        "dp",
        "cp",      "fsdp",     "mbs",        "recompute", "time_to_train_s",
        "power_W", "energy_J", "cost"};
    struct out_table t;
    out_init(&t, sizeof h / sizeof h[0], h);
    const struct cmp_gpu *g = &r->g;
    const struct gpu_layout *l = &g->layout;
    const double v[] = {r->target_s, g->s.units,   g->s.nodes,    l->tp,           l->pp,
                        l->vp,       l->dp,        l->cp,         l->fsdp ? 1 : 0, l->mbs,
                        g->s.time_s, g->s.power_W, g->s.energy_J, g->s.cost};
    char c[14][32];
    for (size_t i = 0; i < 14; i++)
        out_num(1, v[i], UNIT_COUNT, c[i], 32);
    out_row(&t,
            (const char *[]){s->model, s->system, c[0], r->gpu_ok ? "1" : "0", c[1], c[2], c[3],
                             c[4], c[5], c[6], c[7], c[8], c[9], gpu_recompute_name[l->recompute],
                             c[10], c[11], c[12], g->s.cost >= 0 ? c[13] : ""});
    int rc = cli_emit(o, &t);
    out_free(&t);
    return rc;
}

/* The answer as text: the job, the fewest (or fastest) count and the one
 * below it, what was searched, the cost. */
static int print_text(const struct gscen *s, const struct cmp_result *r, double steps)
{
    char a[32];
    printf("%s on %s, %s: %.4g token%s in %.0f step%s; deadline %s\n\n", s->wl.name, s->g.name,
           gpuhw_prec_name[s->spec.precision], s->tokens, s->tokens == 1 ? "" : "s", steps,
           steps == 1 ? "" : "s", out_duration(r->target_s, a, sizeof a));
    print_side(r->gpu_ok ? "fewest" : "fastest", &r->g);
    if (r->has_below)
        print_side("below", &r->below);
    printf("\nsearched %.0f counts of %.0f to %.0f GPUs in steps of %.0f (%.0f run a layout, "
           "%.0f layouts evaluated); power is whole nodes at %s each, the vendor's maximum\n",
           r->scan.counts, r->scan.step, r->scan.last, r->scan.step, r->scan.runs,
           r->scan.layouts, out_num(0, s->g.net.node_power_W, UNIT_POWER, a, sizeof a));
    if (r->g.s.cost >= 0)
        printf("cost %.6g (%.6g GPU-hours at %g)\n", r->g.s.cost,
               r->g.s.nodes * s->g.net.gpus_per_node * r->g.s.time_s / UNIT_HOUR_S, s->price);
    return cli_flush();
}

int gpu_plan(struct cli_opts *o)
{
    if (o->energy || o->budget || o->allow_sparsity || o->allow_batch)
        return cli_error("plan: on a GPU system only --deadline is a target (%s applies to "
                         "weight-streaming systems)",
                         o->energy           ? "--energy"
                         : o->budget         ? "--budget"
                         : o->allow_sparsity ? "--allow-sparsity"
                                             : "--allow-batch");
    if (!o->deadline)
        return cli_error("plan: give a target: --deadline TIME");
    static struct gscen s;
    int rc = gscen_load(o, "plan", &s);
    if (rc >= 0 || (rc = cmpo_fixed_check(o, &s.spec, &s.wl, &s.g)) >= 0)
        return rc;
    static struct cmp_result r;
    char why[256];
    if (unit_parse(o->deadline, UNIT_TIME, &r.target_s, why, sizeof why) != 0)
        return cli_error("--deadline '%s': %s", o->deadline, why);
    if (!(r.target_s > 0) || !isfinite(r.target_s))
        return cli_error("--deadline '%s': must be a finite time greater than zero", o->deadline);
    struct cmp_spec spec = {.mode = CMP_DEADLINE,
                            .deadline_s = r.target_s,
                            .gpu = &s.g,
                            .layout = s.spec,
                            .gpu_price = isnan(s.price) ? -1 : s.price,
                            .max_gpus = GSCEN_MAX_GPUS};
    double steps = ceil(s.tokens / (s.spec.batch * s.wl.seq_len));
    struct progress pg;
    progress_start(&pg, "plan: GPU counts searched");
    spec.progress = progress_show;
    spec.progress_user = &pg;
    cmp_gpu_fewest(&spec, &s.wl, steps, &r);
    progress_end(&pg);
    if (!r.gpu_ran)
        return cli_error("plan: %s on %s: %s", s.model, s.system, r.gpu_why), EXIT_VERDICT;
    rc = o->csv ? emit_csv(o, &s, &r) : print_text(&s, &r, steps);
    if (rc == EXIT_OK && !r.gpu_ok) {
        cli_error("plan: no count of up to %.0f GPUs meets the deadline; the fastest is above",
                  r.scan.last);
        rc = EXIT_VERDICT;
    }
    return rc;
}
