/* ws_estimate.c - the weight-streaming face of `estimate`: one
 * configuration, its step-time breakdown, time-to-train, energy and
 * verdicts. */
#include <stdio.h>

#include "est.h"
#include "ws.h"
#include "unc_opt.h"

int ws_estimate(const struct cli_opts *o, const struct job *j)
{
    const struct scenario *s = j->scen;
    const struct unc_opt *uo = &j->uo;
    static struct train_result r;
    struct tm_result tr;
    struct cp_error err = {0};
    if (tm_eval(&j->tm, 0, TM_STRONG, &tr, &r, &err) != CP_OK)
        return cli_error("%s", err.msg);
    int rc;
    const struct unc_at at = {j->tm, 0, TM_STRONG, 0};
    if (o->csv) {
        struct out_table t;
        out_init(&t, est_ncols, est_header);
        est_row(&t, s, &s->c, &r);
        if ((rc = unc_opt_columns(uo, &at, 1, &s->hw_src, 1, &t)) < 0)
            rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        est_print(s, &r);
        if ((rc = unc_opt_print(uo, &at, &s->hw_src, 0)) < 0)
            rc = cli_flush();
    }
    if (rc == EXIT_OK && !tr.feasible)
        rc = EXIT_VERDICT;
    return rc;
}
