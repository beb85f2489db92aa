/* calib_out.c - what `calibrate` prints and writes (calib_out.h): the
 * fitted keys, each point's residual and the fit's quality, and the
 * hardware overlay that --hw-overlay applies. */
#include "calib_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../cli/cli.h"
#include "../cli/out.h"
#include "../meas/meas_calib.h"
#include "../model/param.h"

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

/* The fitted keys as a table (csv: how numbers are written). */
static void keys_table(const struct meas_calib_ws *k, int csv, struct out_table *t)
{
    static const char *const hdr[] = {"key", "start", "fitted", "std_error", "rel_std_error"};
    out_init(t, 5, hdr);
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

static void points_table(const struct meas_calib_ws *k)
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

/* The whole report for people on stdout. */
static void print_text(const struct meas_calib_ws *k)
{
    const struct calib_result *res = &k->res;
    struct out_table t;
    printf("Calibration: %zu key%s fitted to %zu point%s from %s\n\n", res->nkeys,
           res->nkeys == 1 ? "" : "s", res->npoints, res->npoints == 1 ? "" : "s", k->m.file);
    keys_table(k, 0, &t);
    out_text.write(stdout, &t);
    out_free(&t);
    char name[128], word[512];
    for (size_t j = 0; j < res->nkeys; j++) {
        if (res->keys[j].se_why)
            printf("%s: no standard error: %s\n", calib_key_name(&res->keys[j], name, sizeof name),
                   res->keys[j].se_why);
        meas_calib_plausibility(&k->m, &res->keys[j], word, sizeof word);
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

/* ---- a kind's answer (meas_calib.h) ---- */

static void kind_keys(const struct meas_calib_out *c, int csv)
{
    static const char *const hdr[] = {"key", "start", "fitted", "std_error", "rel_std_error"};
    struct out_table t;
    out_init(&t, 5, hdr);
    for (size_t j = 0; j < c->nkeys; j++) {
        const struct meas_calib_key *ck = &c->keys[j];
        char a[64], b[64], se[64] = "", rel[64] = "";
        if (!ck->fitted)
            continue;
        if (!isnan(ck->se)) {
            out_num(csv, ck->se, ck->dim, se, sizeof se);
            if (csv)
                unit_format_exact(ck->se / fabs(ck->value), rel, sizeof rel);
            else
                snprintf(rel, sizeof rel, "%.3g %%", 100 * ck->se / fabs(ck->value));
        } else if (!csv) {
            snprintf(se, sizeof se, "n/a");
            snprintf(rel, sizeof rel, "n/a");
        }
        out_row(&t, (const char *[]){ck->name, out_num(csv, ck->start, ck->dim, a, sizeof a),
                                     out_num(csv, ck->value, ck->dim, b, sizeof b), se, rel});
    }
    (csv ? &out_csv : &out_text)->write(stdout, &t);
    out_free(&t);
}

static void kind_runs(const struct meas_calib_out *c)
{
    static const char *const hdr[] = {"line",         "id",         "system", "model",
                                      "systems",      "measured",   "before", "after",
                                      "error_before", "error_after"};
    struct out_table t;
    out_init(&t, 10, hdr);
    for (size_t i = 0; i < c->nruns; i++) {
        const struct meas_calib_run *r = &c->runs[i];
        char line[16], n[32], m[64], b[64], a[64], eb[32], ea[32];
        snprintf(line, sizeof line, "%d", r->line);
        snprintf(n, sizeof n, "%g", r->systems);
        snprintf(eb, sizeof eb, "%+.2f %%", 100 * (r->before / r->measured - 1));
        snprintf(ea, sizeof ea, "%+.2f %%", 100 * (r->after / r->measured - 1));
        out_row(&t, (const char *[]){line, r->id, r->system, r->model, n,
                                     unit_format(r->measured, UNIT_TIME, m, sizeof m),
                                     unit_format(r->before, UNIT_TIME, b, sizeof b),
                                     unit_format(r->after, UNIT_TIME, a, sizeof a), eb, ea});
    }
    out_text.write(stdout, &t);
    out_free(&t);
}

/* Another kind's answer (no ws): the fitted keys (their CSV with csv), or
 * for people also the keys held, each run's error before and after and
 * their medians. */
static void print_kind(const struct meas_calib_out *c, const char *file, int csv)
{
    size_t fitted = 0;
    for (size_t j = 0; j < c->nkeys; j++)
        fitted += c->keys[j].fitted != 0;
    if (csv) {
        kind_keys(c, 1);
        return;
    }
    printf("Calibration: %zu key%s fitted to %zu run%s from %s\n\n", fitted, fitted == 1 ? "" : "s",
           c->nruns, c->nruns == 1 ? "" : "s", file);
    kind_keys(c, 0);
    for (size_t j = 0, any = 0; j < c->nkeys; j++)
        if (!c->keys[j].fitted)
            printf("%s%s", any++ ? ", " : "held at each description's value: ", c->keys[j].name);
    printf(fitted < c->nkeys ? "\n\n" : "\n");
    kind_runs(c);
    printf("\nruns        %zu\nparameters  %zu\n", c->nruns, fitted);
    printf("median      %.3g %% |error| after; %.3g %% before\n", 100 * c->median_after,
           100 * c->median_before);
    printf("iterations  %zu\nstopped     %s\n", c->iterations,
           c->converged ? "converged" : "not converged");
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
static void overlay_key(FILE *f, const struct meas_calib_ws *k, const struct calib_key *ck,
                        const struct hw_desc *hw)
{
    const char *name = hw_schema.keys[ck->key].name;
    char val[96], spread[96], num[64], why[256] = "", word[512], line[640];
    if (meas_calib_plausibility(&k->m, ck, word, sizeof word) || *word) {
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
static void overlay_head(FILE *f, const struct meas_calib_ws *k)
{
    const struct calib_result *res = &k->res;
    char name[128], line[CP_ERROR_MAX + 64];
    fputs("# Hardware overlay (cerebras-plan(5)) written by cerebras-plan calibrate;\n"
          "# apply it to any command with --hw-overlay FILE.\n",
          f);
    snprintf(line, sizeof line, "Data: %s", k->m.file);
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
static void overlay_print(FILE *f, const struct meas_calib_ws *k)
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
static int overlay_verify(const struct meas_calib_ws *k, const char *output, const char *text)
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
        st = desc_overlay(&hw_schema, text, output, &hw, src, &err);
        if (st == CP_OK)
            st = calib_check_hw(&k->m.pts[i], &hw, &err);
    }
    free(src);
    if (st == CP_OK)
        return -1;
    cli_error("calibrate: -o %s: the overlay, as written, would be refused on the hardware of %s: "
              "%s; no overlay was written",
              output, at, err.msg);
    return EXIT_VERDICT;
}

/* The overlay into a temporary file a beside -o (output), closed and
 * checked (a file that cannot be written fails before anything is
 * printed); the caller renames it into place with atomic_commit() once
 * the results are printed.  EXIT_OK, or an exit code after a message
 * (nothing left). */
static int write_overlay(const struct meas_calib_ws *k, const char *output, struct atomic_file *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return cli_error("calibrate: -o %s: out of memory", output);
    overlay_print(m, k);
    int rc = fclose(m) != 0 ? cli_error("calibrate: -o %s: out of memory", output)
                            : overlay_verify(k, output, text);
    if (rc < 0 && atomic_open(a, output) != 0)
        rc = EXIT_USAGE;
    else if (rc < 0) {
        fputs(text, a->f);
        rc = atomic_close(a) != 0 ? EXIT_USAGE : EXIT_OK;
    }
    free(text);
    return rc;
}

/* ---- the whole answer ---- */

/* Weight streaming's answer with --csv: the keys, and on stderr the words
 * the text shows under its tables, first a measurement no fit can reach,
 * the cause of what follows. */
static void print_csv(const struct meas_calib_ws *k)
{
    struct out_table t;
    keys_table(k, 1, &t);
    out_csv.write(stdout, &t);
    out_free(&t);
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
}

static void print_answer(const struct meas_calib_out *c, const char *file, int csv)
{
    if (!c->ws)
        print_kind(c, file, csv);
    else if (csv)
        print_csv(c->ws);
    else
        print_text(c->ws);
}

int calib_report(const struct meas_calib_out *c, const char *file, const char *output, int csv)
{
    int rc;
    /* The overlay first: an -o that cannot be written is exit 2 with
     * nothing on the standard output, not after a complete report.  It is
     * renamed into place after the results, when they were written: a
     * command that fails replaces no file. */
    struct atomic_file ov;
    int have_ov = c->converged && output && c->ws;
    if (have_ov && (rc = write_overlay(c->ws, output, &ov)) != EXIT_OK)
        return rc;
    print_answer(c, file, csv);
    /* the overlay's commit flushes the output first */
    rc = have_ov ? (atomic_commit(&ov) != 0 ? EXIT_USAGE : EXIT_OK) : cli_flush();
    if (rc != EXIT_OK)
        return rc;
    if (!c->converged) {
        cli_error("calibrate: the fit %s; the values above are the best found%s", c->stop,
                  output ? ", and no overlay was written" : "");
        return EXIT_VERDICT;
    }
    return EXIT_OK;
}
