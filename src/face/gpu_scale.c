/* gpu_scale.c - the GPUs' part of `scale` (scale.h): for each GPU count
 * of --systems the layout search's fastest layout, its MFU and memory per
 * GPU beside the common cells; the speedups and efficiency against the
 * first count that runs.  Weak scaling (the default) keeps the sequences
 * per GPU of the first count: the global batch grows with N and its
 * tokens are charged the batch penalty (tm.h); strong keeps the global
 * batch.  A count no layout divides or fits in is a row that says
 * so (exit 1).  Fixed figures the job refuses at any count, or whose
 * product divides none of the counts, are refused up front (exit 2)
 * naming the flag. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmp_opts.h"
#include "gscen.h"
#include "gpu.h"
#include "scale.h"
#include "../gpu/gpu_tm.h"

static const char *const header[] = {
    "gpus",       "layout",        "global_batch_tokens", "step_time_s",  "tokens_per_s",
    "tps_speedup", "efficiency",   "time_to_train_s",     "tta_speedup",  "mfu",
    "mem_per_gpu_B", "bottleneck", "batch_ok",            "batch_rule",   "train_tokens",
    "feasible",   "reason"};
#define NCOLS (sizeof header / sizeof header[0])

/* "tp 8 pp 4 vp 12 dp 32 cp 1 mbs 4 none", and " fsdp" when the layout
 * shards its weights over dp */
static void layout_word(const struct gpu_layout *l, char *buf, size_t n)
{
    if (snprintf(buf, n, "tp %g pp %g vp %g dp %g cp %g mbs %g %s%s", l->tp, l->pp, l->vp, l->dp,
                 l->cp, l->mbs, gpu_recompute_name[l->recompute], l->fsdp ? " fsdp" : "") >= (int)n)
        buf[n - 1] = '\0'; /* cut: whole figures of a million GPUs fit in 96 */
}

/* One count's row: its layout, and "-" with the reason where it runs
 * none. */
static void row(const struct scale_row *a, struct out_table *t)
{
    const char *const *c = a->cell;
    if (!a->r->runs) {
        out_row(t, (const char *[]){c[SCALE_COUNT], "-", c[SCALE_TOKENS], "", "", "", "", "", "",
                                    "", "", "-", "", c[SCALE_RULE], "", "0", a->r->why});
        return;
    }
    const struct gpu_tm_detail *d = a->detail;
    char lay[96], mfu[64], mem[64];
    layout_word(&d->sr.hit[0].layout, lay, sizeof lay);
    int batch_ok = a->r->global_tokens <= a->r->critical_tokens; /* the "batch" verdict */
    out_row(t, (const char *[]){
                   c[SCALE_COUNT], lay, c[SCALE_TOKENS], c[SCALE_STEP], c[SCALE_TPS],
                   c[SCALE_SPEEDUP], c[SCALE_EFF], c[SCALE_TTT], c[SCALE_TTA],
                   out_num(a->csv, a->r->mfu, UNIT_FRACTION, mfu, sizeof mfu),
                   out_num(a->csv, d->sr.hit[0].result.mem_total, UNIT_BYTES, mem, sizeof mem),
                   a->r->part_name[a->r->bottleneck], batch_ok ? "1" : "0", c[SCALE_RULE],
                   c[SCALE_TRAIN], "1", ""});
}

/* The counts of --systems (list): whole, 1 to GSCEN_MAX_GPUS, each
 * named with its own problem; and fixed tp, pp, cp whose product divides
 * none of them refused up front (every row would say so), naming the
 * flags.  -1 or an exit code after a message. */
static int check_counts(const struct gpu_search_spec *p, const double *ns, size_t nn,
                        const char *list)
{
    for (size_t i = 0; i < nn; i++) {
        if (ns[i] != floor(ns[i]))
            return cli_error("--systems '%s': %.17g is not a whole number of GPUs", list, ns[i]);
        if (!(ns[i] >= 1 && ns[i] <= GSCEN_MAX_GPUS))
            return cli_error("--systems '%s': %.17g GPUs is outside 1 to %.0f, the most GPUs a "
                             "run may name",
                             list, ns[i], GSCEN_MAX_GPUS);
    }
    const char *const flag[] = {"--tp", "--pp", "--cp"};
    const double fig[] = {p->tp, p->pp, p->cp};
    char named[96] = "";
    double prod = 1;
    size_t len = 0;
    for (int i = 0; i < 3; i++)
        if (fig[i] != GPU_SEARCH_FREE) {
            prod *= fig[i];
            len += (size_t)snprintf(named + len, len < sizeof named ? sizeof named - len : 0,
                                    "%s%s %.0f", len ? " x " : "", flag[i], fig[i]);
        }
    for (size_t i = 0; i < nn; i++)
        if (fmod(ns[i], prod) == 0)
            return -1;
    return cli_error("%s (%.0f GPUs a replica) divides none of the GPU counts of --systems '%s'",
                     named, prod, list);
}

/* Fixed figures the job refuses at any count, up front. */
static int refuse(const struct cli_opts *o, const struct job *j)
{
    const struct gscen *s = j->scen;
    struct gpu_search_spec fixed = s->spec;
    return cmpo_fixed_check(o, &fixed, &s->wl, &s->g);
}

/* A node's GPUs up to 128 nodes, doubling. */
static const char *default_list(const struct job *j, char *buf, size_t n)
{
    const struct gscen *s = j->scen;
    snprintf(buf, n, "%g..%gx2", s->g.net.gpus_per_node, 128 * s->g.net.gpus_per_node);
    return buf;
}

static int check(const struct job *j, const double *ns, size_t nn, const char *list)
{
    return check_counts(&((const struct gscen *)j->scen)->spec, ns, nn, list);
}

/* The job at the first count (weak scaling keeps its sequences per
 * GPU), one layout kept a count; the speedup's reference is the first
 * count that runs. */
static struct tm_job from(const struct job *j, const double *ns, enum tm_scaling mode,
                          struct scale_ref *ref)
{
    (void)mode, (void)ref;
    static struct gpu_tm_job g;
    g = *(const struct gpu_tm_job *)j->tm.own;
    g.spec.gpus = ns[0];
    g.spec.keep = 1;
    return (struct tm_job){j->tm.kind, &g, ns[0]};
}

static const char *title(const struct job *j, enum tm_scaling mode, const struct scale_ref *ref,
                         char *buf, size_t n)
{
    const struct gscen *s = j->scen;
    char words[160];
    snprintf(buf, n, "%s on %s, %s, %s scaling (%s); %s", s->wl.name, s->g.name,
             gpuhw_prec_name[s->spec.precision], mode == TM_WEAK ? "weak" : "strong",
             scale_batch_words(mode, ref, "GPU", words, sizeof words),
             ref->n > 0 ? "speedups against the first count that runs" : "no count runs a layout");
    return buf;
}

const struct scale_side gpu_scale_side = {
    .header = header,
    .ncols = NCOLS,
    .progress = "scale: GPU counts",
    .default_list = default_list,
    .refuse = refuse,
    .check = check,
    .from = from,
    .row = row,
    .title = title,
};
