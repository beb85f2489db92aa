/* cmd_estimate.c - `estimate`: one configuration, its step-time breakdown,
 * time-to-train, energy and verdicts. */
#include <stdio.h>

#include "est.h"
#include "job.h"
#include "unc_opt.h"

int ws_estimate(struct cli_opts *o)
{
    int refused = scenario_refuse_gpu_opts(o, "estimate");
    if (refused >= 0)
        return refused;
    static struct scenario s;
    struct unc_opt uo;
    int rc = unc_opt_parse(o, &uo);
    if (rc >= 0 || (rc = scenario_load(o, &s)) >= 0)
        return rc;
    struct train_result r;
    train_eval(&s.c, &r);
    if (o->csv) {
        struct out_table t;
        out_init(&t, est_ncols, est_header);
        est_row(&t, &s, &s.c, &r);
        if ((rc = unc_opt_columns(&uo, &s, 1, &t, &s.c)) < 0)
            rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        est_print(&s, &r);
        if ((rc = unc_opt_print(&uo, &s, 0)) < 0)
            rc = cli_flush();
    }
    if (rc == EXIT_OK && !r.feasible)
        rc = EXIT_VERDICT;
    return rc;
}
