/* gpu.c - the GPU training model's step time (the model is stated in
 * gpu.h): one micro-batch on the slowest pipeline stage, the pipeline
 * with its bubble, the gradient reduction and the optimizer step. */
#include "gpu.h"

#include <math.h>
#include <stdio.h>

#include "../desc/tfm.h"
#include "gpu_int.h"

const char *const gpu_recompute_name[GPU_NRECOMPUTES] = {"none", "selective", "full", "block"};
const char *const gpu_part_name[GPU_NPARTS] = {"matmul", "elementwise", "tp-comm",   "pp-comm",
                                               "bubble", "dp-comm",     "optimizer", "overhead"};

/* Tensor-parallel collectives per layer: two in the forward pass (after
 * attention and after the MLP) and two in the backward (Narayanan et al.
 * 2021, sec. 2.3; with sequence parallelism each all-reduce becomes an
 * all-gather and a reduce-scatter of the same bytes, Korthikanti et al.
 * 2022); a recomputed forward pass repeats the first two. */
#define TP_COLLECTIVES 4.0
#define TP_RECOMPUTE_COLLECTIVES 2.0
/* Passes of the blocks over the data: forward, delta, weight gradient. */
#define TRAIN_PASSES 3.0

const char *gpu_recompute_text(const struct gpu_layout *l, char *buf, size_t n)
{
    if (l->recompute == GPU_RC_BLOCK)
        snprintf(buf, n, "block recompute of %g layer%s a stage", l->recompute_layers,
                 l->recompute_layers == 1 ? "" : "s");
    else if (l->recompute == GPU_RC_NONE)
        snprintf(buf, n, "no recompute");
    else
        snprintf(buf, n, "%s recompute", gpu_recompute_name[l->recompute]);
    return buf;
}

struct gpu_layout gpu_layout_default(double tp, double pp, double dp, double mbs)
{
    struct gpu_layout l = {
        .tp = tp,
        .pp = pp,
        .dp = dp,
        .cp = 1,
        .mbs = mbs,
        .vp = 1,
        .precision = GPUHW_BF16,
        .recompute = GPU_RC_NONE,
        .shard_optimizer = 1,
        .seq_parallel = 1,
        .flash_attention = 1,
        .overlap_grad = 1,
        .overlap_tp = 1,
    };
    return l;
}

void gpu_layout_switches(struct gpu_layout *l, const struct wl_desc *w)
{
    l->seq_parallel = w->sequence_parallel;
    l->flash_attention = w->flash_attention;
    l->overlap_tp = w->tp_overlap;
    l->shard_optimizer = w->distributed_optimizer;
    l->fp8_params = w->fp8_params;
}

double gpu_tile_quant(double rows, double cols, double tm, double tn, double sms)
{
    double tr = ceil(rows / tm), tc = ceil(cols / tn), tiles = tr * tc;
    double padded = rows * cols / (tr * tm * tc * tn);
    return padded * tiles / (ceil(tiles / sms) * sms);
}

double gpu_gemm_quant(const struct gpuhw_desc *g, double rows, double cols)
{
    const struct gpu_fit *f = &g->fit;
    double sms = g->chip.sm_count;
    if (!(f->tile_m > 0 && f->tile_n > 0 && sms > 0))
        return 1;
    double q = gpu_tile_quant(rows, cols, f->tile_m, f->tile_n, sms);
    if (f->small_tile_m > 0 && f->small_tile_n > 0)
        q = fmax(q, gpu_tile_quant(rows, cols, f->small_tile_m, f->small_tile_n, sms));
    return q;
}

/* Tile and wave quantisation of one matmul of a rows x cols output: the
 * better of the two orientations (a library may compute the transpose). */
static double gemm_q(const struct gpuhw_desc *g, double a, double b)
{
    return fmax(gpu_gemm_quant(g, a, b), gpu_gemm_quant(g, b, a));
}

/* Seconds, summed over the three passes of one matmul of T
 * tokens, n outputs and k inputs per token: the forward (T x n output),
 * the delta (T x k) and the weight gradient (k x n), each at the
 * quantisation of its output; recompute (0 to 1): that share of forwards
 * again. */
static double gemm_s(const struct gpuhw_desc *g, double T, double n, double k, double rate,
                     double recompute)
{
    double f = 2 * T * n * k, fwd = f / (rate * gemm_q(g, T, n));
    return (1 + recompute) * fwd + f / (rate * gemm_q(g, T, k)) + f / (rate * gemm_q(g, k, n));
}

double gpu_linear_s(const struct gpuhw_desc *g, const struct wl_desc *w,
                    const struct gpu_layout *l, double T, double recompute)
{
    double tp = l->tp, h = w->hidden, dh = h / w->heads;
    double rate = g->chip.peak_flops[l->precision] * g->fit.matmul_eff *
                  (l->precision == GPUHW_BF16  ? 1
                   : l->precision == GPUHW_FP8 ? g->fit.lowp_eff
                                               : g->fit.fp4_eff);
    double ffn_in = (w->gated_ffn ? 2 : 1) * w->ffn;
    return gemm_s(g, T, (h + 2 * w->kv_heads * dh) / tp, h, rate, recompute) /* QKV */
           + gemm_s(g, T, h, h / tp, rate, recompute)                         /* projection */
           + gemm_s(g, T, ffn_in / tp, h, rate, recompute)                    /* FFN in */
           + gemm_s(g, T, h, w->ffn / tp, rate, recompute);                   /* FFN out */
}

double gpu_ring_allreduce(double bytes, double n, double Bps, double latency_s)
{
    if (n <= 1)
        return 0;
    return 2 * (n - 1) / n * bytes / Bps + 2 * (n - 1) * latency_s;
}

double gpu_group_Bps(const struct gpuhw_desc *g, double n, double stride)
{
    double dom = g->net.nvlink_domain, bw = g->net.nvlink_Bps;
    if ((n - 1) * stride + 1 > dom) {
        double local = fmax(1, fmin(n, g->net.gpus_per_node / stride));
        bw = fmin(bw, local * g->net.scaleout_Bps);
    }
    return bw * g->fit.comm_eff;
}

/* Matmul, elementwise and per-kernel time of one layer for one
 * micro-batch of T local tokens on one GPU. */
static void layer_compute(const struct gpuhw_desc *g, const struct wl_desc *w,
                          const struct gpu_layout *l, double T, double t[GPU_NPARTS])
{
    double tp = l->tp, h = w->hidden;
    double p_mat = tfm_block_matrix_params(w);
    double att_fwd = tfm_block_flops(w, TFM_FWD) - 2 * p_mat; /* per token */
    double att_train = tfm_block_flops(w, TFM_FWD) + tfm_block_flops(w, TFM_DELTA) +
                       tfm_block_flops(w, TFM_WGRAD) - TRAIN_PASSES * 2 * p_mat;
    double whole = gpu_recomputed_share(w, l); /* layers recomputed whole */
    double passes = (TRAIN_PASSES + whole) / TRAIN_PASSES;
    double att = att_train + (l->recompute == GPU_RC_SELECTIVE ? 1 : whole) * att_fwd;
    double p_att = g->chip.peak_flops[GPUHW_BF16] * g->fit.attention_eff;
    t[GPU_MATMUL] = gpu_linear_s(g, w, l, T, whole) + att * T / tp / p_att;
    double ew = g->fit.elementwise * T * h / (l->seq_parallel ? tp : 1);
    if (!l->flash_attention) /* the stored scores: softmax (and dropout) */
        ew += (g->fit.score_bytes + (w->attention_dropout ? g->fit.score_dropout_bytes : 0)) *
              T * w->seq_len * w->heads / tp; /* T queries x all s keys */
    t[GPU_ELEMENTWISE] = ew * passes / g->chip.hbm_Bps;
    t[GPU_OVERHEAD] = g->fit.kernels_per_layer * g->fit.kernel_overhead_s * passes;
}

/* Exposed tensor- and context-parallel communication of one layer. */
static double layer_comm(const struct gpuhw_desc *g, const struct wl_desc *w,
                         const struct gpu_layout *l, double T, double t_matmul)
{
    double lat = g->net.link_latency_s;
    double ncoll = TP_COLLECTIVES + gpu_recomputed_share(w, l) * TP_RECOMPUTE_COLLECTIVES;
    double tp_s = ncoll * gpu_ring_allreduce(T * w->hidden * GPU_BYTES_16, l->tp,
                                             gpu_group_Bps(g, l->tp, 1), lat);
    tp_s *= 1 - (l->overlap_tp ? g->fit.tp_overlap : 0);
    if (l->cp <= 1)
        return tp_s;
    /* Ring attention: each GPU's K and V blocks go round the cp ring in the
     * forward pass, and K, V and their gradients in the backward. */
    double kv_bytes = 2 * T * w->kv_heads * (w->hidden / w->heads) * GPU_BYTES_16 / l->tp;
    double cp_s = TRAIN_PASSES * (l->cp - 1) * (kv_bytes / gpu_group_Bps(g, l->cp, l->tp) + lat);
    return tp_s + fmax(0, cp_s - t_matmul);
}

/* FSDP's traffic of one layer for one micro-batch and its exposed part:
 * the layer's weights gathered over dp before its forward pass and again
 * before its backward (and its recomputed forward), its gradients
 * reduce-scattered after; all overlapped with the layer's compute
 * (prefetched a layer ahead). */
static double fsdp_comm(const struct gpuhw_desc *g, const struct wl_desc *w,
                        const struct gpu_layout *l, double t_compute)
{
    if (!l->fsdp || l->dp <= 1)
        return 0;
    double p = tfm_block_params(w) / l->tp, n = l->dp;
    double wb = l->fp8_params && l->precision != GPUHW_BF16 ? 1 : w->weight_bytes;
    double gathers = 2 + gpu_recomputed_share(w, l);
    double bytes = gathers * p * wb + p * w->grad_bytes;
    double s = (n - 1) / n * bytes / gpu_group_Bps(g, n, l->tp * l->cp) +
               (gathers + 1) * (n - 1) * g->net.link_latency_s;
    return fmax(0, s - t_compute);
}

/* The logits of one micro-batch (forward, delta, weight gradient) at
 * 16 bits, for the positions that are predicted. */
static double logits_s(const struct gpuhw_desc *g, const struct wl_desc *w,
                       const struct gpu_layout *l, double T)
{
    double rate = g->chip.peak_flops[GPUHW_BF16] * g->fit.matmul_eff;
    double Tp = T * w->predictions / w->seq_len;
    return gemm_s(g, Tp, w->vocab / l->tp, w->hidden, rate, 0);
}

/* One micro-batch on the slowest stage (the last: its layers and the
 * logits; with the uneven split a middle one if that is slower), and the
 * activations sent to and from its neighbours; split into parts. */
/* One layer's compute and the logits of a micro-batch of T tokens, from
 * the memo when its key matches. */
static void compute_parts(const struct gpuhw_desc *g, const struct wl_desc *w,
                          const struct gpu_layout *l, double T, struct gpu_memo *memo,
                          double t[GPU_NPARTS], double *logits)
{
    struct gpu_memo_entry key = {.valid = 1,
                                 .tp = l->tp,
                                 .T = T,
                                 .whole = gpu_recomputed_share(w, l),
                                 .precision = (int)l->precision,
                                 .seq_parallel = l->seq_parallel,
                                 .flash_attention = l->flash_attention,
                                 .selective = l->recompute == GPU_RC_SELECTIVE};
    /* a hash of the key's figures (whole counts and a share in [0, 1]) */
    double hv = key.tp * 131 + key.T * 7 + key.whole * 1021 + key.precision * 3 +
                key.selective * 5 + key.seq_parallel * 11 + key.flash_attention * 13;
    unsigned long long h = hv < GPU_MEMO_HASH_MAX ? (unsigned long long)hv : 0;
    h = (h ^ (h >> 29)) * 0x9E3779B97F4A7C15ULL; /* Fibonacci hashing: mix */
    h >>= 40;
    struct gpu_memo_entry *slot = memo ? &memo->e[h % GPU_MEMO_ENTRIES] : NULL;
    if (slot) {
        const struct gpu_memo_entry *e = slot;
        if (e->valid && e->tp == key.tp && e->T == key.T && e->whole == key.whole &&
            e->precision == key.precision && e->seq_parallel == key.seq_parallel &&
            e->flash_attention == key.flash_attention && e->selective == key.selective) {
            for (int j = 0; j < GPU_NPARTS; j++)
                t[j] = e->t[j];
            *logits = e->logits_s;
            return;
        }
    }
    layer_compute(g, w, l, T, t);
    *logits = logits_s(g, w, l, T);
    if (!memo)
        return;
    key.logits_s = *logits;
    for (int j = 0; j < GPU_NPARTS; j++)
        key.t[j] = t[j];
    *slot = key;
}

static double micro_batch(const struct gpuhw_desc *g, const struct wl_desc *w,
                          const struct gpu_layout *l, struct gpu_memo *memo,
                          double part[GPU_NPARTS])
{
    double T = l->mbs * w->seq_len / l->cp, layers = gpu_stage_layers(w, l);
    double t[GPU_NPARTS] = {0}, logits;
    compute_parts(g, w, l, T, memo, t, &logits);
    double layer_s = t[GPU_MATMUL] + t[GPU_ELEMENTWISE] + t[GPU_OVERHEAD];
    /* with the uneven split the last stage has a layer fewer: the slower of
     * it (with the logits) and a middle stage (without) sets the pace */
    int last = !gpu_uneven_split(w, l) || logits > layer_s;
    if (!last)
        logits = 0;
    else if (gpu_uneven_split(w, l))
        layers -= 1;
    part[GPU_MATMUL] = layers * t[GPU_MATMUL] + logits;
    part[GPU_ELEMENTWISE] = layers * t[GPU_ELEMENTWISE];
    part[GPU_OVERHEAD] = layers * t[GPU_OVERHEAD];
    /* attention's share of the matmul time hides the context ring */
    part[GPU_TP_COMM] = layers * layer_comm(g, w, l, T, t[GPU_MATMUL]);
    part[GPU_DP_COMM] = layers * fsdp_comm(g, w, l, layer_s);
    if (l->pp > 1) {
        /* each tensor-parallel rank sends its 1/tp slice (sequence
         * parallelism, or the scatter/gather of Narayanan et al. sec. 4.1) */
        double bytes = T * w->hidden * GPU_BYTES_16 / l->tp;
        double bw = gpu_group_Bps(g, 2, l->tp * l->cp * l->dp);
        part[GPU_PP_COMM] = 2 * l->vp * (bytes / bw + g->net.link_latency_s);
    }
    double s = 0;
    for (int i = 0; i < GPU_NPARTS; i++)
        s += part[i];
    return s;
}

/* The gradient reduction over dp that the backward pass does not hide
 * (with FSDP it ran with each micro-batch), and the optimizer step on the
 * local parameters (their shard). */
static void step_tail(const struct gpuhw_desc *g, const struct wl_desc *w,
                      const struct gpu_layout *l, double p_local, double micro_s,
                      double part[GPU_NPARTS])
{
    if (!l->fsdp) {
        double bw = gpu_group_Bps(g, l->dp, l->tp * l->cp);
        double dp_s =
            gpu_ring_allreduce(p_local * w->grad_bytes, l->dp, bw, g->net.link_latency_s);
        part[GPU_DP_COMM] += l->overlap_grad ? fmax(0, dp_s - micro_s) : dp_s;
    }
    double updated = p_local / (l->shard_optimizer || l->fsdp ? l->dp : 1);
    part[GPU_OPTIMIZER] = g->fit.optimizer_traffic * updated / g->chip.hbm_Bps;
    /* the fixed cost of a step that spans nodes (gpu.h); none inside one */
    double gpus = l->tp * l->pp * l->dp * l->cp;
    part[GPU_OVERHEAD] += gpus > g->net.gpus_per_node ? g->fit.step_overhead_s : 0;
}

void gpu_eval(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
              struct gpu_result *r)
{
    gpu_eval_memo(g, w, l, NULL, NULL, r);
}

void gpu_eval_memo(const struct gpuhw_desc *g, const struct wl_desc *w,
                   const struct gpu_layout *l, struct gpu_memo *memo,
                   const struct gpu_result *mem, struct gpu_result *r)
{
    double micro[GPU_NPARTS] = {0};
    r->micro_s = micro_batch(g, w, l, memo, micro);
    r->micro_batches = w->batch / (l->dp * l->mbs);
    double m = r->micro_batches;
    for (int i = 0; i < GPU_NPARTS; i++)
        r->part_s[i] = m * micro[i];
    r->part_s[GPU_BUBBLE] = (l->pp - 1) / l->vp * r->micro_s;
    r->bubble = (l->pp - 1) / (m * l->vp);
    step_tail(g, w, l, mem ? mem->stage_params : gpu_stage_params(w, l), r->micro_s, r->part_s);
    r->step_s = 0;
    r->bottleneck = GPU_MATMUL;
    for (int i = 0; i < GPU_NPARTS; i++) {
        r->step_s += r->part_s[i];
        if (r->part_s[i] > r->part_s[r->bottleneck])
            r->bottleneck = (enum gpu_part)i;
    }
    double tokens = w->batch * w->seq_len, gpus = l->tp * l->pp * l->dp * l->cp;
    r->tokens_per_s = tokens / r->step_s;
    r->model_flops = tfm_train_flops_per_token(w, 0) * tokens;
    r->mfu = r->model_flops / (r->step_s * gpus * g->chip.peak_flops[l->precision]);
    if (!mem) {
        gpu_memory(g, w, l, r);
        return;
    }
    r->mem_weights = mem->mem_weights;
    r->mem_grads = mem->mem_grads;
    r->mem_optimizer = mem->mem_optimizer;
    r->mem_act = mem->mem_act;
    r->mem_total = mem->mem_total;
    r->mem_capacity = mem->mem_capacity;
    r->stage_params = mem->stage_params;
    r->fits = mem->fits;
}
