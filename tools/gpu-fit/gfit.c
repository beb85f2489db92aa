/* gfit.c - the fitter behind the [fit] section of the GPU descriptions
 * (the hardware descriptions with kind = gpu): Nelder-Mead (GSL's nmsimplex2) on the
 * squared log error of the model's step time over every row of
 * hw/gpu-measurements.csv, each row read by src/gpu/gpu_run.c.  Not part
 * of the build; a developer's tool.  Build from the top of the tree after
 * `make` (it links the built-in data of build/gen):
 *   gcc -D_GNU_SOURCE -O2 -Isrc -o gfit tools/gpu-fit/gfit.c src/gpu/*.c \
 *       src/desc/*.c src/base/*.c build/gen/embedded.c -lgsl -lgslcblas -lcsv -linih -lm
 * Run: ./gfit [FIELD...] with /tmp/gfit/fit.ini present (the starting [fit]
 * text, put in place of FITPLACEHOLDER where a description has one).
 * FIELDs index gpu_fit: 0 matmul_efficiency, 1 half_width,
 * 2 elementwise_bytes, 3 comm_efficiency, 4 tp_overlap, 5 optimizer_bytes,
 * 6 step_overhead, 7 hbm_usable, 8 lowp_efficiency.  Prints every row,
 * per-source errors, the values, and each source left out of the fit and
 * predicted.  The shipped values: ./gfit 0 2 6 8, rounded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_multimin.h>
#include "desc/gmeas.h"
#include "desc/gpuhw.h"
#include "desc/tfm.h"
#include "gpu/gpu.h"
#include "gpu/gpu_run.h"

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f) {
        perror(p);
        exit(1);
    }
    fseek(f, 0, 2);
    long n = ftell(f);
    rewind(f);
    char *b = malloc(n + 1);
    fread(b, 1, n, f);
    b[n] = 0;
    fclose(f);
    return b;
}
static struct gpuhw_desc G[GMEAS_NGPUS];
static struct gmeas_list L;
static const char *srcname[] = {"NAR", "MCR", "NM24", "MLP"};
static int src_of(const struct gmeas_row *r)
{
    for (int i = 0; i < 4; i++)
        if (!strncmp(r->id, srcname[i], strlen(srcname[i])))
            return i;
    return -1;
}
static int leave = -1, only = -1;
static int NP;
static int which[8]; /* indexes into fit fields */
static double *field(struct gpu_fit *f, int k)
{
    double *a[] = {&f->matmul_eff,      &f->half_width, &f->elementwise,
                   &f->comm_eff,        &f->tp_overlap, &f->optimizer_traffic,
                   &f->step_overhead_s, &f->hbm_usable, &f->lowp_eff};
    return a[k];
}
static int isfrac(int k)
{
    return k == 0 || k == 3 || k == 4 || k == 7 || k == 8;
}
static double tox(int k, double v)
{
    return isfrac(k) ? log(v / (1 - v)) : log(v);
}
static double fromx(int k, double x)
{
    return isfrac(k) ? 1 / (1 + exp(-x)) : exp(x);
}
static void setp(const gsl_vector *x)
{
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < NP; i++)
            *field(&G[g].fit, which[i]) = fromx(which[i], gsl_vector_get(x, i));
}
static double model_step(const struct gmeas_row *r, struct gpu_result *res)
{
    struct wl_desc w;
    gpu_run_workload(r, &w);
    struct gpu_layout l = gpu_run_layout(&G[r->gpu], &w, r);
    struct cp_error e = {0};
    if (gpu_check(&G[r->gpu], &w, &l, &e) != CP_OK) {
        fprintf(stderr, "%s: %s\n", r->id, e.msg);
        exit(1);
    }
    gpu_eval(&G[r->gpu], &w, &l, res);
    return res->step_s;
}
static int rcof(const struct gmeas_row *r)
{
    struct wl_desc w;
    gpu_run_workload(r, &w);
    struct gpu_layout l = gpu_run_layout(&G[r->gpu], &w, r);
    return (int)l.recompute * 100 + (int)l.recompute_layers;
}
static double obj(const gsl_vector *x, void *p)
{
    (void)p;
    setp(x);
    double s = 0;
    for (size_t i = 0; i < L.n; i++) {
        int so = src_of(&L.rows[i]);
        if (so == leave)
            continue;
        if (only >= 0 && so != only)
            continue;
        struct gpu_result res;
        double e = log(model_step(&L.rows[i], &res) / L.rows[i].step_time_s);
        s += e * e;
    }
    return s;
}
static void fit(void)
{
    gsl_vector *x = gsl_vector_alloc(NP), *ss = gsl_vector_alloc(NP);
    for (int i = 0; i < NP; i++) {
        gsl_vector_set(x, i, tox(which[i], *field(&G[0].fit, which[i])));
        gsl_vector_set(ss, i, 0.3);
    }
    gsl_multimin_function fn = {obj, NP, NULL};
    gsl_multimin_fminimizer *m =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, NP);
    gsl_multimin_fminimizer_set(m, &fn, x, ss);
    for (int it = 0; it < 5000; it++) {
        if (gsl_multimin_fminimizer_iterate(m))
            break;
        if (gsl_multimin_fminimizer_size(m) < 1e-6)
            break;
    }
    setp(m->x);
    gsl_multimin_fminimizer_free(m);
    gsl_vector_free(x);
    gsl_vector_free(ss);
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static void report(int verbose, int src, double *med, double *mx)
{
    double e[100];
    int n = 0;
    for (size_t i = 0; i < L.n; i++) {
        const struct gmeas_row *r = &L.rows[i];
        if (src >= 0 && src_of(r) != src)
            continue;
        struct gpu_result res;
        double m = model_step(r, &res);
        double err = m / r->step_time_s - 1;
        e[n++] = fabs(err);
        if (verbose)
            printf("%-52.52s %9.4f %9.4f %+6.1f%% rc=%d mfu=%.3f mm=%.2f ew=%.2f tp=%.2f pp=%.2f "
                   "bub=%.2f dp=%.2f opt=%.3f fit=%d %.0fGB\n",
                   r->id, r->step_time_s, m, 100 * err, rcof(r), res.mfu, res.part_s[0] / m,
                   res.part_s[1] / m, res.part_s[2] / m, res.part_s[3] / m, res.part_s[4] / m,
                   res.part_s[5] / m, res.part_s[6] / m, res.fits, res.mem_total / 1e9);
    }
    qsort(e, n, sizeof e[0], cmp);
    *med = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    *mx = e[n - 1];
}
int main(int argc, char **argv)
{
    const char *gf[] = {"hw/a100.ini", "hw/h100.ini"};
    char *fitt = slurp("/tmp/gfit/fit.ini");
    for (int g = 0; g < 2; g++) {
        char *t = slurp(gf[g]);
        char *ph = strstr(t, "FITPLACEHOLDER");
        char *buf = malloc(strlen(t) + strlen(fitt) + 10);
        if (ph) {
            *ph = 0;
            sprintf(buf, "%s%s%s", t, fitt, ph + 14);
        } else
            strcpy(buf, t);
        struct cp_error e = {0};
        if (gpuhw_load(buf, gf[g], NULL, 0, &G[g], NULL, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
    }
    struct cp_error e = {0};
    char *c = slurp("hw/gpu-measurements.csv");
    if (gmeas_parse(c, "csv", &L, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    NP = 0;
    for (int i = 1; i < argc; i++)
        which[NP++] = atoi(argv[i]);
    struct gpu_fit base = G[0].fit;
    if (NP)
        fit();
    double med, mx;
    report(1, -1, &med, &mx);
    printf("ALL median %.1f%% max %.1f%%\n", 100 * med, 100 * mx);
    for (int s = 0; s < 4; s++) {
        report(0, s, &med, &mx);
        printf("  %s median %.1f%% max %.1f%%\n", srcname[s], 100 * med, 100 * mx);
    }
    for (int i = 0; i < 9; i++)
        printf("fit[%d]=%g\n", i, *field(&G[0].fit, i));
    if (NP)
        for (int s = 0; s < 4; s++) {
            for (int g = 0; g < 2; g++)
                G[g].fit = base;
            leave = s;
            fit();
            leave = -1;
            report(0, s, &med, &mx);
            printf("LOSO %s median %.1f%% max %.1f%% (", srcname[s], 100 * med, 100 * mx);
            for (int i = 0; i < NP; i++)
                printf(" %g", *field(&G[0].fit, which[i]));
            printf(")\n");
        }
    return 0;
}
