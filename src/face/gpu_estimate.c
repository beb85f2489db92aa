/* gpu_estimate.c - `estimate` on a GPU system: the layout search's best layout
 * with its step-time breakdown, memory per GPU, time-to-train, power,
 * energy and cost, then the runners-up; --csv gives one row per layout
 * kept.  Exit 2 when no layout divides the job (the message names the
 * figure), 1 when none fits in HBM (the message gives the bytes). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "money.h"
#include "../base/units.h"
#include "gpu_cells.h"
#include "gscen.h"
#include "gpu.h"
#include "unc_opt.h"
#include "../gpu/gpu_tm.h"
#include "../cli/out.h"

/* "--tp 8 x --cp 2 = 16 GPUs" (or "--cp 2" alone) of the fixed figures
 * among tp, pp, cp into buf; their product. */
static double fixed_product(const struct gpu_search_spec *p, char *buf, size_t n)
{
    const char *const flag[] = {"--tp", "--pp", "--cp"};
    const double fig[] = {p->tp, p->pp, p->cp};
    double prod = 1;
    int k = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3; i++) {
        if (fig[i] == GPU_SEARCH_FREE)
            continue;
        prod *= fig[i];
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s %g", k++ ? " x " : "",
                                flag[i], fig[i]);
    }
    if (k > 1 && len < n)
        snprintf(buf + len, n - len, " = %g GPUs", prod);
    return prod;
}

/* With fixed figures, check them on their own first so a layout that
 * cannot divide is named by its flag (gscen_fixed_check, the GPU count,
 * gpu_check), not by the search. */
static int check_fixed(const struct gscen *s)
{
    const struct gpu_search_spec *p = &s->spec;
    int rc = gscen_fixed_check(p, &s->wl, &s->g);
    if (rc >= 0)
        return rc;
    if (p->tp == GPU_SEARCH_FREE && p->pp == GPU_SEARCH_FREE && p->cp == GPU_SEARCH_FREE)
        return -1; /* a micro-batch alone: the search says which dp it fails */
    char fixed[96];
    double prod = fixed_product(p, fixed, sizeof fixed);
    if (fmod(p->gpus, prod) != 0)
        return cli_error("%s does not divide the %g GPUs (-n)", fixed, p->gpus);
    /* dp is known only when tp, pp and cp are all fixed (cp is 1 when the
     * search does not try it); else 1, and the search says which dp fails */
    int all = p->tp && p->pp && (p->cp || !p->allow_cp);
    if (all && p->fsdp == 1 && p->gpus == prod)
        return cli_error("--fsdp shards over the data-parallel GPUs, but %s of the %g (-n) "
                         "leave dp = 1",
                         fixed, p->gpus);
    double tp = p->tp ? p->tp : 1, pp = p->pp ? p->pp : 1, cp = p->cp ? p->cp : 1;
    struct gpu_layout l = gpu_layout_default(tp, pp, all ? p->gpus / prod : 1, 1);
    l.cp = cp;
    l.vp = p->pp && p->vp ? p->vp : 1;
    l.fsdp = all && p->fsdp == 1;
    l.precision = p->precision;
    struct cp_error err = {0};
    if (gpu_check(&s->g, &s->wl, &l, &err) != CP_OK)
        return cli_error("%s on %s: %s", s->model, s->system, err.msg);
    return -1;
}

/* The kept layouts, one row each, with --uncertainty's band of the job
 * at its count (each draw its own fastest layout) on the first. */
static int emit_csv(const struct cli_opts *o, const struct job *j,
                    const struct gpu_search_result *sr)
{
    const struct gscen *s = j->scen;
    struct out_table t;
    out_init(&t, GC_NCOLS, gpu_col_name);
    static struct gpu_cells w;
    for (size_t i = 0; i < sr->n; i++) {
        gpu_cells_hit(&w, s, &s->spec, i + 1, &sr->hit[i]);
        out_row(&t, w.cell);
    }
    const struct unc_at at = {j->tm, 0, TM_STRONG, 0};
    int rc = unc_opt_columns(&j->uo, &at, 1, j->hw_src, 1, &t);
    if (rc < 0)
        rc = cli_emit(o, &t);
    out_free(&t);
    return rc;
}

static void print_parts(const struct gpu_result *r)
{
    struct out_table t;
    static const char *const h[] = {"part", "time", "share"};
    out_init(&t, 3, h);
    for (int p = 0; p < GPU_NPARTS; p++) {
        char a[32], b[32];
        snprintf(b, sizeof b, "%.1f %%", 100 * r->part_s[p] / r->step_s);
        out_row(&t,
                (const char *[]){gpu_part_name[p], out_num(0, r->part_s[p], UNIT_TIME, a, 32), b});
    }
    out_text.write(stdout, &t);
    out_free(&t);
}

/* The kept layouts, one row each; the fsdp column when any is FSDP. */
static void print_runners(const struct gpu_search_result *sr)
{
    enum { FSDP_COL = 7, NH = 12 };
    static const char *const h[NH] = {"rank", "tp",   "pp",        "vp",   "dp",  "cp",
                                      "mbs",  "fsdp", "recompute", "step", "MFU", "memory/GPU"};
    int fsdp = 0;
    for (size_t i = 0; i < sr->n; i++)
        fsdp |= sr->hit[i].layout.fsdp;
    const char *head[NH];
    size_t nh = 0;
    for (size_t k = 0; k < NH; k++)
        if (k != FSDP_COL || fsdp)
            head[nh++] = h[k];
    struct out_table t;
    out_init(&t, nh, head);
    for (size_t i = 0; i < sr->n; i++) {
        const struct gpu_layout *l = &sr->hit[i].layout;
        const struct gpu_result *r = &sr->hit[i].result;
        char c[NH][32];
        snprintf(c[0], 32, "%zu", i + 1);
        const double fig[] = {l->tp, l->pp, l->vp, l->dp, l->cp, l->mbs};
        for (size_t k = 0; k < 6; k++)
            snprintf(c[k + 1], 32, "%g", fig[k]);
        snprintf(c[FSDP_COL], 32, "%s", l->fsdp ? "yes" : "no");
        if (l->recompute == GPU_RC_BLOCK)
            snprintf(c[8], 32, "block %g", l->recompute_layers);
        else
            snprintf(c[8], 32, "%s", gpu_recompute_name[l->recompute]);
        out_num(0, r->step_s, UNIT_TIME, c[9], 32);
        snprintf(c[10], 32, "%.1f %%", 100 * r->mfu);
        out_num(0, r->mem_total, UNIT_BYTES, c[11], 32);
        const char *row[NH];
        size_t k = 0;
        for (size_t j = 0; j < NH; j++)
            if (j != FSDP_COL || fsdp)
                row[k++] = c[j];
        out_row(&t, row);
    }
    out_text.write(stdout, &t);
    out_free(&t);
}

/* The run of hit h of s to its end (gpu.h). */
static struct gpu_train run_of(const struct gscen *s, const struct gpu_search_hit *h)
{
    struct gpu_train t;
    gpu_train_eval(&s->g, s->spec.gpus, gscen_steps(s, s->spec.batch), s->price,
                   gpu_state_bytes(&s->wl), &h->result, &t);
    return t;
}

/* The "batch" verdict, as weight streaming prints it: the global batch
 * against the critical batch of critical tokens (a warning, not fatal). */
static void print_batch_verdict(const struct gscen *s, double critical)
{
    double batch = s->spec.batch * s->wl.seq_len;
    char a[64], b[64];
    printf("verdict    result   the numbers\n");
    printf("batch      %-8s global batch %s tokens vs critical %s", batch <= critical ? "holds" : "warning",
           unit_format(batch, UNIT_COUNT, a, sizeof a), unit_format(critical, UNIT_COUNT, b, sizeof b));
    if (batch > critical)
        printf(" (%.3gx): %s", batch / critical,
               s->batch_penalty ? "the extra tokens charged (--batch-penalty)"
                                : "the run needs more tokens than it is charged; --batch-penalty "
                                  "charges them");
    printf("\n\n");
}

static void print_best(const struct gscen *s, const struct gpu_search_result *sr)
{
    const struct gpu_layout *l = &sr->hit[0].layout;
    const struct gpu_result *r = &sr->hit[0].result;
    char a[64], b[64], c[64], lay[200];
    struct gpu_train t = run_of(s, &sr->hit[0]);
    printf("%s on %g x %s (%g node%s of %g), %s\n\n", s->wl.name, s->spec.gpus, s->g.name, t.nodes,
           t.nodes == 1 ? "" : "s", s->g.net.gpus_per_node, gpuhw_prec_name[l->precision]);
    printf("batch      %.0f sequence%s x %.0f = %.0f tokens per step; %.0f micro-batch%s per "
           "pipeline\n",
           s->spec.batch, s->spec.batch == 1 ? "" : "s", s->wl.seq_len,
           s->spec.batch * s->wl.seq_len, r->micro_batches, r->micro_batches == 1 ? "" : "es");
    printf("layout     %s\n", gpu_tm_layout_text(l, lay, sizeof lay));
    printf("           the fastest of %g layouts that fit (%g divide the job); runners-up below\n",
           sr->evaluated, sr->divided);
    char m[4][32];
    printf("memory     %s per GPU of %s usable: weights %s, gradients %s, optimizer %s, "
           "activations %s\n\n",
           out_num(0, r->mem_total, UNIT_BYTES, a, 64),
           out_num(0, r->mem_capacity, UNIT_BYTES, b, 64),
           out_num(0, r->mem_weights, UNIT_BYTES, m[0], 32),
           out_num(0, r->mem_grads, UNIT_BYTES, m[1], 32),
           out_num(0, r->mem_optimizer, UNIT_BYTES, m[2], 32),
           out_num(0, r->mem_act, UNIT_BYTES, m[3], 32));
    printf("step time  %s   bottleneck: %s\n\n", out_num(0, r->step_s, UNIT_TIME, a, 64),
           gpu_part_name[r->bottleneck]);
    print_parts(r);
    double critical, tokens = gscen_tokens(s, s->spec.batch, &critical);
    printf("\ntraining   %.4g token%s", tokens, tokens == 1 ? "" : "s");
    if (tokens != s->tokens)
        printf(" (x %.3f batch penalty)", tokens / s->tokens);
    printf(" in %.0f step%s: %s%s\n", t.steps, t.steps == 1 ? "" : "s",
           out_duration(t.time_s, a, 64),
           t.gp.finishes && t.gp.goodput < 1 ? " with the expected time lost to failures" : "");
    char text[512];
    printf("goodput    %s\n", money_goodput_text(&t.gp, t.time_ff_s, t.ckpt_bytes, text, sizeof text));
    printf("throughput %.6g tokens/s (%.4g per GPU), MFU %.1f %% of the %s peak\n", r->tokens_per_s,
           r->tokens_per_s / s->spec.gpus, 100 * r->mfu, gpuhw_prec_name[l->precision]);
    printf("energy     %s at %s (%g node%s at %s each, the vendor's maximum)\n",
           out_energy(t.energy_J, a, 64), out_num(0, t.power_W, UNIT_POWER, b, 64), t.nodes,
           t.nodes == 1 ? "" : "s", out_num(0, s->g.net.node_power_W, UNIT_POWER, c, 64));
    printf("cost       %s\n", money_cost_text(&t.costs, t.bom, t.nbom, &s->g.site, t.energy_J,
                                            t.nodes * s->g.net.gpus_per_node, t.time_s, s->price,
                                            "GPU", text, sizeof text));
    printf("\n");
    print_batch_verdict(s, critical);
    print_runners(sr);
}

/* The gate after the search (gpu.h): every kept layout's figures finite.
 * gscen_load's gate before the search bounds them; this one holds what is
 * printed to it.  -1, or EXIT_USAGE after the message. */
static int check_kept(const struct gscen *s, const struct gpu_search_result *sr)
{
    struct cp_error err = {0};
    for (size_t i = 0; i < sr->n; i++) {
        struct gpu_train t = run_of(s, &sr->hit[i]);
        if (gpu_figures_check(&sr->hit[i].result, &t, "", &err) != CP_OK)
            return cli_error("%s on %g x %s: %s", s->model, s->spec.gpus, s->system, err.msg);
    }
    return -1;
}

int gpu_estimate(const struct cli_opts *o, const struct job *j)
{
    const struct gscen *s = j->scen;
    int rc = check_fixed(s);
    if (rc >= 0)
        return rc;
    static struct gpu_tm_detail d;
    struct tm_result r;
    struct cp_error err = {0};
    if (tm_eval(&j->tm, 0, TM_STRONG, &r, &d, &err) != CP_OK)
        return cli_error("%s", err.msg);
    if (!r.runs) {
        cli_error("%s on %g x %s: %s", s->model, s->spec.gpus, s->system, r.why);
        /* a layout divides but none fits: the answer is "no", not bad input */
        return r.bad_input ? EXIT_USAGE : EXIT_VERDICT;
    }
    if ((rc = check_kept(s, &d.sr)) >= 0)
        return rc;
    if (o->csv)
        return emit_csv(o, j, &d.sr);
    print_best(s, &d.sr);
    const struct unc_at at = {j->tm, 0, TM_STRONG, 0};
    if ((rc = unc_opt_print(&j->uo, &at, j->hw_src, 0)) >= 0)
        return rc;
    return cli_flush();
}
