/* job.h - the kind of cluster a command's -s names, resolved once, and
 * that kind's front end (its face): estimate, scale and plan reach the
 * kind through its face and never ask which kind it is.  The faces are
 * listed once (job.c), one per kind of src/tm/kinds.c. */
#ifndef CP_JOB_H
#define CP_JOB_H

#include "../tm/tm.h"
#include "cli.h"
#include "../face/unc_opt.h"

struct job;
struct sweep_face; /* src/sweep/sweep_int.h */
struct scale_side; /* src/face/scale.h */

/* Where show puts a description's rows (cmd_show.c): every key of a
 * schema (qualified "section.key"), or one number with its unit and
 * source.  user is show's own. */
struct show_sink {
    void *user;
    void (*keys)(void *user, const struct desc_schema *sc, const void *target,
                 const struct desc_src *src, int qualify);
    void (*num)(void *user, const char *q, double v, unit_dim d, const char *source);
};

struct face {
    const struct tm_kind *kind;
    /* Load the options of command cmd into j (job_load). */
    int (*load)(const struct cli_opts *o, const char *cmd, struct job *j);
    int (*estimate)(const struct cli_opts *o, const struct job *j);
    const struct scale_side *scale_side; /* the kind's part of scale (scale.h) */
    int (*plan)(struct cli_opts *o);
    /* list hw: the row of description e (list's hardware columns, "-"
     * for those the kind lacks); its title (the system's name) into buf.
     * CP_OK, or the description's load error in err. */
    cp_status (*list_row)(struct out_table *t, int csv, const struct cat_entry *e,
                          struct cp_error *err);
    cp_status (*title)(const struct cat_entry *e, char *buf, size_t n, struct cp_error *err);
    /* show: e loaded with o's --set (and --hw-overlay where the kind
     * takes overlays), its rows put through sink.  -1, or an exit code
     * after the message. */
    int (*show)(const struct cli_opts *o, const struct cat_entry *e, const struct show_sink *sink);
    const struct sweep_face *sweep; /* the kind's side of sweep */
    /* Whether the kind keeps the weights and optimizer state in MemoryX
     * tiers, which capacity sizes (a kind without them is refused there,
     * and left out of capacity's every system). */
    int memoryx_tiers;
};

/* A command's job, loaded once: the interface's job (its kind, the
 * kind's own job, the count -n names), the names of the model and the
 * system, the origins and +- ranges of the hardware description's keys
 * (indexed by the kind's schema), and the kind's own loaded options for
 * its face (struct scenario, struct gscen).  Its storage is static: one
 * job at a time. */
struct job {
    const struct face *face;
    struct tm_job tm;
    const char *model, *system;
    const struct desc_src *hw_src;
    const char *label; /* the kind's words for options its job does not keep
                          (the MemoryX tier as given): tm_kind.describe's */
    const void *scen;
    struct unc_opt uo; /* --uncertainty and --seed (weight streaming only, yet) */
};

/* The face of the kind whose hardware description text is (the default
 * system's when no kind claims it). */
const struct face *job_face_of(const char *text);

/* Load the options o of command cmd (for messages) into j: the kind -s
 * names, and its face's load.  -1, or an exit code after the message. */
int job_load(const struct cli_opts *o, const char *cmd, struct job *j);

/* The face of the kind of the listed description item; NULL when it
 * cannot be opened (the caller's own load then names the error). */
const struct face *job_listed_face(const struct cat_entry *item);

/* The face of the default system's kind (the first of job.c's table):
 * sweep's -s all lists the systems of this kind, as a sweep takes systems
 * of one kind. */
const struct face *job_default_face(void);

/* The face of the kind -s names (the default system's without -s).  A
 * name that does not resolve, or a description no kind claims, gets the
 * default's face, whose load then names the error. */
const struct face *job_face(const struct cli_opts *o);

/* Each kind's face (src/face/ws_face.c, gpu_face.c), listed once in
 * job.c's table. */
extern const struct face face_ws, face_gpu;

#endif
