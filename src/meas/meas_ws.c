/* meas_ws.c - measured weight-streaming points (src/desc/meas) as
 * scenarios and calibration points, for calibrate and validate (see
 * meas_ws.h): each row's model, system and tier resolved as -m, -s and
 * --memoryx would be, errors at the cell. */
#include "meas_ws.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/gpuhw.h"
#include "../desc/hw.h"
#include "../model/mx.h"
#include "../model/train.h"

/* "FILE:LINE:COL: column: message" for a cell of row r into err; CP_EINPUT. */
static cp_status cell_error(struct cp_error *err, const struct meas_set *k,
                            const struct meas_row *r, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static cp_status cell_error(struct cp_error *err, const struct meas_set *k,
                            const struct meas_row *r, int col, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->at[col].line > 0)
        return cp_fail(err, CP_EINPUT, "%s:%d:%d: %s: %s", k->file, r->at[col].line, r->at[col].col,
                       meas_col_name[col], msg);
    return cp_fail(err, CP_EINPUT, "%s:%d: %s: %s", k->file, r->line, meas_col_name[col], msg);
}

/* The row's model or system names a description of that kind; CP_OK or
 * an error placed at the cell. */
static cp_status check_name(const struct meas_set *k, const struct meas_row *r, int col,
                            struct cp_error *err)
{
    enum cat_kind want = col == MEAS_MODEL ? CAT_MODEL : CAT_HW;
    const char *name = col == MEAS_MODEL ? r->model : r->system;
    struct cat_entry e;
    struct cp_error why = {0};
    cp_status st = cat_resolve(k->env->dirs, name, want, &e, &why);
    if (st == CP_ENOTFOUND && cat_resolve(k->env->dirs, name, CAT_ANY, &e, &why) == CP_OK) {
        cat_entry_free(&e);
        return cell_error(err, k, r, col, "'%s' is a %s description, not a %s", name,
                          want == CAT_MODEL ? "hardware" : "model",
                          want == CAT_MODEL ? "model" : "system");
    }
    if (st != CP_OK)
        return cell_error(err, k, r, col, "%s", why.msg);
    int gpu = col == MEAS_SYSTEM && gpuhw_kind_of(e.text) == GPUHW_GPU;
    cat_entry_free(&e);
    if (gpu)
        return cell_error(err, k, r, col,
                          "'%s' is a GPU system; these are weight-streaming runs (a GPU run "
                          "goes in a GPU corpus, with the columns of hw/gpu-measurements.csv, "
                          "which validate reads)",
                          name);
    return CP_OK;
}

cp_status meas_check_scopes(const struct cat_dirs *dirs, const char *cmd,
                            const struct calib_spec *keys, size_t n, struct cp_error *err)
{
    for (size_t j = 0; j < n; j++) {
        struct cat_entry e;
        struct cp_error why = {0};
        if (!keys[j].scope[0] || cat_resolve(dirs, keys[j].scope, CAT_HW, &e, &why) != CP_OK)
            continue;
        int gpu = gpuhw_kind_of(e.text) == GPUHW_GPU;
        cat_entry_free(&e);
        char name[128];
        struct calib_key k = {.key = keys[j].key, .scope = keys[j].scope};
        if (gpu)
            return cp_fail(err, CP_EINPUT,
                           "%s: --fit %s: %s is a GPU system; --fit fits weight-streaming "
                           "keys on weight-streaming systems' runs",
                           cmd, calib_key_name(&k, name, sizeof name), keys[j].scope);
    }
    return CP_OK;
}

/* The memoryx cell into c: a tier of the system, a capacity, or
 * empty/auto (servers sized for the run). */
static cp_status set_memoryx(const struct meas_set *k, const struct meas_row *r,
                             const struct meas_scen *s, struct cluster *c, struct cp_error *err)
{
    if (r->memoryx[0] == '\0' || strcmp(r->memoryx, "auto") == 0) {
        c->mx_servers = 0;
        return CP_OK;
    }
    double v = NAN;
    for (size_t i = 0; i < s->hw.mx.tiers.n; i++)
        if (strcmp(s->hw.mx.tiers.item[i].name, r->memoryx) == 0) {
            c->mx_servers = mx_tier_servers(&s->hw.mx, s->hw.mx.tiers.item[i].value);
            return CP_OK;
        }
    char why[256];
    if (unit_parse(r->memoryx, UNIT_BYTES, &v, why, sizeof why) != 0 || !(v > 0))
        return cell_error(err, k, r, MEAS_MEMORYX,
                          "'%s' is not a tier of %s nor a capacity such as '4 TB' "
                          "('cerebras-plan show %s' lists the tiers)",
                          r->memoryx, s->system, s->system);
    c->mx_servers = mx_tier_servers(&s->hw.mx, v);
    if (!(c->mx_servers <= HW_MAX_SERVERS))
        return cp_fail(err, CP_EINPUT, "--memoryx '%s': takes %g servers, more than %g", r->memoryx,
                       c->mx_servers, HW_MAX_SERVERS);
    return CP_OK;
}

/* The model has a figure for the loaded row (its cluster c, on the
 * hardware c points to); warn when it finds the configuration
 * infeasible. */
static cp_status check_point(const struct meas_set *k, const struct meas_row *r,
                             const struct cluster *c, struct cp_error *err)
{
    double m = calib_predict(c, c->hw, r->quantity);
    if (!(m > 0) || !isfinite(m))
        return cp_fail(err, CP_EINPUT, "%s:%d: the model gives no %s for this configuration",
                       k->file, r->line, meas_quantity_name[r->quantity]);
    struct train_result tr;
    train_eval(c, &tr);
    char warn[256], msg[CP_ERROR_MAX];
    if (!tr.feasible && k->env->warn) {
        snprintf(msg, sizeof msg,
                 "%s:%d: warning: the model finds this configuration infeasible (%s); its "
                 "figure is fitted all the same",
                 k->file, r->line,
                 train_warn_names(tr.warnings & TW_INFEASIBLE, warn, sizeof warn));
        k->env->warn(k->env->arg, msg);
    }
    return CP_OK;
}

/* The scenario of row i's model and system into k->sc_of[i], loaded the
 * first time a row names them (k->sc_row: that row). */
static cp_status find_scenario(struct meas_set *k, size_t i, struct cp_error *err)
{
    const struct meas_row *r = &k->rows.rows[i];
    for (size_t j = 0; j < k->nsc; j++) {
        const struct meas_row *f = &k->rows.rows[k->sc_row[j]];
        if (strcmp(f->model, r->model) == 0 && strcmp(f->system, r->system) == 0) {
            k->sc_of[i] = j;
            return CP_OK;
        }
    }
    if (check_name(k, r, MEAS_MODEL, err) != CP_OK || check_name(k, r, MEAS_SYSTEM, err) != CP_OK)
        return CP_EINPUT;
    struct meas_scen *s = xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    k->sc[k->nsc] = s;
    k->sc_row[k->nsc] = i;
    k->sc_of[i] = k->nsc++;
    if (k->env->load(k->env->arg, r->model, r->system, s, err) != CP_OK)
        return CP_EINPUT;
    cluster_init(&s->c, &s->hw, &s->wl);
    return CP_OK;
}

/* Load row i into its cluster and calibration point. */
static cp_status load_point(struct meas_set *k, size_t i, struct cp_error *err)
{
    const struct meas_row *r = &k->rows.rows[i];
    if (find_scenario(k, i, err) != CP_OK)
        return CP_EINPUT;
    const struct meas_scen *s = k->sc[k->sc_of[i]];
    struct cluster *c = &k->c[i];
    *c = s->c; /* the tier is the row's */
    if (set_memoryx(k, r, s, c, err) != CP_OK)
        return CP_EINPUT;
    if (r->systems > CLUSTER_MAX_SYSTEMS)
        return cell_error(err, k, r, MEAS_SYSTEMS, "%g is more than %g systems", r->systems,
                          CLUSTER_MAX_SYSTEMS);
    if (r->sparsity > CLUSTER_MAX_SPARSITY)
        return cell_error(err, k, r, MEAS_SPARSITY, "%g is above %g", r->sparsity,
                          CLUSTER_MAX_SPARSITY);
    c->systems = r->systems;
    c->sparsity = r->sparsity;
    if (r->batch > 0)
        c->global_seqs = r->batch;
    struct cp_error why = {0};
    if (cluster_check(c, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "%s:%d: %s", k->file, r->line, why.msg);
    k->pts[i] = (struct calib_point){
        .c = c, .system = r->system, .quantity = r->quantity, .measured = r->value};
    return check_point(k, r, c, err);
}

cp_status meas_set_load(const struct meas_env *env, const char *file, const char *text,
                        struct meas_set *k, struct cp_error *err)
{
    memset(k, 0, sizeof *k);
    k->env = env;
    k->file = file;
    if (meas_parse(text, k->file, &k->rows, err) != CP_OK)
        return CP_EINPUT;
    size_t n = k->rows.n;
    k->sc = xmalloc(n * sizeof *k->sc);
    k->sc_row = xmalloc(n * sizeof *k->sc_row);
    k->sc_of = xmalloc(n * sizeof *k->sc_of);
    k->c = xmalloc(n * sizeof *k->c);
    k->pts = xmalloc(n * sizeof *k->pts);
    for (size_t i = 0; i < n; i++)
        if (load_point(k, i, err) != CP_OK)
            return CP_EINPUT;
    return CP_OK;
}

const struct meas_scen *meas_set_scenario(const struct meas_set *k, size_t i)
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
