/* valid_out.c - what `validate` prints over the runs of both machine
 * kinds (valid_out.h): one table of every run, the summary per kind, per
 * system and per GPU source, and the targets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../gpu/gpu_fit.h"
#include "valid_out.h"

/* "n/a", the text of a figure that is not known (NaN), into buf. */
static const char *na(char *buf, size_t n)
{
    snprintf(buf, n, "n/a");
    return buf;
}

static const char *num(double x, char *buf, size_t n)
{
    return isnan(x) ? na(buf, n) : (snprintf(buf, n, "%.4g", x), buf);
}

static const char *pct(double x, char *buf, size_t n)
{
    return isnan(x) ? na(buf, n) : (snprintf(buf, n, "%+.1f %%", 100 * x), buf);
}

/* An |error| for people: "4.5 %", or n/a. */
static const char *abs_pct(double x, char *buf, size_t n)
{
    return isnan(x) ? na(buf, n) : (snprintf(buf, n, "%.1f %%", 100 * x), buf);
}

static const char *exact(double x, char *buf, size_t n)
{
    if (isnan(x))
        buf[0] = '\0';
    else
        unit_format_exact(x, buf, n);
    return buf;
}

void validate_fill(const struct vline *l, size_t n, struct out_table *t)
{
    static const char *const hdr[] = {
        "kind",          "id",        "system",    "systems",        "model",      "batch",
        "software",      "quantity",  "unit",      "measured",       "predicted",  "error",
        "loo_predicted", "loo_error", "published", "published_unit", "conversion", "source"};
    out_init(t, sizeof hdr / sizeof hdr[0], hdr);
    for (size_t i = 0; i < n; i++) {
        const struct vline *q = &l[i];
        char s[32], b[32], me[40], pr[40], er[40], lp[40], le[40], pu[40];
        snprintf(s, sizeof s, "%.17g", q->systems);
        snprintf(b, sizeof b, "%.17g", q->batch);
        out_row(t, (const char *[]){
                       vkind_name[q->kind], q->id, q->system, s, q->model, b, q->software,
                       q->quantity, q->unit, exact(q->measured, me, sizeof me),
                       exact(q->predicted, pr, sizeof pr), exact(q->error, er, sizeof er),
                       exact(q->loo, lp, sizeof lp), exact(q->loo_error, le, sizeof le),
                       exact(q->published, pu, sizeof pu), q->pub_unit, q->conversion, q->source});
    }
}

/* A model's name for people: up to its first " (" ("GPT 1.7B (Megatron
 * weak-scaling family)" is GPT 1.7B). */
static void short_model(const char *m, char *buf, size_t n)
{
    const char *p = strstr(m, " (");
    snprintf(buf, n, "%.*s", p ? (int)(p - m) : (int)strlen(m), m);
}

static void print_lines(const struct vline *l, size_t n)
{
    static const char *const hdr[] = {"kind",      "id",    "system",   "N",
                                      "model",     "batch", "quantity", "measured",
                                      "predicted", "error", "leave-out"};
    struct out_table t;
    out_init(&t, sizeof hdr / sizeof hdr[0], hdr);
    for (size_t i = 0; i < n; i++) {
        const struct vline *q = &l[i];
        char s[32], b[32], me[48], pr[48], er[32], le[32], mo[128], mu[80], pu[80];
        snprintf(s, sizeof s, "%g", q->systems);
        snprintf(b, sizeof b, "%g", q->batch);
        short_model(q->model, mo, sizeof mo);
        snprintf(mu, sizeof mu, "%s %s", num(q->measured, me, sizeof me), q->unit);
        snprintf(pu, sizeof pu, "%s %s", num(q->predicted, pr, sizeof pr), q->unit);
        out_row(&t, (const char *[]){vkind_name[q->kind], q->id[0] ? q->id : "-", q->system, s, mo,
                                     b, q->quantity, mu, pu, pct(q->error, er, sizeof er),
                                     pct(q->loo_error, le, sizeof le)});
    }
    out_text.write(stdout, &t);
    out_free(&t);
}

/* Does line q belong to the summary group (kind, system or source)? */
struct vgroup {
    enum vkind kind;
    const char *system; /* NULL: any                  */
    const char *source; /* NULL: any; its source_len  */
    size_t source_len;
};

static int in_group(const struct vline *q, const struct vgroup *g)
{
    return q->kind == g->kind && (!g->system || strcmp(q->system, g->system) == 0) &&
           (!g->source ||
            (q->group_len == g->source_len && strncmp(q->group, g->source, g->source_len) == 0));
}

/* One summary row over the lines of group g. */
static void summary_row(const struct vline *l, size_t n, const struct vgroup *g,
                        struct out_table *t)
{
    double *e = xmalloc((n ? n : 1) * sizeof *e), *o = xmalloc((n ? n : 1) * sizeof *o);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in_group(&l[i], g)) {
            e[k] = l[i].error;
            o[k++] = l[i].loo_error;
        }
    char name[96], c[16], a[32], b[32], m[32], x[32];
    if (g->system)
        snprintf(name, sizeof name, "%s", g->system);
    else if (g->source)
        snprintf(name, sizeof name, "source %.*s", (int)g->source_len, g->source);
    else
        snprintf(name, sizeof name, "all");
    snprintf(c, sizeof c, "%zu", k);
    out_row(t, (const char *[]){vkind_name[g->kind], name, c,
                                abs_pct(validate_median_abs(e, k), a, sizeof a),
                                abs_pct(validate_max_abs(e, k), b, sizeof b),
                                abs_pct(validate_median_abs(o, k), m, sizeof m),
                                abs_pct(validate_max_abs(o, k), x, sizeof x)});
    free(e);
    free(o);
}

/* The summary rows of kind: each system, each source (GPU), then all. */
static void summary_kind(const struct vline *l, size_t n, enum vkind kind, struct out_table *t)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        int first = l[i].kind == kind;
        any |= first;
        for (size_t j = 0; j < i && first; j++)
            first = !(l[j].kind == kind && strcmp(l[j].system, l[i].system) == 0);
        if (first)
            summary_row(l, n, &(struct vgroup){kind, l[i].system, NULL, 0}, t);
    }
    for (size_t i = 0; i < n; i++) {
        int first = l[i].kind == kind && l[i].group_len > 0;
        struct vgroup g = {kind, NULL, l[i].group, l[i].group_len};
        for (size_t j = 0; j < i && first; j++)
            first = !in_group(&l[j], &g);
        if (first)
            summary_row(l, n, &g, t);
    }
    if (any)
        summary_row(l, n, &(struct vgroup){kind, NULL, NULL, 0}, t);
}

void validate_print(const struct vline *l, size_t n, const char *ws_keys, const char *const *how,
                    double tolerance)
{
    int has[VKIND_N] = {0};
    for (size_t i = 0; i < n; i++)
        has[l[i].kind] = 1;
    printf("The models against %zu measured run%s (error = predicted / measured - 1;\n"
           "leave-out: predicted with the fitted constants refitted without the run\n"
           "(weight-streaming) or without every run of its source (gpu))\n",
           n, n == 1 ? "" : "s");
    for (int k = 0; k < VKIND_N; k++)
        if (has[k] && how[k])
            printf("leave-out of %s runs: %s\n", vkind_name[k], how[k]);
    printf("\n");
    print_lines(l, n);
    for (size_t i = 0; i < n; i++)
        if (isnan(l[i].loo_error))
            printf("%s: no leave-out figure: %s\n", l[i].id[0] ? l[i].id : l[i].model,
                   l[i].loo_why);
    static const char *const shdr[] = {"kind",           "group",       "points",
                                       "median |error|", "max |error|", "leave-out median",
                                       "leave-out max"};
    struct out_table t;
    out_init(&t, sizeof shdr / sizeof shdr[0], shdr);
    for (int k = 0; k < VKIND_N; k++)
        summary_kind(l, n, (enum vkind)k, &t);
    printf("\n");
    out_text.write(stdout, &t);
    out_free(&t);
    printf("\n");
    if (has[VKIND_WS])
        printf("weight-streaming constants refitted for leave-out: %s\n"
               "weight-streaming targets: every run within %.3g %%, median |error| at most "
               "%.3g %%, leave-out median at most %.3g %%\n",
               ws_keys && ws_keys[0] ? ws_keys : "none", 100 * tolerance, 100 * VALIDATE_MEDIAN,
               100 * VALIDATE_LOO_MEDIAN);
    if (has[VKIND_GPU]) {
        printf("gpu constants refitted for leave-out:");
        for (int k = 0; k < GPU_FIT_NKEYS; k++)
            printf("%s %s", k ? "," : "", gpu_fit_key_name[k]);
        printf("\ngpu targets: every run within %.3g %%, median |error| at most %.3g %% "
               "(leave-out has none)\n",
               100 * tolerance, 100 * VALIDATE_GPU_MEDIAN);
    }
}

/* One median target of kind; 1 after a message when missed. */
static int median_missed(const double *v, size_t k, enum vkind kind, const char *what,
                         double target)
{
    double m = validate_median_abs(v, k);
    if (m <= target)
        return 0;
    cli_error("validate: %s: %s %.1f %% is above the target of %.3g %%", vkind_name[kind], what,
              100 * m, 100 * target);
    return 1;
}

int validate_missed(const struct vline *l, size_t n, double tolerance)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(l[i].error) <= tolerance)) {
            cli_error("validate: %s: error %+.1f %% is outside the tolerance of %.3g %%",
                      l[i].id[0] ? l[i].id : l[i].model, 100 * l[i].error, 100 * tolerance);
            bad = 1;
        }
    double *v = xmalloc((n ? n : 1) * sizeof *v);
    size_t k = validate_errors_of(l, n, VKIND_WS, 0, v);
    if (k > 0) {
        bad |= median_missed(v, k, VKIND_WS, "median |error|", VALIDATE_MEDIAN);
        validate_errors_of(l, n, VKIND_WS, 1, v);
        if (k > 1 && isnan(validate_median_abs(v, k))) {
            /* one run has nothing to be refitted on: no figure, no target;
             * more runs and none with a figure is a failure of the fits */
            cli_error("validate: weight-streaming: no run has a leave-out figure (no refit "
                      "without it succeeded), so the leave-out target cannot be met");
            bad = 1;
        } else if (k > 1)
            bad |= median_missed(v, k, VKIND_WS, "leave-out median |error|", VALIDATE_LOO_MEDIAN);
    }
    if ((k = validate_errors_of(l, n, VKIND_GPU, 0, v)) > 0)
        bad |= median_missed(v, k, VKIND_GPU, "median |error|", VALIDATE_GPU_MEDIAN);
    free(v);
    return bad;
}
