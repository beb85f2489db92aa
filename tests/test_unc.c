/* test_unc.c - uncertainty (src/plan/unc) and sensitivity (src/plan/sens):
 * determinism by seed, the point estimate without ranges, ordered bands,
 * percentiles against the analytic transform of a uniform draw, valid
 * draws and redraws, the error paths; elasticities in compute-bound and
 * stream-bound limits, kinks, one-sided and whole-number keys, keys that
 * do not enter, zero-valued keys, and the order of the rows.
 *
 * Expected values come from the model's stated form in each limit (time in
 * inverse proportion to peak FLOP/s when compute-bound, to the stream rate
 * when stream-bound) or from plain difference quotients of param_eval(),
 * never from the function under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "model/cluster.h"
#include "model/train.h"
#include "model/param.h"
#include "plan/sens.h"
#include "model/ws_tm.h"
#include "gpu/gpu_tm.h"
#include "plan/unc.h"

/* ---- fixtures ---- */

/* A shipped hardware description with its ranges, a shipped model and a
 * cluster of n systems (global batch: the model's, or seqs when > 0). */
struct fix {
    struct hw_desc hw;
    struct desc_src src;
    struct wl_desc wl;
    struct cluster c;
};

static void fix_load(struct fix *f, const char *hw, const char *const *sets, size_t nsets,
                     const char *model, double n, double seqs)
{
    struct cat_entry e;
    struct cp_error err = {0};
    builtin_text(hw, CAT_HW, &e);
    cp_status st = hw_load(e.text, e.origin, sets, nsets, &f->hw, &f->src, &err);
    cat_entry_free(&e);
    assert_ok(st, err);
    load_model(model, NULL, 0, &f->wl);
    cluster_init(&f->c, &f->hw, &f->wl);
    f->c.systems = n;
    if (seqs > 0)
        f->c.global_seqs = seqs;
    assert_ok(cluster_check(&f->c, &err), err);
}

/* Every range off. */
static void no_ranges(struct desc_src *src)
{
    for (size_t k = 0; k < DESC_MAX_KEYS; k++)
        src->spread[k] = 0;
}

static int key(const char *name)
{
    int k = param_find(name);
    if (k < 0) {
        print_error("no numeric hardware key %s\n", name);
        fail();
    }
    return k;
}

static double time_at(const struct cluster *c, const char *name, double v)
{
    struct hw_desc h = *c->hw;
    *param_ptr(&h, key(name)) = v;
    struct train_result r;
    param_eval(c, &h, &r);
    return r.time_s;
}

/* Streams, update and latency made negligible: time in inverse proportion
 * to the achieved compute rate. */
static const char *const compute_bound[] = {
    "system.io_bandwidth=150 PB/s",
    "swarmx.link_bandwidth=150 PB/s",
    "swarmx.reduce_bandwidth=300 PB/s",
    "memoryx.server_network=150 PB/s",
    "memoryx.server_update_flops=1 EFLOP/s",
    "memoryx.server_memory_bandwidth=3 EB/s",
    "swarmx.hop_latency=1 ns",
    "system.step_overhead=0 s",
};

/* With MX_SERVERS MemoryX servers fixed (4 x 37.5 GB/s = 150 GB/s on CS-2)
 * MemoryX alone sets the stream rate (system I/O and the links are twice as
 * fast); the update is made negligible (sized per run it would be kept off
 * the critical path; on 4 servers it would set it); with one sequence per
 * step the streams set the pace. */
#define MX_SERVERS 4
static const char *const mx_bound[] = {
    "system.io_bandwidth=300 GB/s",
    "swarmx.link_bandwidth=300 GB/s",
    "memoryx.server_update_flops=1 EFLOP/s",
    "memoryx.server_memory_bandwidth=3 EB/s",
    "system.step_overhead=0 s",
};

/* The shipped file with no fixed cost per step and a negligible update, so
 * time follows the streams. */
static const char *const no_overhead[] = {"system.step_overhead=0 s",
                                          "memoryx.server_update_flops=1 EFLOP/s",
                                          "memoryx.server_memory_bandwidth=3 EB/s"};

/* ---- unc ---- */

/* unc_job_run of f's cluster at its own count (the weight-streaming job
 * of the interface). */
static cp_status unc_ws(const struct fix *f, size_t samples, unsigned long seed,
                        struct unc_result *r, double *times, struct cp_error *err)
{
    const struct tm_job j = {&tm_ws, &f->c, f->c.systems};
    return unc_job_run(&j, &f->src, 0, TM_STRONG, samples, seed, r, times, err);
}

/* One draw (unc_job_draw) of the weight-streaming job on hw: out = *hw
 * with every ranged key of src drawn. */
static cp_status draw_ws(const struct hw_desc *hw, const struct desc_src *src, gsl_rng *rng,
                         struct hw_desc *out, struct cp_error *err)
{
    struct cluster c = {.hw = hw};
    const struct tm_job j = {&tm_ws, &c, 1};
    void *buf = malloc(tm_ws.clone_size), *drawn;
    assert_non_null(buf);
    cp_status st = unc_job_draw(&j, src, rng, buf, &drawn, err);
    *out = *((const struct cluster *)drawn)->hw;
    free(buf);
    return st;
}

static void test_unc_seed(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", NULL, 0, "gpt3-175b", 192, 0);
    enum { N = 300 };
    static double t1[N], t2[N], t3[N];
    struct unc_result a, b, d;
    struct cp_error err = {0};
    assert_ok(unc_ws(&f, N, 7, &a, t1, &err), err);
    assert_ok(unc_ws(&f, N, 7, &b, t2, &err), err);
    assert_ok(unc_ws(&f, N, 8, &d, t3, &err), err);
    assert_memory_equal(t1, t2, sizeof t1);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.samples, N);
    size_t differ = 0;
    for (size_t i = 0; i < N; i++)
        differ += t1[i] != t3[i];
    assert_true(differ > N / 2);
    assert_true(a.time_s.p50 != d.time_s.p50);
    /* the same seed gives the same draws whatever the cluster: the first
     * draw's utilization does not depend on the number of systems */
    static struct fix g;
    fix_load(&g, "cs2", NULL, 0, "gpt3-175b", 16, 0);
    gsl_rng *r1 = gsl_rng_alloc(gsl_rng_mt19937), *r2 = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(r1);
    assert_non_null(r2);
    gsl_rng_set(r1, 7);
    gsl_rng_set(r2, 7);
    struct hw_desc h1, h2;
    assert_ok(draw_ws(f.c.hw, &f.src, r1, &h1, &err), err);
    assert_ok(draw_ws(g.c.hw, &g.src, r2, &h2, &err), err);
    assert_memory_equal(&h1, &h2, sizeof h1);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
    /* times may be NULL */
    assert_ok(unc_ws(&f, N, 7, &b, NULL, &err), err);
    assert_memory_equal(&a, &b, sizeof a);
}

static void test_unc_no_range_is_point(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs3", NULL, 0, "megatron-1t", 16, 0);
    no_ranges(&f.src);
    f.hw.wse.model_error = 0; /* nothing drawn at all */
    /* the point estimate through the interface, as every command gets it */
    const struct tm_job j = {&tm_ws, &f.c, f.c.systems};
    static struct tm_result tr;
    static struct train_result det; /* the kind's detail (ws_tm.h) */
    struct cp_error err = {0};
    assert_ok(tm_eval(&j, 0, TM_STRONG, &tr, &det, &err), err);
    enum { N = 37 };
    double t[N];
    struct unc_result r;
    assert_ok(unc_ws(&f, N, 3, &r, t, &err), err);
    assert_int_equal(r.ranged, 0);
    assert_int_equal(r.samples, N);
    const struct unc_band *b[] = {&r.step_s, &r.time_s, &r.energy_J};
    double want[] = {tr.step_s, tr.time_s, tr.energy_J};
    for (size_t i = 0; i < 3; i++) {
        assert_true(b[i]->p05 == want[i]);
        assert_true(b[i]->p10 == want[i]);
        assert_true(b[i]->p50 == want[i]);
        assert_true(b[i]->p90 == want[i]);
        assert_true(b[i]->p95 == want[i]);
    }
    for (size_t i = 0; i < N; i++)
        assert_true(t[i] == tr.time_s);
}

static void test_unc_bands_ordered(void **state)
{
    (void)state;
    const char *hw[] = {"cs2", "cs3"};
    const char *model[] = {"gpt3-175b", "megatron-1t"};
    double n[] = {192, 16};
    for (size_t i = 0; i < 2; i++) {
        static struct fix f;
        fix_load(&f, hw[i], NULL, 0, model[i], n[i], 0);
        size_t ranged = 0;
        for (size_t k = 0; k < hw_schema.nkeys; k++)
            ranged += f.src.spread[k] > 0;
        assert_true(ranged >= 15); /* the shipped files' ranges */
        struct unc_result r;
        struct cp_error err = {0};
        assert_ok(unc_ws(&f, 500, 1, &r, NULL, &err), err);
        assert_int_equal(r.ranged, ranged);
        const struct unc_band *b[] = {&r.step_s, &r.time_s, &r.energy_J};
        for (size_t j = 0; j < 3; j++) {
            assert_true(b[j]->p05 > 0);
            assert_true(b[j]->p05 <= b[j]->p10);
            assert_true(b[j]->p10 <= b[j]->p50);
            assert_true(b[j]->p50 <= b[j]->p90);
            assert_true(b[j]->p90 <= b[j]->p95);
            assert_true(b[j]->p05 < b[j]->p95); /* the ranges move every figure */
        }
    }
}

/* One ranged key, time ~ 1 / utilization: the time's q-quantile is the
 * point time x u0 / u_(1-q) with u_p = u0 - s + 2 s p, the uniform's
 * quantile. */
static void test_unc_uniform_transform(void **state)
{
    (void)state;
    enum { NB = sizeof compute_bound / sizeof compute_bound[0] };
    const char *sets[NB + 1];
    memcpy(sets, compute_bound, sizeof compute_bound);
    sets[NB] = "system.utilization=0.5";
    static struct fix f;
    fix_load(&f, "cs2", sets, NB + 1, "gpt3-175b", 1, 0);
    no_ranges(&f.src);
    f.hw.wse.model_error = 0; /* the key's draw alone */
    int k = key("system.utilization");
    double u0 = 0.5, s = 0.2;
    f.src.spread[k] = s;
    /* the configuration is compute-bound across the range */
    assert_rel(time_at(&f.c, "system.utilization", 0.3) * 0.3,
               time_at(&f.c, "system.utilization", 0.7) * 0.7, 1e-6);
    double t0 = time_at(&f.c, "system.utilization", u0);
    enum { N = 20000 };
    struct unc_result r;
    struct cp_error err = {0};
    assert_ok(unc_ws(&f, N, 11, &r, NULL, &err), err);
    assert_int_equal(r.ranged, 1);
    /* sampling error of a quantile: u sd = 2 s sqrt(p (1 - p) / N), 0.06 %
     * of u at the tails and 0.28 % at the median; tolerances > 4 sd */
    assert_rel(r.time_s.p05, t0 * u0 / (u0 - s + 2 * s * 0.95), 0.003);
    assert_rel(r.time_s.p50, t0 * u0 / (u0 - s + 2 * s * 0.50), 0.012);
    assert_rel(r.time_s.p95, t0 * u0 / (u0 - s + 2 * s * 0.05), 0.006);
    /* energy moves with time (power does not depend on utilization) */
    assert_rel(r.energy_J.p50 / r.time_s.p50, r.energy_J.p05 / r.time_s.p05, 1e-12);
}

/* The model's own error alone (no ranged key): each draw's figures are
 * the point's times a factor uniform in 1 +- e, so the time's q-quantile
 * is t0 (1 + e (2 q - 1)); the energy moves with it; a deadline at the
 * point time is met by about half the draws, one 10 % above it by every
 * draw once e < 0.1, and the shipped files state an error on both kinds. */
static void test_unc_model_error(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs3", NULL, 0, "gpt3-175b", 22, 0);
    assert_true(f.hw.wse.model_error > 0); /* hw/cs3.ini states one */
    no_ranges(&f.src);
    double e = 0.1873;
    f.hw.wse.model_error = e;
    struct train_result tr;
    train_eval(&f.c, &tr);
    const struct tm_job j = {&tm_ws, &f.c, f.c.systems};
    assert_rel(unc_model_error(&j), e, 1e-15);
    enum { N = 20000 };
    struct unc_result r;
    struct cp_error err = {0};
    assert_ok(unc_ws(&f, N, 5, &r, NULL, &err), err);
    assert_int_equal(r.ranged, 0);
    assert_rel(r.model_error, e, 1e-15);
    /* a quantile's sampling error: 2 e sqrt(p (1 - p) / N), 0.16 % of t0
     * at P10 and P90; tolerance > 4 of it */
    const double q[] = {0.10, 0.50, 0.90};
    const double got[] = {r.time_s.p10, r.time_s.p50, r.time_s.p90};
    for (size_t i = 0; i < 3; i++)
        assert_rel(got[i], tr.time_s * (1 + e * (2 * q[i] - 1)), 0.008);
    assert_rel(r.energy_J.p90 / r.time_s.p90, tr.energy_J / tr.time_s, 1e-9);
    struct unc_draws d;
    assert_ok(unc_job_draws(&j, &f.src, 0, TM_STRONG, N, 5, &d, &err), err);
    double limit[PLAN_NMETRICS] = {tr.time_s, 0, 0};
    double share = unc_share(&d, limit);
    assert_true(share > 0.48 && share < 0.52);
    limit[PLAN_TIME] = tr.time_s * (1 + e) * 1.000001;
    assert_true(unc_share(&d, limit) == 1);
    limit[PLAN_TIME] = tr.time_s * (1 - e) * 0.999999;
    assert_true(unc_share(&d, limit) == 0);
    unc_draws_free(&d);
}

/* The GPU kind through the same code: the shipped h100 states ranges on its
 * fitted keys and a model error, so its band has a width and is ordered
 * around the point; with the ranges taken out, the model error alone
 * scales the one layout's step time by 1 + e (2 q - 1) at quantile q. */
static void test_unc_gpu_band(void **state)
{
    (void)state;
    static struct gpuhw_desc g;
    static struct desc_src src;
    static struct wl_desc w;
    struct cat_entry e;
    struct cp_error err = {0};
    builtin_text("h100", CAT_HW, &e);
    cp_status st = gpuhw_load(e.text, e.origin, NULL, 0, &g, &src, &err);
    cat_entry_free(&e);
    assert_ok(st, err);
    load_model("gpt3-xl", NULL, 0, &w);
    struct gpu_tm_job gj = {.g = &g, .wl = &w, .spec = gpu_search_spec_default(64), .tokens = 3.7e9,
                            .price = -1};
    gj.spec.batch = w.batch;
    const struct tm_job j = {&tm_gpu, &gj, 64};
    static struct tm_result pt;
    static struct gpu_tm_detail det;
    assert_ok(tm_eval(&j, 0, TM_STRONG, &pt, &det, &err), err);
    assert_true(pt.runs);
    struct unc_result r;
    assert_ok(unc_job_run(&j, &src, 0, TM_STRONG, 400, 7, &r, NULL, &err), err);
    assert_true(r.ranged >= 4); /* matmul, attention, lowp, step_overhead */
    assert_true(r.model_error == g.fit.model_error && r.model_error > 0);
    const struct unc_band *b[] = {&r.step_s, &r.time_s, &r.energy_J};
    const double point[] = {pt.step_s, pt.time_s, pt.energy_J};
    for (size_t i = 0; i < 3; i++) {
        assert_true(b[i]->p10 < b[i]->p50 && b[i]->p50 < b[i]->p90);
        assert_true(b[i]->p10 < point[i] && point[i] < b[i]->p90);
    }
    no_ranges(&src);
    double e0 = g.fit.model_error;
    enum { N = 4000 };
    assert_ok(unc_job_run(&j, &src, 0, TM_STRONG, N, 9, &r, NULL, &err), err);
    assert_int_equal(r.ranged, 0);
    /* sampling error of a quantile: 2 e sqrt(q (1 - q) / N) = 0.44 % of
     * the point at P10 and P90 (e = 0.23); tolerance > 4 of it */
    assert_rel(r.step_s.p10, pt.step_s * (1 - 0.8 * e0), 0.02);
    assert_rel(r.step_s.p50, pt.step_s, 0.02);
    assert_rel(r.step_s.p90, pt.step_s * (1 + 0.8 * e0), 0.02);
}

/* Draws are uniform over the range, stay valid and leave other keys
 * alone; a draw that breaks a rule is redrawn. */
static void test_unc_draws_valid(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", NULL, 0, "gpt3-175b", 192, 0);
    int ku = key("system.utilization"), ko = key("sparsity.overhead");
    int kh = key("swarmx.hop_latency");
    /* beyond what the loader accepts: 0.7..1.1, of which 1..1.1 is invalid */
    f.hw.wse.utilization = 0.9;
    f.src.spread[ku] = 0.2;
    f.hw.sp.overhead = 0.9;
    f.src.spread[ko] = 0.2;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(rng);
    gsl_rng_set(rng, 5);
    double lo_u = 1, hi_u = 0, sum_o = 0, lo_h = 1, hi_h = 0;
    enum { N = 20000 };
    for (size_t i = 0; i < N; i++) {
        struct hw_desc d;
        struct cp_error err = {0};
        assert_ok(draw_ws(&f.hw, &f.src, rng, &d, &err), err);
        for (size_t j = 0; j < param_count(); j++) {
            int k = param_key(j);
            if (f.src.spread[k] > 0)
                assert_true(param_valid(&d, k, param_get(&d, k)));
            else
                assert_true(param_get(&d, k) == param_get(&f.hw, k));
        }
        const char *sec, *name;
        assert_null(hw_inconsistency(&d, &sec, &name));
        assert_true(d.wse.utilization >= 0.7 && d.wse.utilization <= 1);
        assert_true(d.sp.overhead >= 0.7 && d.sp.overhead < 1);
        lo_u = fmin(lo_u, d.wse.utilization), hi_u = fmax(hi_u, d.wse.utilization);
        lo_h = fmin(lo_h, d.swx.hop_latency_s), hi_h = fmax(hi_h, d.swx.hop_latency_s);
        sum_o += d.sp.overhead;
    }
    gsl_rng_free(rng);
    /* the ends are reached, and the overhead is uniform on [0.7, 1) */
    assert_true(lo_u < 0.701 && hi_u > 0.999);
    assert_rel(sum_o / N, 0.85, 0.003);
    double h0 = f.hw.swx.hop_latency_s, hs = f.src.spread[kh];
    assert_true(hs > 0);
    assert_true(lo_h >= h0 - hs && lo_h < h0 - 0.99 * hs);
    assert_true(hi_h <= h0 + hs && hi_h > h0 + 0.99 * hs);
}

static void test_unc_errors(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", NULL, 0, "gpt3-175b", 192, 0);
    struct unc_result r;
    struct cp_error err = {0};
    assert_int_equal(unc_ws(&f, 0, 1, &r, NULL, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "samples"));
    memset(&err, 0, sizeof err);
    assert_int_equal(unc_ws(&f, UNC_MAX_SAMPLES + 1, 1, &r, NULL, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "samples"));
    /* a range with (almost) no valid value: redraws give up */
    f.hw.sp.overhead = 0.999;
    f.src.spread[key("sparsity.overhead")] = 1e6;
    memset(&err, 0, sizeof err);
    assert_int_equal(unc_ws(&f, 10, 1, &r, NULL, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "sparsity.overhead"));
}

/* ---- sens ---- */

/* sens_run of f's cluster at its own count, through the interface. */
static size_t sens_of(const struct fix *f, struct sens_row *rows)
{
    const struct tm_job j = {&tm_ws, &f->c, f->c.systems};
    return sens_run(&j, &f->src, rows);
}

static const struct sens_row *find_row(const struct sens_row *rows, size_t n, const char *name)
{
    int k = key(name);
    for (size_t i = 0; i < n; i++)
        if (rows[i].key == k)
            return &rows[i];
    fail();
    return NULL;
}

/* Plain central difference of ln time in ln value, step d. */
static double fd_elasticity(const struct cluster *c, const char *name, double d)
{
    double v = param_get(c->hw, key(name));
    return (log(time_at(c, name, v * exp(d))) - log(time_at(c, name, v * exp(-d)))) / (2 * d);
}

static void test_sens_compute_bound(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", compute_bound, sizeof compute_bound / sizeof compute_bound[0], "gpt3-175b",
             1, 0);
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const struct sens_row *p = find_row(rows, n, "system.peak_flops");
    const struct sens_row *u = find_row(rows, n, "system.utilization");
    assert_true(p->defined && u->defined && !p->kink && !u->kink);
    assert_rel(p->elasticity, -1, 1e-4);
    assert_rel(u->elasticity, -1, 1e-4);
    assert_true(p->abserr < 1e-6);
    assert_true(p->spread == 0 && u->spread > 0);
    /* they lead the table */
    assert_true(rows[0].key == p->key || rows[0].key == u->key);
    assert_true(rows[1].key == p->key || rows[1].key == u->key);
    /* node power does not enter time at all */
    const struct sens_row *np = find_row(rows, n, "swarmx.node_power");
    assert_true(np->defined);
    assert_true(np->elasticity == 0 && np->below == 0 && np->above == 0);
}

static void test_sens_stream_bound(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", mx_bound, sizeof mx_bound / sizeof mx_bound[0], "gpt3-175b", 1, 1);
    f.c.mx_servers = MX_SERVERS;
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const struct sens_row *m = find_row(rows, n, "memoryx.server_network");
    assert_true(m->defined && !m->kink);
    assert_rel(m->elasticity, -1, 0.02);
    assert_rel(m->elasticity, fd_elasticity(&f.c, "memoryx.server_network", 1e-3), 1e-4);
    assert_int_equal(rows[0].key, m->key);
    /* the wafer's compute barely matters here */
    assert_true(fabs(find_row(rows, n, "system.peak_flops")->elasticity) < 0.02);
}

/* Shipped CS-2 on MX_SERVERS MemoryX servers: system I/O, link and the
 * servers' network all at 150 GB/s.  Lowering the servers' network slows
 * the streams, raising it alone does nothing. */
static void test_sens_kink(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", no_overhead, sizeof no_overhead / sizeof no_overhead[0], "gpt3-175b", 1, 1);
    f.c.mx_servers = MX_SERVERS;
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const struct sens_row *m = find_row(rows, n, "memoryx.server_network");
    assert_true(m->defined && m->kink);
    assert_true(m->above == 0);
    assert_rel(m->below, -1, 0.02);
    assert_rel(m->elasticity, (m->below + m->above) / 2, 1e-3);
    /* away from kinks the one-sided values agree with the central one */
    const struct sens_row *u = find_row(rows, n, "system.utilization");
    assert_false(u->kink);
    assert_rel(u->below, u->elasticity, 1e-4);
    assert_rel(u->above, u->elasticity, 1e-4);
}

/* At GPT-3 175B on 192 CS-2 (a mixed regime) the central elasticity is a
 * plain difference quotient. */
static void test_sens_matches_difference(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", NULL, 0, "gpt3-175b", 192, 0);
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const char *keys[] = {"system.peak_flops", "system.utilization", "system.util_half_tokens"};
    for (size_t i = 0; i < 3; i++) {
        const struct sens_row *r = find_row(rows, n, keys[i]);
        assert_true(r->defined);
        assert_true(fabs(r->elasticity) > 0.05);
        assert_rel(r->elasticity, fd_elasticity(&f.c, keys[i], 1e-3), 1e-4);
        assert_rel(r->value, param_get(&f.hw, r->key), 0);
        assert_rel(r->spread, f.src.spread[r->key], 0);
    }
}

/* Sorted by |elasticity|, every key once, zero-valued keys undefined and
 * last in schema order (on CS-3 with the MemoryX servers' power set to 0:
 * no flash, no flash bandwidth, that power, no boundary overlap and no
 * bound on the checkpoint storage). */
static void test_sens_sorted_and_undefined(void **state)
{
    (void)state;
    const char *sets[] = {"memoryx.server_power=0 W"};
    static struct fix f;
    fix_load(&f, "cs3", sets, 1, "megatron-1t", 16, 0);
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    assert_int_equal(n, param_count());
    int seen[DESC_MAX_KEYS] = {0};
    for (size_t i = 0; i < n; i++) {
        assert_true(rows[i].key >= 0 && rows[i].key < (int)hw_schema.nkeys);
        assert_int_equal(seen[rows[i].key]++, 0);
        if (i > 0 && rows[i].defined)
            assert_true(fabs(rows[i].elasticity) <= fabs(rows[i - 1].elasticity));
        if (i > 0 && rows[i - 1].defined == 0)
            assert_int_equal(rows[i].defined, 0);
    }
    const int zero[] = {key("memoryx.server_flash"), key("memoryx.server_flash_bandwidth"),
                        key("memoryx.server_power"), key("memoryx.boundary_overlap"),
                        key("reliability.storage_bandwidth")};
    const size_t nz = sizeof zero / sizeof zero[0];
    for (size_t i = 0; i < nz; i++) {
        assert_true(param_get(&f.hw, zero[i]) == 0);
        assert_true(i == 0 || zero[i - 1] < zero[i]);
        assert_int_equal(rows[n - nz + i].key, zero[i]);
        assert_int_equal(rows[n - nz + i].defined, 0);
        assert_true(isnan(rows[n - nz + i].elasticity));
    }
    assert_int_equal(rows[n - nz - 1].defined, 1);
}

/* Whole-number keys: arc elasticities over whole neighbours. */
static void test_sens_whole_number(void **state)
{
    (void)state;
    static struct fix f;
    fix_load(&f, "cs2", NULL, 0, "gpt3-175b", 192, 0);
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const struct sens_row *fo = find_row(rows, n, "swarmx.fanout");
    assert_true(fo->defined && fo->step);
    assert_true(isnan(fo->lo) && isnan(fo->below)); /* a fanout of 1 is not valid */
    assert_rel(fo->hi, 3, 0);
    double t2 = time_at(&f.c, "swarmx.fanout", 2), t3 = time_at(&f.c, "swarmx.fanout", 3);
    assert_true(t3 != t2); /* the tree gets shallower */
    assert_rel(fo->elasticity, log(t3 / t2) / log(1.5), 1e-8);
    assert_rel(fo->above, fo->elasticity, 0);
    const struct sens_row *mm = find_row(rows, n, "system.max_matmul_dim");
    assert_true(mm->step && mm->elasticity == 0 && mm->abserr == 0);
    assert_true(mm->lo <= 1e5 * exp(-SENS_STEP) && mm->lo > 1e5 * exp(-SENS_STEP) - 1);
    assert_true(mm->hi >= 1e5 * exp(SENS_STEP) && mm->hi < 1e5 * exp(SENS_STEP) + 1);
}

/* A key at the edge of its valid values: only the valid side is used.
 * Compute-bound, so utilization matters; the overhead near 1 is clipped by
 * min(1, density + overhead) and does not. */
static void test_sens_one_sided(void **state)
{
    (void)state;
    enum { NB = sizeof compute_bound / sizeof compute_bound[0] };
    const char *sets[NB + 2];
    memcpy(sets, compute_bound, sizeof compute_bound);
    sets[NB] = "system.utilization=1";
    sets[NB + 1] = "sparsity.overhead=0.995";
    static struct fix f;
    fix_load(&f, "cs2", sets, NB + 2, "gpt3-175b", 1, 0);
    f.c.sparsity = 0.5;
    struct sens_row rows[DESC_MAX_KEYS];
    size_t n = sens_of(&f, rows);
    const char *keys[] = {"system.utilization", "sparsity.overhead"};
    double want[] = {-1, 0};
    for (size_t i = 0; i < 2; i++) {
        const struct sens_row *r = find_row(rows, n, keys[i]);
        assert_true(r->defined && !r->kink);
        assert_true(isnan(r->above) && isfinite(r->below));
        assert_rel(r->elasticity, r->below, 0);
        assert_true(isfinite(r->abserr));
        double v = r->value, d = 1e-3;
        double back =
            (log(time_at(&f.c, keys[i], v)) - log(time_at(&f.c, keys[i], v * exp(-d)))) / d;
        assert_true(fabs(r->elasticity - back) < 1e-4);
        assert_true(fabs(r->elasticity - want[i]) < 1e-4);
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unc_seed),
        cmocka_unit_test(test_unc_no_range_is_point),
        cmocka_unit_test(test_unc_bands_ordered),
        cmocka_unit_test(test_unc_uniform_transform),
        cmocka_unit_test(test_unc_model_error),
        cmocka_unit_test(test_unc_gpu_band),
        cmocka_unit_test(test_unc_draws_valid),
        cmocka_unit_test(test_unc_errors),
        cmocka_unit_test(test_sens_compute_bound),
        cmocka_unit_test(test_sens_stream_bound),
        cmocka_unit_test(test_sens_kink),
        cmocka_unit_test(test_sens_matches_difference),
        cmocka_unit_test(test_sens_sorted_and_undefined),
        cmocka_unit_test(test_sens_whole_number),
        cmocka_unit_test(test_sens_one_sided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
