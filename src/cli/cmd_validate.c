/* cmd_validate.c - `validate [FILE...]`: the models against measured
 * runs, both machine kinds in one table.  Weight-streaming runs
 * (hw/measurements.csv) are each predicted twice: with the hardware as
 * shipped (whose fitted constants saw every point), and leave-one-out,
 * with the fitted constants refitted (src/plan/calib) on every other
 * point: the honest out-of-sample figure.  GPU runs (hw/gpu-measurements.csv,
 * validate_gpu.c) likewise, left out a source at a time.  Then count,
 * median and largest |error| per kind, system and source, and the
 * targets (validate_out.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../plan/calib.h"
#include "../model/param.h"
#include "../print/meas_env.h"
#include "produce.h"
#include "progress.h"
#include "../meas/meas_gpu.h"
#include "../print/valid_out.h"
#include "../base/folds.h"

/* The constants the shipped hardware files say were fitted to the corpus
 * (cerebras-plan(1), VALIDATION): each generation's utilization and step
 * overhead on its own rows, and one jitter on all of them. */
#define VALIDATE_FIT                                                                               \
    "cs2:system.utilization,cs2:system.step_overhead,cs3:system.utilization,"                      \
    "cs3:system.step_overhead,system.jitter"

#define VALIDATE_MAX_FILES CLI_MAX_ARGS

struct vpoint {
    const struct meas_row *row;
    struct calib_point *p;
    const char *model, *system; /* as resolved */
    double predicted, error;    /* with the shipped hardware            */
    double loo, loo_error;      /* left out; NAN when not possible      */
    const char *loo_why;        /* why not (into validate_run.why)      */
};

struct validate_run {
    struct cli_opts *o;
    int ws_only; /* the weight-streaming corpus alone (validate_table) */
    struct meas_env env;
    struct meas_set sets[VALIDATE_MAX_FILES];
    char names[VALIDATE_MAX_FILES][CP_ERROR_MAX]; /* each file's name, for messages */
    size_t nsets;
    struct vpoint *pt;
    struct calib_point *all; /* every point, in order */
    size_t n;
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    double tolerance;
    struct vgpu_run gpu;
    struct vline *lines; /* the weight-streaming points, then the GPU runs */
    size_t nlines;
    size_t nfolds;             /* weight-streaming refits (deal_folds) */
    char (*why)[CP_ERROR_MAX]; /* each fold's reason for no figure, or "" */
};

/* Does key k apply to any of the n points? */
static int key_has_point(const struct calib_spec *k, const struct calib_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (calib_applies(k, &pts[i]))
            return 1;
    return 0;
}

/* The fold of each point into fold: each its own up to VALIDATE_MAX_LOO
 * points (leave-one-out), else point i in fold i % VALIDATE_FOLDS (K-fold
 * cross-validation: the refits stay bounded whatever the corpus).  The
 * number of folds. */
static size_t deal_folds(size_t n, size_t *fold)
{
    for (size_t i = 0; i < n; i++)
        fold[i] = cp_fold_of(i, n);
    return cp_folds(n);
}

/* Fold f's points predicted with the keys refitted on every other point
 * (rest: room for them); why f has none into why.  Keys on a system with
 * no other point keep their shipped value. */
static void leave_fold(struct validate_run *v, const size_t *fold, size_t f,
                       struct calib_point *rest, char *why, size_t why_len)
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

/* Every fold left out in turn, with a progress line on a terminal. */
static void leave_out(struct validate_run *v)
{
    size_t *fold = xmalloc((v->n ? v->n : 1) * sizeof *fold);
    v->nfolds = deal_folds(v->n, fold);
    v->why = xmalloc((v->nfolds ? v->nfolds : 1) * sizeof *v->why);
    struct calib_point *rest = xmalloc((v->n ? v->n : 1) * sizeof *rest);
    struct progress pg;
    progress_start(&pg, "validate: weight-streaming refits");
    for (size_t f = 0; f < v->nfolds; f++) {
        progress_show(&pg, f, v->nfolds);
        leave_fold(v, fold, f, rest, v->why[f], sizeof v->why[f]);
    }
    progress_end(&pg);
    free(rest);
    free(fold);
}

/* One file's text: a GPU corpus by its header, else weight-streaming
 * runs.  -1 or an exit code after a message. */
static int load_text(struct validate_run *v, const char *name, const char *text)
{
    struct cp_error err = {0};
    if (vgpu_is_corpus(text))
        return vgpu_add(&v->gpu, name, text, &err) == CP_OK ? -1 : cli_error("%s", err.msg);
    size_t f = v->nsets;
    snprintf(v->names[f], sizeof v->names[f], "%s", name);
    int rc = meas_set_load(&v->env, v->names[f], text, &v->sets[f], &err) == CP_OK
                 ? -1
                 : meas_env_fail(&err);
    v->nsets = f + 1;
    if (rc < 0)
        v->n += v->sets[f].rows.n;
    return rc;
}

/* The files named, or the shipped corpora: hw/measurements.csv and (but
 * for validate_table) hw/gpu-measurements.csv from the search path. */
static int load_files(struct validate_run *v)
{
    struct cli_opts *o = v->o;
    static const char *const shipped[] = {"measurements.csv", "gpu-measurements.csv"};
    size_t nfiles = o->nargs ? o->nargs : v->ws_only ? 1 : 2;
    int rc = -1;
    for (size_t f = 0; rc < 0 && f < nfiles; f++) {
        struct cat_entry e;
        struct cp_error err = {0};
        cp_status st = o->nargs ? cat_read_file(o->args[f], &e, &err)
                                : cat_find_data(&o->dirs, "hw", shipped[f], &e, &err);
        if (st != CP_OK)
            return cli_error("%s", err.msg);
        rc = load_text(v, o->nargs ? o->args[f] : e.origin, e.text);
        cat_entry_free(&e);
    }
    return rc;
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
 * O(n log n) over up to 8 files of 10,000 rows. */
static int check_repeats(const struct validate_run *v)
{
    struct row_ref *ref = xmalloc((v->n ? v->n : 1) * sizeof *ref);
    size_t k = 0;
    for (size_t f = 0; f < v->nsets; f++)
        for (size_t i = 0; i < v->sets[f].rows.n; i++, k++)
            ref[k] = (struct row_ref){&v->sets[f].rows.rows[i], f, k};
    qsort(ref, k, sizeof *ref, by_run);
    int rc = -1;
    for (size_t a = 1; rc < 0 && a < k; a++) {
        const struct row_ref *x = &ref[a], *y = &ref[a - 1];
        if (same_run(x->r, y->r) != 0)
            continue;
        if (x->r->id[0])
            rc = cli_error("%s:%d: id: '%s' repeats the id of %s:%d: a run counts once",
                           v->names[x->file], x->r->line, x->r->id, v->names[y->file], y->r->line);
        else
            rc = cli_error("%s:%d: repeats the run of %s:%d, cell for cell: a run counts once",
                           v->names[x->file], x->r->line, v->names[y->file], y->r->line);
        if (x->file != y->file && strcmp(v->names[x->file], v->names[y->file]) == 0)
            fprintf(stderr, "cerebras-plan: validate: %s is given twice\n", v->names[x->file]);
    }
    free(ref);
    return rc;
}

static int load(struct validate_run *v)
{
    int rc = load_files(v);
    if (rc < 0)
        rc = check_repeats(v);
    if (rc >= 0)
        return rc;
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
    return -1;
}

static int parse_tolerance(struct validate_run *v)
{
    v->tolerance = VALIDATE_TOLERANCE;
    if (!v->o->tolerance)
        return -1;
    double x;
    char why[256];
    if (unit_parse(v->o->tolerance, UNIT_FRACTION, &x, why, sizeof why) != 0 || !(x > 0) ||
        !isfinite(x))
        return cli_error("validate: --tolerance '%s': a positive fraction or percentage such "
                         "as 0.25 or 25%% expected",
                         v->o->tolerance);
    if (x > VALIDATE_TOLERANCE_MAX)
        return cli_error("validate: --tolerance '%s': above %g (%g %%), the most it takes: a "
                         "model off by more is not being validated",
                         v->o->tolerance, VALIDATE_TOLERANCE_MAX, 100 * VALIDATE_TOLERANCE_MAX);
    v->tolerance = x;
    return -1;
}

/* Keep the keys some point depends on: a key no point depends on is
 * dropped from the default list (a file of one generation's runs, or of
 * GPU runs only), an error when --fit names it.  -1 or an exit code. */
static int keep_keys(struct validate_run *v)
{
    struct cli_opts *o = v->o;
    if (o->fit && v->n == 0)
        return cli_error("validate: --fit %s: no weight-streaming run to fit (--fit names "
                         "weight-streaming keys)",
                         o->fit);
    size_t kept = 0;
    for (size_t j = 0; j < v->nkeys; j++) {
        char name[128];
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        if (key_has_point(&v->keys[j], v->all, v->n))
            v->keys[kept++] = v->keys[j];
        else if (o->fit)
            return cli_error("validate: --fit %s: no point is on system %s",
                             calib_key_name(&k, name, sizeof name), v->keys[j].scope);
    }
    v->nkeys = kept;
    return -1;
}

static void warn(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "cerebras-plan: %s\n", msg);
}

/* The GPU runs predicted and left out, with a progress line on a
 * terminal.  -1 or an exit code after a message. */
static int gpu_evaluate(struct validate_run *v)
{
    struct cp_error err = {0};
    if (vgpu_predict(&v->gpu, &v->o->dirs, warn, NULL, &err) != CP_OK)
        return cli_error("%s", err.msg);
    struct progress pg;
    progress_start(&pg, "validate: gpu refits");
    cp_status st = vgpu_leave_out(&v->gpu, progress_show, &pg, &err);
    progress_end(&pg);
    return st == CP_OK ? -1 : cli_error("validate: %s", err.msg);
}

/* The weight-streaming point q as a line of the table. */
static struct vline ws_line(const struct vpoint *q)
{
    const struct meas_row *r = q->row;
    return (struct vline){.kind = VKIND_WS,
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

/* Load, check the keys, predict and leave each point out; the lines of
 * the table.  -1 or an exit code after a message. */
static int evaluate(struct validate_run *v)
{
    struct cli_opts *o = v->o;
    struct cp_error err = {0};
    int rc = parse_tolerance(v);
    if (rc < 0 &&
        calib_parse_keys(o->fit ? o->fit : VALIDATE_FIT, v->keys, &v->nkeys, &err) != CP_OK)
        rc = cli_error("validate: --fit %s", err.msg);
    if (rc < 0 && o->fit)
        rc = meas_check_scopes(&o->dirs, "validate", v->keys, v->nkeys, &err) == CP_OK
                 ? -1
                 : cli_error("%s", err.msg);
    if (rc < 0)
        rc = load(v);
    if (rc < 0)
        rc = keep_keys(v);
    if (rc < 0 && v->gpu.n > 0)
        rc = gpu_evaluate(v);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < v->n; i++) {
        struct vpoint *q = &v->pt[i];
        q->predicted = calib_predict(q->p->c, q->p->c->hw, q->row->quantity);
        q->error = q->predicted / q->row->value - 1;
    }
    leave_out(v);
    v->nlines = v->n + v->gpu.n;
    v->lines = xmalloc((v->nlines ? v->nlines : 1) * sizeof *v->lines);
    for (size_t i = 0; i < v->n; i++)
        v->lines[i] = ws_line(&v->pt[i]);
    for (size_t i = 0; i < v->gpu.n; i++)
        vgpu_line(&v->gpu, i, &v->lines[v->n + i]);
    return -1;
}

/* The keys refitted for leave-one-out, for people. */
static void keys_text(const struct validate_run *v, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < v->nkeys && at < n; j++) {
        char name[128];
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        int w = snprintf(buf + at, n - at, "%s%s", j ? ", " : "",
                         calib_key_name(&k, name, sizeof name));
        at += w > 0 ? (size_t)w : 0;
    }
}

/* How the weight-streaming runs were left out, for the header. */
static const char *how_ws(const struct validate_run *v, char *buf, size_t n)
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

static void run_free(struct validate_run *v)
{
    for (size_t f = 0; f < v->nsets; f++)
        meas_set_free(&v->sets[f]);
    vgpu_free(&v->gpu);
    free(v->pt);
    free(v->all);
    free(v->lines);
    free(v->why);
    free(v);
}

static struct validate_run *run_new(struct cli_opts *o)
{
    struct validate_run *v = xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->o = o;
    meas_env_init(&v->env, o);
    return v;
}

int validate_table(struct cli_opts *o, struct out_table *t)
{
    struct cli_opts vo = *o;
    vo.nargs = 0; /* the shipped weight-streaming corpus */
    vo.fit = NULL;
    vo.tolerance = NULL;
    vo.csv = 1;
    out_init(t, 0, NULL);
    struct validate_run *v = run_new(&vo);
    v->ws_only = 1;
    int rc = evaluate(v);
    if (rc < 0) {
        out_free(t);
        validate_fill(v->lines, v->nlines, t);
    }
    run_free(v);
    return rc;
}

int cmd_validate(struct cli_opts *o)
{
    struct validate_run *v = run_new(o);
    int rc = evaluate(v);
    if (rc < 0) {
        if (o->csv) {
            struct out_table t;
            validate_fill(v->lines, v->nlines, &t);
            rc = cli_emit(o, &t);
            out_free(&t);
        } else {
            char keys[1024], ws[256], gpu[256];
            keys_text(v, keys, sizeof keys);
            struct vhow how = {how_ws(v, ws, sizeof ws), vgpu_how(&v->gpu, gpu, sizeof gpu)};
            validate_print(v->lines, v->nlines, keys, &how, v->tolerance);
            rc = cli_flush();
        }
        if (rc == EXIT_OK && validate_missed(v->lines, v->nlines, v->tolerance))
            rc = EXIT_VERDICT;
    }
    run_free(v);
    return rc;
}
