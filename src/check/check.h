/* check.h - the cross-check: the analytic model (src/model) against the
 * timing simulator (src/sim) on a grid of points that covers every regime
 * and mechanism.  Neither of the two calls the other; this room, above
 * both, settles a point's servers and placement with the analytic model,
 * times that choice with the simulator, and compares the step times.
 *
 * Pure computation, no I/O: a point's descriptions are loaded by the
 * caller (the front end), which also words the errors.  SI units. */
#ifndef CP_CHECK_H
#define CP_CHECK_H

#include <stddef.h>

#include "../base/status.h"
#include "../desc/desc.h"
#include "../model/step.h"
#include "../sim/sim.h"

/* Targets (issue: max |rel_diff| <= 2 %, median <= 0.5 %). */
#define CHECK_MAX_TOL 0.02
#define CHECK_MEDIAN_TOL 0.005

/* What a point varies beyond its model, system and cluster. */
struct check_vary {
    const char *set;    /* a --set applied to both, or NULL                 */
    const char *set2;   /* a second, or NULL                                */
    double mx_servers;  /* MemoryX servers (0: the tier's, or sized)        */
    double act_servers; /* activation servers per system (0: the hardware's) */
    const char *act;    /* --activations (NULL: auto, the fastest that fits) */
};

/* One grid point.  batch 0: the model's; tier NULL: the servers sized
 * for the run, or v.mx_servers. */
struct check_point {
    const char *model, *system;
    double systems, batch, sparsity;
    const char *tier;
    double overlap;
    double units;        /* MemoryX units in the simulator (0: one)          */
    struct check_vary v; /* what else the point varies ({0}: nothing)        */
};

/* The grid (check_grid.c) and its number of points. */
extern const struct check_point check_grid[];
extern const size_t check_npoints;

/* One point compared. */
struct check_row {
    const struct check_point *p;
    char tier[DESC_NAME_MAX];
    char act[32]; /* the analytic model's placement, "recompute:4" */
    double batch, analytic_s, sim_s, rel, wall_s;
    long long events;
    enum step_res regime;
    double mx_servers, act_servers; /* as the analytic model settled them */
    double micro_batches;           /* the simulator's */
    int placement_ok;               /* both hold as many sequences in SRAM (and on the activation
                                       servers) and run as many micro-batches */
};

/* The simulator's configuration for cluster c: the MemoryX servers,
 * activation servers and placement the analytic model settles (those c
 * gives stay as given), for the simulator to time with its own
 * arithmetic; the rest of c (systems, sparsity, overlap, batch) copied.
 * st (may be NULL) gets the analytic step. */
void check_sim_config(const struct cluster *c, struct sim_config *sc, struct step_result *st);

/* Point p on cluster c (loaded and set up as p gives it, checked): the
 * events its simulation takes added to *events.  CP_EINPUT with sim_size's
 * message when it cannot run. */
cp_status check_point_events(const struct check_point *p, const struct cluster *c, double *events,
                             struct cp_error *err);

/* Point p on cluster c, its MemoryX as tier (words for the row): the
 * analytic step against the simulated one into row (the simulation's wall
 * time included).  CP_OK, or sim_run's error. */
cp_status check_point_run(const struct check_point *p, const struct cluster *c, const char *tier,
                          struct check_row *row, struct cp_error *err);

/* The summary of n rows (with none: worst and median NAN, nothing
 * agrees), sorted here worst |rel| first: the
 * largest and the median |rel|, and the points whose placement or
 * micro-batch count differs between the two. */
struct check_summary {
    double worst, median;
    size_t misplaced;
    int agree; /* within CHECK_MAX_TOL and CHECK_MEDIAN_TOL, none misplaced */
};
void check_summarise(struct check_row *rows, size_t n, struct check_summary *sum);

#endif
