/* test_model.c - the analytic model (src/model) term by term against the
 * formulas its headers state, and the step and training model in its
 * limits: stream-bound, compute-bound, latency-bound, sparse, weak scaling,
 * the physical lower bounds, the activations placed on the wafer,
 * recomputed every k blocks or offloaded to the activation servers (and
 * the traffic that brings them back), MemoryX servers (capacity, tiers,
 * flash, the update sharded over them, their count sized for the run), the
 * fixed step overhead, the slowest of N systems (jitter), the logits on the
 * predicted positions only, the training figures, power per part and
 * verdicts, and the issue-17 targets on 2048 CS-3.
 *
 * Every expected value is computed here from the stated formula (from the
 * description's fields, or from src/desc/tfm.h, which test_tfm.c checks),
 * never by calling the function under test a second time; the properties
 * across configurations (auto placement against the forced ones, servers
 * doubled) compare the model with itself at different inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/cluster.h"
#include "model/mx.h"
#include "model/step.h"
#include "model/swx.h"
#include "model/train.h"
#include "model/wse.h"
#include "desc/catalog.h"
#include "desc/hw.h"
#include "desc/tfm.h"
#include "desc/wl.h"

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

/* The weight stream rate step.h states: min(system I/O, SwarmX link,
 * S x server_network) on S MemoryX servers; sized for the run (servers 0)
 * there are enough of them to feed the system's port. */
static double stream_rate(const struct hw_desc *h, double servers)
{
    double port = fmin(h->wse.io_bw_Bps, h->swx.link_bw_Bps);
    return servers > 0 ? fmin(port, servers * h->mx.server_net_Bps) : port;
}

/* mx.h: seconds one MemoryX server takes per parameter it updates, with
 * the state in DRAM: max(FLOP / server FLOP/s, 2 x state bytes / server
 * DRAM bandwidth). */
static double update_per_param(const struct hw_desc *h, const struct wl_desc *w)
{
    double q = w->weight_bytes + 2 * w->master_bytes + w->optimizer_bytes;
    return fmax(h->mx.update_flop_per_param / h->mx.server_update_flops,
                2 * q / h->mx.server_mem_bw_Bps);
}

/* step.h and hw.h: the slowest of n systems computes 1 + jitter x
 * E[largest of n standard normals] times as long as one, the expectation
 * by Blom's formula Phi^-1((n - 0.375) / (n + 0.25)); 1 for one system.
 * Written out here so the step's factor is checked against the formula,
 * not against hw_slowest() (test_order_stat checks that one). */
static double slowest_by_hand(double jitter, double n)
{
    return n <= 1 ? 1 : 1 + jitter * gsl_cdf_ugaussian_Pinv((n - 0.375) / (n + 0.25));
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

/* swx.h: lanes x (ceil(N/k) + ceil(N/k^2) + ... + 1) servers; one lane
 * here, the shipped lanes below (ALCF: 8 SwarmX nodes for 4 CS-3). */
static void test_swx_nodes(void **state)
{
    (void)state;
    struct hw_desc h2, h4;
    const char *one[] = {"swarmx.lanes=1"};
    load_hw("cs2", one, 1, &h2);
    load_hw("cs3", one, 1, &h4);
    assert_rel(swx_nodes(&h2.swx, 1), 0, 0); /* no tree */
    assert_rel(swx_nodes(&h2.swx, 2), 1, 0);
    assert_rel(swx_nodes(&h2.swx, 5), 3 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 16), 8 + 4 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 192), 96 + 48 + 24 + 12 + 6 + 3 + 2 + 1, 0);
    assert_rel(swx_nodes(&h2.swx, 2048), 2047, 0);
    assert_rel(swx_nodes(&h4.swx, 4), 1, 0);
    assert_rel(swx_nodes(&h4.swx, 17), 5 + 2 + 1, 0);
    assert_rel(swx_nodes(&h4.swx, 2048), 512 + 128 + 32 + 8 + 2 + 1, 0);
    load_hw("cs3", NULL, 0, &h4);
    assert_rel(h4.swx.lanes, 8, 0);
    assert_rel(swx_nodes(&h4.swx, 4), 8, 0); /* ALCF's CS-3 cluster */
    assert_rel(swx_nodes(&h4.swx, 1), 0, 0);
    assert_rel(swx_nodes(&h4.swx, 2048), 8 * (512 + 128 + 32 + 8 + 2 + 1), 0);
    const char *three[] = {"swarmx.lanes=3"};
    load_hw("cs2", three, 1, &h2);
    assert_rel(swx_nodes(&h2.swx, 5), 3 * (3 + 2 + 1), 0);
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

/* mx.h: S servers hold S x (server_memory + server_flash) bytes; the
 * fewest that hold a state in DRAM; a published tier is the whole servers
 * that make it up. */
static void test_mx_servers(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs3", NULL, 0, &h); /* 1128 GiB of DRAM, no flash (ALCF) */
    double gib = 1073741824.0, server = 1128 * gib;
    assert_rel(h.mx.server_dram_bytes, server, 0);
    assert_rel(h.mx.server_flash_bytes, 0, 0);
    assert_rel(mx_capacity(&h.mx, 1), server, 0);
    assert_rel(mx_capacity(&h.mx, 12), 12 * server, 0);
    /* ALCF's 12 MemoryX nodes: 13.2 TiB */
    assert_rel(mx_capacity(&h.mx, 12) / (1024 * gib), 13.21875, 1e-15);
    assert_rel(mx_servers_to_hold(&h.mx, 1), 1, 0);
    assert_rel(mx_servers_to_hold(&h.mx, 0), 1, 0); /* at least one */
    assert_rel(mx_servers_to_hold(&h.mx, server), 1, 0);
    assert_rel(mx_servers_to_hold(&h.mx, server + 1), 2, 0);
    assert_rel(mx_servers_to_hold(&h.mx, 12 * server), 12, 0);
    /* GPT-3 175B's 3.15 TB of state (18 B a parameter): 3 servers */
    assert_rel(mx_servers_to_hold(&h.mx, 3.15e12), ceil(3.15e12 / server), 0);
    assert_rel(mx_servers_to_hold(&h.mx, 3.15e12), 3, 0);
    /* the tiers: 1.5 TB is 2 servers (whole servers, so 2.4 TB), 12 TB is
     * 10, 55 TB is 46, 1.2 PB is 991 */
    static const double tb[] = {1.5e12, 12e12, 55e12, 1.2e15};
    static const double want[] = {2, 10, 46, 991};
    for (size_t i = 0; i < 4; i++) {
        assert_rel(mx_tier_servers(&h.mx, tb[i]), want[i], 0);
        assert_true(mx_capacity(&h.mx, want[i]) >= tb[i]);
        assert_true(mx_capacity(&h.mx, want[i] - 1) < tb[i]);
    }
    /* with flash, a server holds both and a tier needs fewer of them */
    const char *flash[] = {"memoryx.server_flash=8 TB", "memoryx.server_flash_bandwidth=5 GB/s"};
    load_hw("cs3", flash, 2, &h);
    assert_rel(mx_capacity(&h.mx, 3), 3 * (server + 8e12), 1e-15);
    assert_rel(mx_tier_servers(&h.mx, 55e12), ceil(55e12 / (server + 8e12)), 0);
    assert_rel(mx_tier_servers(&h.mx, 55e12), 6, 0);
    /* but holding state in DRAM still counts DRAM alone */
    assert_rel(mx_servers_to_hold(&h.mx, 55e12), 46, 0);
}

/* mx.h: state beyond S x server_memory goes to the servers' flash, if they
 * have any (none on the shipped CS-2: 1 TB servers). */
static void test_mx_flash_fraction(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h);
    assert_rel(h.mx.server_dram_bytes, 1e12, 0);
    assert_rel(h.mx.server_flash_bytes, 0, 0);
    /* no flash: nothing on flash, whatever the state */
    assert_rel(mx_flash_fraction(&h.mx, 4, 3e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 4, 8e12), 0, 0);
    /* 9 TB of flash a server */
    const char *flash[] = {"memoryx.server_flash=9 TB", "memoryx.server_flash_bandwidth=5 GB/s"};
    load_hw("cs2", flash, 2, &h);
    assert_rel(mx_flash_fraction(&h.mx, 4, 3e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 4, 4e12), 0, 0);
    assert_rel(mx_flash_fraction(&h.mx, 4, 8e12), 0.5, 1e-15);
    assert_rel(mx_flash_fraction(&h.mx, 2400, 2.16e15), 0, 0); /* 2.4 PB of DRAM */
    assert_rel(mx_flash_fraction(&h.mx, 240, 2.16e15), (2.16e15 - 240e12) / 2.16e15, 1e-15);
    /* more state than DRAM and flash: the flash is full, the rest is held
     * nowhere (the memoryx verdict) */
    assert_rel(mx_flash_fraction(&h.mx, 4, 80e12), 36e12 / 80e12, 1e-15);
    /* more servers, more DRAM: the share on flash falls */
    double prev = 1;
    for (double S = 2; S <= 64; S *= 2) { /* from 2: 20 TB of DRAM and flash */
        double f = mx_flash_fraction(&h.mx, S, 20e12);
        assert_true(f <= prev);
        prev = f;
    }
    assert_rel(prev, 0, 0);
}

/* mx.h: one server updates p parameters in max(p x flop/param /
 * server_update_flops, p x 2 x state x (dram share /
 * server_memory_bandwidth + flash share / server_flash_bandwidth)). */
static void test_mx_update_time(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w); /* 18 B of state */
    double p = 1e9;

    /* the shipped CS-2 server: 36 B of traffic a parameter at 250 GB/s
     * (144 ps) against 12 FLOP at 1 TFLOP/s (12 ps): memory-bound */
    load_hw("cs2", NULL, 0, &h);
    assert_rel(h.mx.server_mem_bw_Bps, 250e9, 0);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 36 / 250e9, 1e-15);

    /* FLOP-bound: a slow optimizer (240 ps a parameter) */
    const char *slow[] = {"memoryx.server_update_flops=50 GFLOP/s"};
    load_hw("cs2", slow, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 12 / 50e9, 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), 0.24, 1e-15);

    /* memory-bound at another DRAM bandwidth */
    const char *dram[] = {"memoryx.server_memory_bandwidth=1 TB/s"};
    load_hw("cs2", dram, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 2 * 18 / 1e12, 1e-15);
    /* with a quarter on flash, and all of it */
    const char *flash[] = {"memoryx.server_flash=9 TB", "memoryx.server_flash_bandwidth=5 GB/s"};
    load_hw("cs2", flash, 2, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0.25), p * 36 * (0.75 / 250e9 + 0.25 / 5e9), 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, p, 1), p * 36 / 5e9, 1e-15);
    /* ...unless the optimizer is slower still */
    const char *slower[] = {"memoryx.server_update_flops=1 GFLOP/s", "memoryx.server_flash=9 TB",
                            "memoryx.server_flash_bandwidth=5 GB/s"};
    load_hw("cs2", slower, 3, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 1), p * 12 / 1e9, 1e-15);

    /* smaller state per parameter halves the memory time */
    const char *lean[] = {"model.master_bytes=2 B", "model.optimizer_bytes=3 B"};
    load_model("gpt3-175b", lean, 2, &w); /* 2 + 2 + 3 + 2 = 9 B */
    load_hw("cs2", dram, 1, &h);
    assert_rel(mx_update_time(&h.mx, &w, p, 0), p * 2 * 9 / 1e12, 1e-15);
    assert_rel(mx_update_time(&h.mx, &w, 0, 0), 0, 0);
    /* linear in p: S servers each updating 1/S take 1/S of the time */
    load_model("gpt3-175b", NULL, 0, &w);
    assert_rel(mx_update_time(&h.mx, &w, p / 7, 0), mx_update_time(&h.mx, &w, p, 0) / 7, 1e-15);
}

/* A tier holds a state when its whole servers do. */
static void test_mx_smallest_tier(void **state)
{
    (void)state;
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h); /* 4 TB (4 servers of 1 TB), 2.4 PB */
    assert_int_equal(mx_smallest_tier(&h.mx, 1), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 4e12), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 4e12 + 1), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 2.4e15), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 2.5e15), -1);
    load_hw("cs3", NULL, 0, &h); /* 1.5, 12, 55 TB, 1.2 PB of 1128 GiB servers */
    /* 1.5 TB is two servers, 2.42 TB: it holds 2 TB */
    assert_int_equal(mx_smallest_tier(&h.mx, 2e12), 0);
    assert_int_equal(mx_smallest_tier(&h.mx, 2 * 1128 * 1073741824.0 + 1), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 3.15e12), 1);
    assert_int_equal(mx_smallest_tier(&h.mx, 20e12), 2);
    assert_int_equal(mx_smallest_tier(&h.mx, 100e12), 3);
    assert_int_equal(mx_smallest_tier(&h.mx, 991 * 1128 * 1073741824.0 + 1), -1);
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
 * FLOP (recompute counted) at half the file's utilization (u(2048) = U / 2),
 * times the slowest-of-N factor: 2.3 s on one CS-2 at U = 0.3353, 2.6 s at
 * N = 1024, while the weights need 2 x 350 GB at 150 GB/s = 4.7 s.  Every
 * layer streams its weights in for the forward and again for the backward
 * pass, so the step is 2 x weight bytes / rate plus the fixed step_overhead
 * (which nothing overlaps), plus little: the gradients stream out during
 * the backward pass in the opposite direction (same size, so they overlap
 * fully), the logits layer streams the tied vocab x hidden matrix a second
 * time (0.35% of the weights), and the embedding's update at the boundary
 * and the fill and drain latencies add milliseconds.  Hence within 2% and
 * never below.  One sequence's activations fit in SRAM (5 do), so nothing
 * is offloaded and nothing recomputed beyond the file's recompute. */
static void test_step_stream_bound(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    static const double systems[] = {1, 16, 1024};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double bw = stream_rate(&h, 0);
        assert_rel(bw, 150e9, 1e-15);
        double over = h.wse.step_overhead_s;
        assert_true(over > 0);
        double bound = 2 * tfm_weight_bytes(&w) / bw + over;
        for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
            struct cluster c;
            struct step_result r;
            make_cluster(&c, &h, &w, systems[j], systems[j]);
            step_eval(&c, &r);
            assert_rel(r.local_seqs, 1, 0);
            assert_rel(r.micro_batches, 1, 0);
            /* the file asks for recompute: every block, with the weights
             * its backward pass streams in anyway */
            assert_int_equal(r.act, ACT_RECOMPUTE);
            assert_rel(r.act_k, 1, 0);
            assert_rel(r.act_bytes, 0, 0);
            assert_rel(r.micro_tokens, 2048, 0);
            assert_rel(r.stream_bw, bw, 0);
            assert_true(r.step_s >= bound);
            assert_rel(r.step_s, bound, 0.02);
            assert_int_equal(r.bottleneck, STEP_STREAM_IN);
            assert_rel(r.critical[STEP_OVERHEAD], over, 0);
            /* the wafer's work at u(2048) = U / 2, paced by the slowest */
            double compute = tfm_train_flops_per_token(&w, w.recompute) * 2048 *
                             slowest_by_hand(h.wse.jitter, systems[j]) /
                             (h.wse.peak_flops * h.wse.utilization / 2);
            assert_rel(r.busy[STEP_COMPUTE], compute, 1e-12);
            assert_true(r.busy[STEP_COMPUTE] < 0.6 * r.step_s);
        }
    }

    /* Precisions that break the symmetry.  8-bit gradients: the weights
     * still stream in for the forward and again for the backward pass, so
     * the bound is unchanged.  32-bit gradients: the backward pass waits
     * for gradients out (2 x the weight bytes), so the step is weights in
     * once plus gradients out once, (2 + 4) B per parameter. */
    struct hw_desc h;
    load_hw("cs2", NULL, 0, &h);
    double over = h.wse.step_overhead_s;
    const char *g1[] = {"model.grad_bytes=1 B"};
    const char *g4[] = {"model.grad_bytes=4 B"};
    struct cluster c;
    struct step_result r;
    load_model("gpt3-175b", g1, 1, &w);
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    double bound = 2 * tfm_weight_bytes(&w) / 150e9 + over;
    assert_true(r.step_s >= bound);
    assert_rel(r.step_s, bound, 0.02);
    assert_int_equal(r.bottleneck, STEP_STREAM_IN);
    load_model("gpt3-175b", g4, 1, &w);
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    bound = (tfm_weight_bytes(&w) + tfm_grad_bytes(&w)) / 150e9 + over;
    assert_rel(tfm_grad_bytes(&w), 2 * tfm_weight_bytes(&w), 1e-15);
    assert_true(r.step_s >= bound);
    assert_rel(r.step_s, bound, 0.02);
    assert_int_equal(r.bottleneck, STEP_STREAM_OUT);
}

/* A huge local batch (4096 sequences per system, made to fit in SRAM with
 * system.sram = 1 PB, so every activation stays on the wafer) at a tiny
 * util_half_tokens runs at the file's utilization: the step is the training
 * FLOPs of its tokens over peak x utilization, times the slowest-of-N
 * factor (1 on one system, 1 + jitter x Phi^-1(7.625 / 8.25) on 8), plus
 * the fixed step_overhead.  The streams (2 x 2.6 GB per step for GPT-3 XL)
 * hide under the compute of every block; what is left is the embedding
 * layer, which has no compute (its weights in and gradients out, ~3 ms),
 * the embedding's update at the boundary (~1 ms) and the fill and drain,
 * about 2e-4 of the step, and util 1 / 8.4e6 below its limit: within
 * 1e-3. */
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
                assert_int_equal(r.act, w.recompute ? ACT_RECOMPUTE : ACT_WAFER);
                assert_int_equal(r.recompute, w.recompute);
                double slow = slowest_by_hand(h.wse.jitter, systems[j]);
                assert_rel(r.slowest, slow, 1e-15);
                double tokens = m[k].seqs * w.seq_len; /* per system per step */
                double flops = tfm_train_flops_per_token(&w, w.recompute) * tokens;
                double compute = flops * slow / (h.wse.peak_flops * h.wse.utilization);
                double want = compute + h.wse.step_overhead_s;
                assert_true(r.step_s >= want);
                assert_rel(r.step_s, want, 1e-3);
                assert_rel(r.busy[STEP_COMPUTE], compute, 1e-6);
                assert_int_equal(r.bottleneck, STEP_COMPUTE);
            }
        }
    }
}

/* A tiny model (2 blocks of width 64, 8-token sequences) on 65536 CS-2s
 * with 1 ms per tree level: 16 levels each way, ~32 ms of exposed latency
 * against microseconds of compute and streaming.  The fixed step_overhead
 * is set to 0 here (the shipped ~94 ms would be the larger;
 * test_step_overhead covers it). */
static void test_step_latency_bound(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(tiny_model, NULL, 0, &w);
    const char *sets[] = {"swarmx.hop_latency=1 ms", "system.step_overhead=0 ms"};
    struct hw_desc h;
    load_hw("cs2", sets, 2, &h);
    assert_rel(h.wse.step_overhead_s, 0, 0);
    double bw = stream_rate(&h, 0);
    double n = 65536;
    struct cluster c;
    struct step_result r;
    make_cluster(&c, &h, &w, n, n);
    step_eval(&c, &r);

    /* The embedding (9472 B at 2 B a value) is smaller than the 1 MB chunk,
     * so what a node forwards at the boundary is the whole embedding. */
    double embed = 64 * 64 + 8 * 64 + 2 * 64; /* tokens, positions, final norm */
    double msg = embed * 2;
    double level = 1e-3 + msg / h.swx.link_bw_Bps;
    double fill = 16 * level + msg / bw; /* broadcast + the message */
    assert_rel(r.fill_s, fill, 1e-14);
    assert_rel(r.drain_s, 16 * level, 1e-14); /* the last gradients up */
    /* boundary: the update of the last chunk of the embedding (all of it
     * here) on the one server that holds it, overlap 0 */
    double upp = update_per_param(&h, &w);
    assert_rel(upp, 36 / 250e9, 1e-15); /* 144 ps a parameter */
    assert_rel(r.boundary_s, embed * upp, 1e-12);
    assert_rel(r.hidden_s, 0, 0);
    double exposed = fill + 16 * level + embed * upp;
    assert_rel(r.busy[STEP_LATENCY], exposed, 1e-12);
    assert_rel(r.critical[STEP_LATENCY], exposed, 1e-12);
    assert_int_equal(r.bottleneck, STEP_LATENCY);
    assert_rel(r.critical[STEP_OVERHEAD], 0, 0);
    assert_true(r.step_s >= exposed);
    assert_rel(r.step_s, exposed, 1e-3);

    /* overlap 1 hides at most the embedding's backward (its weights in,
     * gradients out, update on S servers: the longest), here far less than
     * the trip; servers sized for the run keep the update within the
     * streams */
    c.overlap = 1;
    step_eval(&c, &r);
    double S = r.mx_servers;
    assert_true(embed * upp / S <= embed * 2 / bw);
    assert_rel(r.mx_update, ceil(embed * upp / (embed * 2 / bw)), 0);
    double first = fmax(embed * upp / S, embed * 2 / bw);
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
    assert_rel(r.fill_s, msg / bw, 1e-14);
    make_cluster(&c, &h, &w, 1024, 1024);
    step_eval(&c, &r);
    assert_rel(r.fill_s, 10 * level + msg / bw, 1e-14);
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
 * step is unchanged; only the tree deepens and the slowest of N systems
 * paces the compute (test_weak_scaling_jitter): tokens/s at N systems is
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
                        assert_true(r.busy[STEP_OVERHEAD] == h.wse.step_overhead_s);
                        assert_true(r.critical[STEP_OVERHEAD] == h.wse.step_overhead_s);
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
 * FLOPs (with the recomputed forward when the placement recomputes) at
 * peak x utilization, paced by the slowest of N, and every weight byte in
 * twice per micro-batch (three times when segments of k > 1 blocks are
 * recomputed) at the stream rate; offloaded, every block input leaves once
 * on the system's port; the fixed step_overhead comes on top of each.  The
 * placement is one of the three, recomputes exactly when it is not the
 * wafer, and is labelled as step_act_label() says. */
static void test_step_above_physical_bounds(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 16, 512};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double bw = stream_rate(&h, 0);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                struct cluster c;
                struct step_result r;
                make_cluster(&c, &h, &w, systems[j], w.batch);
                step_eval(&c, &r);
                double tokens = w.batch / systems[j] * w.seq_len;
                double local = ceil(w.batch / systems[j]);
                assert_true(r.act == ACT_WAFER || r.act == ACT_RECOMPUTE || r.act == ACT_OFFLOAD);
                assert_int_equal(r.recompute, r.act != ACT_WAFER);
                /* a file that asks for recompute never keeps everything */
                if (w.recompute)
                    assert_true(r.act != ACT_WAFER);
                char label[32], want[32];
                step_act_label(&r, label, sizeof label);
                if (r.act == ACT_RECOMPUTE)
                    snprintf(want, sizeof want, "recompute:%.0f", r.act_k);
                else
                    snprintf(want, sizeof want, "%s", r.act == ACT_WAFER ? "wafer" : "offload");
                assert_string_equal(label, want);
                double compute = tfm_train_flops_per_token(&w, r.recompute) * tokens *
                                 slowest_by_hand(h.wse.jitter, systems[j]) /
                                 (h.wse.peak_flops * h.wse.utilization);
                double passes = r.act == ACT_RECOMPUTE && r.act_k > 1 ? 3 : 2;
                double stream = r.micro_batches * passes * tfm_weight_bytes(&w) / bw;
                double over = h.wse.step_overhead_s;
                assert_true(r.step_s >= compute + over);
                assert_true(r.step_s >= stream + over);
                /* offloaded, every block input leaves once on the egress */
                if (r.act == ACT_OFFLOAD)
                    assert_true(r.step_s >=
                                local * tfm_ckpt_bytes_per_seq(&w) / h.wse.io_bw_Bps + over);
            }
        }
    }
}

/* ---- activations offloaded to the activation store ---- */

/* Llama 2 7B (models/llama2-7b.ini: l 32, s = h = 4096, a 32, gated FFN of
 * 11008, V 32000, no dropout, no recompute in the file) by hand:
 *   one block's full activations, 16 s h + 6 s f + 2 a s^2 (tfm.h, no
 *   dropout)              = 268,435,456 + 270,532,608 + 1,073,741,824
 *                         = 1,612,709,888 B
 *   its input (the checkpoint), 2 s h = 33,554,432 B; 32 blocks = 2^30 B
 *   logits 2 s V          = 262,144,000 B
 *   block parameters 4 h^2 + 3 h f + 2 h (RMSNorm) = 202,383,360, of them
 *   matrix weights 202,375,168; embedding V h + h = 131,076,096; the untied
 *   output matrix V h = 131,072,000. */
#define L7_FULL 1612709888.0
#define L7_CKPT_BLOCK 33554432.0
#define L7_CKPT (32 * L7_CKPT_BLOCK)
#define L7_LOGITS 262144000.0
#define L7_BLOCK 202383360.0
#define L7_MATRIX 202375168.0
#define L7_EMBED 131076096.0
#define L7_HEAD 131072000.0

/* One CS-3 at the published batch of 1024 sequences (M08 in
 * hw/measurements.csv ran exactly this).  All 32 blocks' full activations
 * and the logits, 51.9 GB a sequence, do not fit in 44 GB (the wafer
 * placement fails the sram verdict).  Offloaded, the blocks' inputs go to
 * the system's activation servers (2^30 B a sequence, 1.1 TB for the
 * batch) and every block is recomputed from its input.  Given 12 servers
 * of 512 GiB they hold 6144 sequences: one pass.  By default the system
 * has one (activation.servers_per_system, ALCF: 4 for 4 CS-3), holding
 * 512: two micro-batches, not more servers.  Smaller servers take
 * micro-batches of what they hold; servers that hold less than one
 * sequence fail the act_store verdict. */
static void test_step_offload_llama2_7b(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("llama2-7b", NULL, 0, &w);
    assert_int_equal(w.recompute, 0);
    assert_rel(w.batch, 1024, 0);
    assert_rel(L7_CKPT, 1073741824.0, 0);
    assert_rel(tfm_block_params(&w), L7_BLOCK, 0);
    assert_rel(tfm_block_matrix_params(&w), L7_MATRIX, 0);
    assert_rel(tfm_embed_params(&w), L7_EMBED, 0);
    double gib = 1073741824.0;
    assert_rel(h.act.server_bytes, 512 * gib, 0);
    assert_rel(h.act.server_net_Bps, 150e9, 0);
    assert_rel(h.act.servers_per_system, 1, 0);

    struct cluster c;
    struct train_result r;
    const struct step_result *st = &r.step;
    /* on the wafer: 51.9 GB a sequence, none fits */
    make_cluster(&c, &h, &w, 1, 1024);
    c.act = ACT_WAFER;
    train_eval(&c, &r);
    double per = 32 * L7_FULL + L7_LOGITS;
    assert_rel(r.sram_per_seq, per, 1e-15);
    assert_true(per > 44e9);
    assert_rel(st->max_seqs, 0, 0);
    assert_int_equal(r.sram_fits, 0);
    assert_int_equal(r.feasible, 0);
    assert_rel(st->act_servers, 1, 0); /* the system's, whatever the placement */

    /* offloaded, to 12 servers (--act-servers 12) */
    c.act = ACT_OFFLOAD;
    c.act_servers = 12;
    train_eval(&c, &r);
    assert_int_equal(st->act, ACT_OFFLOAD);
    assert_int_equal(st->recompute, 1);
    assert_rel(st->ckpt_per_seq, L7_CKPT, 1e-15);
    assert_rel(r.sram_per_seq, L7_FULL + L7_LOGITS, 1e-15);
    assert_int_equal(r.sram_fits, 1); /* 1.87 GB of 44 GB */
    assert_rel(st->act_servers, 12, 0);
    assert_rel(st->store_seqs, 12 * 512, 0);
    assert_rel(st->act_bw, 150e9, 0);
    assert_int_equal(r.act_fits, 1);
    assert_rel(st->micro_batches, 1, 0);
    assert_rel(st->micro_tokens, 1024 * 4096.0, 0);
    assert_false(r.warnings & TW_ACCUM);
    assert_int_equal(r.feasible, 1);
    /* 1024 x 2^30 B = 1.0995e12 B offloaded (and back) per step */
    assert_rel(st->act_bytes, 1024 * L7_CKPT, 1e-15);
    assert_rel(st->act_bytes, 1.1e12, 0.005);
    /* their power: 12 servers of 0.5 kW */
    assert_rel(r.power_part[TRAIN_POWER_ACT], 12 * h.act.server_power_W, 1e-15);
    /* the recompute: one more forward pass of the blocks, at u(t), one
     * system (slowest factor 1) */
    double t = 1024 * 4096.0;
    double rate = h.wse.peak_flops * h.wse.utilization * t / (t + h.wse.util_half_tokens);
    double fwd_block = 2 * L7_MATRIX + 4 * 4096.0 * 4096;
    assert_rel(st->slowest, 1, 0);
    assert_rel(st->recompute_s, 32 * fwd_block * t / rate, 1e-12);
    assert_rel(st->busy[STEP_COMPUTE], tfm_train_flops_per_token(&w, 1) * t / rate, 1e-12);

    /* the system's one server: 512 sequences at a time, at the port's
     * 150 GB/s (its server_network, the same) */
    c.act_servers = 0;
    train_eval(&c, &r);
    assert_rel(st->act_servers, 1, 0);
    assert_rel(st->store_seqs, 512, 0);
    assert_rel(st->micro_batches, 2, 0);
    assert_rel(st->micro_tokens, 512 * 4096.0, 0);
    assert_rel(st->act_bw, 150e9, 0);
    assert_true(r.warnings & TW_ACCUM);
    assert_rel(r.power_part[TRAIN_POWER_ACT], 1 * h.act.server_power_W, 1e-15);
    assert_rel(st->act_bytes, 1024 * L7_CKPT, 1e-15); /* the same bytes, in 2 parts */
    /* a slower server (--set activation.server_network=25 GB/s) sets the
     * offload's rate below the port */
    const char *slow[] = {"activation.server_network=25 GB/s"};
    struct hw_desc h25;
    load_hw("cs3", slow, 1, &h25);
    c.hw = &h25;
    c.act_servers = 2;
    train_eval(&c, &r);
    assert_rel(st->act_bw, 50e9, 0);
    assert_rel(st->micro_batches, 1, 0);
    c.hw = &h;

    /* one server holding 300.5 sequences' checkpoints: 300 at a time */
    char set[64];
    const char *sets[] = {set};
    snprintf(set, sizeof set, "activation.server_memory=%.17g B", 300.5 * L7_CKPT);
    struct hw_desc h300;
    load_hw("cs3", sets, 1, &h300);
    c.hw = &h300;
    c.act_servers = 1;
    train_eval(&c, &r);
    assert_int_equal(st->act, ACT_OFFLOAD);
    assert_rel(st->store_seqs, 300, 0);
    assert_rel(st->micro_batches, 4, 0);
    assert_rel(st->micro_tokens, 1024 / 4 * 4096.0, 0);
    assert_true(r.warnings & TW_ACCUM);
    assert_int_equal(r.act_fits, 1);
    assert_int_equal(r.feasible, 1);
    /* exactly 300 sequences' worth (2^30 x 300 is exact) */
    snprintf(set, sizeof set, "activation.server_memory=%.17g B", 300 * L7_CKPT);
    load_hw("cs3", sets, 1, &h300);
    train_eval(&c, &r);
    assert_rel(st->store_seqs, 300, 0);
    assert_rel(st->micro_batches, 4, 0);

    /* 1 GB holds less than one sequence's 1.07 GB: infeasible */
    snprintf(set, sizeof set, "activation.server_memory=1 GB");
    load_hw("cs3", sets, 1, &h300);
    train_eval(&c, &r);
    assert_rel(st->store_seqs, 0, 0);
    assert_int_equal(r.act_fits, 0);
    assert_true(r.warnings & TW_ACT_STORE);
    assert_int_equal(r.feasible, 0);
    assert_rel(st->micro_batches, 1024, 0); /* one sequence at a time */
    assert_true(isfinite(st->step_s));
    /* not sized for the batch: the default is the system's one server,
     * still too small */
    c.act_servers = 0;
    train_eval(&c, &r);
    assert_rel(st->act_servers, 1, 0);
    assert_int_equal(r.act_fits, 0);
    c.act_servers = 1100; /* ceil(1024 x 2^30 / 1e9) hold the batch */
    train_eval(&c, &r);
    assert_rel(st->store_seqs, 1024, 0);
    assert_rel(st->micro_batches, 1, 0);
    assert_int_equal(r.act_fits, 1);
    c.act_servers = 0;

    /* SRAM of 1.8 GB cannot hold the working set of 1.87 GB (one block's
     * full activations and the logits) beside the stream buffers: the
     * sram verdict fails although the servers hold every checkpoint */
    const char *tiny_sram[] = {"system.sram=1.8 GB"};
    struct hw_desc hs;
    load_hw("cs3", tiny_sram, 1, &hs);
    c.hw = &hs;
    train_eval(&c, &r);
    assert_true(L7_FULL + L7_LOGITS > 1.8e9 - 4e6);
    assert_int_equal(st->act, ACT_OFFLOAD);
    assert_int_equal(r.act_fits, 1);
    assert_int_equal(r.sram_fits, 0);
    assert_true(r.warnings & TW_SRAM);
    assert_int_equal(r.feasible, 0);
    /* and 1.9 GB can */
    const char *enough[] = {"system.sram=1.9 GB"};
    load_hw("cs3", enough, 1, &hs);
    train_eval(&c, &r);
    assert_true(L7_FULL + L7_LOGITS <= 1.9e9 - 4e6);
    assert_int_equal(r.sram_fits, 1);
    assert_int_equal(r.feasible, 1);

    /* with SRAM to spare the fastest placement keeps every activation on
     * the wafer: no offload, no recompute (the file has none); the
     * system's activation server is still counted (it carries the
     * samples in) */
    const char *big[] = {"system.sram=1 PB"};
    struct hw_desc hb;
    load_hw("cs3", big, 1, &hb);
    c.hw = &hb;
    c.act = ACT_AUTO;
    train_eval(&c, &r);
    assert_int_equal(st->act, ACT_WAFER);
    assert_int_equal(st->recompute, 0);
    assert_rel(st->recompute_s, 0, 0);
    assert_rel(st->act_bytes, 0, 0);
    assert_rel(st->act_servers, 1, 0);
    assert_rel(r.power_part[TRAIN_POWER_ACT], hb.act.server_power_W, 0);
    assert_int_equal(r.act_fits, 1);
}

/* The activation traffic binds when the system's I/O is slow.  Llama 2 7B,
 * one CS-3, offloaded, 1024 sequences in one pass, system.io_bandwidth =
 * 27.5 GB/s (below the 150 GB/s of SwarmX; MemoryX sized for the run and
 * three activation servers given carry it, so R = 27.5 GB/s too).  Per
 * block: forward, its 1024 x 2 s h = 34.4 GB checkpoint out takes 1.25 s
 * against 0.24 s of compute; backward, its weights (405 MB) and the
 * checkpoint come back in 1.26 s against 0.72 s of compute (delta, weight
 * gradient and the recomputed forward).  The logits layer (0.13 s a pass
 * of compute against 10 ms of streams) is compute-bound; the embedding
 * streams its 262 MB in twice and its gradients out once, and on the tie
 * in its backward pass (weights in, gradients out, the same bytes) stream
 * in is charged, being first (cerebras-plan(1), MODEL, Step time).  One
 * system: no tree, the fill is one chunk, the drain 0. */
static void test_step_act_traffic_binds(void **state)
{
    (void)state;
    const char *sets[] = {"system.io_bandwidth=27.5 GB/s"};
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", sets, 1, &h);
    load_model("llama2-7b", NULL, 0, &w);
    struct cluster c;
    struct step_result r;
    make_cluster(&c, &h, &w, 1, 1024);
    c.act = ACT_OFFLOAD;
    c.act_servers = 3;
    step_eval(&c, &r);
    double io = 27.5e9;
    assert_rel(r.stream_bw, io, 0);
    assert_rel(r.grad_bw, io, 0);
    assert_int_equal(r.act, ACT_OFFLOAD);
    assert_rel(r.micro_batches, 1, 0);
    /* enough MemoryX servers to carry 27.5 GB/s (3 of 12.5 GB/s); the 3
     * activation servers given hold the 1.1 TB (1.65 TB) */
    assert_true(r.mx_servers >= 3 && r.mx_servers == floor(r.mx_servers));
    assert_rel(r.mx_stream, 3, 0);
    assert_rel(r.act_servers, 3, 0);
    assert_rel(r.act_bw, io, 0);
    double upp = update_per_param(&h, &w), S = r.mx_servers;

    double t = 1024 * 4096.0, s = 4096, hd = 4096, V = 32000;
    double rate = h.wse.peak_flops * h.wse.utilization * t / (t + h.wse.util_half_tokens);
    double block_w = 2 * L7_BLOCK, ckpt = 1024 * L7_CKPT_BLOCK;
    double act_out = ckpt / io, bwd_in = (block_w + ckpt) / io;
    double fwd = (2 * L7_MATRIX + 4 * s * hd) * t / rate;
    double bwd =
        ((2 * L7_MATRIX + 8 * s * hd) + 2 * L7_MATRIX + (2 * L7_MATRIX + 4 * s * hd)) * t / rate;
    double logits = 2 * hd * V * t / rate; /* each of three passes */
    double emb = 2 * L7_EMBED / io, head = 2 * L7_HEAD / io;
    double upd_block = L7_BLOCK * upp / S, upd_emb = L7_EMBED * upp / S;
    /* the regime this test is about */
    assert_true(act_out > fwd && act_out > block_w / io);
    assert_true(bwd_in > bwd && bwd_in > block_w / io && bwd_in > upd_block);
    assert_true(logits > head && 2 * logits > head);
    assert_true(emb > upd_emb);

    double blocks_in = 32 * bwd_in;
    assert_rel(r.critical[STEP_STREAM_IN], blocks_in + 2 * emb, 1e-12);
    assert_rel(r.critical[STEP_STREAM_OUT], 32 * act_out, 1e-12);
    assert_rel(r.critical[STEP_COMPUTE], 3 * logits, 1e-12);
    assert_rel(r.critical[STEP_UPDATE], 0, 0);
    assert_int_equal(r.bottleneck, STEP_STREAM_IN);
    /* busy: weights twice (the blocks' second time with their checkpoint),
     * gradients and checkpoints out once */
    assert_rel(r.busy[STEP_STREAM_IN], 2 * emb + 32 * (block_w / io + bwd_in) + 2 * head, 1e-12);
    assert_rel(r.busy[STEP_STREAM_OUT], emb + 32 * (block_w / io + act_out) + head, 1e-12);
    /* the step, whole: the layers, then the boundary (fill of one chunk,
     * the update of one 1 MB chunk of the embedding's gradients = 5e5
     * parameters) and the fixed overhead */
    double exposed = 1e6 / io + 5e5 * upp;
    assert_rel(r.busy[STEP_LATENCY], exposed, 1e-9);
    double want = 2 * emb + 32 * (act_out + bwd_in) + 3 * logits + exposed + h.wse.step_overhead_s;
    assert_rel(r.step_s, want, 1e-12);

    /* One MemoryX server slower than the port: the weights set the
     * backward stream (max(weights at R, weights and checkpoint at the
     * port)) */
    const char *slow_mx[] = {"system.io_bandwidth=27.5 GB/s", "memoryx.server_network=0.25 GB/s"};
    load_hw("cs3", slow_mx, 2, &h);
    c.mx_servers = 1;
    step_eval(&c, &r);
    assert_rel(r.mx_servers, 1, 0);
    assert_rel(r.stream_bw, 0.25e9, 0);
    assert_rel(r.grad_bw, 0.25e9, 0);
    assert_true(block_w / 0.25e9 > bwd_in);
    assert_rel(r.busy[STEP_STREAM_IN], 2 * (2 * L7_EMBED + 32 * block_w + 2 * L7_HEAD) / 0.25e9,
               1e-12);
    assert_rel(r.busy[STEP_STREAM_OUT],
               (2 * L7_EMBED + 32 * block_w + 2 * L7_HEAD) / 0.25e9 + 32 * act_out, 1e-12);
}

/* ---- the fixed step overhead ---- */

/* step.h: a fixed step_overhead per step that nothing overlaps.  It adds
 * exactly its value to the step, is what critical[STEP_OVERHEAD] (and
 * busy) report, and leaves every other resource's time as it was. */
static void test_step_overhead(void **state)
{
    (void)state;
    static const char *const models[] = {"gpt3-xl", "llama2-7b", "gpt3-175b"};
    static const double systems[] = {1, 7, 64};
    for (size_t i = 0; i < 2; i++) {
        const char *zero[] = {"system.step_overhead=0 ms"};
        const char *some[] = {"system.step_overhead=123.4 ms"};
        struct hw_desc h0, h1;
        load_hw(all_hw[i], zero, 1, &h0);
        load_hw(all_hw[i], some, 1, &h1);
        for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                struct cluster c;
                struct step_result r0, r1;
                make_cluster(&c, &h0, &w, systems[j], systems[j] * 3);
                step_eval(&c, &r0);
                c.hw = &h1;
                step_eval(&c, &r1);
                assert_rel(r0.critical[STEP_OVERHEAD], 0, 0);
                assert_rel(r0.busy[STEP_OVERHEAD], 0, 0);
                assert_rel(r1.critical[STEP_OVERHEAD], 0.1234, 1e-15);
                assert_rel(r1.busy[STEP_OVERHEAD], 0.1234, 1e-15);
                assert_true(r1.critical[STEP_OVERHEAD] == h1.wse.step_overhead_s);
                assert_true(fabs(r1.step_s - r0.step_s - 0.1234) <= 1e-13 * r1.step_s);
                for (int e = 0; e < STEP_NRES; e++)
                    if (e != STEP_OVERHEAD) {
                        assert_true(r1.critical[e] == r0.critical[e]);
                        assert_true(r1.busy[e] == r0.busy[e]);
                    }
            }
        }
    }

    /* the shipped value, and a step it dominates: the tiny model's
     * microseconds of work on one system */
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_text(tiny_model, NULL, 0, &w);
    struct cluster c;
    struct step_result r;
    make_cluster(&c, &h, &w, 1, 1);
    step_eval(&c, &r);
    double over = h.wse.step_overhead_s;
    assert_true(over > 0);
    assert_rel(r.critical[STEP_OVERHEAD], over, 0);
    assert_int_equal(r.bottleneck, STEP_OVERHEAD);
    assert_true(r.step_s > over);
    assert_rel(r.step_s, over, 1e-3);
    assert_string_equal(step_res_name[STEP_OVERHEAD], "overhead");
    /* the same at every N: it is per step, not per system */
    make_cluster(&c, &h, &w, 192, 192);
    step_eval(&c, &r);
    assert_rel(r.critical[STEP_OVERHEAD], over, 0);
}

/* ---- the slowest of N systems ---- */

static double max_normal_integrand(double x, void *p)
{
    double n = *(const double *)p;
    return x * n * gsl_ran_ugaussian_pdf(x) * pow(gsl_cdf_ugaussian_P(x), n - 1);
}

/* E[largest of n standard normal draws], n x integral of x phi(x)
 * Phi(x)^(n-1) dx over the reals (the density of the largest is
 * n phi Phi^(n-1)), by adaptive quadrature on [-12, 12], where the
 * integrand is below 1e-30 outside. */
static double expected_max_normal(double n)
{
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(1000);
    assert_non_null(ws);
    gsl_function f = {max_normal_integrand, &n};
    double v = 0, abserr = 0;
    int st = gsl_integration_qags(&f, -12, 12, 1e-12, 1e-10, 1000, ws, &v, &abserr);
    gsl_integration_workspace_free(ws);
    assert_int_equal(st, GSL_SUCCESS);
    return v;
}

/* hw.h: hw_order_stat(r, n) is Blom's approximation of the expected r-th
 * smallest of n standard normal draws, Phi^-1((r - 0.375) / (n + 0.25)). */
static void test_order_stat(void **state)
{
    (void)state;
    /* one draw: its expectation, 0 */
    assert_true(hw_order_stat(1, 1) == 0);
    /* symmetric: the r-th smallest is minus the r-th largest; the median
     * of an odd count is 0; increasing in rank */
    static const double ns[] = {2, 3, 5, 16, 17, 192, 2048};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        double n = ns[i], prev = -INFINITY;
        for (double rk = 1; rk <= n; rk++) {
            double z = hw_order_stat(rk, n);
            assert_true(isfinite(z));
            assert_true(fabs(z + hw_order_stat(n + 1 - rk, n)) <= 1e-12 * fmax(1, fabs(z)));
            assert_true(z > prev);
            prev = z;
        }
        if (fmod(n, 2) == 1)
            assert_true(fabs(hw_order_stat((n + 1) / 2, n)) <= 1e-15);
        assert_true(hw_order_stat(n, n) > 0);
    }
    /* Expected largest of 16 standard normals, 1.7660 (Harter 1961,
     * "Expected values of normal order statistics", Biometrika 48, table
     * 1; also Teichroew 1956): Blom's formula within 0.5 %. */
    assert_rel(hw_order_stat(16, 16), 1.7660, 0.005);
    /* and of 2 and 3, exactly 1 / sqrt(pi) = 0.5642 and 3 / (2 sqrt(pi)) =
     * 0.8463: Blom's approximation is coarser there, within 5 % */
    assert_rel(hw_order_stat(2, 2), 1 / sqrt(M_PI), 0.05);
    assert_rel(hw_order_stat(3, 3), 3 / (2 * sqrt(M_PI)), 0.05);
    /* against the expectation itself, n x integral of x phi(x) Phi(x)^(n-1)
     * dx, integrated here; the integral reproduces the published 1.7660
     * for 16 (and 2.5076 for 100, Harter 1961), and Blom's formula is
     * within 0.5 % of it from 16 systems up to the largest clusters */
    assert_rel(expected_max_normal(16), 1.7660, 1e-4);
    assert_rel(expected_max_normal(100), 2.5076, 1e-4);
    static const double big[] = {16, 17, 64, 100, 192, 1000, 2048};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        assert_rel(hw_order_stat(big[i], big[i]), expected_max_normal(big[i]), 0.005);

    /* hw_slowest = 1 + jitter x hw_order_stat(n, n); 1 for one system */
    const char *sets[] = {"system.jitter=0.0725"};
    struct hw_desc h;
    load_hw("cs3", sets, 1, &h);
    assert_rel(h.wse.jitter, 0.0725, 0);
    assert_true(hw_slowest(&h.wse, 1) == 1);
    static const double n2[] = {2, 16, 17, 2048};
    for (size_t i = 0; i < sizeof n2 / sizeof n2[0]; i++) {
        assert_rel(hw_slowest(&h.wse, n2[i]), 1 + 0.0725 * hw_order_stat(n2[i], n2[i]), 1e-15);
        assert_rel(hw_slowest(&h.wse, n2[i]), slowest_by_hand(0.0725, n2[i]), 1e-15);
    }
    assert_rel(hw_slowest(&h.wse, 16), 1 + 0.0725 * 1.7660, 0.001);
    /* no jitter: every system keeps pace */
    const char *none[] = {"system.jitter=0"};
    load_hw("cs3", none, 1, &h);
    assert_true(hw_slowest(&h.wse, 2048) == 1);
}

/* Weak scaling where compute dominates (the compute-bound setting of
 * test_step_compute_bound, GPT-3 XL, 4096 sequences per system) and the
 * fixed overhead is set to 0: step(16) / step(1) is the slowest-of-16
 * factor, 1 + jitter x 1.77, within the 2e-4 the streams and boundary add,
 * so the weak speedup is 16 / that, below 16. */
static void test_weak_scaling_jitter(void **state)
{
    (void)state;
    const char *sets[] = {"system.sram=1 PB", "system.util_half_tokens=1",
                          "system.step_overhead=0 ms", "system.jitter=0.0725"};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], sets, 4, &h);
        struct wl_desc w;
        load_model("gpt3-xl", NULL, 0, &w);
        struct cluster base;
        make_cluster(&base, &h, &w, 1, 4096);
        struct train_result r1, r16;
        train_at(&base, 1, SCALE_WEAK, &r1);
        train_at(&base, 16, SCALE_WEAK, &r16);
        assert_int_equal(r1.step.bottleneck, STEP_COMPUTE);
        assert_int_equal(r16.step.bottleneck, STEP_COMPUTE);
        double want = slowest_by_hand(0.0725, 16);
        assert_rel(r16.step.slowest, want, 1e-15);
        assert_rel(r16.step.step_s / r1.step.step_s, want, 1e-3);
        assert_rel(r16.step.step_s / r1.step.step_s, hw_slowest(&h.wse, 16), 1e-3);
        assert_rel(r16.step.busy[STEP_COMPUTE] / r1.step.busy[STEP_COMPUTE], want, 1e-12);
        double speedup = r16.tokens_per_s / r1.tokens_per_s;
        assert_true(speedup < 16);
        assert_rel(speedup, 16 / want, 1e-3);
    }
}

/* ---- the logits on the predicted positions only ---- */

/* BERT-Large (models/bert-large.ini: l 24, h 1024, s 128, V 30522, 20
 * predicted positions): the logits cost 2 h V on each of the 20, so per
 * token of the sequence 2 h V x 20 / 128, in each of the three passes. */
static void test_step_predictions(void **state)
{
    (void)state;
    const char *sets[] = {"system.sram=1 PB"};
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", sets, 1, &h);
    load_model("bert-large", NULL, 0, &w);
    assert_rel(w.predictions, 20, 0);
    struct cluster c;
    struct step_result r;
    make_cluster(&c, &h, &w, 1, 1024);
    step_eval(&c, &r);
    assert_int_equal(r.act, ACT_WAFER);
    double t = 1024 * 128.0, hd = 1024, s = 128, V = 30522;
    double rate = h.wse.peak_flops * h.wse.utilization * t / (t + h.wse.util_half_tokens);
    double matrix = 12 * hd * hd;
    double block_fwd = 2 * matrix + 4 * s * hd;
    double logits = 2 * hd * V * 20 / 128;
    assert_rel(r.pass_s[TFM_FWD], (24 * block_fwd + logits) * t / rate, 1e-12);
    assert_rel(r.pass_s[TFM_WGRAD], (24 * 2 * matrix + logits) * t / rate, 1e-12);
    /* every position predicted: the logits cost 128 / 20 times as much */
    const char *all[] = {"model.predictions=128"};
    load_model("bert-large", all, 1, &w);
    step_eval(&c, &r);
    assert_rel(r.pass_s[TFM_WGRAD], (24 * 2 * matrix + 2 * hd * V) * t / rate, 1e-12);
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

    double steps = ceil(300e9 / (1536 * 2048.0)); /* whole steps: 95368 */
    assert_rel(steps, 95368, 0);
    assert_rel(r.global_tokens, 1536 * 2048.0, 0);
    assert_rel(r.tokens, 300e9, 1e-15);
    assert_rel(r.steps, steps, 1e-15);
    assert_rel(r.time_ff_s, steps * r.step.step_s, 1e-15);
    /* the wall time adds what failures take (gp.h; tests/test_gp.c) */
    assert_rel(r.time_s, r.gp.wall_s, 0);
    assert_true(r.time_s > r.time_ff_s && r.gp.goodput < 1 && r.gp.goodput > 0.5);
    assert_rel(r.tokens_per_s, 1536 * 2048.0 / r.step.step_s, 1e-15);
    /* 16 x 23 kW + S MemoryX servers of 1 kW + 16 x A activation servers
     * of 0.5 kW + lanes x (8 + 4 + 2 + 1) SwarmX servers of 1 kW, S as
     * sized, A the system's (1) */
    double S = r.step.mx_servers, A = r.step.act_servers, X = h.swx.lanes * 15;
    assert_true(S >= 1 && S == floor(S) && A == 1);
    assert_rel(r.swx_nodes, X, 0);
    assert_rel(r.power_part[TRAIN_POWER_SYSTEMS], 16 * 23e3, 1e-15);
    assert_rel(r.power_part[TRAIN_POWER_MEMORYX], S * 1e3, 1e-15);
    assert_rel(r.power_part[TRAIN_POWER_ACT], 16 * A * 0.5e3, 1e-15);
    assert_rel(r.power_part[TRAIN_POWER_SWARMX], X * 1e3, 1e-15);
    assert_rel(r.power_W, 16 * 23e3 + S * 1e3 + 16 * A * 0.5e3 + X * 1e3, 1e-15);
    assert_rel(r.energy_J, r.power_W * r.time_s, 1e-15);
    /* fixed counts: 7 MemoryX servers, 3 activation servers a system */
    c.mx_servers = 7;
    c.act = ACT_OFFLOAD;
    c.act_servers = 3;
    train_eval(&c, &r);
    assert_rel(r.step.mx_servers, 7, 0);
    assert_rel(r.step.act_servers, 3, 0);
    assert_rel(r.memoryx_bytes, 7e12, 1e-15);
    assert_rel(r.power_W, 16 * 23e3 + 7e3 + 16 * 3 * 0.5e3 + X * 1e3, 1e-15);
    assert_rel(r.energy_J, (16 * 23e3 + 7e3 + 24e3 + X * 1e3) * r.time_s, 1e-15);
    assert_string_equal(train_power_name[TRAIN_POWER_ACT], "activation");
    /* recomputed, the servers given are still there (they carry the
     * samples in) */
    c.act = ACT_RECOMPUTE;
    train_eval(&c, &r);
    assert_rel(r.step.act_servers, 3, 0);
    assert_rel(r.power_part[TRAIN_POWER_ACT], 16 * 3 * 0.5e3, 1e-15);
    c.mx_servers = 0;
    c.act_servers = 0;
    c.act = ACT_AUTO;
    train_eval(&c, &r);
    /* the shipped [cost] keys: capital over the years, energy with PUE */
    double capital = 0;
    for (int i = 0; i < TRAIN_NPOWER; i++)
        capital += r.bom[i].count * r.bom[i].price * r.time_s / h.site.years_s;
    assert_rel(r.costs.capital, capital, 1e-14);
    assert_rel(r.costs.energy, r.energy_J * h.site.pue / 3.6e6 * h.site.energy_price_kwh, 1e-14);
    assert_rel(r.cost, r.costs.capital + r.costs.energy, 1e-15);
    assert_rel(r.params, tfm_params(&w), 0);
    assert_rel(r.bytes_per_param, 18, 0);
    assert_rel(r.state_bytes, 18 * tfm_params(&w), 1e-15);

    c.price = 12.5; /* per system-hour: replaces the capital part */
    train_eval(&c, &r);
    assert_rel(r.cost, 16 * r.time_s / 3600 * 12.5 + r.costs.energy, 1e-15);
    c.price = 0;
    train_eval(&c, &r);
    assert_rel(r.cost, r.costs.energy, 0);
    /* nothing priced: no cost */
    const char *unpriced[] = {"cost.system_price=0", "cost.memoryx_price=0",
                              "cost.activation_price=0", "cost.swarmx_price=0",
                              "cost.energy_price=0"};
    struct hw_desc hu;
    load_hw("cs2", unpriced, 5, &hu);
    c.hw = &hu;
    c.price = -1;
    train_eval(&c, &r);
    assert_true(r.cost < 0);
    c.hw = &h;

    /* explicit tokens */
    c.price = -1;
    c.tokens = 1e12;
    train_eval(&c, &r);
    assert_rel(r.steps, ceil(1e12 / (1536 * 2048.0)), 1e-15);
    assert_rel(r.time_ff_s, r.steps * r.step.step_s, 1e-15);

    /* fewer tokens than one step: one whole step, not a fraction of one */
    c.tokens = 1e6;
    train_eval(&c, &r);
    assert_rel(r.steps, 1, 0);
    assert_rel(r.time_ff_s, r.step.step_s, 1e-15);
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
        assert_rel(r.steps, ceil(300e9 * f / B), 1e-14);
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

/* 120T on one CS-2.  The file asks for recompute, so the wafer placement
 * is never chosen.  SRAM per sequence, by hand (s 2048, h 98304, a 768,
 * V 51200, l 1036; a block input is 2 s h, a block's full activations
 * s h (34 + 5 a s / h) with dropout, the logits 2 s V):
 *  - recompute every block: 1036 inputs + one block + logits, ~417 GB;
 *  - recompute every 4 blocks: 259 inputs + 4 blocks + logits, ~196 GB;
 *  - offload: one block + logits, ~23 GB, within 40 GB.
 * So only offload fits, and that is what the run takes.  MemoryX: 120e12 x
 * 18 B = 2.16 PB; the 4 TB tier (4 servers of 1 TB) does not hold it, the
 * servers sized for the run do. */
static void test_train_verdicts_120t(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("120t", NULL, 0, &w);
    assert_int_equal(w.recompute, 1);
    struct cluster c;
    struct train_result r;
    char buf[256];
    double s = 2048, hd = 98304, a = 768, V = 51200, l = 1036;
    double input = 2 * s * hd, full = s * hd * (34 + 5 * a * s / hd), logits = 2 * s * V;
    double room = 40e9 - 4e6;

    /* sized for the run: offloaded, feasible */
    make_cluster(&c, &h, &w, 1, w.batch);
    train_eval(&c, &r);
    double state_bytes = tfm_params(&w) * 18;
    assert_rel(r.state_bytes, state_bytes, 1e-15);
    assert_int_equal(r.step.act, ACT_OFFLOAD);
    assert_rel(r.sram_per_seq, full + logits, 1e-15);
    assert_true(full + logits <= room);
    assert_int_equal(r.sram_fits, 1);
    assert_int_equal(r.memoryx_fits, 1);
    assert_true(r.step.mx_servers >= ceil(state_bytes / 1e12));
    assert_rel(r.step.mx_hold, ceil(state_bytes / 1e12), 0);
    assert_rel(r.memoryx_bytes, r.step.mx_servers * 1e12, 1e-15);
    assert_rel(r.step.flash_fraction, 0, 0);
    /* the FFN (393216) needs blocking: a warning */
    assert_rel(r.matmul_dim, 4 * hd, 0);
    assert_int_equal(r.matmul_fits, 0);
    assert_true(r.warnings & TW_MATMUL);
    assert_int_equal(r.feasible, 1);

    /* forced: every block recomputed, 1036 inputs stay on the wafer */
    c.act = ACT_RECOMPUTE;
    c.act_k = 1;
    train_eval(&c, &r);
    double per = l * input + full + logits;
    assert_rel(r.sram_per_seq, per, 1e-15);
    assert_true(per > room);
    assert_int_equal(r.step.act, ACT_RECOMPUTE);
    assert_rel(r.step.act_k, 1, 0);
    assert_int_equal(r.sram_fits, 0);
    assert_true(r.warnings & TW_SRAM);
    assert_int_equal(r.feasible, 0);
    /* every 4 blocks */
    c.act_k = 4;
    train_eval(&c, &r);
    double per4 = ceil(l / 4) * input + 4 * full + logits;
    assert_rel(r.sram_per_seq, per4, 1e-15);
    assert_true(per4 < per && per4 > room);
    assert_int_equal(r.sram_fits, 0);
    assert_string_equal(step_act_label(&r.step, buf, sizeof buf), "recompute:4");
    /* with 1 TB of SRAM every block recomputed fits, two sequences at a
     * time */
    const char *big[] = {"system.sram=1 TB"};
    struct hw_desc hb;
    load_hw("cs2", big, 1, &hb);
    c.hw = &hb;
    c.act_k = 1;
    train_eval(&c, &r);
    assert_int_equal(r.sram_fits, 1);
    assert_rel(r.step.max_seqs, floor((1e12 - 4e6) / per), 0);
    assert_rel(r.step.max_seqs, 2, 0);
    assert_rel(r.step.micro_batches, w.batch / 2, 0);
    assert_int_equal(r.feasible, 1);
    assert_true(r.warnings & TW_ACCUM);
    c.hw = &h;
    c.act = ACT_AUTO;
    c.act_k = 0;

    /* the 4 TB tier: 4 servers */
    c.mx_servers = mx_tier_servers(&h.mx, 4e12);
    assert_rel(c.mx_servers, 4, 0);
    train_eval(&c, &r);
    assert_rel(r.memoryx_bytes, 4e12, 1e-15);
    assert_int_equal(r.memoryx_fits, 0);
    assert_true(r.warnings & TW_MEMORYX);
    assert_false(r.warnings & TW_FLASH); /* the shipped servers have none */
    assert_int_equal(r.feasible, 0);

    /* 4 servers with 1 PB of flash each hold it, mostly on flash */
    const char *flash[] = {"memoryx.server_flash=1 PB", "memoryx.server_flash_bandwidth=5 GB/s"};
    struct hw_desc hf;
    load_hw("cs2", flash, 2, &hf);
    c.hw = &hf;
    train_eval(&c, &r);
    assert_int_equal(r.memoryx_fits, 1);
    assert_false(r.warnings & TW_MEMORYX);
    assert_true(r.warnings & TW_FLASH);
    assert_rel(r.step.flash_fraction, (state_bytes - 4e12) / state_bytes, 1e-14);
    /* feasible as far as memory goes; 4 servers writing its 2.2 PB
     * checkpoint (hours) against the failures of 35,000 activation
     * servers is another matter (gp.h) */
    assert_int_equal(r.warnings & TW_INFEASIBLE & ~TW_FAILURES, 0);
    assert_string_equal(train_warn_names(TW_MEMORYX | TW_FLASH, buf, sizeof buf),
                        "memoryx_full;state_on_flash");
    assert_string_equal(train_warn_names(0, buf, sizeof buf), "");
}

/* 120T on one CS-2, offloaded, to activation servers of 183 GiB and 12.5
 * GB/s (--set): one sequence's checkpoints are 1036 block inputs of 2 s h,
 * 417 GB, more than one server holds.  n servers hold floor(n x 183 GiB /
 * 417 GB) sequences, and the local batch runs in micro-batches of that
 * many; the system's one server (the default) holds none, and the count
 * does not grow with the batch. */
static void test_train_verdicts_120t_offload(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    const char *sets[] = {"activation.server_memory=183 GiB", "activation.server_network=12.5 GB/s"};
    load_hw("cs2", sets, 2, &h);
    load_model("120t", NULL, 0, &w);
    double server = h.act.server_bytes;
    assert_rel(server, 183 * 1073741824.0, 0);
    struct cluster c;
    struct train_result r;
    char buf[256];
    make_cluster(&c, &h, &w, 1, w.batch);
    c.act = ACT_OFFLOAD;
    double s = 2048, hd = 98304, l = 1036, b = w.batch;
    double ckpt = l * 2 * s * hd;
    assert_true(ckpt > server);

    /* the servers that hold the batch and carry the port */
    double need = fmax(ceil(b * ckpt / server), ceil(h.wse.io_bw_Bps / h.act.server_net_Bps));
    c.act_servers = need;
    train_eval(&c, &r);
    assert_rel(r.step.ckpt_per_seq, ckpt, 1e-15);
    assert_rel(r.step.act_servers, need, 0);
    assert_rel(r.step.store_seqs, floor(need * server / ckpt), 0);
    assert_true(r.step.store_seqs >= b);
    assert_rel(r.step.micro_batches, 1, 0);
    assert_int_equal(r.act_fits, 1);
    assert_rel(r.power_part[TRAIN_POWER_ACT], need * h.act.server_power_W, 1e-15);
    /* every sequence's checkpoints leave once (and come back once) */
    assert_rel(r.step.act_bytes, b * ckpt, 1e-12);
    assert_int_equal(r.feasible, 1); /* the blocked FFN is a warning */
    assert_int_equal(r.warnings & TW_INFEASIBLE, 0);

    /* 100 servers: 47 sequences at a time */
    c.act_servers = 100;
    train_eval(&c, &r);
    double held = floor(100 * server / ckpt);
    assert_rel(held, 47, 0);
    assert_rel(r.step.store_seqs, held, 0);
    assert_rel(r.step.micro_batches, ceil(b / held), 0);
    assert_true(r.warnings & TW_ACCUM);
    assert_rel(r.step.act_bw, h.wse.io_bw_Bps, 0); /* 100 x 12.5 GB/s > 150 GB/s */
    assert_int_equal(r.feasible, 1);

    /* 3 servers hold exactly one sequence, at 37.5 GB/s */
    c.act_servers = 3;
    train_eval(&c, &r);
    assert_rel(r.step.store_seqs, 1, 0);
    assert_rel(r.step.micro_batches, b, 0);
    assert_rel(r.step.act_bw, 3 * 12.5e9, 0);
    assert_int_equal(r.act_fits, 1);
    assert_int_equal(r.feasible, 1);

    /* one server holds less than one sequence's checkpoints: infeasible;
     * the default is the system's one server, as many */
    c.act_servers = 0;
    train_eval(&c, &r);
    assert_rel(r.step.act_servers, 1, 0);
    assert_rel(r.step.store_seqs, 0, 0);
    assert_int_equal(r.act_fits, 0);
    assert_true(r.warnings & TW_ACT_STORE);
    assert_int_equal(r.sram_fits, 1);
    assert_int_equal(r.feasible, 0);
    assert_string_equal(train_warn_names(TW_ACT_STORE, buf, sizeof buf), "act_store_full");
    assert_true(TW_INFEASIBLE & TW_ACT_STORE);
}

/* GPT-3 175B on 16 CS-2, 96 sequences per system. */
static void test_train_verdicts_other(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs2", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster c;
    struct train_result r;

    /* every block recomputed (the file asks for recompute): 5 sequences
     * fit (test_wse_max_seqs), so micro-batches of 5 */
    make_cluster(&c, &h, &w, 16, 1536);
    c.act = ACT_RECOMPUTE;
    c.act_k = 1;
    train_eval(&c, &r);
    assert_int_equal(r.memoryx_fits, 1);
    assert_int_equal(r.sram_fits, 1);
    assert_int_equal(r.split_ok, 1);
    assert_int_equal(r.matmul_fits, 1);
    assert_int_equal(r.feasible, 1);
    assert_false(r.warnings & TW_INFEASIBLE);
    assert_false(r.warnings & TW_FLASH);
    assert_int_equal(r.step.act, ACT_RECOMPUTE);
    assert_rel(r.step.max_seqs, 5, 0);
    assert_rel(r.step.micro_batches, ceil(96 / 5.0), 0);
    assert_true(r.warnings & TW_ACCUM);
    assert_rel(r.step.act_servers, 1, 0); /* the system's, whatever the placement */

    /* the stream-balance point: a block's forward pass (at peak x the
     * file's utilization U) takes as long as its weights streamed in once
     * at 150 GB/s */
    double U = h.wse.utilization;
    double balance = tfm_block_params(&w) * 2 / 150e9 * 7.5e15 * U / tfm_block_flops(&w, TFM_FWD);
    assert_rel(r.balance_tokens, balance, 1e-14);
    assert_int_equal(r.stream_balanced, r.step.micro_tokens >= balance);
    assert_int_equal(!!(r.warnings & TW_STREAM), r.step.micro_tokens < balance);

    /* offloaded: 96 sequences' block inputs (96 x 2 s h = 4.8 GB each, 464
     * GB in all) fit the system's one server of 512 GiB, which holds
     * floor(512 GiB / 4.8 GB) = 113 sequences: all 96 in one pass */
    c.act = ACT_OFFLOAD;
    c.act_k = 0;
    train_eval(&c, &r);
    double ckpt = 96 * 2 * 2048 * 12288.0;
    double server = h.act.server_bytes;
    assert_rel(server, 512 * 1073741824.0, 0);
    assert_rel(r.step.act_servers, 1, 0);
    assert_rel(r.step.store_seqs, floor(server / ckpt), 0);
    assert_rel(r.step.store_seqs, 113, 0);
    assert_int_equal(r.step.act, ACT_OFFLOAD);
    assert_rel(r.step.micro_batches, 1, 0);
    assert_false(r.warnings & TW_ACCUM);
    assert_int_equal(r.feasible, 1);
    /* one server per system, of each of the 16 */
    assert_rel(r.power_part[TRAIN_POWER_ACT], 16 * 1 * h.act.server_power_W, 1e-15);
    c.act = ACT_AUTO;

    /* the generation's largest cluster: a verdict of its own */
    make_cluster(&c, &h, &w, h.wse.max_systems, 1536);
    train_eval(&c, &r);
    assert_int_equal(r.systems_ok, 1);
    assert_false(r.warnings & TW_MAX_SYSTEMS);
    make_cluster(&c, &h, &w, h.wse.max_systems + 1, 1536);
    train_eval(&c, &r);
    assert_int_equal(r.systems_ok, 0);
    assert_true(r.warnings & TW_MAX_SYSTEMS);
    assert_int_equal(r.feasible, 0);
    /* the split verdicts below on a generation that builds them */
    h.wse.max_systems = 4096;

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
    assert_rel(c.mx_servers, 0, 0); /* sized for the run */
    assert_rel(c.act_servers, 0, 0);
    assert_int_equal(c.act, ACT_AUTO);
    assert_rel(c.act_k, 0, 0);
    assert_rel(c.sparsity, 0, 0);
    assert_rel(c.global_seqs, 1024, 0);
    assert_rel(c.ref_seqs, 1024, 0);
    assert_rel(c.tokens, 2e12, 0);
    assert_true(c.price < 0);
    assert_int_equal(c.batch_penalty, 0);
    assert_ok(cluster_check(&c, &err), err);

    static const struct {
        double systems, sparsity, mx, act, k;
        enum act_mode mode;
        const char *flag;
    } bad[] = {
        {0, 0, 0, 0, 0, ACT_AUTO, "--systems"},
        {1.5, 0, 0, 0, 0, ACT_AUTO, "--systems"},
        {2e6, 0, 0, 0, 0, ACT_AUTO, "--systems"},
        {-1, 0, 0, 0, 0, ACT_AUTO, "--systems"},
        {NAN, 0, 0, 0, 0, ACT_AUTO, "--systems"},
        {1, 0.995, 0, 0, 0, ACT_AUTO, "--sparsity"},
        {1, -0.1, 0, 0, 0, ACT_AUTO, "--sparsity"},
        {1, NAN, 0, 0, 0, ACT_AUTO, "--sparsity"},
        {1, 0, -1, 0, 0, ACT_AUTO, "--memoryx-servers"},
        {1, 0, 1.5, 0, 0, ACT_AUTO, "--memoryx-servers"},
        {1, 0, 1e9, 0, 0, ACT_AUTO, "--memoryx-servers"},
        {1, 0, NAN, 0, 0, ACT_AUTO, "--memoryx-servers"},
        {1, 0, 0, -2, 0, ACT_OFFLOAD, "--act-servers"},
        {1, 0, 0, 2.5, 0, ACT_OFFLOAD, "--act-servers"},
        {1, 0, 0, 2e6, 0, ACT_OFFLOAD, "--act-servers"},
        {1, 0, 0, 0, 81, ACT_RECOMPUTE, "--activations recompute:81"}, /* 80 blocks */
        {1, 0, 0, 0, 2.5, ACT_RECOMPUTE, "--activations"},
        {1, 0, 0, 0, -1, ACT_RECOMPUTE, "--activations"},
        {1, 0, 0, 0, 0, ACT_NMODES, "--activations"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cluster_init(&c, &h, &w);
        c.systems = bad[i].systems;
        c.sparsity = bad[i].sparsity;
        c.mx_servers = bad[i].mx;
        c.act_servers = bad[i].act;
        c.act_k = bad[i].k;
        c.act = bad[i].mode;
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
    c.mx_servers = HW_MAX_SERVERS;
    c.act_servers = HW_MAX_SERVERS;
    c.act = ACT_RECOMPUTE;
    c.act_k = w.layers;
    c.global_seqs = 1;
    assert_ok(cluster_check(&c, &err), err);
    c.mx_servers = 1;
    c.act_servers = 1;
    c.act_k = 1;
    assert_ok(cluster_check(&c, &err), err);

    /* server sizes that round to nothing: a million servers cannot hold
     * the largest layer's state (a Llama 2 70B block, 18 B a parameter,
     * 15.4 GB) or one sequence's input to one block (2 s h = 67 MB) */
    double layer = 18 * fmax(tfm_block_params(&w), fmax(tfm_embed_params(&w), tfm_head_params(&w)));
    assert_rel(layer, 18 * tfm_block_params(&w), 0);
    assert_rel(layer, 15.4e9, 0.01);
    double input = 2 * 4096 * 8192.0;
    char mxs[64], acts[64];
    snprintf(mxs, sizeof mxs, "memoryx.server_memory=%.17g B", 0.99 * layer / HW_MAX_SERVERS);
    snprintf(acts, sizeof acts, "activation.server_memory=%.17g B", 0.99 * input / HW_MAX_SERVERS);
    const struct {
        const char *set, *key;
    } tiny[] = {
        {mxs, "memoryx.server_memory"},
        {acts, "activation.server_memory"},
        {"memoryx.server_memory=1 B", "memoryx.server_memory"},
    };
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
        struct hw_desc ht;
        load_hw("cs3", &tiny[i].set, 1, &ht);
        cluster_init(&c, &ht, &w);
        memset(&err, 0, sizeof err);
        assert_int_equal(cluster_check(&c, &err), CP_EINPUT);
        if (strncmp(err.msg, tiny[i].key, strlen(tiny[i].key)) != 0) {
            print_error("'%s': message '%s' does not start with %s\n", tiny[i].set, err.msg,
                        tiny[i].key);
            fail();
        }
    }
    /* just enough: a million servers of 1.01 x their share hold it */
    snprintf(mxs, sizeof mxs, "memoryx.server_memory=%.17g B", 1.01 * layer / HW_MAX_SERVERS);
    snprintf(acts, sizeof acts, "activation.server_memory=%.17g B", 1.01 * input / HW_MAX_SERVERS);
    const char *enough[] = {mxs, acts};
    struct hw_desc he;
    load_hw("cs3", enough, 2, &he);
    cluster_init(&c, &he, &w);
    assert_ok(cluster_check(&c, &err), err);
    /* flash counts towards holding a layer */
    const char *flash[] = {"memoryx.server_memory=1 B", "memoryx.server_flash=1 MB",
                           "memoryx.server_flash_bandwidth=1 GB/s"};
    load_hw("cs3", flash, 3, &he);
    cluster_init(&c, &he, &w);
    assert_ok(cluster_check(&c, &err), err);
}

/* cluster.h: the batch, the token count, the reference batch and the price
 * are fields of the configuration too, and out of range they are input
 * errors that name the option. */
static void test_cluster_check_batch(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("llama2-70b", NULL, 0, &w);
    struct cluster c;
    struct cp_error err = {0};
    static const struct {
        double batch, tokens, price;
        const char *flag;
    } bad[] = {
        {0, 1e9, -1, "--batch"},        {2.5, 1e9, -1, "--batch"},
        {INFINITY, 1e9, -1, "--batch"}, {NAN, 1e9, -1, "--batch"},
        {1024, 0, -1, "--tokens"},      {1024, INFINITY, -1, "--tokens"},
        {1024, 1e9, NAN, "--price"},    {1024, 1e9, INFINITY, "--price"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cluster_init(&c, &h, &w);
        c.global_seqs = bad[i].batch;
        c.tokens = bad[i].tokens;
        c.price = bad[i].price;
        memset(&err, 0, sizeof err);
        cp_status st = cluster_check(&c, &err);
        if (st != CP_EINPUT || !strstr(err.msg, bad[i].flag)) {
            print_error("case %zu (batch %g, tokens %g, price %g): status %d, message '%s'; want "
                        "CP_EINPUT naming %s\n",
                        i, bad[i].batch, bad[i].tokens, bad[i].price, st,
                        st == CP_OK ? "" : err.msg, bad[i].flag);
            fail();
        }
    }
}

/* ---- servers and placement (issue 17) ---- */

/* On an update-bound configuration (GPT-3 175B, one sequence on one CS-3,
 * few MemoryX servers with slow DRAM) each doubling of the servers halves
 * the update's busy time (each updates 1/S of every layer) and never
 * lengthens the step. */
static void test_mx_servers_doubling(void **state)
{
    (void)state;
    const char *slow[] = {"memoryx.server_memory_bandwidth=50 GB/s"};
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", slow, 1, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster c;
    struct step_result r, prev;
    make_cluster(&c, &h, &w, 1, 1);
    c.mx_servers = 3; /* 3 x 1128 GiB hold the 3.15 TB */
    step_eval(&c, &prev);
    assert_int_equal(prev.bottleneck, STEP_UPDATE);
    assert_rel(prev.mx_servers, 3, 0);
    for (double S = 6; S <= 384; S *= 2) {
        c.mx_servers = S;
        step_eval(&c, &r);
        assert_rel(r.mx_servers, S, 0);
        assert_rel(r.busy[STEP_UPDATE], prev.busy[STEP_UPDATE] / 2, 1e-12);
        assert_true(r.step_s <= prev.step_s);
        assert_true(r.stream_bw >= prev.stream_bw);
        prev = r;
    }
    /* with enough servers the update no longer sets the pace */
    assert_rel(prev.critical[STEP_UPDATE], 0, 0);
}

/* Servers sized for the run are the fewest that hold the state in DRAM,
 * feed the stream and keep every layer's update within its backward pass:
 * S = max(hold, stream, update), the update never sets the pace, and one
 * server fewer would break one of the three.  Every shipped model on both
 * generations; 10 T on 2048 CS-3 is an issue-17 target ("the update does
 * not set the pace"). */
static void test_mx_sized_for_the_run(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 16, 192, 2048};
    int ten_t = 0;
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double port = stream_rate(&h, 0);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            double state_b = tfm_params(&w) * mx_bytes_per_param(&w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                struct cluster c;
                struct train_result r;
                make_cluster(&c, &h, &w, systems[j], w.batch);
                train_eval(&c, &r);
                const struct step_result *st = &r.step;
                double S = st->mx_servers;
                assert_rel(st->mx_hold, fmax(1, ceil(state_b / h.mx.server_dram_bytes)), 0);
                assert_rel(st->mx_stream, ceil(port / h.mx.server_net_Bps), 0);
                assert_rel(S, fmax(st->mx_hold, fmax(st->mx_stream, st->mx_update)), 0);
                assert_int_equal(r.memoryx_fits, 1);
                assert_rel(st->flash_fraction, 0, 0);
                assert_rel(st->stream_bw, port, 0);
                if (st->critical[STEP_UPDATE] != 0 || st->bottleneck == STEP_UPDATE) {
                    print_error("%s on %g %s: the update sets the pace for %g s of %g s\n",
                                models[k], systems[j], all_hw[i], st->critical[STEP_UPDATE],
                                st->step_s);
                    fail();
                }
                /* one fewer */
                if (S > 1) {
                    struct cluster c1 = c;
                    struct train_result r1;
                    c1.mx_servers = S - 1;
                    train_eval(&c1, &r1);
                    int short_hold = (S - 1) * h.mx.server_dram_bytes < state_b;
                    int short_stream = r1.step.stream_bw < port;
                    int short_update = r1.step.critical[STEP_UPDATE] > 0;
                    assert_true(short_hold || short_stream || short_update);
                }
                if (!strcmp(models[k], "10t") && i == 1 && systems[j] == 2048)
                    ten_t = 1;
            }
        }
    }
    assert_true(ten_t);
}

/* The placement taken when none is forced is the fastest that fits among
 * those --activations can force (the wafer left out when the model file
 * asks for recompute; recompute with its best k): its step equals their
 * least; when none fits, the least of all. */
static void test_act_auto_is_fastest(void **state)
{
    (void)state;
    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 16, 192, 2048};
    unsigned long picked[ACT_NMODES] = {0};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++) {
                struct cluster c;
                struct step_result a, f;
                make_cluster(&c, &h, &w, systems[j], w.batch);
                step_eval(&c, &a);
                assert_true(a.act != ACT_AUTO);
                picked[a.act]++;
                double best_fit = INFINITY, best_any = INFINITY;
                for (int m = ACT_WAFER; m < ACT_NMODES; m++) {
                    if (m == ACT_WAFER && w.recompute)
                        continue;
                    c.act = (enum act_mode)m;
                    c.act_k = 0;
                    step_eval(&c, &f);
                    assert_int_equal(f.act, m);
                    best_any = fmin(best_any, f.step_s);
                    if (f.sram_fits && f.act_fits)
                        best_fit = fmin(best_fit, f.step_s);
                }
                double want = isfinite(best_fit) ? best_fit : best_any;
                if (a.step_s != want || (isfinite(best_fit) && !(a.sram_fits && a.act_fits))) {
                    char label[32];
                    print_error("%s on %g %s: auto took %s, %.17g s; the fastest that fits "
                                "takes %.17g s (of all %.17g s)\n",
                                models[k], systems[j], all_hw[i],
                                step_act_label(&a, label, sizeof label), a.step_s, best_fit,
                                best_any);
                    fail();
                }
            }
        }
    }
    /* the shipped space uses every placement */
    assert_true(picked[ACT_WAFER] > 0 && picked[ACT_RECOMPUTE] > 0 && picked[ACT_OFFLOAD] > 0);
}

/* Recompute every k > 1 blocks: each segment's forward runs again before
 * its backward, so every block's weights stream in a third time: at the
 * same micro-batches, stream_in is busier than recompute every block by
 * exactly l blocks' weights at the stream rate, and the recomputed forward
 * is the same work. */
static void test_act_recompute_k_streams_more(void **state)
{
    (void)state;
    static const char *const models[] = {"gpt3-xl", "llama2-7b", "gpt3-175b"};
    for (size_t i = 0; i < 2; i++) {
        struct hw_desc h;
        load_hw(all_hw[i], NULL, 0, &h);
        double bw = stream_rate(&h, 0);
        for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            struct cluster c;
            struct step_result r1, rk;
            make_cluster(&c, &h, &w, 1, 1); /* one sequence: one micro-batch either way */
            c.act = ACT_RECOMPUTE;
            c.act_k = 1;
            step_eval(&c, &r1);
            assert_rel(r1.micro_batches, 1, 0);
            double extra = w.layers * tfm_block_params(&w) * w.weight_bytes / bw;
            for (double kk = 2; kk <= 4; kk++) {
                c.act_k = kk;
                step_eval(&c, &rk);
                assert_rel(rk.act_k, kk, 0);
                assert_rel(rk.micro_batches, r1.micro_batches, 0);
                assert_true(rk.busy[STEP_STREAM_IN] > r1.busy[STEP_STREAM_IN]);
                assert_rel(rk.busy[STEP_STREAM_IN] - r1.busy[STEP_STREAM_IN], extra, 1e-9);
                assert_rel(rk.recompute_s, r1.recompute_s, 1e-12);
                assert_true(rk.step_s >= r1.step_s);
                /* fewer inputs kept, more blocks' activations: the SRAM of
                 * ceil(l / k) inputs and k blocks */
                double in = tfm_act_bytes_per_seq_block(&w, 1),
                       full = tfm_act_bytes_per_seq_block(&w, 0);
                assert_rel(rk.sram_per_seq - r1.sram_per_seq,
                           (ceil(w.layers / kk) - w.layers) * in + (kk - 1) * full, 1e-12);
            }
        }
    }
}

/* Issue 17 targets on 2048 CS-3, MemoryX sized for the run: 120 T for 300 B
 * tokens is feasible and its time no shorter than the dense-peak compute
 * bound 6 P T / (N x peak); with the activation servers that hold a
 * system's 8 sequences (7 of 512 GiB for 8 x 417 GB) within 10x of it
 * (the system's one server holds one: 8 micro-batches, each streaming the
 * weights again); every shipped model is feasible at some N of 1, 16, 192
 * and 2048 (the model's batch, as estimate -n N). */
static void test_targets_cs3(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    load_hw("cs3", NULL, 0, &h);
    load_model("120t", NULL, 0, &w);
    struct cluster c;
    struct train_result r;
    make_cluster(&c, &h, &w, 2048, w.batch);
    c.tokens = 300e9;
    train_eval(&c, &r);
    double bound = 6 * tfm_params(&w) * 300e9 / (2048 * h.wse.peak_flops);
    print_message("# 120T, 300e9 tokens, 2048 CS-3: %.4g s, bound %.4g s (%.3gx), %s\n", r.time_s,
                  bound, r.time_s / bound, r.feasible ? "feasible" : "infeasible");
    assert_int_equal(r.feasible, 1);
    assert_true(r.time_s >= bound);
    assert_rel(r.step.micro_batches, 8, 0);
    c.act_servers = 7;
    train_eval(&c, &r);
    print_message("# the same with 7 activation servers a system: %.4g s (%.3gx)\n", r.time_s,
                  r.time_s / bound);
    assert_rel(r.step.micro_batches, 1, 0);
    assert_true(r.time_s >= bound);
    assert_true(r.time_s <= 10 * bound);

    char models[MAX_MODELS][CAT_NAME_MAX];
    size_t nm = shipped_models(models);
    static const double systems[] = {1, 16, 192, 2048};
    for (size_t k = 0; k < nm; k++) {
        load_model(models[k], NULL, 0, &w);
        int any = 0;
        for (size_t j = 0; j < sizeof systems / sizeof systems[0] && !any; j++) {
            make_cluster(&c, &h, &w, systems[j], w.batch);
            train_eval(&c, &r);
            any = r.feasible;
        }
        if (!any) {
            print_error("%s is infeasible on 1, 16, 192 and 2048 CS-3\n", models[k]);
            fail();
        }
    }
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
        cmocka_unit_test(test_mx_servers),
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
        cmocka_unit_test(test_step_offload_llama2_7b),
        cmocka_unit_test(test_step_act_traffic_binds),
        cmocka_unit_test(test_step_overhead),
        cmocka_unit_test(test_order_stat),
        cmocka_unit_test(test_weak_scaling_jitter),
        cmocka_unit_test(test_step_predictions),
        cmocka_unit_test(test_train_time_energy_cost),
        cmocka_unit_test(test_train_critical_batch_and_penalty),
        cmocka_unit_test(test_train_verdicts_120t),
        cmocka_unit_test(test_train_verdicts_120t_offload),
        cmocka_unit_test(test_train_verdicts_other),
        cmocka_unit_test(test_cluster_check),
        cmocka_unit_test(test_cluster_check_batch),
        cmocka_unit_test(test_mx_servers_doubling),
        cmocka_unit_test(test_mx_sized_for_the_run),
        cmocka_unit_test(test_act_auto_is_fastest),
        cmocka_unit_test(test_act_recompute_k_streams_more),
        cmocka_unit_test(test_targets_cs3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
