/* scale.c - `scale` on any kind of cluster (scale.h): the counts of
 * --systems checked by the kind's side, each evaluated through the
 * training-model interface from the job the side says the counts scale
 * from, the common cells formatted here and the row laid out by the side,
 * the --uncertainty bands of the same evaluations, then the title and the
 * table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"
#include "../base/xalloc.h"
#include "../cli/progress.h"
#include "../cli/range.h"

struct scale_ref scale_ref_of(double n, const struct tm_result *r)
{
    return (struct scale_ref){n, r->tokens_per_s, r->time_s, r->critical_tokens,
                              r->batch_penalty};
}

const char *scale_batch_words(enum tm_scaling mode, const struct scale_ref *ref, const char *unit,
                              char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s", mode == TM_WEAK ? "sequences per " : "global batch fixed");
    if (mode == TM_WEAK && len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "%s fixed", unit);
    if (ref->n > 0 && len >= 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, "; %s the critical batch of %.4g tokens",
                 ref->penalty ? "the batch penalty charged against" : "no batch penalty against",
                 ref->critical_tokens);
    return buf;
}

/* The row of r (at count n, with the kind's detail) against ref, through
 * the side's row. */
static void add_row(int csv, double n, enum tm_scaling mode, const struct tm_result *r,
                    const void *detail, const struct scale_ref *ref, const struct scale_side *sd,
                    struct out_table *t)
{
    char c[SCALE_NCELLS][64];
    struct scale_row a = {csv, n, mode, r, detail, {""}};
    for (size_t k = 0; k < SCALE_NCELLS; k++)
        a.cell[k] = "";
    a.cell[SCALE_COUNT] = out_num(csv, n, UNIT_COUNT, c[SCALE_COUNT], 64);
    a.cell[SCALE_TOKENS] = out_num(csv, r->global_tokens, UNIT_COUNT, c[SCALE_TOKENS], 64);
    a.cell[SCALE_RULE] = r->batch_penalty ? "penalty" : "none";
    if (r->runs) {
        double speedup = r->tokens_per_s / ref->tokens_per_s;
        a.cell[SCALE_STEP] = out_num(csv, r->step_s, UNIT_TIME, c[SCALE_STEP], 64);
        a.cell[SCALE_TPS] = out_num(csv, r->tokens_per_s, UNIT_COUNT, c[SCALE_TPS], 64);
        a.cell[SCALE_SPEEDUP] = out_num(csv, speedup, UNIT_COUNT, c[SCALE_SPEEDUP], 64);
        a.cell[SCALE_EFF] = out_num(csv, speedup * ref->n / n, UNIT_FRACTION, c[SCALE_EFF], 64);
        a.cell[SCALE_TTT] = csv ? unit_format_exact(r->time_s, c[SCALE_TTT], 64)
                                : out_duration(r->time_s, c[SCALE_TTT], 64);
        a.cell[SCALE_TTA] = out_num(csv, ref->time_s / r->time_s, UNIT_COUNT, c[SCALE_TTA], 64);
        a.cell[SCALE_TRAIN] = out_num(csv, r->tokens, UNIT_COUNT, c[SCALE_TRAIN], 64);
    }
    sd->row(&a, t);
}

int scale_rows(const struct cli_opts *o, const struct scale_side *sd, const struct job *j,
               enum tm_scaling mode, const char *list, const struct unc_opt *uo,
               struct out_table *t, int *all_ok, struct scale_ref *ref)
{
    out_init(t, sd->ncols, sd->header);
    *all_ok = 1;
    *ref = (struct scale_ref){0, 0, 0, 0, 0};
    double *ns;
    size_t nn;
    int rc = range_parse("--systems", list, j->tm.kind->units, &ns, &nn);
    if (rc >= 0)
        return rc;
    if ((rc = sd->check(j, ns, nn, list)) >= 0) {
        free(ns);
        return rc;
    }
    struct tm_job from = sd->from(j, ns, mode, ref);
    /* the kind's detail, zeroed as a first evaluation wants it; the
     * configurations of --uncertainty's bands */
    void *detail = xmalloc(j->tm.kind->detail_size);
    memset(detail, 0, j->tm.kind->detail_size);
    struct unc_at *at = xmalloc((nn ? nn : 1) * sizeof *at);
    struct progress pg;
    if (sd->progress)
        progress_start(&pg, sd->progress);
    for (size_t i = 0; i < nn; i++) {
        if (sd->progress)
            progress_show(&pg, i, nn);
        struct tm_result r;
        struct cp_error err = {0};
        if (tm_eval(&from, ns[i], mode, &r, detail, &err) != CP_OK)
            snprintf(r.why, sizeof r.why, "%s", err.msg), r.runs = 0;
        if (r.runs && ref->n == 0)
            *ref = scale_ref_of(ns[i], &r);
        add_row(o->csv, ns[i], mode, &r, detail, ref, sd, t);
        at[i] = (struct unc_at){from, ns[i], mode, !r.runs};
        *all_ok &= r.runs && r.feasible;
    }
    if (sd->progress)
        progress_end(&pg);
    free(detail);
    free(ns);
    rc = uo ? unc_opt_columns(uo, at, nn, j->hw_src, o->csv, t) : -1;
    free(at);
    return rc;
}

int scale_run(const struct cli_opts *o, const struct job *j)
{
    const struct scale_side *sd = j->face->scale_side;
    enum tm_scaling mode = o->strong ? TM_STRONG : TM_WEAK;
    int rc = sd->refuse ? sd->refuse(o, j) : -1;
    if (rc >= 0)
        return rc;
    char def[64], title[1024];
    const char *list = o->systems ? o->systems : sd->default_list(j, def, sizeof def);
    struct out_table t;
    struct scale_ref ref;
    int all;
    if ((rc = scale_rows(o, sd, j, mode, list, &j->uo, &t, &all, &ref)) < 0) {
        if (!o->csv)
            printf("%s\n\n", sd->title(j, mode, &ref, title, sizeof title));
        rc = cli_emit(o, &t);
    }
    out_free(&t);
    return rc == EXIT_OK && !all ? EXIT_VERDICT : rc;
}
