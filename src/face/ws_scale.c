/* ws_scale.c - weight streaming's part of `scale` (scale.h): its columns,
 * the default 1..16 systems, whole counts, speedup against 1 system, and
 * tta_speedup, the time-to-train speedup with the tokens of a batch above
 * the critical batch charged (the batch penalty on).  scale_table, for the
 * report, is the same rows from a scenario. */
#include <stdio.h>

#include "scale.h"
#include "ws.h"
#include "../model/ws_tm.h"
#include "../cli/produce.h"

static const char *const header[] = {
    "systems",         "global_batch_tokens",
    "step_time_s",     "tokens_per_s",
    "speedup",         "efficiency",
    "time_to_train_s", "tta_speedup",
    "bottleneck",      "batch_ok",
    "feasible",        "warnings",
};

/* The job the counts scale from: the job's cluster at 1 system with
 * (weak) the sequences per system of the job, b / s unrounded, so that
 * count n's global batch is b / s x n, grid_cluster's arithmetic, as the
 * rows were before scale.c (tm_eval at the job's own count s would take b
 * itself, which b / s x s can miss in the last bit: report's -n).  pen:
 * the same with the batch penalty on; pen_ref_s its time-to-train at 1
 * system. */
static struct cluster base, pen;
static double pen_ref_s;

static struct tm_job from(const struct job *j, const double *ns, enum tm_scaling mode,
                          struct scale_ref *ref)
{
    (void)ns;
    base = *(const struct cluster *)j->tm.own;
    if (mode == TM_WEAK)
        base.global_seqs = base.global_seqs / base.systems;
    base.systems = 1;
    pen = base;
    pen.batch_penalty = 1;
    struct tm_job b = {j->tm.kind, &base, 1}, p = {j->tm.kind, &pen, 1};
    struct tm_result r;
    struct train_result t;
    struct cp_error err = {0};
    tm_eval(&p, 1, mode, &r, &t, &err); /* weight streaming's eval fails never */
    pen_ref_s = r.time_s;
    tm_eval(&b, 1, mode, &r, &t, &err);
    *ref = (struct scale_ref){1, r.tokens_per_s};
    return b;
}

static void row(const struct scale_row *a, struct out_table *t)
{
    const struct train_result *r = a->detail;
    struct tm_job p = {&tm_ws, &pen, 1};
    struct tm_result rp;
    struct train_result tp;
    struct cp_error err = {0};
    tm_eval(&p, a->n, a->mode, &rp, &tp, &err);
    char tta[48], warn[256];
    out_row(t, (const char *[]){a->cell[SCALE_COUNT], a->cell[SCALE_TOKENS], a->cell[SCALE_STEP],
                                a->cell[SCALE_TPS], a->cell[SCALE_SPEEDUP], a->cell[SCALE_EFF],
                                a->cell[SCALE_TTT],
                                out_num(a->csv, pen_ref_s / rp.time_s, UNIT_COUNT, tta, sizeof tta),
                                step_res_name[r->step.bottleneck], r->batch_ok ? "1" : "0",
                                r->feasible ? "1" : "0",
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
    (void)ref;
    const struct scenario *s = j->scen;
    int weak = mode == TM_WEAK;
    snprintf(buf, n, "%s on %s, MemoryX %s, sparsity %g, %s scaling (%s); speedup against 1 system",
             s->wl.name, s->hw.wse.name, s->tier, s->c.sparsity, weak ? "weak" : "strong",
             weak ? "sequences per system fixed" : "global batch fixed");
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
