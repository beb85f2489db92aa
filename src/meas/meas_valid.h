/* meas_valid.h - validation over measured runs of both kinds of cluster:
 * one line per run (whichever the kind, as the table shows it), the
 * medians and largest errors of the summary, and the targets each kind
 * must meet.  No I/O: the writers are src/print/valid_out. */
#ifndef CP_MEAS_VALID_H
#define CP_MEAS_VALID_H

#include <stddef.h>

#include "../base/folds.h"

/* Machine kinds, in the order the table gives them. */
enum vkind { VKIND_WS, VKIND_GPU, VKIND_N };
extern const char *const vkind_name[VKIND_N]; /* "weight-streaming" "gpu" */

/* One measured run as the table shows it.  Strings point into the
 * run's corpus, which outlives the line. */
struct vline {
    enum vkind kind;
    const char *id, *system, *model, *software, *source;
    /* The summary's second grouping, the first group_len bytes of group:
     * a GPU row's source (group_len 0: none, weight streaming). */
    const char *group;
    size_t group_len;
    const char *quantity;   /* what measured and predicted are         */
    const char *unit;       /* their unit (SI)                         */
    const char *pub_unit;   /* the unit of the published figure (SI)   */
    const char *conversion; /* how measured came from published; ""    */
    double systems, batch;  /* systems or GPUs; sequences a step       */
    double published;       /* the figure as published, SI             */
    double measured, predicted;
    double error;          /* predicted / measured - 1                */
    double loo, loo_error; /* left out: NAN when there is no figure   */
    const char *loo_why;   /* why not, when NAN                       */
};

/* Targets (issue 16 for weight streaming, issue 21 for GPUs): the
 * largest |error| of a point (--tolerance), the median |error|, and for
 * weight streaming the median |error| leave-one-out. */
#define VALIDATE_TOLERANCE 0.25
/* The largest --tolerance taken: 100 (10,000 %); beyond it the figures
 * printed would lose their meaning (1e308 printed "inf %"). */
#define VALIDATE_TOLERANCE_MAX 100.0
#define VALIDATE_MEDIAN 0.10
#define VALIDATE_LOO_MEDIAN 0.15
#define VALIDATE_GPU_MEDIAN 0.10

/* Median and largest |v| over the finite values of v[0..n) (NAN if none). */
double validate_median_abs(const double *v, size_t n);
double validate_max_abs(const double *v, size_t n);

/* Leave-out stays linear in the corpus: each run (weight streaming) or
 * source (gpu) is left out alone up to VALIDATE_MAX_LOO of them; past it
 * they are dealt into VALIDATE_FOLDS folds, each left out in turn (K-fold
 * cross-validation), so there are at most VALIDATE_MAX_LOO refits.  The
 * GPU side's are gpu_fit.h's GPU_FIT_MAX_LOSO and GPU_FIT_FOLDS, the same. */
#define VALIDATE_MAX_LOO CP_LEAVE_OUT_MAX /* base/folds.h: shared with the GPU fit */
#define VALIDATE_FOLDS CP_FOLDS

/* The errors (loo: the leave-out errors) of kind's lines of l[0..n) into
 * v (room for n); their count. */
size_t validate_errors_of(const struct vline *l, size_t n, enum vkind kind, int loo, double *v);

#endif
