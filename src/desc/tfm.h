/* tfm.h - transformer arithmetic: parameters, FLOPs, activation and state
 * bytes of a workload (struct wl_desc).  Pure functions, SI units.
 *
 * The model, stated once (cerebras-plan(5) repeats it):
 *  - A block is attention (Q, K, V, output projections; K and V sized for
 *    kv_heads) and an FFN (two matrices, three if gated), plus two norms and,
 *    if bias, a bias vector per linear layer.
 *  - Embeddings: vocab x hidden tokens, seq_len x hidden learned positions
 *    (none for rotary), a final norm; an untied logits layer adds
 *    vocab x hidden.
 *  - A matmul of an m-vector by an m x n matrix is 2mn FLOP.  Per token and
 *    per block the forward pass is 2 x (block matrix weights) plus 4 x seq_len
 *    x hidden for attention scores and values (full, unmasked attention, as
 *    in Narayanan et al. 2021); logits add 2 x hidden x vocab on each
 *    predicted position (predictions of seq_len: a masked-LM head runs
 *    on the masked positions only, so per token of the sequence it is
 *    2 x hidden x vocab x predictions / seq_len).  The delta
 *    (activation-gradient) pass costs the same matmul FLOPs plus twice the
 *    attention term; the weight-gradient pass costs the matmul FLOPs again.
 *    Training is therefore 3 x forward; recompute adds one more forward pass
 *    of the blocks (not of the logits).  For a standard GPT this is
 *    72 B s l h^2 (1 + s/(6h) + V/(12 l h)) per step, and with recompute
 *    96 B s l h^2 (1 + s/(6h) + V/(16 l h)) (Narayanan et al. 2021).
 *  - Activation bytes per sequence per block follow Korthikanti et al. 2022
 *    (s h (34 + 5 a s / h) at 16-bit, FFN = 4h, with dropout masks),
 *    generalised to any FFN size and gating; with recompute only the block
 *    input is kept. */
#ifndef CP_TFM_H
#define CP_TFM_H

#include "wl.h"

enum tfm_pass { TFM_FWD, TFM_DELTA, TFM_WGRAD, TFM_NPASSES };

/* Parameters (counts). */
double tfm_block_matrix_params(const struct wl_desc *w); /* weights in matmuls */
double tfm_block_params(const struct wl_desc *w);        /* + biases and norms */
double tfm_embed_params(const struct wl_desc *w);        /* tokens, positions, final norm */
double tfm_head_params(const struct wl_desc *w);         /* untied logits, else 0 */
double tfm_params(const struct wl_desc *w);              /* whole model        */

/* Training tokens: w->tokens, or 20 per parameter for "chinchilla". */
double tfm_tokens(const struct wl_desc *w);

/* FLOPs per token of one block, and of the logits layer, in one pass. */
double tfm_block_flops(const struct wl_desc *w, enum tfm_pass pass);
double tfm_logits_flops(const struct wl_desc *w, enum tfm_pass pass);

/* Forward FLOPs per token; training FLOPs per token (forward + delta +
 * weight gradient, + another forward of the blocks with full recompute, of
 * the attention scores and values with selective; recompute an enum
 * wl_recompute); training FLOPs for tfm_tokens() tokens with
 * w->recompute. */
double tfm_fwd_flops_per_token(const struct wl_desc *w);
double tfm_train_flops_per_token(const struct wl_desc *w, int recompute);
double tfm_train_flops(const struct wl_desc *w);

/* Activation bytes kept for the backward pass, one sequence, one block:
 * only the block's input with full recompute, no attention scores (nor
 * their dropout) with selective. */
double tfm_act_bytes_per_seq_block(const struct wl_desc *w, int recompute);

/* SRAM bytes one sequence needs for the backward pass: the activations kept
 * for every block (only block inputs with recompute, plus one block's full
 * working set while it is recomputed) and the logits. */
double tfm_sram_per_seq(const struct wl_desc *w);

/* Offloaded activations of one sequence: every block's input (the
 * checkpoint its backward pass recomputes the block from). */
double tfm_ckpt_bytes_per_seq(const struct wl_desc *w);

/* Working set of one sequence in the layer in flight: one block's full
 * activations (without recompute) or the logits, whichever the wafer holds
 * at once; taken as their sum. */
double tfm_working_bytes_per_seq(const struct wl_desc *w);

/* The figures above that the analytic model asks for at every evaluation,
 * worked out once: each equal, bit for bit, to its function's value. */
struct tfm_figs {
    double block_matrix, block, embed, head, params; /* parameters        */
    double block_flops[TFM_NPASSES];  /* tfm_block_flops() of each pass     */
    double logits_flops[TFM_NPASSES]; /* tfm_logits_flops() of each pass    */
    double act_input;                 /* tfm_act_bytes_per_seq_block(w, 1)  */
    double act_full;                  /* tfm_act_bytes_per_seq_block(w, 0)  */
    double train_flops;               /* tfm_train_flops_per_token(w, none) */
};
void tfm_figures(const struct wl_desc *w, struct tfm_figs *f);

/* Bytes for the whole model at the workload's precisions. */
double tfm_weight_bytes(const struct wl_desc *w);    /* streamed weights     */
double tfm_grad_bytes(const struct wl_desc *w);      /* streamed gradients   */
double tfm_optimizer_bytes(const struct wl_desc *w); /* master + moments     */

#endif
