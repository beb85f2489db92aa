/* unc_opt.h - --uncertainty[=SAMPLES] and --seed for estimate, scale and
 * plan, on either kind of cluster: parse them, run the draws over the
 * job's +- ranges (src/plan/unc.h, through the training-model interface)
 * and show the bands, as lines for people or as extra table columns. */
#ifndef CP_UNC_OPT_H
#define CP_UNC_OPT_H

#include "scenario_ws.h"
#include "../tm/tm.h"

struct unc_opt {
    int on;
    size_t samples;
    unsigned long seed;
};

/* From o->uncertainty and o->seed; -1, or an exit code after a message. */
int unc_opt_parse(const struct cli_opts *o, struct unc_opt *u);

/* One configuration whose band is drawn: a job at a count (the job's own
 * when <= 0) under a scaling; none (empty cells) when skip is set (a
 * count at which the job does not run). */
struct unc_at {
    struct tm_job job;
    double count;
    enum tm_scaling mode;
    int skip;
};

/* Lines with the 5th, 50th and 95th percentiles of step time, time-to-train
 * and energy of a, with the ranges of src; with deadline > 0 also the
 * share of draws that meet it.  Nothing when u is off.  -1, or an exit
 * code after a message. */
int unc_opt_print(const struct unc_opt *u, const struct unc_at *a, const struct desc_src *src,
                  double deadline);

/* Add the band columns to t, row i for configuration a[i] for the first
 * n rows, empty in the others (a GPU estimate's runners-up): for CSV (csv != 0) step_time_p05_s .. p95 and
 * time_to_train_p05_s .. p95 in seconds; for people two columns "p50
 * [p05, p95]".  Nothing when u is off.  -1, or an exit code. */
int unc_opt_columns(const struct unc_opt *u, const struct unc_at *a, size_t n,
                    const struct desc_src *src, int csv, struct out_table *t);

#endif
