/* report_models.c - models.csv (see report_models.h): each model on the
 * cluster of the report's system that trains it fastest, at its own token
 * count and at REPORT_FIXED_TOKENS. */
#include "report_models.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/tfm.h"
#include "../face/est.h"

/* Columns models.csv adds to the estimate's: the same model trained on
 * REPORT_FIXED_TOKENS tokens, on its fastest cluster at that count. */
static const char *const fixed_header[] = {
    "fixed_tokens",          "fixed_systems",      "fixed_memoryx_servers",
    "fixed_act_servers",     "fixed_swarmx_nodes", "fixed_step_time_s",
    "fixed_time_to_train_s", "fixed_bottleneck",   "fixed_feasible"};
#define NFIXED (sizeof fixed_header / sizeof fixed_header[0])

/* base at the N in 1..max that trains it fastest among the feasible ones
 * (the smallest such N), into *c and *r; at max when none is feasible.
 * The servers are sized for each N (base's mx_servers and act_servers 0). */
static void fastest_cluster(const struct cluster *base, double max, struct cluster *c,
                            struct train_result *r)
{
    double best_n = max, best_s = HUGE_VAL;
    *c = *base;
    for (double n = 1; n <= max; n++) {
        c->systems = n;
        train_eval(c, r);
        if (r->feasible && r->time_s < best_s)
            best_s = r->time_s, best_n = n;
    }
    c->systems = best_n;
    train_eval(c, r);
}

/* The row of one model: the estimate's cells for (c, r) at its own tokens,
 * then the fixed_ cells for (fc, fr) at REPORT_FIXED_TOKENS. */
static void models_row(struct out_table *t, const struct scenario *m, const struct cluster *c,
                       const struct train_result *r, const struct cluster *fc,
                       const struct train_result *fr)
{
    static struct est_cells w;
    const char *cells[EST_MAX_COLS + NFIXED];
    char b[NFIXED][EST_CELL_BYTES];
    memset(w.have, 0, sizeof w.have);
    est_cells(&w, m, m->tier, c, r);
    memcpy(cells, w.cell, est_ncols * sizeof *cells);
    const double v[] = {fr->tokens,    fc->systems,     fr->step.mx_servers, fr->step.act_servers,
                        fr->swx_nodes, fr->step.step_s, fr->time_s};
    size_t k = est_ncols;
    for (size_t j = 0; j < sizeof v / sizeof v[0]; j++, k++)
        cells[k] = unit_format_exact(v[j], b[j], sizeof b[j]);
    cells[k++] = step_res_name[fr->step.bottleneck];
    cells[k++] = fr->feasible ? "1" : "0";
    out_row(t, cells);
}

struct model_size {
    double params;
    size_t index; /* in the catalogue's list */
};

static int by_params(const void *a, const void *b)
{
    const struct model_size *x = a, *y = b;
    if (x->params != y->params)
        return x->params < y->params ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Model NAME of the catalogue (item: its entry in the list) as found,
 * without the report's --set, on base's hardware as resolved; base's own
 * model, by name, is base's workload with its overrides.  Servers sized
 * for the run.  -1 or an exit code after a message. */
static int load_model_on(const struct cat_entry *item, const struct scenario *base,
                         struct scenario *m)
{
    m->hw = base->hw;
    m->hw_src = base->hw_src;
    snprintf(m->system, sizeof m->system, "%s", base->system);
    snprintf(m->model, sizeof m->model, "%s", item->name);
    if (strcmp(item->name, base->model) == 0) {
        m->wl = base->wl;
    } else {
        struct cat_entry e;
        struct cp_error err = {0};
        if (cat_open(item, &e, &err) != CP_OK)
            return cli_error("%s", err.msg);
        cp_status st = wl_load(e.text, e.origin, NULL, 0, &m->wl, NULL, &err);
        cat_entry_free(&e);
        if (st != CP_OK)
            return cli_error("%s", err.msg);
    }
    cluster_init(&m->c, &m->hw, &m->wl);
    scenario_auto_tier(m);
    return -1;
}

int report_models_table(const struct cli_opts *o, const struct scenario *base, struct out_table *t)
{
    static const char *header[EST_MAX_COLS + NFIXED];
    memcpy(header, est_header, est_ncols * sizeof *header);
    memcpy(header + est_ncols, fixed_header, sizeof fixed_header);
    out_init(t, est_ncols + NFIXED, header);
    struct cat_list models = {0};
    struct cp_error err = {0};
    if (cat_list(&o->dirs, CAT_MODEL, &models, &err) != CP_OK)
        return cli_error("%s", err.msg);
    struct model_size *order = xmalloc((models.n ? models.n : 1) * sizeof *order);
    static struct scenario m;
    int rc = -1;
    for (size_t i = 0; i < models.n && rc < 0; i++)
        if ((rc = load_model_on(&models.items[i], base, &m)) < 0)
            order[i] = (struct model_size){tfm_params(&m.wl), i};
    if (rc < 0)
        qsort(order, models.n, sizeof *order, by_params);
    for (size_t i = 0; i < models.n && rc < 0; i++) {
        if ((rc = load_model_on(&models.items[order[i].index], base, &m)) >= 0)
            break;
        struct cluster c, fc, fixed = m.c;
        struct train_result r, fr;
        fastest_cluster(&m.c, m.hw.wse.max_systems, &c, &r);
        fixed.tokens = REPORT_FIXED_TOKENS;
        fastest_cluster(&fixed, m.hw.wse.max_systems, &fc, &fr);
        models_row(t, &m, &c, &r, &fc, &fr);
    }
    free(order);
    cat_list_free(&models);
    return rc;
}
