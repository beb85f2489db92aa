/* calib_out.h - what `calibrate` (cmd_calibrate.c) prints and writes:
 * the fitted keys, each point's residual and the fit's quality, and the
 * hardware overlay that --hw-overlay applies. */
#ifndef CP_CALIB_OUT_H
#define CP_CALIB_OUT_H

#include "../cli/atomic.h"
#include "../meas/meas_calib.h"

/* A kind's calibrate answer c (meas_calib.h) fitted on file, for people or
 * with csv its CSV: the fitted keys, and for people weight streaming's
 * points with their residuals and the fit's quality, or another kind's
 * keys held, each run's error before and after and their medians; the overlay written to output (NULL: none) when the
 * answer has one and the fit converged.  EXIT_OK, EXIT_VERDICT after a
 * message when the fit did not converge (no overlay written), or an exit
 * code after a message when the overlay or the output cannot be written
 * (then no overlay is left). */
int calib_report(const struct meas_calib_out *c, const char *file, const char *output, int csv);

#endif
