/* cmd_validate.c - `validate [FILE...]`: the models against measured
 * runs, both machine kinds in one table.  Each run is predicted twice:
 * with the descriptions as shipped (whose fitted constants saw every run),
 * and left out, with the fitted constants refitted on the others: the
 * honest out-of-sample figure.  The work is the measurement room's
 * (src/meas/meas_run.h, which reads each file by its kind); the count,
 * median and largest |error| per kind, system and source, and the
 * targets, are printed by src/print/valid_out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../meas/meas_run.h"
#include "../print/meas_env.h"
#include "../print/valid_out.h"
#include "produce.h"
#include "progress.h"

static int parse_tolerance(const struct cli_opts *o, double *tolerance)
{
    *tolerance = VALIDATE_TOLERANCE;
    if (!o->tolerance)
        return -1;
    double x;
    char why[256];
    if (unit_parse(o->tolerance, UNIT_FRACTION, &x, why, sizeof why) != 0 || !(x > 0) ||
        !isfinite(x))
        return cli_error("validate: --tolerance '%s': a positive fraction or percentage such "
                         "as 0.25 or 25%% expected",
                         o->tolerance);
    if (x > VALIDATE_TOLERANCE_MAX)
        return cli_error("validate: --tolerance '%s': above %g (%g %%), the most it takes: a "
                         "model off by more is not being validated",
                         o->tolerance, VALIDATE_TOLERANCE_MAX, 100 * VALIDATE_TOLERANCE_MAX);
    *tolerance = x;
    return -1;
}

static void pg_start(void *pg, const char *what)
{
    progress_start(pg, what);
}

static void pg_end(void *pg)
{
    progress_end(pg);
}

/* The keys, the files (o's, or the shipped corpora: the weight-streaming
 * one alone with ws_only), every run predicted and left out, into *out
 * (meas_run_free() it either way).  -1 or an exit code after a message. */
static int evaluate(struct cli_opts *o, const struct meas_env *env, int ws_only,
                    struct meas_run **out)
{
    struct cp_error err = {0};
    struct progress pg;
    struct meas_progress mp = {pg_start, progress_show, pg_end, &pg};
    struct meas_run *v = *out = meas_run_new(env, o->fit);
    if (meas_run_keys(v, &err) != CP_OK ||
        meas_run_load(v, o->args, o->nargs, ws_only, &err) != CP_OK ||
        meas_run_evaluate(v, &mp, &err) != CP_OK)
        return meas_env_fail(&err);
    return -1;
}

int validate_table(struct cli_opts *o, struct out_table *t)
{
    struct cli_opts vo = *o;
    vo.nargs = 0; /* the shipped weight-streaming corpus */
    vo.fit = NULL;
    vo.tolerance = NULL;
    vo.csv = 1;
    out_init(t, 0, NULL);
    struct meas_env env;
    meas_env_init(&env, &vo);
    struct meas_run *v;
    int rc = evaluate(&vo, &env, 1, &v);
    if (rc < 0) {
        out_free(t);
        validate_fill(v->lines, v->nlines, t);
    }
    meas_run_free(v);
    return rc;
}

int cmd_validate(struct cli_opts *o)
{
    double tolerance;
    int rc = parse_tolerance(o, &tolerance);
    if (rc >= 0)
        return rc;
    struct meas_env env;
    meas_env_init(&env, o);
    struct meas_run *v;
    rc = evaluate(o, &env, 0, &v);
    if (rc < 0) {
        if (o->csv) {
            struct out_table t;
            validate_fill(v->lines, v->nlines, &t);
            rc = cli_emit(o, &t);
            out_free(&t);
        } else {
            char keys[1024], buf[VKIND_N][256];
            const char *how[VKIND_N];
            meas_run_keys_text(v, keys, sizeof keys);
            for (int k = 0; k < VKIND_N; k++)
                how[k] = meas_run_how(v, (enum vkind)k, buf[k], sizeof buf[k]);
            validate_print(v->lines, v->nlines, keys, how, tolerance);
            rc = cli_flush();
        }
        if (rc == EXIT_OK && validate_missed(v->lines, v->nlines, tolerance))
            rc = EXIT_VERDICT;
    }
    meas_run_free(v);
    return rc;
}
