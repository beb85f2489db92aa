/* meas_gpu.c - validation on the GPU corpus (hw/gpu-measurements.csv
 * or a file in its format, gmeas.h): each published run's step time
 * predicted by the GPU model (gpu_run_eval) on the GPU description its gpu
 * names, as shipped, and leave-one-source-out: the fitted constants
 * (gpu_fit.h) refitted on the other sources' runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/desc.h"
#include "../gpu/gpu_run.h"
#include "meas_gpu.h"
#include "meas_run.h"

/* The header's cells, quotes and blanks dropped, compared with "gpu". */
int vgpu_is_corpus(const char *text)
{
    const char *p = text;
    if (strncmp(p, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte-order mark */
        p += 3;
    while (*p && *p != '\n' && *p != '\r') {
        size_t n = strcspn(p, ",\r\n");
        const char *a = p, *b = p + n;
        while (a < b && (*a == ' ' || *a == '"'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '"'))
            b--;
        if (b - a == 3 && strncmp(a, "gpu", 3) == 0)
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

cp_status vgpu_add(struct vgpu_run *g, const char *name, const char *text, struct cp_error *err)
{
    if (g->nlists == VGPU_MAX_FILES)
        return cp_fail(err, CP_EINPUT, "validate: more than %d GPU corpus files", VGPU_MAX_FILES);
    struct gmeas_list *l = &g->lists[g->nlists];
    if (gmeas_parse(text, name, l, err) != CP_OK)
        return CP_EINPUT;
    snprintf(g->names[g->nlists], sizeof g->names[0], "%s", name);
    g->nlists++;
    g->rows = xrealloc(g->rows, (g->n + l->n) * sizeof *g->rows);
    memcpy(g->rows + g->n, l->rows, l->n * sizeof *l->rows);
    g->n += l->n;
    return CP_OK;
}

/* The file row i came from. */
static const char *file_of(const struct vgpu_run *g, size_t i)
{
    size_t f = 0, end = g->lists[0].n;
    while (i >= end && f + 1 < g->nlists)
        end += g->lists[++f].n;
    return g->names[f];
}

/* The ids are unique within a file; across files a repeat would make two
 * rows one line of the table and one source of two corpora's.  Sorted, so
 * a corpus of thousands of rows is checked in O(n log n). */
static int by_id(const void *a, const void *b, void *rows)
{
    const struct gmeas_row *r = rows;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(r[i].id, r[j].id);
    return c ? c : (i > j) - (i < j);
}

static cp_status check_ids(const struct vgpu_run *g, struct cp_error *err)
{
    size_t *order = xmalloc((g->n ? g->n : 1) * sizeof *order);
    for (size_t i = 0; i < g->n; i++)
        order[i] = i;
    qsort_r(order, g->n, sizeof *order, by_id, g->rows);
    cp_status st = CP_OK;
    for (size_t a = 1; st == CP_OK && a < g->n; a++) {
        size_t i = order[a], j = order[a - 1]; /* j < i */
        if (strcmp(g->rows[i].id, g->rows[j].id) == 0)
            st = cp_fail(err, CP_EINPUT, "%s:%d: id: '%s' repeats the id of %s:%d", file_of(g, i),
                         g->rows[i].line, g->rows[i].id, file_of(g, j), g->rows[j].line);
    }
    free(order);
    return st;
}

/* The description of GPU k, for row i (the first that runs on it): a GPU
 * description as the search path gives it, without --set or overlays. */
static cp_status load_gpu(struct vgpu_run *g, const struct cat_dirs *dirs, int k, size_t i,
                          struct cp_error *err)
{
    const char *name = gmeas_gpu_name[k];
    struct cat_entry e;
    struct cp_error why = {0};
    if (cat_resolve(dirs, name, CAT_HW, &e, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "%s:%d: gpu: %s", file_of(g, i), g->rows[i].line, why.msg);
    cp_status st = CP_OK;
    if (gpuhw_kind_of(e.text) != GPUHW_GPU)
        st = cp_fail(err, CP_EINPUT,
                     "%s:%d: gpu: '%s' is %s, a weight-streaming description, not a GPU one",
                     file_of(g, i), g->rows[i].line, name, e.origin);
    else if (gpuhw_load(e.text, e.origin, NULL, 0, &g->gpu[k], NULL, err) != CP_OK)
        st = CP_EINPUT;
    cat_entry_free(&e);
    if (st == CP_OK)
        g->data.gpu[k] = &g->gpu[k];
    return st;
}

cp_status vgpu_predict(struct vgpu_run *g, const struct cat_dirs *dirs, vgpu_warn_fn warn,
                       void *arg, struct cp_error *err)
{
    cp_status st = check_ids(g, err);
    for (size_t i = 0; st == CP_OK && i < g->n; i++)
        if (!g->data.gpu[g->rows[i].gpu])
            st = load_gpu(g, dirs, g->rows[i].gpu, i, err);
    if (st != CP_OK)
        return st;
    g->data.rows = g->rows;
    g->data.n = g->n;
    g->predicted = xmalloc((g->n ? g->n : 1) * sizeof *g->predicted);
    g->loso = xmalloc((g->n ? g->n : 1) * sizeof *g->loso);
    for (size_t i = 0; i < g->n; i++) {
        const struct gmeas_row *r = &g->rows[i];
        struct gpu_result res;
        struct cp_error why = {0};
        if (gpu_run_eval(&g->gpu[r->gpu], r, &res, &why) != CP_OK)
            return cp_fail(err, CP_EINPUT, "%s:%d: %s: %s", file_of(g, i), r->line, r->id, why.msg);
        if (!(res.step_s > 0) || !isfinite(res.step_s))
            return cp_fail(err, CP_EINPUT, "%s:%d: %s: the model gives no step time for this run",
                           file_of(g, i), r->line, r->id);
        char msg[CP_ERROR_MAX];
        if (!res.fits && warn) {
            snprintf(msg, sizeof msg,
                     "%s:%d: warning: %s: the model finds that the layout does not fit (%.4g GB "
                     "per GPU of %.4g GB usable); its figure is judged all the same",
                     file_of(g, i), r->line, r->id, res.mem_total / 1e9, res.mem_capacity / 1e9);
            warn(arg, msg);
        }
        g->predicted[i] = res.step_s;
    }
    return CP_OK;
}

cp_status vgpu_leave_out(struct vgpu_run *g, gpu_fit_progress_fn progress, void *arg,
                         struct cp_error *err)
{
    return gpu_fit_leave_out(&g->data, g->loso, &g->how, progress, arg, err);
}

const char *vgpu_how(const struct vgpu_run *g, char *buf, size_t n)
{
    if (g->n == 0)
        return NULL;
    if (!g->how.dealt)
        snprintf(buf, n, "each source left out alone (%zu refit%s)", g->how.folds,
                 g->how.folds == 1 ? "" : "s");
    else
        snprintf(buf, n,
                 "%zu folds of sources (%zu sources, more than %d: the k-th source met in "
                 "fold k mod %d, each fold left out in turn)",
                 g->how.folds, g->how.sources, GPU_FIT_MAX_LOSO, GPU_FIT_FOLDS);
    return buf;
}

/* The published figure's unit (SI) by quantity. */
static const char *const pub_unit[GMEAS_NQUANTITIES] = {"FLOP/s per GPU", "tokens/s per GPU", "s"};

void vgpu_line(const struct vgpu_run *g, size_t i, struct vline *l)
{
    const struct gmeas_row *r = &g->rows[i];
    const struct gpu_fit_loso *lo = &g->loso[i];
    *l = (struct vline){.kind = VKIND_GPU,
                        .id = r->id,
                        .system = gmeas_gpu_name[r->gpu],
                        .model = r->model,
                        .software = "",
                        .source = r->source,
                        .group = r->id,
                        .group_len = gpu_fit_source_len(r->id),
                        .quantity = "step_time",
                        .unit = "s",
                        .pub_unit = pub_unit[r->quantity],
                        .conversion = r->convention ? r->convention : "",
                        .systems = r->gpus,
                        .batch = r->batch_seqs,
                        .published = r->value,
                        .measured = r->step_time_s,
                        .predicted = g->predicted[i],
                        .error = g->predicted[i] / r->step_time_s - 1,
                        .loo = lo->step_s,
                        .loo_error = lo->step_s / r->step_time_s - 1,
                        .loo_why = lo->why};
}

void vgpu_free(struct vgpu_run *g)
{
    for (size_t f = 0; f < g->nlists; f++)
        gmeas_list_free(&g->lists[f]);
    free(g->rows);
    free(g->predicted);
    free(g->loso);
    memset(g, 0, sizeof *g);
}

/* ---- calibrate on a GPU corpus: the chosen fit.* constants fitted on all
 * of its runs at once (gpu_fit_run_keys: one set for all GPUs), each run
 * predicted again with the fitted values ---- */

/* The options a GPU corpus cannot take, refused in one line each. */
static cp_status refuse_options(const struct meas_calib_req *req, struct cp_error *err)
{
    if (req->overlay)
        return cp_fail(err, CP_EINPUT,
                       "calibrate: -o: %s is a GPU corpus, and GPU systems take no hardware "
                       "overlay (--hw-overlay applies to weight-streaming hardware); copy the "
                       "fitted fit.* values into a GPU description instead",
                       req->file);
    if (req->nsets || req->noverlays)
        return cp_fail(err, CP_EINPUT,
                       "calibrate: %s: %s is a GPU corpus, fitted on the GPU descriptions as "
                       "found; --set and --hw-overlay apply to weight-streaming hardware",
                       req->nsets ? "--set" : "--hw-overlay", req->file);
    if (!req->fit)
        return cp_fail(err, CP_EINPUT,
                       "calibrate: --fit fit.KEY[,...] is required for a GPU corpus (%s)",
                       req->file);
    return CP_OK;
}

/* The keys: the fitted ones first, in gpu_fit's order, then the held. */
static void keys_out(const struct gpu_fit_result *res, struct meas_calib_out *out)
{
    out->nkeys = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (int k = 0; k < GPU_FIT_NKEYS; k++) {
            if (!res->fitted[k] != !pass)
                continue;
            struct meas_calib_key *c = &out->keys[out->nkeys++];
            const char *name = gpu_fit_key_name[k];
            int i = desc_find(&gpuhw_schema, "fit", strchr(name, '.') + 1);
            snprintf(c->name, sizeof c->name, "%s", name);
            c->dim = i >= 0 ? gpuhw_schema.keys[i].dim : UNIT_COUNT;
            c->fitted = res->fitted[k];
            c->value = res->value[k];
            c->se = c->fitted ? res->se[k] : NAN;
            c->start = res->start[k]; /* held: the first run's GPU's value */
        }
}

/* Each run before and after, and the medians. */
static cp_status runs_out(const struct vgpu_run *g, const struct gpu_fit_result *res,
                          struct meas_calib_out *out, struct cp_error *err)
{
    out->runs = xmalloc((g->n ? g->n : 1) * sizeof *out->runs);
    double *eb = xmalloc((g->n ? g->n : 1) * sizeof *eb),
           *ea = xmalloc((g->n ? g->n : 1) * sizeof *ea);
    cp_status st = CP_OK;
    for (size_t i = 0; st == CP_OK && i < g->n; i++) {
        const struct gmeas_row *r = &g->rows[i];
        struct meas_calib_run *u = &out->runs[i];
        struct gpu_fit f = g->gpu[r->gpu].fit;
        gpu_fit_apply(res, &f);
        u->line = r->line;
        snprintf(u->id, sizeof u->id, "%.*s", MEAS_CALIB_TEXT - 1, r->id);
        snprintf(u->system, sizeof u->system, "%s", gmeas_gpu_name[r->gpu]);
        snprintf(u->model, sizeof u->model, "%.*s", MEAS_CALIB_TEXT - 1, r->model);
        u->systems = r->gpus;
        u->measured = r->step_time_s;
        u->before = g->predicted[i];
        st = gpu_fit_step(&g->data, i, &f, &u->after, err);
        eb[i] = u->before / u->measured - 1;
        ea[i] = u->after / u->measured - 1;
    }
    out->nruns = g->n;
    out->median_before = validate_median_abs(eb, g->n);
    out->median_after = validate_median_abs(ea, g->n);
    free(eb);
    free(ea);
    return st;
}

cp_status meas_gpu_calibrate(const struct meas_calib_req *req, struct meas_calib_out *out,
                             struct cp_error *err)
{
    memset(out, 0, sizeof *out);
    unsigned char want[GPU_FIT_NKEYS];
    struct cp_error why = {0};
    if (refuse_options(req, err) != CP_OK)
        return CP_EINPUT;
    if (gpu_fit_parse_keys(req->fit, want, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "calibrate: --fit %s", why.msg);
    struct vgpu_run *g = xmalloc(sizeof *g);
    memset(g, 0, sizeof *g);
    struct gpu_fit_result res;
    cp_status st = vgpu_add(g, req->file, req->text, &why);
    if (st == CP_OK)
        st = vgpu_predict(g, req->env->dirs, req->env->warn, req->env->arg, &why);
    if (st == CP_OK)
        st = gpu_fit_run_keys(&g->data, NULL, want, &res, &why);
    if (st == CP_OK) {
        keys_out(&res, out);
        out->iterations = res.iterations;
        out->converged = res.converged;
        snprintf(out->stop, sizeof out->stop, "%s in %zu iterations",
                 res.converged ? "converged" : "did not converge", res.iterations);
        st = runs_out(g, &res, out, &why);
    }
    vgpu_free(g);
    free(g);
    if (st != CP_OK)
        return cp_fail(err, CP_EINPUT, "calibrate: %s", why.msg);
    return CP_OK;
}

/* ---- the GPU corpus as a kind of corpus (meas_run.h) ---- */

static cp_status kind_add(struct meas_run *v, const char *name, const char *text,
                          struct cp_error *err)
{
    return vgpu_add(&v->gpu, name, text, err);
}

/* Every run predicted, then each source left out in turn. */
static cp_status kind_evaluate(struct meas_run *v, const struct meas_progress *pg,
                               struct cp_error *err)
{
    if (v->gpu.n == 0)
        return CP_OK;
    if (vgpu_predict(&v->gpu, v->env->dirs, v->env->warn, v->env->arg, err) != CP_OK)
        return CP_EINPUT;
    pg->start(pg->arg, "validate: gpu refits");
    struct cp_error why = {0};
    cp_status st = vgpu_leave_out(&v->gpu, pg->show, pg->arg, &why);
    pg->end(pg->arg);
    return st == CP_OK ? CP_OK : cp_fail(err, st, "validate: %s", why.msg);
}

static size_t kind_lines(const struct meas_run *v, struct vline *out)
{
    for (size_t i = 0; i < v->gpu.n; i++)
        vgpu_line(&v->gpu, i, &out[i]);
    return v->gpu.n;
}

static const char *kind_how(const struct meas_run *v, char *buf, size_t n)
{
    return vgpu_how(&v->gpu, buf, n);
}

const struct meas_kind meas_kind_gpu = {
    .kind = VKIND_GPU,
    .sniff = vgpu_is_corpus,
    .add = kind_add,
    .check = NULL,
    .evaluate = kind_evaluate,
    .lines = kind_lines,
    .how = kind_how,
    .calibrate = meas_gpu_calibrate,
};
