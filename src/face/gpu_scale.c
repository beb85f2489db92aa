/* gpu_scale.c - `scale` on a GPU system: for each GPU count of --systems
 * the layout search's fastest layout, its step time, throughput, speedup
 * and efficiency against the first count, and the time-to-train.  Weak
 * scaling (the default) keeps the sequences per GPU of the first count:
 * the global batch grows with N; strong keeps the global batch.  A count
 * no layout divides or fits in is a row that says so, and the exit status
 * is then 1.  Fixed figures the job refuses at any count, or whose
 * product divides none of the counts, are refused up front (exit 2)
 * naming the flag. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmp_opts.h"
#include "gscen.h"
#include "gpu.h"
#include "unc_opt.h"
#include "../base/xalloc.h"
#include "../gpu/gpu_tm.h"
#include "../cli/progress.h"
#include "../cli/out.h"
#include "../cli/range.h"

static const char *const header[] = {"gpus",          "layout",          "global_batch_tokens",
                                     "step_time_s",   "tokens_per_s",    "speedup",
                                     "efficiency",    "time_to_train_s", "mfu",
                                     "mem_per_gpu_B", "bottleneck",      "feasible",
                                     "reason"};
#define NCOLS (sizeof header / sizeof header[0])

/* "tp 8 pp 4 vp 12 dp 32 cp 1 mbs 4 none", and " fsdp" when the layout
 * shards its weights over dp */
static void layout_word(const struct gpu_layout *l, char *buf, size_t n)
{
    if (snprintf(buf, n, "tp %g pp %g vp %g dp %g cp %g mbs %g %s%s", l->tp, l->pp, l->vp, l->dp,
                 l->cp, l->mbs, gpu_recompute_name[l->recompute], l->fsdp ? " fsdp" : "") >= (int)n)
        buf[n - 1] = '\0'; /* cut: whole figures of a million GPUs fit in 96 */
}

/* The first count that runs: its GPUs and tokens/s (0 until one runs). */
struct scale_ref {
    double n, tokens_per_s;
};

/* One count's row: n GPUs of job t (the GPU face's job at the first
 * count, so weak scaling keeps its sequences per GPU), evaluated through
 * the interface into d.  Returns whether the count runs. */
static int scale_row(const struct cli_opts *o, const struct tm_job *t, double n, int weak,
                     struct gpu_tm_detail *d, struct scale_ref *ref, struct out_table *t_out)
{
    struct tm_result r;
    struct cp_error err = {0};
    char c[NCOLS][96];
    out_num(o->csv, n, UNIT_COUNT, c[0], 64);
    if (tm_eval(t, n, weak ? TM_WEAK : TM_STRONG, &r, d, &err) != CP_OK)
        snprintf(r.why, sizeof r.why, "%s", err.msg), r.runs = 0;
    out_num(o->csv, r.global_tokens, UNIT_COUNT, c[2], 64);
    if (!r.runs) {
        out_row(t_out,
                (const char *[]){c[0], "-", c[2], "", "", "", "", "", "", "", "-", "0", r.why});
        return 0;
    }
    const struct gpu_result *b = &d->sr.hit[0].result;
    if (ref->n == 0)
        *ref = (struct scale_ref){n, r.tokens_per_s};
    double speedup = r.tokens_per_s / ref->tokens_per_s;
    layout_word(&d->sr.hit[0].layout, c[1], 96);
    out_num(o->csv, r.step_s, UNIT_TIME, c[3], 64);
    out_num(o->csv, r.tokens_per_s, UNIT_COUNT, c[4], 64);
    out_num(o->csv, speedup, UNIT_COUNT, c[5], 64);
    out_num(o->csv, speedup * ref->n / n, UNIT_FRACTION, c[6], 64);
    if (o->csv)
        unit_format_exact(r.time_s, c[7], 64);
    else
        out_duration(r.time_s, c[7], 64);
    out_num(o->csv, r.mfu, UNIT_FRACTION, c[8], 64);
    out_num(o->csv, b->mem_total, UNIT_BYTES, c[9], 64);
    out_row(t_out, (const char *[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9],
                                    r.part_name[r.bottleneck], "1", ""});
    return 1;
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

int gpu_scale(const struct cli_opts *o, const struct job *j)
{
    const struct gscen *s = j->scen;
    struct gpu_search_spec fixed = s->spec;
    int rc = cmpo_fixed_check(o, &fixed, &s->wl, &s->g);
    if (rc >= 0)
        return rc;
    double *ns;
    size_t nn;
    char def[64];
    snprintf(def, sizeof def, "%g..%gx2", s->g.net.gpus_per_node, 128 * s->g.net.gpus_per_node);
    const char *list = o->systems ? o->systems : def;
    if ((rc = range_parse("--systems", list, "GPUs", &ns, &nn)) >= 0)
        return rc;
    if ((rc = check_counts(&s->spec, ns, nn, list)) >= 0) {
        free(ns);
        return rc;
    }
    /* the job at the first count, one layout kept a count */
    struct gpu_tm_job g = *(const struct gpu_tm_job *)j->tm.own;
    g.spec.gpus = ns[0];
    g.spec.keep = 1;
    struct tm_job t = {j->tm.kind, &g, ns[0]};
    static struct gpu_tm_detail d;
    d.listed_for = NULL; /* another model or description than the last run's */
    struct out_table tab;
    out_init(&tab, NCOLS, header);
    int weak = !o->strong, all = 1;
    struct scale_ref ref = {0, 0};
    struct progress pg;
    progress_start(&pg, "scale: GPU counts");
    struct unc_at *at = xmalloc(nn * sizeof *at); /* --uncertainty's rows */
    for (size_t i = 0; i < nn; i++) {
        progress_show(&pg, i, nn);
        int runs = scale_row(o, &t, ns[i], weak, &d, &ref, &tab);
        at[i] = (struct unc_at){t, ns[i], weak ? TM_WEAK : TM_STRONG, !runs};
        all &= runs;
    }
    progress_end(&pg);
    free(ns);
    rc = unc_opt_columns(&j->uo, at, nn, j->hw_src, o->csv, &tab);
    free(at);
    if (rc >= 0) {
        out_free(&tab);
        return rc;
    }
    if (!o->csv)
        printf("%s on %s, %s, %s scaling (%s); %s\n\n", s->wl.name, s->g.name,
               gpuhw_prec_name[s->spec.precision], weak ? "weak" : "strong",
               weak ? "sequences per GPU fixed" : "global batch fixed",
               ref.n > 0 ? "speedup against the first count that runs" : "no count runs a layout");
    rc = cli_emit(o, &tab);
    out_free(&tab);
    return rc == EXIT_OK && !all ? EXIT_VERDICT : rc;
}
