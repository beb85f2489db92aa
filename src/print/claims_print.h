/* claims_print.h - `claims`'s table and text (claims_print.c): one row per
 * claim judged, CSV-ready (exact SI figures, verdict names) or worded for
 * people (units, percentages, "6.70x", verdicts in words), and the text
 * blocks the command and the report's index.md show. */
#ifndef CP_CLAIMS_PRINT_H
#define CP_CLAIMS_PRINT_H

#include "../claim/claim.h"
#include "../cli/out.h"

/* t started with the claims table's columns. */
void claims_table_init(struct out_table *t);

/* The row of claim c judged r on model and system (names as loaded; "-"
 * for a model a claim does not run) appended to t: exact SI and verdict
 * names when csv, else words. */
void claims_row(struct out_table *t, int csv, const struct claim *c, const char *model,
                const char *system, const struct claim_result *r);

/* The table t (claims_row's, words) as text blocks on stdout under a
 * title naming origin, the claims file. */
void claims_write_text(const char *origin, const struct out_table *t);

#endif
