/* meas_calib.c - calibrate's judgement of a fitted value, and the
 * weight-streaming kind's calibrate (meas_calib.h). */
#include "meas_calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "../desc/hw.h"

/* A fitted value more than this factor from its start, either way, is
 * called implausible.  The starts are the shipped values (the files in hw/), each
 * published or an engineering estimate, and the widest range those files
 * state is +- 75 %; a fit that moves a key tenfold is not measuring it but
 * standing in for something else: an effect the model lacks, or a key the
 * points barely constrain (the shipped runs fit swarmx.hop_latency, 2 us,
 * at tens of milliseconds).  The fit is still reported and written. */
#define CALIB_PLAUSIBLE_FACTOR 10.0

/* The +- half-width the hardware file gives key ck on the first point it is
 * fitted on (SI; 0: none). */
static double start_spread(const struct meas_set *m, const struct calib_key *ck)
{
    for (size_t i = 0; i < m->rows.n; i++)
        if (!ck->scope[0] || strcmp(m->pts[i].system, ck->scope) == 0)
            return meas_set_scenario(m, i)->hw_src.spread[ck->key];
    return 0;
}

int meas_calib_plausibility(const struct meas_set *m, const struct calib_key *ck, char *buf,
                            size_t n)
{
    unit_dim d = hw_schema.keys[ck->key].dim;
    double ratio = ck->fitted / ck->start, spread = start_spread(m, ck);
    char f[48], st[48], sp[48];
    unit_format(ck->fitted, d, f, sizeof f);
    unit_format(ck->start, d, st, sizeof st);
    buf[0] = '\0';
    if (ck->start > 0 &&
        (!(ratio <= CALIB_PLAUSIBLE_FACTOR) || !(ratio >= 1 / CALIB_PLAUSIBLE_FACTOR))) {
        snprintf(buf, n,
                 "implausible: %s is %.3g times its start, %s (more than %g times either way); "
                 "the points may not constrain it, or it stands in for an effect the model lacks",
                 f, ratio, st, CALIB_PLAUSIBLE_FACTOR);
        return 1;
    }
    if (spread > 0 && !(fabs(ck->fitted - ck->start) <= spread))
        snprintf(buf, n, "outside the file's range: %s, the file says %s +- %s", f, st,
                 unit_format(spread, d, sp, sizeof sp));
    return 0;
}

void meas_calib_out_free(struct meas_calib_out *c)
{
    free(c->runs);
    if (c->ws)
        meas_set_free(&c->ws->m);
    free(c->ws);
    memset(c, 0, sizeof *c);
}

/* ---- calibrate on a weight-streaming corpus ---- */

/* --fit into w->keys, each scope a weight-streaming system. */
static cp_status fit_keys(const struct meas_calib_req *req, struct meas_calib_ws *w,
                          struct cp_error *err)
{
    struct cp_error why = {0};
    if (!req->fit)
        return cp_fail(err, CP_EINPUT, "calibrate: --fit [SYSTEM:]section.key[,...] is required");
    if (calib_parse_keys(req->fit, w->keys, &w->nkeys, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "calibrate: --fit %s", why.msg);
    return meas_check_scopes(req->env->dirs, "calibrate", w->keys, w->nkeys, err);
}

/* -o naming the data file itself, by any name (a symbolic or hard link):
 * the overlay would replace the measurements.  Only a regular file: a
 * terminal or pipe may be both. */
static cp_status output_is_data(const struct meas_calib_req *req, struct cp_error *err)
{
    struct stat in, out;
    if (!req->overlay || stat(req->file, &in) != 0 || !S_ISREG(in.st_mode) ||
        stat(req->overlay, &out) != 0 || in.st_dev != out.st_dev || in.st_ino != out.st_ino)
        return CP_OK;
    return cp_fail(err, CP_EINPUT,
                   "calibrate: -o %s: is the data file %s (the same file); the overlay would "
                   "replace the measurements: name another file",
                   req->overlay, req->file);
}

/* The file's points into w->m: req->text, or the file read again. */
static cp_status load_points(const struct meas_calib_req *req, struct meas_calib_ws *w,
                             struct cp_error *err)
{
    if (req->text)
        return meas_set_load(req->env, req->file, req->text, &w->m, err);
    struct cat_entry e;
    if (cat_read_file(req->file, &e, err) != CP_OK)
        return CP_EINPUT;
    cp_status st = meas_set_load(req->env, req->file, e.text, &w->m, err);
    cat_entry_free(&e);
    return st;
}

/* The keys fitted on w's points into w->res and out's summary. */
static cp_status fit(const struct meas_calib_req *req, struct meas_calib_ws *w,
                     struct meas_calib_out *out, struct cp_error *err)
{
    for (size_t j = 1; j < w->nkeys && req->overlay; j++)
        if (strcmp(w->keys[j].scope, w->keys[0].scope) != 0)
            return cp_fail(err, CP_EINPUT,
                           "calibrate: -o: keys fitted on different systems (%s and %s) do not "
                           "go in one overlay; fit each system's keys in a run of their own",
                           w->keys[0].scope[0] ? w->keys[0].scope : "all",
                           w->keys[j].scope[0] ? w->keys[j].scope : "all");
    for (size_t i = 0; i < w->m.rows.n; i++)
        w->m.pts[i].line = w->m.rows.rows[i].line;
    struct cp_error why = {0};
    if (calib_fit(w->m.pts, w->m.rows.n, w->keys, w->nkeys, &w->res, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "calibrate: %s", why.msg);
    out->iterations = w->res.iterations;
    out->converged = w->res.converged;
    snprintf(out->stop, sizeof out->stop, "%s", w->res.stop);
    return CP_OK;
}

cp_status meas_ws_calibrate(const struct meas_calib_req *req, struct meas_calib_out *out,
                            struct cp_error *err)
{
    memset(out, 0, sizeof *out);
    struct meas_calib_ws *w = xmalloc(sizeof *w);
    memset(w, 0, sizeof *w);
    out->ws = w;
    if (fit_keys(req, w, err) != CP_OK || output_is_data(req, err) != CP_OK ||
        load_points(req, w, err) != CP_OK)
        return CP_EINPUT;
    return fit(req, w, out, err);
}
