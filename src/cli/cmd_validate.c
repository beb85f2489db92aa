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
#include "../plan/param.h"
#include "meas_load.h"
#include "produce.h"
#include "validate_gpu.h"
#include "validate_out.h"

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
    double loo, loo_error;      /* leave-one-out; NAN when not possible */
    char loo_why[CP_ERROR_MAX];
};

struct validate_run {
    struct cli_opts *o;
    int ws_only; /* the weight-streaming corpus alone (validate_table) */
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
};

/* Does key k apply to any of the n points? */
static int key_has_point(const struct calib_spec *k, const struct calib_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (calib_applies(k, &pts[i]))
            return 1;
    return 0;
}

/* Point i predicted with the keys refitted on every other point.  Keys on a
 * system with no other point keep their shipped value. */
static void leave_one_out(struct validate_run *v, size_t i)
{
    struct vpoint *q = &v->pt[i];
    struct calib_point *rest = xmalloc(v->n * sizeof *rest);
    size_t m = 0;
    for (size_t j = 0; j < v->n; j++)
        if (j != i)
            rest[m++] = v->all[j];
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nk = 0;
    for (size_t j = 0; j < v->nkeys; j++)
        if (key_has_point(&v->keys[j], rest, m))
            keys[nk++] = v->keys[j];
    q->loo = q->loo_error = NAN;
    struct calib_result res;
    struct cp_error err = {0};
    if (nk == 0) {
        snprintf(q->loo_why, sizeof q->loo_why, "no fitted key applies without it");
    } else if (calib_fit(rest, m, keys, nk, &res, &err) != CP_OK) {
        snprintf(q->loo_why, sizeof q->loo_why, "%s", err.msg);
    } else if (!res.converged) {
        snprintf(q->loo_why, sizeof q->loo_why, "the refit %s", res.stop);
    } else {
        struct hw_desc hw;
        calib_apply(&res, keys, q->p, &hw);
        q->loo = calib_predict(q->p->c, &hw, q->row->quantity);
        q->loo_error = q->loo / q->row->value - 1;
    }
    free(rest);
}

/* One file's text: a GPU corpus by its header, else weight-streaming
 * runs.  -1 or an exit code after a message. */
static int load_text(struct validate_run *v, const char *name, const char *text)
{
    if (vgpu_is_corpus(text))
        return vgpu_add(&v->gpu, name, text);
    size_t f = v->nsets;
    snprintf(v->names[f], sizeof v->names[f], "%s", name);
    int rc = meas_set_load(v->o, v->names[f], text, &v->sets[f]);
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

static int load(struct validate_run *v)
{
    int rc = load_files(v);
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
                                       .model = v->sets[f].sc[i].wl.name,
                                       .system = v->sets[f].sc[i].system};
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
    if (rc < 0)
        rc = load(v);
    if (rc < 0)
        rc = keep_keys(v);
    if (rc < 0 && v->gpu.n > 0)
        rc = vgpu_evaluate(&v->gpu, o);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < v->n; i++) {
        struct vpoint *q = &v->pt[i];
        q->predicted = calib_predict(q->p->c, q->p->c->hw, q->row->quantity);
        q->error = q->predicted / q->row->value - 1;
    }
    for (size_t i = 0; i < v->n; i++)
        leave_one_out(v, i);
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

static void run_free(struct validate_run *v)
{
    for (size_t f = 0; f < v->nsets; f++)
        meas_set_free(&v->sets[f]);
    vgpu_free(&v->gpu);
    free(v->pt);
    free(v->all);
    free(v->lines);
    free(v);
}

static struct validate_run *run_new(struct cli_opts *o)
{
    struct validate_run *v = xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->o = o;
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
            char keys[1024];
            keys_text(v, keys, sizeof keys);
            validate_print(v->lines, v->nlines, keys, v->tolerance);
            rc = cli_flush();
        }
        if (rc == EXIT_OK && validate_missed(v->lines, v->nlines, v->tolerance))
            rc = EXIT_VERDICT;
    }
    run_free(v);
    return rc;
}
