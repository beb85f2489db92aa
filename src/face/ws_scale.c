/* ws_scale.c - the weight-streaming face of `scale`: step time, speedup,
 * efficiency and time-to-train against the number of systems, under weak
 * or strong scaling. */
#include <stdio.h>
#include <stdlib.h>

#include "../base/xalloc.h"
#include "../grid/grid.h"

#include "est.h"
#include "ws.h"
#include "../model/ws_tm.h"
#include "../cli/range.h"
#include "../cli/produce.h"

static const char *const header[] = {
    "systems",         "global_batch_tokens",
    "step_time_s",     "tokens_per_s",
    "speedup",         "efficiency",
    "time_to_train_s", "tta_speedup",
    "bottleneck",      "batch_ok",
    "feasible",        "warnings",
};

int scale_table(const struct cli_opts *o, const struct scenario *s, enum scaling mode,
                const char *systems, const struct unc_opt *uo, struct out_table *t,
                int *all_feasible)
{
    double *ns;
    size_t nn;
    out_init(t, sizeof header / sizeof header[0], header);
    int rc = range_parse("--systems", systems, "systems", &ns, &nn);
    if (rc >= 0)
        return rc;
    struct train_result ref, r, ref_pen, pen;
    train_at(&s->c, 1, mode, &ref);
    /* Time-to-accuracy always charges the large-batch tokens. */
    struct cluster penalised = s->c;
    penalised.batch_penalty = 1;
    train_at(&penalised, 1, mode, &ref_pen);

    struct cluster *cs = xmalloc((nn ? nn : 1) * sizeof *cs); /* for the bands */
    struct unc_at *at = xmalloc((nn ? nn : 1) * sizeof *at);
    struct grid g = {.base = &s->c, .ns = ns, .nn = nn, .mode = mode};
    struct grid gp = {.base = &penalised, .ns = ns, .nn = nn, .mode = mode};
    *all_feasible = 1;
    for (size_t i = 0; i < nn && rc < 0; i++) {
        if ((rc = scenario_whole_systems("--systems", systems, ns[i])) >= 0)
            break;
        grid_eval(&g, i, &cs[i], &r);
        at[i] = (struct unc_at){{&tm_ws, &cs[i], cs[i].systems}, 0, TM_STRONG, 0};
        struct cluster cp;
        grid_eval(&gp, i, &cp, &pen);
        double speedup = r.tokens_per_s / ref.tokens_per_s;
        char b[8][48], warn[256];
        const char *row[] = {
            out_num(o->csv, ns[i], UNIT_COUNT, b[0], sizeof b[0]),
            out_num(o->csv, r.global_tokens, UNIT_COUNT, b[1], sizeof b[1]),
            out_num(o->csv, r.step.step_s, UNIT_TIME, b[2], sizeof b[2]),
            out_num(o->csv, r.tokens_per_s, UNIT_COUNT, b[3], sizeof b[3]),
            out_num(o->csv, speedup, UNIT_COUNT, b[4], sizeof b[4]),
            out_num(o->csv, speedup / ns[i], UNIT_FRACTION, b[5], sizeof b[5]),
            o->csv ? unit_format_exact(r.time_s, b[6], sizeof b[6])
                   : out_duration(r.time_s, b[6], sizeof b[6]),
            out_num(o->csv, ref_pen.time_s / pen.time_s, UNIT_COUNT, b[7], sizeof b[7]),
            step_res_name[r.step.bottleneck],
            r.batch_ok ? "1" : "0",
            r.feasible ? "1" : "0",
            train_warn_names(r.warnings, warn, sizeof warn),
        };
        out_row(t, row);
        *all_feasible &= r.feasible;
    }
    free(ns);
    if (rc < 0 && uo)
        rc = unc_opt_columns(uo, at, nn, &s->hw_src, o->csv, t);
    free(at);
    free(cs);
    return rc;
}

int ws_scale(const struct cli_opts *o, const struct job *j)
{
    const struct scenario *s = j->scen;
    enum scaling mode = o->strong ? SCALE_STRONG : SCALE_WEAK;
    struct out_table t;
    int all_feasible;
    int rc = scale_table(o, s, mode, o->systems ? o->systems : "1..16", &j->uo, &t, &all_feasible);
    if (rc < 0) {
        if (!o->csv)
            printf("%s on %s, MemoryX %s, sparsity %g, %s scaling (%s); speedup against 1 "
                   "system\n\n",
                   s->wl.name, s->hw.wse.name, s->tier, s->c.sparsity,
                   mode == SCALE_WEAK ? "weak" : "strong",
                   mode == SCALE_WEAK ? "sequences per system fixed" : "global batch fixed");
        rc = cli_emit(o, &t);
    }
    out_free(&t);
    if (rc == EXIT_OK && !all_feasible)
        rc = EXIT_VERDICT;
    return rc;
}
