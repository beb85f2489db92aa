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
#include "job.h"
#include "progress.h"
#include "out.h"
#include "range.h"

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

/* The layout search of s at its spec's count: the job's divisors listed
 * again only when its global batch changed (weak scaling), so a strong
 * scaling of many counts lists them once. */
static struct {
    struct gpu_search_job j;
    double batch; /* of j; 0: none listed (each run of gpu_scale starts so) */
    cp_status listed;
    struct cp_error why;
} listing;

static cp_status search_row(const struct gscen *s, struct gpu_search_result *sr,
                            struct cp_error *err)
{
    if (listing.batch != s->spec.batch) {
        listing.batch = s->spec.batch;
        listing.listed = gpu_search_job_init(&s->g, &s->wl, &s->spec, &listing.j, &listing.why);
    }
    if (listing.listed != CP_OK) {
        *err = listing.why;
        return listing.listed;
    }
    return gpu_search_at(&listing.j, s->spec.gpus, sr, err);
}

/* One count's row.  Returns whether the count runs. */
static int scale_row(const struct cli_opts *o, struct gscen *s, double n, double batch0, double n0,
                     int weak, struct scale_ref *ref, struct out_table *t)
{
    s->spec.gpus = n;
    s->spec.batch = weak ? fmax(1, round(batch0 * n / n0)) : batch0;
    s->wl.batch = s->spec.batch;
    static struct gpu_search_result sr;
    struct cp_error err = {0};
    s->spec.keep = 1;
    char c[NCOLS][96];
    out_num(o->csv, n, UNIT_COUNT, c[0], 64);
    out_num(o->csv, s->spec.batch * s->wl.seq_len, UNIT_COUNT, c[2], 64);
    if (search_row(s, &sr, &err) != CP_OK) {
        out_row(t,
                (const char *[]){c[0], "-", c[2], "", "", "", "", "", "", "", "-", "0", err.msg});
        return 0;
    }
    const struct gpu_result *r = &sr.hit[0].result;
    if (ref->n == 0)
        *ref = (struct scale_ref){n, r->tokens_per_s};
    double speedup = r->tokens_per_s / ref->tokens_per_s;
    layout_word(&sr.hit[0].layout, c[1], 96);
    out_num(o->csv, r->step_s, UNIT_TIME, c[3], 64);
    out_num(o->csv, r->tokens_per_s, UNIT_COUNT, c[4], 64);
    out_num(o->csv, speedup, UNIT_COUNT, c[5], 64);
    out_num(o->csv, speedup * ref->n / n, UNIT_FRACTION, c[6], 64);
    if (o->csv)
        unit_format_exact(gscen_steps(s->tokens, s->spec.batch, s->wl.seq_len) * r->step_s, c[7],
                          64);
    else
        out_duration(gscen_steps(s->tokens, s->spec.batch, s->wl.seq_len) * r->step_s, c[7], 64);
    out_num(o->csv, r->mfu, UNIT_FRACTION, c[8], 64);
    out_num(o->csv, r->mem_total, UNIT_BYTES, c[9], 64);
    out_row(t, (const char *[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9],
                                gpu_part_name[r->bottleneck], "1", ""});
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

int gpu_scale(struct cli_opts *o)
{
    static struct gscen s;
    listing.batch = 0; /* another model or description than the last run's */
    int rc = gscen_load(o, "scale", &s);
    if (rc >= 0 || (rc = cmpo_fixed_check(o, &s.spec, &s.wl, &s.g)) >= 0)
        return rc;
    double *ns;
    size_t nn;
    char def[64];
    snprintf(def, sizeof def, "%g..%gx2", s.g.net.gpus_per_node, 128 * s.g.net.gpus_per_node);
    const char *list = o->systems ? o->systems : def;
    if ((rc = range_parse("--systems", list, "GPUs", &ns, &nn)) >= 0)
        return rc;
    if ((rc = check_counts(&s.spec, ns, nn, list)) >= 0) {
        free(ns);
        return rc;
    }
    struct out_table t;
    out_init(&t, NCOLS, header);
    int weak = !o->strong, all = 1;
    double batch0 = s.spec.batch;
    struct scale_ref ref = {0, 0};
    struct progress pg;
    progress_start(&pg, "scale: GPU counts");
    for (size_t i = 0; i < nn; i++) {
        progress_show(&pg, i, nn);
        all &= scale_row(o, &s, ns[i], batch0, ns[0], weak, &ref, &t);
    }
    progress_end(&pg);
    free(ns);
    if (!o->csv)
        printf("%s on %s, %s, %s scaling (%s); %s\n\n", s.wl.name, s.g.name,
               gpuhw_prec_name[s.spec.precision], weak ? "weak" : "strong",
               weak ? "sequences per GPU fixed" : "global batch fixed",
               ref.n > 0 ? "speedup against the first count that runs" : "no count runs a layout");
    rc = cli_emit(o, &t);
    out_free(&t);
    return rc == EXIT_OK && !all ? EXIT_VERDICT : rc;
}
