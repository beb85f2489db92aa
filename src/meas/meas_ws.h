/* meas_ws.h - measured weight-streaming points (src/desc/meas) loaded for
 * calibrate and validate: each row's model, system and tier resolved as
 * -m, -s and --memoryx would be, its cluster and calibration point, and
 * every error placed at its cell.  No terminal I/O: the front end loads a
 * model and a system by name (with its overlays and --set) through a
 * callback, and is told of warnings through another. */
#ifndef CP_MEAS_WS_H
#define CP_MEAS_WS_H

#include "../desc/catalog.h"
#include "../desc/meas.h"
#include "../plan/calib.h"

/* A model on a system, as loaded: names, descriptions, the hardware keys'
 * origins and ranges, and the cluster they make (the defaults). */
struct meas_scen {
    char model[CAT_NAME_MAX], system[CAT_NAME_MAX];
    struct wl_desc wl;
    struct hw_desc hw;
    struct desc_src hw_src;
    struct cluster c; /* points to wl and hw */
};

/* The front end's side.  load() fills s->model, system, wl, hw and hw_src
 * for the names as -m and -s would; CP_OK, or an error in err (an empty
 * message: the front end has reported it already).  warn() is given a
 * message for people (no prefix, no newline). */
struct meas_env {
    const struct cat_dirs *dirs;
    cp_status (*load)(void *arg, const char *model, const char *system, struct meas_scen *s,
                      struct cp_error *err);
    void (*warn)(void *arg, const char *msg);
    void *arg;
};

/* A row's scenario (some 77 kB) is kept once per distinct model and
 * system the rows name, not once per row; each row has its own cluster
 * (its count, batch, sparsity, MemoryX servers), whose hw and wl point
 * into its scenario.  A 10,000-row file of one model and system holds one. */
struct meas_set {
    const struct meas_env *env;
    const char *file; /* the name messages use */
    struct meas_list rows;
    struct meas_scen **sc; /* the distinct model-and-system scenarios */
    size_t nsc;
    size_t *sc_row;          /* each scenario's first row               */
    size_t *sc_of;           /* one per row: its scenario in sc         */
    struct cluster *c;       /* one per row                             */
    struct calib_point *pts; /* one per row, pointing into c            */
};

/* Row i's scenario: its model, system and hardware as loaded (the
 * scenario's own cluster is not the row's: that is k->c[i]). */
const struct meas_scen *meas_set_scenario(const struct meas_set *k, size_t i);

/* Parse text (file's contents) and load every row with its calibration
 * point; a row the model cannot evaluate, or a name, tier or count that
 * does not resolve, is an error at its cell (CP_EINPUT).  Warns of
 * configurations the model finds infeasible.  Free with meas_set_free()
 * either way. */
cp_status meas_set_load(const struct meas_env *env, const char *file, const char *text,
                        struct meas_set *k, struct cp_error *err);

void meas_set_free(struct meas_set *k);

/* A --fit key scoped to a GPU system (h100:system.utilization) refused
 * as such for command cmd: CP_OK, or CP_EINPUT with the message. */
cp_status meas_check_scopes(const struct cat_dirs *dirs, const char *cmd,
                            const struct calib_spec *keys, size_t n, struct cp_error *err);

#endif
