/* gpuhw.c - the GPU system description schema and its cross-key checks. */
#include "gpuhw.h"

#include <math.h>
#include <stddef.h>

#define G(f) offsetof(struct gpuhw_desc, f)
#define CHIP(f) offsetof(struct gpuhw_desc, chip.f)
#define NET(f) offsetof(struct gpuhw_desc, net.f)
#define FIT(f) offsetof(struct gpuhw_desc, fit.f)
#define REL(f) offsetof(struct gpuhw_desc, rel.f)
#define PRICE(f) offsetof(struct gpuhw_desc, price.f)
#define REQ DESC_REQUIRED
#define FRAC (DESC_REQUIRED | DESC_AT_MOST_1)

const char *const gpuhw_prec_name[GPUHW_NPRECS] = {"bf16", "fp8", "fp4"};

static const struct desc_key gpuhw_keys[] = {
    {"system", "name", DESC_TEXT, UNIT_COUNT, 0, G(name), 0, NULL, 0, "display name of the system"},
    {"system", "kind", DESC_CHOICE, UNIT_COUNT, REQ, G(kind), 0, "weight-streaming|gpu", 0,
     "which model applies: weight-streaming or gpu"},
    {"system", "gpus_per_node", DESC_NUM, UNIT_COUNT, REQ | DESC_INTEGER, NET(gpus_per_node), 0,
     NULL, 0, "GPUs in one node (the rack, for NVL72)"},
    {"system", "node_power", DESC_NUM, UNIT_POWER, REQ, NET(node_power_W), 0, NULL, 0,
     "maximum wall power of one node"},
    {"gpu", "peak_bf16", DESC_NUM, UNIT_FLOP_RATE, REQ, CHIP(peak_flops[GPUHW_BF16]), 0, NULL, 0,
     "dense 16-bit (BF16/FP16) tensor peak of one GPU"},
    {"gpu", "peak_fp8", DESC_NUM, UNIT_FLOP_RATE, REQ | DESC_ZERO_OK, CHIP(peak_flops[GPUHW_FP8]),
     0, NULL, 0, "dense FP8 tensor peak (0: the GPU has none)"},
    {"gpu", "peak_fp4", DESC_NUM, UNIT_FLOP_RATE, REQ | DESC_ZERO_OK, CHIP(peak_flops[GPUHW_FP4]),
     0, NULL, 0, "dense FP4 tensor peak (0: the GPU has none)"},
    {"gpu", "hbm", DESC_NUM, UNIT_BYTES, REQ, CHIP(hbm_bytes), 0, NULL, 0, "HBM capacity"},
    {"gpu", "hbm_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, CHIP(hbm_Bps), 0, NULL, 0,
     "HBM bandwidth"},
    {"gpu", "power", DESC_NUM, UNIT_POWER, REQ, CHIP(power_W), 0, NULL, 0,
     "board power (TDP) of one GPU"},
    {"gpu", "sm_count", DESC_NUM, UNIT_COUNT, DESC_INTEGER, CHIP(sm_count), 0, NULL, 0,
     "streaming multiprocessors of one GPU (0: matmuls not quantised into waves)"},
    {"gpu", "cores", DESC_NUM, UNIT_COUNT, DESC_INTEGER, CHIP(cores), 0, NULL, 0,
     "FP32 CUDA cores of one GPU (claims only)"},
    {"gpu", "l2_cache", DESC_NUM, UNIT_BYTES, 0, CHIP(l2_bytes), 0, NULL, 0,
     "L2 cache of one GPU (claims only)"},
    {"gpu", "die_area_mm2", DESC_NUM, UNIT_COUNT, 0, CHIP(die_area_mm2), 0, NULL, 0,
     "die area in square millimetres (claims only)"},
    {"network", "nvlink_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, NET(nvlink_Bps), 0, NULL, 0,
     "NVLink bandwidth of one GPU in each direction"},
    {"network", "nvlink_domain", DESC_NUM, UNIT_COUNT, REQ | DESC_INTEGER, NET(nvlink_domain), 0,
     NULL, 0, "GPUs one NVLink domain joins (8 HGX/DGX, 72 NVL72)"},
    {"network", "scaleout_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, NET(scaleout_Bps), 0, NULL, 0,
     "scale-out (InfiniBand/Ethernet) bandwidth of one GPU in each direction"},
    {"network", "link_latency", DESC_NUM, UNIT_TIME, REQ | DESC_ZERO_OK, NET(link_latency_s), 0,
     NULL, 0, "start-up latency of one step of a collective"},
    {"fit", "matmul_efficiency", DESC_NUM, UNIT_FRACTION, FRAC, FIT(matmul_eff), 0, NULL, 0,
     "achieved fraction of peak on wide matmuls"},
    {"fit", "attention_efficiency", DESC_NUM, UNIT_FRACTION, FRAC, FIT(attention_eff), 0, NULL, 0,
     "achieved fraction of the 16-bit peak on the attention's matmuls"},
    {"fit", "tile_rows", DESC_NUM, UNIT_COUNT, DESC_INTEGER, FIT(tile_m), 0, NULL, 0,
     "rows of the output tile one SM computes of a large matmul (0: no quantisation)"},
    {"fit", "tile_columns", DESC_NUM, UNIT_COUNT, DESC_INTEGER, FIT(tile_n), 0, NULL, 0,
     "columns of that tile (0: no quantisation)"},
    {"fit", "small_tile_rows", DESC_NUM, UNIT_COUNT, DESC_INTEGER, FIT(small_tile_m), 0, NULL, 0,
     "rows of the smaller tile the library may pick instead (0: none)"},
    {"fit", "small_tile_columns", DESC_NUM, UNIT_COUNT, DESC_INTEGER, FIT(small_tile_n), 0, NULL,
     0, "columns of that smaller tile (0: none)"},
    {"fit", "score_bytes", DESC_NUM, UNIT_BYTES, DESC_ZERO_OK, FIT(score_bytes), 0, NULL, 0,
     "HBM bytes per stored attention score per layer, forward and backward"},
    {"fit", "score_dropout_bytes", DESC_NUM, UNIT_BYTES, DESC_ZERO_OK, FIT(score_dropout_bytes), 0,
     NULL, 0, "more HBM bytes per score with attention dropout"},
    {"fit", "kernels_per_layer", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, FIT(kernels_per_layer), 0,
     NULL, 0, "kernels one transformer layer runs, forward and backward"},
    {"fit", "kernel_overhead", DESC_NUM, UNIT_TIME, DESC_ZERO_OK, FIT(kernel_overhead_s), 0, NULL,
     0, "time each kernel adds beyond its work (launch gap, ramp, tail)"},
    {"fit", "elementwise_bytes", DESC_NUM, UNIT_BYTES, REQ | DESC_ZERO_OK, FIT(elementwise), 0,
     NULL, 0, "HBM bytes of non-matmul kernels per token per hidden unit per layer"},
    {"fit", "lowp_efficiency", DESC_NUM, UNIT_FRACTION, FRAC, FIT(lowp_eff), 0, NULL, 0,
     "fraction of the 16-bit matmul efficiency that FP8 matmuls reach"},
    {"fit", "fp4_efficiency", DESC_NUM, UNIT_FRACTION, FRAC, FIT(fp4_eff), 0, NULL, 0,
     "fraction of the 16-bit matmul efficiency that FP4 matmuls reach"},
    {"fit", "comm_efficiency", DESC_NUM, UNIT_FRACTION, FRAC, FIT(comm_eff), 0, NULL, 0,
     "achieved fraction of link bandwidth in collectives"},
    {"fit", "tp_overlap", DESC_NUM, UNIT_FRACTION, FRAC | DESC_ZERO_OK, FIT(tp_overlap), 0, NULL, 0,
     "fraction of tensor-parallel communication hidden when overlap is on"},
    {"fit", "optimizer_bytes", DESC_NUM, UNIT_BYTES, REQ, FIT(optimizer_traffic), 0, NULL, 0,
     "HBM bytes the optimizer step moves per parameter it updates"},
    {"fit", "step_overhead", DESC_NUM, UNIT_TIME, REQ | DESC_ZERO_OK, FIT(step_overhead_s), 0, NULL,
     0, "fixed time per step of a job that spans nodes, nothing overlapping it"},
    {"fit", "hbm_usable", DESC_NUM, UNIT_FRACTION, FRAC, FIT(hbm_usable), 0, NULL, 0,
     "fraction of HBM a run can fill (the rest: context, allocator, buffers)"},
    {"fit", "model_error", DESC_NUM, UNIT_FRACTION, DESC_AT_MOST_1 | DESC_ZERO_OK, FIT(model_error), 0,
     NULL, 0, "half-width of the model's own relative error on the step time (--uncertainty)"},
    BATCH_DESC_KEYS(offsetof(struct gpuhw_desc, batch)),
    {"reliability", "node_mtbf", DESC_NUM, UNIT_TIME, DESC_ZERO_OK, REL(node_mtbf_s), 0, NULL, 0,
     "mean time between failures of one node that stop the job (0: none counted)"},
    {"reliability", "node_checkpoint_bandwidth", DESC_NUM, UNIT_BYTE_RATE, DESC_ZERO_OK,
     REL(node_ckpt_Bps), 0, NULL, 0,
     "bandwidth one node writes and reads its share of a checkpoint at"},
    {"cost", "node_price", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, PRICE(node), 0, NULL, 0,
     "capital price of one node, in the currency"},
    {"cost", "switch_price", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK, PRICE(switch_price), 0, NULL, 0,
     "capital price of one scale-out switch"},
    {"cost", "switch_ports", DESC_NUM, UNIT_COUNT, DESC_ZERO_OK | DESC_INTEGER, PRICE(switch_ports),
     0, NULL, 0, "ports of one scale-out switch (a non-blocking fat tree, one port a GPU)"},
    SITE_DESC_KEYS(offsetof(struct gpuhw_desc, site)),
};

const struct desc_schema gpuhw_schema = {
    .kind = "GPU hardware",
    .keys = gpuhw_keys,
    .nkeys = sizeof gpuhw_keys / sizeof gpuhw_keys[0],
};

/* The [reliability] and [cost] keys agree (site.h). */
static cp_status gpuhw_site_check(const struct gpuhw_desc *g, const struct desc_src *src,
                                  struct cp_error *err)
{
    int any_mtbf = g->rel.node_mtbf_s > 0;
    if (any_mtbf && !(g->rel.node_ckpt_Bps > 0))
        return desc_key_error(&gpuhw_schema, src, "reliability", "node_checkpoint_bandwidth", err,
                              "must be given (and positive) when node_mtbf is: nodes write "
                              "the checkpoints");
    if (g->price.switch_price > 0 && !(g->price.switch_ports >= 4))
        return desc_key_error(&gpuhw_schema, src, "cost", "switch_ports", err,
                              "must be at least 4 when switch_price is given (a fat tree)");
    int any_price = g->price.node > 0 || g->price.switch_price > 0;
    const char *sec, *key, *why = site_inconsistency(&g->site, any_price, &sec, &key);
    return why ? desc_key_error(&gpuhw_schema, src, sec, key, err, "%s", why) : CP_OK;
}

static cp_status gpuhw_check(const struct gpuhw_desc *g, const struct desc_src *src,
                             struct cp_error *err)
{
    double node = g->net.gpus_per_node, dom = g->net.nvlink_domain;
    if (g->kind != GPUHW_GPU)
        return desc_key_error(&gpuhw_schema, src, "system", "kind", err,
                              "this is a GPU description: kind must be gpu");
    if (fmod(dom, node) != 0 && fmod(node, dom) != 0)
        return desc_key_error(&gpuhw_schema, src, "network", "nvlink_domain", err,
                              "%.0f GPUs neither divide nor are a whole number of nodes of %.0f",
                              dom, node);
    return gpuhw_site_check(g, src, err);
}

cp_status gpuhw_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                     struct gpuhw_desc *g, struct desc_src *src, struct cp_error *err)
{
    struct desc_src local;
    if (!src)
        src = &local;
    cp_status st = desc_load_set(&gpuhw_schema, text, origin, sets, nsets, g, src, err);
    if (st != CP_OK)
        return st;
    desc_default_name(g->name, origin);
    return gpuhw_check(g, src, err);
}

enum gpuhw_kind gpuhw_kind_of(const char *text)
{
    return desc_kind_is(text, "gpu", 0) ? GPUHW_GPU : GPUHW_WEIGHT_STREAMING;
}
