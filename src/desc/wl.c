/* wl.c - the workload description schema, derived defaults and checks. */
#include "wl.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tfm.h"

#define F(f) offsetof(struct wl_desc, f)
#define L(f) (F(loss) + offsetof(struct loss_spec, f))
#define REQ DESC_REQUIRED
#define INT DESC_INTEGER

static const struct desc_key wl_keys[] = {
    {"model", "name", DESC_TEXT, UNIT_COUNT, 0, F(name), 0, NULL, 0, "display name"},
    {"model", "layers", DESC_NUM, UNIT_COUNT, REQ | INT, F(layers), 0, NULL, 0,
     "number of transformer blocks"},
    {"model", "hidden", DESC_NUM, UNIT_COUNT, REQ | INT, F(hidden), 0, NULL, 0,
     "model width d_model"},
    {"model", "heads", DESC_NUM, UNIT_COUNT, REQ | INT, F(heads), 0, NULL, 0,
     "attention heads (query heads)"},
    {"model", "seq_len", DESC_NUM, UNIT_COUNT, REQ | INT, F(seq_len), 0, NULL, 0,
     "sequence length in tokens"},
    {"model", "vocab", DESC_NUM, UNIT_COUNT, REQ | INT, F(vocab), 0, NULL, 0, "vocabulary size"},
    {"model", "tokens", DESC_NUM_OR_WORD, UNIT_COUNT, REQ | INT, F(tokens), 0, "chinchilla",
     F(tokens_chinchilla), "training tokens, or chinchilla for 20 per parameter"},
    {"model", "batch", DESC_NUM, UNIT_COUNT, REQ | INT, F(batch), 0, NULL, 0,
     "global batch in sequences"},
    {"model", "ffn", DESC_NUM, UNIT_COUNT, INT, F(ffn), 0, NULL, 0,
     "FFN inner size (default 4 x hidden)"},
    {"model", "predictions", DESC_NUM, UNIT_COUNT, INT, F(predictions), 0, NULL, 0,
     "positions per sequence the logits layer runs on (masked-LM heads; default seq_len)"},
    {"model", "kv_heads", DESC_NUM, UNIT_COUNT, INT, F(kv_heads), 0, NULL, 0,
     "key/value heads for grouped-query attention (default heads)"},
    {"model", "gated_ffn", DESC_BOOL, UNIT_COUNT, 0, F(gated_ffn), 0, NULL, 0,
     "SwiGLU-style FFN with three matrices"},
    {"model", "bias", DESC_BOOL, UNIT_COUNT, 0, F(bias), 1, NULL, 0,
     "linear layers carry bias vectors"},
    {"model", "tied_embeddings", DESC_BOOL, UNIT_COUNT, 0, F(tied_embeddings), 1, NULL, 0,
     "the logits layer reuses the token embedding"},
    {"model", "norm", DESC_CHOICE, UNIT_COUNT, 0, F(norm), WL_LAYERNORM, "layernorm|rmsnorm", 0,
     "normalisation: layernorm (scale and shift) or rmsnorm (scale)"},
    {"model", "positions", DESC_CHOICE, UNIT_COUNT, 0, F(positions), WL_POS_LEARNED,
     "learned|rotary", 0, "position encoding: learned table or rotary (no weights)"},
    {"model", "dropout", DESC_BOOL, UNIT_COUNT, 0, F(dropout), 1, NULL, 0,
     "dropout after attention and FFN (its masks are kept for the backward pass)"},
    {"model", "attention_dropout", DESC_BOOL, UNIT_COUNT, 0, F(attention_dropout), 1, NULL, 0,
     "dropout on the attention probabilities (its mask and output are kept; default: dropout)"},
    {"model", "recompute", DESC_CHOICE, UNIT_COUNT, 0, F(recompute), WL_RC_NONE,
     "none|full|selective|false|true|no|yes|off|on|0|1", 0,
     "recompute activations in the backward pass: none, selective or full"},
    {"model", "weight_bytes", DESC_NUM, UNIT_BYTES, 0, F(weight_bytes), 2, NULL, 0,
     "bytes per streamed weight (16-bit: 2 B)"},
    {"model", "grad_bytes", DESC_NUM, UNIT_BYTES, 0, F(grad_bytes), 2, NULL, 0,
     "bytes per streamed gradient (16-bit: 2 B)"},
    {"model", "master_bytes", DESC_NUM, UNIT_BYTES, DESC_ZERO_OK, F(master_bytes), 4, NULL, 0,
     "bytes per master weight kept by MemoryX (FP32: 4 B)"},
    {"model", "optimizer_bytes", DESC_NUM, UNIT_BYTES, DESC_ZERO_OK, F(optimizer_bytes), 8, NULL, 0,
     "optimizer state per parameter (Adam, two FP32 moments: 8 B)"},
    {"model", "act_bytes", DESC_NUM, UNIT_BYTES, 0, F(act_bytes), 2, NULL, 0,
     "bytes per stored activation (16-bit: 2 B)"},
    {"model", "sequence_parallel", DESC_BOOL, UNIT_COUNT, 0, F(sequence_parallel), 1, NULL, 0,
     "GPUs: norms and dropout split over the tensor-parallel ranks"},
    {"model", "flash_attention", DESC_BOOL, UNIT_COUNT, 0, F(flash_attention), 1, NULL, 0,
     "GPUs: fused attention that never stores the scores"},
    {"model", "tp_overlap", DESC_BOOL, UNIT_COUNT, 0, F(tp_overlap), 1, NULL, 0,
     "GPUs: tensor-parallel communication overlapped with the matmuls"},
    {"model", "distributed_optimizer", DESC_BOOL, UNIT_COUNT, 0, F(distributed_optimizer), 1, NULL,
     0, "GPUs: optimizer state sharded over the data-parallel ranks (ZeRO-1)"},
    {"model", "fp8_params", DESC_BOOL, UNIT_COUNT, 0, F(fp8_params), 0, NULL, 0,
     "GPUs: weights kept in 8 bits (no 16-bit copy) when the matmuls run in FP8"},
    {"model", "optimizer_precision", DESC_CHOICE, UNIT_COUNT, 0, F(optimizer_precision),
     WL_OPT_FP32, "fp32|bf16", 0,
     "optimizer state type: fp32 (4 + 8 B per parameter) or bf16 (2 + 4 B)"},
    /* loss.h; a key not given takes loss_fit's value (wl_load) */
    {"model", "loss_fit", DESC_CHOICE, UNIT_COUNT, 0, F(loss_fit), LOSS_CHINCHILLA,
     "chinchilla|t5-c4", 0,
     "sparse loss law: chinchilla (on the non-zero weights) or t5-c4 (Frantar 2024)"},
    {"model", "loss_sparse_a", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, L(sparse_a), 0, NULL, 0,
     "a_S of L = (a_S (1-S)^b_S + c_S) N_nz^-b_N + (a_D/D)^b_D + c (default: loss_fit's)"},
    {"model", "loss_sparse_b", DESC_NUM, UNIT_COUNT, 0, L(sparse_b), 0, NULL, 0,
     "b_S of the sparse loss law (default: loss_fit's)"},
    {"model", "loss_param_coeff", DESC_NUM, UNIT_COUNT, 0, L(param_coeff), 0, NULL, 0,
     "c_S of the sparse loss law (default: loss_fit's)"},
    {"model", "loss_param_exponent", DESC_NUM, UNIT_COUNT, 0, L(param_exponent), 0, NULL, 0,
     "b_N of the sparse loss law (default: loss_fit's)"},
    {"model", "loss_data_scale", DESC_NUM, UNIT_COUNT, 0, L(data_scale), 0, NULL, 0,
     "a_D of the sparse loss law, tokens (default: loss_fit's)"},
    {"model", "loss_data_exponent", DESC_NUM, UNIT_COUNT, 0, L(data_exponent), 0, NULL, 0,
     "b_D of the sparse loss law (default: loss_fit's)"},
    {"model", "loss_irreducible", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, L(irreducible), 0, NULL, 0,
     "c of the sparse loss law, nats (default: loss_fit's)"},
};

const struct desc_schema wl_schema = {
    .kind = "model",
    .keys = wl_keys,
    .nkeys = sizeof wl_keys / sizeof wl_keys[0],
};

/* Each input is finite, but their products need not be: name the key that
 * most likely made a derived quantity overflow. */
static cp_status wl_check_finite(const struct wl_desc *w, const struct desc_src *src,
                                 struct cp_error *err)
{
    static const struct {
        const char *key, *what;
        double (*fn)(const struct wl_desc *);
    } derived[] = {
        {"layers", "parameter count", tfm_params},
        {"tokens", "training FLOPs", tfm_train_flops},
        {"weight_bytes", "weight bytes", tfm_weight_bytes},
        {"grad_bytes", "gradient bytes", tfm_grad_bytes},
        {"optimizer_bytes", "optimizer state bytes", tfm_optimizer_bytes},
    };
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        if (!isfinite(derived[i].fn(w)))
            return desc_key_error(&wl_schema, src, "model", derived[i].key, err,
                                  "the model's %s is out of range", derived[i].what);
    if (!isfinite(tfm_act_bytes_per_seq_block(w, w->recompute)))
        return desc_key_error(&wl_schema, src, "model", "seq_len", err,
                              "the activation bytes are out of range");
    return CP_OK;
}

static cp_status wl_check(const struct wl_desc *w, const struct desc_src *src, struct cp_error *err)
{
    if (fmod(w->hidden, w->heads) != 0)
        return desc_key_error(&wl_schema, src, "model", "heads", err,
                              "%.0f heads do not divide hidden %.0f", w->heads, w->hidden);
    if (w->kv_heads > w->heads || fmod(w->heads, w->kv_heads) != 0)
        return desc_key_error(&wl_schema, src, "model", "kv_heads", err,
                              "%.0f key/value heads do not divide %.0f heads", w->kv_heads,
                              w->heads);
    if (w->predictions > w->seq_len)
        return desc_key_error(&wl_schema, src, "model", "predictions", err,
                              "%.0f predicted positions exceed seq_len %.0f", w->predictions,
                              w->seq_len);
    return wl_check_finite(w, src, err);
}

const char *wl_loss_source(const struct wl_desc *w, char *buf, size_t n)
{
    snprintf(buf, n, "%s: %s%s", loss_fit_name[w->loss_fit], loss_fit_source[w->loss_fit],
             w->loss_given ? " with the model's loss_ keys" : "");
    return buf;
}

/* The loss law's keys the file (or --set) leaves out take loss_fit's
 * published values; loss_given says whether any was given. */
static void wl_loss_defaults(struct wl_desc *wl, const struct desc_src *src)
{
    const size_t lo = F(loss), hi = lo + sizeof wl->loss;
    const unsigned char *fit = (const unsigned char *)&loss_fits[wl->loss_fit];
    wl->loss_given = 0;
    for (size_t i = 0; i < wl_schema.nkeys; i++) {
        size_t off = wl_schema.keys[i].off;
        if (off < lo || off >= hi)
            continue;
        if (src->line[i] != 0)
            wl->loss_given = 1;
        else
            memcpy((unsigned char *)wl + off, fit + (off - lo), sizeof(double));
    }
}

cp_status wl_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                  struct wl_desc *wl, struct desc_src *src, struct cp_error *err)
{
    struct desc_src local;
    if (!src)
        src = &local;
    cp_status st = desc_load_set(&wl_schema, text, origin, sets, nsets, wl, src, err);
    if (st != CP_OK)
        return st;
    for (size_t i = 0; i < wl_schema.nkeys; i++)
        if (src->spread[i] > 0)
            return desc_key_error(&wl_schema, src, wl_schema.keys[i].section,
                                  wl_schema.keys[i].name, err,
                                  "a model is what you train, not an uncertain figure: +- ranges "
                                  "belong in hardware descriptions");
    desc_default_name(wl->name, origin);
    if (wl->ffn == 0)
        wl->ffn = 4 * wl->hidden;
    if (wl->kv_heads == 0)
        wl->kv_heads = wl->heads;
    if (wl->predictions == 0)
        wl->predictions = wl->seq_len;
    if (wl->recompute > WL_RC_SELECTIVE) /* the boolean spellings, false first */
        wl->recompute = (wl->recompute - WL_RC_SELECTIVE) % 2 ? WL_RC_NONE : WL_RC_FULL;
    int opt_given = 0;
    for (size_t i = 0; i < wl_schema.nkeys; i++)
        if (wl_schema.keys[i].off == offsetof(struct wl_desc, optimizer_precision))
            opt_given = src->line[i] != 0;
    for (size_t i = 0; i < wl_schema.nkeys; i++) {
        size_t off = wl_schema.keys[i].off;
        if (off == offsetof(struct wl_desc, attention_dropout) && src->line[i] == 0)
            wl->attention_dropout = wl->dropout; /* not given: as dropout */
        /* the optimizer state's type sets the bytes the file leaves out */
        int bf16 = wl->optimizer_precision == WL_OPT_BF16;
        if (opt_given && off == offsetof(struct wl_desc, master_bytes) && src->line[i] == 0)
            wl->master_bytes = bf16 ? 2 : 4;
        if (opt_given && off == offsetof(struct wl_desc, optimizer_bytes) && src->line[i] == 0)
            wl->optimizer_bytes = bf16 ? 4 : 8;
    }
    wl_loss_defaults(wl, src);
    return wl_check(wl, src, err);
}
