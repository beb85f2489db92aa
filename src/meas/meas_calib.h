/* meas_calib.h - calibrate's judgement of a fitted value against where
 * it started and the range its hardware file gives it; and what calibrate
 * asks of a kind of corpus that has its own (the table of kinds,
 * meas_run.h) and the answer, the same for every such kind: each key
 * fitted with its standard error, the keys held, each run's error before
 * and after, their medians.  No terminal I/O: the front end prints
 * (src/print/calib_out). */
#ifndef CP_MEAS_CALIB_H
#define CP_MEAS_CALIB_H

#include "../base/units.h"
#include "meas_ws.h"

/* A word on ck's fitted value (fitted on m's points) into buf (empty when
 * it is plausible and within its file's range): "implausible: ..." or
 * "outside the file's range: ...", with the numbers.  Returns 1 for
 * implausible. */
int meas_calib_plausibility(const struct meas_set *m, const struct calib_key *ck, char *buf,
                            size_t n);

/* What calibrate asks: a file (name for messages, its text, or NULL when
 * it could not be read: the kind reads it again and says why, after its
 * own checks of the options), --fit as given (NULL: none), -o (NULL:
 * none) and how many --set and --hw-overlay options were given. */
struct meas_calib_req {
    const char *file, *text, *fit, *overlay;
    size_t nsets, noverlays;
    const struct meas_env *env;
};

#define MEAS_CALIB_MAX_KEYS 16
#define MEAS_CALIB_TEXT 96

/* A key, fitted or held.  SI values in unit dim; se NaN when none. */
struct meas_calib_key {
    char name[MEAS_CALIB_TEXT];
    unit_dim dim;
    int fitted; /* 0: held at the description's value */
    double start, value, se;
};

/* A run: its line in the file, id, system, model, systems, and the
 * measured figure with the model's before and after the fit (SI, s). */
struct meas_calib_run {
    int line;
    char id[MEAS_CALIB_TEXT], system[MEAS_CALIB_TEXT], model[MEAS_CALIB_TEXT];
    double systems, measured, before, after;
};

/* Weight streaming's answer: its points (each with its line, measured,
 * before and after), the keys as asked and the fit (src/plan/calib),
 * from which the front end prints the points' residuals and writes the
 * overlay. */
struct meas_calib_ws {
    struct meas_set m;
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    struct calib_result res;
};

/* The answer.  meas_calib_out_free() after. */
struct meas_calib_out {
    struct meas_calib_key keys[MEAS_CALIB_MAX_KEYS];
    size_t nkeys;
    struct meas_calib_run *runs;
    size_t nruns;
    double median_before, median_after; /* median |before (after) / measured - 1| */
    size_t iterations;
    int converged;
    char stop[512]; /* why the fit stopped, for "the fit STOP; ..." */
    /* Weight streaming's own answer, which the fields above do not hold
     * (keys, runs and medians are then empty); NULL for the other kinds. */
    struct meas_calib_ws *ws;
};

void meas_calib_out_free(struct meas_calib_out *c);

/* The weight-streaming kind's calibrate (the table of kinds, meas_run.h):
 * --fit's keys fitted on req->file's points into out->ws.  CP_EINPUT
 * with the message when --fit is missing or wrong, -o names the data
 * file, the file cannot be read or is malformed, the keys fitted on
 * different systems go to one overlay, or the fit cannot run (an empty
 * message when req->env's loader printed it). */
cp_status meas_ws_calibrate(const struct meas_calib_req *req, struct meas_calib_out *out,
                            struct cp_error *err);

#endif
