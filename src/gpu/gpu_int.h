/* gpu_int.h - what the files of the GPU model share among themselves. */
#ifndef CP_GPU_INT_H
#define CP_GPU_INT_H

#include "gpu.h"

/* Bytes of a 16-bit value: weights, activations and the tensor- and
 * pipeline-parallel traffic are 16-bit whatever the matmul precision. */
#define GPU_BYTES_16 2.0

/* Share of a stage's layers whose forward pass is recomputed whole: 1
 * with full recompute, recompute_layers / (L / pp) with block, else 0. */
double gpu_recomputed_share(const struct wl_desc *w, const struct gpu_layout *l);

/* Tile and wave quantisation of a matmul whose output is rows x cols in
 * tiles of tm x tn over sms SMs: the useful share of the tiles' work (the
 * output over the tiles that cover it) times the share of the SMs busy
 * over the waves (tiles / (waves x sms)). */
double gpu_tile_quant(double rows, double cols, double tm, double tn, double sms);

/* The quantisation of such a matmul on g: the better of its two tile
 * shapes (tile_rows x tile_columns and small_tile_rows x
 * small_tile_columns: the library picks the tile per shape); 1 when the
 * description gives no tile or SM count. */
double gpu_gemm_quant(const struct gpuhw_desc *g, double rows, double cols);

/* Seconds of the block's four linear layers (QKV, projection, FFN in and
 * out) for T local tokens, forward, delta and weight gradient, plus
 * recompute (0 to 1) forward passes again, each at the peak of the
 * layout's precision x its efficiency x its quantisation. */
double gpu_linear_s(const struct gpuhw_desc *g, const struct wl_desc *w,
                    const struct gpu_layout *l, double T, double recompute);

/* Achieved bandwidth per GPU, bytes/s, of a collective over n GPUs stride
 * apart (ranks numbered tp fastest, then cp, dp, pp, as in Megatron):
 * NVLink when the group lies in one NVLink domain; else the scale-out
 * network, where the group's ranks in one node pool their NICs (a
 * hierarchical ring crosses each node once), up to NVLink's own rate;
 * times comm_efficiency. */
double gpu_group_Bps(const struct gpuhw_desc *g, double n, double stride);

/* Time of a ring all-reduce of bytes over n GPUs at Bps each: 2 (n-1)/n x
 * bytes / Bps, plus 2 (n-1) steps of latency_s; 0 for one GPU. */
double gpu_ring_allreduce(double bytes, double n, double Bps, double latency_s);

/* Whether pp splits the layers unevenly: pp does not divide L.  Megatron
 * then counts the embedding and the loss as a layer each
 * (--account-for-embedding-in-pipeline-split and
 * --account-for-loss-in-pipeline-split: Llama 3.1 405B's 126 layers on 8
 * or 16 stages), or sets the first and last stages' layers
 * (--decoder-first-pipeline-num-layers, --decoder-last-pipeline-num-layers):
 * either way the L + 2 are spread as evenly as they go. */
int gpu_uneven_split(const struct wl_desc *w, const struct gpu_layout *l);

/* Transformer layers of the busiest stage: L / pp, or with the uneven
 * split ceil((L + 2) / pp) (a middle stage; the first and the last hold
 * one fewer, with the embedding and the logits). */
double gpu_stage_layers(const struct wl_desc *w, const struct gpu_layout *l);

/* Parameters on one GPU of the stage that holds the most: its L / pp
 * blocks and the embedding (first stage) or the logits layer (last stage;
 * a copy of the embedding when tied), both with pp = 1; split over tp. */
double gpu_stage_params(const struct wl_desc *w, const struct gpu_layout *l);

/* The last layer's compute a search evaluated, kept so the layouts that
 * differ only in pp, dp, vp, FSDP or the recompute of other layers need
 * not recompute it: valid for the same g and w, tp, tokens per
 * micro-batch, precision, switches and recompute share. */
struct gpu_memo_entry {
    int valid;
    double tp, T, whole;
    int precision, seq_parallel, flash_attention, selective;
    double t[GPU_NPARTS]; /* one layer: matmul, elementwise, overhead */
    double logits_s;      /* the logits of one micro-batch               */
};
/* Entries kept, a power of two: direct-mapped by the key's hash, enough
 * for the tensor widths, micro-batch sizes and recompute settings one
 * search visits again under each pipeline depth. */
#define GPU_MEMO_ENTRIES 256
struct gpu_memo {
    struct gpu_memo_entry e[GPU_MEMO_ENTRIES];
    int params_valid; /* the workload's parameter counts below are set */
    double block_params, embed_params, head_params;
};

/* gpu_memory with the memo of gpu_eval_memo (NULL: none). */
void gpu_memory_memo(const struct gpuhw_desc *g, const struct wl_desc *w,
                     const struct gpu_layout *l, struct gpu_memo *memo, struct gpu_result *r);

/* Keys hashed above this are all put in the first entry (no overflow). */
#define GPU_MEMO_HASH_MAX 1e15

/* gpu_eval with a memo (NULL: none) the caller keeps for one g and w, and
 * the layout's memory already computed by gpu_memory (NULL: computed
 * here). */
void gpu_eval_memo(const struct gpuhw_desc *g, const struct wl_desc *w,
                   const struct gpu_layout *l, struct gpu_memo *memo,
                   const struct gpu_result *mem, struct gpu_result *r);

#endif
