/* cmd_calibrate.c - `calibrate DATA.csv --fit KEYS [-o OVERLAY.ini]`: read
 * measured points, fit the named hardware keys to them (src/plan/calib),
 * print the fitted values, each point's residual and the fit's quality, and
 * write the values as a hardware overlay that --hw-overlay applies. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../plan/calib.h"
#include "../plan/param.h"
#include "../spec/meas.h"
#include "atomic.h"
#include "scenario.h"

/* Everything about one run, so the helpers take one argument. */
struct calib_run {
    struct cli_opts *o;
    const char *file;
    struct meas_list rows;
    struct scenario *sc; /* one per row (large: on the heap) */
    struct calib_point *pts;
    int keys[CALIB_MAX_KEYS];
    size_t nkeys;
    struct calib_result res;
};

/* "FILE:LINE:COL: column: message" for a cell of row r; EXIT_USAGE. */
static int cell_error(const struct calib_run *k, const struct meas_row *r, int col, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));
static int cell_error(const struct calib_run *k, const struct meas_row *r, int col, const char *fmt,
                      ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->at[col].line > 0)
        return cli_error("%s:%d:%d: %s: %s", k->file, r->at[col].line, r->at[col].col,
                         meas_col_name[col], msg);
    return cli_error("%s:%d: %s: %s", k->file, r->line, meas_col_name[col], msg);
}

/* --fit "a.b, c.d" into k->keys; -1 or an exit code. */
static int parse_fit(struct calib_run *k, const char *list)
{
    char buf[1024];
    if (!list)
        return cli_error("calibrate: --fit section.key[,section.key...] is required");
    if (strlen(list) >= sizeof buf)
        return cli_error("calibrate: --fit: the list is longer than %zu bytes", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        tok += strspn(tok, " \t");
        for (size_t n = strlen(tok); n > 0 && strchr(" \t", tok[n - 1]); n--)
            tok[n - 1] = '\0';
        int key = param_find(tok);
        if (key < 0)
            return cli_error("calibrate: --fit '%s': not a numeric hardware key (section.key; "
                             "'cerebras-plan show cs3' lists them)",
                             tok);
        if (hw_schema.keys[key].flags & DESC_INTEGER)
            return cli_error("calibrate: --fit '%s': a whole-number key cannot be fitted", tok);
        for (size_t j = 0; j < k->nkeys; j++)
            if (k->keys[j] == key)
                return cli_error("calibrate: --fit '%s': named twice", tok);
        if (k->nkeys == CALIB_MAX_KEYS)
            return cli_error("calibrate: --fit: more than %d keys", CALIB_MAX_KEYS);
        k->keys[k->nkeys++] = key;
    }
    if (k->nkeys == 0)
        return cli_error("calibrate: --fit '%s': no key named", list);
    return -1;
}

/* The row's model or system names a description of that kind; -1 or an
 * exit code after a message placed at the cell. */
static int check_name(const struct calib_run *k, const struct meas_row *r, int col)
{
    enum cat_kind want = col == MEAS_MODEL ? CAT_MODEL : CAT_HW;
    const char *name = col == MEAS_MODEL ? r->model : r->system;
    struct cat_entry e;
    struct cp_error err = {0};
    cp_status st = cat_resolve(&k->o->dirs, name, want, &e, &err);
    if (st == CP_ENOTFOUND && cat_resolve(&k->o->dirs, name, CAT_ANY, &e, &err) == CP_OK) {
        cat_entry_free(&e);
        return cell_error(k, r, col, "'%s' is a %s description, not a %s", name,
                          want == CAT_MODEL ? "hardware" : "model",
                          want == CAT_MODEL ? "model" : "system");
    }
    if (st != CP_OK)
        return cell_error(k, r, col, "%s", err.msg);
    cat_entry_free(&e);
    return -1;
}

/* The memoryx cell: a tier of the system, a capacity, or empty/auto. */
static int set_memoryx(const struct calib_run *k, const struct meas_row *r, struct scenario *s)
{
    if (r->memoryx[0] == '\0' || strcmp(r->memoryx, "auto") == 0) {
        scenario_auto_tier(s);
        return -1;
    }
    int found = 0;
    for (size_t i = 0; i < s->hw.mx.tiers.n; i++)
        found |= strcmp(s->hw.mx.tiers.item[i].name, r->memoryx) == 0;
    char why[256];
    double v;
    if (!found && (unit_parse(r->memoryx, UNIT_BYTES, &v, why, sizeof why) != 0 || !(v > 0)))
        return cell_error(k, r, MEAS_MEMORYX,
                          "'%s' is not a tier of %s nor a capacity such as '4 TB' "
                          "('cerebras-plan show %s' lists the tiers)",
                          r->memoryx, s->system, s->system);
    return scenario_memoryx(s, r->memoryx);
}

/* The model has a figure for the loaded row; warn when it finds the
 * configuration infeasible.  -1 or an exit code. */
static int check_point(const struct calib_run *k, const struct meas_row *r,
                       const struct scenario *s)
{
    double m = calib_predict(&s->c, &s->hw, r->quantity);
    if (!(m > 0) || !isfinite(m))
        return cli_error("%s:%d: the model gives no %s for this configuration", k->file, r->line,
                         meas_quantity_name[r->quantity]);
    struct train_result tr;
    train_eval(&s->c, &tr);
    char warn[256];
    if (!tr.feasible)
        fprintf(stderr,
                "cerebras-plan: %s:%d: warning: the model finds this configuration "
                "infeasible (%s); its figure is fitted all the same\n",
                k->file, r->line, train_warn_names(tr.warnings & TW_INFEASIBLE, warn, sizeof warn));
    return -1;
}

/* Load row r into s and its calibration point p; -1 or an exit code. */
static int load_point(struct calib_run *k, const struct meas_row *r, struct scenario *s,
                      struct calib_point *p)
{
    int rc;
    if ((rc = check_name(k, r, MEAS_MODEL)) >= 0 || (rc = check_name(k, r, MEAS_SYSTEM)) >= 0 ||
        (rc = scenario_load_names(k->o, r->model, r->system, s)) >= 0 ||
        (rc = set_memoryx(k, r, s)) >= 0)
        return rc;
    if (r->systems > CLUSTER_MAX_SYSTEMS)
        return cell_error(k, r, MEAS_SYSTEMS, "%g is more than %g systems", r->systems,
                          CLUSTER_MAX_SYSTEMS);
    if (r->sparsity > CLUSTER_MAX_SPARSITY)
        return cell_error(k, r, MEAS_SPARSITY, "%g is above %g", r->sparsity, CLUSTER_MAX_SPARSITY);
    s->c.systems = r->systems;
    s->c.sparsity = r->sparsity;
    if (r->batch > 0)
        s->c.global_seqs = r->batch;
    struct cp_error err = {0};
    if (cluster_check(&s->c, &err) != CP_OK)
        return cli_error("%s:%d: %s", k->file, r->line, err.msg);
    *p = (struct calib_point){.c = &s->c, .quantity = r->quantity, .measured = r->value};
    return check_point(k, r, s);
}

static int load_points(struct calib_run *k)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_read_file(k->file, &e, &err) != CP_OK)
        return cli_error("%s", err.msg);
    cp_status st = meas_parse(e.text, k->file, &k->rows, &err);
    cat_entry_free(&e);
    if (st != CP_OK)
        return cli_error("%s", err.msg);
    size_t n = k->rows.n;
    k->sc = xmalloc(n * sizeof *k->sc);
    k->pts = xmalloc(n * sizeof *k->pts);
    for (size_t i = 0; i < n; i++) {
        int rc = load_point(k, &k->rows.rows[i], &k->sc[i], &k->pts[i]);
        if (rc >= 0)
            return rc;
    }
    return -1;
}

/* ---- output ---- */

/* A measured or modelled figure with its unit. */
static const char *qty_format(enum meas_quantity q, double v, char *buf, size_t n)
{
    char num[48];
    if (q == MEAS_STEP_TIME)
        return unit_format(v, UNIT_TIME, buf, n);
    unit_format(v, UNIT_COUNT, num, sizeof num);
    snprintf(buf, n, "%s%s", num, q == MEAS_TOKENS_PER_S ? " tokens/s" : "x");
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
        out_row(t, (const char *[]){param_name(ck->key, name, sizeof name),
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
    for (size_t i = 0; i < k->rows.n; i++) {
        const struct meas_row *r = &k->rows.rows[i];
        const struct calib_point *p = &k->pts[i];
        char line[16], n[32], m[96], b[96], a[96], res[32];
        snprintf(line, sizeof line, "%d", r->line);
        snprintf(n, sizeof n, "%g", r->systems);
        snprintf(res, sizeof res, "%+.2f %%", 100 * (p->after / p->measured - 1));
        out_row(&t, (const char *[]){line, k->sc[i].model, k->sc[i].system, n,
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
    char name[128];
    for (size_t j = 0; j < res->nkeys; j++)
        if (res->keys[j].se_why)
            printf("%s: no standard error: %s\n", param_name(res->keys[j].key, name, sizeof name),
                   res->keys[j].se_why);
    printf("\n");
    points_table(k);
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
static void overlay_key(FILE *f, const struct calib_key *ck, const struct hw_desc *hw)
{
    const char *name = hw_schema.keys[ck->key].name;
    char val[96], spread[96], num[64], why[256] = "";
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
    if (*why)
        fprintf(f, "# %s: %s\n%s = %s\n", name, why, name, val);
    else
        fprintf(f, "%s = %s +- %s\n", name, val, spread);
}

/* The data file's name for a comment line: control bytes become '?'. */
static void comment_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static int write_overlay(const struct calib_run *k)
{
    struct atomic_file a;
    if (atomic_open(&a, k->o->output) != 0)
        return EXIT_USAGE;
    const struct calib_result *res = &k->res;
    char name[128];
    fputs("# Hardware overlay (cerebras-plan(5)) written by cerebras-plan calibrate;\n"
          "# apply it to any command with --hw-overlay FILE.\n# Data: ",
          a.f);
    comment_text(a.f, k->file);
    fputs("\n# Fitted:", a.f);
    for (size_t j = 0; j < res->nkeys; j++)
        fprintf(a.f, "%s %s", j ? "," : "", param_name(res->keys[j].key, name, sizeof name));
    fprintf(a.f, "\n# %zu point%s, dof %zu, RMS log residual %.3g %% (%.3g %% before).\n",
            res->npoints, res->npoints == 1 ? "" : "s", res->dof,
            100 * sqrt(res->chi2 / (double)res->npoints),
            100 * sqrt(res->chi2_before / (double)res->npoints));
    fputs("# Each value is the fit; +- is two standard errors.\n", a.f);
    /* sections in the order their first key was named */
    for (size_t j = 0; j < res->nkeys; j++) {
        const char *sec = hw_schema.keys[res->keys[j].key].section;
        int seen = 0;
        for (size_t i = 0; i < j; i++)
            seen |= strcmp(hw_schema.keys[res->keys[i].key].section, sec) == 0;
        if (seen)
            continue;
        fprintf(a.f, "\n[%s]\n", sec);
        for (size_t i = j; i < res->nkeys; i++)
            if (strcmp(hw_schema.keys[res->keys[i].key].section, sec) == 0)
                overlay_key(a.f, &res->keys[i], &k->sc[0].hw);
    }
    return atomic_commit(&a) != 0 ? EXIT_USAGE : EXIT_OK;
}

/* ---- the command ---- */

static int fit_and_report(struct calib_run *k)
{
    struct cp_error err = {0};
    if (calib_fit(k->pts, k->rows.n, k->keys, k->nkeys, &k->res, &err) != CP_OK)
        return cli_error("calibrate: %s", err.msg);
    int rc;
    /* The overlay first: an -o that cannot be written is exit 2 with
     * nothing on the standard output, not after a complete report. */
    if (k->res.converged && k->o->output && (rc = write_overlay(k)) != EXIT_OK)
        return rc;
    if (k->o->csv) {
        struct out_table t;
        keys_table(k, &t);
        rc = cli_emit(k->o, &t);
        out_free(&t);
    } else {
        print_text(k);
        rc = cli_flush();
    }
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

int cmd_calibrate(struct cli_opts *o)
{
    struct calib_run *k = xmalloc(sizeof *k);
    memset(k, 0, sizeof *k);
    k->o = o;
    k->file = o->args[0];
    int rc = parse_fit(k, o->fit);
    if (rc < 0)
        rc = load_points(k);
    if (rc < 0)
        rc = fit_and_report(k);
    meas_list_free(&k->rows);
    free(k->sc);
    free(k->pts);
    free(k);
    return rc;
}
