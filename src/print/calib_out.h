/* calib_out.h - what `calibrate` (cmd_calibrate.c) prints and writes:
 * the fitted keys, each point's residual and the fit's quality, and the
 * hardware overlay that --hw-overlay applies. */
#ifndef CP_CALIB_OUT_H
#define CP_CALIB_OUT_H

#include "../cli/atomic.h"
#include "../cli/cli.h"
#include "../meas/meas_calib.h"
#include "../meas/meas_ws.h"

/* Everything about one run, so the helpers take one argument. */
struct calib_run {
    struct cli_opts *o;
    const char *file;
    struct meas_env env;
    struct meas_set m; /* the rows, their scenarios and points */
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    struct calib_result res;
};

/* The fitted keys as a table (o's --csv says how numbers are written). */
void calib_keys_table(const struct calib_run *k, struct out_table *t);

/* The whole report for people on stdout. */
void calib_print_text(const struct calib_run *k);

/* The overlay into a temporary file beside -o, closed and checked (a file
 * that cannot be written fails before anything is printed); the caller
 * renames it into place with atomic_commit() once the results are
 * printed.  EXIT_OK, or an exit code after a message (nothing left). */
int calib_write_overlay(const struct calib_run *k, struct atomic_file *a);

/* A kind's calibrate answer (meas_calib.h) fitted on file: the fitted keys
 * (their CSV with csv), or for people also the keys held, each run's error
 * before and after and their medians. */
void calib_print_kind(const struct meas_calib_out *c, const char *file, int csv);

#endif
