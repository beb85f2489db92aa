/* meas_run.h - validate over measured runs of both kinds of cluster,
 * written once: files of either kind loaded (each kind chosen once, by
 * the table of corpus kinds), checked, every run predicted and left out,
 * and the lines of the table (meas_valid.h).  No terminal I/O: the front
 * end gives loading by name, warnings and progress (meas_env, and
 * meas_progress below), and prints (src/print/valid_out). */
#ifndef CP_MEAS_RUN_H
#define CP_MEAS_RUN_H

#include "meas_gpu.h"
#include "meas_valid.h"
#include "meas_ws.h"

/* The constants the shipped hardware files say were fitted to the corpus
 * (cerebras-plan(1), VALIDATION): each generation's utilization and step
 * overhead on its own rows, and one jitter on all of them. */
#define VALIDATE_FIT                                                                               \
    "cs2:system.utilization,cs2:system.step_overhead,cs3:system.utilization,"                      \
    "cs3:system.step_overhead,system.jitter"

/* Most corpus files in one run (the command line's most arguments). */
#define MEAS_MAX_FILES VGPU_MAX_FILES

/* A progress line for refits: start(what), show(done, total), end. */
struct meas_progress {
    void (*start)(void *arg, const char *what);
    gpu_fit_progress_fn show;
    void (*end)(void *arg);
    void *arg;
};

struct vpoint {
    const struct meas_row *row;
    struct calib_point *p;
    const char *model, *system; /* as resolved */
    double predicted, error;    /* with the shipped hardware            */
    double loo, loo_error;      /* left out; NAN when not possible      */
    const char *loo_why;        /* why not (into meas_run.why)          */
};

/* A validation run.  meas_run_new() to start, meas_run_free() after. */
struct meas_run {
    const struct meas_env *env;
    const char *fit; /* --fit as given, or NULL: VALIDATE_FIT */
    /* weight streaming */
    struct meas_set sets[MEAS_MAX_FILES];
    char names[MEAS_MAX_FILES][CP_ERROR_MAX]; /* each file's name, for messages */
    size_t nsets;
    struct vpoint *pt;
    struct calib_point *all; /* every point, in order */
    size_t n;
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    size_t nfolds;             /* weight-streaming refits */
    char (*why)[CP_ERROR_MAX]; /* each fold's reason for no figure, or "" */
    /* GPUs */
    struct vgpu_run gpu;
    /* both: the weight-streaming points, then the GPU runs */
    struct vline *lines;
    size_t nlines;
};

/* A kind of corpus: how a file of it is told (sniff), read (add), checked
 * once all are read (check), predicted and left out (evaluate), and its
 * lines and how it was left out (NULL: none of its runs), and its
 * calibrate on one file (meas_calib.h). */
struct meas_kind {
    enum vkind kind;
    int (*sniff)(const char *text);
    cp_status (*add)(struct meas_run *v, const char *name, const char *text, struct cp_error *err);
    cp_status (*check)(struct meas_run *v, struct cp_error *err);
    cp_status (*evaluate)(struct meas_run *v, const struct meas_progress *pg, struct cp_error *err);
    size_t (*lines)(const struct meas_run *v, struct vline *out);
    const char *(*how)(const struct meas_run *v, char *buf, size_t n);
    cp_status (*calibrate)(const struct meas_calib_req *req, struct meas_calib_out *out,
                           struct cp_error *err);
};
extern const struct meas_kind meas_kind_ws, meas_kind_gpu;

/* The kinds in the order files are told apart and evaluated. */
#define MEAS_NKINDS 2
extern const struct meas_kind *const meas_kinds[MEAS_NKINDS];

/* The kind of a corpus file's text (the first whose sniff says so). */
const struct meas_kind *meas_kind_of(const char *text);

struct meas_run *meas_run_new(const struct meas_env *env, const char *fit);
void meas_run_free(struct meas_run *v);

/* --fit (or VALIDATE_FIT) into v->keys, a GPU system refused.  CP_OK or
 * CP_EINPUT ("validate: --fit ..."). */
cp_status meas_run_keys(struct meas_run *v, struct cp_error *err);

/* One file's text, of whichever kind it is (name for messages). */
cp_status meas_run_add(struct meas_run *v, const char *name, const char *text,
                       struct cp_error *err);

/* The files args[0..nargs), or with none the shipped corpora from the
 * search path: hw/measurements.csv and (but with ws_only)
 * hw/gpu-measurements.csv; each read with meas_run_add(). */
cp_status meas_run_load(struct meas_run *v, const char *const *args, size_t nargs, int ws_only,
                        struct cp_error *err);

/* Check what was read, predict every run and leave each out; then the
 * lines, in v->lines.  CP_OK, or the first error. */
cp_status meas_run_evaluate(struct meas_run *v, const struct meas_progress *pg,
                            struct cp_error *err);

/* How the runs of kind were left out, for the header, into buf; NULL
 * when there are none (or the kind says nothing). */
const char *meas_run_how(const struct meas_run *v, enum vkind kind, char *buf, size_t n);

/* The keys refitted for leave-one-out, for people, into buf. */
void meas_run_keys_text(const struct meas_run *v, char *buf, size_t n);

#endif
