/* gpuhw.h - GPU system descriptions: one GPU type in its nodes and network,
 * with the constants of the GPU training model (src/gpu), loaded from an
 * INI file in hw/ (format: cerebras-plan(5)).
 *
 * All fields are SI base units: FLOP/s, bytes, bytes/s, seconds, watts;
 * counts and fractions are plain numbers.  [system] kind says which model a
 * description is for: "gpu" here; a weight-streaming system says
 * "weight-streaming". */
#ifndef CP_GPUHW_H
#define CP_GPUHW_H

#include "batch.h"
#include "site.h"
#include "desc.h"

/* Which model a description applies to. */
enum gpuhw_kind { GPUHW_WEIGHT_STREAMING, GPUHW_GPU };

/* Tensor-core precision of the matmuls: 16-bit (BF16 or FP16), FP8, FP4. */
enum gpuhw_prec { GPUHW_BF16, GPUHW_FP8, GPUHW_FP4, GPUHW_NPRECS };
extern const char *const gpuhw_prec_name[GPUHW_NPRECS]; /* "bf16" "fp8" "fp4" */

/* One GPU. */
struct gpu_chip {
    double peak_flops[GPUHW_NPRECS]; /* dense peak per precision; 0: lacks it */
    double hbm_bytes;                /* HBM capacity                           */
    double hbm_Bps;                  /* HBM bandwidth                          */
    double power_W;                  /* GPU board power (TDP)                  */
    double sm_count;                 /* streaming multiprocessors; 0: matmuls
                                        taken as not quantised into waves    */
    /* Published figures the vendors' comparisons quote, optional (0 when
     * not given); only `claims` reads them. */
    double cores;        /* FP32 CUDA cores                              */
    double l2_bytes;     /* L2 cache                                     */
    double die_area_mm2; /* die area, square millimetres                 */
};

/* Nodes and their network. */
struct gpu_net {
    double gpus_per_node;  /* GPUs in one node (rack for NVL72)            */
    double node_power_W;   /* one node, maximum wall power                 */
    double nvlink_Bps;     /* NVLink per GPU, each direction               */
    double nvlink_domain;  /* GPUs one NVLink/NVSwitch domain joins        */
    double scaleout_Bps;   /* scale-out (InfiniBand/Ethernet) per GPU, each direction */
    double link_latency_s; /* start-up latency of one collective step      */
};

/* The training model's constants: the same for every model and layout
 * (gpu.h states where each enters). */
struct gpu_fit {
    double matmul_eff;        /* achieved fraction of peak on wide matmuls    */
    double attention_eff;     /* achieved fraction of the 16-bit peak on the
                                 attention's score and value matmuls        */
    double tile_m, tile_n;    /* output tile of one SM's share of a large
                                 matmul (rows x columns); 0: no tile or
                                 wave quantisation                         */
    double small_tile_m, small_tile_n; /* the smaller tile the library may
                                 pick instead (0: none)                   */
    double score_bytes;       /* HBM bytes per attention score per layer
                                 (forward and backward) when the scores are
                                 stored (no flash attention)               */
    double score_dropout_bytes; /* more with attention dropout            */
    double kernels_per_layer; /* kernels one layer runs forward and
                                 backward                                  */
    double kernel_overhead_s; /* time each kernel adds beyond its work
                                 (launch gap, ramp and tail)               */
    double elementwise;       /* HBM bytes the non-matmul kernels move per
                                 token and per hidden unit of one layer, for
                                 forward and backward                       */
    double lowp_eff;          /* FP8 matmuls reach this fraction of the
                                 16-bit efficiency                          */
    double fp4_eff;           /* FP4 matmuls: the same                      */
    double comm_eff;          /* achieved fraction of link bandwidth          */
    double tp_overlap;        /* fraction of tensor-parallel communication
                                 hidden behind matmuls when overlap is on   */
    double optimizer_traffic; /* HBM bytes the optimizer step moves per
                                 parameter it updates                    */
    double step_overhead_s;   /* fixed time per step nothing overlaps     */
    double hbm_usable;        /* fraction of HBM a run can fill           */
    double model_error;       /* half-width of the model's own relative
                                 error on the step time; only
                                 --uncertainty draws it                 */
};

/* Failures ([reliability]) and prices ([cost]) of a GPU cluster's parts:
 * a node's MTBF (failures that stop the job; 0: not counted) and the
 * bandwidth it writes and reads its share of a checkpoint at; the capital
 * price of a node and of a scale-out switch of switch_ports ports (0: not
 * costed), in the site's currency (site.h). */
struct gpu_rel_spec {
    double node_mtbf_s, node_ckpt_Bps;
};
struct gpu_price_spec {
    double node, switch_price, switch_ports;
};

struct gpuhw_desc {
    char name[DESC_TEXT_MAX];
    int kind; /* enum gpuhw_kind */
    struct gpu_chip chip;
    struct gpu_net net;
    struct gpu_fit fit;
    struct batch_spec batch; /* the critical batch (batch.h), as on weight streaming */
    struct gpu_rel_spec rel;
    struct gpu_price_spec price;
    struct site_spec site; /* storage, restart, currency, energy (site.h) */
};

extern const struct desc_schema gpuhw_schema;

/* Parse a GPU system from text named origin, apply the nsets
 * "section.key=value" overrides, and check that it is a GPU description
 * and that its figures agree (the NVLink domain a whole number of nodes or
 * inside one, a 16-bit peak at least).  CP_OK or CP_EINPUT with err
 * filled; src may be NULL. */
cp_status gpuhw_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                     struct gpuhw_desc *g, struct desc_src *src, struct cp_error *err);

/* Which model the hardware description text is for: the value of kind in
 * its [system] section (GPUHW_WEIGHT_STREAMING when absent, as in the
 * weight-streaming files that predate GPUs).  Only reads the text; the
 * loader of that kind checks the rest.  An unknown value reads as
 * weight-streaming, whose loader then names it. */
enum gpuhw_kind gpuhw_kind_of(const char *text);

#endif
