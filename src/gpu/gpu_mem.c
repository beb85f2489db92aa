/* gpu_mem.c - memory per GPU of a layout (the model is stated in gpu.h):
 * weights, gradients, optimizer state and activations (Korthikanti et al.
 * 2022, "Reducing Activation Recomputation in Large Transformer Models"),
 * and the share of layers a recompute setting runs forward twice. */
#include <math.h>

#include "../desc/tfm.h"
#include "gpu_int.h"

/* Korthikanti et al. 2022, sec. 4.1 and eq. 1-2: bytes per token per
 * hidden unit of one layer's activations at 16 bits, 34 with dropout:
 * kept whole (not split by tensor parallelism), 10: the two layer-norm
 * inputs 2 + 2, the QKV and the first MLP matmul inputs 2 + 2, and the
 * 1-byte masks of the two hidden dropouts (after the attention projection
 * and after the MLP) 1 + 1; split by tensor parallelism, 24: Q and K 4, V 2,
 * the projection input 2, the GeLU input 8 and the second MLP matmul input
 * 8.  With sequence parallelism all are split.  Without hidden dropout
 * (rate 0: PyTorch's dropout returns its input and makes no mask) the two
 * masks go. */
#define ACT_WHOLE 10.0
#define ACT_HIDDEN_MASKS 2.0
#define ACT_SPLIT 24.0
/* With FP8 or FP4 matmuls, Transformer Engine keeps the inputs of the
 * four linear layers (2 + 2 + 2 + 8 of the 34 bytes) in 8 bits: 7 bytes
 * fewer, all of them split by tensor parallelism. */
#define ACT_LOWP_SAVED 7.0
/* Attention scores per a s / h (sec. 4.1: 5 a s^2 b in all): the softmax
 * output 2, and with attention dropout its 1-byte mask and its 2-byte
 * output, 3 more; without it the value matmul reads the softmax output
 * itself.  None with flash attention, which never stores them (it
 * regenerates its dropout mask from the random state), nor with selective
 * recompute. */
#define ACT_SOFTMAX 2.0
#define ACT_ATT_DROPOUT 3.0
/* Full recompute keeps a layer's 16-bit input only. */
#define ACT_CKPT GPU_BYTES_16
/* An FP8 weight. */
#define FP8_BYTES 1.0
/* Layers whose weights FSDP holds gathered at once: the one running and
 * the next, prefetched (PyTorch FSDP's forward and backward prefetch). */
#define FSDP_GATHERED_LAYERS 2.0
/* The logits kept in 32 bits for the loss (Korthikanti et al., sec. 4.3). */
#define LOGIT_BYTES 4.0

/* Whole counts below 2^53 divide exactly: their quotient is whole (a
 * division and a floor, cheaper than fmod in the search's inner loop). */
static int whole_quotient(double a, double b)
{
    double q = a / b;
    return q == floor(q);
}

int gpu_uneven_split(const struct wl_desc *w, const struct gpu_layout *l)
{
    return l->pp > 1 && !whole_quotient(w->layers, l->pp);
}

double gpu_stage_layers(const struct wl_desc *w, const struct gpu_layout *l)
{
    if (!gpu_uneven_split(w, l))
        return w->layers / l->pp;
    return ceil((w->layers + 2) / l->pp); /* exact when pp divides L + 2 */
}

/* gpu_stage_params with the block's, the embedding's and the logits'
 * parameters given. */
static double stage_params(const struct wl_desc *w, const struct gpu_layout *l, double block,
                           double embed, double head)
{
    /* the first or last stage: one layer fewer than the middle ones with
     * the uneven split, and the embedding or the logits */
    double layers = gpu_stage_layers(w, l) - (gpu_uneven_split(w, l) ? 1 : 0);
    double ends = l->pp > 1 ? fmax(embed, w->tied_embeddings ? w->vocab * w->hidden : head)
                            : embed + head;
    return (layers * block + ends) / l->tp;
}

double gpu_stage_params(const struct wl_desc *w, const struct gpu_layout *l)
{
    return stage_params(w, l, tfm_block_params(w), tfm_embed_params(w), tfm_head_params(w));
}

double gpu_recomputed_share(const struct wl_desc *w, const struct gpu_layout *l)
{
    if (l->recompute == GPU_RC_FULL)
        return 1;
    if (l->recompute == GPU_RC_BLOCK)
        return l->recompute_layers / gpu_stage_layers(w, l);
    return 0;
}

/* Activation bytes of one layer for one micro-batch on one GPU, kept
 * until its backward pass, under recompute setting rc (none, selective
 * or full). */
static double layer_act(const struct wl_desc *w, const struct gpu_layout *l,
                        enum gpu_recompute rc)
{
    double tp = l->tp, h = w->hidden, s = w->seq_len;
    double sbh = l->mbs * s / l->cp * h; /* token x hidden values */
    double sp = l->seq_parallel ? tp : 1;
    if (rc == GPU_RC_FULL)
        return sbh * ACT_CKPT / sp;
    double whole = (ACT_WHOLE - (w->dropout ? 0 : ACT_HIDDEN_MASKS)) / sp;
    double split = (ACT_SPLIT - (l->precision != GPUHW_BF16 ? ACT_LOWP_SAVED : 0)) / tp;
    if (rc == GPU_RC_SELECTIVE || l->flash_attention)
        return sbh * (whole + split);
    double per_score = ACT_SOFTMAX + (w->attention_dropout ? ACT_ATT_DROPOUT : 0);
    return sbh * (whole + split + per_score * w->heads * s / h / tp);
}

/* Activation bytes of a stage's layers for one micro-batch: with block
 * recompute, the 16-bit inputs of its first recompute_layers layers and
 * the whole activations of the rest. */
static double stage_layers_act(const struct wl_desc *w, const struct gpu_layout *l,
                               double layers)
{
    if (l->recompute != GPU_RC_BLOCK)
        return layers * layer_act(w, l, l->recompute);
    return l->recompute_layers * layer_act(w, l, GPU_RC_FULL) +
           (layers - l->recompute_layers) * layer_act(w, l, GPU_RC_NONE);
}

/* Activations on the fuller of the first and the last stage.  1F1B keeps
 * min(m, pp) micro-batches of L / pp layers in flight on the first stage,
 * 1 + (pp-1)/(pp vp) times more with interleaving (vp > 1 only: Narayanan
 * et al. 2021 sec. 2.2.2; plain 1F1B has no such factor); the last stage
 * keeps one, and the logits.  Full or block recompute also needs one
 * layer's whole working set while the layer is recomputed. */
static double stage_act(const struct wl_desc *w, const struct gpu_layout *l, double layers)
{
    double stage = stage_layers_act(w, l, layers);
    double m = w->batch / (l->dp * l->mbs);
    double interleave = l->vp > 1 ? 1 + (l->pp - 1) / (l->pp * l->vp) : 1;
    double flight = fmin(m, l->pp) * interleave;
    double first = stage * flight;
    double logits = LOGIT_BYTES * l->mbs * w->seq_len / l->cp * w->vocab / l->tp;
    double last = stage + logits;
    int recomputes = l->recompute == GPU_RC_FULL ||
                     (l->recompute == GPU_RC_BLOCK && l->recompute_layers > 0);
    double work = recomputes ? layer_act(w, l, GPU_RC_NONE) : 0;
    return fmax(first, last) + work;
}

/* Bytes per weight held: 1 with fp8_params under FP8 or FP4 matmuls
 * (Transformer Engine's fp8_model_params: no 16-bit copy), else the
 * workload's weight_bytes. */
static double weight_bytes(const struct wl_desc *w, const struct gpu_layout *l)
{
    return l->fp8_params && l->precision != GPUHW_BF16 ? FP8_BYTES : w->weight_bytes;
}

void gpu_memory(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
                struct gpu_result *r)
{
    gpu_memory_memo(g, w, l, NULL, r);
}

void gpu_memory_memo(const struct gpuhw_desc *g, const struct wl_desc *w,
                     const struct gpu_layout *l, struct gpu_memo *memo, struct gpu_result *r)
{
    if (memo && !memo->params_valid) {
        memo->block_params = tfm_block_params(w);
        memo->embed_params = tfm_embed_params(w);
        memo->head_params = tfm_head_params(w);
        memo->params_valid = 1;
    }
    double block = memo ? memo->block_params : tfm_block_params(w);
    double embed = memo ? memo->embed_params : tfm_embed_params(w);
    double head = memo ? memo->head_params : tfm_head_params(w);
    double p = stage_params(w, l, block, embed, head), wb = weight_bytes(w, l);
    r->stage_params = p;
    double state = w->master_bytes + w->optimizer_bytes;
    if (l->fsdp) {
        /* everything sharded over dp; a layer's weights gathered whole for
         * the layer running and the next (prefetch), its gradients whole
         * until they are reduce-scattered */
        double layer = block / l->tp;
        r->mem_weights = p * wb / l->dp + FSDP_GATHERED_LAYERS * layer * wb;
        r->mem_grads = p * w->grad_bytes / l->dp + layer * w->grad_bytes;
        r->mem_optimizer = p * state / l->dp;
    } else {
        r->mem_weights = p * wb;
        r->mem_grads = p * w->grad_bytes;
        r->mem_optimizer = p * state / (l->shard_optimizer ? l->dp : 1);
    }
    r->mem_act = stage_act(w, l, gpu_stage_layers(w, l));
    r->mem_total = r->mem_weights + r->mem_grads + r->mem_optimizer + r->mem_act;
    r->mem_capacity = g->chip.hbm_bytes * g->fit.hbm_usable;
    r->fits = r->mem_total <= r->mem_capacity;
}
