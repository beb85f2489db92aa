/* job.h - the kind of cluster a command's -s names, resolved once, and
 * that kind's front end (its face): estimate, scale and plan reach the
 * kind through its face and never ask which kind it is.  The faces are
 * listed once (job.c), one per kind of src/tm/kinds.c. */
#ifndef CP_JOB_H
#define CP_JOB_H

#include "../tm/tm.h"
#include "cli.h"

struct face {
    const struct tm_kind *kind;
    int (*estimate)(struct cli_opts *o);
    int (*scale)(struct cli_opts *o);
    int (*plan)(struct cli_opts *o);
};

/* The face of the kind -s names (the default system's without -s).  A
 * name that does not resolve, or a description no kind claims, gets the
 * default's face, whose load then names the error. */
const struct face *job_face(const struct cli_opts *o);

/* Each kind's face (cmd_estimate.c, cmd_scale.c, cmd_plan.c; gpu_est.c,
 * gpu_scale.c, gpu_plan.c). */
int ws_estimate(struct cli_opts *o);
int ws_scale(struct cli_opts *o);
int ws_plan(struct cli_opts *o);
int gpu_estimate(struct cli_opts *o);
int gpu_scale(struct cli_opts *o);
int gpu_plan(struct cli_opts *o);

#endif
