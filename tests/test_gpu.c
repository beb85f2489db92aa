/* test_gpu.c - the GPU training model (src/gpu) and the GPU system
 * descriptions (src/desc/gpuhw, the GPU files of hw/), against published figures
 * only: the 49 measured runs of hw/gpu-measurements.csv (issue 21's
 * targets: median absolute error of the step time at most 10 %, maximum at
 * most 25 %), GPT-3 175B's memory on one A100 and on the published
 * TP = 8, PP = 8 layout, the 1F1B bubble (p-1)/m and its interleaved
 * (p-1)/(m v) (Narayanan et al. 2021, sec. 2.2), block recompute between
 * none and full, dropout masks kept only with dropout on (Korthikanti et
 * al. 2022), and layouts that do not divide refused with a message naming
 * the figure; the reworked model's mechanisms: tile and wave quantisation
 * of the matmuls, plain 1F1B's activations without the interleaving factor
 * (the 1T layout of Korthikanti et al. 2022 fits an A100), FSDP's memory
 * and traffic, the workload's software switches, the stored scores' HBM
 * traffic under context parallelism, a tp wider than the NVLink domain at
 * the scale-out rate and any pipeline split up to the layers.  Runs from
 * the top of the source tree; prints the per-run table to stdout. */
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
#include <time.h>

#include "desc/catalog.h"
#include "desc/gmeas.h"
#include "desc/gpuhw.h"
#include "desc/tfm.h"
#include "gpu/gpu.h"
#include "gpu/gpu_int.h"
#include "gpu/gpu_run.h"

/* Issue 21's validation targets. */
#define TARGET_MEDIAN 0.10
#define TARGET_MAX 0.25
#define CORPUS_ROWS 49

static const char *const gpu_names[GMEAS_NGPUS] = {"a100", "h100", "h200", "b200", "gb200"};

static void load_corpus_named(const char *file, struct gmeas_list *l)
{
    struct cat_dirs dirs = {.dir = {"."}, .n = 1};
    struct cat_entry e;
    struct cp_error err = {0};
    check_ok(cat_find_data(&dirs, "hw", file, &e, &err), &err, __FILE__, __LINE__);
    check_ok(gmeas_parse(e.text, e.origin, l, &err), &err, __FILE__, __LINE__);
    cat_entry_free(&e);
}

static void load_corpus(struct gmeas_list *l)
{
    load_corpus_named("gpu-measurements.csv", l);
}

/* The model's step time for a row (the layout checked first). */
static double row_model(const struct gpuhw_desc *gs, const struct gmeas_row *r,
                        struct gpu_result *res)
{
    struct cp_error err = {0};
    check_ok(gpu_run_eval(&gs[r->gpu], r, res, &err), &err, __FILE__, __LINE__);
    return res->step_s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Every shipped GPU description loads and says it is for the GPU model. */
static void test_descriptions(void **state)
{
    (void)state;
    for (int i = 0; i < GMEAS_NGPUS; i++) {
        struct gpuhw_desc g;
        load_gpu(gpu_names[i], &g);
        assert_int_equal(g.kind, GPUHW_GPU);
        assert_true(g.chip.peak_flops[GPUHW_BF16] > 0);
    }
    struct gpuhw_desc a100, gb200;
    load_gpu("a100", &a100);
    load_gpu("gb200", &gb200);
    assert_rel(a100.chip.peak_flops[GPUHW_BF16], 312e12, 0); /* Narayanan et al. 2021 */
    assert_rel(a100.chip.peak_flops[GPUHW_FP8], 0, 0);
    assert_rel(gb200.net.nvlink_domain, 72, 0);
    const char *sets[] = {"system.kind=weight-streaming"};
    struct cp_error err = {0};
    struct gpuhw_desc g;
    assert_int_equal(gpuhw_load("[system]\nkind=gpu\n", "x.ini", sets, 1, &g, NULL, &err),
                     CP_EINPUT);
    assert_non_null(strstr(err.msg, "x.ini"));
    /* the kind read from the text alone, as the INI syntax writes it */
    assert_int_equal(gpuhw_kind_of("[system]\nkind = gpu\n"), GPUHW_GPU);
    assert_int_equal(gpuhw_kind_of("# c\n [system]\n  kind : gpu # a GPU\n"), GPUHW_GPU);
    assert_int_equal(gpuhw_kind_of("[system]\nkind=gpu"), GPUHW_GPU);
    assert_int_equal(gpuhw_kind_of("[system]\nkind = gpus\n"), GPUHW_WEIGHT_STREAMING);
    assert_int_equal(gpuhw_kind_of("[gpu]\nkind = gpu\n"), GPUHW_WEIGHT_STREAMING);
    assert_int_equal(gpuhw_kind_of("[system]\nname = x\n"), GPUHW_WEIGHT_STREAMING);
}

/* Per-source statistics of the absolute errors, printed. */
static void print_sources(const struct gmeas_list *l, const double *err)
{
    static const char *const prefix[] = {"NAR", "MCR", "NM24", "MLP", "KOR22"};
    for (size_t s = 0; s < sizeof prefix / sizeof prefix[0]; s++) {
        double v[CORPUS_ROWS];
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++)
            if (strncmp(l->rows[i].id, prefix[s], strlen(prefix[s])) == 0)
                v[n++] = err[i];
        if (n == 0)
            continue;
        double med = median(v, n); /* sorts v */
        printf("# %-5s %2zu runs: median %5.1f %%, max %5.1f %%\n", prefix[s], n, 100 * med,
               100 * v[n - 1]);
    }
}

/* The 49 published runs: one set of constants, every run's step time. */
/* Issue 29: every published run of both shipped corpora (the fitted one
 * and the hold-out) can be written as a layout the model accepts, and its
 * memory fits at that layout (with the recompute it published, or the
 * least a framework could run): the runs happened, so a model that says
 * they cannot is wrong. */
static void test_corpus_expressible(void **state)
{
    (void)state;
    struct gpuhw_desc gs[GMEAS_NGPUS];
    for (int i = 0; i < GMEAS_NGPUS; i++)
        load_gpu(gpu_names[i], &gs[i]);
    static const char *const files[] = {"gpu-measurements.csv", "gpu-measurements-holdout.csv"};
    for (size_t f = 0; f < 2; f++) {
        struct gmeas_list l;
        load_corpus_named(files[f], &l);
        for (size_t i = 0; i < l.n; i++) {
            const struct gmeas_row *r = &l.rows[i];
            struct wl_desc w;
            gpu_run_workload(r, &w);
            struct gpu_layout lay = gpu_run_layout(&gs[r->gpu], &w, r);
            struct cp_error err = {0};
            struct gpu_result res;
            check_ok(gpu_check(&gs[r->gpu], &w, &lay, &err), &err, __FILE__, __LINE__);
            gpu_memory(&gs[r->gpu], &w, &lay, &res);
            if (!res.fits) {
                print_error("%s: %.4g bytes per GPU at its published layout, %.4g usable\n",
                            r->id, res.mem_total, res.mem_capacity);
                fail();
            }
        }
        gmeas_list_free(&l);
    }
}

/* A small-model trainer (issue 29: the per-step cost under a quarter of
 * the step, the throughput within 25 % of a published one).  llm.c trains
 * GPT-2 124M (12 layers, hidden 768, 12 heads, sequence 1024, vocabulary
 * 50257, tied embeddings, no dropout) on 8 H100 SXM (HBM3) at a mean of
 * 140 ms a step of 524,288 tokens: micro-batch 64 x 1024 on each GPU, no
 * gradient accumulation, bf16, cuDNN flash attention, ZeRO-1, no recompute
 * (KellerJordan/modded-nanogpt, records/track_1_short/2024-10-13_llmc
 * README: "The mean per-step time was 140ms"; karpathy/llm.c
 * scripts/run_gpt2_124M.sh for the settings). */
static void test_small_trainer(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    const char *sets[] = {"model.seq_len=1024", "model.dropout=false", "model.batch=512"};
    struct wl_desc w;
    load_model("gpt2-small", sets, 3, &w);
    struct gpu_layout l = gpu_layout_default(1, 1, 8, 64);
    gpu_layout_switches(&l, &w);
    struct cp_error err = {0};
    assert_ok(gpu_check(&g, &w, &l, &err), err);
    struct gpu_result r;
    gpu_eval(&g, &w, &l, &r);
    printf("# GPT-2 124M on 8 H100: %.1f ms a step (llm.c 140 ms), overhead %.1f ms, "
           "%.3g tokens/s (llm.c %.3g)\n",
           1e3 * r.step_s, 1e3 * r.part_s[GPU_OVERHEAD], r.tokens_per_s, 524288 / 0.140);
    assert_true(r.fits);
    assert_true(r.part_s[GPU_OVERHEAD] < r.step_s / 4);
    assert_rel(r.tokens_per_s, 524288 / 0.140, 0.25);
}

static void test_corpus(void **state)
{
    (void)state;
    struct gpuhw_desc gs[GMEAS_NGPUS];
    for (int i = 0; i < GMEAS_NGPUS; i++)
        load_gpu(gpu_names[i], &gs[i]);
    struct gmeas_list l;
    load_corpus(&l);
    assert_int_equal(l.n, CORPUS_ROWS);
    assert_true(isnan(l.rows[0].vp)); /* NAR-T1-01: not published */
    for (size_t i = 0; i < l.n; i++)
        if (strcmp(l.rows[i].id, "NM24-03") == 0)
            assert_rel(l.rows[i].vp, 6, 0); /* "CP=1 VP=6" in the notes */
    /* NeMo's nemotron_340b.yaml ran Nemotron-4 340B (NM24-10) with
     * activations_checkpoint_granularity null: no recompute; with its bf16
     * optimizer state the model must find that it fits. */
    for (size_t i = 0; i < l.n; i++)
        if (strcmp(l.rows[i].id, "NM24-10") == 0) {
            struct wl_desc w;
            gpu_run_workload(&l.rows[i], &w);
            struct gpu_layout lay = gpu_run_layout(&gs[l.rows[i].gpu], &w, &l.rows[i]);
            assert_int_equal(lay.recompute, GPU_RC_NONE);
        }
    double err[CORPUS_ROWS], sorted[CORPUS_ROWS];
    printf("# %-50s %10s %10s %7s %6s %s\n", "id", "measured", "model", "error", "MFU",
           "bottleneck");
    for (size_t i = 0; i < l.n; i++) {
        const struct gmeas_row *r = &l.rows[i];
        struct gpu_result res;
        double m = row_model(gs, r, &res);
        err[i] = fabs(m / r->step_time_s - 1);
        printf("# %-50.50s %9.4gs %9.4gs %+6.1f%% %5.1f%% %s\n", r->id, r->step_time_s, m,
               100 * (m / r->step_time_s - 1), 100 * res.mfu, gpu_part_name[res.bottleneck]);
    }
    print_sources(&l, err);
    memcpy(sorted, err, sizeof err);
    double med = median(sorted, l.n), max = sorted[l.n - 1];
    printf("# all   %2zu runs: median %5.1f %%, max %5.1f %% (targets %.0f %%, %.0f %%)\n", l.n,
           100 * med, 100 * max, 100 * TARGET_MEDIAN, 100 * TARGET_MAX);
    assert_true(med <= TARGET_MEDIAN);
    assert_true(max <= TARGET_MAX);
    gmeas_list_free(&l);
}

/* GPT-3 175B (Brown et al. 2020), batch 1536 and dropout as in Narayanan
 * et al. 2021. */
static struct wl_desc gpt3(void)
{
    struct gmeas_row r = {.id = "NAR",
                          .layers = 96,
                          .hidden = 12288,
                          .heads = 96,
                          .kv_heads = 96,
                          .ffn = 4 * 12288,
                          .seq_len = 2048,
                          .vocab = GPU_RUN_VOCAB_GPT3,
                          .batch_seqs = 1536,
                          .params = 175e9};
    struct wl_desc w;
    gpu_run_workload(&r, &w);
    return w;
}

/* 175 B parameters do not fit in one 80 GB GPU (350 GB of 16-bit weights
 * alone); they do with TP = 8 and PP = 8, full recompute, micro-batch 1,
 * as Narayanan et al. 2021 trained the model on A100 80 GB. */
static void test_memory(void **state)
{
    (void)state;
    struct gpuhw_desc a100;
    load_gpu("a100", &a100);
    struct wl_desc w = gpt3();
    assert_rel(tfm_params(&w), 175e9, 0.02);
    struct gpu_result r;
    struct gpu_layout one = gpu_layout_default(1, 1, 1, 1);
    gpu_memory(&a100, &w, &one, &r);
    assert_false(r.fits);
    assert_true(r.mem_weights > 80e9);
    struct gpu_layout l = gpu_layout_default(8, 8, 24, 1);
    l.recompute = GPU_RC_FULL;
    l.shard_optimizer = l.seq_parallel = l.flash_attention = 0;
    gpu_memory(&a100, &w, &l, &r);
    assert_true(r.fits);
    assert_rel(r.mem_total, r.mem_weights + r.mem_grads + r.mem_optimizer + r.mem_act, 1e-12);
    /* full recompute keeps less than selective, selective no more than none */
    double full = r.mem_act;
    l.recompute = GPU_RC_SELECTIVE;
    gpu_memory(&a100, &w, &l, &r);
    double sel = r.mem_act;
    l.recompute = GPU_RC_NONE;
    gpu_memory(&a100, &w, &l, &r);
    assert_true(full < sel && sel < r.mem_act);
}

/* Dropout masks (Korthikanti et al. 2022, sec. 4.1): per layer the two
 * 1-byte hidden dropout masks, 2 s b h, not split by tensor parallelism
 * without sequence parallelism; the attention dropout's 1-byte mask and
 * 2-byte output, 3 a s^2 b, split by it; neither kept when off. */
static void test_dropout(void **state)
{
    (void)state;
    struct gpuhw_desc h100;
    load_gpu("h100", &h100);
    struct wl_desc w = gpt3();
    struct gpu_layout l = gpu_layout_default(8, 1, 1, 1); /* 96 layers, one stage */
    l.seq_parallel = l.flash_attention = 0;
    struct gpu_result on, r;
    gpu_memory(&h100, &w, &l, &on);
    double s = 2048, h = 12288, a = 96;
    w.dropout = 0;
    gpu_memory(&h100, &w, &l, &r);
    assert_rel(on.mem_act - r.mem_act, 96 * 2 * s * h, 1e-9);
    w.dropout = 1;
    w.attention_dropout = 0;
    gpu_memory(&h100, &w, &l, &r);
    assert_rel(on.mem_act - r.mem_act, 96 * 3 * a * s * s / 8, 1e-9);
    l.flash_attention = 1; /* flash attention keeps no scores: no difference */
    gpu_memory(&h100, &w, &l, &r);
    w.attention_dropout = 1;
    gpu_memory(&h100, &w, &l, &on);
    assert_rel(on.mem_act, r.mem_act, 1e-15);
}

/* Block recompute of k of a stage's layers: k = 0 is none, k = all is
 * full, in memory and in time; in between, memory and time lie between
 * theirs and move one step per layer. */
static void test_block(void **state)
{
    (void)state;
    struct gpuhw_desc h100;
    load_gpu("h100", &h100);
    struct wl_desc w = gpt3();
    struct gpu_layout l = gpu_layout_default(8, 8, 16, 1); /* 12 layers a stage */
    struct gpu_result none, full, r;
    gpu_eval(&h100, &w, &l, &none);
    l.recompute = GPU_RC_FULL;
    gpu_eval(&h100, &w, &l, &full);
    l.recompute = GPU_RC_BLOCK;
    double prev_mem = none.mem_act, prev_step = 0;
    for (l.recompute_layers = 0; l.recompute_layers <= 12; l.recompute_layers++) {
        gpu_eval(&h100, &w, &l, &r);
        if (l.recompute_layers == 0) {
            assert_rel(r.step_s, none.step_s, 1e-12);
            assert_rel(r.mem_act, none.mem_act, 1e-12);
        } else {
            assert_true(r.mem_act < prev_mem && r.step_s > prev_step);
        }
        prev_mem = r.mem_act;
        prev_step = r.step_s;
    }
    assert_rel(r.step_s, full.step_s, 1e-12);
    assert_rel(r.mem_act, full.mem_act, 1e-12);
    assert_rel(r.model_flops, none.model_flops, 0); /* recompute is not model work */
}

/* The 1F1B bubble (Narayanan et al. 2021, sec. 2.2): (p-1)/m of the ideal
 * time, (p-1)/(m v) with v interleaved chunks; the bubble's time is
 * (p-1)/v micro-batch times. */
static void test_bubble(void **state)
{
    (void)state;
    struct gpuhw_desc h100;
    load_gpu("h100", &h100);
    struct wl_desc w = gpt3();
    struct gpu_layout l = gpu_layout_default(8, 8, 16, 1); /* m = 1536 / 16 = 96 */
    struct gpu_result r;
    gpu_eval(&h100, &w, &l, &r);
    assert_rel(r.micro_batches, 96, 0);
    assert_rel(r.bubble, 7.0 / 96, 1e-15);
    assert_rel(r.part_s[GPU_BUBBLE], 7 * r.micro_s, 1e-15);
    l.vp = 4;
    gpu_eval(&h100, &w, &l, &r);
    assert_rel(r.bubble, 7.0 / (96 * 4), 1e-15);
    assert_rel(r.part_s[GPU_BUBBLE], 7 * r.micro_s / 4, 1e-15);
    double sum = 0;
    for (int i = 0; i < GPU_NPARTS; i++)
        sum += r.part_s[i];
    assert_rel(r.step_s, sum, 1e-12);
    assert_rel(r.tokens_per_s, 1536 * 2048 / r.step_s, 1e-15);
}

/* gpu_check() refuses l on the system file with a message holding what. */
static void expect_refused(const char *file, const struct gpu_layout *l, const char *what)
{
    struct gpuhw_desc g;
    load_gpu(file, &g);
    struct wl_desc w = gpt3();
    struct cp_error err = {0};
    assert_int_equal(gpu_check(&g, &w, l, &err), CP_EINPUT);
    if (!strstr(err.msg, what)) {
        print_error("message '%s'; wanted '%s'\n", err.msg, what);
        fail();
    }
}

static void test_refusals(void **state)
{
    (void)state;
    struct gpu_layout l = gpu_layout_default(8, 8, 24, 1);
    struct gpuhw_desc g;
    struct wl_desc w = gpt3();
    struct cp_error err = {0};
    load_gpu("a100", &g);
    assert_ok(gpu_check(&g, &w, &l, &err), err);
    l.tp = 5;
    expect_refused("a100", &l, "tp = 5 does not divide the 96 attention heads");
    /* more stages than layers; any pp up to the layers runs (test_wide_tp,
     * test_uneven_split) */
    l = gpu_layout_default(1, 97, 16, 1);
    expect_refused("a100", &l, "pp = 97 stages exceed the 96 layers");
    l.pp = 96;
    assert_ok(gpu_check(&g, &w, &l, &err), err);
    /* interleaving with fewer micro-batches than stages: batch 1536 over dp
     * 512 x mbs 1 is 3 micro-batches on 8 stages */
    l = gpu_layout_default(2, 8, 512, 1);
    l.vp = 2;
    expect_refused("h100", &l, "vp = 2 interleaving needs at least pp = 8 micro-batches");
    l = gpu_layout_default(8, 8, 24, 1);
    l.vp = 5;
    expect_refused("a100", &l, "vp = 5 does not divide the 12 layers of a stage");
    l = gpu_layout_default(8, 8, 24, 5);
    expect_refused("a100", &l, "dp x mbs = 24 x 5 does not divide the global batch of 1536");
    l = gpu_layout_default(8, 8, 24, 1);
    l.dp = 2.5;
    expect_refused("a100", &l, "dp = 2.5 is not a whole number");
    l.dp = 24;
    l.precision = GPUHW_FP8;
    expect_refused("a100", &l, "no fp8 tensor cores (gpu.peak_fp8 = 0)");
    l.precision = GPUHW_FP4;
    expect_refused("h100", &l, "no fp4 tensor cores (gpu.peak_fp4 = 0)");
    load_gpu("b200", &g);
    assert_ok(gpu_check(&g, &w, &l, &err), err);
    l = gpu_layout_default(8, 8, 24, 1);
    l.recompute = GPU_RC_BLOCK;
    l.recompute_layers = 13;
    expect_refused(
        "a100", &l,
        "recompute_layers = 13 is not a whole number from 0 to the 12 layers of a stage");
    l.recompute_layers = 1.5;
    expect_refused("a100", &l, "recompute_layers = 1.5 is not a whole number");
    l.recompute_layers = -1;
    expect_refused("a100", &l, "recompute_layers = -1 is not a whole number");
    l.recompute_layers = 12;
    assert_ok(gpu_check(&g, &w, &l, &err), err);
}

/* tp = 16 on A100 nodes of 8 (an NVLink domain of 8): accepted, its
 * group spans two nodes, so its tensor-parallel collectives run at the
 * scale-out rate of the 8 GPUs of a node pooling their NICs (8 x 200 Gb/s
 * HDR, under NVLink's 300 GB/s) where tp = 8 runs at NVLink's: each
 * layer's 4 collectives of T hidden 16-bit values cost the ring's 2 (tp-1)/tp
 * bytes at that rate, 80 % of it hidden (tp_overlap): its exposed
 * tensor-parallel time is above tp = 8's on the same 1536 GPUs (the step
 * as a whole may not be: its matmuls are split finer and quantised
 * differently). */
static void test_wide_tp(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("a100", &g);
    struct wl_desc w = gpt3();
    struct cp_error err = {0};
    struct gpu_layout l8 = gpu_layout_default(8, 8, 24, 1), l16 = gpu_layout_default(16, 8, 12, 1);
    assert_ok(gpu_check(&g, &w, &l16, &err), err);
    struct gpu_result r8, r16;
    gpu_eval(&g, &w, &l8, &r8);
    gpu_eval(&g, &w, &l16, &r16);
    printf("# GPT-3 175B on 1536 A100: tp 8 %.3f s (tp-comm %.3f s), tp 16 %.3f s (tp-comm "
           "%.3f s)\n",
           r8.step_s, r8.part_s[GPU_TP_COMM], r16.step_s, r16.part_s[GPU_TP_COMM]);
    assert_true(r16.part_s[GPU_TP_COMM] > r8.part_s[GPU_TP_COMM]);
    const struct gpu_net *n = &g.net;
    const struct gpu_layout *ls[] = {&l8, &l16};
    const struct gpu_result *rs[] = {&r8, &r16};
    const double rate[] = {n->nvlink_Bps, fmin(n->nvlink_Bps, 8 * n->scaleout_Bps)};
    assert_true(rate[1] < rate[0]);
    for (int i = 0; i < 2; i++) {
        double tp = ls[i]->tp, T = 2048, m = 1536 / ls[i]->dp;
        double ring = 2 * (tp - 1) / tp * T * 12288 * 2 / (rate[i] * g.fit.comm_eff) +
                      2 * (tp - 1) * n->link_latency_s;
        double want = m * 12 * 4 * ring * (1 - g.fit.tp_overlap);
        assert_rel(rs[i]->part_s[GPU_TP_COMM], want, 1e-9);
    }
}

/* Llama 3.1 405B's 126 layers on 8 stages (NeMo and MLPerf v5.0 ran
 * PP = 8 with the embedding and the loss counted as a layer each: 128 /
 * 8 = 16 a middle stage): the split runs, a stage holds 16 layers, and the
 * step lies between the even splits of 120 and 128 layers. */
static void test_uneven_split(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3();
    struct gpu_layout l = gpu_layout_default(8, 8, 16, 1);
    struct cp_error err = {0};
    struct gpu_result r[3];
    const double layers[] = {120, 126, 128};
    for (int i = 0; i < 3; i++) {
        w.layers = layers[i];
        l.vp = 1;
        check_ok(gpu_check(&g, &w, &l, &err), &err, __FILE__, __LINE__);
        gpu_eval(&g, &w, &l, &r[i]);
    }
    assert_true(r[0].step_s < r[1].step_s && r[1].step_s <= r[2].step_s);
    assert_true(r[1].mem_total <= r[2].mem_total);
    w.layers = 126;
    l.vp = 16; /* divides the 16 layers of a stage */
    check_ok(gpu_check(&g, &w, &l, &err), &err, __FILE__, __LINE__);
    l.vp = 6; /* does not divide 16 */
    assert_int_equal(gpu_check(&g, &w, &l, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "vp = 6 does not divide the 16 layers of a stage"));
    /* 96 layers on 5 stages (5 divides neither 96 nor 98): the 98 spread as
     * evenly as they go, the busiest stage holding ceil(98 / 5) = 20; its
     * micro-batch lies between those of the even splits on 6 stages (16
     * layers a stage) and on 4 (24) */
    w.layers = 96;
    l = gpu_layout_default(8, 5, 16, 1);
    check_ok(gpu_check(&g, &w, &l, &err), &err, __FILE__, __LINE__);
    l.vp = 4; /* divides 20 */
    check_ok(gpu_check(&g, &w, &l, &err), &err, __FILE__, __LINE__);
    l.vp = 3;
    assert_int_equal(gpu_check(&g, &w, &l, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "vp = 3 does not divide the 20 layers of a stage"));
    l.vp = 1;
    struct gpu_result five, four, six;
    gpu_eval(&g, &w, &l, &five);
    l.pp = 4;
    gpu_eval(&g, &w, &l, &four);
    l.pp = 6;
    gpu_eval(&g, &w, &l, &six);
    assert_true(six.micro_s < five.micro_s && five.micro_s < four.micro_s);
}

/* FP4 against FP8 on one layout: Megatron-Bridge's performance summary
 * (26.02.01 container) gives Llama 3 70B on 64 GB200 (TP 2, PP 4, VP 5, DP
 * 8, micro-batch 1, GBS 256, 8192 tokens) 4,557 tokens/s/GPU in NVFP4 and
 * 3,837 in MXFP8: the step ratio is 1.188 (fp4_efficiency was set from
 * this pair; the test keeps the two precisions' arithmetic tied to it). */
static void test_fp4_pair(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("gb200", &g);
    struct gmeas_row r = {.id = "MBR",
                          .model = "LLAMA3-70B",
                          .layers = 80,
                          .hidden = 8192,
                          .heads = 64,
                          .kv_heads = 8,
                          .ffn = 28672,
                          .seq_len = 8192,
                          .vocab = 128256,
                          .batch_seqs = 256,
                          .params = 70.6e9};
    struct wl_desc w;
    gpu_run_workload(&r, &w);
    struct gpu_layout l = gpu_layout_default(2, 4, 8, 1);
    l.vp = 5;
    struct gpu_result fp8, fp4;
    l.precision = GPUHW_FP8;
    gpu_eval(&g, &w, &l, &fp8);
    l.precision = GPUHW_FP4;
    gpu_eval(&g, &w, &l, &fp4);
    assert_rel(fp8.step_s / fp4.step_s, 4557.0 / 3837.0, 0.02);
}

/* Tile and wave quantisation (NVIDIA, "Matrix Multiplication Background
 * User's Guide", DU-09799-001, sec. 3.1-3.2), on A100's 108 SMs with the
 * 256 x 128 tiles of hw/a100.ini: a 3072 x 1152 output is 12 x 9 = 108
 * tiles, one whole wave, all of it useful: 1; 27904 x 128 is 109 tiles,
 * the last spilling into a second wave of which one SM works: 109 / 216;
 * 3072 x 1153 pads its columns to 10 tiles, 120 tiles in two waves:
 * 1153 / 1280 x 120 / 216.  On H100's 132 SMs 3072 x 1408 (12 x 11) is
 * one whole wave.  Without a tile size nothing is quantised.  The four
 * linear layers' time: with no SM count, 3 passes x 2 P_mat T / tp FLOP
 * at peak x matmul_efficiency exactly; quantised, longer. */
static void test_gemm_quant(void **state)
{
    (void)state;
    struct gpuhw_desc a100, h100;
    load_gpu("a100", &a100);
    load_gpu("h100", &h100);
    assert_rel(a100.chip.sm_count, 108, 0);
    assert_rel(h100.chip.sm_count, 132, 0);
    assert_rel(a100.fit.tile_m, 256, 0);
    assert_rel(a100.fit.tile_n, 128, 0);
    assert_rel(a100.fit.small_tile_m, 128, 0);
    assert_rel(a100.fit.small_tile_n, 128, 0);
    /* one tile shape: 12 x 9 = 108 tiles of 256 x 128 fill 108 SMs once */
    assert_rel(gpu_tile_quant(3072, 1152, 256, 128, 108), 1, 0);
    /* one tile more spills into a second wave: 109 of 216 slots busy */
    assert_rel(gpu_tile_quant(27904, 128, 256, 128, 108), 109.0 / 216, 1e-15);
    /* a ragged edge: 1153 columns padded to 10 tiles of 128 */
    assert_rel(gpu_tile_quant(3072, 1153, 256, 128, 108), 1153.0 / 1280 * 120 / 216, 1e-15);
    assert_rel(gpu_tile_quant(3072, 1408, 256, 128, 132), 1, 0);
    assert_rel(gpu_tile_quant(3072, 1152, 256, 128, 132), 108.0 / 132, 1e-15);
    /* the GPU's quantisation is the better of its two tiles (and of the two
     * orientations in gemm_s): 27904 x 128 in 128 x 128 tiles is 218 tiles,
     * 3 waves of 108: 218 / 324, better than the large tile's 109 / 216 */
    assert_rel(gpu_gemm_quant(&a100, 27904, 128), 218.0 / 324, 1e-15);
    assert_rel(gpu_gemm_quant(&a100, 3072, 1152), 1, 0);
    assert_true(gpu_gemm_quant(&h100, 3072, 1152) < 1); /* 108 or 216 tiles of 132 SMs */
    assert_rel(gpu_gemm_quant(&h100, 3072, 1152), 216.0 / 264, 1e-15);
    struct gpuhw_desc flat = h100;
    flat.fit.tile_m = 0;
    assert_rel(gpu_gemm_quant(&flat, 27904, 129), 1, 0);

    struct wl_desc w = gpt3();
    struct gpu_layout l = gpu_layout_default(8, 8, 24, 1);
    double T = 2048;
    flat = h100;
    flat.chip.sm_count = 0;
    double ideal = 3 * 2 * tfm_block_matrix_params(&w) * T / 8 /
                   (h100.chip.peak_flops[GPUHW_BF16] * h100.fit.matmul_eff);
    assert_rel(gpu_linear_s(&flat, &w, &l, T, 0), ideal, 1e-12);
    assert_rel(gpu_linear_s(&flat, &w, &l, T, 1), ideal * 4 / 3, 1e-12); /* + 1 forward */
    assert_true(gpu_linear_s(&h100, &w, &l, T, 0) > ideal);
}

/* Korthikanti et al. 2022 ran the 1T model (Table 3: 128 layers, hidden
 * 25600, 160 heads, sequence 2048, vocabulary 51200) with TP 8, PP 64 on
 * 512 A100 80 GB, global batch 512, micro-batch 1, with selective
 * recompute and sequence parallelism (Table 5, "present work").  Plain
 * 1F1B (vp = 1) keeps min(m, pp) = 64 micro-batches of a stage's 2 layers
 * on the first stage: the activations of all 128 layers, 34 s b h / t
 * bytes each (sec. 4.2.3, eq. 5, with dropout; no attention scores), and
 * no interleaving factor (Narayanan et al. 2021 sec. 2.2.2 gives it for
 * the interleaved schedule only); with vp = 2 they are 1 + (pp-1)/(pp vp)
 * times more.  The layout they ran fits in the A100's memory. */
static void test_vp1_memory(void **state)
{
    (void)state;
    struct gpuhw_desc a100;
    load_gpu("a100", &a100);
    const char *const sets[] = {"model.batch=512", "model.sequence_parallel=true",
                                "model.flash_attention=false", "model.distributed_optimizer=false"};
    struct wl_desc w;
    load_model("megatron-1t", sets, 4, &w);
    assert_true(w.dropout && w.attention_dropout);
    assert_rel(tfm_params(&w), 1e12, 0.01);
    struct gpu_layout l = gpu_layout_default(8, 64, 1, 1);
    gpu_layout_switches(&l, &w);
    l.recompute = GPU_RC_SELECTIVE;
    struct cp_error err = {0};
    assert_ok(gpu_check(&a100, &w, &l, &err), err);
    assert_true(l.seq_parallel && !l.flash_attention && !l.shard_optimizer);
    struct gpu_result r1, r2;
    gpu_memory(&a100, &w, &l, &r1);
    double per_layer = 34 * 2048 * 1 * 25600 / 8.0;
    assert_rel(r1.mem_act, 64 * 2 * per_layer, 1e-12);
    assert_rel(r1.mem_act, 128 * per_layer, 1e-12);
    printf("# 1T on 512 A100, TP 8 PP 64: weights %.1f GB, grads %.1f GB, optimizer %.1f GB, "
           "activations %.1f GB: %.1f GB of %.1f usable\n",
           r1.mem_weights / 1e9, r1.mem_grads / 1e9, r1.mem_optimizer / 1e9, r1.mem_act / 1e9,
           r1.mem_total / 1e9, r1.mem_capacity / 1e9);
    assert_true(r1.fits && r1.mem_total <= r1.mem_capacity);
    l.vp = 2;
    assert_ok(gpu_check(&a100, &w, &l, &err), err);
    gpu_memory(&a100, &w, &l, &r2);
    assert_rel(r2.mem_act, r1.mem_act * (1 + 63.0 / (64 * 2)), 1e-12);
    assert_rel(r2.mem_weights, r1.mem_weights, 0);
}

/* Llama 2 70B (models/llama2-70b.ini: 80 layers, hidden 8192, 64 heads,
 * 8 key/value heads, gated FFN 28672; 68.98e9 parameters by the released
 * config's shapes, "70B" in Touvron et al. 2023) on 64 H100 with tp 8: FSDP
 * shards the weights, gradients and optimizer state over dp, so memory
 * per GPU is below the distributed-optimizer layout's; the sharded part
 * falls as 1/dp (from dp 2 to 4 it halves, S(2) - S(4) = 2 (S(4) - S(8)))
 * and is the stage's parameters times weight, gradient, master and Adam
 * bytes; what is not sharded is the two layers' 16-bit weights gathered
 * (the one running and the next, prefetched) and one layer's gradients.
 * The step's dp-comm (the per-layer gathers and reduce-scatters beyond the
 * layer's compute) is never negative, and grows as the network slows. */
static void test_fsdp(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w;
    load_model("llama2-70b", NULL, 0, &w);
    assert_rel(tfm_params(&w), 68.98e9, 0.001);
    struct gpu_layout l = gpu_layout_default(8, 1, 8, 1);
    gpu_layout_switches(&l, &w);
    l.recompute = GPU_RC_SELECTIVE;
    struct cp_error err = {0};
    assert_ok(gpu_check(&g, &w, &l, &err), err);
    struct gpu_result plain, f;
    gpu_eval(&g, &w, &l, &plain);
    l.fsdp = 1;
    gpu_eval(&g, &w, &l, &f);
    printf("# Llama 2 70B on 64 H100, tp 8 dp 8: %.1f GB, with FSDP %.1f GB; step %.3f s, "
           "with FSDP %.3f s (dp-comm %.4f s)\n",
           plain.mem_total / 1e9, f.mem_total / 1e9, plain.step_s, f.step_s, f.part_s[GPU_DP_COMM]);
    assert_true(f.mem_total < plain.mem_total);
    assert_true(f.mem_weights < plain.mem_weights && f.mem_grads < plain.mem_grads);
    assert_rel(f.mem_act, plain.mem_act, 0);
    assert_true(f.part_s[GPU_DP_COMM] >= 0 && isfinite(f.step_s));
    double sum = 0;
    for (int i = 0; i < GPU_NPARTS; i++)
        sum += f.part_s[i];
    assert_rel(f.step_s, sum, 1e-12);

    double state_of[3];
    const double dps[] = {2, 4, 8};
    for (int i = 0; i < 3; i++) {
        l.dp = dps[i];
        struct gpu_result r;
        gpu_memory(&g, &w, &l, &r);
        state_of[i] = r.mem_weights + r.mem_grads + r.mem_optimizer;
    }
    assert_rel(state_of[0] - state_of[1], 2 * (state_of[1] - state_of[2]), 1e-9);
    double sharded = 4 * (state_of[0] - state_of[1]); /* A, with S = A / dp + B */
    double p_stage = tfm_params(&w) / 8;
    assert_rel(sharded, p_stage * (2 + 2 + 4 + 8), 1e-9);
    double layer = tfm_block_params(&w) / 8;
    assert_rel(state_of[2] - sharded / 8, 2 * layer * 2 + layer * 2, 1e-9);

    /* a slow network exposes the gathers: dp-comm grows as it slows */
    l.dp = 8;
    double prev = -1;
    for (double bps = 50e9; bps >= 0.5e9; bps /= 10) {
        struct gpuhw_desc slow = g;
        slow.net.scaleout_Bps = bps;
        struct gpu_result r;
        gpu_eval(&slow, &w, &l, &r);
        assert_true(r.part_s[GPU_DP_COMM] >= 0);
        assert_true(r.part_s[GPU_DP_COMM] >= prev);
        prev = r.part_s[GPU_DP_COMM];
    }
    assert_true(prev > 0);
}

/* The workload's software switches (model keys, cerebras-plan(5)) through
 * gpu_layout_switches: without flash attention the a s^2 scores are kept
 * (more activation memory) and go through HBM (more elementwise time);
 * without sequence parallelism the norms' and dropouts' activations and
 * elementwise traffic are not split over tp (more of both); fp8_params
 * with FP8 matmuls keeps 1-byte weights, half the 16-bit ones, and
 * changes nothing at 16 bits. */
static void test_switches(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3();
    w.sequence_parallel = w.flash_attention = w.tp_overlap = w.distributed_optimizer = 1;
    w.fp8_params = 0;
    struct gpu_layout l = gpu_layout_default(8, 8, 16, 1);
    gpu_layout_switches(&l, &w);
    struct gpu_result on, off;
    gpu_eval(&g, &w, &l, &on);

    struct wl_desc v = w;
    v.flash_attention = 0;
    gpu_layout_switches(&l, &v);
    assert_false(l.flash_attention);
    gpu_eval(&g, &v, &l, &off);
    assert_true(off.mem_act > on.mem_act);
    assert_true(off.part_s[GPU_ELEMENTWISE] > on.part_s[GPU_ELEMENTWISE]);
    /* the stored scores: (score_bytes + score_dropout_bytes) each, T s
     * heads / tp of them per layer, for m micro-batches of 12 layers */
    double scores = 2048.0 * 2048 * 96 / 8;
    double want =
        96 * 12 * (g.fit.score_bytes + g.fit.score_dropout_bytes) * scores / g.chip.hbm_Bps;
    assert_rel(off.part_s[GPU_ELEMENTWISE] - on.part_s[GPU_ELEMENTWISE], want, 1e-9);

    v = w;
    v.sequence_parallel = 0;
    gpu_layout_switches(&l, &v);
    gpu_eval(&g, &v, &l, &off);
    assert_true(off.mem_act > on.mem_act);
    assert_true(off.part_s[GPU_ELEMENTWISE] > on.part_s[GPU_ELEMENTWISE]);
    assert_rel(off.part_s[GPU_ELEMENTWISE], 8 * on.part_s[GPU_ELEMENTWISE], 1e-12);

    l = gpu_layout_default(8, 8, 16, 1);
    l.precision = GPUHW_FP8;
    gpu_layout_switches(&l, &w);
    gpu_memory(&g, &w, &l, &on);
    v = w;
    v.fp8_params = 1;
    gpu_layout_switches(&l, &v);
    assert_true(l.fp8_params);
    gpu_memory(&g, &v, &l, &off);
    assert_rel(off.mem_weights, on.mem_weights / 2, 1e-15);
    assert_rel(off.mem_grads, on.mem_grads, 0);
    l.precision = GPUHW_BF16;
    gpu_memory(&g, &v, &l, &off);
    gpu_layout_switches(&l, &w);
    gpu_memory(&g, &w, &l, &on);
    assert_rel(off.mem_weights, on.mem_weights, 0);
}

/* Without flash attention, each GPU of a context-parallel group holds T =
 * b s / cp queries and meets all s keys round the ring: T s heads / tp
 * scores per layer, as the activation memory counts them (gpu_mem.c,
 * 5 a s^2 b / (t cp), Korthikanti et al. 2022 sec. 4.1 over cp).  The
 * stored-score HBM traffic counts the same scores: the elementwise time
 * the scores add at cp = 2 is that of cp = 1 over 2 (half the queries),
 * as their memory is. */
static void test_score_traffic_cp(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3();
    w.sequence_parallel = w.tp_overlap = w.distributed_optimizer = 1;
    double add[3], mem[3];
    for (int cp = 1; cp <= 2; cp++) {
        struct gpu_layout l = gpu_layout_default(8, 8, 32 / cp, 1);
        l.cp = cp;
        struct gpu_result on, off;
        w.flash_attention = 1;
        gpu_layout_switches(&l, &w);
        gpu_eval(&g, &w, &l, &on);
        w.flash_attention = 0;
        gpu_layout_switches(&l, &w);
        gpu_eval(&g, &w, &l, &off);
        /* per micro-batch: the parts are m = 1536 / dp micro-batches' */
        add[cp] = (off.part_s[GPU_ELEMENTWISE] - on.part_s[GPU_ELEMENTWISE]) / off.micro_batches;
        mem[cp] = off.mem_act - on.mem_act;
    }
    printf("# stored scores, cp 2 against cp 1: memory x %.3f, HBM time x %.3f\n", mem[2] / mem[1],
           add[2] / add[1]);
    assert_rel(mem[2], mem[1] / 2, 1e-12);
    assert_rel(add[2], add[1] / 2, 1e-12);
}

/* Layouts evaluated per second on one core (printed, not asserted: the
 * target, 2e6 of the search since issue 29, is for `make bench`). */
static void test_speed(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3();
    const double tps[] = {1, 2, 4, 8}, pps[] = {1, 2, 4, 8, 16, 32};
    struct gpu_result r;
    double sink = 0, n = 0;
    clock_t t0 = clock();
    for (int rep = 0; rep < 20000; rep++)
        for (size_t a = 0; a < 4; a++)
            for (size_t b = 0; b < 6; b++) {
                struct gpu_layout l = gpu_layout_default(tps[a], pps[b], 8, 1 + rep % 2);
                gpu_eval(&g, &w, &l, &r);
                sink += r.step_s;
                n++;
            }
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("# %.0f layouts in %.3f s: %.3g layouts/s (sum %.6g)\n", n, s, n / s, sink);
    assert_true(sink > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptions), cmocka_unit_test(test_corpus), cmocka_unit_test(test_corpus_expressible),
        cmocka_unit_test(test_small_trainer),
        cmocka_unit_test(test_memory),       cmocka_unit_test(test_block),
        cmocka_unit_test(test_bubble),       cmocka_unit_test(test_dropout),
        cmocka_unit_test(test_refusals),     cmocka_unit_test(test_uneven_split),
        cmocka_unit_test(test_fp4_pair),     cmocka_unit_test(test_speed),
        cmocka_unit_test(test_wide_tp),      cmocka_unit_test(test_gemm_quant),
        cmocka_unit_test(test_vp1_memory),   cmocka_unit_test(test_fsdp),
        cmocka_unit_test(test_switches),     cmocka_unit_test(test_score_traffic_cp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
