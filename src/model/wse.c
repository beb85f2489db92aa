/* wse.c - wafer compute, SRAM and matmul size. */
#include "wse.h"

#include <math.h>

#include "../desc/tfm.h"
#include "minmax.h"

double wse_compute_time(const struct wse_spec *w, double flops, double tokens)
{
    return wse_time_at(flops, wse_rate(w, tokens));
}

double wse_max_seqs(const struct wse_spec *w, const struct wl_desc *wl, double buffer_bytes)
{
    double room = w->sram_bytes - buffer_bytes;
    return room > 0 ? floor(room / tfm_sram_per_seq(wl)) : 0;
}
