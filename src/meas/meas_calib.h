/* meas_calib.h - calibrate's judgement of a fitted value against where
 * it started and the range its hardware file gives it. */
#ifndef CP_MEAS_CALIB_H
#define CP_MEAS_CALIB_H

#include "meas_ws.h"

/* A word on ck's fitted value (fitted on m's points) into buf (empty when
 * it is plausible and within its file's range): "implausible: ..." or
 * "outside the file's range: ...", with the numbers.  Returns 1 for
 * implausible. */
int meas_calib_plausibility(const struct meas_set *m, const struct calib_key *ck, char *buf,
                            size_t n);

#endif
