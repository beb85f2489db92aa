/* unc_opt.h - --uncertainty[=SAMPLES] and --seed for estimate, scale and
 * plan, on either kind of cluster: parse them, run the draws over the
 * job's +- ranges (src/plan/unc.h, through the training-model interface)
 * and show the bands, as lines for people or as extra table columns. */
#ifndef CP_UNC_OPT_H
#define CP_UNC_OPT_H

#include "scenario_ws.h"
#include "../plan/unc.h"
#include "../tm/tm.h"

struct unc_opt {
    int on;
    size_t samples;
    unsigned long seed;
    double confidence; /* plan, compare: 0 < P < 1; 0 when not given */
};

/* From o->uncertainty and o->seed (estimate, scale: no draws without
 * --uncertainty); -1, or an exit code after a message. */
int unc_opt_parse(const struct cli_opts *o, struct unc_opt *u);

/* The same for plan and compare, which draw UNC_COMMAND_SAMPLES by
 * default (--uncertainty=0: none; --seed alone is taken), and
 * --confidence P into u->confidence (refused, naming the flag, unless 0 <
 * P < 1, and without draws).  -1, or an exit code after a message. */
int unc_opt_parse_plan(const struct cli_opts *o, struct unc_opt *u);

/* --confidence with a budget alone is refused: the plan is then the
 * fastest count within it, and the fewest that meet it would be another
 * question.  -1, or an exit code after a message. */
int unc_opt_conf_targets(const struct unc_opt *u, const struct cli_opts *o);

/* One configuration whose band is drawn: a job at a count (the job's own
 * when <= 0) under a scaling; none (empty cells) when skip is set (a
 * count at which the job does not run). */
struct unc_at {
    struct tm_job job;
    double count;
    enum tm_scaling mode;
    int skip;
};

/* "uncertainty: N draws of the K hardware keys with a +- range and the
 * model's own error (fit.model_error +- 23 %) (seed S);" and "P50 [P10,
 * P90]" for the draws r of job j, on stdout. */
void unc_opt_head(const struct unc_opt *u, const struct tm_job *j, const struct unc_result *r);

/* "P50 [P10, P90]" of b in dimension d (a duration when duration is
 * set, an energy in Wh with UNIT_ENERGY) into buf; returns buf. */
const char *unc_opt_band(const struct unc_band *b, unit_dim d, int duration, char *buf, size_t n);

/* Lines with the 10th, 50th and 90th percentiles of step time, time-to-train
 * and energy of a, with the ranges of src; with deadline > 0 also the
 * share of draws that meet it.  Nothing when u is off.  -1, or an exit
 * code after a message. */
int unc_opt_print(const struct unc_opt *u, const struct unc_at *a, const struct desc_src *src,
                  double deadline);

/* Add the band columns to t, row i for configuration a[i] for the first
 * n rows, empty in the others (a GPU estimate's runners-up): for CSV (csv != 0) step_time_p10_s, _p50_s, _p90_s and
 * time_to_train_p10_s .. p90 in seconds; for people two columns "P50
 * [P10, P90]".  Nothing when u is off.  -1, or an exit code. */
int unc_opt_columns(const struct unc_opt *u, const struct unc_at *a, size_t n,
                    const struct desc_src *src, int csv, struct out_table *t);

#endif
