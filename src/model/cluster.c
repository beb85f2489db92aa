/* cluster.c - defaults and range checks of a cluster configuration. */
#include "cluster.h"

#include <math.h>

#include "../base/units.h"
#include "../desc/tfm.h"
#include "mx.h"

const char *const act_mode_name[ACT_NMODES] = {"auto", "wafer", "recompute", "offload"};

void cluster_init(struct cluster *c, const struct hw_desc *hw, const struct wl_desc *wl)
{
    c->hw = hw;
    c->wl = wl;
    c->systems = 1;
    c->mx_servers = 0;
    c->act_servers = 0;
    c->act = ACT_AUTO;
    c->act_k = 0;
    c->sparsity = 0;
    c->overlap = hw->mx.boundary_overlap;
    c->overlap_set = 0;
    c->global_seqs = wl->batch;
    c->tokens = tfm_tokens(wl);
    c->ref_seqs = wl->batch;
    c->batch_penalty = 0;
    c->price = -1;
}

/* The options: whole numbers in range, a placement, a k within the blocks. */
static cp_status check_options(const struct cluster *c, struct cp_error *err)
{
    if (!(c->systems >= 1 && c->systems <= CLUSTER_MAX_SYSTEMS) || c->systems != floor(c->systems))
        return cp_fail(err, CP_EINPUT, "--systems: %g is not a whole number from 1 to %g",
                       c->systems, CLUSTER_MAX_SYSTEMS);
    if (!(c->sparsity >= 0 && c->sparsity <= CLUSTER_MAX_SPARSITY))
        return cp_fail(err, CP_EINPUT, "--sparsity: %g is outside 0..%g", c->sparsity,
                       CLUSTER_MAX_SPARSITY);
    if (!(c->overlap >= 0 && c->overlap <= 1))
        return cp_fail(err, CP_EINPUT, "--overlap: %g is outside 0..1", c->overlap);
    if (!(c->mx_servers >= 0 && c->mx_servers <= HW_MAX_SERVERS) ||
        c->mx_servers != floor(c->mx_servers))
        return cp_fail(err, CP_EINPUT, "--memoryx-servers: %g is not a whole number from 1 to %g",
                       c->mx_servers, HW_MAX_SERVERS);
    if (!(c->act_servers >= 0 && c->act_servers <= HW_MAX_SERVERS) ||
        c->act_servers != floor(c->act_servers))
        return cp_fail(err, CP_EINPUT, "--act-servers: %g is not a whole number from 1 to %g",
                       c->act_servers, HW_MAX_SERVERS);
    if (!(c->act >= ACT_AUTO && c->act < ACT_NMODES))
        return cp_fail(err, CP_EINPUT, "--activations: not a placement");
    if (!(c->act_k >= 0 && c->act_k <= c->wl->layers) || c->act_k != floor(c->act_k))
        return cp_fail(err, CP_EINPUT,
                       "--activations recompute:%g: k must be a whole number from "
                       "1 to the model's %g blocks",
                       c->act_k, c->wl->layers);
    return CP_OK;
}

/* A layer's state is sharded over the servers, so a server may hold less
 * than a layer; but one so small that even HW_MAX_SERVERS of them cannot
 * hold the largest layer is a value that rounded to nothing. */
static cp_status check_mx_room(const struct cluster *c, struct cp_error *err)
{
    const struct wl_desc *wl = c->wl;
    double bpp = mx_bytes_per_param(wl);
    double layer =
        fmax(tfm_block_params(wl), fmax(tfm_embed_params(wl), tfm_head_params(wl))) * bpp;
    double server = c->hw->mx.server_dram_bytes + c->hw->mx.server_flash_bytes;
    if (!(server * HW_MAX_SERVERS >= layer)) {
        char a[32], b[32];
        return cp_fail(err, CP_EINPUT,
                       "memoryx.server_memory: %g servers of %s (with their flash) cannot hold "
                       "the largest layer's state (%s)",
                       HW_MAX_SERVERS, unit_format(server, UNIT_BYTES, a, sizeof a),
                       unit_format(layer, UNIT_BYTES, b, sizeof b));
    }
    return CP_OK;
}

/* A rate so small that the model's state takes longer than a double holds
 * to pass through it rounds to zero: name its key. */
static cp_status check_rates(const struct cluster *c, struct cp_error *err)
{
    const struct wl_desc *wl = c->wl;
    const struct hw_desc *hw = c->hw;
    double bpp = mx_bytes_per_param(wl);
    double state = tfm_params(wl) * bpp, flop = tfm_params(wl) * hw->mx.update_flop_per_param;
    const struct {
        const char *key;
        double rate, work;
        unit_dim dim;
    } rate[] = {
        {"memoryx.server_network", hw->mx.server_net_Bps, state, UNIT_BYTE_RATE},
        {"memoryx.server_memory_bandwidth", hw->mx.server_mem_bw_Bps, state, UNIT_BYTE_RATE},
        {"memoryx.server_flash_bandwidth",
         hw->mx.server_flash_bytes > 0 ? hw->mx.server_flash_bw_Bps : 1, state, UNIT_BYTE_RATE},
        {"memoryx.server_update_flops", hw->mx.server_update_flops, flop, UNIT_FLOP_RATE},
        {"activation.server_network", hw->act.server_net_Bps, state, UNIT_BYTE_RATE},
        {"swarmx.reduce_bandwidth", hw->swx.reduce_Bps, state, UNIT_BYTE_RATE},
    };
    for (size_t i = 0; i < sizeof rate / sizeof rate[0]; i++)
        if (!(rate[i].rate > 0 && isfinite(rate[i].work / rate[i].rate))) {
            char a[32];
            return cp_fail(err, CP_EINPUT,
                           "%s: %s rounds to zero (the model's state would take longer than "
                           "the largest time the program represents)",
                           rate[i].key, unit_format(rate[i].rate, rate[i].dim, a, sizeof a));
        }
    return CP_OK;
}

/* HW_MAX_SERVERS activation servers must hold one sequence's input to one
 * block. */
static cp_status check_act_room(const struct cluster *c, struct cp_error *err)
{
    double ckpt = tfm_act_bytes_per_seq_block(c->wl, 1);
    if (!(c->hw->act.server_bytes * HW_MAX_SERVERS >= ckpt)) {
        char a[32], b[32];
        return cp_fail(err, CP_EINPUT,
                       "activation.server_memory: %g servers of %s cannot hold one sequence's "
                       "input to one block (%s)",
                       HW_MAX_SERVERS,
                       unit_format(c->hw->act.server_bytes, UNIT_BYTES, a, sizeof a),
                       unit_format(ckpt, UNIT_BYTES, b, sizeof b));
    }
    return CP_OK;
}

/* The run: a whole batch, positive tokens, a reference batch, a finite price. */
static cp_status check_run(const struct cluster *c, struct cp_error *err)
{
    if (!(c->global_seqs >= 1 && isfinite(c->global_seqs)) ||
        c->global_seqs != floor(c->global_seqs))
        return cp_fail(err, CP_EINPUT, "--batch: %g is not a whole number of sequences >= 1",
                       c->global_seqs);
    if (!(c->tokens > 0 && isfinite(c->tokens)))
        return cp_fail(err, CP_EINPUT, "--tokens: must be positive");
    if (!(c->ref_seqs >= 1 && isfinite(c->ref_seqs)))
        return cp_fail(err, CP_EINPUT, "reference batch must be at least one sequence");
    if (!isfinite(c->price))
        return cp_fail(err, CP_EINPUT, "--price: must be a finite number");
    return CP_OK;
}

cp_status cluster_check(const struct cluster *c, struct cp_error *err)
{
    cp_status st;
    if ((st = check_options(c, err)) || (st = check_mx_room(c, err)) ||
        (st = check_rates(c, err)) || (st = check_act_room(c, err)) || (st = check_run(c, err)))
        return st;
    return CP_OK;
}
