/* test_gpu_search.c - the GPU layout search (src/gpu/gpu_search): on the
 * published MLPerf Training v3.1 GPT-3 175B run on 512 H100 (TP 4, PP 8,
 * VP 12, micro-batch 1, FP8, no recompute: NVIDIA eos_n64, in
 * hw/gpu-measurements.csv) it finds a layout at least as fast per the
 * model and reaches the published one (with cp, vp and FSDP fixed too);
 * on Llama 3.1 405B as MLPerf Training v5.0 runs it on 512 H100 (TP 8, PP
 * 8 of the 128 = 126 + 2, CP 2, VP 8) the same; every layout it returns
 * passes gpu_check, fits, runs the workload's software switches and comes
 * fastest first; its counts and its best layouts equal an independent
 * brute force over every figure (cp, FSDP and the uneven split included)
 * on a small job; GPT-3 175B on 8 GPUs is refused naming the bytes, and a
 * GPU count nothing divides and wrong specs are refused.  Runs from the
 * top of the source tree. */
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

#include "desc/catalog.h"
#include "desc/gpuhw.h"
#include "desc/tfm.h"
#include "gpu/gpu.h"
#include "gpu/gpu_search.h"

/* GPT-3 175B as MLPerf Training v3.1 runs it: 96 layers, hidden 12288, 96
 * heads, sequence 2048, GPT-3's vocabulary of 50257 (Brown et al. 2020; the
 * benchmark's C4 SentencePiece is "~50k"), global batch 2048 on 512 GPUs,
 * dropout off (the reference's run_gpt3.sh: --attention-dropout 0.0
 * --hidden-dropout 0.0), 16-bit weights and gradients, 32-bit master
 * weights and Adam moments; sequence parallelism, tensor-parallel overlap
 * and the distributed optimizer on (training_results_v3.1 NVIDIA
 * benchmarks/gpt3/implementations/pytorch: TP_COMM_OVERLAP=True,
 * USE_DIST_OPTIMIZER=True, sequence_parallel True, as the corpus rows
 * note), flash attention on (the stack of 2023, as src/gpu/gpu_run.c
 * reads those rows). */
static struct wl_desc gpt3_mlperf(void)
{
    struct wl_desc w = {.layers = 96,
                        .hidden = 12288,
                        .heads = 96,
                        .kv_heads = 96,
                        .ffn = 4 * 12288,
                        .seq_len = 2048,
                        .vocab = 50257,
                        .predictions = 2048,
                        .batch = 2048,
                        .bias = 1,
                        .weight_bytes = 2,
                        .grad_bytes = 2,
                        .master_bytes = 4,
                        .optimizer_bytes = 8,
                        .act_bytes = 2,
                        .sequence_parallel = 1,
                        .flash_attention = 1,
                        .tp_overlap = 1,
                        .distributed_optimizer = 1};
    return w;
}

/* Every hit is a layout gpu_check accepts on n GPUs, fits, evaluates to
 * the step time kept with it, and comes no slower than the one before. */
static void check_hits(const struct gpuhw_desc *g, const struct wl_desc *w, double n,
                       const struct gpu_search_result *r)
{
    struct cp_error err = {0};
    for (size_t i = 0; i < r->n; i++) {
        const struct gpu_layout *l = &r->hit[i].layout;
        assert_ok(gpu_check(g, w, l, &err), err);
        assert_rel(l->tp * l->pp * l->cp * l->dp, n, 0);
        struct gpu_result res;
        gpu_eval(g, w, l, &res);
        assert_true(res.fits && r->hit[i].result.fits);
        assert_true(res.mem_total <= res.mem_capacity);
        assert_rel(res.step_s, r->hit[i].result.step_s, 0);
        if (i > 0)
            assert_true(r->hit[i - 1].result.step_s <= res.step_s);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_hits(const char *what, const struct gpu_search_result *r)
{
    printf("# %s: %.0f layouts divide, %.0f settings tried, %.0f evaluated\n", what, r->divided,
           r->tried, r->evaluated);
    for (size_t i = 0; i < r->n; i++) {
        const struct gpu_layout *l = &r->hit[i].layout;
        const struct gpu_result *x = &r->hit[i].result;
        printf("#  %zu: tp %2.0f pp %2.0f cp %.0f dp %3.0f mbs %.0f vp %2.0f fsdp %d %-9s %2.0f  "
               "%.4f s  MFU %4.1f %%  %.1f GB\n",
               i, l->tp, l->pp, l->cp, l->dp, l->mbs, l->vp, l->fsdp,
               gpu_recompute_name[l->recompute], l->recompute_layers, x->step_s, 100 * x->mfu,
               x->mem_total / 1e9);
    }
}

/* The published run's layout, the search over everything, and the search
 * with tp, pp and mbs fixed at the published ones. */
static void test_mlperf(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3_mlperf();
    struct gpu_layout pub = gpu_layout_default(4, 8, 16, 1);
    gpu_layout_switches(&pub, &w);
    pub.vp = 12;
    pub.precision = GPUHW_FP8;
    struct cp_error err = {0};
    assert_ok(gpu_check(&g, &w, &pub, &err), err);
    struct gpu_result p;
    gpu_eval(&g, &w, &pub, &p);
    assert_true(p.fits);
    printf("# published tp 4 pp 8 dp 16 mbs 1 vp 12 none: %.4f s, %.1f GB\n", p.step_s,
           p.mem_total / 1e9);

    struct gpu_search_spec s = gpu_search_spec_default(512);
    s.precision = GPUHW_FP8;
    static struct gpu_search_result r;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    print_hits("GPT-3 175B on 512 H100, FP8", &r);
    assert_int_equal(r.n, 6);
    assert_true(r.hit[0].result.step_s <= p.step_s);
    assert_true(r.evaluated >= (double)r.n && r.evaluated <= r.tried && r.divided <= r.tried);
    check_hits(&g, &w, 512, &r);

    /* every layout the search keeps runs the workload's switches */
    for (size_t i = 0; i < r.n; i++) {
        const struct gpu_layout *l = &r.hit[i].layout;
        assert_true(l->seq_parallel && l->flash_attention && l->overlap_tp && l->shard_optimizer);
    }

    /* tp, pp and mbs fixed, cp 1 and no FSDP as published: vp runs over the
     * 6 divisors of the 12 layers of a stage, the published one among
     * them, none recompute fitting */
    s.tp = 4;
    s.pp = 8;
    s.mbs = 1;
    s.cp = 1;
    s.fsdp = 0;
    s.keep = GPU_SEARCH_KEEP_MAX;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    assert_rel(r.divided, 6, 0);
    int found = 0;
    for (size_t i = 0; i < r.n; i++) {
        const struct gpu_layout *l = &r.hit[i].layout;
        assert_true(l->tp == 4 && l->pp == 8 && l->mbs == 1 && l->dp == 16 && l->cp == 1);
        assert_false(l->fsdp);
        if (l->vp == 12 && l->recompute == GPU_RC_NONE) {
            assert_rel(r.hit[i].result.step_s, p.step_s, 0);
            found = 1;
        }
    }
    assert_true(found);
    check_hits(&g, &w, 512, &r);

    /* vp fixed too: the published layout alone */
    s.vp = 12;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    assert_rel(r.divided, 1, 0);
    assert_int_equal(r.n, 1);
    assert_rel(r.hit[0].layout.vp, 12, 0);
    assert_rel(r.hit[0].result.step_s, p.step_s, 0);
    /* FSDP free as well: the layout with and without it */
    s.fsdp = GPU_SEARCH_ANY_FSDP;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    assert_rel(r.divided, 2, 0);
    check_hits(&g, &w, 512, &r);
}

/* Llama 3.1 405B as MLPerf Training v5.0 trains it (llama31_405b: Meta's
 * shape, Grattafiori et al. 2024 Table 3 and the released config.json, 126
 * layers, hidden 16384, 128 heads, 8 key/value heads, gated FFN 53248,
 * sequence 8192, no dropout, RMSNorm, rotary, untied; the benchmark's
 * Mixtral tokenizer of 32768 and global batch 1152) on 512 H100 in FP8:
 * NVIDIA's submission ran TP 8, PP 8, CP 2, VP 8, micro-batch 1, dp 4
 * (mlcommons/training_results_v5.0 NVIDIA/benchmarks/llama31_405b/
 * implementations/eos-dfw_n64_ngc25.01_nemo/
 * config_DGXH100_64x8x288xtp8pp8cp2.sh: 64 nodes of 8, 288 sequences per
 * data-parallel group; the round's configs set INTERLEAVED_PIPELINE=8 and
 * count the embedding and the loss as pipeline layers, 128 = 8 x 16).
 * That layout passes gpu_check and fits in memory; the default search
 * (cp, FSDP and the uneven split free) finds a layout at least as fast;
 * with tp 8, pp 8, cp 2 and vp 8 fixed it finds that layout. */
static void test_llama405b_mlperf(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    static const char llama405b[] = "[model]\nname = Llama 3.1 405B (MLPerf)\n"
                                    "layers = 126\nhidden = 16384\nheads = 128\nkv_heads = 8\n"
                                    "ffn = 53248\ngated_ffn = true\nseq_len = 8192\n"
                                    "vocab = 32768\nbias = false\nnorm = rmsnorm\n"
                                    "positions = rotary\ntied_embeddings = false\n"
                                    "dropout = false\ntokens = 2.4e12\nbatch = 1152\n";
    struct wl_desc w;
    load_text(llama405b, NULL, 0, &w);
    assert_rel(w.layers, 126, 0);
    assert_rel(w.kv_heads, 8, 0);
    assert_true(w.gated_ffn && !w.dropout && !w.tied_embeddings);
    assert_rel(tfm_params(&w), 405e9, 0.01); /* 405.9e9 with the 128256 vocabulary */
    assert_true(w.sequence_parallel && w.flash_attention && w.tp_overlap &&
                w.distributed_optimizer); /* the model keys' defaults */
    struct gpu_layout pub = gpu_layout_default(8, 8, 4, 1);
    gpu_layout_switches(&pub, &w);
    pub.cp = 2;
    pub.vp = 8;
    pub.precision = GPUHW_FP8;
    struct cp_error err = {0};
    assert_ok(gpu_check(&g, &w, &pub, &err), err);
    struct gpu_result p;
    gpu_eval(&g, &w, &pub, &p);
    printf("# Llama 3.1 405B, published tp 8 pp 8 cp 2 dp 4 vp 8 none: %.3f s, %.1f GB of %.1f\n",
           p.step_s, p.mem_total / 1e9, p.mem_capacity / 1e9);
    assert_true(p.fits);

    struct gpu_search_spec s = gpu_search_spec_default(512);
    s.precision = GPUHW_FP8;
    static struct gpu_search_result r;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    print_hits("Llama 3.1 405B on 512 H100, FP8", &r);
    assert_true(r.n >= 1);
    assert_true(r.hit[0].result.step_s <= p.step_s);
    check_hits(&g, &w, 512, &r);

    s.tp = 8;
    s.pp = 8;
    s.cp = 2;
    s.vp = 8;
    s.keep = GPU_SEARCH_KEEP_MAX;
    assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
    print_hits("tp 8 pp 8 cp 2 vp 8 fixed", &r);
    check_hits(&g, &w, 512, &r);
    int found = 0;
    for (size_t i = 0; i < r.n; i++) {
        const struct gpu_layout *l = &r.hit[i].layout;
        assert_true(l->tp == 8 && l->pp == 8 && l->cp == 2 && l->vp == 8 && l->dp == 4);
        if (l->mbs == 1 && !l->fsdp && l->recompute == GPU_RC_NONE) {
            assert_rel(r.hit[i].result.step_s, p.step_s, 0);
            found = 1;
        }
    }
    assert_true(found);
}

/* A small job for the brute force: GQA (4 key/value heads of 12, so tp 3
 * and 6 are refused by the heads rule, not by the NVLink domain of 72),
 * context parallelism allowed, on 24 GB200 whose memory is cut to 6 GB
 * so that some layouts fit without recompute, some only with it and some
 * not at all (asserted). */
static struct wl_desc small_job(void)
{
    struct wl_desc w = gpt3_mlperf();
    w.layers = 12;
    w.hidden = 3072;
    w.heads = 12;
    w.kv_heads = 4;
    w.ffn = 4 * 3072;
    w.vocab = 32000;
    w.batch = 32;
    w.dropout = w.attention_dropout = 1;
    return w;
}

#define SMALL_GPUS 24
#define SMALL_HBM 6e9
#define STEPS_MAX 100000

struct brute {
    double divided, fits_least, fits_each;
    double no_rc, only_rc, none; /* layouts fitting with none, only with recompute, never */
    double least[STEPS_MAX], each[STEPS_MAX]; /* step times */
};

/* Transformer layers of the busiest stage: L / pp, or the L + 2 (the
 * embedding and the loss counted as a layer each) spread as evenly as
 * they go (gpu.h). */
static double stage_layers(const struct wl_desc *w, double pp)
{
    return fmod(w->layers, pp) == 0 ? w->layers / pp : ceil((w->layers + 2) / pp);
}

/* The recompute settings of one layout in the search's order: none,
 * selective, block of every k from 1 to a stage's layers - 1 that vp
 * divides, full (only those of setting only unless GPU_SEARCH_ANY_RC);
 * each evaluated whole, those that fit counted. */
static void brute_recompute(const struct gpuhw_desc *g, const struct wl_desc *w,
                            struct gpu_layout l, int only, struct brute *b)
{
    enum gpu_recompute rc[64] = {GPU_RC_NONE, GPU_RC_SELECTIVE};
    double k[64] = {0};
    int n = 2, first_fit = -1;
    for (double layers = 1; layers < stage_layers(w, l.pp); layers++)
        if (fmod(layers, l.vp) == 0) {
            rc[n] = GPU_RC_BLOCK;
            k[n++] = layers;
        }
    rc[n++] = GPU_RC_FULL;
    for (int i = 0; i < n; i++) {
        if (only != GPU_SEARCH_ANY_RC && (int)rc[i] != only)
            continue;
        l.recompute = rc[i];
        l.recompute_layers = k[i];
        struct gpu_result r;
        gpu_eval(g, w, &l, &r);
        if (!r.fits)
            continue;
        assert_true(b->fits_each < STEPS_MAX);
        b->each[(size_t)b->fits_each++] = r.step_s;
        if (first_fit < 0) {
            b->least[(size_t)b->fits_least++] = r.step_s;
            first_fit = i;
        }
    }
    b->no_rc += first_fit == 0;
    b->only_rc += first_fit > 0;
    b->none += first_fit < 0;
}

/* Every tp, pp, cp from 1 to the GPUs whose product divides them, every
 * micro-batch up to the global batch, vp up to the layers, FSDP off and
 * on: those gpu_check accepts, with the default options and the
 * workload's switches, at 16 bits, in the search's space (gpu_search.h):
 * tp dividing the NVLink domain, pp dividing the layers or the layers + 2,
 * cp > 1 only where 2 cp divides the sequence (Megatron's load-balanced
 * ring), FSDP only with dp > 1. */
static void brute_force(const struct gpuhw_desc *g, const struct wl_desc *w, double n, int allow_cp,
                        int only, struct brute *b)
{
    memset(b, 0, sizeof *b);
    for (double tp = 1; tp <= n; tp++)
        for (double pp = 1; pp <= n; pp++)
            for (double cp = 1; cp <= (allow_cp ? n : 1); cp++) {
                if (fmod(n, tp * pp * cp) != 0 || fmod(g->net.nvlink_domain, tp) != 0)
                    continue;
                if (fmod(w->layers, pp) != 0 && fmod(w->layers + 2, pp) != 0)
                    continue;
                if (cp > 1 && fmod(w->seq_len, 2 * cp) != 0)
                    continue;
                double dp = n / (tp * pp * cp);
                for (double mbs = 1; mbs <= w->batch; mbs++)
                    for (double vp = 1; vp <= w->layers; vp++)
                        for (int fsdp = 0; fsdp <= (dp > 1); fsdp++) {
                            struct gpu_layout l = gpu_layout_default(tp, pp, dp, mbs);
                            gpu_layout_switches(&l, w);
                            l.cp = cp;
                            l.vp = vp;
                            l.fsdp = fsdp;
                            if (gpu_check(g, w, &l, NULL) != CP_OK)
                                continue;
                            b->divided++;
                            brute_recompute(g, w, l, only, b);
                        }
            }
}

/* The kept step times are the fastest of the brute force's, in order. */
static void check_best(const struct gpu_search_result *r, double *steps, double n)
{
    qsort(steps, (size_t)n, sizeof steps[0], cmp_double);
    assert_int_equal(r->n, n < GPU_SEARCH_KEEP_MAX ? (size_t)n : GPU_SEARCH_KEEP_MAX);
    for (size_t i = 0; i < r->n; i++)
        assert_rel(r->hit[i].result.step_s, steps[i], 0);
}

/* The search's counts and best layouts against the brute force, with
 * the least recompute and with each, with and without context
 * parallelism. */
static void test_brute_force(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("gb200", &g);
    g.chip.hbm_bytes = SMALL_HBM;
    struct wl_desc w = small_job();
    static struct brute b;
    static struct gpu_search_result r;
    struct cp_error err = {0};
    for (int allow_cp = 0; allow_cp <= 1; allow_cp++) {
        brute_force(&g, &w, SMALL_GPUS, allow_cp, GPU_SEARCH_ANY_RC, &b);
        printf("# brute force, cp %s: %.0f layouts divide; %.0f fit without recompute, %.0f "
               "only with, %.0f not at all; %.0f settings fit\n",
               allow_cp ? "allowed" : "1", b.divided, b.no_rc, b.only_rc, b.none, b.fits_each);
        assert_true(b.no_rc > 0 && b.only_rc > 0 && b.none > 0);
        struct gpu_search_spec s = gpu_search_spec_default(SMALL_GPUS);
        s.allow_cp = allow_cp;
        s.keep = GPU_SEARCH_KEEP_MAX;
        assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
        assert_rel(r.divided, b.divided, 0);
        assert_rel(r.evaluated, b.fits_least, 0);
        check_best(&r, b.least, b.fits_least);
        check_hits(&g, &w, SMALL_GPUS, &r);
        s.each_recompute = 1;
        assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
        assert_rel(r.divided, b.divided, 0);
        assert_rel(r.evaluated, b.fits_each, 0);
        check_best(&r, b.each, b.fits_each);
        check_hits(&g, &w, SMALL_GPUS, &r);
    }
}

/* Each recompute setting fixed, against the brute force restricted to it:
 * the least and each. */
static void test_fixed_recompute(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("gb200", &g);
    g.chip.hbm_bytes = SMALL_HBM;
    struct wl_desc w = small_job();
    static struct brute b;
    static struct gpu_search_result r;
    struct cp_error err = {0};
    for (int rc = 0; rc < GPU_NRECOMPUTES; rc++) {
        brute_force(&g, &w, SMALL_GPUS, 1, rc, &b);
        assert_true(b.fits_least > 0 && b.none > 0);
        struct gpu_search_spec s = gpu_search_spec_default(SMALL_GPUS);
        s.allow_cp = 1;
        s.recompute = rc;
        s.keep = GPU_SEARCH_KEEP_MAX;
        for (s.each_recompute = 0; s.each_recompute <= 1; s.each_recompute++) {
            assert_ok(gpu_search(&g, &w, &s, &r, &err), err);
            assert_rel(r.divided, b.divided, 0);
            double n = s.each_recompute ? b.fits_each : b.fits_least;
            assert_rel(r.evaluated, n, 0);
            check_best(&r, s.each_recompute ? b.each : b.least, n);
            check_hits(&g, &w, SMALL_GPUS, &r);
            for (size_t i = 0; i < r.n; i++)
                assert_int_equal(r.hit[i].layout.recompute, rc);
        }
    }
}

/* GPT-3 175B on 8 H100: its 175e9 parameters at 16 bytes each (16-bit
 * weights and gradients, 32-bit master weights and two Adam moments), 2.8
 * TB, do not fit in 8 x 77 GB whatever the layout; the refusal names the
 * least bytes per GPU any layout needs and the bytes usable. */
static void test_nothing_fits(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3_mlperf();
    struct gpu_search_spec s = gpu_search_spec_default(8);
    static struct gpu_search_result r;
    struct cp_error err = {0};
    assert_int_equal(gpu_search(&g, &w, &s, &r, &err), CP_EINPUT);
    printf("# %s\n", err.msg);
    assert_int_equal(r.n, 0);
    assert_rel(r.evaluated, 0, 0);
    assert_true(r.divided > 0 && r.tried > r.divided);
    assert_true(r.least_mem > r.capacity && r.least_mem > 0.98 * 175e9 * 16 / 8);
    assert_rel(r.capacity, 85.52e9 * 0.9, 1e-12);
    char want[160];
    snprintf(want, sizeof want, "needs %.4g bytes per GPU against %.4g usable", r.least_mem,
             r.capacity);
    assert_non_null(strstr(err.msg, "no layout of 8 GPUs fits in memory"));
    assert_non_null(strstr(err.msg, want));
    /* the least is full recompute over all 8 GPUs' worth of model parallelism */
    assert_int_equal(r.least_layout.recompute, GPU_RC_FULL);
    assert_rel(r.least_layout.tp * r.least_layout.pp, 8, 0);
}

/* gpu_search refuses s with a message holding what. */
static void expect_refused(const struct gpu_search_spec *s, const char *what)
{
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3_mlperf();
    static struct gpu_search_result r;
    struct cp_error err = {0};
    assert_int_equal(gpu_search(&g, &w, s, &r, &err), CP_EINPUT);
    if (!strstr(err.msg, what)) {
        print_error("message '%s'; wanted '%s'\n", err.msg, what);
        fail();
    }
    assert_int_equal(r.n, 0);
}

/* 11 GPUs: tp, pp and cp 1 (11 divides neither the 96 heads, the 96
 * layers, the 98 of the uneven split nor the sequence of 2048), and dp =
 * 11 does not divide the batch of 2048.  7 GPUs divide it now: a pipeline
 * of 7 stages (98 = 7 x 14, the embedding and the loss counted as a
 * layer each), but GPT-3 175B does not fit on 7 GPUs.  Wrong specs. */
static void test_refusals(void **state)
{
    (void)state;
    struct gpu_search_spec s = gpu_search_spec_default(11);
    expect_refused(&s, "no layout of 11 GPUs divides the job");
    s = gpu_search_spec_default(7);
    expect_refused(&s, "no layout of 7 GPUs fits in memory: the least, tp 1 pp 7 cp 1 dp 1");
    s = gpu_search_spec_default(512);
    s.keep = 0;
    expect_refused(&s, "keep = 0 layouts is not from 1 to 16");
    s.keep = GPU_SEARCH_KEEP_MAX + 1;
    expect_refused(&s, "keep = 17 layouts");
    s.keep = 1;
    s.tp = 2.5;
    expect_refused(&s, "tp = 2.5 is neither free (0) nor a whole number");
    s.tp = 5; /* divides neither the 96 heads nor 512 */
    expect_refused(&s, "no layout of 512 GPUs divides the job");
    /* a fixed tp of 16, beyond the NVLink domain of 8, is searched: its
     * traffic runs at the scale-out rate (gpu_check accepts it too) */
    {
        struct gpuhw_desc g;
        load_gpu("h100", &g);
        struct wl_desc w = gpt3_mlperf();
        static struct gpu_search_result r;
        struct cp_error err = {0};
        s.tp = 16;
        assert_int_equal(gpu_search(&g, &w, &s, &r, &err), CP_OK);
        assert_true(r.n >= 1 && r.hit[0].layout.tp == 16);
    }
    s.tp = 0;
    s.gpus = 0;
    expect_refused(&s, "gpus = 0 is not a whole number");
    s.gpus = 512;
    s.precision = GPUHW_FP4;
    expect_refused(&s, "no fp4 tensor cores (gpu.peak_fp4 = 0)");
    s.precision = GPUHW_BF16;
    s.batch = 1.5;
    expect_refused(&s, "batch = 1.5 is not a whole number");
    s.batch = 0;
    s.recompute = GPU_NRECOMPUTES;
    expect_refused(&s, "recompute = 4 is not free");
}

/* gpu_search_counts marks exactly the counts a search finds a dividing
 * layout of (r.divided > 0), here with the free spec, a fixed tp, a fixed
 * mbs, a fixed cp and pp, FSDP fixed on without cp, on 1 to 768 GPUs; gpu_search_at gives gpu_search's answer
 * from one job; and a job no count of a step divides (5 layers, one head,
 * batch 1, an odd sequence: every figure odd) is said so, naming the
 * figures' powers of two. */
static void test_counts(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    struct wl_desc w = gpt3_mlperf();
    static struct gpu_search_job j;
    static struct gpu_search_result r, r2;
    static unsigned char can[769];
    struct cp_error err = {0};
    struct gpu_search_spec specs[5] = {gpu_search_spec_default(0), gpu_search_spec_default(0),
                                       gpu_search_spec_default(0), gpu_search_spec_default(0),
                                       gpu_search_spec_default(0)};
    specs[1].tp = 4;
    specs[2].mbs = 2;
    specs[3].cp = 2;
    specs[3].pp = 7;
    specs[4].fsdp = 1;
    specs[4].allow_cp = 0;
    for (int k = 0; k < 5; k++) {
        specs[k].keep = 1;
        assert_ok(gpu_search_job_init(&g, &w, &specs[k], &j, &err), err);
        double marked = gpu_search_counts(&j, 768, 8, can, NULL, 0), found = 0;
        for (int n = 1; n <= 768; n++) {
            cp_status st = gpu_search_at(&j, n, &r, &err);
            assert_int_equal(can[n], r.divided > 0);
            found += r.divided > 0;
            if (n % 96 == 0) {
                struct gpu_search_spec s = specs[k];
                s.gpus = n;
                assert_int_equal(gpu_search(&g, &w, &s, &r2, &err), st);
                assert_int_equal(r2.n, r.n);
                assert_rel(r2.divided, r.divided, 0);
                if (r.n > 0)
                    assert_rel(r2.hit[0].result.step_s, r.hit[0].result.step_s, 0);
            }
        }
        assert_rel(marked, found, 0);
        assert_true(found >= 3);
    }
    /* 720720 layers and sequences of batch (240 divisors each) on 1024
     * GPUs: 2,241,624 layouts divide (counted by the search that computed
     * each one's memory, before micro-batches past the first that fits
     * nothing were counted without it), none fits */
    struct wl_desc big = w;
    big.layers = big.batch = 720720;
    struct gpu_search_spec s1024 = gpu_search_spec_default(1024);
    assert_int_equal(gpu_search(&g, &big, &s1024, &r, &err), CP_EINPUT);
    assert_rel(r.divided, 2241624, 0);
    assert_true(r.tried >= r.divided && r.evaluated == 0);
    w.layers = 5;
    w.heads = w.kv_heads = 1;
    w.hidden = 4097;
    w.batch = 1;
    w.seq_len = 999;
    struct gpu_search_spec s = gpu_search_spec_default(0);
    assert_ok(gpu_search_job_init(&g, &w, &s, &j, &err), err);
    char why[512] = "";
    gpu_search_counts(&j, 768, 8, can, why, sizeof why);
    assert_non_null(strstr(why, "the largest power of two tp pp cp dp can hold together is 1, "
                                "short of 8"));
    assert_non_null(strstr(why, "pp 1 (of the 5 layers or 7)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mlperf),          cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_fixed_recompute), cmocka_unit_test(test_nothing_fits),
        cmocka_unit_test(test_refusals),        cmocka_unit_test(test_llama405b_mlperf),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
