/* report_decide.h - the report's first section, the decision: the
 * weight-streaming cluster and the GPU cluster side by side for the
 * report's job, as `compare` finds them (src/plan/cmp.h): with --deadline
 * the fewest of each that meet it (with --confidence, in that share of
 * their draws), else the report's N systems and the fewest GPUs as fast.
 * Each side's count and cluster (its kind's description of the result,
 * tm.h), time-to-train P50 and P90 and energy (cmp_bands), power, the
 * share of draws meeting the deadline, and the three hardware keys the
 * answer depends on most: both sides' sensitivity rankings (sens.h)
 * merged by |elasticity|, each key with its value, where its value comes
 * from (fitted, assumed, derived, counted or published, read from the
 * comment above it in its description) and its elasticity.  Nothing is
 * computed here but through those calls.  As decision.csv and the
 * section of index.md. */
#ifndef CP_REPORT_DECIDE_H
#define CP_REPORT_DECIDE_H

#include <stdio.h>

#include "report_compare.h"

/* --deadline and --confidence (and the plan options report refuses) into
 * x, before anything is written.  -1 or an exit code after a message. */
int report_decide_opts(const struct cli_opts *o, struct report_cmp *x);

/* Run the comparison, its draws and both sides' sensitivity, and write
 * decision.csv into t (initialised here): columns quantity, unit,
 * weight_streaming, gpu, SI units, a cell empty where the side has no
 * answer; the result kept in x for report_decide_index.  o gives the
 * search path, to read the descriptions' comments.  -1 or an exit code
 * after a message. */
int report_decide_table(const struct cli_opts *o, const struct scenario *s, struct report_cmp *x,
                        struct out_table *t);

/* The section of index.md ("## The decision"); nothing when
 * report_decide_table did not run. */
void report_decide_index(FILE *f, const struct scenario *s, const struct report_cmp *x);

#endif
