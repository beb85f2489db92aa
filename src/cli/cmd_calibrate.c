/* cmd_calibrate.c - `calibrate DATA.csv --fit KEYS [-o OVERLAY.ini]`: read
 * measured points, fit the named hardware keys to them (src/plan/calib),
 * print the fitted values, each point's residual and the fit's quality, and
 * write the values as a hardware overlay that --hw-overlay applies. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/xalloc.h"
#include "../plan/calib.h"
#include "../model/param.h"
#include "atomic.h"
#include "../meas/meas_calib.h"
#include "../print/calib_out.h"
#include "../print/meas_env.h"
#include "out.h"
#include "../meas/meas_run.h"

/* --fit "a.b, cs2:c.d" into k->keys; -1 or an exit code. */
static int parse_fit(struct calib_run *k, const char *list)
{
    struct cp_error err = {0};
    if (!list)
        return cli_error("calibrate: --fit [SYSTEM:]section.key[,...] is required");
    if (calib_parse_keys(list, k->keys, &k->nkeys, &err) != CP_OK)
        return cli_error("calibrate: --fit %s", err.msg);
    if (meas_check_scopes(&k->o->dirs, "calibrate", k->keys, k->nkeys, &err) != CP_OK)
        return cli_error("%s", err.msg);
    return -1;
}

/* ---- the command ---- */

static int fit_and_report(struct calib_run *k)
{
    struct cp_error err = {0};
    for (size_t j = 1; j < k->nkeys && k->o->output; j++)
        if (strcmp(k->keys[j].scope, k->keys[0].scope) != 0)
            return cli_error("calibrate: -o: keys fitted on different systems (%s and %s) do not "
                             "go in one overlay; fit each system's keys in a run of their own",
                             k->keys[0].scope[0] ? k->keys[0].scope : "all",
                             k->keys[j].scope[0] ? k->keys[j].scope : "all");
    for (size_t i = 0; i < k->m.rows.n; i++)
        k->m.pts[i].line = k->m.rows.rows[i].line;
    if (calib_fit(k->m.pts, k->m.rows.n, k->keys, k->nkeys, &k->res, &err) != CP_OK)
        return cli_error("calibrate: %s", err.msg);
    int rc;
    /* The overlay first: an -o that cannot be written is exit 2 with
     * nothing on the standard output, not after a complete report.  It is
     * renamed into place after the results, when they were written: a
     * command that fails replaces no file. */
    struct atomic_file ov;
    int have_ov = k->res.converged && k->o->output;
    if (have_ov && (rc = calib_write_overlay(k, &ov)) != EXIT_OK)
        return rc;
    if (k->o->csv) {
        struct out_table t;
        calib_keys_table(k, &t);
        out_csv.write(stdout, &t);
        out_free(&t);
        /* the words the text shows under the tables, on stderr: first a
         * measurement no fit can reach, the cause of what follows */
        char name[128], word[512];
        for (size_t i = 0; i < k->m.rows.n; i++)
            if (calib_beyond(&k->m.pts[i], i, word, sizeof word))
                cli_error("calibrate: %s: no fit reaches it", word);
        for (size_t j = 0; j < k->res.nkeys; j++) {
            meas_calib_plausibility(&k->m, &k->res.keys[j], word, sizeof word);
            if (*word)
                cli_error("calibrate: %s: %s", calib_key_name(&k->res.keys[j], name, sizeof name),
                          word);
        }
    } else {
        calib_print_text(k);
    }
    /* the overlay's commit flushes the output first */
    rc = have_ov ? (atomic_commit(&ov) != 0 ? EXIT_USAGE : EXIT_OK) : cli_flush();
    if (rc != EXIT_OK)
        return rc;
    if (!k->res.converged) {
        cli_error("calibrate: the fit %s; the values above are the best "
                  "found%s",
                  k->res.stop, k->o->output ? ", and no overlay was written" : "");
        return EXIT_VERDICT;
    }
    return EXIT_OK;
}

/* -o naming the data file itself, by any name (a symbolic or hard link):
 * the overlay would replace the measurements.  Exit 2 before any work, or
 * -1.  Only a regular file: a terminal or pipe may be both. */
static int output_is_data(const struct cli_opts *o, const char *file)
{
    struct stat in, out;
    if (!o->output || stat(file, &in) != 0 || !S_ISREG(in.st_mode) || stat(o->output, &out) != 0 ||
        in.st_dev != out.st_dev || in.st_ino != out.st_ino)
        return -1;
    return cli_error("calibrate: -o %s: is the data file %s (the same file); the overlay would "
                     "replace the measurements: name another file",
                     o->output, file);
}

/* A corpus whose kind has its own calibrate (the table of corpus kinds,
 * meas_run.h): its answer printed.  Exit 0, 1 when the fit did not
 * converge, 2 after a message. */
static int calibrate_kind(struct cli_opts *o, const struct meas_kind *kind,
                          const struct cat_entry *e)
{
    struct meas_env env;
    meas_env_init(&env, o);
    struct meas_calib_req req = {.file = o->args[0],
                                 .text = e->text,
                                 .fit = o->fit,
                                 .overlay = o->output,
                                 .nsets = o->nsets,
                                 .noverlays = o->noverlays,
                                 .env = &env};
    struct meas_calib_out c;
    struct cp_error err = {0};
    if (kind->calibrate(&req, &c, &err) != CP_OK)
        return meas_env_fail(&err);
    calib_print_kind(&c, o->args[0], o->csv);
    int rc = cli_flush();
    if (rc == EXIT_OK && !c.converged) {
        cli_error("calibrate: the fit did not converge in %zu iterations; the values above are "
                  "the best found",
                  c.iterations);
        rc = EXIT_VERDICT;
    }
    meas_calib_out_free(&c);
    return rc;
}

/* The kind of the corpus o names, when it has its own calibrate, and its
 * text into e; NULL (e freed) else, or when the file cannot be read (the
 * weight-streaming path then says why, as it always has). */
static const struct meas_kind *own_kind(const struct cli_opts *o, struct cat_entry *e)
{
    struct cp_error err = {0};
    if (cat_read_file(o->args[0], e, &err) != CP_OK)
        return NULL;
    const struct meas_kind *kind = meas_kind_of(e->text);
    if (!kind->calibrate)
        cat_entry_free(e);
    return kind->calibrate ? kind : NULL;
}

int cmd_calibrate(struct cli_opts *o)
{
    struct cat_entry own;
    const struct meas_kind *kind = own_kind(o, &own);
    if (kind) {
        int rc = calibrate_kind(o, kind, &own);
        cat_entry_free(&own);
        return rc;
    }
    struct calib_run *k = xmalloc(sizeof *k);
    memset(k, 0, sizeof *k);
    k->o = o;
    k->file = o->args[0];
    int rc = parse_fit(k, o->fit);
    if (rc < 0)
        rc = output_is_data(o, k->file);
    if (rc < 0) {
        struct cat_entry e;
        struct cp_error err = {0};
        if (cat_read_file(k->file, &e, &err) != CP_OK) {
            rc = cli_error("%s", err.msg);
        } else {
            meas_env_init(&k->env, o);
            if (meas_set_load(&k->env, k->file, e.text, &k->m, &err) != CP_OK)
                rc = meas_env_fail(&err);
            cat_entry_free(&e);
        }
    }
    if (rc < 0)
        rc = fit_and_report(k);
    meas_set_free(&k->m);
    free(k);
    return rc;
}
