/* ws_scale.c - weight streaming's part of `scale` (scale.h): its columns,
 * the default 1..16 systems, whole counts, the speedups against 1 system.
 * scale_table, for the report, is the same rows from a scenario. */
#include <stdio.h>

#include "scale.h"
#include "ws.h"
#include "../model/ws_tm.h"
#include "../cli/produce.h"

static const char *const header[] = {
    "systems",         "global_batch_tokens",
    "step_time_s",     "tokens_per_s",
    "tps_speedup",     "efficiency",
    "time_to_train_s", "tta_speedup",
    "bottleneck",      "batch_ok",
    "batch_rule",      "train_tokens",
    "feasible",        "warnings",
};

/* The job the counts scale from: the job's cluster at 1 system with
 * (weak) the sequences per system of the job, b / s unrounded, so that
 * count n's global batch is b / s x n, grid_cluster's arithmetic, as the
 * rows were before scale.c (tm_eval at the job's own count s would take b
 * itself, which b / s x s can miss in the last bit: report's -n).  The
 * speedups are against its evaluation at 1 system. */
static struct cluster base;

static struct tm_job from(const struct job *j, const double *ns, enum tm_scaling mode,
                          struct scale_ref *ref)
{
    (void)ns;
    base = *(const struct cluster *)j->tm.own;
    if (mode == TM_WEAK)
        base.global_seqs = base.global_seqs / base.systems;
    base.systems = 1;
    struct tm_job b = {j->tm.kind, &base, 1};
    struct tm_result r;
    struct train_result t;
    struct cp_error err = {0};
    tm_eval(&b, 1, mode, &r, &t, &err); /* weight streaming's eval fails never */
    *ref = scale_ref_of(1, &r);
    return b;
}

static void row(const struct scale_row *a, struct out_table *t)
{
    const struct train_result *r = a->detail;
    char warn[256];
    const char *const *c = a->cell;
    out_row(t, (const char *[]){c[SCALE_COUNT], c[SCALE_TOKENS], c[SCALE_STEP], c[SCALE_TPS],
                                c[SCALE_SPEEDUP], c[SCALE_EFF], c[SCALE_TTT], c[SCALE_TTA],
                                step_res_name[r->step.bottleneck], r->batch_ok ? "1" : "0",
                                c[SCALE_RULE], c[SCALE_TRAIN], r->feasible ? "1" : "0",
                                train_warn_names(r->warnings, warn, sizeof warn)});
}

static const char *default_list(const struct job *j, char *buf, size_t n)
{
    (void)j;
    snprintf(buf, n, "1..16");
    return buf;
}

static int check(const struct job *j, const double *ns, size_t nn, const char *list)
{
    (void)j;
    int rc = -1;
    for (size_t i = 0; i < nn && rc < 0; i++)
        rc = scenario_whole_systems("--systems", list, ns[i]);
    return rc;
}

static const char *title(const struct job *j, enum tm_scaling mode, const struct scale_ref *ref,
                         char *buf, size_t n)
{
    const struct scenario *s = j->scen;
    char words[160];
    snprintf(buf, n, "%s on %s, MemoryX %s, sparsity %g, %s scaling (%s); speedups against 1 system",
             s->wl.name, s->hw.wse.name, s->tier, s->c.sparsity,
             mode == TM_WEAK ? "weak" : "strong",
             scale_batch_words(mode, ref, "system", words, sizeof words));
    return buf;
}

const struct scale_side ws_scale_side = {
    .header = header,
    .ncols = sizeof header / sizeof header[0],
    .default_list = default_list,
    .check = check,
    .from = from,
    .row = row,
    .title = title,
};

int scale_table(const struct cli_opts *o, const struct scenario *s, enum scaling mode,
                const char *systems, const struct unc_opt *uo, struct out_table *t,
                int *all_feasible)
{
    struct job j = {.tm = {&tm_ws, &s->c, s->c.systems}, .hw_src = &s->hw_src, .scen = s};
    struct scale_ref ref;
    return scale_rows(o, &ws_scale_side, &j, mode == SCALE_WEAK ? TM_WEAK : TM_STRONG, systems, uo,
                      t, all_feasible, &ref);
}
