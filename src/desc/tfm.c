/* tfm.c - transformer arithmetic (the model is stated in tfm.h). */
#include "tfm.h"

/* Width of the K and V projections with grouped-query attention. */
static double kv_width(const struct wl_desc *w)
{
    return w->kv_heads * (w->hidden / w->heads);
}

static double ffn_matrices(const struct wl_desc *w)
{
    return w->gated_ffn ? 3.0 : 2.0;
}

static double norm_params(const struct wl_desc *w)
{
    return w->norm == WL_LAYERNORM ? 2.0 * w->hidden : w->hidden;
}

double tfm_block_matrix_params(const struct wl_desc *w)
{
    double h = w->hidden;
    double attn = h * (h + 2.0 * kv_width(w)) + h * h; /* QKV + output projection */
    return attn + ffn_matrices(w) * h * w->ffn;
}

static double block_bias_params(const struct wl_desc *w)
{
    if (!w->bias)
        return 0.0;
    double h = w->hidden;
    double ffn_in = (ffn_matrices(w) - 1.0) * w->ffn; /* up (and gate) biases */
    return (h + 2.0 * kv_width(w)) + h + ffn_in + h;
}

double tfm_block_params(const struct wl_desc *w)
{
    return tfm_block_matrix_params(w) + block_bias_params(w) + 2.0 * norm_params(w);
}

double tfm_embed_params(const struct wl_desc *w)
{
    double pos = w->positions == WL_POS_LEARNED ? w->seq_len * w->hidden : 0.0;
    return w->vocab * w->hidden + pos + norm_params(w);
}

double tfm_head_params(const struct wl_desc *w)
{
    return w->tied_embeddings ? 0.0 : w->vocab * w->hidden;
}

double tfm_params(const struct wl_desc *w)
{
    return w->layers * tfm_block_params(w) + tfm_embed_params(w) + tfm_head_params(w);
}

double tfm_tokens(const struct wl_desc *w)
{
    return w->tokens_chinchilla ? WL_CHINCHILLA_TOKENS_PER_PARAM * tfm_params(w) : w->tokens;
}

/* Attention scores (Q K^T) and values (P V): 2 x seq x hidden FLOP each per
 * token in the forward pass; the backward pass needs gradients for both
 * operands of each, hence twice that in the delta pass and none in the
 * weight-gradient pass (they have no weights). */
static double attention_flops(const struct wl_desc *w, enum tfm_pass pass)
{
    double fwd = 4.0 * w->seq_len * w->hidden;
    return pass == TFM_FWD ? fwd : pass == TFM_DELTA ? 2.0 * fwd : 0.0;
}

double tfm_block_flops(const struct wl_desc *w, enum tfm_pass pass)
{
    return 2.0 * tfm_block_matrix_params(w) + attention_flops(w, pass);
}

double tfm_logits_flops(const struct wl_desc *w, enum tfm_pass pass)
{
    (void)pass; /* forward, delta and weight gradient are one matmul each */
    return 2.0 * w->hidden * w->vocab * w->predictions / w->seq_len;
}

double tfm_fwd_flops_per_token(const struct wl_desc *w)
{
    return w->layers * tfm_block_flops(w, TFM_FWD) + tfm_logits_flops(w, TFM_FWD);
}

double tfm_train_flops_per_token(const struct wl_desc *w, int recompute)
{
    double total = 0.0;
    for (int p = 0; p < TFM_NPASSES; p++)
        total += w->layers * tfm_block_flops(w, p) + tfm_logits_flops(w, p);
    /* Full recompute reruns the blocks' forward pass (the logits are not
     * kept); selective only the attention's scores and values. */
    if (recompute == WL_RC_FULL)
        total += w->layers * tfm_block_flops(w, TFM_FWD);
    else if (recompute == WL_RC_SELECTIVE)
        total += w->layers * attention_flops(w, TFM_FWD);
    return total;
}

double tfm_train_flops(const struct wl_desc *w)
{
    return tfm_tokens(w) * tfm_train_flops_per_token(w, w->recompute);
}

/* Korthikanti et al. 2022, section 4.1, at 16-bit with 1-byte dropout masks:
 * attention 11 s h + 5 a s^2, FFN 19 s h, norms 4 s h, for FFN = 4h and
 * K, V as wide as Q.  Generalised term by term, at 2 bytes per value:
 *  - attention: QKV input 2sh; Q 2sh and K 2sk for the scores; softmax
 *    output 2as^2; V 2sk; projection input 2sh; with attention dropout a
 *    mask as^2 and its output 2as^2; with (hidden) dropout the output mask
 *    sh (k = K/V width, = h without grouped-query attention, giving
 *    11sh + 5as^2 with both);
 *  - FFN: input 2sh, 2sf for each projection output before the last and for
 *    the activation output, with dropout a mask sh (19sh for f = 4h);
 *  - norms: their two inputs, 4sh.
 * Everything is scaled by act_bytes / 2, masks included (an approximation
 * for precisions other than 16-bit). */
static double attention_act_bytes(const struct wl_desc *w, int selective)
{
    double s = w->seq_len, h = w->hidden, a = w->heads, k = kv_width(w);
    double scores =
        selective ? 0.0 : 2.0 * a * s * s + (w->attention_dropout ? 3.0 * a * s * s : 0.0);
    return 6.0 * s * h + 4.0 * s * k + scores + (w->dropout ? s * h : 0.0);
}

static double ffn_act_bytes(const struct wl_desc *w)
{
    double s = w->seq_len, h = w->hidden;
    return 2.0 * s * h + 2.0 * ffn_matrices(w) * s * w->ffn + (w->dropout ? s * h : 0.0);
}

double tfm_act_bytes_per_seq_block(const struct wl_desc *w, int recompute)
{
    double scale = w->act_bytes / 2.0;
    if (recompute == WL_RC_FULL)
        return 2.0 * w->seq_len * w->hidden * scale;
    double norms = 4.0 * w->seq_len * w->hidden;
    return (attention_act_bytes(w, recompute == WL_RC_SELECTIVE) + ffn_act_bytes(w) + norms) *
           scale;
}

double tfm_weight_bytes(const struct wl_desc *w)
{
    return tfm_params(w) * w->weight_bytes;
}

double tfm_grad_bytes(const struct wl_desc *w)
{
    return tfm_params(w) * w->grad_bytes;
}

double tfm_optimizer_bytes(const struct wl_desc *w)
{
    return tfm_params(w) * (w->master_bytes + w->optimizer_bytes);
}

double tfm_sram_per_seq(const struct wl_desc *wl)
{
    double kept = wl->layers * tfm_act_bytes_per_seq_block(wl, wl->recompute);
    double working = wl->recompute == WL_RC_FULL ? tfm_act_bytes_per_seq_block(wl, WL_RC_NONE) : 0;
    double logits = wl->predictions * wl->vocab * wl->act_bytes;
    return kept + working + logits;
}

double tfm_ckpt_bytes_per_seq(const struct wl_desc *wl)
{
    return wl->layers * tfm_act_bytes_per_seq_block(wl, 1);
}

double tfm_working_bytes_per_seq(const struct wl_desc *wl)
{
    return tfm_act_bytes_per_seq_block(wl, 0) + wl->predictions * wl->vocab * wl->act_bytes;
}

void tfm_figures(const struct wl_desc *w, struct tfm_figs *f)
{
    /* the expressions of the functions, in their order */
    f->block_matrix = tfm_block_matrix_params(w);
    f->block = f->block_matrix + block_bias_params(w) + 2.0 * norm_params(w);
    f->embed = tfm_embed_params(w);
    f->head = tfm_head_params(w);
    f->params = w->layers * f->block + f->embed + f->head;
    for (int p = 0; p < TFM_NPASSES; p++) {
        f->block_flops[p] = 2.0 * f->block_matrix + attention_flops(w, (enum tfm_pass)p);
        f->logits_flops[p] = tfm_logits_flops(w, (enum tfm_pass)p);
    }
    f->act_input = tfm_act_bytes_per_seq_block(w, 1);
    f->act_full = tfm_act_bytes_per_seq_block(w, 0);
    f->train_flops = tfm_train_flops_per_token(w, WL_RC_NONE);
}
