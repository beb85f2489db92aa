/* meas_gpu.h - validation on GPU corpora (hw/gpu-measurements.csv or
 * a file in its format, gmeas.h): each run predicted by the GPU model on
 * its GPU description, and left out with its source (gpu_fit.h), as lines
 * of validate's table (src/meas/meas_valid.h). */
#ifndef CP_MEAS_GPU_H
#define CP_MEAS_GPU_H

#include <stddef.h>

#include "../desc/gmeas.h"
#include "../desc/gpuhw.h"
#include "../gpu/gpu_fit.h"
#include "../desc/catalog.h"
#include "meas_calib.h"
#include "meas_valid.h"

/* Most GPU corpus files in one run (the command line's most arguments). */
#define VGPU_MAX_FILES 8

/* The GPU runs of validate: every file's rows, the descriptions they run
 * on (loaded once each), the model's step time and the leave-out figure
 * of each row.  Zeroed to start; vgpu_free() after. */
struct vgpu_run {
    struct gmeas_list lists[VGPU_MAX_FILES];
    char names[VGPU_MAX_FILES][CP_ERROR_MAX]; /* each file's name, for messages */
    size_t nlists;
    struct gmeas_row *rows; /* every file's rows, in order */
    size_t n;
    struct gpuhw_desc gpu[GMEAS_NGPUS];
    struct gpu_fit_data data;
    double *predicted;
    struct gpu_fit_loso *loso;
    struct gpu_fit_folds how; /* how the sources were left out */
};

/* Whether text (a CSV file) is a GPU corpus: its header names a gpu
 * column (the weight-streaming corpus has system instead). */
int vgpu_is_corpus(const char *text);

/* Parse one GPU corpus file (name for messages) into g.  CP_OK, or
 * CP_EINPUT with err naming file:line: column. */
cp_status vgpu_add(struct vgpu_run *g, const char *name, const char *text, struct cp_error *err);

/* A message for people about one run (no prefix, no newline). */
typedef void (*vgpu_warn_fn)(void *arg, const char *msg);

/* Check the ids across files, resolve each row's GPU description (a GPU
 * description, from dirs) and predict every row; warn of a layout the
 * model finds does not fit.  CP_OK, or an error naming file:line. */
cp_status vgpu_predict(struct vgpu_run *g, const struct cat_dirs *dirs, vgpu_warn_fn warn,
                       void *arg, struct cp_error *err);

/* Leave each source (or fold of sources) out in turn, telling progress
 * (may be NULL) how far it is.  CP_OK, or gpu_fit's error. */
cp_status vgpu_leave_out(struct vgpu_run *g, gpu_fit_progress_fn progress, void *arg,
                         struct cp_error *err);

/* How the sources were left out, for validate's header, into buf; NULL
 * when there is no GPU run. */
const char *vgpu_how(const struct vgpu_run *g, char *buf, size_t n);

/* Line i of the GPU rows into *l. */
void vgpu_line(const struct vgpu_run *g, size_t i, struct vline *l);

void vgpu_free(struct vgpu_run *g);

/* The GPU corpus's calibrate (its entry in the table of kinds): req's
 * --fit (fit.KEY[,...]) fitted on the file's runs.  CP_OK, or CP_EINPUT
 * with err a one-line message starting "calibrate: " (-o, --set or
 * --hw-overlay refused, --fit missing or naming a key that is not a fitted
 * GPU constant, a malformed file, a fit that cannot start).  A fit that
 * does not converge is CP_OK with converged 0. */
cp_status meas_gpu_calibrate(const struct meas_calib_req *req, struct meas_calib_out *out,
                             struct cp_error *err);

#endif
