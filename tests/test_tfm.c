/* test_tfm.c - transformer arithmetic (src/desc/tfm.h) against published
 * figures and closed-form formulas.  Workloads come both from the shipped
 * descriptions (through the catalog's built-in copies) and from INI text
 * written here, so both paths are covered. */
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

#include "desc/catalog.h"
#include "desc/tfm.h"
#include "desc/wl.h"

/* ---- helpers ---- */

/* Narayanan et al. 2021 ("Efficient Large-Scale Language Model Training on
 * GPU Clusters Using Megatron-LM"), section 5.1: training FLOPs per
 * iteration 72 B s l h^2 (1 + s/(6h) + V/(12 l h)); per token divide by B s.
 * With activation recomputation (their eq. 3) 96 B s l h^2 (1 + s/(6h) +
 * V/(16 l h)), i.e. 96 l h^2 (1 + s/(6h)) + 6 h V per token: one extra
 * forward pass of the blocks, none of the logits. */
static double narayanan_per_token(double l, double h, double s, double V)
{
    return 72.0 * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
}

static double narayanan_recompute_per_token(double l, double h, double s, double V)
{
    return 96.0 * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

/* Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models"), section 4.1: activation memory per layer
 * s b h (34 + 5 a s / h) bytes at 16-bit with FFN = 4h; b = 1 sequence. */
static double korthikanti_bytes(double s, double h, double a)
{
    return s * h * (34.0 + 5.0 * a * s / h);
}

/* A standard GPT with high-entropy shapes: 7 blocks, h 1344 (= 21 x 64),
 * s 1536, V 50257, 300e9 tokens written as 3e11. */
static const char odd_gpt[] = "[model]\n"
                              "name = odd GPT\n"
                              "layers = 7\n"
                              "hidden = 1344\n"
                              "heads = 21\n"
                              "seq_len = 1536\n"
                              "vocab = 50257\n"
                              "tokens = 2.385e11\n"
                              "batch = 384\n";

/* ---- parameters against published counts ---- */

/* Brown et al. 2020 ("Language Models are Few-Shot Learners"), Table 2.1:
 * GPT-3 175B has 96 layers, d_model 12288, 96 heads, context 2048; 175e9
 * parameters. */
static void test_gpt3_175b_params_brown2020(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    assert_rel(w.layers, 96, 0);
    assert_rel(w.hidden, 12288, 0);
    assert_rel(w.heads, 96, 0);
    assert_rel(w.seq_len, 2048, 0);
    assert_rel(w.vocab, 50257, 0);
    assert_rel(tfm_params(&w), 175e9, 0.01);

    /* the same model written here */
    struct wl_desc t;
    load_text("[model]\nlayers = 96\nhidden = 12288\nheads = 96\nseq_len = 2048\n"
              "vocab = 50257\ntokens = 300 G\nbatch = 1536\n",
              NULL, 0, &t);
    assert_rel(tfm_params(&t), tfm_params(&w), 0);
    assert_rel(tfm_params(&t), 175e9, 0.01);
}

/* Brown et al. 2020, Table D.1: GPT-3 175B training used 3.14e23 FLOP
 * (300 B tokens).  Their count is 6 N D and leaves out attention, so ours
 * (which includes it) is a little higher; within 3%. */
static void test_gpt3_175b_train_flops_brown2020(void **state)
{
    (void)state;
    struct wl_desc w;
    /* the shipped file recomputes activations; Brown et al. did not count it */
    const char *no_recompute[] = {"model.recompute=false"};
    load_model("gpt3-175b", no_recompute, 1, &w);
    assert_rel(tfm_tokens(&w), 300e9, 0);
    assert_rel(tfm_train_flops(&w), 3.14e23, 0.03);
    /* 6 N D with our N reproduces the paper's figure to 0.1% */
    assert_rel(6.0 * tfm_params(&w) * tfm_tokens(&w), 3.14e23, 0.001);
}

/* Narayanan et al. 2021, Table 1, last row: 128 layers, hidden 25600,
 * 160 heads, 1008 B parameters (vocabulary 51200, sequence 2048, sec. 5.1). */
static void test_megatron_1t_params_narayanan2021(void **state)
{
    (void)state;
    struct wl_desc t, w;
    load_text("[model]\n"
              "name = Megatron 1T\n"
              "layers = 128\n"
              "hidden = 25.6 k\n"
              "heads = 160\n"
              "seq_len = 2048\n"
              "vocab = 51200\n"
              "tokens = 450e9\n"
              "batch = 3072\n",
              NULL, 0, &t);
    assert_rel(tfm_params(&t), 1.008e12, 0.01);
    load_model("megatron-1t", NULL, 0, &w);
    assert_rel(tfm_params(&w), tfm_params(&t), 0);
    assert_rel(tfm_params(&w), 1.008e12, 0.01);
}

/* Touvron et al. 2023 ("Llama 2: Open Foundation and Fine-Tuned Chat
 * Models"), Table 1: 70B; section 2.2: grouped-query attention; released
 * config: 80 layers, hidden 8192, 64 heads, 8 key/value heads, SwiGLU FFN
 * 28672, vocabulary 32000, context 4096, no biases, RMSNorm, rotary,
 * untied output matrix. */
static const char llama2_70b[] = "[model]\n"
                                 "layers = 80\n"
                                 "hidden = 8192\n"
                                 "heads = 64\n"
                                 "kv_heads = 8\n"
                                 "ffn = 28672\n"
                                 "gated_ffn = true\n"
                                 "seq_len = 4096\n"
                                 "vocab = 32000\n"
                                 "bias = false\n"
                                 "norm = rmsnorm\n"
                                 "positions = rotary\n"
                                 "tied_embeddings = false\n"
                                 "tokens = 2e12\n"
                                 "batch = 1024\n";

static void test_llama2_70b_params_touvron2023(void **state)
{
    (void)state;
    struct wl_desc t, w;
    load_text(llama2_70b, NULL, 0, &t);
    assert_rel(tfm_params(&t), 70e9, 0.015);
    load_model("llama2-70b", NULL, 0, &w);
    assert_rel(tfm_params(&w), tfm_params(&t), 0);
    /* Exact count by hand from the same shapes:
     *   attention  8192 x (8192 + 2 x 1024) + 8192^2 = 150,994,944
     *   FFN        3 x 8192 x 28672                  = 704,643,072
     *   norms      2 x 8192                          =      16,384
     *   block                                          855,654,400 x 80
     *   token embedding and output, 2 x 32000 x 8192 = 524,288,000
     *   final norm                                   =       8,192
     *   total                                       68,976,648,192 */
    assert_rel(tfm_block_matrix_params(&t), 855638016.0, 0);
    assert_rel(tfm_block_params(&t), 855654400.0, 0);
    assert_rel(tfm_embed_params(&t), 262144000.0 + 8192.0, 0);
    assert_rel(tfm_head_params(&t), 262144000.0, 0);
    assert_rel(tfm_params(&t), 68976648192.0, 0);
}

/* Brown et al. 2020, Table 2.1: GPT-3 XL, 1.3B parameters. */
static void test_gpt3_xl_params_brown2020(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-xl", NULL, 0, &w);
    assert_rel(tfm_params(&w), 1.3e9, 0.015);
}

/* The designed models state their own counts in their files ("12 l h^2 +
 * embeddings gives ..."); the arithmetic must agree to the digits given. */
static void test_designed_models_match_their_files(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("10t", NULL, 0, &w);
    assert_rel(tfm_params(&w), 9.98e12, 0.0005);
    load_model("100t", NULL, 0, &w);
    assert_rel(tfm_params(&w), 1.002e14, 0.0005);
    load_model("120t", NULL, 0, &w);
    assert_rel(tfm_params(&w), 1.201e14, 0.0005);
}

/* ---- parameter breakdown for a standard GPT ---- */

static void test_param_breakdown_standard_gpt(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    double h = 1344, s = 1536, V = 50257, l = 7;
    /* 4h^2 attention + 8h^2 FFN; biases 3h + h + 4h + h = 9h; two
     * LayerNorms 4h: the familiar 12 h^2 + 13 h. */
    assert_rel(tfm_block_matrix_params(&w), 12 * h * h, 0);
    assert_rel(tfm_block_params(&w), 12 * h * h + 13 * h, 0);
    assert_rel(tfm_embed_params(&w), V * h + s * h + 2 * h, 0);
    assert_rel(tfm_head_params(&w), 0, 0);
    assert_rel(tfm_params(&w), l * (12 * h * h + 13 * h) + V * h + s * h + 2 * h, 1e-15);

    /* each option changes exactly its own term */
    const char *untied[] = {"model.tied_embeddings=false"};
    struct wl_desc u;
    load_text(odd_gpt, untied, 1, &u);
    assert_rel(tfm_head_params(&u), V * h, 0);
    assert_rel(tfm_params(&u) - tfm_params(&w), V * h, 1e-12);

    const char *nobias[] = {"model.bias=no"};
    load_text(odd_gpt, nobias, 1, &u);
    assert_rel(tfm_block_params(&u), 12 * h * h + 4 * h, 0);

    const char *rms[] = {"model.norm=rmsnorm"};
    load_text(odd_gpt, rms, 1, &u);
    assert_rel(tfm_block_params(&u), 12 * h * h + 13 * h - 2 * h, 0);
    assert_rel(tfm_embed_params(&u), V * h + s * h + h, 0);

    const char *rot[] = {"model.positions=rotary"};
    load_text(odd_gpt, rot, 1, &u);
    assert_rel(tfm_embed_params(&u), V * h + 2 * h, 0);

    /* GQA with 3 of 21 heads: K and V shrink to 3 x 64 wide */
    const char *gqa[] = {"model.kv_heads=3"};
    load_text(odd_gpt, gqa, 1, &u);
    double kv = 3 * 64;
    assert_rel(tfm_block_matrix_params(&u), h * (h + 2 * kv) + h * h + 8 * h * h, 0);
    assert_rel(tfm_block_params(&u) - tfm_block_matrix_params(&u),
               (h + 2 * kv) + h + 4 * h + h + 4 * h, 0);

    /* gated FFN of 3.5 k: three matrices, two input-side biases */
    const char *gated[] = {"model.gated_ffn=true", "model.ffn=3.5 k"};
    load_text(odd_gpt, gated, 2, &u);
    assert_rel(tfm_block_matrix_params(&u), 4 * h * h + 3 * h * 3500, 0);
    assert_rel(tfm_block_params(&u) - tfm_block_matrix_params(&u), 3 * h + h + 2 * 3500 + h + 4 * h,
               0);
}

/* ---- FLOPs ---- */

static void test_train_flops_equal_narayanan2021(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double l, h, s, V;
    } m[] = {
        {"gpt3-175b", 96, 12288, 2048, 50257},
        {"megatron-1t", 128, 25600, 2048, 51200},
        {"gpt3-xl", 24, 2048, 2048, 50257},
        {"10t", 344, 49152, 2048, 51200},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct wl_desc w;
        load_model(m[i].name, NULL, 0, &w);
        assert_rel(tfm_train_flops_per_token(&w, 0),
                   narayanan_per_token(m[i].l, m[i].h, m[i].s, m[i].V), 1e-12);
        assert_rel(tfm_train_flops_per_token(&w, 1),
                   narayanan_recompute_per_token(m[i].l, m[i].h, m[i].s, m[i].V), 1e-12);
    }
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    assert_rel(tfm_train_flops_per_token(&w, 0), narayanan_per_token(7, 1344, 1536, 50257), 1e-12);
    /* the brief's form of the recompute count: 96 l h^2 (1 + s/(6h)) + 6 h V */
    double l = 7, h = 1344, s = 1536, V = 50257;
    assert_rel(tfm_train_flops_per_token(&w, 1), 96 * l * h * h * (1 + s / (6 * h)) + 6 * h * V,
               1e-12);
}

/* tfm.h: the delta pass costs the forward matmul FLOPs plus twice the
 * attention term, the weight-gradient pass the matmul FLOPs again, so
 * training is 3 x forward; recompute adds one forward pass of the blocks
 * only (the logits are not recomputed). */
static void test_train_is_three_forward(void **state)
{
    (void)state;
    static const char *const names[] = {"gpt3-175b", "llama2-70b", "megatron-1t", "gpt3-xl",
                                        "100t"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct wl_desc w;
        load_model(names[i], NULL, 0, &w);
        double fwd = tfm_fwd_flops_per_token(&w);
        assert_rel(tfm_train_flops_per_token(&w, 0), 3 * fwd, 1e-14);
        double blocks_fwd = w.layers * tfm_block_flops(&w, TFM_FWD);
        assert_rel(tfm_train_flops_per_token(&w, 1), 3 * fwd + blocks_fwd, 1e-14);
        assert_rel(tfm_train_flops_per_token(&w, 1), 4 * fwd - tfm_logits_flops(&w, TFM_FWD),
                   1e-14);
    }
}

static void test_per_pass_flops(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(llama2_70b, NULL, 0, &w);
    double M = tfm_block_matrix_params(&w), s = 4096, h = 8192, V = 32000;
    assert_rel(tfm_block_flops(&w, TFM_FWD), 2 * M + 4 * s * h, 0);
    assert_rel(tfm_block_flops(&w, TFM_DELTA), 2 * M + 8 * s * h, 0);
    assert_rel(tfm_block_flops(&w, TFM_WGRAD), 2 * M, 0);
    for (int p = 0; p < TFM_NPASSES; p++)
        assert_rel(tfm_logits_flops(&w, (enum tfm_pass)p), 2 * h * V, 0);
    assert_rel(tfm_fwd_flops_per_token(&w), 80 * (2 * M + 4 * s * h) + 2 * h * V, 1e-15);
}

static void test_train_flops_total(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    assert_rel(tfm_tokens(&w), 2.385e11, 0);
    assert_rel(tfm_train_flops(&w), 2.385e11 * tfm_train_flops_per_token(&w, 0), 1e-15);
    /* recompute from the file's key, here set through --set */
    const char *rc[] = {"model.recompute=true"};
    load_text(odd_gpt, rc, 1, &w);
    assert_rel(tfm_train_flops(&w), 2.385e11 * tfm_train_flops_per_token(&w, 1), 1e-15);
    assert_true(tfm_train_flops_per_token(&w, 1) > tfm_train_flops_per_token(&w, 0));
}

/* ---- tokens ---- */

/* Hoffmann et al. 2022 ("Training Compute-Optimal Large Language Models"):
 * about 20 tokens per parameter. */
static void test_chinchilla_tokens_hoffmann2022(void **state)
{
    (void)state;
    struct wl_desc w;
    const char *ch[] = {"model.tokens=chinchilla"};
    load_text(odd_gpt, ch, 1, &w);
    assert_int_equal(w.tokens_chinchilla, 1);
    assert_rel(tfm_tokens(&w), 20.0 * tfm_params(&w), 1e-15);
    assert_rel(tfm_train_flops(&w), 20.0 * tfm_params(&w) * tfm_train_flops_per_token(&w, 0),
               1e-15);
    /* the shipped designed models use it */
    load_model("120t", NULL, 0, &w);
    assert_int_equal(w.tokens_chinchilla, 1);
    assert_rel(tfm_tokens(&w), WL_CHINCHILLA_TOKENS_PER_PARAM * tfm_params(&w), 1e-15);
    assert_rel(WL_CHINCHILLA_TOKENS_PER_PARAM, 20.0, 0);
}

/* ---- activation bytes ---- */

static void test_activation_bytes_korthikanti2022(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double s, h, a;
    } m[] = {
        {"gpt3-175b", 2048, 12288, 96},
        {"megatron-1t", 2048, 25600, 160},
        {"gpt3-xl", 2048, 2048, 16},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct wl_desc w;
        load_model(m[i].name, NULL, 0, &w);
        assert_rel(tfm_act_bytes_per_seq_block(&w, 0), korthikanti_bytes(m[i].s, m[i].h, m[i].a),
                   1e-12);
        /* Korthikanti et al. 2022, section 4.2 (full recomputation): only
         * the 2 s h bytes of each layer's input are kept. */
        assert_rel(tfm_act_bytes_per_seq_block(&w, 1), 2 * m[i].s * m[i].h, 1e-15);
    }
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    assert_rel(tfm_act_bytes_per_seq_block(&w, 0), korthikanti_bytes(1536, 1344, 21), 1e-12);
    /* 32-bit activations: everything doubles */
    const char *fp32[] = {"model.act_bytes=4 B"};
    load_text(odd_gpt, fp32, 1, &w);
    assert_rel(tfm_act_bytes_per_seq_block(&w, 0), 2 * korthikanti_bytes(1536, 1344, 21), 1e-12);
    assert_rel(tfm_act_bytes_per_seq_block(&w, 1), 4 * 1536 * 1344.0, 1e-15);
}

/* tfm.h's generalisation to any FFN size, gating and grouped-query
 * attention: the FFN keeps 3 s h (input and 1-byte mask) plus 2 bytes x s x f
 * for each of its (matrices - 1) projection outputs and the activation
 * output; attention keeps K and V at their width k = kv_heads x head size,
 * 7 s h + 4 s k + 5 a s^2 (Korthikanti's 11 s h + 5 a s^2 when k = h). */
static void test_activation_bytes_gated(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(llama2_70b, NULL, 0, &w);
    double s = 4096, h = 8192, a = 64, f = 28672, k = 8 * (8192 / 64);
    double want = 7 * s * h + 4 * s * k + 5 * a * s * s + 3 * s * h + 2 * 3 * s * f + 4 * s * h;
    assert_rel(tfm_act_bytes_per_seq_block(&w, 0), want, 1e-15);
}

/* Without dropout no masks and no dropout output are kept: attention
 * 6 s h + 4 s k + 2 a s^2 (softmax output only), FFN 2 s h + 2 m s f. */
static void test_activation_bytes_no_dropout(void **state)
{
    (void)state;
    struct wl_desc w;
    const char *nodrop[] = {"model.dropout=false"};
    load_text(llama2_70b, nodrop, 1, &w);
    double s = 4096, h = 8192, a = 64, f = 28672, k = 8 * (8192 / 64);
    double want = 6 * s * h + 4 * s * k + 2 * a * s * s + 2 * s * h + 2 * 3 * s * f + 4 * s * h;
    assert_rel(tfm_act_bytes_per_seq_block(&w, 0), want, 1e-15);
}

/* ---- the logits on the predicted positions ---- */

/* tfm.h: the logits cost 2 h V on each predicted position, so per token of
 * the sequence 2 h V x predictions / seq_len; predictions defaults to
 * seq_len (every position, as a decoder predicts). */
static void test_logits_predictions(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    double h = 1344, s = 1536, V = 50257, l = 7;
    assert_rel(w.predictions, s, 0);
    for (int p = 0; p < TFM_NPASSES; p++)
        assert_rel(tfm_logits_flops(&w, (enum tfm_pass)p), 2 * h * V, 1e-15);

    /* 229 of 1536 positions (about 15 %, a masked-LM share) */
    const char *mlm[] = {"model.predictions=229"};
    struct wl_desc m;
    load_text(odd_gpt, mlm, 1, &m);
    assert_rel(m.predictions, 229, 0);
    for (int p = 0; p < TFM_NPASSES; p++)
        assert_rel(tfm_logits_flops(&m, (enum tfm_pass)p), 2 * h * V * 229 / s, 1e-15);
    /* only the logits change: the blocks, three passes of them, and the
     * recomputed forward are the same */
    assert_rel(tfm_train_flops_per_token(&w, 0) - tfm_train_flops_per_token(&m, 0),
               3 * 2 * h * V * (1 - 229 / s), 1e-12);
    assert_rel(tfm_train_flops_per_token(&m, 1) - tfm_train_flops_per_token(&m, 0),
               l * tfm_block_flops(&m, TFM_FWD), 1e-12);
    assert_rel(tfm_params(&m), tfm_params(&w), 0);
    /* the logits kept in SRAM: predictions x V at act_bytes */
    assert_rel(tfm_sram_per_seq(&w) - tfm_sram_per_seq(&m), 2 * V * (s - 229), 1e-12);
    assert_rel(tfm_working_bytes_per_seq(&m), tfm_act_bytes_per_seq_block(&m, 0) + 2 * 229 * V,
               1e-15);

    /* BERT-Large at sequence length 128 predicts 20 masked positions
     * (models/bert-large.ini, from the released code): 2 x 1024 x 30522
     * x 20 / 128 FLOP per token */
    load_model("bert-large", NULL, 0, &w);
    assert_rel(w.predictions, 20, 0);
    assert_rel(tfm_logits_flops(&w, TFM_FWD), 2 * 1024 * 30522.0 * 20 / 128, 1e-15);

    /* exactly seq_len is accepted; more is refused (wl.h; test_desc.c
     * checks the message) */
    const char *all[] = {"model.predictions=1536"};
    load_text(odd_gpt, all, 1, &m);
    assert_rel(tfm_logits_flops(&m, TFM_FWD), 2 * h * V, 1e-15);
    const char *over[] = {"model.predictions=1537"};
    struct cp_error err = {0};
    assert_int_equal(wl_load(odd_gpt, "test.ini", over, 1, &m, NULL, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "predictions"));
    assert_int_equal(wl_load("[model]\nlayers = 2\nhidden = 64\nheads = 1\nseq_len = 128\n"
                             "vocab = 100\ntokens = 1e6\nbatch = 1\npredictions = 129\n",
                             "p.ini", NULL, 0, &m, NULL, &err),
                     CP_EINPUT);
    assert_non_null(strstr(err.msg, "p.ini:9: model.predictions"));
}

/* ---- offloaded checkpoints and the working set ---- */

/* tfm.h: a sequence offloads every block's input, l x 2 s h bytes (at
 * 16-bit), and the wafer holds one block's full activations and the
 * logits of the layer in flight. */
static void test_ckpt_and_working_bytes(void **state)
{
    (void)state;
    struct wl_desc w;
    load_text(odd_gpt, NULL, 0, &w);
    double h = 1344, s = 1536, V = 50257, a = 21;
    assert_rel(tfm_ckpt_bytes_per_seq(&w), 7 * 2 * s * h, 1e-15);
    assert_rel(tfm_working_bytes_per_seq(&w), korthikanti_bytes(s, h, a) + 2 * s * V, 1e-12);
    /* the file's recompute does not change what is offloaded */
    const char *rc[] = {"model.recompute=true", "model.act_bytes=4 B"};
    load_text(odd_gpt, rc, 2, &w);
    assert_rel(tfm_ckpt_bytes_per_seq(&w), 7 * 4 * s * h, 1e-15);
    assert_rel(tfm_working_bytes_per_seq(&w), 2 * korthikanti_bytes(s, h, a) + 4 * s * V, 1e-12);

    /* Llama 2 7B: 32 x 2 x 4096 x 4096 = 2^30 bytes a sequence; 1024
     * sequences 1.1 TB, what the measured one-CS-3 run (M08) needed of its
     * activation servers (hw/cs3.ini) */
    load_model("llama2-7b", NULL, 0, &w);
    assert_rel(tfm_ckpt_bytes_per_seq(&w), 1073741824.0, 0);
    assert_rel(1024 * tfm_ckpt_bytes_per_seq(&w), 1.1e12, 0.005);
}

/* Touvron et al. 2023b, Table 1: Llama 2 7B; the released checkpoint has
 * 6,738,415,616 parameters: 32 blocks of 4 h^2 + 3 h f + 2 h =
 * 202,383,360, the 32000 x 4096 embedding and output matrices and the final
 * norm. */
static void test_llama2_7b_params_touvron2023(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("llama2-7b", NULL, 0, &w);
    assert_rel(tfm_block_params(&w), 202383360.0, 0);
    assert_rel(tfm_params(&w), 6738415616.0, 0);
}

/* The 2024 models of the published GPU runs against their sizes as named
 * (Grattafiori et al. 2024, "The Llama 3 Herd of Models", Table 3: 8B, 70B,
 * 405B; Nemotron-4-340B-Base model card: 340 billion; Parmar et al. 2024,
 * "Nemotron-4 15B Technical Report", section 2: 12.5 billion non-embedding
 * and 3.2 billion embedding parameters), within 1 %.  Llama 3.1 keeps the
 * shapes of Llama 3.  The 8B exactly, by hand: 32 blocks of
 * 4096 x (4096 + 2 x 1024) + 4096^2 + 3 x 4096 x 14336 + 2 x 4096 =
 * 218,112,000, the 128256 x 4096 embedding and output matrices
 * (1,050,673,152) and the final norm: 8,030,261,248. */
static void test_2024_models_params_published(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double params;
    } m[] = {{"llama3-8b", 8e9},       {"llama3-70b", 70e9},    {"llama3.1-8b", 8e9},
             {"llama3.1-70b", 70e9},    {"llama3.1-405b", 405e9}, {"nemotron4-15b", 15.7e9},
             {"nemotron4-340b", 340e9}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct wl_desc w;
        load_model(m[i].name, NULL, 0, &w);
        assert_rel(tfm_params(&w), m[i].params, 0.01);
    }
    struct wl_desc a, b;
    load_model("llama3-8b", NULL, 0, &a);
    assert_rel(tfm_block_params(&a), 218112000.0, 0);
    assert_rel(tfm_params(&a), 8030261248.0, 0);
    load_model("llama3.1-8b", NULL, 0, &b);
    assert_rel(tfm_params(&b), tfm_params(&a), 0);
    load_model("nemotron4-15b", NULL, 0, &a);
    assert_rel(a.layers * tfm_block_params(&a), 12.5e9, 0.01);
}

/* ---- state bytes ---- */

static void test_state_bytes(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    double n = tfm_params(&w);
    assert_rel(tfm_weight_bytes(&w), 2 * n, 1e-15);
    assert_rel(tfm_grad_bytes(&w), 2 * n, 1e-15);
    /* master (4 B) + Adam moments (8 B) per parameter */
    assert_rel(tfm_optimizer_bytes(&w), n * (4 + 8), 1e-15);

    const char *sets[] = {"model.master_bytes=0 B", "model.optimizer_bytes=2.385 B",
                          "model.weight_bytes=1 B", "model.grad_bytes=24 b"};
    load_text(odd_gpt, sets, 4, &w);
    n = tfm_params(&w);
    assert_rel(tfm_optimizer_bytes(&w), n * 2.385, 1e-15);
    assert_rel(tfm_weight_bytes(&w), n, 1e-15);
    assert_rel(tfm_grad_bytes(&w), 3 * n, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpt3_175b_params_brown2020),
        cmocka_unit_test(test_gpt3_175b_train_flops_brown2020),
        cmocka_unit_test(test_megatron_1t_params_narayanan2021),
        cmocka_unit_test(test_llama2_70b_params_touvron2023),
        cmocka_unit_test(test_gpt3_xl_params_brown2020),
        cmocka_unit_test(test_designed_models_match_their_files),
        cmocka_unit_test(test_param_breakdown_standard_gpt),
        cmocka_unit_test(test_train_flops_equal_narayanan2021),
        cmocka_unit_test(test_train_is_three_forward),
        cmocka_unit_test(test_per_pass_flops),
        cmocka_unit_test(test_train_flops_total),
        cmocka_unit_test(test_chinchilla_tokens_hoffmann2022),
        cmocka_unit_test(test_activation_bytes_korthikanti2022),
        cmocka_unit_test(test_activation_bytes_gated),
        cmocka_unit_test(test_activation_bytes_no_dropout),
        cmocka_unit_test(test_logits_predictions),
        cmocka_unit_test(test_ckpt_and_working_bytes),
        cmocka_unit_test(test_llama2_7b_params_touvron2023),
        cmocka_unit_test(test_2024_models_params_published),
        cmocka_unit_test(test_state_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
