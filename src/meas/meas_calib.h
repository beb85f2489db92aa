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

/* What calibrate asks: a file (name for messages, its text), --fit as
 * given (NULL: none), -o (NULL: none) and how many --set and --hw-overlay
 * options were given. */
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

/* The answer.  meas_calib_out_free() after. */
struct meas_calib_out {
    struct meas_calib_key keys[MEAS_CALIB_MAX_KEYS];
    size_t nkeys;
    struct meas_calib_run *runs;
    size_t nruns;
    double median_before, median_after; /* median |before (after) / measured - 1| */
    size_t iterations;
    int converged;
};

void meas_calib_out_free(struct meas_calib_out *c);

#endif
