/* scale.h - `scale`, written once over the training-model interface
 * (tm.h): the counts of --systems, each evaluated with tm_eval under weak
 * or strong scaling, one row a count with the throughput speedup and
 * efficiency, time-to-train and its speedup (the reference's time over
 * the row's: the two agree on every row), the batch rule (weak rows
 * charge the batch penalty, tm.h) and the tokens it charges, the
 * --uncertainty bands, the title and the table; exit 1 when a count is
 * infeasible or runs nothing.  What differs by kind is
 * its struct scale_side, which the kind's face points at (cli/job.h):
 * weight streaming's in ws_scale.c, the GPUs' in gpu_scale.c. */
#ifndef CP_FACE_SCALE_H
#define CP_FACE_SCALE_H

#include "../cli/job.h"

/* The count the speedups are measured against, its tokens per second,
 * time-to-train, critical batch (tokens) and whether its tokens charge the
 * batch penalty; n is 0 until one is known. */
struct scale_ref {
    double n, tokens_per_s, time_s, critical_tokens;
    int penalty;
};

/* The reference of r, evaluated at n. */
struct scale_ref scale_ref_of(double n, const struct tm_result *r);

/* The title's words on the batch under mode with reference ref ("global
 * batch fixed", "sequences per GPU fixed; the batch penalty charged
 * against the critical batch of 2.104e+07 tokens"), the unit of the side
 * named unit, into buf; returns buf. */
const char *scale_batch_words(enum tm_scaling mode, const struct scale_ref *ref, const char *unit,
                              char *buf, size_t n);

/* The cells every kind shows, formatted for the table or CSV. */
enum scale_cell {
    SCALE_COUNT,   /* the count                                  */
    SCALE_TOKENS,  /* global batch, tokens                       */
    SCALE_STEP,    /* step time: from here on "" when r does not run */
    SCALE_TPS,     /* tokens per second                          */
    SCALE_SPEEDUP, /* tokens per second against the reference's  */
    SCALE_EFF,     /* speedup x reference count / count          */
    SCALE_TTT,     /* time-to-train                              */
    SCALE_TTA,     /* the reference's time-to-train against it   */
    SCALE_RULE,    /* the batch rule: "penalty" or "none"        */
    SCALE_TRAIN,   /* training tokens, with any batch penalty    */
    SCALE_NCELLS
};

/* One count evaluated: its result and the kind's detail, and the common
 * cells, for the side's row. */
struct scale_row {
    int csv;
    double n;
    enum tm_scaling mode;
    const struct tm_result *r; /* r->runs 0: r->why says why           */
    const void *detail;        /* the kind's, of r                      */
    const char *cell[SCALE_NCELLS];
};

/* A kind's part of scale.  Functions return -1, or an exit code after
 * a message. */
struct scale_side {
    const char *const *header; /* ncols column names                   */
    size_t ncols;
    const char *progress; /* the progress line's words; NULL: none     */
    /* j's default --systems into buf; returns buf. */
    const char *(*default_list)(const struct job *j, char *buf, size_t n);
    /* Refusals before --systems is read (NULL: none). */
    int (*refuse)(const struct cli_opts *o, const struct job *j);
    /* The counts ns of --systems list, before any is evaluated. */
    int (*check)(const struct job *j, const double *ns, size_t nn, const char *list);
    /* The job the counts ns scale from (in the side's own storage, until
     * the next call); *ref the speedups' reference when the kind fixes
     * one, else left with n 0: the first count that runs. */
    struct tm_job (*from)(const struct job *j, const double *ns, enum tm_scaling mode,
                          struct scale_ref *ref);
    /* Row a into t (ncols cells). */
    void (*row)(const struct scale_row *a, struct out_table *t);
    /* The title line into buf (ref->n 0: no count runs); returns buf. */
    const char *(*title)(const struct job *j, enum tm_scaling mode, const struct scale_ref *ref,
                         char *buf, size_t n);
};

/* The rows of side sd for job j (of sd's kind; j->face is not read) at
 * the counts of list under mode into t (initialised first: the caller
 * frees it with out_free() whatever the result), with uo's bands when uo
 * is on (uo may be NULL); *all_ok whether every count runs and is
 * feasible; *ref the speedup's reference.  -1, or an exit code after a
 * message. */
int scale_rows(const struct cli_opts *o, const struct scale_side *sd, const struct job *j,
               enum tm_scaling mode, const char *list, const struct unc_opt *uo,
               struct out_table *t, int *all_ok, struct scale_ref *ref);

/* The command on job j (a face's scale): the title and the table. */
int scale_run(const struct cli_opts *o, const struct job *j);

#endif
