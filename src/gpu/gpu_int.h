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

/* Achieved fraction of peak of a matmul whose per-GPU slice is width wide:
 * matmul_efficiency x width / (width + half_width). */
double gpu_matmul_eff(const struct gpu_fit *f, double width);

/* Time of a ring all-reduce of bytes over n GPUs at Bps each: 2 (n-1)/n x
 * bytes / Bps, plus 2 (n-1) steps of latency_s; 0 for one GPU. */
double gpu_ring_allreduce(double bytes, double n, double Bps, double latency_s);

/* Whether pp splits the layers unevenly: pp divides not L but L + 2, as
 * Megatron splits them when the embedding and the loss count as a layer
 * each (--account-for-embedding-in-pipeline-split and
 * --account-for-loss-in-pipeline-split; Llama 3.1 405B's 126 layers on 8 or
 * 16 stages). */
int gpu_uneven_split(const struct wl_desc *w, const struct gpu_layout *l);

/* Transformer layers of the busiest stage: L / pp, or (L + 2) / pp with
 * the uneven split (the middle stages; the first and the last hold one
 * fewer, with the embedding and the logits). */
double gpu_stage_layers(const struct wl_desc *w, const struct gpu_layout *l);

/* Parameters on one GPU of the stage that holds the most: its L / pp
 * blocks and the embedding (first stage) or the logits layer (last stage;
 * a copy of the embedding when tied), both with pp = 1; split over tp. */
double gpu_stage_params(const struct wl_desc *w, const struct gpu_layout *l);

#endif
