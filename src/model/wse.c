/* wse.c - wafer compute, SRAM and matmul size. */
#include "wse.h"

#include <math.h>

#include "../spec/tfm.h"

double wse_util(const struct wse_spec *w, double tokens)
{
    return w->utilization * tokens / (tokens + w->util_half_tokens);
}

double wse_compute_time(const struct wse_spec *w, double flops, double tokens)
{
    if (flops <= 0)
        return 0;
    return flops / (w->peak_flops * wse_util(w, tokens));
}

double wse_sram_per_seq(const struct wl_desc *wl)
{
    double kept = wl->layers * tfm_act_bytes_per_seq_block(wl, wl->recompute);
    double working = wl->recompute ? tfm_act_bytes_per_seq_block(wl, 0) : 0;
    double logits = wl->seq_len * wl->vocab * wl->act_bytes;
    return kept + working + logits;
}

double wse_max_seqs(const struct wse_spec *w, const struct wl_desc *wl, double buffer_bytes)
{
    double room = w->sram_bytes - buffer_bytes;
    return room > 0 ? floor(room / wse_sram_per_seq(wl)) : 0;
}

double wse_largest_matmul(const struct wl_desc *wl)
{
    return fmax(wl->hidden, fmax(wl->ffn, wl->vocab));
}
