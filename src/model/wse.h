/* wse.h - the wafer: compute time at an achieved utilisation, the SRAM the
 * activations of a local batch need, and the largest matmul dimension.
 *
 * Utilisation of a pass that processes t tokens on one system is
 *   u(t) = utilization x t / (t + util_half_tokens),
 * so a large batch reaches the file's utilization and one of
 * util_half_tokens tokens gets half of it. */
#ifndef CP_WSE_H
#define CP_WSE_H

#include "../spec/hw.h"
#include "../spec/wl.h"

double wse_util(const struct wse_spec *w, double tokens);

/* Seconds to run flops FLOP in a pass of tokens tokens. */
double wse_compute_time(const struct wse_spec *w, double flops, double tokens);

/* SRAM bytes one sequence needs for the backward pass: the activations kept
 * for every block (only block inputs with recompute, plus one block's full
 * working set while it is recomputed) and the logits. */
double wse_sram_per_seq(const struct wl_desc *wl);

/* Sequences per system that fit in SRAM beside buffer_bytes of stream
 * buffers (may be 0: not even one sequence fits). */
double wse_max_seqs(const struct wse_spec *w, const struct wl_desc *wl, double buffer_bytes);

/* Largest matmul dimension of the workload: hidden, FFN, vocabulary. */
double wse_largest_matmul(const struct wl_desc *wl);

#endif
