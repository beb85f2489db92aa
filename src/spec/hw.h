/* hw.h - hardware descriptions: one wafer-scale system generation with its
 * MemoryX and SwarmX, loaded from an INI file in hw/ (format: cerebras-plan(5)).
 *
 * All fields are SI base units: FLOP/s, bytes, bytes/s, seconds, watts;
 * counts and fractions are plain numbers. */
#ifndef CP_HW_H
#define CP_HW_H

#include "desc.h"

/* The wafer-scale engine and the system around it (one CS-2 or CS-3). */
struct wse_spec {
    char name[DESC_TEXT_MAX];
    double peak_flops;     /* dense 16-bit peak, FLOP/s                    */
    double sram_bytes;     /* on-wafer SRAM                               */
    double io_bw_Bps;      /* system I/O, each direction, bytes/s         */
    double utilization;    /* achieved fraction of peak on large matmuls  */
    double power_W;        /* one system, wall power                      */
    double max_matmul_dim; /* largest matmul side held without blocking   */
};

/* MemoryX: off-wafer store of weights and optimizer state, runs the update. */
struct mx_spec {
    double capacity_bytes;  /* default tier                                */
    double dram_bytes;      /* DRAM part of any tier; the rest is flash   */
    double bw_Bps;          /* egress (and ingress) bandwidth, bytes/s     */
    double bytes_per_param; /* vendor's sizing: bytes stored per parameter */
    double update_flops;    /* optimizer update throughput, FLOP/s         */
    struct desc_list tiers; /* published capacity tiers, bytes             */
};

/* SwarmX: tree of broadcast (weights) / reduce (gradients) nodes. */
struct swx_spec {
    double fanout;        /* children per node                           */
    double link_bw_Bps;   /* per link, each direction, bytes/s           */
    double hop_latency_s; /* per tree level                              */
};

struct hw_desc {
    struct wse_spec wse;
    struct mx_spec mx;
    struct swx_spec swx;
};

extern const struct desc_schema hw_schema;

/* Parse a hardware description from text named origin, apply the nsets
 * "section.key=value" overrides, and check cross-key constraints.
 * Returns CP_OK or CP_EINPUT with err filled. */
cp_status hw_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                  struct hw_desc *hw, struct desc_src *src, struct cp_error *err);

#endif
