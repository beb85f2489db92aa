/* meas_load.h - measured points loaded as scenarios (front end of
 * calibrate and validate; the reader itself is src/desc/meas). */
#ifndef CP_MEAS_LOAD_H
#define CP_MEAS_LOAD_H

#include "../plan/calib.h"
#include "../desc/meas.h"
#include "scenario.h"

struct meas_set {
    struct cli_opts *o;
    const char *file; /* the name messages use */
    struct meas_list rows;
    struct scenario *sc;     /* one per row (large: on the heap) */
    struct calib_point *pts; /* one per row, pointing into sc    */
};

/* Parse text (file's contents) and load every row as a scenario with its
 * calibration point; a row the model cannot evaluate, or a name, tier or
 * count that does not resolve, is an error at its cell.  Warns on stderr
 * of configurations the model finds infeasible.  Returns -1 on success, or
 * an exit code after a message.  Free with meas_set_free() either way. */
int meas_set_load(struct cli_opts *o, const char *file, const char *text, struct meas_set *k);

void meas_set_free(struct meas_set *k);

#endif
