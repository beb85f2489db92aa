/* cmd_validate.c - `validate [FILE...]`: the analytic model against measured
 * runs.  Each point is predicted twice: with the hardware as shipped (whose
 * fitted constants saw every point), and leave-one-out, with the fitted
 * constants refitted (src/plan/calib) on every other point: the honest
 * out-of-sample figure.  Then count, median and largest |error| per system
 * and in all, and the targets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../plan/calib.h"
#include "../plan/param.h"
#include "meas_load.h"
#include "produce.h"

/* The constants the shipped hardware files say were fitted to the corpus
 * (cerebras-plan(1), VALIDATION): each generation's utilization and step
 * overhead on its own rows, and one jitter on all of them. */
#define VALIDATE_FIT                                                                               \
    "cs2:system.utilization,cs2:system.step_overhead,cs3:system.utilization,"                      \
    "cs3:system.step_overhead,system.jitter"
/* Targets (issue 16): the largest |error| of a point (--tolerance), the
 * median |error| in sample, and the median |error| leave-one-out. */
#define VALIDATE_TOLERANCE 0.25
#define VALIDATE_MEDIAN 0.10
#define VALIDATE_LOO_MEDIAN 0.15

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
    struct meas_set sets[VALIDATE_MAX_FILES];
    char names[VALIDATE_MAX_FILES][CP_ERROR_MAX]; /* each file's name, for messages */
    size_t nsets;
    struct vpoint *pt;
    struct calib_point *all; /* every point, in order */
    size_t n;
    struct calib_spec keys[CALIB_MAX_KEYS];
    size_t nkeys;
    double tolerance;
};

/* Median of |v| over the n finite values of v (NAN if none). */
static double median_abs(const double *v, size_t n)
{
    double *a = xmalloc((n ? n : 1) * sizeof *a);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            a[k++] = fabs(v[i]);
    for (size_t i = 1; i < k; i++) /* insertion sort: a corpus is small */
        for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            double t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
    double m = k == 0 ? NAN : k % 2 ? a[k / 2] : (a[k / 2 - 1] + a[k / 2]) / 2;
    free(a);
    return m;
}

static double max_abs(const double *v, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && !(fabs(v[i]) <= m))
            m = fabs(v[i]);
    return m;
}

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

static int load(struct validate_run *v)
{
    struct cli_opts *o = v->o;
    size_t nfiles = o->nargs ? o->nargs : 1;
    for (size_t f = 0; f < nfiles; f++) {
        struct cat_entry e;
        struct cp_error err = {0};
        cp_status st = o->nargs ? cat_read_file(o->args[f], &e, &err)
                                : cat_find_data(&o->dirs, "hw", "measurements.csv", &e, &err);
        if (st != CP_OK)
            return cli_error("%s", err.msg);
        snprintf(v->names[f], sizeof v->names[f], "%s", o->nargs ? o->args[f] : e.origin);
        int rc = meas_set_load(o, v->names[f], e.text, &v->sets[f]);
        v->nsets = f + 1;
        cat_entry_free(&e);
        if (rc >= 0)
            return rc;
        v->n += v->sets[f].rows.n;
    }
    v->pt = xmalloc(v->n * sizeof *v->pt);
    v->all = xmalloc(v->n * sizeof *v->all);
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

/* ---- output ---- */

static const char *num(double x, char *buf, size_t n)
{
    if (isnan(x))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.4g", x);
    return buf;
}

static const char *pct(double x, char *buf, size_t n)
{
    if (isnan(x))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%+.1f %%", 100 * x);
    return buf;
}

static const char *exact(double x, char *buf, size_t n)
{
    if (isnan(x))
        buf[0] = '\0';
    else
        unit_format_exact(x, buf, n);
    return buf;
}

static void fill_table(const struct validate_run *v, struct out_table *t)
{
    static const char *const hdr[] = {
        "id",   "system",   "systems",   "model", "batch",         "software",  "quantity",
        "unit", "measured", "predicted", "error", "loo_predicted", "loo_error", "source"};
    out_init(t, sizeof hdr / sizeof hdr[0], hdr);
    for (size_t i = 0; i < v->n; i++) {
        const struct vpoint *q = &v->pt[i];
        char n[32], b[32], me[40], pr[40], er[40], lp[40], le[40];
        snprintf(n, sizeof n, "%g", q->row->systems);
        snprintf(b, sizeof b, "%.17g", q->p->c->global_seqs);
        out_row(t, (const char *[]){
                       q->row->id, q->system, n, q->model, b, q->row->software,
                       meas_quantity_name[q->row->quantity], meas_quantity_unit[q->row->quantity],
                       exact(q->row->value, me, sizeof me), exact(q->predicted, pr, sizeof pr),
                       exact(q->error, er, sizeof er), exact(q->loo, lp, sizeof lp),
                       exact(q->loo_error, le, sizeof le), q->row->source});
    }
}

/* One summary row over the points of system sys (NULL: all). */
static void summary_row(const struct validate_run *v, const char *sys, struct out_table *t)
{
    double *e = xmalloc(v->n * sizeof *e), *l = xmalloc(v->n * sizeof *l);
    size_t k = 0;
    for (size_t i = 0; i < v->n; i++)
        if (!sys || strcmp(v->pt[i].system, sys) == 0) {
            e[k] = v->pt[i].error;
            l[k++] = v->pt[i].loo_error;
        }
    char n[16], a[32], b[32], c[32], d[32];
    snprintf(n, sizeof n, "%zu", k);
    snprintf(a, sizeof a, "%.1f %%", 100 * median_abs(e, k));
    snprintf(b, sizeof b, "%.1f %%", 100 * max_abs(e, k));
    snprintf(c, sizeof c, "%.1f %%", 100 * median_abs(l, k));
    snprintf(d, sizeof d, "%.1f %%", 100 * max_abs(l, k));
    out_row(t, (const char *[]){sys ? sys : "all", n, a, b, c, d});
    free(e);
    free(l);
}

static void print_text(const struct validate_run *v)
{
    static const char *const hdr[] = {"id",       "system",   "N",         "model", "batch",
                                      "quantity", "measured", "predicted", "error", "loo_error"};
    struct out_table t;
    out_init(&t, sizeof hdr / sizeof hdr[0], hdr);
    for (size_t i = 0; i < v->n; i++) {
        const struct vpoint *q = &v->pt[i];
        char n[32], b[32], me[48], pr[48], er[32], le[32];
        snprintf(n, sizeof n, "%g", q->row->systems);
        snprintf(b, sizeof b, "%g", q->p->c->global_seqs);
        char mu[64], pu[64];
        snprintf(mu, sizeof mu, "%s %s", num(q->row->value, me, sizeof me),
                 meas_quantity_unit[q->row->quantity]);
        snprintf(pu, sizeof pu, "%s %s", num(q->predicted, pr, sizeof pr),
                 meas_quantity_unit[q->row->quantity]);
        out_row(&t,
                (const char *[]){q->row->id[0] ? q->row->id : "-", q->system, n, q->model, b,
                                 meas_quantity_name[q->row->quantity], mu, pu,
                                 pct(q->error, er, sizeof er), pct(q->loo_error, le, sizeof le)});
    }
    printf("The model against %zu measured run%s (error = predicted / measured - 1;\n"
           "loo_error: predicted with the fitted constants refitted without the point)\n\n",
           v->n, v->n == 1 ? "" : "s");
    out_text.write(stdout, &t);
    out_free(&t);
    for (size_t i = 0; i < v->n; i++)
        if (isnan(v->pt[i].loo_error))
            printf("%s: no leave-one-out figure: %s\n",
                   v->pt[i].row->id[0] ? v->pt[i].row->id : v->pt[i].model, v->pt[i].loo_why);

    static const char *const shdr[] = {"system",      "points",     "median |error|",
                                       "max |error|", "loo median", "loo max"};
    out_init(&t, 6, shdr);
    for (size_t i = 0; i < v->n; i++) {
        int first = 1;
        for (size_t j = 0; j < i; j++)
            first &= strcmp(v->pt[j].system, v->pt[i].system) != 0;
        if (first)
            summary_row(v, v->pt[i].system, &t);
    }
    summary_row(v, NULL, &t);
    printf("\n");
    out_text.write(stdout, &t);
    out_free(&t);
    char name[128];
    printf("\nfitted constants refitted for leave-one-out:");
    for (size_t j = 0; j < v->nkeys; j++) {
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        printf("%s %s", j ? "," : "", calib_key_name(&k, name, sizeof name));
    }
    printf("\n");
}

/* 0 when every target is met; prints what was missed. */
static int missed(const struct validate_run *v)
{
    double *e = xmalloc(v->n * sizeof *e), *l = xmalloc(v->n * sizeof *l);
    int bad = 0;
    for (size_t i = 0; i < v->n; i++) {
        e[i] = v->pt[i].error;
        l[i] = v->pt[i].loo_error;
        if (!(fabs(e[i]) <= v->tolerance)) {
            cli_error("validate: %s: error %+.1f %% is outside the tolerance of %.3g %%",
                      v->pt[i].row->id[0] ? v->pt[i].row->id : v->pt[i].model, 100 * e[i],
                      100 * v->tolerance);
            bad = 1;
        }
    }
    double med = median_abs(e, v->n), loo = median_abs(l, v->n);
    if (!(med <= VALIDATE_MEDIAN)) {
        cli_error("validate: median |error| %.1f %% is above the target of %.3g %%", 100 * med,
                  100 * VALIDATE_MEDIAN);
        bad = 1;
    }
    if (!(loo <= VALIDATE_LOO_MEDIAN)) {
        cli_error("validate: leave-one-out median |error| %.1f %% is above the target of %.3g %%",
                  100 * loo, 100 * VALIDATE_LOO_MEDIAN);
        bad = 1;
    }
    free(e);
    free(l);
    return bad;
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

/* Load, check the keys, predict and leave each point out; -1 or an exit
 * code after a message. */
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
    /* A key no point depends on: dropped from the default list (a file of
     * one generation's runs), an error when --fit names it. */
    size_t kept = 0;
    for (size_t j = 0; rc < 0 && j < v->nkeys; j++) {
        char name[128];
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        if (key_has_point(&v->keys[j], v->all, v->n))
            v->keys[kept++] = v->keys[j];
        else if (o->fit)
            rc = cli_error("validate: --fit %s: no point is on system %s",
                           calib_key_name(&k, name, sizeof name), v->keys[j].scope);
    }
    if (rc >= 0)
        return rc;
    v->nkeys = kept;
    for (size_t i = 0; i < v->n; i++) {
        struct vpoint *q = &v->pt[i];
        q->predicted = calib_predict(q->p->c, q->p->c->hw, q->row->quantity);
        q->error = q->predicted / q->row->value - 1;
    }
    for (size_t i = 0; i < v->n; i++)
        leave_one_out(v, i);
    return -1;
}

static void run_free(struct validate_run *v)
{
    for (size_t f = 0; f < v->nsets; f++)
        meas_set_free(&v->sets[f]);
    free(v->pt);
    free(v->all);
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
    vo.nargs = 0; /* the shipped corpus */
    vo.fit = NULL;
    vo.tolerance = NULL;
    vo.csv = 1;
    out_init(t, 0, NULL);
    struct validate_run *v = run_new(&vo);
    int rc = evaluate(v);
    if (rc < 0) {
        out_free(t);
        fill_table(v, t);
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
            fill_table(v, &t);
            rc = cli_emit(o, &t);
            out_free(&t);
        } else {
            print_text(v);
            rc = cli_flush();
        }
        if (rc == EXIT_OK && missed(v))
            rc = EXIT_VERDICT;
    }
    run_free(v);
    return rc;
}
