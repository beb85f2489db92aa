/* meas_load.c - measured points (src/desc/meas) as scenarios and
 * calibration points, for calibrate and validate: each row's model, system
 * and tier resolved as -m, -s and --memoryx would be, errors at the cell. */
#include "meas_load.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/gpuhw.h"

/* "FILE:LINE:COL: column: message" for a cell of row r; EXIT_USAGE. */
static int cell_error(const struct meas_set *k, const struct meas_row *r, int col, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));
static int cell_error(const struct meas_set *k, const struct meas_row *r, int col, const char *fmt,
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

/* The row's model or system names a description of that kind; -1 or an
 * exit code after a message placed at the cell. */
static int check_name(const struct meas_set *k, const struct meas_row *r, int col)
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
    int gpu = col == MEAS_SYSTEM && gpuhw_kind_of(e.text) == GPUHW_GPU;
    cat_entry_free(&e);
    if (gpu)
        return cell_error(k, r, col,
                          "'%s' is a GPU system; these are weight-streaming runs (a GPU run "
                          "goes in a GPU corpus, with the columns of hw/gpu-measurements.csv, "
                          "which validate reads)",
                          name);
    return -1;
}

int meas_check_scopes(const struct cli_opts *o, const char *cmd, const struct calib_spec *keys,
                      size_t n)
{
    for (size_t j = 0; j < n; j++) {
        struct cat_entry e;
        struct cp_error err = {0};
        if (!keys[j].scope[0] || cat_resolve(&o->dirs, keys[j].scope, CAT_HW, &e, &err) != CP_OK)
            continue;
        int gpu = gpuhw_kind_of(e.text) == GPUHW_GPU;
        cat_entry_free(&e);
        char name[128];
        struct calib_key k = {.key = keys[j].key, .scope = keys[j].scope};
        if (gpu)
            return cli_error("%s: --fit %s: %s is a GPU system; --fit fits weight-streaming "
                             "keys on weight-streaming systems' runs",
                             cmd, calib_key_name(&k, name, sizeof name), keys[j].scope);
    }
    return -1;
}

/* The memoryx cell: a tier of the system, a capacity, or empty/auto. */
static int set_memoryx(const struct meas_set *k, const struct meas_row *r, struct scenario *s)
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

/* The model has a figure for the loaded row (its cluster c, on the
 * hardware c points to); warn when it finds the configuration
 * infeasible.  -1 or an exit code. */
static int check_point(const struct meas_set *k, const struct meas_row *r, const struct cluster *c)
{
    double m = calib_predict(c, c->hw, r->quantity);
    if (!(m > 0) || !isfinite(m))
        return cli_error("%s:%d: the model gives no %s for this configuration", k->file, r->line,
                         meas_quantity_name[r->quantity]);
    struct train_result tr;
    train_eval(c, &tr);
    char warn[256];
    if (!tr.feasible)
        fprintf(stderr,
                "cerebras-plan: %s:%d: warning: the model finds this configuration "
                "infeasible (%s); its figure is fitted all the same\n",
                k->file, r->line, train_warn_names(tr.warnings & TW_INFEASIBLE, warn, sizeof warn));
    return -1;
}

/* The scenario of row i's model and system into k->sc_of[i], loaded the
 * first time a row names them (k->sc_row: that row).  -1 or an exit code. */
static int find_scenario(struct meas_set *k, size_t i)
{
    const struct meas_row *r = &k->rows.rows[i];
    for (size_t j = 0; j < k->nsc; j++) {
        const struct meas_row *f = &k->rows.rows[k->sc_row[j]];
        if (strcmp(f->model, r->model) == 0 && strcmp(f->system, r->system) == 0) {
            k->sc_of[i] = j;
            return -1;
        }
    }
    int rc;
    if ((rc = check_name(k, r, MEAS_MODEL)) >= 0 || (rc = check_name(k, r, MEAS_SYSTEM)) >= 0)
        return rc;
    struct scenario *s = xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    k->sc[k->nsc] = s;
    k->sc_row[k->nsc] = i;
    k->sc_of[i] = k->nsc++;
    return scenario_load_names(k->o, r->model, r->system, s);
}

/* Load row i into its cluster and calibration point; -1 or an exit code. */
static int load_point(struct meas_set *k, size_t i)
{
    const struct meas_row *r = &k->rows.rows[i];
    int rc = find_scenario(k, i);
    if (rc >= 0)
        return rc;
    struct scenario *s = k->sc[k->sc_of[i]];
    struct cluster pristine = s->c; /* the tier is the row's: set on a copy */
    rc = set_memoryx(k, r, s);
    k->c[i] = s->c;
    s->c = pristine;
    if (rc >= 0)
        return rc;
    struct cluster *c = &k->c[i];
    if (r->systems > CLUSTER_MAX_SYSTEMS)
        return cell_error(k, r, MEAS_SYSTEMS, "%g is more than %g systems", r->systems,
                          CLUSTER_MAX_SYSTEMS);
    if (r->sparsity > CLUSTER_MAX_SPARSITY)
        return cell_error(k, r, MEAS_SPARSITY, "%g is above %g", r->sparsity, CLUSTER_MAX_SPARSITY);
    c->systems = r->systems;
    c->sparsity = r->sparsity;
    if (r->batch > 0)
        c->global_seqs = r->batch;
    struct cp_error err = {0};
    if (cluster_check(c, &err) != CP_OK)
        return cli_error("%s:%d: %s", k->file, r->line, err.msg);
    k->pts[i] = (struct calib_point){
        .c = c, .system = r->system, .quantity = r->quantity, .measured = r->value};
    return check_point(k, r, c);
}

int meas_set_load(struct cli_opts *o, const char *file, const char *text, struct meas_set *k)
{
    struct cp_error err = {0};
    memset(k, 0, sizeof *k);
    k->o = o;
    k->file = file;
    cp_status st = meas_parse(text, k->file, &k->rows, &err);
    if (st != CP_OK)
        return cli_error("%s", err.msg);
    size_t n = k->rows.n;
    k->sc = xmalloc(n * sizeof *k->sc);
    k->sc_row = xmalloc(n * sizeof *k->sc_row);
    k->sc_of = xmalloc(n * sizeof *k->sc_of);
    k->c = xmalloc(n * sizeof *k->c);
    k->pts = xmalloc(n * sizeof *k->pts);
    for (size_t i = 0; i < n; i++) {
        int rc = load_point(k, i);
        if (rc >= 0)
            return rc;
    }
    return -1;
}

const struct scenario *meas_set_scenario(const struct meas_set *k, size_t i)
{
    return k->sc[k->sc_of[i]];
}

void meas_set_free(struct meas_set *k)
{
    meas_list_free(&k->rows);
    for (size_t j = 0; j < k->nsc; j++)
        free(k->sc[j]);
    free(k->sc);
    free(k->sc_row);
    free(k->sc_of);
    free(k->c);
    free(k->pts);
    memset(k, 0, sizeof *k);
}
