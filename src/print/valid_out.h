/* valid_out.h - what `validate` (cmd_validate.c) prints over the lines of
 * both machine kinds (src/meas/meas_valid.h): the table, the summary and
 * the targets. */
#ifndef CP_VALID_OUT_H
#define CP_VALID_OUT_H

#include <stddef.h>

#include "../cli/cli.h"
#include "../meas/meas_valid.h"

/* The --csv table: one row per line. */
void validate_fill(const struct vline *l, size_t n, struct out_table *t);

/* The table for people, the lines without a leave-out figure, the
 * summary per kind and group, and the targets of each kind present;
 * ws_keys names the keys refitted for leave-out (NULL: none); how[kind]
 * how each kind's runs were left out (NULL: say nothing). */
void validate_print(const struct vline *l, size_t n, const char *ws_keys, const char *const *how,
                    double tolerance);

/* 0 when each kind present meets its targets, 1 after printing each
 * target missed.  With no leave-out figure (a corpus of one run) there is
 * no leave-out target. */
int validate_missed(const struct vline *l, size_t n, double tolerance);

#endif
