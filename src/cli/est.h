/* est.h - the columns of one estimate, shared by every command that prints
 * estimates as CSV (estimate, and later plan, sweep, report). */
#ifndef CP_EST_H
#define CP_EST_H

#include "../model/train.h"
#include "out.h"
#include "scenario.h"

extern const char *const est_header[];
extern const size_t est_ncols;

/* Append one row for s evaluated as r (CSV: exact SI numbers). */
void est_row(struct out_table *t, const struct scenario *s, const struct cluster *c,
             const struct train_result *r);

/* The estimate for people: configuration, step-time breakdown by
 * resource, latency, training time, energy, cost, then the verdicts. */
void est_print(const struct scenario *s, const struct train_result *r);

/* "holds" / "fails" */
const char *est_verdict(int ok);

#endif
