/* test_model.c - the analytic model (src/model) term by term against the
 * formulas its headers state, and the step and training model in its
 * limits: stream-bound, compute-bound, latency-bound, sparse, weak scaling,
 * the physical lower bounds, and the training figures and verdicts.
 *
 * Every expected value is computed here from the stated formula (from the
 * description's fields, or from src/spec/tfm.h, which test_tfm.c checks),
 * never by calling the function under test a second time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/cluster.h"
#include "model/mx.h"
#include "model/step.h"
#include "model/swx.h"
#include "model/train.h"
#include "model/wse.h"
#include "spec/catalog.h"
#include "spec/hw.h"
#include "spec/tfm.h"
#include "spec/wl.h"

/* ---- helpers ---- */

/* cluster_init() plus the fields a test sets, then cluster_check(). */
static void make_cluster(struct cluster *c, const struct hw_desc *h, const struct wl_desc *w,
                         double systems, double global_seqs)
{
    cluster_init(c, h, w);
    c->systems = systems;
    c->global_seqs = global_seqs;
    struct cp_error err = {0};
    assert_ok(cluster_check(c, &err), err);
}

/* Every shipped model, by listing the built-in copies (so a model added to
 * models/ is covered without editing this file). */
#define MAX_MODELS 32
static size_t shipped_models(char names[MAX_MODELS][CAT_NAME_MAX])
{
    struct cat_dirs none = {0};
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&none, CAT_MODEL, &l, &err), err);
    assert_true(l.n >= 7 && l.n <= MAX_MODELS);
    for (size_t i = 0; i < l.n; i++)
        snprintf(names[i], CAT_NAME_MAX, "%s", l.items[i].name);
    size_t n = l.n;
    cat_list_free(&l);
    return n;
}

static const char *const all_hw[] = {"cs2", "cs3"};

/* The stream rate step.h states: min(system I/O, SwarmX link, MemoryX). */
static double stream_rate(const struct hw_desc *h)
{
    return fmin(h->wse.io_bw_Bps, fmin(h->swx.link_bw_Bps, h->mx.bw_Bps));
}

/* A tiny model whose layers take microseconds: latency dominates. */
static const char tiny_model[] = "[model]\n"
                                 "name = tiny\n"
                                 "layers = 2\n"
                                 "hidden = 64\n"
                                 "heads = 1\n"
                                 "seq_len = 8\n"
                                 "vocab = 64\n"
                                 "tokens = 1e6\n"
                                 "batch = 1\n";

/* ---- wse ---- */

/* wse.h: u(t) = utilization x t / (t + util_half_tokens).  The shipped
 * utilization is a fitted figure that moves with each calibration, so the
 * expected values here are derived from the loaded value (and, below, from
 * fixture values given through --set). */
static void test_wse_util(void **state)
{
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        const struct wse_spec *w = &h.wse;
        double U = w->utilization;
        assert_true(U > 0 && U <= 1);
        assert_rel(w->util_half_tokens, 2048, 0);
        /* half of the file's utilization at util_half_tokens */
        assert_rel(hw_util(w, 2048), U / 2, 1e-15);
        assert_rel(hw_util(w, 0), 0, 0);
        assert_rel(hw_util(w, 6144), U * 6144 / 8192, 1e-15);
        assert_rel(hw_util(w, 1), U / 2049, 1e-15);
        /* tends to utilization from below */
        double big = hw_util(w, 1e15);
        assert_true(big < U);
        assert_rel(big, U, 1e-11);
        /* increasing in t */
        double prev = 0;
        for (double t = 1; t < 1e9; t *= 3) {
            double u = hw_util(w, t);
            assert_true(u > prev);
            prev = u;
        }
    }
    /* through --set overrides */
    const char *sets[] = {"system.utilization=37 %", "system.util_half_tokens=300"};
    struct hw_desc h;
    load_hw("cs3", sets, 2, &h);
    assert_rel(hw_util(&h.wse, 300), 0.37 / 2, 1e-15);
    assert_rel(hw_util(&h.wse, 1000), 0.37 * 1000 / 1300, 1e-15);
    assert_rel(hw_util(&h.wse, 1e14), 0.37, 1e-11);
}

static void test_wse_compute_time(void **state)
{
    (void)state;
    struct hw_desc h;
    const char *half[] = {"system.utilization=0.5"};
    load_hw("cs2", half, 1, &h);
    /* 7.5 PFLOP/s at u(2048) = 0.25: 1.875 PFLOP/s achieved */
    assert_rel(wse_compute_time(&h.wse, 1.875e15, 2048), 1.0, 1e-15);
    assert_rel(wse_compute_time(&h.wse, 3e15, 6144), 3e15 / (7.5e15 * 0.375), 1e-15);
    assert_rel(wse_compute_time(&h.wse, 0, 2048), 0, 0);
    /* small passes are slower per FLOP */
    assert_true(wse_compute_time(&h.wse, 1e12, 100) > wse_compute_time(&h.wse, 1e12, 1e6));
    /* the shipped CS-3, at its file's utilization U */
    load_hw("cs3", NULL, 0, &h);
    double U = h.wse.utilization;
    assert_rel(wse_compute_time(&h.wse, 1e15, 1e9), 1e15 / (15.84e15 * U * 1e9 / (1e9 + 2048)),
               1e-15);
}

/* wse.h: per sequence, the kept activations of every block (the block
 * input only with recompute, plus one block's full working set), and the
 * s x V logits at act_bytes. */
static void test_tfm_sram_per_seq(void **state)
{
    (void)state;
    struct wl_desc w;
    /* GPT-3 175B, recompute: l x 2 s h + s h (34 + 5 a s / h) + 2 s V */
    load_model("gpt3-175b", NULL, 0, &w);
    assert_int_equal(w.recompute, 1);
    double l = 96, s = 2048, h = 12288, a = 96, V = 50257;
    double want = l * 2 * s * h + s * h * (34 + 5 * a * s / h) + 2 * s * V;
    assert_rel(tfm_sram_per_seq(&w), want, 1e-15);
    assert_rel(tfm_sram_per_seq(&w),
               l * tfm_act_bytes_per_seq_block(&w, 1) + tfm_act_bytes_per_seq_block(&w, 0) +
                   s * V * w.act_bytes,
               1e-15);

    /* GPT-3 XL, no recompute: every block's full activations + logits */
    load_model("gpt3-xl", NULL, 0, &w);
    assert_int_equal(w.recompute, 0);
    l = 24, s = 2048, h = 2048, a = 16, V = 50257;
    want = l * s * h * (34 + 5 * a * s / h) + 2 * s * V;
    assert_rel(tfm_sram_per_seq(&w), want, 1e-15);
    assert_rel(tfm_sram_per_seq(&w), l * tfm_act_bytes_per_seq_block(&w, 0) + s * V * w.act_bytes,
               1e-15);

    /* 32-bit activations double everything */
    const char *fp32[] = {"model.act_bytes=4 B"};
    load_model("gpt3-xl", fp32, 1, &w);
    assert_rel(tfm_sram_per_seq(&w), 2 * want, 1e-15);
}

static void test_wse_max_seqs(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    double per = 96 * 2 * 2048 * 12288.0 + 2048 * 12288.0 * (34 + 5 * 96 * 2048 / 12288.0) +
                 2 * 2048 * 50257.0;
    /* the stream buffers: two chunks each way */
    double buf = 4 * h.swx.chunk_bytes;
    assert_rel(step_buffer_bytes(&h), 4e6, 0);
    assert_rel(wse_max_seqs(&h.wse, &w, buf), floor((40e9 - 4e6) / per), 0);
    assert_rel(wse_max_seqs(&h.wse, &w, buf), 5, 0);

    /* exactly at the boundary, and one byte short of it */
    struct wse_spec ws = h.wse;
    ws.sram_bytes = buf + 3 * per;
    assert_rel(wse_max_seqs(&ws, &w, buf), 3, 0);
    ws.sram_bytes = buf + 3 * per - 1;
    assert_rel(wse_max_seqs(&ws, &w, buf), 2, 0);
    ws.sram_bytes = buf + per - 1;
    assert_rel(wse_max_seqs(&ws, &w, buf), 0, 0);
    /* buffers filling (or exceeding) the SRAM leave no room */
    assert_rel(wse_max_seqs(&h.wse, &w, 40e9), 0, 0);
    assert_rel(wse_max_seqs(&h.wse, &w, 80e9), 0, 0);

    /* a large SRAM through --set */
    const char *big[] = {"system.sram=1 PB"};
    load_hw("cs2", big, 1, &h);
    assert_rel(wse_max_seqs(&h.wse, &w, buf), floor((1e15 - 4e6) / per), 0);
}

static void test_wse_largest_matmul(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    assert_rel(wse_largest_matmul(&w), 50257, 0); /* vocab > 4h = 49152 */
    load_model("10t", NULL, 0, &w);
    assert_rel(wse_largest_matmul(&w), 4 * 49152, 0);
    load_model("llama2-70b", NULL, 0, &w);
    assert_rel(wse_largest_matmul(&w), 32000, 0); /* vocab > ffn 28672 */
}

/* ---- swx ---- */

/* swx.h: depth = ceil(log_k N), 0 for one system. */
static void test_swx_depth(void **state)
{
    (void)state;
    static const double n[] = {1, 2, 3, 4, 5, 16, 17, 192, 2048};
    static const double d2[] = {0, 1, 2, 2, 3, 4, 5, 8, 11};
    static const double d4[] = {0, 1, 1, 1, 2, 2, 3, 4, 6};
    struct hw_desc h2, h4;
    load_hw("cs2", NULL, 0, &h2);
    load_hw("cs3", NULL, 0, &h4);
    assert_rel(h2.swx.fanout, 2, 0);
    assert_rel(h4.swx.fanout, 4, 0);
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        assert_rel(swx_depth(&h2.swx, n[i]), d2[i], 0);
        assert_rel(swx_depth(&h4.swx, n[i]), d4[i], 0);
    }
    /* exact at every power of the fan-out and one past it, where a
     * floating-point log would round the wrong way */
    for (int k = 2; k <= 4; k++) {
        struct swx_spec s = h2.swx;
        s.fanout = k;
        double p = 1;
        for (int d = 0; p * k <= CLUSTER_MAX_SYSTEMS; d++) {
            assert_rel(swx_depth(&s, p), d, 0);
            assert_rel(swx_depth(&s, p + 1), d + 1, 0);
            p *= k;
        }
    }
}

static void test_swx_latency(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h);
    /* 2 us per level + 1 MB at 1.2 Tb/s (150 GB/s) */
    double level = 2e-6 + 1e6 / 150e9;
    assert_rel(swx_latency(&h.swx, 1), 0, 0);
    assert_rel(swx_latency(&h.swx, 2), level, 1e-15);
    assert_rel(swx_latency(&h.swx, 2048), 11 * level, 1e-15);
    load_hw("cs3", NULL, 0, &h);
    assert_rel(swx_latency(&h.swx, 2048), 6 * level, 1e-15);
    const char *sets[] = {"swarmx.hop_latency=1 ms", "swarmx.chunk=4 MB",
                          "swarmx.link_bandwidth=400 GB/s"};
    load_hw("cs3", sets, 3, &h);
    assert_rel(swx_latency(&h.swx, 17), 3 * (1e-3 + 4e6 / 400e9), 1e-15);
}

/* swx.h: ceil(N/k) + ceil(N/k^2) + ... + 1 nodes. */
static void test_swx_nodes(void **state)
{
    (void)state;
    struct hw_desc h2, h4;
    load_hw("cs2", NULL, 0, &h2);
    load_hw("cs3", NULL, 0, &h4);
    assert_rel(swx_nodes(&h2.swx, 1), 0, 0); /* no tree */
    assert_rel(swx_nodes(&h2.swx, 2), 1, 0);
    assert_rel(swx_nodes(&h2.swx, 5), 3 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 16), 8 + 4 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 192), 96 + 48 + 24 + 12 + 6 + 3 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 2048), 2047, 0);
    assert_rel(swx_nodes(&h4.swx, 4), 1, 0);
    assert_rel(swx_nodes(&h4.swx, 17), 5 + 2 + 1, 0);
    assert_rel(swx_nodes(&h4.swx, 2048), 512 + 128 + 32 + 8 + 2 + 1, 0);
}

/* ---- mx ---- */

static void test_mx_bytes_per_param(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    assert_rel(mx_part_bytes(&w, MX_WEIGHT), 2, 0);
    assert_rel(mx_part_bytes(&w, MX_MASTER), 4, 0);
    assert_rel(mx_part_bytes(&w, MX_OPTIMIZER), 8, 0);
    assert_rel(mx_part_bytes(&w, MX_GRAD_ACCUM), 4, 0);
    assert_rel(mx_bytes_per_param(&w), 2 + 4 + 8 + 4, 0);
    assert_string_equal(mx_part_name[MX_GRAD_ACCUM], "grad_accum");

    /* the accumulator follows the master precision */
    const char *sets[] = {"model.master_bytes=2 B", "model.optimizer_bytes=0 B",
                          "model.weight_bytes=1 B"};
    load_model("gpt3-175b", sets, 3, &w);
    assert_rel(mx_part_bytes(&w, MX_GRAD_ACCUM), 2, 0);
    assert_rel(mx_bytes_per_param(&w), 1 + 2 + 0 + 2, 0);
}

/* mx.h: a tier's first memoryx.dram bytes are DRAM, the rest flash. */
static void test_mx_flash_fraction(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h); /* dram 4 TB */
    assert_rel(mx_flash_fraction(&h.mx, 4e12, 3e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 4e12, 4e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 2.4e15, 4e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 2.4e15, 8e12), 0.5, 1e-15);
    assert_rel(mx_flash_fraction(&h.mx, 2.4e15, 2.16e15), (2.16e15 - 4e12) / 2.16e15, 1e-15);
    /* a tier smaller than the DRAM part is all DRAM */
    load_hw("cs3", NULL, 0, &h); /* dram 55 TB */
    assert_rel(mx_flash_fraction(&h.mx, 12e12, 10e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 12e12, 20e12), 8.0 / 20, 1e-15);
    assert_rel(mx_flash_fraction(&h.mx, 1.2e15, 55e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 1.2e15, 110e12), 0.5, 1e-15);
}

/* mx.h: max(p x flop/param / update_flops, p x 2 x state x (dram share /
 * dram_bandwidth + flash share / flash_bandwidth)). */
static void test_mx_update_time(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w); /* 18 B of state */
    double p = 1e9;

    /* the shipped CS-2 figures balance the two: 12 FLOP at 1 TFLOP/s and
     * 36 B at 3 TB/s are both 12 ps per parameter */
    load_hw("cs2", NULL, 0, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 12e-12, 1e-12);

    /* FLOP-bound: a slow optimizer */
    const char *slow[] = {"memoryx.update_flops=100 GFLOP/s"};
    load_hw("cs2", slow, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 12 / 100e9, 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), 0.12, 1e-15);

    /* memory-bound: slow DRAM */
    const char *dram[] = {"memoryx.dram_bandwidth=1 TB/s"};
    load_hw("cs2", dram, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 2 * 18 / 1e12, 1e-15);
    /* with a quarter on flash, and all of it */
    load_hw("cs2", NULL, 0, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0.25), p * 36 * (0.75 / 3e12 + 0.25 / 50e9), 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, p, 1), p * 36 / 50e9, 1e-15);
    /* ...unless the optimizer is slower still */
    const char *slower[] = {"memoryx.update_flops=1 GFLOP/s"};
    load_hw("cs2", slower, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 1), p * 12 / 1e9, 1e-15);

    /* smaller state per parameter halves the memory time */
    const char *lean[] = {"model.master_bytes=2 B", "model.optimizer_bytes=3 B"};
    load_model("gpt3-175b", lean, 2, &w); /* 2 + 2 + 3 + 2 = 9 B */
    load_hw("cs2", dram, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 2 * 9 / 1e12, 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, 0, 0), 0, 0);
}

static void test_mx_smallest_tier(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h); /* 4 TB, 2.4 PB */
    assert_int_equal(mx_smallest_tier(&h.mx, 1), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 4e12), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 4e12 + 1), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 2.4e15), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 2.5e15), -1);
    load_hw("cs3", NULL, 0, &h); /* 1.5, 12, 55 TB, 1.2 PB */
    assert_int_equal(mx_smallest_tier(&h.mx, 3.15e12), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 20e12), 2);
    assert_int_equal(mx_smallest_tier(&h.mx, 100e12), 3);
    /* the smallest, not the first: a tier added last through --set */
    const char *sets[] = {"tiers.tiny=1 TB", "tiers.mid=10 TB"};
    load_hw("cs2", sets, 2, &h);
    assert_int_equal(mx_smallest_tier(&h.mx, 0.5e12), 2);
    assert_int_equal(mx_smallest_tier(&h.mx, 3e12), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 5e12), 3);
    h.mx.tiers.n = 0;
    assert_int_equal(mx_smallest_tier(&h.mx, 1), -1);
}

/* ---- sparsity ---- */

static void test_sparse_factors(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h); /* index 0.5 B, overhead 0.02 */
    const struct sp_spec *sp = &h.sp;
    assert_true(hw_sparse_compute(sp, 0) == 1.0);
    assert_true(hw_sparse_stream(sp, 0, 2) == 1.0);
    assert_true(hw_sparse_stream(sp, 0, 1) == 1.0);

    static const double s[] = {0.3, 0.5, 0.75, 0.9, 0.99};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        double d = 1 - s[i];
        assert_rel(hw_sparse_compute(sp, s[i]), d + 0.02, 1e-15);
        assert_rel(hw_sparse_stream(sp, s[i], 2), d * 1.25 + 0.02, 1e-15);
        assert_rel(hw_sparse_stream(sp, s[i], 4), d * 1.125 + 0.02, 1e-15);
    }
    /* capped at 1: at 10% sparsity value + index is larger than dense */
    assert_true(hw_sparse_stream(sp, 0.1, 2) == 1.0);
    assert_true(hw_sparse_stream(sp, 0.1, 1) == 1.0);
    assert_true(hw_sparse_compute(sp, 0.01) == 1.0);
    assert_rel(hw_sparse_compute(sp, 0.1), 0.92, 1e-15);

    /* never below density, never above 1, never rising with sparsity */
    double pc = 1, ps = 1;
    for (int k = 0; k <= 99; k++) {
        double x = k / 100.0, d = 1 - x;
        double c = hw_sparse_compute(sp, x), f = hw_sparse_stream(sp, x, 2);
        assert_true(c >= d && c <= 1 && c <= pc);
        assert_true(f >= d && f <= 1 && f <= ps);
        assert_true(f >= c); /* indices only add */
        pc = c;
        ps = f;
    }

    /* no overhead and no index: exactly the density */
    const char *ideal[] = {"sparsity.overhead=0", "sparsity.index_bytes=0 B"};
    load_hw("cs3", ideal, 2, &h);
    for (int k = 1; k <= 99; k++) {
        double x = k / 100.0;
        assert_rel(hw_sparse_compute(&h.sp, x), 1 - x, 1e-15);
        assert_rel(hw_sparse_stream(&h.sp, x, 2), 1 - x, 1e-15);
    }
}

/* ---- step limits ---- */

/* One sequence per system, GPT-3 175B: the wafer does 8 x 175e9 x 2048
 * FLOP at a quarter of peak in ~1.5 s (CS-2), the weights need 2 x 350 GB
 * at 150 GB/s = 4.7 s.  Every layer streams its weights in for the forward
 * and again for the backward pass, so the step is 2 x weight bytes / rate,
 * plus little: the gradients stream out during the backward pass in the
 * opposite direction (same size, so they overlap fully), the logits layer
 * streams the tied vocab x hidden matrix a second time (0.35% of the
 * weights), and the embedding's update at the boundary and the fill and
 * drain latencies add milliseconds.  Hence within 2% and never below. */
static void test_step_stream_bound(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    static const double systems[] = {1, 16, 1024};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double bw = stream_rate(&h);
        assert_rel(bw, 150e9, 1e-15);
        double bound = 2 * tfm_weight_bytes(&w) / bw;
        for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
            struct cluster c;
            struct step_result r;
            make_cluster(&c, &h, &w, systems[j], systems[j]);
            step_eval(&c, &r);
            assert_rel(r.local_seqs, 1, 0);
            assert_rel(r.micro_batches, 1, 0);
            assert_rel(r.micro_tokens, 2048, 0);
            assert_rel(r.stream_bw, bw, 0);
            assert_true(r.step_s >= bound);
            assert_rel(r.step_s, bound, 0.02);
            assert_int_equal(r.bottleneck, STEP_STREAM_IN);
            assert_true(r.busy[STEP_COMPUTE] < 0.5 * r.step_s);
        }
    }

    /* Precisions that break the symmetry.  8-bit gradients: the weights
     * still stream in for the forward and again for the backward pass, so
     * the bound is unchanged.  32-bit gradients: the backward pass waits
     * for gradients out (2 x the weight bytes), so the step is weights in
     * once plus gradients out once, (2 + 4) B per parameter. */
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h);
    const char *g1[] = {"model.grad_bytes=1 B"};
    const char *g4[] = {"model.grad_bytes=4 B"};
    struct cluster c;
    struct step_result r;
    load_model("gpt3-175b", g1, 1, &w);
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    double bound = 2 * tfm_weight_bytes(&w) / 150e9;
    assert_true(r.step_s >= bound);
    assert_rel(r.step_s, bound, 0.02);
    assert_int_equal(r.bottleneck, STEP_STREAM_IN);
    load_model("gpt3-175b", g4, 1, &w);
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    bound = (tfm_weight_bytes(&w) + tfm_grad_bytes(&w)) / 150e9;
    assert_rel(tfm_grad_bytes(&w), 2 * tfm_weight_bytes(&w), 1e-15);
    assert_true(r.step_s >= bound);
    assert_rel(r.step_s, bound, 0.02);
    assert_int_equal(r.bottleneck, STEP_STREAM_OUT);
}

/* A huge local batch (4096 sequences per system, made to fit in SRAM with
 * system.sram = 1 PB) at a tiny util_half_tokens runs at the file's
 * utilization: the step is the training FLOPs of its tokens over
 * peak x utilization.  The streams (2 x 2.6 GB per step for GPT-3 XL) hide
 * under the compute of every block; what is left is the embedding layer,
 * which has no compute (its weights in and gradients out, ~3 ms), the
 * embedding's update at the boundary (~1 ms) and the fill and drain, about
 * 2e-4 of the 19 s step, and util 1 / 8.4e6 below its limit: within 1e-3. */
static void test_step_compute_bound(void **state)
{
    (void)state;
    const char *sets[] = {"system.sram=1 PB", "system.util_half_tokens=1"};
    static const struct {
        const char *model;
        double seqs; /* per system */
    } m[] = {{"gpt3-xl", 4096}, {"llama2-70b", 512}, {"gpt3-175b", 1024}};
    static const double systems[] = {1, 8};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], sets, 2, &h);
        for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
            struct wl_desc w;
            load_model(m[k].model, NULL, 0, &w);
            for (size_t j = 0; j < 2; j++) {
                struct cluster c;
                struct step_result r;
                make_cluster(&c, &h, &w, systems[j], systems[j] * m[k].seqs);
                step_eval(&c, &r);
                assert_rel(r.micro_batches, 1, 0);
                double tokens = m[k].seqs * w.seq_len; /* per system per step */
                double flops = tfm_train_flops_per_token(&w, w.recompute) * tokens;
                double want = flops / (h.wse.peak_flops * h.wse.utilization);
                assert_true(r.step_s >= want);
                assert_rel(r.step_s, want, 1e-3);
                assert_rel(r.busy[STEP_COMPUTE], want, 1e-6);
                assert_int_equal(r.bottleneck, STEP_COMPUTE);
            }
        }
    }
}

/* A tiny model (2 blocks of width 64, 8-token sequences) on 65536 CS-2s
 * with 1 ms per tree level: 16 levels each way, ~32 ms of exposed latency
 * against microseconds of compute and streaming. */
static void test_step_latency_bound(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(tiny_model, NULL, 0, &w);
    const char *sets[] = {"swarmx.hop_latency=1 ms"};
    struct hw_desc h;
    load_hw("cs2", sets, 1, &h);
    double bw = stream_rate(&h);
    double n = 65536;
    struct cluster c;
    struct step_result r;
    make_cluster(&c, &h, &w, n, n);
    step_eval(&c, &r);

    double level = 1e-3 + 1e6 / h.swx.link_bw_Bps;
    double fill = 16 * level + 1e6 / bw; /* broadcast + one chunk */
    assert_rel(r.fill_s, fill, 1e-14);
    assert_rel(r.drain_s, 16 * level, 1e-14); /* the last gradient chunk up */
    /* boundary: the update of the last chunk of the embedding (smaller than
     * a chunk here: all of it, at 12 ps a parameter), overlap 0 */
    double embed = 64 * 64 + 8 * 64 + 2 * 64; /* tokens, positions, final norm */
    assert_rel(r.boundary_s, embed * 12e-12, 1e-12);
    assert_rel(r.hidden_s, 0, 0);
    double exposed = fill + 16 * level + embed * 12e-12;
    assert_rel(r.busy[STEP_LATENCY], exposed, 1e-12);
    assert_rel(r.critical[STEP_LATENCY], exposed, 1e-12);
    assert_int_equal(r.bottleneck, STEP_LATENCY);
    assert_true(r.step_s >= exposed);
    assert_rel(r.step_s, exposed, 1e-3);

    /* overlap 1 hides at most the embedding's backward (its weights in,
     * gradients out, update: the longest), here far less than the trip */
    c.overlap = 1;
    step_eval(&c, &r);
    double first = fmax(embed * 12e-12, embed * 2 / bw);
    assert_rel(r.first_bwd_s, first, 1e-12);
    assert_rel(r.hidden_s, first, 1e-12);
    assert_rel(r.busy[STEP_LATENCY], exposed - first, 1e-12);
    /* a long first layer hides the whole boundary */
    c.overlap = 0.5;
    struct wl_desc wide = w;
    wide.vocab = 5e8;
    c.wl = &wide;
    step_eval(&c, &r);
    assert_true(r.first_bwd_s * 0.5 > r.fill_s + r.drain_s + r.boundary_s);
    assert_rel(r.busy[STEP_LATENCY], 0, 0);
    c.wl = &w;
    c.overlap = 0;

    /* fewer systems, shallower tree */
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    assert_rel(r.fill_s, 1e6 / bw, 1e-14);
    make_cluster(&c, &h, &w, 1024, 1024);
    step_eval(&c, &r);
    assert_rel(r.fill_s, 10 * level + 1e6 / bw, 1e-14);
}

/* ---- sparsity through the step ---- */

static void test_step_sparsity_zero_is_dense(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            struct cluster a, b;
            struct step_result ra, rb;
            cluster_init(&a, &h, &w); /* never touched */
            cluster_init(&b, &h, &w);
            b.sparsity = 0.0;
            step_eval(&a, &ra);
            step_eval(&b, &rb);
            assert_memory_equal(&ra.step_s, &rb.step_s, sizeof ra.step_s);
            assert_true(ra.step_s == rb.step_s);
            assert_true(ra.step_s / rb.step_s == 1.0);
        }
    }
}

/* Speedup step(0) / step(s): above 1 where sparsity lightens the
 * bottleneck, below 1 / (1 - s) always (the overhead, the dense
 * embeddings, logits, norms and attention). */
static void test_step_sparsity_speedup(void **state)
{
    (void)state;
    static const double s[] = {0.05, 0.25, 0.5, 0.75, 0.9, 0.99};
    const char *big[] = {"system.sram=1 PB", "system.util_half_tokens=1"};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc hc, hs;
        struct wl_desc xl, g3;
        load_hw(all_hw[i], big, 2, &hc);
        load_hw(all_hw[i], NULL, 0, &hs);
        load_model("gpt3-xl", NULL, 0, &xl);
        load_model("gpt3-175b", NULL, 0, &g3);

        /* compute-bound: every s > 0 helps */
        struct cluster c;
        struct step_result r0, r;
        make_cluster(&c, &hc, &xl, 2, 2 * 4096);
        step_eval(&c, &r0);
        assert_int_equal(r0.bottleneck, STEP_COMPUTE);
        for (size_t k = 0; k < sizeof s / sizeof s[0]; k++) {
            c.sparsity = s[k];
            step_eval(&c, &r);
            double sp = r0.step_s / r.step_s;
            assert_true(sp > 1);
            assert_true(sp < 1 / (1 - s[k]));
            assert_true(sp < 1 / (1 - s[k] + hc.sp.overhead));
        }

        /* stream-bound (one sequence per system): helps once the sparse
         * format streams fewer bytes than dense */
        make_cluster(&c, &hs, &g3, 4, 4);
        step_eval(&c, &r0);
        assert_int_equal(r0.bottleneck, STEP_STREAM_IN);
        c.sparsity = 0.1; /* 0.9 x 1.25 + 0.02 > 1: streams dense */
        step_eval(&c, &r);
        assert_rel(r.step_s, r0.step_s, 1e-14);
        for (size_t k = 1; k < sizeof s / sizeof s[0]; k++) {
            c.sparsity = s[k];
            step_eval(&c, &r);
            double sp = r0.step_s / r.step_s;
            assert_true(sp > 1);
            assert_true(sp < 1 / (1 - s[k]));
        }
    }
}

/* ---- weak scaling ---- */

/* Weak scaling keeps the sequences per system, so each system's work per
 * step is unchanged and only the tree deepens: tokens/s at N systems is
 * never more than N times that of one. */
static void test_weak_scaling_at_most_linear(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            struct cluster base;
            make_cluster(&base, &h, &w, 1, w.batch);
            struct train_result r1, rn;
            train_at(&base, 1, SCALE_WEAK, &r1);
            assert_rel(r1.global_tokens, w.batch * w.seq_len, 0);
            for (double n = 2; n <= 2048; n *= 2) {
                train_at(&base, n, SCALE_WEAK, &rn);
                assert_rel(rn.step.local_seqs, w.batch, 0);
                assert_rel(rn.global_tokens, n * w.batch * w.seq_len, 0);
                double speedup = rn.tokens_per_s / r1.tokens_per_s;
                if (!(speedup <= n)) {
                    print_error("%s on %s: weak speedup %.17g at N = %g\n", models[k], all_hw[i],
                                speedup, n);
                    fail();
                }
                assert_true(speedup > 0.5 * n);
            }
        }
    }

    /* from a base of several systems: the per-system batch is kept */
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster base;
    struct train_result r4, r64;
    make_cluster(&base, &h, &w, 4, 1536);
    train_at(&base, 4, SCALE_WEAK, &r4);
    train_at(&base, 64, SCALE_WEAK, &r64);
    assert_rel(r64.step.local_seqs, 384, 0);
    assert_rel(r64.global_tokens, 64 * 384 * 2048.0, 0);
    assert_true(r64.tokens_per_s / r4.tokens_per_s <= 16);
    /* strong scaling keeps the global batch */
    train_at(&base, 64, SCALE_STRONG, &r64);
    assert_rel(r64.step.local_seqs, 1536 / 64.0, 0);
    assert_rel(r64.global_tokens, 1536 * 2048.0, 0);
}

/* ---- physical bounds and the critical path ---- */

static void test_step_bounds_and_critical_sum(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 3, 64, 2048};
    static const double sparsity[] = {0, 0.6};
    int n = 0;
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                for (size_t q = 0; q < 2; q++) {
                    for (int batch = 0; batch < 2; batch++) {
                        struct cluster c;
                        struct step_result r;
                        make_cluster(&c, &h, &w, systems[j], batch ? w.batch : 1);
                        c.sparsity = sparsity[q];
                        step_eval(&c, &r);
                        double tol = 1 + 1e-12;
                        assert_true(r.step_s > 0 && isfinite(r.step_s));
                        assert_true(r.step_s * tol >= r.busy[STEP_COMPUTE]);
                        assert_true(r.step_s * tol >= r.busy[STEP_STREAM_IN]);
                        assert_true(r.step_s * tol >= r.busy[STEP_STREAM_OUT]);
                        assert_true(r.step_s * tol >= r.busy[STEP_UPDATE]);
                        double sum = 0;
                        for (int e = 0; e < STEP_NRES; e++) {
                            assert_true(r.critical[e] >= 0);
                            assert_true(r.critical[e] <= r.busy[e] * tol);
                            assert_true(r.critical[e] <= r.critical[r.bottleneck]);
                            sum += r.critical[e];
                        }
                        assert_rel(sum, r.step_s, 1e-12);
                        assert_rel(r.busy[STEP_LATENCY], r.fill_s + r.drain_s + r.boundary_s,
                                   1e-15);
                        assert_rel(r.busy[STEP_COMPUTE],
                                   r.pass_s[TFM_FWD] + r.pass_s[TFM_DELTA] + r.pass_s[TFM_WGRAD] +
                                       r.recompute_s,
                                   1e-15);
                        n++;
                    }
                }
            }
        }
    }
    assert_int_equal(n, 2 * nm * 4 * 2 * 2);
}

/* The physical bounds computed here from their definitions: all training
 * FLOPs at peak x utilization, and every weight byte in twice per
 * micro-batch at the stream rate. */
static void test_step_above_physical_bounds(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 16, 512};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double bw = stream_rate(&h);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                struct cluster c;
                struct step_result r;
                make_cluster(&c, &h, &w, systems[j], w.batch);
                step_eval(&c, &r);
                double tokens = w.batch / systems[j] * w.seq_len;
                double compute = tfm_train_flops_per_token(&w, w.recompute) * tokens /
                                 (h.wse.peak_flops * h.wse.utilization);
                double stream = r.micro_batches * 2 * tfm_weight_bytes(&w) / bw;
                assert_true(r.step_s >= compute);
                assert_true(r.step_s >= stream);
            }
        }
    }
}

/* ---- training ---- */

static void test_train_time_energy_cost(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster c;
    struct train_result r;
    make_cluster(&c, &h, &w, 16, 1536);
    train_eval(&c, &r);

    double steps = 300e9 / (1536 * 2048.0);
    assert_rel(r.global_tokens, 1536 * 2048.0, 0);
    assert_rel(r.tokens, 300e9, 1e-15);
    assert_rel(r.steps, steps, 1e-15);
    assert_rel(r.time_s, steps * r.step.step_s, 1e-15);
    assert_rel(r.tokens_per_s, 1536 * 2048.0 / r.step.step_s, 1e-15);
    /* 16 x 23 kW + 20 kW MemoryX + (8 + 4 + 2 + 1) x 1 kW SwarmX */
    assert_rel(r.power_W, 16 * 23e3 + 20e3 + 15e3, 1e-15);
    assert_rel(r.energy_J, r.power_W * r.time_s, 1e-15);
    assert_true(r.cost < 0); /* no price */
    assert_rel(r.params, tfm_params(&w), 0);
    assert_rel(r.bytes_per_param, 18, 0);
    assert_rel(r.state_bytes, 18 * tfm_params(&w), 1e-15);

    c.price = 12.5; /* per system-hour */
    train_eval(&c, &r);
    assert_rel(r.cost, 16 * r.time_s / 3600 * 12.5, 1e-15);
    c.price = 0;
    train_eval(&c, &r);
    assert_rel(r.cost, 0, 0);

    /* explicit tokens */
    c.price = -1;
    c.tokens = 1e12;
    train_eval(&c, &r);
    assert_rel(r.steps, 1e12 / (1536 * 2048.0), 1e-15);
    assert_rel(r.time_s, r.steps * r.step.step_s, 1e-15);
}

/* train.h: L = (loss_params / P)^loss_exponent, B_crit = critical_tokens /
 * L^(1 / critical_exponent); with the penalty the tokens scale by
 * (1 + B / B_crit) / (1 + B_ref / B_crit). */
static void test_train_critical_batch_and_penalty(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    double P = tfm_params(&w);
    double L = pow(8.8e13 / P, 0.076);
    double bcrit = 2e8 / pow(L, 1 / 0.21);
    struct cluster c;
    struct train_result r;
    make_cluster(&c, &h, &w, 4, 1536);
    train_eval(&c, &r);
    assert_rel(r.loss, L, 1e-14);
    assert_rel(r.critical_tokens, bcrit, 1e-13);
    assert_true(bcrit > 1e7 && bcrit < 5e7); /* ~2e7 tokens for 175B */
    assert_rel(r.token_factor, 1, 0);        /* penalty off */
    assert_int_equal(r.batch_ok, 1);
    assert_false(r.warnings & TW_CRIT_BATCH);

    /* penalty on at the reference batch: exactly 1 */
    c.batch_penalty = 1;
    train_eval(&c, &r);
    assert_rel(r.token_factor, 1, 0);
    assert_rel(r.tokens, 300e9, 1e-15);

    /* above it: more tokens, by the formula */
    double ref = 1536 * 2048.0;
    static const double seqs[] = {3072, 12288, 49152};
    double prev = 1;
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
        c.global_seqs = seqs[i];
        train_eval(&c, &r);
        double B = seqs[i] * 2048;
        double f = (1 + B / bcrit) / (1 + ref / bcrit);
        assert_true(r.token_factor > prev);
        assert_rel(r.token_factor, f, 1e-14);
        assert_rel(r.tokens, 300e9 * f, 1e-14);
        assert_rel(r.steps, 300e9 * f / B, 1e-14);
        assert_int_equal(r.batch_ok, B <= bcrit);
        assert_int_equal(!!(r.warnings & TW_CRIT_BATCH), B > bcrit);
        prev = r.token_factor;
    }
    assert_false(r.batch_ok); /* 100 M tokens is far above B_crit */

    /* below it: fewer */
    c.global_seqs = 512;
    train_eval(&c, &r);
    assert_true(r.token_factor < 1);
    /* off again: the batch does not change the tokens */
    c.batch_penalty = 0;
    c.global_seqs = 49152;
    train_eval(&c, &r);
    assert_rel(r.token_factor, 1, 0);
    assert_rel(r.tokens, 300e9, 1e-15);
}

static void test_train_verdicts_120t(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("120t", NULL, 0, &w);
    struct cluster c;
    struct train_result r;
    char buf[256];

    /* default 4 TB tier: 120e12 x 18 B = 2.16 PB does not fit */
    make_cluster(&c, &h, &w, 1, w.batch);
    train_eval(&c, &r);
    double state_bytes = tfm_params(&w) * 18;
    assert_rel(r.state_bytes, state_bytes, 1e-15);
    assert_true(state_bytes > 4e12 && state_bytes <= 2.4e15);
    assert_int_equal(r.memoryx_fits, 0);
    assert_true(r.warnings & TW_MEMORYX);
    assert_int_equal(r.feasible, 0);

    /* SRAM: one sequence keeps 1036 block inputs (2 s h each), one block's
     * full working set and the logits; it fits if 40 GB less the 4 MB of
     * stream buffers holds it (it does not: ~417 GB) */
    double s = 2048, hd = 98304, a = 768, V = 51200;
    double per = 1036 * 2 * s * hd + s * hd * (34 + 5 * a * s / hd) + 2 * s * V;
    int fits = (40e9 - 4e6) / per >= 1;
    assert_rel(r.sram_per_seq, per, 1e-15);
    assert_int_equal(r.sram_fits, fits);
    assert_int_equal(!!(r.warnings & TW_SRAM), !fits);
    assert_false(fits);
    /* the FFN (393216) needs blocking */
    assert_rel(r.matmul_dim, 4 * hd, 0);
    assert_int_equal(r.matmul_fits, 0);
    assert_true(r.warnings & TW_MATMUL);

    /* the 2.4 PB tier holds it, mostly on flash */
    c.memoryx_bytes = 2.4e15;
    train_eval(&c, &r);
    assert_int_equal(r.memoryx_fits, 1);
    assert_false(r.warnings & TW_MEMORYX);
    assert_true(r.warnings & TW_FLASH);
    assert_rel(r.step.flash_fraction, (state_bytes - 4e12) / state_bytes, 1e-14);
    assert_int_equal(r.feasible, fits && r.split_ok);

    /* with SRAM to spare the same configuration is feasible */
    const char *big[] = {"system.sram=1 TB"};
    struct hw_desc hb;
    load_hw("cs2", big, 1, &hb);
    c.hw = &hb;
    train_eval(&c, &r);
    assert_int_equal(r.sram_fits, 1);
    assert_rel(r.step.max_seqs, floor((1e12 - 4e6) / per), 0);
    assert_int_equal(r.feasible, 1);
    assert_true(r.warnings & TW_ACCUM); /* 3072 sequences, 2 at a time */
    assert_string_equal(train_warn_names(TW_MEMORYX | TW_FLASH, buf, sizeof buf),
                        "memoryx_full;state_on_flash");
    assert_string_equal(train_warn_names(0, buf, sizeof buf), "");
}

static void test_train_verdicts_other(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster c;
    struct train_result r;

    /* 175e9 x 18 = 3.15 TB in 4 TB, 5 sequences fit, 96 per system */
    make_cluster(&c, &h, &w, 16, 1536);
    train_eval(&c, &r);
    assert_int_equal(r.memoryx_fits, 1);
    assert_int_equal(r.sram_fits, 1);
    assert_int_equal(r.split_ok, 1);
    assert_int_equal(r.matmul_fits, 1);
    assert_int_equal(r.feasible, 1);
    assert_false(r.warnings & TW_INFEASIBLE);
    assert_false(r.warnings & TW_FLASH);
    assert_rel(r.step.micro_batches, ceil(96 / 5.0), 0);
    assert_true(r.warnings & TW_ACCUM);

    /* the stream-balance point: a block's forward pass (at peak x
     * utilization) takes as long as its weights streamed in once at
     * 150 GB/s */
    double balance = tfm_block_params(&w) * 2 / 150e9 * 7.5e15 * 0.5 / tfm_block_flops(&w, TFM_FWD);
    assert_rel(r.balance_tokens, balance, 1e-14);
    assert_int_equal(r.stream_balanced, r.step.micro_tokens >= balance);
    assert_int_equal(!!(r.warnings & TW_STREAM), r.step.micro_tokens < balance);

    /* more systems than sequences */
    make_cluster(&c, &h, &w, 2048, 1536);
    train_eval(&c, &r);
    assert_int_equal(r.split_ok, 0);
    assert_true(r.warnings & TW_SPLIT);
    assert_int_equal(r.feasible, 0);
    /* exactly one each */
    make_cluster(&c, &h, &w, 1536, 1536);
    train_eval(&c, &r);
    assert_int_equal(r.split_ok, 1);
    assert_int_equal(r.feasible, 1);
    assert_false(r.warnings & TW_ACCUM);
}

static void test_cluster_check(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("llama2-70b", NULL, 0, &w);
    struct cluster c;
    struct cp_error err = {0};

    cluster_init(&c, &h, &w);
    assert_rel(c.systems, 1, 0);
    assert_rel(c.memoryx_bytes, 12e12, 0);
    assert_rel(c.sparsity, 0, 0);
    assert_rel(c.global_seqs, 1024, 0);
    assert_rel(c.ref_seqs, 1024, 0);
    assert_rel(c.tokens, 2e12, 0);
    assert_true(c.price < 0);
    assert_int_equal(c.batch_penalty, 0);
    assert_ok(cluster_check(&c, &err), err);

    static const struct {
        double systems, sparsity, batch;
        const char *flag;
    } bad[] = {
        {0, 0, 1024, "--systems"},     {1.5, 0, 1024, "--systems"},  {2e6, 0, 1024, "--systems"},
        {-1, 0, 1024, "--systems"},    {NAN, 0, 1024, "--systems"},  {1, 0.995, 1024, "--sparsity"},
        {1, -0.1, 1024, "--sparsity"}, {1, NAN, 1024, "--sparsity"}, {1, 0, 0, "--batch"},
        {1, 0, 2.5, "--batch"},        {1, 0, INFINITY, "--batch"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cluster_init(&c, &h, &w);
        c.systems = bad[i].systems;
        c.sparsity = bad[i].sparsity;
        c.global_seqs = bad[i].batch;
        memset(&err, 0, sizeof err);
        assert_int_equal(cluster_check(&c, &err), CP_EINPUT);
        if (!strstr(err.msg, bad[i].flag)) {
            print_error("case %zu: message '%s' does not name %s\n", i, err.msg, bad[i].flag);
            fail();
        }
    }
    /* the limits themselves are accepted */
    cluster_init(&c, &h, &w);
    c.systems = CLUSTER_MAX_SYSTEMS;
    c.sparsity = CLUSTER_MAX_SPARSITY;
    c.global_seqs = 1;
    assert_ok(cluster_check(&c, &err), err);
    c.price = NAN;
    assert_int_equal(cluster_check(&c, &err), CP_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wse_util),
        cmocka_unit_test(test_wse_compute_time),
        cmocka_unit_test(test_tfm_sram_per_seq),
        cmocka_unit_test(test_wse_max_seqs),
        cmocka_unit_test(test_wse_largest_matmul),
        cmocka_unit_test(test_swx_depth),
        cmocka_unit_test(test_swx_latency),
        cmocka_unit_test(test_swx_nodes),
        cmocka_unit_test(test_mx_bytes_per_param),
        cmocka_unit_test(test_mx_flash_fraction),
        cmocka_unit_test(test_mx_update_time),
        cmocka_unit_test(test_mx_smallest_tier),
        cmocka_unit_test(test_sparse_factors),
        cmocka_unit_test(test_step_stream_bound),
        cmocka_unit_test(test_step_compute_bound),
        cmocka_unit_test(test_step_latency_bound),
        cmocka_unit_test(test_step_sparsity_zero_is_dense),
        cmocka_unit_test(test_step_sparsity_speedup),
        cmocka_unit_test(test_weak_scaling_at_most_linear),
        cmocka_unit_test(test_step_bounds_and_critical_sum),
        cmocka_unit_test(test_step_above_physical_bounds),
        cmocka_unit_test(test_train_time_energy_cost),
        cmocka_unit_test(test_train_critical_batch_and_penalty),
        cmocka_unit_test(test_train_verdicts_120t),
        cmocka_unit_test(test_train_verdicts_other),
        cmocka_unit_test(test_cluster_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
