/* gpu.h - the GPU training model: one training step of a transformer
 * (struct wl_desc) on a GPU cluster (struct gpuhw_desc) under a layout of
 * tensor (tp), pipeline (pp, 1F1B with vp interleaved chunks), data (dp)
 * and context (cp) parallelism.  Pure arithmetic, SI units, no allocation,
 * no I/O; shares only the descriptions and the transformer arithmetic
 * (tfm.h) with the weight-streaming model.
 *
 * The model, stated once (man cerebras-plan(1), GPU MODEL, in prose).  Per
 * GPU and per micro-batch of b sequences of s tokens (T = b s / cp tokens
 * on a GPU), each layer of the busiest stage costs
 *   linear       for QKV, projection, FFN in and out (N outputs, K inputs
 *                per token, split by tp): forward (T x N output), delta
 *                (T x K) and weight gradient (K x N), 2 T N K FLOP each
 *                (the forward again when recomputed whole), at
 *                peak[precision] x matmul_efficiency (x lowp_efficiency at
 *                FP8, x fp4_efficiency at FP4) x q(output), q the tile and
 *                wave quantisation over sm_count SMs (gpu_gemm_quant);
 *   attention    the score and value FLOP of tfm.h (+ 1 forward with
 *                selective recompute and in each layer recomputed whole)
 *                at peak[bf16] x attention_efficiency: attention and the
 *                logits run at 16 bits whatever the precision;
 *   elementwise  elementwise_bytes x T x hidden (/ tp with sequence
 *                parallelism) x passes / 3 / HBM bandwidth, plus without
 *                flash attention (score_bytes [+ score_dropout_bytes]) per
 *                stored score, T s / cp x heads / tp of them;
 *   kernels      kernels_per_layer x kernel_overhead (x passes / 3);
 *   tensor comm  4 collectives (6 in a layer recomputed whole) of T
 *                hidden 16-bit values, ring cost 2 (tp-1)/tp x bytes /
 *                (group rate x comm_efficiency) + 2 (tp-1) latencies each,
 *                of which tp_overlap is hidden when overlap is on;
 *   context comm the K and V blocks passed round the cp ring, hidden
 *                behind the attention matmuls where they suffice;
 *   FSDP         the layer's weights gathered twice (three times when
 *                recomputed) and its gradients reduce-scattered over dp,
 *                exposed beyond the layer's compute.
 * The last stage adds the logits (three matmuls of T x vocab / tp x hidden
 * at 16 bits, quantised as above), and each micro-batch sends its activations (1/tp of them per GPU)
 * between stages, vp times with interleaving, over NVLink or the scale-out
 * network.  With m = global batch / (dp b) micro-batches, the pipeline
 * takes
 *   (m + (pp - 1) / vp) x t_micro      (Narayanan et al. 2021, sec. 2.2)
 * so the bubble is (pp-1)/(m vp) of the work.  Then the gradients are
 * reduced over dp (all-reduce, or reduce-scatter and all-gather of the
 * weights with a sharded optimizer: the same bytes), hidden behind one
 * micro-batch when overlap is on.  A group inside the NVLink domain runs at
 * NVLink's rate; one spread over nodes at the scale-out rate times the
 * group's GPUs in one node (they pool their NICs), at most NVLink's.  The
 * optimizer moves optimizer_bytes per local parameter (its shard when
 * sharded or with FSDP) through HBM; a fixed step_overhead is added
 * when the job spans more than one node (the step's synchronisation
 * across nodes: the corpus's multi-node runs carry it, a one-node trainer
 * does not: llm.c's GPT-2 124M on 8 H100).
 *
 * Memory per GPU (Korthikanti et al. 2022): weights and gradients at the
 * workload's weight_bytes and grad_bytes, master weights and Adam moments
 * (master_bytes + optimizer_bytes, divided by dp when sharded) per local
 * parameter; activations of one micro-batch for all L layers on the first
 * stage (1F1B keeps pp micro-batches of L / pp layers in flight), times
 * 1 + (pp-1)/(pp vp) only with interleaving (vp > 1); with FSDP weights,
 * gradients and optimizer state over dp plus two layers' weights gathered
 * and one layer's gradients; weights at 1 byte with fp8_params under FP8: per layer s b hidden (10 + 24 / tp
 * + 5 heads s / (hidden tp)) bytes / cp with the workload's dropouts on,
 * the 10 split by tp too with sequence parallelism, 2 of them the hidden
 * dropout masks (none without dropout), the 5 a s / h attention scores 2
 * without attention dropout and dropped with flash attention, 7 of the 24
 * saved at FP8 and FP4 (the linear layers' inputs kept in 8 bits);
 * selective recompute drops the scores; full recompute
 * keeps each layer's 16-bit input and one layer's working set; block
 * recompute keeps the 16-bit inputs of its k layers, the whole
 * activations of the others and one layer's working set; the last stage
 * adds its 32-bit logits. */
#ifndef CP_GPU_H
#define CP_GPU_H

#include "../base/status.h"
#include "../desc/gpuhw.h"
#include "../desc/wl.h"
#include "../tm/cost.h"
#include "../tm/gp.h"

/* Activation recompute: none; selective (the attention scores); full (every
 * layer's forward pass again); block: the first recompute_layers layers of
 * each stage recomputed whole and the others not at all (NeMo's
 * activations_checkpoint_method 'block' with activations_checkpoint_num_layers,
 * Megatron-Core's recompute_method 'block' with recompute_num_layers; with
 * interleaving those count layers per model chunk, so a stage's count is vp
 * times theirs).  Block with 0 layers is none, with all of a stage's
 * layers full. */
enum gpu_recompute { GPU_RC_NONE, GPU_RC_SELECTIVE, GPU_RC_FULL, GPU_RC_BLOCK, GPU_NRECOMPUTES };
extern const char *const gpu_recompute_name[GPU_NRECOMPUTES]; /* none selective full block */

/* One way of running the job. */
struct gpu_layout {
    double tp, pp, dp, cp; /* ways of each parallelism; gpus = their product */
    double mbs;            /* micro-batch, sequences                         */
    double vp;             /* interleaved chunks per GPU (1: plain 1F1B)     */
    enum gpuhw_prec precision;
    enum gpu_recompute recompute;
    double recompute_layers; /* with GPU_RC_BLOCK: layers of a stage (of its
                                L / pp) recomputed whole, 0 to L / pp      */
    int shard_optimizer; /* optimizer state split over dp (ZeRO-1)            */
    int fsdp;            /* weights, gradients and optimizer state split over
                            dp, each layer's weights gathered before use and
                            its gradients reduce-scattered (FSDP, ZeRO-3)   */
    int fp8_params;      /* weights kept in 8 bits only (with FP8 matmuls)   */
    int seq_parallel;    /* norms and dropout split over tp (Korthikanti)     */
    int flash_attention; /* attention scores never stored                     */
    int overlap_grad;    /* gradient reduce overlapped with the backward pass */
    int overlap_tp;      /* tensor-parallel communication overlapped          */
};

/* The recompute setting of l in words for a sentence: "no recompute",
 * "selective recompute", "full recompute", "block recompute of 4 layers a
 * stage"; into buf (n bytes), returned. */
const char *gpu_recompute_text(const struct gpu_layout *l, char *buf, size_t n);

/* A layout with the modern defaults: sharded optimizer, sequence
 * parallelism, flash attention, both overlaps on, vp 1, cp 1, no FSDP,
 * 16-bit weights, bf16, no recompute. */
struct gpu_layout gpu_layout_default(double tp, double pp, double dp, double mbs);

/* The software switches of workload w into l: sequence_parallel,
 * flash_attention, tp_overlap, distributed_optimizer and fp8_params (the
 * model keys of cerebras-plan(5)). */
void gpu_layout_switches(struct gpu_layout *l, const struct wl_desc *w);

enum gpu_part {
    GPU_MATMUL,      /* matmuls of the blocks and the logits              */
    GPU_ELEMENTWISE, /* memory-bound kernels                              */
    GPU_TP_COMM,     /* exposed tensor- and context-parallel traffic      */
    GPU_PP_COMM,     /* activations between pipeline stages               */
    GPU_BUBBLE,      /* pipeline fill and drain                           */
    GPU_DP_COMM,     /* exposed gradient reduction                        */
    GPU_OPTIMIZER,   /* the optimizer step                                */
    GPU_OVERHEAD,    /* fixed per step                                    */
    GPU_NPARTS
};
extern const char *const gpu_part_name[GPU_NPARTS];

struct gpu_result {
    double step_s;             /* one optimizer step                         */
    double tokens_per_s;       /* training tokens per second, whole cluster  */
    double part_s[GPU_NPARTS]; /* step_s split by what the time went to     */
    enum gpu_part bottleneck;  /* the largest part                         */
    double micro_s;            /* one micro-batch on the slowest stage       */
    double micro_batches;      /* m, per pipeline per step                   */
    double bubble;             /* (pp-1)/(m vp): idle share of the pipeline  */
    double model_flops;        /* FLOP per step without recompute (tfm.h)    */
    double mfu;                /* model_flops / (step x gpus x peak[precision]) */
    /* Memory per GPU, bytes. */
    double mem_weights, mem_grads, mem_optimizer, mem_act, mem_total;
    double mem_capacity; /* HBM x hbm_usable                             */
    double stage_params; /* parameters on one GPU of the fullest stage    */
    int fits;            /* mem_total <= mem_capacity                    */
};

/* Whether the layout can run the job on this system: every figure whole
 * and at least 1, tp dividing heads, kv heads (or kv heads dividing tp)
 * and the NVLink domain, pp dividing layers and vp dividing layers / pp
 * (vp > 1 only with pp > 1), cp dividing the sequence, mbs x dp dividing
 * the global batch, the precision one the GPU has, block recompute of a
 * whole number of layers from 0 to L / pp.  CP_OK, or CP_EINPUT
 * with a message naming the figure. */
cp_status gpu_check(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
                    struct cp_error *err);

/* Evaluate a layout gpu_check() accepted: time and memory of one step. */
void gpu_eval(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
              struct gpu_result *r);

/* Memory per GPU only (the mem_* fields, mem_capacity and fits of r). */
void gpu_memory(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
                struct gpu_result *r);

/* A training run to its end: the figures every command prints beyond the
 * step, with what failures take and the cost of its bill of materials
 * (gpu_train.c). */
enum { GPU_NBOM = 2 };
struct gpu_train {
    double steps;     /* whole steps                                     */
    double time_s;    /* the expected wall time under failures (gp.h), or
                         time_ff_s when the job never finishes            */
    double time_ff_s; /* steps x step_s                                  */
    double nodes;     /* whole nodes the GPUs fill                       */
    double power_W;   /* nodes x system.node_power (the vendor's maximum) */
    double energy_J;  /* power x time                                    */
    double gpu_hours; /* every GPU of those nodes for the time           */
    double cost;      /* costs.total; < 0 when nothing is priced          */
    double ckpt_bytes; /* a checkpoint: weights and optimizer state      */
    struct gp_result gp;
    size_t nbom;       /* GPU_NBOM                                        */
    struct bom_line bom[GPU_NBOM]; /* nodes, scale-out switches           */
    struct cost_result costs;      /* --price per GPU-hour: the rental    */
};

/* The tokens a run of workload w on g needs: tokens (at the reference
 * batch of ref_tokens a step) times the batch penalty of a global batch
 * of batch_tokens a step when penalty is set (desc/batch.h, g's [batch]
 * keys), else tokens; *critical the critical batch, tokens. */
double gpu_train_tokens(const struct gpuhw_desc *g, const struct wl_desc *w, double tokens,
                        double batch_tokens, double ref_tokens, int penalty, double *critical);

/* Whole steps of batch sequences of seq_len tokens that train tokens
 * tokens (as compare and plan count them: cmp.h). */
double gpu_train_steps(double tokens, double batch, double seq_len);

/* The run of steps steps of r's step on gpus GPUs of g at price per
 * GPU-hour (negative or NAN: none) into t; a checkpoint is state_bytes
 * (gpu_state_bytes), written by every node (gp.h, cost.h). */
void gpu_train_eval(const struct gpuhw_desc *g, double gpus, double steps, double price,
                    double state_bytes, const struct gpu_result *r, struct gpu_train *t);

/* The bytes of a checkpoint of w: its weights, master copy and optimizer
 * moments, once (tfm_params x (weight + master + optimizer bytes)). */
double gpu_state_bytes(const struct wl_desc *w);

/* Scale-out switches of k ports joining n GPUs, one port each, in a
 * non-blocking fat tree: one when n <= k, else (2L - 1) n / k, rounded up,
 * for the fewest levels L with 2 (k/2)^L >= n; 0 when k < 4 (a tree of
 * 2 or 3 ports never grows). */
double gpu_switches(double n, double k);

/* The finiteness gate (base/finite.h) on the figures of one layout's
 * step r and its run t (NULL: the step alone): CP_OK when every one is a
 * finite number, else CP_EINPUT naming the first that is not and the keys
 * or flags it comes from; at is a phrase such as " at 8 GPUs", or "". */
cp_status gpu_figures_check(const struct gpu_result *r, const struct gpu_train *t, const char *at,
                            struct cp_error *err);

/* The gate before a search, as train_check is for weight streaming:
 * inputs can each pass their range checks and still overflow together (a
 * FLOP/s near zero, a latency of 1e308 s, a price of 1e306).  Evaluates
 * the job w (at its batch) on gpus GPUs, on 1 and on max_gpus (the most a
 * scan may reach), in each precision g has, each under layouts that put
 * every kind of traffic over all the GPUs (dp, FSDP, tp, pp, cp), with no
 * and with full recompute, and runs each for the whole steps of tokens at
 * price (negative or NAN: none) through gpu_figures_check.  The probe
 * layouts need not divide the job (gpu_check): they bound what the
 * search can reach.  CP_OK, or CP_EINPUT naming the figure, the keys it
 * comes from and, at gpus, the count. */
cp_status gpu_range_check(const struct gpuhw_desc *g, const struct wl_desc *w, double gpus,
                          double max_gpus, double tokens, double price, struct cp_error *err);

#endif
