/* unc_opt.h - --uncertainty[=SAMPLES] and --seed for estimate, scale and
 * plan: parse them, run the draws (src/plan/unc.h) and show the bands, as
 * lines for people or as extra table columns. */
#ifndef CP_UNC_OPT_H
#define CP_UNC_OPT_H

#include "../cli/scenario.h"

struct unc_opt {
    int on;
    size_t samples;
    unsigned long seed;
};

/* From o->uncertainty and o->seed; -1, or an exit code after a message. */
int unc_opt_parse(const struct cli_opts *o, struct unc_opt *u);

/* Lines with the 5th, 50th and 95th percentiles of step time, time-to-train
 * and energy of s->c; with deadline > 0 also the share of draws that meet
 * it.  Nothing when u is off.  -1, or an exit code after a message. */
int unc_opt_print(const struct unc_opt *u, const struct scenario *s, double deadline);

/* Add the band columns to t, row i for configuration cs[i] (t has one row
 * per configuration): for CSV (csv != 0) step_time_p05_s .. p95 and
 * time_to_train_p05_s .. p95 in seconds; for people two columns "p50
 * [p05, p95]".  Nothing when u is off.  -1, or an exit code. */
int unc_opt_columns(const struct unc_opt *u, const struct scenario *s, int csv, struct out_table *t,
                    const struct cluster *cs);

#endif
