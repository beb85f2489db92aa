/* validate_out.h - what `validate` (cmd_validate.c) prints: one line per
 * measured run of either machine kind (weight-streaming points from
 * cmd_validate.c, GPU runs from validate_gpu.h), and the table, the
 * summary and the targets over the lines of both. */
#ifndef CP_VALIDATE_OUT_H
#define CP_VALIDATE_OUT_H

#include <stddef.h>

#include "cli.h"

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
#define VALIDATE_MEDIAN 0.10
#define VALIDATE_LOO_MEDIAN 0.15
#define VALIDATE_GPU_MEDIAN 0.10

/* Median and largest |v| over the finite values of v[0..n) (NAN if none). */
double validate_median_abs(const double *v, size_t n);
double validate_max_abs(const double *v, size_t n);

/* The --csv table: one row per line. */
void validate_fill(const struct vline *l, size_t n, struct out_table *t);

/* The table for people, the lines without a leave-out figure, the
 * summary per kind and group, and the targets of each kind present;
 * ws_keys names the keys refitted for leave-one-out (NULL: none). */
void validate_print(const struct vline *l, size_t n, const char *ws_keys, double tolerance);

/* 0 when each kind present meets its targets, 1 after printing each
 * target missed. */
int validate_missed(const struct vline *l, size_t n, double tolerance);

#endif
