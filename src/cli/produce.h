/* produce.h - the tables commands print, as producers other commands (the
 * report) reuse: each fills t as its command would print it, CSV-ready
 * when o->csv is set.  Each initialises t first, so the caller frees it
 * with out_free() whatever the result; -1 on success, else an exit code
 * after a message. */
#ifndef CP_PRODUCE_H
#define CP_PRODUCE_H

#include "../model/train.h"
#include "../face/unc_opt.h"

/* scale: one row per N of systems (a --systems list or range) for s in the
 * given mode, with uo's bands when uo is on (uo may be NULL). */
int scale_table(const struct cli_opts *o, const struct scenario *s, enum scaling mode,
                const char *systems, const struct unc_opt *uo, struct out_table *t,
                int *all_feasible);

/* capacity: one row per tier of o->system (every system when NULL) for
 * o->model; *fits counts the tiers that hold it; where and vendor (n bytes
 * each) get the smallest tier per system and the vendor's sizing.  Prints
 * the per-parameter breakdown first when !o->csv. */
int capacity_table(const struct cli_opts *o, struct out_table *t, int *fits, char *where,
                   char *vendor, size_t n);

/* claims: one row per claim of file (NULL: reports/claims.csv from the
 * search path); origin (origin_n bytes) gets the file read. */
int claims_table(const struct cli_opts *o, const char *file, struct out_table *t, char *origin,
                 size_t origin_n);

/* crosscheck: the grid, worst first; *worst and *median are |rel_diff|. */
int crosscheck_table(const struct cli_opts *o, struct out_table *t, double *worst, double *median);

/* validate: one row per point of the shipped weight-streaming corpus
 * (hw/measurements.csv from the search path; not the GPU runs), predicted
 * and left out, in the columns of validate --csv. */
int validate_table(struct cli_opts *o, struct out_table *t);

#endif
