/* check_print.h - the cross-check's table and verdict (src/check), as
 * `crosscheck` and the report print them. */
#ifndef CP_CHECK_PRINT_H
#define CP_CHECK_PRINT_H

#include <stdio.h>

#include "../check/check.h"
#include "../cli/out.h"

/* t initialised with crosscheck's columns (the caller frees it). */
void check_table_init(struct out_table *t);

/* One row of t per rows[0..n), CSV-ready when csv is set. */
void check_table_rows(struct out_table *t, const struct check_row *rows, size_t n, int csv);

/* The lines after the table: the points placed differently, if any, and
 * the verdict over n points, to f. */
void check_print_verdict(FILE *f, const struct check_summary *sum, size_t n);

#endif
