/* meas_wsval.c - the weight-streaming corpus as a kind of corpus
 * (meas_run.h): its files read (meas_ws.h), a run given twice refused,
 * the fitted keys kept where a point depends on them, each point predicted
 * twice: with the hardware as shipped (whose fitted constants saw every
 * point), and left out, with the fitted constants refitted (src/plan/calib)
 * on every other point: the honest out-of-sample figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/folds.h"
#include "../base/xalloc.h"
#include "meas_calib.h"
#include "meas_run.h"

/* Does key k apply to any of the n points? */
static int key_has_point(const struct calib_spec *k, const struct calib_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (calib_applies(k, &pts[i]))
            return 1;
    return 0;
}

static cp_status add(struct meas_run *v, const char *name, const char *text, struct cp_error *err)
{
    size_t f = v->nsets;
    snprintf(v->names[f], sizeof v->names[f], "%s", name);
    cp_status st = meas_set_load(v->env, v->names[f], text, &v->sets[f], err);
    v->nsets = f + 1;
    if (st == CP_OK)
        v->n += v->sets[f].rows.n;
    return st;
}

/* Two rows for one run: the same id, or without ids the same cells. */
static int same_run(const struct meas_row *a, const struct meas_row *b)
{
    int c = strcmp(a->id, b->id);
    if (c || a->id[0])
        return c;
    if ((c = strcmp(a->model, b->model)) || (c = strcmp(a->system, b->system)) ||
        (c = strcmp(a->memoryx, b->memoryx)) || (c = strcmp(a->software, b->software)) ||
        (c = strcmp(a->source, b->source)))
        return c;
    double x[] = {a->systems, a->sparsity, a->batch, a->quantity, a->value};
    double y[] = {b->systems, b->sparsity, b->batch, b->quantity, b->value};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

struct row_ref {
    const struct meas_row *r;
    size_t file, k; /* k: the order loaded */
};

static int by_run(const void *a, const void *b)
{
    const struct row_ref *x = a, *y = b;
    int c = same_run(x->r, y->r);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

/* A run given twice (the same file twice, or one run in two files) would
 * count twice: refused, as a GPU id repeated across files is.  Sorted:
 * O(n log n) over up to 8 files of 10,000 rows.  The same name given
 * twice gets a second line saying so. */
static cp_status check_repeats(const struct meas_run *v, struct cp_error *err)
{
    struct row_ref *ref = xmalloc((v->n ? v->n : 1) * sizeof *ref);
    size_t k = 0;
    for (size_t f = 0; f < v->nsets; f++)
        for (size_t i = 0; i < v->sets[f].rows.n; i++, k++)
            ref[k] = (struct row_ref){&v->sets[f].rows.rows[i], f, k};
    qsort(ref, k, sizeof *ref, by_run);
    cp_status st = CP_OK;
    for (size_t a = 1; st == CP_OK && a < k; a++) {
        const struct row_ref *x = &ref[a], *y = &ref[a - 1];
        if (same_run(x->r, y->r) != 0)
            continue;
        char twice[CP_ERROR_MAX] = "";
        if (x->file != y->file && strcmp(v->names[x->file], v->names[y->file]) == 0)
            snprintf(twice, sizeof twice, "\ncerebras-plan: validate: %s is given twice",
                     v->names[x->file]);
        if (x->r->id[0])
            st = cp_fail(
                err, CP_EINPUT, "%s:%d: id: '%s' repeats the id of %s:%d: a run counts once%s",
                v->names[x->file], x->r->line, x->r->id, v->names[y->file], y->r->line, twice);
        else
            st = cp_fail(err, CP_EINPUT,
                         "%s:%d: repeats the run of %s:%d, cell for cell: a run counts once%s",
                         v->names[x->file], x->r->line, v->names[y->file], y->r->line, twice);
    }
    free(ref);
    return st;
}

/* Keep the keys some point depends on: a key no point depends on is
 * dropped from the default list (a file of one generation's runs, or of
 * GPU runs only), an error when --fit names it. */
static cp_status keep_keys(struct meas_run *v, struct cp_error *err)
{
    if (v->fit && v->n == 0)
        return cp_fail(err, CP_EINPUT,
                       "validate: --fit %s: no weight-streaming run to fit (--fit names "
                       "weight-streaming keys)",
                       v->fit);
    size_t kept = 0;
    for (size_t j = 0; j < v->nkeys; j++) {
        char name[128];
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        if (key_has_point(&v->keys[j], v->all, v->n))
            v->keys[kept++] = v->keys[j];
        else if (v->fit)
            return cp_fail(err, CP_EINPUT, "validate: --fit %s: no point is on system %s",
                           calib_key_name(&k, name, sizeof name), v->keys[j].scope);
    }
    v->nkeys = kept;
    return CP_OK;
}

/* No run twice; every point, in order; the keys that apply. */
static cp_status check(struct meas_run *v, struct cp_error *err)
{
    if (check_repeats(v, err) != CP_OK)
        return CP_EINPUT;
    v->pt = xmalloc((v->n ? v->n : 1) * sizeof *v->pt);
    v->all = xmalloc((v->n ? v->n : 1) * sizeof *v->all);
    size_t k = 0;
    for (size_t f = 0; f < v->nsets; f++)
        for (size_t i = 0; i < v->sets[f].rows.n; i++, k++) {
            v->all[k] = v->sets[f].pts[i];
            v->pt[k] = (struct vpoint){.row = &v->sets[f].rows.rows[i],
                                       .p = &v->all[k],
                                       .model = meas_set_scenario(&v->sets[f], i)->wl.name,
                                       .system = meas_set_scenario(&v->sets[f], i)->system};
        }
    return keep_keys(v, err);
}

/* Fold f's points predicted with the keys refitted on every other point
 * (rest: room for them); why f has none into why.  Keys on a system with
 * no other point keep their shipped value. */
static void leave_fold(struct meas_run *v, const size_t *fold, size_t f, struct calib_point *rest,
                       char *why, size_t why_len)
{
    size_t m = 0;
    for (size_t j = 0; j < v->n; j++)
        if (fold[j] != f)
            rest[m++] = v->all[j];
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nk = 0;
    for (size_t j = 0; j < v->nkeys; j++)
        if (key_has_point(&v->keys[j], rest, m))
            keys[nk++] = v->keys[j];
    struct calib_result res;
    struct cp_error err = {0};
    why[0] = '\0';
    if (nk == 0)
        snprintf(why, why_len, "no fitted key applies without it");
    else if (calib_fit(rest, m, keys, nk, &res, &err) != CP_OK)
        snprintf(why, why_len, "%s", err.msg);
    else if (!res.converged)
        snprintf(why, why_len, "the refit %s", res.stop);
    for (size_t i = 0; i < v->n; i++) {
        struct vpoint *q = &v->pt[i];
        if (fold[i] != f)
            continue;
        q->loo = q->loo_error = NAN;
        q->loo_why = why;
        if (why[0])
            continue;
        struct hw_desc hw;
        calib_apply(&res, keys, q->p, &hw);
        q->loo = calib_predict(q->p->c, &hw, q->row->quantity);
        q->loo_error = q->loo / q->row->value - 1;
    }
}

/* Every point predicted as shipped, then every fold left out in turn
 * (each point its own fold up to CP_LEAVE_OUT_MAX points, else K-fold:
 * the refits stay bounded whatever the corpus). */
static cp_status evaluate(struct meas_run *v, const struct meas_progress *pg, struct cp_error *err)
{
    (void)err;
    for (size_t i = 0; i < v->n; i++) {
        struct vpoint *q = &v->pt[i];
        q->predicted = calib_predict(q->p->c, q->p->c->hw, q->row->quantity);
        q->error = q->predicted / q->row->value - 1;
    }
    size_t *fold = xmalloc((v->n ? v->n : 1) * sizeof *fold);
    for (size_t i = 0; i < v->n; i++)
        fold[i] = cp_fold_of(i, v->n);
    v->nfolds = cp_folds(v->n);
    v->why = xmalloc((v->nfolds ? v->nfolds : 1) * sizeof *v->why);
    struct calib_point *rest = xmalloc((v->n ? v->n : 1) * sizeof *rest);
    pg->start(pg->arg, "validate: weight-streaming refits");
    for (size_t f = 0; f < v->nfolds; f++) {
        pg->show(pg->arg, f, v->nfolds);
        leave_fold(v, fold, f, rest, v->why[f], sizeof v->why[f]);
    }
    pg->end(pg->arg);
    free(rest);
    free(fold);
    return CP_OK;
}

static size_t lines(const struct meas_run *v, struct vline *out)
{
    for (size_t i = 0; i < v->n; i++) {
        const struct vpoint *q = &v->pt[i];
        const struct meas_row *r = q->row;
        out[i] = (struct vline){.kind = VKIND_WS,
                                .id = r->id,
                                .system = q->system,
                                .model = q->model,
                                .software = r->software,
                                .source = r->source,
                                .group = "",
                                .quantity = meas_quantity_name[r->quantity],
                                .unit = meas_quantity_unit[r->quantity],
                                .pub_unit = meas_quantity_unit[r->quantity],
                                .conversion = "",
                                .systems = r->systems,
                                .batch = q->p->c->global_seqs,
                                .published = r->value,
                                .measured = r->value,
                                .predicted = q->predicted,
                                .error = q->error,
                                .loo = q->loo,
                                .loo_error = q->loo_error,
                                .loo_why = q->loo_why};
    }
    return v->n;
}

/* How the weight-streaming runs were left out, for the header. */
static const char *how(const struct meas_run *v, char *buf, size_t n)
{
    if (v->n <= VALIDATE_MAX_LOO)
        snprintf(buf, n, "leave-one-out (%zu refit%s)", v->nfolds, v->nfolds == 1 ? "" : "s");
    else
        snprintf(buf, n,
                 "%zu folds of runs (%zu runs, more than %d: run i in fold i mod %d, each "
                 "fold left out in turn)",
                 v->nfolds, v->n, VALIDATE_MAX_LOO, VALIDATE_FOLDS);
    return buf;
}

static int sniff(const char *text)
{
    (void)text;
    return 1; /* whatever the GPU corpus does not claim */
}

const struct meas_kind meas_kind_ws = {
    .kind = VKIND_WS,
    .sniff = sniff,
    .add = add,
    .check = check,
    .evaluate = evaluate,
    .lines = lines,
    .how = how,
    .calibrate = meas_ws_calibrate,
};
