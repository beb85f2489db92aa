/* meas_load.h - measured points loaded as scenarios (front end of
 * calibrate and validate; the reader itself is src/desc/meas). */
#ifndef CP_MEAS_LOAD_H
#define CP_MEAS_LOAD_H

#include "../plan/calib.h"
#include "../desc/meas.h"
#include "scenario.h"

/* A row's scenario (its model and hardware as loaded, with their
 * origins: some 77 kB) is kept once per distinct model and system the
 * rows name, not once per row; each row has its own cluster (its count,
 * batch, sparsity, MemoryX servers), whose hw and wl point into its
 * scenario.  A 10,000-row file of one model and system holds one. */
struct meas_set {
    struct cli_opts *o;
    const char *file; /* the name messages use */
    struct meas_list rows;
    struct scenario **sc; /* the distinct model-and-system scenarios */
    size_t nsc;
    size_t *sc_row;          /* each scenario's first row               */
    size_t *sc_of;           /* one per row: its scenario in sc         */
    struct cluster *c;       /* one per row                             */
    struct calib_point *pts; /* one per row, pointing into c            */
};

/* Row i's scenario: its model, system and hardware as loaded (the
 * scenario's own cluster is not the row's: that is k->c[i]). */
const struct scenario *meas_set_scenario(const struct meas_set *k, size_t i);

/* Parse text (file's contents) and load every row as a scenario with its
 * calibration point; a row the model cannot evaluate, or a name, tier or
 * count that does not resolve, is an error at its cell.  Warns on stderr
 * of configurations the model finds infeasible.  Returns -1 on success, or
 * an exit code after a message.  Free with meas_set_free() either way. */
int meas_set_load(struct cli_opts *o, const char *file, const char *text, struct meas_set *k);

void meas_set_free(struct meas_set *k);

/* A --fit key scoped to a GPU system (h100:system.utilization) refused
 * as such for command cmd: -1, or an exit code after a message. */
int meas_check_scopes(const struct cli_opts *o, const char *cmd, const struct calib_spec *keys,
                      size_t n);

#endif
