/* gpu_fit.h - fitting the GPU model's fitted constants (the keys the
 * [fit] section of a GPU description marks FITTED) to published runs
 * (rows of the GPU corpus, gmeas.h, each read as gpu_run.h reads it), and
 * leave-one-source-out: each source's rows predicted with the constants
 * refitted on the other sources' rows.
 *
 * The fit is Nelder-Mead (GSL's nmsimplex2) on the sum over the rows of
 * the squared log error of the step time, ln(model / measured)^2, with
 * the fractions searched as their logit and the other keys as their log,
 * so every trial value stays in range.  The same values go into every GPU
 * description the rows run on: the constants are one set for all GPUs. */
#ifndef CP_GPU_FIT_H
#define CP_GPU_FIT_H

#include <stddef.h>

#include "../desc/gmeas.h"
#include "../desc/gpuhw.h"
#include "../base/folds.h"

/* The keys fitted, in the order of gpu_fit_key_name. */
enum gpu_fit_key {
    GPU_FIT_MATMUL,    /* fit.matmul_efficiency    (a fraction) */
    GPU_FIT_ATTENTION, /* fit.attention_efficiency (a fraction) */
    GPU_FIT_OVERHEAD,  /* fit.step_overhead        (seconds)    */
    GPU_FIT_LOWP,      /* fit.lowp_efficiency      (a fraction) */
    GPU_FIT_NKEYS
};
extern const char *const gpu_fit_key_name[GPU_FIT_NKEYS]; /* "fit.matmul_efficiency" ... */

/* Nelder-Mead stops when the simplex is smaller than this in the searched
 * (logit or log) coordinates, about this relative change of each value,
 * or after GPU_FIT_MAX_ITER iterations (then not converged). */
#define GPU_FIT_SIZE 1e-6
#define GPU_FIT_MAX_ITER 5000
/* Relative step of the central differences behind the standard errors. */
#define GPU_FIT_SE_STEP 1e-3

/* The runs and the descriptions they run on: gpu[k] for the rows whose
 * gpu is k (enum gmeas_gpu); NULL where no row needs one. */
struct gpu_fit_data {
    const struct gmeas_row *rows;
    size_t n;
    const struct gpuhw_desc *gpu[GMEAS_NGPUS];
};

struct gpu_fit_result {
    double value[GPU_FIT_NKEYS]; /* fitted, or the start where not fitted   */
    double start[GPU_FIT_NKEYS]; /* the start: the first row's description */
    int fitted[GPU_FIT_NKEYS];   /* 0: no row fitted depends on the key
                                    (fit.lowp_efficiency without an FP8 or
                                    FP4 row), kept at its start           */
    size_t rows;                 /* rows fitted                             */
    double cost;                 /* sum of ln(model / measured)^2 over them */
    size_t iterations;
    int converged;            /* the simplex shrank below GPU_FIT_SIZE */
    double se[GPU_FIT_NKEYS]; /* standard error of each fitted value (its
                                 units), from the residuals' Jacobian;
                                 NaN where not fitted or not defined     */
};

/* Fit the keys on the rows i with use[i] != 0 (use NULL: every row),
 * starting from the values of the description of the first such row.
 * CP_EINPUT (err says why) when a row has no description or its layout
 * does not divide (the message names the row), when there are fewer rows
 * than keys to fit, or when a start value is out of its key's range (a
 * fraction not strictly between 0 and 1, a size or time not above 0).  A
 * fit that stops before converging is CP_OK with converged = 0. */
cp_status gpu_fit_run(const struct gpu_fit_data *d, const unsigned char *use,
                      struct gpu_fit_result *res, struct cp_error *err);

/* gpu_fit_run searching only the keys k with want[k] != 0 (want NULL:
 * every key); the others stay at each description's own value (fitted[k]
 * 0).  Also CP_EINPUT when no key wanted can be fitted on the rows
 * (fit.lowp_efficiency alone without an FP8 row). */
cp_status gpu_fit_run_keys(const struct gpu_fit_data *d, const unsigned char *use,
                           const unsigned char *want, struct gpu_fit_result *res,
                           struct cp_error *err);

/* "fit.KEY[,fit.KEY...]" (blanks around names allowed) into want (one per
 * enum gpu_fit_key, 1 where named).  CP_OK, or CP_EINPUT with err naming
 * the first key that is not one of gpu_fit_key_name, has a system before
 * a ':' (the constants are one set for all GPUs), or is named twice. */
cp_status gpu_fit_parse_keys(const char *list, unsigned char want[GPU_FIT_NKEYS],
                             struct cp_error *err);

/* Put the values of res into the constants f. */
void gpu_fit_apply(const struct gpu_fit_result *res, struct gpu_fit *f);

/* The model's step time of row i on its description, with the constants
 * f in place of the description's (f NULL: the description's own). */
cp_status gpu_fit_step(const struct gpu_fit_data *d, size_t i, const struct gpu_fit *f,
                       double *step_s, struct cp_error *err);

/* Bytes of a row id that name its source: those before the first '-',
 * all of it when it has none ("NAR-T1-01": 3, "MLP3.1-Azure...": 6). */
size_t gpu_fit_source_len(const char *id);

/* Whether two row ids have the same source. */
int gpu_fit_same_source(const char *a, const char *b);

/* One row's leave-one-source-out figure. */
struct gpu_fit_loso {
    double step_s; /* predicted; NaN when there is none                */
    char why[256]; /* when NaN: why ("no row of another source", ...)  */
};

/* For every source of d's rows (or fold of sources, gpu_fit_leave_out),
 * the keys refitted (gpu_fit_run) on the
 * rows of the other sources and that source's rows predicted with them:
 * out[i] for row i.  A source whose refit fails or does not converge gets
 * NaN and the reason.  CP_EINPUT only when a row cannot be evaluated. */
cp_status gpu_fit_leave_source_out(const struct gpu_fit_data *d, struct gpu_fit_loso *out,
                                   struct cp_error *err);

/* Leave-out kept linear in the rows: each source is left out alone up to
 * GPU_FIT_MAX_LOSO sources; past it the sources, numbered in the order of
 * their first row, are dealt into GPU_FIT_FOLDS folds (source k into fold
 * k % GPU_FIT_FOLDS) and each fold is left out in turn: K-fold
 * cross-validation by source, at most GPU_FIT_MAX_LOSO refits whatever
 * the corpus. */
#define GPU_FIT_MAX_LOSO CP_LEAVE_OUT_MAX /* base/folds.h: shared with validate */
#define GPU_FIT_FOLDS CP_FOLDS

/* What gpu_fit_leave_out did. */
struct gpu_fit_folds {
    size_t sources; /* distinct sources of the rows             */
    size_t folds;   /* refits: one per source, or GPU_FIT_FOLDS */
    int dealt;      /* 1: sources dealt into folds              */
};

/* Called before each refit: done of total refits finished. */
typedef void (*gpu_fit_progress_fn)(void *arg, size_t done, size_t total);

/* gpu_fit_leave_source_out with the folds above: out[i] for row i, what
 * was done into *how (NULL: not wanted), progress (NULL: none) called
 * before each refit.  The same errors. */
cp_status gpu_fit_leave_out(const struct gpu_fit_data *d, struct gpu_fit_loso *out,
                            struct gpu_fit_folds *how, gpu_fit_progress_fn progress, void *arg,
                            struct cp_error *err);

#endif
