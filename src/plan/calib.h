/* calib.h - calibration: fit numeric hardware keys to measured points by
 * nonlinear least squares (GSL gsl_multifit_nlinear, trust region, finite-
 * difference Jacobian).
 *
 *  - Each point is a configuration (a struct cluster on its own hardware),
 *    a measured quantity (step time, tokens/s or weak-scaling speedup, see
 *    meas.h) and its value.  Its residual is relative: ln(model / measured).
 *  - A fitted key takes one value across all points (or, scoped to a
 *    system, across that system's points); each point is evaluated
 *    (param_eval) on a copy of its own hardware with the keys that apply to
 *    it set.  The starting value is the first such point's.
 *  - Keys are fitted in a space that keeps them valid: v = v0 e^x for a
 *    positive key, v = 1 / (1 + e^-x) for a fraction (DESC_AT_MOST_1).  A
 *    key whose start is 0, a fraction starting at 1 and a whole-number key
 *    cannot be fitted.
 *  - Standard errors come from the covariance at the solution,
 *    (J^T J)^-1 chi2 / dof, carried back to the key's units by the delta
 *    method.  With as many points as keys (dof = 0), or a key the points do
 *    not constrain, there is none (NAN).
 *  - A fit counts as converged only if the solver stopped at a stationary
 *    point and the points agree: with as many points as keys each is met to
 *    CALIB_EXACT_TOL, otherwise none is missed by more than a factor of
 *    CALIB_MISS_FACTOR; and the fitted values are ones every command takes
 *    (calib_check_hw on each point).  A solver that stops where a key no
 *    longer matters (run towards 0 or beyond any figure) has not fitted it. */
#ifndef CP_CALIB_H
#define CP_CALIB_H

#include <stddef.h>

#include "../model/train.h"
#include "../desc/meas.h"

#define CALIB_MAX_KEYS 16

/* Longest system name a key may be scoped to, with its NUL. */
#define CALIB_SCOPE_MAX 64

/* With as many points as keys (dof = 0) a solution meets every point; a fit
 * that leaves a point further than this (|ln(model / measured)|, about a
 * 1e-4 % miss) stopped where a key ran out of effect, not at a solution.
 * The solver's own steps end at 1e-10 in x, far below it; the figures in
 * a data file carry four or five digits, far above it. */
#define CALIB_EXACT_TOL 1e-6
/* With more points than keys, a converged fit leaves no point more than
 * this factor from its measurement, either way.  validate's target for any
 * point is 25 % and the shipped fit leaves at most 11 %: a point missed by
 * a factor of 2 is one the fitted values do not describe, so they are not
 * a calibration. */
#define CALIB_MISS_FACTOR 2.0

struct calib_point {
    const struct cluster *c; /* as measured; c->hw is its hardware as loaded */
    const char *system;      /* the system's name as given (cs2): for scoped keys */
    enum meas_quantity quantity;
    double measured; /* SI base units, > 0                                   */
    double before;   /* out: the model on c->hw                              */
    double after;    /* out: the model with the fitted keys                  */
    int line;        /* the data file's line, for messages; 0: "point N"     */
};

/* A key to fit, on every point or (scope non-empty) only on the points of
 * one system: "cs2:system.utilization" fits CS-2's utilization alone. */
struct calib_spec {
    int key;                     /* hw_schema index                  */
    char scope[CALIB_SCOPE_MAX]; /* system name, or "" for all points */
};

struct calib_key {
    int key;            /* hw_schema index                                        */
    const char *scope;  /* "" or the system it is fitted on (into the spec)    */
    double start;       /* SI, the first point's value                           */
    double fitted;      /* SI                                                     */
    double se;          /* standard error, SI; NAN when it cannot be estimated   */
    const char *se_why; /* why se is NAN, or NULL                            */
};

struct calib_result {
    size_t nkeys, npoints, dof;
    struct calib_key keys[CALIB_MAX_KEYS];
    double chi2_before; /* sum of ln(before / measured)^2                   */
    double chi2;        /* sum of ln(after / measured)^2 at the solution    */
    size_t iterations;
    int converged;  /* see above: the solver's status, the residuals, the values */
    char stop[512]; /* why the fit stopped, in words                        */
};

/* The model's value of quantity q for c evaluated on hardware hw (hw's
 * boundary_overlap unless c->overlap_set): the step time in seconds, the
 * tokens per second, the sequences per second, or the weak-scaling speedup against one system
 * running c->global_seqs / c->systems sequences. */
double calib_predict(const struct cluster *c, const struct hw_desc *hw, enum meas_quantity q);

/* The most the model can give for point p whatever the hardware: for a
 * weak-scaling speedup on N systems, N (each system does one system's work
 * and the cluster only adds time: the reduction, the tree's latency, the
 * slowest system); INFINITY for the other quantities. */
double calib_ceiling(const struct calib_point *p);

/* If point p (the i-th, from 0) measures more than calib_ceiling(p), a
 * sentence saying so into buf, naming its line, and buf; else NULL. */
const char *calib_beyond(const struct calib_point *p, size_t i, char *buf, size_t n);

/* Is hw (point p's hardware with fitted values) one every command takes?
 * The loader's rules (each numeric key's range, the rules spanning keys)
 * and the model's range on p's configuration (train_check: finite figures
 * at 1, N and the largest cluster).  CP_OK, or CP_EINPUT with err. */
cp_status calib_check_hw(const struct calib_point *p, const struct hw_desc *hw,
                         struct cp_error *err);

/* "a.b, cs2:c.d" into out (at most CALIB_MAX_KEYS); CP_EINPUT naming the
 * item for an unknown, whole-number or repeated key or an empty list. */
cp_status calib_parse_keys(const char *list, struct calib_spec *out, size_t *n,
                           struct cp_error *err);

/* "cs2:system.utilization" or "system.jitter" for k.  Returns buf. */
const char *calib_key_name(const struct calib_key *k, char *buf, size_t n);

/* Does key spec k apply to point p? */
int calib_applies(const struct calib_spec *k, const struct calib_point *p);

/* Fit the nkeys keys to the npts points; fills res and each
 * point's before and after.  CP_OK when the fit ran (res->converged says
 * whether it converged, judged as above; if not, res holds the best values
 * found and res->stop says why, naming a point above its ceiling first);
 * CP_EINPUT with err for a key that cannot be fitted, a repeated key, fewer
 * points than keys, a point the model cannot evaluate, or a solver error;
 * CP_ENOMEM if GSL cannot allocate. */
cp_status calib_fit(struct calib_point *pts, size_t npts, const struct calib_spec *keys,
                    size_t nkeys, struct calib_result *res, struct cp_error *err);

/* Point p's hardware with the fitted keys of res that apply to it set:
 * *out = *p->c->hw, then each key. */
void calib_apply(const struct calib_result *res, const struct calib_spec *keys,
                 const struct calib_point *p, struct hw_desc *out);

#endif
