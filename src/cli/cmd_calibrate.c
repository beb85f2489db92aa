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
#include "../print/meas_env.h"
#include "out.h"
#include "../meas/meas_gpu.h"

/* Everything about one run, so the helpers take one argument. */
struct calib_run {
    struct cli_opts *o;
    const char *file;
    struct meas_env env;
    struct meas_set m; /* the rows, their scenarios and points */
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    struct calib_result res;
};

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

/* ---- plausibility ---- */

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
static double start_spread(const struct calib_run *k, const struct calib_key *ck)
{
    for (size_t i = 0; i < k->m.rows.n; i++)
        if (!ck->scope[0] || strcmp(k->m.pts[i].system, ck->scope) == 0)
            return meas_set_scenario(&k->m, i)->hw_src.spread[ck->key];
    return 0;
}

/* A word on ck's fitted value into buf (empty when it is plausible and
 * within its file's range): "implausible: ..." or "outside the file's
 * range: ...", with the numbers.  Returns 1 for implausible. */
static int plausibility(const struct calib_run *k, const struct calib_key *ck, char *buf, size_t n)
{
    unit_dim d = hw_schema.keys[ck->key].dim;
    double ratio = ck->fitted / ck->start, spread = start_spread(k, ck);
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

/* ---- output ---- */

/* A measured or modelled figure with its unit. */
static const char *qty_format(enum meas_quantity q, double v, char *buf, size_t n)
{
    char num[48];
    if (q == MEAS_STEP_TIME)
        return unit_format(v, UNIT_TIME, buf, n);
    unit_format(v, UNIT_COUNT, num, sizeof num);
    snprintf(buf, n, "%s%s%s", num, q == MEAS_SPEEDUP ? "" : " ", meas_quantity_unit[q]);
    return buf;
}

static void keys_table(const struct calib_run *k, struct out_table *t)
{
    static const char *const hdr[] = {"key", "start", "fitted", "std_error", "rel_std_error"};
    out_init(t, 5, hdr);
    int csv = k->o->csv;
    for (size_t j = 0; j < k->res.nkeys; j++) {
        const struct calib_key *ck = &k->res.keys[j];
        unit_dim d = hw_schema.keys[ck->key].dim;
        char name[128], a[64], b[64], se[64] = "", rel[64] = "";
        if (!isnan(ck->se)) {
            out_num(csv, ck->se, d, se, sizeof se);
            if (csv)
                unit_format_exact(ck->se / fabs(ck->fitted), rel, sizeof rel);
            else
                snprintf(rel, sizeof rel, "%.3g %%", 100 * ck->se / fabs(ck->fitted));
        } else if (!csv) {
            snprintf(se, sizeof se, "n/a");
            snprintf(rel, sizeof rel, "n/a");
        }
        out_row(t, (const char *[]){calib_key_name(ck, name, sizeof name),
                                    out_num(csv, ck->start, d, a, sizeof a),
                                    out_num(csv, ck->fitted, d, b, sizeof b), se, rel});
    }
}

static void points_table(const struct calib_run *k)
{
    static const char *const hdr[] = {"line",     "model",  "system", "systems", "quantity",
                                      "measured", "before", "after",  "residual"};
    struct out_table t;
    out_init(&t, 9, hdr);
    for (size_t i = 0; i < k->m.rows.n; i++) {
        const struct meas_row *r = &k->m.rows.rows[i];
        const struct calib_point *p = &k->m.pts[i];
        char line[16], n[32], m[96], b[96], a[96], res[32];
        snprintf(line, sizeof line, "%d", r->line);
        snprintf(n, sizeof n, "%g", r->systems);
        snprintf(res, sizeof res, "%+.2f %%", 100 * (p->after / p->measured - 1));
        out_row(&t, (const char *[]){line, meas_set_scenario(&k->m, i)->model,
                                     meas_set_scenario(&k->m, i)->system, n,
                                     meas_quantity_name[r->quantity],
                                     qty_format(r->quantity, p->measured, m, sizeof m),
                                     qty_format(r->quantity, p->before, b, sizeof b),
                                     qty_format(r->quantity, p->after, a, sizeof a), res});
    }
    out_text.write(stdout, &t);
    out_free(&t);
}

static void print_text(const struct calib_run *k)
{
    const struct calib_result *res = &k->res;
    struct out_table t;
    printf("Calibration: %zu key%s fitted to %zu point%s from %s\n\n", res->nkeys,
           res->nkeys == 1 ? "" : "s", res->npoints, res->npoints == 1 ? "" : "s", k->file);
    keys_table(k, &t);
    out_text.write(stdout, &t);
    out_free(&t);
    char name[128], word[512];
    for (size_t j = 0; j < res->nkeys; j++) {
        if (res->keys[j].se_why)
            printf("%s: no standard error: %s\n", calib_key_name(&res->keys[j], name, sizeof name),
                   res->keys[j].se_why);
        plausibility(k, &res->keys[j], word, sizeof word);
        if (*word)
            printf("%s: %s\n", calib_key_name(&res->keys[j], name, sizeof name), word);
    }
    printf("\n");
    points_table(k);
    char beyond[256];
    for (size_t i = 0; i < k->m.rows.n; i++)
        if (calib_beyond(&k->m.pts[i], i, beyond, sizeof beyond))
            printf("%s: no fit reaches it\n", beyond);
    double n = (double)res->npoints;
    printf("\npoints      %zu\nparameters  %zu\ndof         %zu\n", res->npoints, res->nkeys,
           res->dof);
    printf("chi2        %.4g (sum of squared log residuals; %.4g before)\n", res->chi2,
           res->chi2_before);
    printf("RMS         %.3g %% (log residuals; %.3g %% before)\n", 100 * sqrt(res->chi2 / n),
           100 * sqrt(res->chi2_before / n));
    printf("iterations  %zu\nstopped     %s\n", res->iterations, res->stop);
}

/* ---- the overlay ---- */

/* "VALUE UNIT" for key, v with the given significant digits in the SI
 * base unit (9 digits read back within 1e-8 relative). */
static void overlay_value(int key, double v, int digits, char *buf, size_t n)
{
    const char *sym = unit_base_symbol(hw_schema.keys[key].dim);
    char num[64];
    snprintf(num, sizeof num, "%.*g", digits, v);
    snprintf(buf, n, "%s%s%s", num, *sym ? " " : "", sym);
}

/* One "key = VALUE +- SPREAD" line, or the value and a comment saying why
 * it has no range. */
static void overlay_key(FILE *f, const struct calib_run *k, const struct calib_key *ck,
                        const struct hw_desc *hw)
{
    const char *name = hw_schema.keys[ck->key].name;
    char val[96], spread[96], num[64], why[256] = "", word[512], line[640];
    if (plausibility(k, ck, word, sizeof word) || *word) {
        snprintf(line, sizeof line, "%s: %s", name, word);
        out_desc_comment(f, line);
    }
    overlay_value(ck->key, ck->fitted, 9, val, sizeof val);
    double v = strtod(val, NULL), s = 0;
    if (isnan(ck->se)) {
        snprintf(why, sizeof why, "no range, as there is no standard error: %s", ck->se_why);
    } else if (ck->se == 0) {
        snprintf(why, sizeof why, "no range: the standard error is 0 (the points fit exactly)");
    } else {
        snprintf(num, sizeof num, "%.3g", 2 * ck->se);
        s = strtod(num, NULL);
        overlay_value(ck->key, s, 3, spread, sizeof spread);
        if (!param_valid(hw, ck->key, v - s) || !param_valid(hw, ck->key, v + s))
            snprintf(why, sizeof why,
                     "no range: %s +- 2 standard errors (%s) leaves the key's valid values", val,
                     spread);
    }
    if (*why) {
        snprintf(line, sizeof line, "%s: %s", name, why);
        out_desc_comment(f, line);
        fprintf(f, "%s = %s\n", name, val);
    } else {
        fprintf(f, "%s = %s +- %s\n", name, val, spread);
    }
}

/* The overlay's opening comments: what wrote it, from what, how well. */
static void overlay_head(FILE *f, const struct calib_run *k)
{
    const struct calib_result *res = &k->res;
    char name[128], line[CP_ERROR_MAX + 64];
    fputs("# Hardware overlay (cerebras-plan(5)) written by cerebras-plan calibrate;\n"
          "# apply it to any command with --hw-overlay FILE.\n",
          f);
    snprintf(line, sizeof line, "Data: %s", k->file);
    out_desc_comment(f, line);
    size_t at = (size_t)snprintf(line, sizeof line, "Fitted:");
    for (size_t j = 0; j < res->nkeys && at < sizeof line; j++)
        at += (size_t)snprintf(line + at, sizeof line - at, "%s %s", j ? "," : "",
                               calib_key_name(&res->keys[j], name, sizeof name));
    out_desc_comment(f, line);
    fprintf(f, "# %zu point%s, dof %zu, RMS log residual %.3g %% (%.3g %% before).\n", res->npoints,
            res->npoints == 1 ? "" : "s", res->dof, 100 * sqrt(res->chi2 / (double)res->npoints),
            100 * sqrt(res->chi2_before / (double)res->npoints));
    fputs("# Each value is the fit; +- is two standard errors.\n", f);
}

/* The whole overlay into f. */
static void overlay_print(FILE *f, const struct calib_run *k)
{
    const struct calib_result *res = &k->res;
    overlay_head(f, k);
    /* sections in the order their first key was named */
    for (size_t j = 0; j < res->nkeys; j++) {
        const char *sec = hw_schema.keys[res->keys[j].key].section;
        int seen = 0;
        for (size_t i = 0; i < j; i++)
            seen |= strcmp(hw_schema.keys[res->keys[i].key].section, sec) == 0;
        if (seen)
            continue;
        fprintf(f, "\n[%s]\n", sec);
        for (size_t i = j; i < res->nkeys; i++)
            if (strcmp(hw_schema.keys[res->keys[i].key].section, sec) == 0)
                overlay_key(f, k, &res->keys[i], &meas_set_scenario(&k->m, 0)->hw);
    }
}

/* The overlay text read back as --hw-overlay reads it, on the hardware of
 * every point its keys apply to, and checked as every command checks its
 * inputs (calib_check_hw): the file written is one they all take.  -1, or
 * exit 1 after a message. */
static int overlay_verify(const struct calib_run *k, const char *text)
{
    struct hw_desc hw;
    struct desc_src *src = xmalloc(sizeof *src);
    struct cp_error err = {0};
    cp_status st = CP_OK;
    char at[32] = "";
    for (size_t i = 0; i < k->m.rows.n && st == CP_OK; i++) {
        if (!calib_applies(&k->keys[0], &k->m.pts[i]))
            continue;
        hw = meas_set_scenario(&k->m, i)->hw;
        *src = meas_set_scenario(&k->m, i)->hw_src;
        snprintf(at, sizeof at, "line %d", k->m.rows.rows[i].line);
        st = desc_overlay(&hw_schema, text, k->o->output, &hw, src, &err);
        if (st == CP_OK)
            st = calib_check_hw(&k->m.pts[i], &hw, &err);
    }
    free(src);
    if (st == CP_OK)
        return -1;
    cli_error("calibrate: -o %s: the overlay, as written, would be refused on the hardware of %s: "
              "%s; no overlay was written",
              k->o->output, at, err.msg);
    return EXIT_VERDICT;
}

/* The overlay into a temporary file a beside -o, closed and checked (a
 * file that cannot be written fails before anything is printed); the
 * caller renames it into place with atomic_commit() once the results are
 * printed.  EXIT_OK, or an exit code after a message (nothing left). */
static int write_overlay(const struct calib_run *k, struct atomic_file *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return cli_error("calibrate: -o %s: out of memory", k->o->output);
    overlay_print(m, k);
    int rc = fclose(m) != 0 ? cli_error("calibrate: -o %s: out of memory", k->o->output)
                            : overlay_verify(k, text);
    if (rc < 0 && atomic_open(a, k->o->output) != 0)
        rc = EXIT_USAGE;
    else if (rc < 0) {
        fputs(text, a->f);
        rc = atomic_close(a) != 0 ? EXIT_USAGE : EXIT_OK;
    }
    free(text);
    return rc;
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
    if (have_ov && (rc = write_overlay(k, &ov)) != EXIT_OK)
        return rc;
    if (k->o->csv) {
        struct out_table t;
        keys_table(k, &t);
        out_csv.write(stdout, &t);
        out_free(&t);
        /* the words the text shows under the tables, on stderr: first a
         * measurement no fit can reach, the cause of what follows */
        char name[128], word[512];
        for (size_t i = 0; i < k->m.rows.n; i++)
            if (calib_beyond(&k->m.pts[i], i, word, sizeof word))
                cli_error("calibrate: %s: no fit reaches it", word);
        for (size_t j = 0; j < k->res.nkeys; j++) {
            plausibility(k, &k->res.keys[j], word, sizeof word);
            if (*word)
                cli_error("calibrate: %s: %s", calib_key_name(&k->res.keys[j], name, sizeof name),
                          word);
        }
    } else {
        print_text(k);
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

int cmd_calibrate(struct cli_opts *o)
{
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
        } else if (vgpu_is_corpus(e.text)) {
            rc = cli_error("calibrate: %s: a GPU corpus (its header has a gpu column); calibrate "
                           "fits weight-streaming hardware keys to weight-streaming runs (the "
                           "columns of hw/measurements.csv); 'cerebras-plan validate %s' "
                           "predicts GPU runs and refits the GPU constants",
                           k->file, k->file);
            cat_entry_free(&e);
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
