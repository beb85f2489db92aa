/* wse.h - the wafer: compute time at the achieved utilisation (hw_util in
 * desc/hw.h: u(t) = utilization x t / (t + util_half_tokens), so a large
 * batch reaches the file's utilization and one of util_half_tokens tokens
 * gets half of it), how many sequences fit in SRAM, and the largest matmul
 * dimension. */
#ifndef CP_WSE_H
#define CP_WSE_H

#include "../desc/hw.h"
#include "../desc/wl.h"
#include "minmax.h"

/* Seconds to run flops FLOP in a pass of tokens tokens. */
double wse_compute_time(const struct wse_spec *w, double flops, double tokens);

/* The same in two steps, for callers that run several passes of one size:
 * the rate (FLOP/s) of a pass of tokens tokens, then the seconds of flops
 * FLOP at that rate. */
static inline double wse_rate(const struct wse_spec *w, double tokens)
{
    return w->peak_flops * hw_util(w, tokens);
}
static inline double wse_time_at(double flops, double rate)
{
    return flops <= 0 ? 0 : flops / rate;
}

/* Sequences per system that fit in SRAM beside buffer_bytes of stream
 * buffers (may be 0: not even one sequence fits).  Per sequence:
 * tfm_sram_per_seq(). */
double wse_max_seqs(const struct wse_spec *w, const struct wl_desc *wl, double buffer_bytes);

/* Largest matmul dimension of the workload: hidden, FFN, vocabulary. */
static inline double wse_largest_matmul(const struct wl_desc *wl)
{
    return mm_max(wl->hidden, mm_max(wl->ffn, wl->vocab));
}

#endif
