/* hw.h - hardware descriptions: one wafer-scale system generation with its
 * MemoryX and SwarmX, loaded from an INI file in hw/ (format: cerebras-plan(5)).
 *
 * All fields are SI base units: FLOP/s, bytes, bytes/s, seconds, watts;
 * counts and fractions are plain numbers. */
#ifndef CP_HW_H
#define CP_HW_H

/* Largest cluster any command evaluates (max_systems may not exceed it):
 * far past any built system, small enough that every derived count stays
 * exact in a double and a scan of every size stays interactive. */
#define HW_MAX_SYSTEMS 1e6
/* Largest unstructured sparsity any command evaluates (--sparsity and the
 * calibration rows take 0..0.99). */
#define HW_MAX_SPARSITY 0.99
/* Most servers of one kind (MemoryX servers, or activation servers per
 * system) any command evaluates: far past any built cluster. */
#define HW_MAX_SERVERS 1e6

#include "batch.h"
#include "desc.h"
#include "site.h"

/* The wafer-scale engine and the system around it (one CS-2 or CS-3). */
struct wse_spec {
    char name[DESC_TEXT_MAX];
    int kind;                /* enum gpuhw_kind: weight-streaming here       */
    double peak_flops;       /* dense 16-bit peak, FLOP/s                    */
    double sram_bytes;       /* on-wafer SRAM                               */
    double io_bw_Bps;        /* system I/O, each direction, bytes/s         */
    double utilization;      /* achieved fraction of peak on large matmuls  */
    double power_W;          /* one system, wall power                      */
    double max_matmul_dim;   /* largest matmul side held without blocking   */
    double util_half_tokens; /* tokens per system at which utilisation is half */
    double max_systems;      /* largest cluster of this generation           */
    double step_overhead_s;  /* fixed time per training step, not overlapped  */
    double jitter;           /* relative std. deviation of a system's compute */
    double model_error;      /* half-width of the model's own relative error on
                                the step time; only --uncertainty draws it   */
};

/* The published figures of the chip that the vendor's comparisons with
 * GPUs quote ([chip] section, every key optional, 0 when not given): the
 * model does not use them, so they are not parameters (param.h), and only
 * `claims` reads them. */
#define HW_CHIP_SECTION "chip"
struct chip_figs {
    double cores;        /* compute cores on the wafer                    */
    double mem_bw_Bps;   /* SRAM (memory) bandwidth on the wafer, bytes/s */
    double fabric_Bps;   /* on-wafer fabric bandwidth, bytes/s            */
    double die_area_mm2; /* silicon area, square millimetres              */
};

/* MemoryX: off-wafer store of weights and optimizer state, runs the
 * update.  A cluster has some number of identical servers; the state is
 * sharded evenly across them, so capacity, bandwidth out and in, and
 * update throughput all scale with the count. */
struct mx_spec {
    double server_dram_bytes;     /* DRAM per server                             */
    double server_flash_bytes;    /* flash per server (0: none)                  */
    double server_net_Bps;        /* network per server, each direction, bytes/s */
    double server_mem_bw_Bps;     /* DRAM bandwidth per server for the update    */
    double server_flash_bw_Bps;   /* flash bandwidth per server for the update   */
    double server_update_flops;   /* optimizer update throughput per server      */
    double server_power_W;        /* one server, wall power                      */
    double bytes_per_param;       /* vendor's sizing: bytes stored per parameter */
    double update_flop_per_param; /* optimizer FLOP per parameter update         */
    double boundary_overlap;      /* fraction of the iteration boundary hidden  */
    struct desc_list tiers;       /* published capacity tiers, bytes             */
};

/* Activation servers: each system has its own (the published clusters:
 * one per system), on the system's data path; they hold the block inputs a
 * system offloads in the forward pass and returns in the backward pass. */
struct act_spec {
    double servers_per_system; /* the cluster's count, unless --act-servers */
    double server_bytes;   /* memory per server                            */
    double server_net_Bps; /* network per server, each direction, bytes/s  */
    double server_power_W; /* one server, wall power                       */
};

/* SwarmX: tree of broadcast (weights) / reduce (gradients) nodes. */
struct swx_spec {
    double fanout;        /* children per node                           */
    double lanes;         /* parallel trees, each 1/lanes of every stream:
                             servers per node of the tree (count only)    */
    double link_bw_Bps;   /* per link, each direction, bytes/s           */
    double hop_latency_s; /* per tree level                              */
    double chunk_bytes;   /* unit a node forwards (store and forward)    */
    double node_power_W;  /* one broadcast/reduce node                   */
    double reduce_Bps;    /* gradient bytes/s one node sums, all children */
};

/* Unstructured weight sparsity as the system executes it. */
struct sp_spec {
    double index_bytes; /* index bytes streamed per nonzero weight        */
    double overhead;    /* fixed fraction of dense work that remains      */
};

/* Failures ([reliability]): each part's mean time between failures that
 * stop the job (0: not counted), and the bandwidth one MemoryX server
 * writes and reads a checkpoint of its shard of the state at (the shared
 * storage's bandwidth, site.h, may bind first). */
struct ws_rel_spec {
    double system_mtbf_s, memoryx_mtbf_s, act_mtbf_s, swarmx_mtbf_s;
    double server_ckpt_Bps;
};

/* Capital prices ([cost]) of one part of each kind, in the site's
 * currency (0: not costed). */
struct ws_price_spec {
    double system, memoryx, act, swarmx;
};

struct hw_desc {
    struct wse_spec wse;
    struct chip_figs chip;
    struct mx_spec mx;
    struct act_spec act;
    struct swx_spec swx;
    struct sp_spec sp;
    struct batch_spec batch; /* the critical batch (batch.h) */
    struct ws_rel_spec rel;
    struct ws_price_spec price;
    struct site_spec site; /* storage, restart, currency, energy (site.h) */
};

extern const struct desc_schema hw_schema;

/* Parse a hardware description from text named origin, apply the nsets
 * "section.key=value" overrides, and check cross-key constraints.
 * Returns CP_OK or CP_EINPUT with err filled. */
/* What the description says about execution, shared by the analytic model
 * and the simulator (each composes them into a step in its own way). */

/* Achieved fraction of peak for a pass of tokens tokens on one system:
 * utilization x tokens / (tokens + util_half_tokens); 0 for no tokens.
 * Inline: the step asks for it in every evaluation. */
static inline double hw_util(const struct wse_spec *w, double tokens)
{
    if (tokens <= 0)
        return 0;
    return w->utilization * tokens / (tokens + w->util_half_tokens);
}

/* Expected value of the rank-th smallest of n standard normal draws
 * (Blom's approximation: Phi^-1((rank - 0.375) / (n + 0.25))); 0 for n = 1. */
double hw_order_stat(double rank, double n);

/* Compute-time factor of the slowest of n systems whose compute times vary
 * independently with relative standard deviation jitter: 1 + jitter x
 * hw_order_stat(n, n).  1 for one system. */
double hw_slowest(const struct wse_spec *w, double n);

/* Unstructured weight sparsity as the system executes it.  At sparsity 0
 * the dense format is used and every factor is exactly 1.  Above 0, with
 * density d = 1 - sparsity and the fixed overhead c:
 *   compute and update  x min(1, d + c)
 *   streamed bytes      x min(1, d x (1 + index_bytes / value_bytes) + c)
 * (a format larger than dense is never chosen).  Only the weights of the
 * blocks' matmuls are sparse; embeddings, logits, norms and biases stay
 * dense, so speedup is 1 at 0 and stays below 1 / d. */
double hw_sparse_compute(const struct sp_spec *sp, double sparsity);
double hw_sparse_stream(const struct sp_spec *sp, double sparsity, double value_bytes);

cp_status hw_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                  struct hw_desc *hw, struct desc_src *src, struct cp_error *err);

/* The first rule spanning keys that hw breaks (and its key), or NULL. */
const char *hw_inconsistency(const struct hw_desc *hw, const char **section, const char **name);

/* hw_load() with overlays (INI text of any subset of the keys, at most
 * DESC_OVERLAY_MAX) applied in order before the overrides: a key an
 * overlay sets replaces what the file and earlier overlays gave. */
cp_status hw_load_overlays(const char *text, const char *origin, const struct desc_text *overlays,
                           size_t noverlays, const char *const *sets, size_t nsets,
                           struct hw_desc *hw, struct desc_src *src, struct cp_error *err);

/* hw_load_overlays() with one overlay, named overlay_origin (NULL: none). */
cp_status hw_load_overlay(const char *text, const char *origin, const char *overlay,
                          const char *overlay_origin, const char *const *sets, size_t nsets,
                          struct hw_desc *hw, struct desc_src *src, struct cp_error *err);

#endif
