/* report_unc.h - the report's bands: the scenario's cluster and the
 * fewest GPUs as fast (as `compare -n N` finds them, src/plan/cmp.h),
 * each drawn over its description's +- ranges and its model's own error
 * (src/plan/unc.h, through cmp_bands: the sides' draws independent, paired
 * for the ratio), as the table uncertainty.csv and a section of index.md
 * with P10, P50 and P90 of each side's step time, time-to-train and
 * energy and of the GPU / weight-streaming ratio. */
#ifndef CP_REPORT_UNC_H
#define CP_REPORT_UNC_H

#include <stdio.h>

#include "../face/unc_opt.h"
#include "report_compare.h"

/* Draws of each side in a report, and their seed (as compare's default). */
#define REPORT_UNC_SAMPLES UNC_COMMAND_SAMPLES
#define REPORT_UNC_SEED UNC_DEFAULT_SEED

/* uncertainty.csv into t (initialised here): columns side, system, units,
 * quantity, unit, p10, p50, p90 (SI); rows for each side that has an
 * answer, then the ratio's (side gpu_over_weight_streaming).  The result
 * is kept in x for report_unc_index.  -1, or an exit code after a message
 * (a draw that fails). */
int report_unc_table(const struct scenario *s, struct report_cmp *x, struct out_table *t);

/* The section of index.md: the two clusters, the draws and the table of
 * P50 [P10, P90]; nothing when report_unc_table did not run. */
void report_unc_index(FILE *f, const struct scenario *s, const struct report_cmp *x);

#endif
