/* gpu_fit.c - the GPU model's fitted constants fitted to published runs,
 * and leave-one-source-out (see gpu_fit.h). */
#include "gpu_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>

#include "../base/xalloc.h"
#include "gpu.h"
#include "gpu_run.h"

const char *const gpu_fit_key_name[GPU_FIT_NKEYS] = {
    "fit.matmul_efficiency", "fit.attention_efficiency", "fit.step_overhead",
    "fit.lowp_efficiency"};

/* The simplex's first step in the searched coordinates: a value times
 * about e^0.3 (1.35), or its odds so, for a fraction. */
#define GPU_FIT_STEP 0.3

/* What the objective returns where the model gives no finite step (it
 * should not: every searched value is in range): far above any fit. */
#define GPU_FIT_PENALTY 1e30

static double *key_field(struct gpu_fit *f, int k)
{
    switch (k) {
    case GPU_FIT_MATMUL:
        return &f->matmul_eff;
    case GPU_FIT_OVERHEAD:
        return &f->step_overhead_s;
    case GPU_FIT_ATTENTION:
        return &f->attention_eff;
    default:
        return &f->lowp_eff;
    }
}

static int key_is_fraction(int k)
{
    return k == GPU_FIT_MATMUL || k == GPU_FIT_LOWP || k == GPU_FIT_ATTENTION;
}

/* Value to searched coordinate and back: logit for a fraction, log else. */
static double to_x(int k, double v)
{
    return key_is_fraction(k) ? log(v / (1 - v)) : log(v);
}

static double from_x(int k, double x)
{
    return key_is_fraction(k) ? 1 / (1 + exp(-x)) : exp(x);
}

/* The state of one fit: copies of the descriptions whose constants the
 * search sets, the rows used, the keys searched. */
struct fit_state {
    const struct gpu_fit_data *d;
    const unsigned char *use;
    struct gpuhw_desc g[GMEAS_NGPUS];
    int key[GPU_FIT_NKEYS]; /* searched coordinate j -> key */
    size_t nkeys;
    const unsigned char *want; /* the keys asked for; NULL: all */
};

static void set_values(struct fit_state *s, const gsl_vector *x)
{
    for (size_t j = 0; j < s->nkeys; j++)
        for (int k = 0; k < GMEAS_NGPUS; k++)
            *key_field(&s->g[k].fit, s->key[j]) = from_x(s->key[j], gsl_vector_get(x, j));
}

/* The residuals ln(model / measured) of the rows used, with the values
 * now in s, into e (NULL: not kept); their sum of squares, or
 * GPU_FIT_PENALTY when a row gives no finite step. */
static double row_residuals(struct fit_state *s, double *e)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < s->d->n; i++) {
        if (s->use && !s->use[i])
            continue;
        const struct gmeas_row *r = &s->d->rows[i];
        struct gpu_result res;
        if (gpu_run_eval(&s->g[r->gpu], r, &res, NULL) != CP_OK || !(res.step_s > 0) ||
            !isfinite(res.step_s))
            return GPU_FIT_PENALTY;
        double ei = log(res.step_s / r->step_time_s);
        if (e)
            e[n++] = ei;
        sum += ei * ei;
    }
    return isfinite(sum) ? fmin(sum, GPU_FIT_PENALTY) : GPU_FIT_PENALTY;
}

static double objective(const gsl_vector *x, void *params)
{
    struct fit_state *s = params;
    set_values(s, x);
    return row_residuals(s, NULL);
}

/* The residuals ln(model / measured) of the rows used at the values v
 * (one per searched key) into e; 0 when every row gives a finite step. */
static int residuals(struct fit_state *s, const double *v, double *e)
{
    for (size_t j = 0; j < s->nkeys; j++)
        for (int k = 0; k < GMEAS_NGPUS; k++)
            *key_field(&s->g[k].fit, s->key[j]) = v[j];
    return row_residuals(s, e) < GPU_FIT_PENALTY ? 0 : -1;
}

/* Standard errors of the fitted values: the residuals' Jacobian J by
 * central differences (a relative step of GPU_FIT_SE_STEP), the
 * covariance sigma^2 (J^T J)^-1 with sigma^2 = cost / (rows - keys); NaN
 * when the rows do not exceed the keys or J^T J is singular. */
static void standard_errors(struct fit_state *s, struct gpu_fit_result *res)
{
    size_t n = res->rows, m = s->nkeys;
    for (int k = 0; k < GPU_FIT_NKEYS; k++)
        res->se[k] = NAN;
    if (n <= m)
        return;
    double v[GPU_FIT_NKEYS], *ep = xmalloc(n * sizeof *ep), *em = xmalloc(n * sizeof *em);
    gsl_matrix *J = gsl_matrix_alloc(n, m), *A = gsl_matrix_alloc(m, m);
    int ok = J && A;
    for (size_t j = 0; ok && j < m; j++) {
        for (size_t q = 0; q < m; q++)
            v[q] = res->value[s->key[q]];
        double h = GPU_FIT_SE_STEP * v[j];
        v[j] += h;
        ok = residuals(s, v, ep) == 0;
        v[j] -= 2 * h;
        ok = ok && residuals(s, v, em) == 0;
        for (size_t i = 0; ok && i < n; i++)
            gsl_matrix_set(J, i, j, (ep[i] - em[i]) / (2 * h));
    }
    gsl_permutation *p = ok ? gsl_permutation_alloc(m) : NULL;
    int sign;
    if (ok && p) {
        gsl_matrix *inv = gsl_matrix_alloc(m, m);
        for (size_t a = 0; a < m; a++)
            for (size_t b = 0; b < m; b++) {
                double sum = 0;
                for (size_t i = 0; i < n; i++)
                    sum += gsl_matrix_get(J, i, a) * gsl_matrix_get(J, i, b);
                gsl_matrix_set(A, a, b, sum);
            }
        double sigma2 = res->cost / (double)(n - m);
        if (inv && gsl_linalg_LU_decomp(A, p, &sign) == GSL_SUCCESS &&
            gsl_linalg_LU_invert(A, p, inv) == GSL_SUCCESS)
            for (size_t j = 0; j < m; j++)
                res->se[s->key[j]] = sqrt(sigma2 * gsl_matrix_get(inv, j, j));
        gsl_matrix_free(inv);
    }
    gsl_permutation_free(p);
    gsl_matrix_free(J);
    gsl_matrix_free(A);
    free(ep);
    free(em);
}

/* Check the rows used (a description each, a layout that divides) and
 * count them; note whether any runs below 16 bits. */
static cp_status rows_check(const struct gpu_fit_data *d, const unsigned char *use, size_t *nrows,
                            int *lowp, size_t *first, struct cp_error *err)
{
    *nrows = 0;
    *lowp = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (use && !use[i])
            continue;
        const struct gmeas_row *r = &d->rows[i];
        double step;
        cp_status st = gpu_fit_step(d, i, NULL, &step, err);
        if (st != CP_OK)
            return st;
        if (*nrows == 0)
            *first = i;
        ++*nrows;
        *lowp |= r->precision == GMEAS_FP8; /* FP4 has its own fp4_efficiency */
    }
    return CP_OK;
}

/* The keys to search and their start, from the description of row first. */
static cp_status keys_start(struct fit_state *s, size_t first, int lowp, struct gpu_fit_result *res,
                            struct cp_error *err)
{
    struct gpu_fit start = s->d->gpu[s->d->rows[first].gpu]->fit;
    s->nkeys = 0;
    for (int k = 0; k < GPU_FIT_NKEYS; k++) {
        double v = *key_field(&start, k);
        res->value[k] = res->start[k] = v;
        res->fitted[k] = (!s->want || s->want[k]) && (k != GPU_FIT_LOWP || lowp);
        if (!res->fitted[k])
            continue;
        if (!(v > 0) || (key_is_fraction(k) && !(v < 1)) || !isfinite(v))
            return cp_fail(err, CP_EINPUT, "%s = %g in %s: the fit needs a start %s",
                           gpu_fit_key_name[k], v, s->d->gpu[s->d->rows[first].gpu]->name,
                           key_is_fraction(k) ? "between 0 and 1" : "above 0");
        s->key[s->nkeys++] = k;
    }
    if (s->nkeys == 0)
        return cp_fail(err, CP_EINPUT,
                       "%s: no run fitted is FP8, so none depends on it and it cannot be fitted",
                       gpu_fit_key_name[GPU_FIT_LOWP]);
    for (int k = 0; k < GMEAS_NGPUS; k++)
        for (size_t j = 0; j < s->nkeys; j++)
            *key_field(&s->g[k].fit, s->key[j]) = *key_field(&start, s->key[j]);
    return CP_OK;
}

/* Nelder-Mead from the start in s; the result into res. */
static cp_status search(struct fit_state *s, struct gpu_fit_result *res, struct cp_error *err)
{
    size_t n = s->nkeys;
    gsl_vector *x = gsl_vector_alloc(n), *step = gsl_vector_alloc(n);
    gsl_multimin_fminimizer *m =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, n);
    if (!x || !step || !m) {
        gsl_vector_free(x);
        gsl_vector_free(step);
        gsl_multimin_fminimizer_free(m);
        return cp_fail(err, CP_ENOMEM, "the GPU fit cannot start: out of memory");
    }
    for (size_t j = 0; j < n; j++) {
        gsl_vector_set(x, j, to_x(s->key[j], res->value[s->key[j]]));
        gsl_vector_set(step, j, GPU_FIT_STEP);
    }
    gsl_multimin_function fn = {objective, n, s};
    int st = gsl_multimin_fminimizer_set(m, &fn, x, step);
    res->converged = 0;
    for (res->iterations = 0; st == GSL_SUCCESS && res->iterations < GPU_FIT_MAX_ITER;) {
        res->iterations++;
        if (gsl_multimin_fminimizer_iterate(m) != GSL_SUCCESS)
            break;
        if (gsl_multimin_fminimizer_size(m) < GPU_FIT_SIZE) {
            res->converged = 1;
            break;
        }
    }
    if (st == GSL_SUCCESS) {
        for (size_t j = 0; j < n; j++)
            res->value[s->key[j]] = from_x(s->key[j], gsl_vector_get(m->x, j));
        res->cost = m->fval;
    }
    gsl_vector_free(x);
    gsl_vector_free(step);
    gsl_multimin_fminimizer_free(m);
    if (st != GSL_SUCCESS)
        return cp_fail(err, CP_EINPUT, "the GPU fit cannot start: %s", gsl_strerror(st));
    return CP_OK;
}

cp_status gpu_fit_run(const struct gpu_fit_data *d, const unsigned char *use,
                      struct gpu_fit_result *res, struct cp_error *err)
{
    return gpu_fit_run_keys(d, use, NULL, res, err);
}

cp_status gpu_fit_run_keys(const struct gpu_fit_data *d, const unsigned char *use,
                           const unsigned char *want, struct gpu_fit_result *res,
                           struct cp_error *err)
{
    memset(res, 0, sizeof *res);
    struct fit_state *s = xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->d = d;
    s->use = use;
    s->want = want;
    for (int k = 0; k < GMEAS_NGPUS; k++)
        if (d->gpu[k])
            s->g[k] = *d->gpu[k];
    size_t first = 0;
    int lowp;
    cp_status st = rows_check(d, use, &res->rows, &lowp, &first, err);
    if (st == CP_OK && res->rows == 0)
        st = cp_fail(err, CP_EINPUT, "no row to fit the GPU constants on");
    if (st == CP_OK)
        st = keys_start(s, first, lowp, res, err);
    if (st == CP_OK && res->rows < s->nkeys)
        st = cp_fail(err, CP_EINPUT, "%zu row%s cannot determine %zu constants", res->rows,
                     res->rows == 1 ? "" : "s", s->nkeys);
    if (st == CP_OK)
        st = search(s, res, err);
    for (int k = 0; k < GPU_FIT_NKEYS; k++)
        res->se[k] = NAN;
    if (st == CP_OK && res->converged)
        standard_errors(s, res);
    free(s);
    return st;
}

/* One name of a --fit list, blanks trimmed, into want. */
static cp_status parse_key(char *tok, unsigned char want[GPU_FIT_NKEYS], struct cp_error *err)
{
    tok += strspn(tok, " \t");
    for (size_t len = strlen(tok); len > 0 && strchr(" \t", tok[len - 1]); len--)
        tok[len - 1] = '\0';
    const char *colon = strchr(tok, ':'), *name = colon ? colon + 1 : tok;
    for (int k = 0; k < GPU_FIT_NKEYS; k++) {
        if (strcmp(name, gpu_fit_key_name[k]) != 0)
            continue;
        if (colon)
            return cp_fail(err, CP_EINPUT,
                           "'%s': the GPU constants are one set for all GPUs; name the key "
                           "without a system",
                           tok);
        if (want[k])
            return cp_fail(err, CP_EINPUT, "'%s': named twice", tok);
        want[k] = 1;
        return CP_OK;
    }
    return cp_fail(
        err, CP_EINPUT, "'%s': not a fitted GPU constant; a GPU corpus fits %s, %s, %s or %s", tok,
        gpu_fit_key_name[0], gpu_fit_key_name[1], gpu_fit_key_name[2], gpu_fit_key_name[3]);
}

cp_status gpu_fit_parse_keys(const char *list, unsigned char want[GPU_FIT_NKEYS],
                             struct cp_error *err)
{
    char buf[1024];
    memset(want, 0, GPU_FIT_NKEYS);
    if (strlen(list) >= sizeof buf)
        return cp_fail(err, CP_EINPUT, "the list is longer than %zu bytes", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", list);
    int any = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save), any = 1)
        if (parse_key(tok, want, err) != CP_OK)
            return CP_EINPUT;
    if (!any)
        return cp_fail(err, CP_EINPUT, "'%s': names no key", list);
    return CP_OK;
}

void gpu_fit_apply(const struct gpu_fit_result *res, struct gpu_fit *f)
{
    for (int k = 0; k < GPU_FIT_NKEYS; k++)
        if (res->fitted[k])
            *key_field(f, k) = res->value[k];
}

cp_status gpu_fit_step(const struct gpu_fit_data *d, size_t i, const struct gpu_fit *f,
                       double *step_s, struct cp_error *err)
{
    const struct gmeas_row *r = &d->rows[i];
    *step_s = NAN;
    if (!d->gpu[r->gpu])
        return cp_fail(err, CP_EINPUT, "%s: no description of GPU %s", r->id,
                       gmeas_gpu_name[r->gpu]);
    struct gpuhw_desc g = *d->gpu[r->gpu];
    if (f)
        g.fit = *f;
    struct gpu_result res;
    struct cp_error e = {0};
    if (gpu_run_eval(&g, r, &res, &e) != CP_OK)
        return cp_fail(err, CP_EINPUT, "%s: %s", r->id, e.msg);
    *step_s = res.step_s;
    return CP_OK;
}

size_t gpu_fit_source_len(const char *id)
{
    return strcspn(id, "-");
}

int gpu_fit_same_source(const char *a, const char *b)
{
    size_t n = gpu_fit_source_len(a);
    return n == gpu_fit_source_len(b) && strncmp(a, b, n) == 0;
}

/* The fold of each row into fold (n of them): each source its own fold,
 * numbered in the order of first appearance, or, past GPU_FIT_MAX_LOSO
 * sources, source number k in fold k % GPU_FIT_FOLDS.  The number of
 * folds; *sources the number of sources.  Sorting the rows by source
 * keeps it O(n log n). */
static int by_source(const void *a, const void *b, void *data)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const struct gmeas_row *r = ((const struct gpu_fit_data *)data)->rows;
    const char *x = r[i].id, *y = r[j].id;
    size_t nx = gpu_fit_source_len(x), ny = gpu_fit_source_len(y);
    int c = strncmp(x, y, nx < ny ? nx : ny);
    if (c == 0)
        c = (nx > ny) - (nx < ny);
    return c ? c : (i > j) - (i < j);
}

static size_t deal_folds(const struct gpu_fit_data *d, size_t *fold, size_t *sources)
{
    size_t n = d->n, *order = xmalloc((n ? n : 1) * sizeof *order), k = 0;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    struct gpu_fit_data sorted = *d; /* qsort_r's argument is not const */
    qsort_r(order, n, sizeof *order, by_source, &sorted);
    for (size_t a = 0; a < n; a++) /* fold[i]: the first row of i's source */
        fold[order[a]] =
            a > 0 && gpu_fit_same_source(d->rows[order[a]].id, d->rows[order[a - 1]].id)
                ? fold[order[a - 1]]
                : order[a];
    for (size_t i = 0; i < n; i++) /* sources numbered in order of first row */
        fold[i] = fold[i] == i ? k++ : fold[fold[i]];
    free(order);
    *sources = k;
    for (size_t i = 0; i < n; i++)
        fold[i] = cp_fold_of(fold[i], k);
    return cp_folds(k);
}

/* Fold f (the rows with fold[i] == f) left out: refit on the others and
 * predict f's rows into out. */
static cp_status leave_out(const struct gpu_fit_data *d, const size_t *fold, size_t f,
                           unsigned char *use, struct gpu_fit_loso *out, struct cp_error *err)
{
    size_t others = 0;
    for (size_t i = 0; i < d->n; i++) {
        use[i] = fold[i] != f;
        others += use[i];
    }
    struct gpu_fit_result res;
    struct cp_error e = {0};
    char why[sizeof out->why] = "";
    if (others == 0)
        snprintf(why, sizeof why, "no row of another source to refit on");
    else if (gpu_fit_run(d, use, &res, &e) != CP_OK)
        snprintf(why, sizeof why, "the refit failed: %.200s", e.msg);
    else if (!res.converged)
        snprintf(why, sizeof why, "the refit did not converge in %zu iterations", res.iterations);
    for (size_t i = 0; i < d->n; i++) {
        if (use[i])
            continue;
        out[i].step_s = NAN;
        snprintf(out[i].why, sizeof out[i].why, "%s", why);
        if (why[0])
            continue;
        struct gpu_fit g = d->gpu[d->rows[i].gpu]->fit;
        gpu_fit_apply(&res, &g);
        cp_status st = gpu_fit_step(d, i, &g, &out[i].step_s, err);
        if (st != CP_OK)
            return st;
    }
    return CP_OK;
}

cp_status gpu_fit_leave_out(const struct gpu_fit_data *d, struct gpu_fit_loso *out,
                            struct gpu_fit_folds *how, gpu_fit_progress_fn progress, void *arg,
                            struct cp_error *err)
{
    size_t *fold = xmalloc((d->n ? d->n : 1) * sizeof *fold);
    unsigned char *use = xmalloc(d->n ? d->n : 1);
    struct gpu_fit_folds h = {0};
    h.folds = deal_folds(d, fold, &h.sources);
    h.dealt = h.sources > GPU_FIT_MAX_LOSO;
    cp_status st = CP_OK;
    for (size_t f = 0; st == CP_OK && f < h.folds; f++) {
        if (progress)
            progress(arg, f, h.folds);
        st = leave_out(d, fold, f, use, out, err);
    }
    free(use);
    free(fold);
    if (how)
        *how = h;
    return st;
}

cp_status gpu_fit_leave_source_out(const struct gpu_fit_data *d, struct gpu_fit_loso *out,
                                   struct cp_error *err)
{
    return gpu_fit_leave_out(d, out, NULL, NULL, NULL, err);
}
