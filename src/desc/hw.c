/* hw.c - the hardware description schema and its cross-key checks. */
#include "hw.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stddef.h>

#define SYS(f) offsetof(struct hw_desc, wse.f)
#define MX(f) offsetof(struct hw_desc, mx.f)
#define ACT(f) offsetof(struct hw_desc, act.f)
#define SWX(f) offsetof(struct hw_desc, swx.f)
#define SP(f) offsetof(struct hw_desc, sp.f)
#define CHIP(f) offsetof(struct hw_desc, chip.f)
#define REL(f) offsetof(struct hw_desc, rel.f)
#define PRICE(f) offsetof(struct hw_desc, price.f)
#define OPT DESC_ZERO_OK
#define REQ DESC_REQUIRED

static const struct desc_key hw_keys[] = {
    {"system", "name", DESC_TEXT, UNIT_COUNT, 0, SYS(name), 0, NULL, 0,
     "display name of the system"},
    {"system", "kind", DESC_CHOICE, UNIT_COUNT, 0, SYS(kind), 0, "weight-streaming|gpu", 0,
     "which model the description is for: weight-streaming here"},
    {"system", "peak_flops", DESC_NUM, UNIT_FLOP_RATE, REQ, SYS(peak_flops), 0, NULL, 0,
     "dense 16-bit peak compute of one system"},
    {"system", "sram", DESC_NUM, UNIT_BYTES, REQ, SYS(sram_bytes), 0, NULL, 0, "on-wafer SRAM"},
    {"system", "io_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, SYS(io_bw_Bps), 0, NULL, 0,
     "system I/O bandwidth in each direction"},
    {"system", "utilization", DESC_NUM, UNIT_FRACTION, REQ | DESC_AT_MOST_1, SYS(utilization), 0,
     NULL, 0, "achieved fraction of peak on large matmuls"},
    {"system", "power", DESC_NUM, UNIT_POWER, REQ, SYS(power_W), 0, NULL, 0,
     "wall power of one system"},
    {"system", "max_matmul_dim", DESC_NUM, UNIT_COUNT, REQ | DESC_INTEGER, SYS(max_matmul_dim), 0,
     NULL, 0, "largest matmul dimension held on the wafer without blocking"},
    {"system", "max_systems", DESC_NUM, UNIT_COUNT, REQ | DESC_INTEGER, SYS(max_systems), 0, NULL,
     0, "largest cluster of this generation that can be built (systems)"},
    {"system", "util_half_tokens", DESC_NUM, UNIT_COUNT, REQ, SYS(util_half_tokens), 0, NULL, 0,
     "tokens per system per pass at which utilization falls to half"},
    {"system", "step_overhead", DESC_NUM, UNIT_TIME, DESC_ZERO_OK, SYS(step_overhead_s), 0, NULL, 0,
     "fixed time per training step that nothing overlaps"},
    {"system", "jitter", DESC_NUM, UNIT_FRACTION, DESC_ZERO_OK | DESC_AT_MOST_1, SYS(jitter), 0,
     NULL, 0, "relative standard deviation of one system's compute time (slowest sets pace)"},
    {"system", "model_error", DESC_NUM, UNIT_FRACTION, DESC_ZERO_OK | DESC_AT_MOST_1,
     SYS(model_error), 0, NULL, 0,
     "half-width of the model's own relative error on the step time (--uncertainty)"},
    {HW_CHIP_SECTION, "cores", DESC_NUM, UNIT_COUNT, DESC_INTEGER, CHIP(cores), 0, NULL, 0,
     "compute cores on the wafer (claims only)"},
    {HW_CHIP_SECTION, "memory_bandwidth", DESC_NUM, UNIT_BYTE_RATE, 0, CHIP(mem_bw_Bps), 0, NULL, 0,
     "SRAM bandwidth on the wafer (claims only)"},
    {HW_CHIP_SECTION, "fabric_bandwidth", DESC_NUM, UNIT_BYTE_RATE, 0, CHIP(fabric_Bps), 0, NULL, 0,
     "fabric bandwidth on the wafer (claims only)"},
    {HW_CHIP_SECTION, "die_area_mm2", DESC_NUM, UNIT_COUNT, 0, CHIP(die_area_mm2), 0, NULL, 0,
     "silicon area in square millimetres (claims only)"},
    {"memoryx", "server_memory", DESC_NUM, UNIT_BYTES, REQ, MX(server_dram_bytes), 0, NULL, 0,
     "DRAM of one MemoryX server"},
    {"memoryx", "server_flash", DESC_NUM, UNIT_BYTES, DESC_ZERO_OK, MX(server_flash_bytes), 0, NULL,
     0, "flash of one MemoryX server (0: none), used when DRAM cannot hold the state"},
    {"memoryx", "server_network", DESC_NUM, UNIT_BYTE_RATE, REQ, MX(server_net_Bps), 0, NULL, 0,
     "network bandwidth of one MemoryX server in each direction"},
    {"memoryx", "server_memory_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, MX(server_mem_bw_Bps), 0,
     NULL, 0, "DRAM bandwidth one server's update reads and writes state at"},
    {"memoryx", "server_flash_bandwidth", DESC_NUM, UNIT_BYTE_RATE, DESC_ZERO_OK,
     MX(server_flash_bw_Bps), 0, NULL, 0,
     "flash bandwidth of one server (needed when server_flash > 0)"},
    {"memoryx", "server_update_flops", DESC_NUM, UNIT_FLOP_RATE, REQ, MX(server_update_flops), 0,
     NULL, 0, "optimizer update throughput of one MemoryX server"},
    {"memoryx", "server_power", DESC_NUM, UNIT_POWER, REQ | DESC_ZERO_OK, MX(server_power_W), 0,
     NULL, 0, "wall power of one MemoryX server"},
    {"memoryx", "bytes_per_param", DESC_NUM, UNIT_BYTES, REQ, MX(bytes_per_param), 0, NULL, 0,
     "bytes MemoryX stores per parameter in the vendor's sizing"},
    {"memoryx", "update_flop_per_param", DESC_NUM, UNIT_FLOP, REQ, MX(update_flop_per_param), 0,
     NULL, 0, "optimizer FLOP to update one parameter"},
    {"memoryx", "boundary_overlap", DESC_NUM, UNIT_FRACTION, REQ | DESC_ZERO_OK | DESC_AT_MOST_1,
     MX(boundary_overlap), 0, NULL, 0,
     "fraction of the iteration-boundary dependency hidden by chunk-wise updates"},
    {"activation", "servers_per_system", DESC_NUM, UNIT_COUNT, DESC_INTEGER,
     ACT(servers_per_system), 1, NULL, 0,
     "activation servers each system has (default 1), unless --act-servers"},
    {"activation", "server_memory", DESC_NUM, UNIT_BYTES, REQ, ACT(server_bytes), 0, NULL, 0,
     "memory of one activation server"},
    {"activation", "server_network", DESC_NUM, UNIT_BYTE_RATE, REQ, ACT(server_net_Bps), 0, NULL, 0,
     "network bandwidth of one activation server in each direction"},
    {"activation", "server_power", DESC_NUM, UNIT_POWER, REQ | DESC_ZERO_OK, ACT(server_power_W), 0,
     NULL, 0, "wall power of one activation server"},
    {"swarmx", "fanout", DESC_NUM, UNIT_COUNT, REQ | DESC_INTEGER, SWX(fanout), 0, NULL, 0,
     "children per broadcast/reduce node"},
    {"swarmx", "lanes", DESC_NUM, UNIT_COUNT, DESC_INTEGER, SWX(lanes), 1, NULL, 0,
     "parallel broadcast/reduce trees, each a share of every stream (default 1): servers per "
     "node"},
    {"swarmx", "link_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, SWX(link_bw_Bps), 0, NULL, 0,
     "bandwidth of one SwarmX link in each direction"},
    {"swarmx", "hop_latency", DESC_NUM, UNIT_TIME, REQ, SWX(hop_latency_s), 0, NULL, 0,
     "latency added by one level of the tree"},
    {"swarmx", "chunk", DESC_NUM, UNIT_BYTES, REQ, SWX(chunk_bytes), 0, NULL, 0,
     "unit of weights or gradients a node receives before forwarding"},
    {"swarmx", "node_power", DESC_NUM, UNIT_POWER, REQ | DESC_ZERO_OK, SWX(node_power_W), 0, NULL,
     0, "wall power of one broadcast/reduce node"},
    {"swarmx", "reduce_bandwidth", DESC_NUM, UNIT_BYTE_RATE, REQ, SWX(reduce_Bps), 0, NULL, 0,
     "gradient bytes per second one node sums over all its children"},
    {"sparsity", "index_bytes", DESC_NUM, UNIT_BYTES, REQ | DESC_ZERO_OK, SP(index_bytes), 0, NULL,
     0, "index bytes streamed with each nonzero weight or gradient"},
    {"sparsity", "overhead", DESC_NUM, UNIT_FRACTION, REQ | DESC_ZERO_OK | DESC_AT_MOST_1,
     SP(overhead), 0, NULL, 0, "fraction of the dense work that sparsity does not remove"},
    BATCH_DESC_KEYS(offsetof(struct hw_desc, batch)),
    {"reliability", "system_mtbf", DESC_NUM, UNIT_TIME, OPT, REL(system_mtbf_s), 0, NULL, 0,
     "mean time between failures of one system that stop the job (0: none counted)"},
    {"reliability", "memoryx_mtbf", DESC_NUM, UNIT_TIME, OPT, REL(memoryx_mtbf_s), 0, NULL, 0,
     "mean time between failures of one MemoryX server"},
    {"reliability", "activation_mtbf", DESC_NUM, UNIT_TIME, OPT, REL(act_mtbf_s), 0, NULL, 0,
     "mean time between failures of one activation server"},
    {"reliability", "swarmx_mtbf", DESC_NUM, UNIT_TIME, OPT, REL(swarmx_mtbf_s), 0, NULL, 0,
     "mean time between failures of one SwarmX node"},
    {"reliability", "write_bandwidth", DESC_NUM, UNIT_BYTE_RATE, OPT,
     REL(server_ckpt_Bps), 0, NULL, 0,
     "bandwidth one MemoryX server writes and reads its shard of a checkpoint at"},
    {"cost", "system_price", DESC_NUM, UNIT_COUNT, OPT, PRICE(system), 0, NULL, 0,
     "capital price of one system, in the currency"},
    {"cost", "memoryx_price", DESC_NUM, UNIT_COUNT, OPT, PRICE(memoryx), 0, NULL, 0,
     "capital price of one MemoryX server"},
    {"cost", "activation_price", DESC_NUM, UNIT_COUNT, OPT, PRICE(act), 0, NULL, 0,
     "capital price of one activation server"},
    {"cost", "swarmx_price", DESC_NUM, UNIT_COUNT, OPT, PRICE(swarmx), 0, NULL, 0,
     "capital price of one SwarmX node"},
    SITE_DESC_KEYS(offsetof(struct hw_desc, site)),
};

const struct desc_schema hw_schema = {
    .kind = "hardware",
    .keys = hw_keys,
    .nkeys = sizeof hw_keys / sizeof hw_keys[0],
    .list_section = "tiers",
    .list_dim = UNIT_BYTES,
    .list_off = offsetof(struct hw_desc, mx.tiers),
    /* what a tier name would mean instead: MemoryX sized for the run in a
     * claims or measurements file (auto) and the explorer (sized), every
     * tier in sweep --memoryx (all) */
    .list_words = "auto|sized|all",
};

const char *hw_inconsistency(const struct hw_desc *hw, const char **section, const char **name)
{
    if (hw->wse.kind != 0) {
        *section = "system", *name = "kind";
        return "this is a weight-streaming description: kind must be weight-streaming";
    }
    if (hw->swx.fanout < 2) {
        *section = "swarmx", *name = "fanout";
        return "a tree needs at least 2 children per node";
    }
    if (!(hw->swx.lanes <= HW_MAX_SERVERS)) {
        *section = "swarmx", *name = "lanes";
        return "must be at most 1e6 (the most servers of one kind the model counts)";
    }
    if (!(hw->act.servers_per_system <= HW_MAX_SERVERS)) {
        *section = "activation", *name = "servers_per_system";
        return "must be at most 1e6 (the most servers of one kind the model counts)";
    }
    if (hw->wse.max_systems > HW_MAX_SYSTEMS) {
        *section = "system", *name = "max_systems";
        return "must be at most 1e6 (the largest cluster the model evaluates; plan "
               "tries every size up to it)";
    }
    if (hw->mx.server_flash_bytes > 0 && !(hw->mx.server_flash_bw_Bps > 0)) {
        *section = "memoryx", *name = "server_flash_bandwidth";
        return "must be given (and positive) when server_flash is above 0";
    }
    if (hw->sp.overhead >= 1) {
        *section = "sparsity", *name = "overhead";
        return "must be below 1, or sparsity could never help";
    }
    const struct ws_rel_spec *r = &hw->rel;
    int any_mtbf = r->system_mtbf_s > 0 || r->memoryx_mtbf_s > 0 || r->act_mtbf_s > 0 ||
                   r->swarmx_mtbf_s > 0;
    if (any_mtbf && !(r->server_ckpt_Bps > 0)) {
        *section = "reliability", *name = "write_bandwidth";
        return "must be given (and positive) when a part has an MTBF: MemoryX writes checkpoints";
    }
    const struct ws_price_spec *p = &hw->price;
    int any_price = p->system > 0 || p->memoryx > 0 || p->act > 0 || p->swarmx > 0;
    return site_inconsistency(&hw->site, any_price, section, name);
}

static cp_status hw_check(const struct hw_desc *hw, const struct desc_src *src,
                          struct cp_error *err)
{
    const char *sec, *name, *why = hw_inconsistency(hw, &sec, &name);
    return why ? desc_key_error(&hw_schema, src, sec, name, err, "%s", why) : CP_OK;
}

cp_status hw_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                  struct hw_desc *hw, struct desc_src *src, struct cp_error *err)
{
    return hw_load_overlays(text, origin, NULL, 0, sets, nsets, hw, src, err);
}

cp_status hw_load_overlay(const char *text, const char *origin, const char *overlay,
                          const char *overlay_origin, const char *const *sets, size_t nsets,
                          struct hw_desc *hw, struct desc_src *src, struct cp_error *err)
{
    const struct desc_text one = {overlay, overlay_origin};
    return hw_load_overlays(text, origin, &one, overlay ? 1 : 0, sets, nsets, hw, src, err);
}

cp_status hw_load_overlays(const char *text, const char *origin, const struct desc_text *overlays,
                           size_t noverlays, const char *const *sets, size_t nsets,
                           struct hw_desc *hw, struct desc_src *src, struct cp_error *err)
{
    struct desc_src local;
    if (!src)
        src = &local;
    cp_status st = desc_load(&hw_schema, text, origin, hw, src, err);
    for (size_t i = 0; st == CP_OK && i < noverlays; i++)
        st = desc_overlay(&hw_schema, overlays[i].text, overlays[i].origin, hw, src, err);
    for (size_t i = 0; st == CP_OK && i < nsets; i++)
        st = desc_set(&hw_schema, sets[i], hw, src, err);
    if (st == CP_OK)
        desc_default_name(hw->wse.name, origin);
    return st == CP_OK ? hw_check(hw, src, err) : st;
}

double hw_order_stat(double rank, double n)
{
    if (n <= 1)
        return 0;
    return gsl_cdf_ugaussian_Pinv((rank - 0.375) / (n + 0.25));
}

/* hw_order_stat(n, n): the inverse normal was a twentieth of an analytic
 * evaluation and scans ask for the same few n, so each thread keeps the
 * values it has worked out for whole n below HW_TOP_MEMO. */
#define HW_TOP_MEMO 2048
static double top_order_stat(double n)
{
    static _Thread_local double value[HW_TOP_MEMO];
    static _Thread_local unsigned char known[HW_TOP_MEMO];
    /* in range first, so the conversion is exact: (size_t) truncates, and
     * gives n back only for a whole number */
    if (!(n >= 0 && n < HW_TOP_MEMO) || (double)(size_t)n != n)
        return hw_order_stat(n, n);
    size_t i = (size_t)n;
    if (!known[i]) {
        value[i] = hw_order_stat(n, n);
        known[i] = 1;
    }
    return value[i];
}

double hw_slowest(const struct wse_spec *w, double n)
{
    return 1 + w->jitter * top_order_stat(n);
}

double hw_sparse_compute(const struct sp_spec *sp, double sparsity)
{
    if (sparsity <= 0)
        return 1;
    return fmin(1, (1 - sparsity) + sp->overhead);
}

double hw_sparse_stream(const struct sp_spec *sp, double sparsity, double value_bytes)
{
    if (sparsity <= 0)
        return 1;
    return fmin(1, (1 - sparsity) * (1 + sp->index_bytes / value_bytes) + sp->overhead);
}
