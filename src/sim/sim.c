/* sim.c - the weight-streaming pipeline as discrete events (model: sim.h):
 * the configuration, where the activations go, the packets of a step, and
 * the results.  The components are built in simtopo.c and run in
 * simflow.c. */
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "../desc/tfm.h"
#include "simint.h"

const char *const sim_comp_name[SIM_NCOMP] = {"memoryx_egress",  "swarmx_down",   "system_ingress",
                                              "compute",         "system_egress", "swarmx_up",
                                              "memoryx_ingress", "update"};

const char *const sim_act_name[SIM_NACT] = {"wafer", "recompute", "offload"};

/* ---- packets ----------------------------------------------------------- */

struct layer_cost {
    double w_bytes, g_bytes, update_s;
    double flops_tok[2]; /* forward; backward (delta + weight gradient + recompute) */
};

/* MemoryX state bytes per parameter: streamed weight, master copy,
 * optimizer moments, gradient accumulator (at the master precision). */
static double state_per_param(const struct wl_desc *wl)
{
    return wl->weight_bytes + wl->master_bytes + wl->optimizer_bytes + wl->master_bytes;
}

/* Share of the state on flash: S servers fill their DRAM first, the rest
 * goes to their flash as far as it holds it. */
static double flash_share(const struct mx_spec *mx, double servers, double state)
{
    double dram = servers * mx->server_dram_bytes;
    if (!(state > dram) || !(mx->server_flash_bytes > 0))
        return 0;
    return fmin(state - dram, servers * mx->server_flash_bytes) / state;
}

/* One server's time to update params parameters of its shard: it reads and
 * writes every state byte (the DRAM share, then the flash share), or its
 * FLOPs take longer. */
static double server_update_time(const struct sim *s, double params)
{
    const struct mx_spec *mx = &s->hw->mx;
    double flash = s->r->flash_fraction;
    double flop_s = params * mx->update_flop_per_param / mx->server_update_flops;
    double bytes = 2 * params * state_per_param(s->wl);
    double mem_s = bytes * (1 - flash) / mx->server_mem_bw_Bps;
    if (flash > 0)
        mem_s += bytes * flash / mx->server_flash_bw_Bps;
    return fmax(flop_s, mem_s);
}

/* A layer's update: every server updates its 1/S of it at once, so every
 * unit (S / U servers on 1/U of it) takes one server's time for 1/S. */
static double layer_update_time(const struct sim *s, double params)
{
    return server_update_time(s, params / s->cfg->mx_servers);
}

static void layer_costs(struct sim *s, struct layer_cost ly[3])
{
    const struct wl_desc *wl = s->wl;
    const struct hw_desc *hw = s->hw;
    double S = s->cfg->mx_servers;
    double state = tfm_params(wl) * state_per_param(wl);
    s->r->flash_fraction = flash_share(&hw->mx, S, state);
    s->r->mx_bytes = S * (hw->mx.server_dram_bytes + hw->mx.server_flash_bytes);
    double sp = s->cfg->sparsity;
    double cf = hw_sparse_compute(&hw->sp, sp);
    double wf = hw_sparse_stream(&hw->sp, sp, wl->weight_bytes);
    double gf = hw_sparse_stream(&hw->sp, sp, wl->grad_bytes);

    double embed = tfm_embed_params(wl);
    ly[LY_EMBED] = (struct layer_cost){
        embed * wl->weight_bytes, embed * wl->grad_bytes, layer_update_time(s, embed), {0, 0}};
    double mat = tfm_block_matrix_params(wl), other = tfm_block_params(wl) - mat;
    double f[TFM_NPASSES];
    for (int p = 0; p < TFM_NPASSES; p++)
        f[p] = tfm_block_flops(wl, (enum tfm_pass)p) - 2 * mat * (1 - cf);
    ly[LY_BLOCK] = (struct layer_cost){
        (mat * wf + other) * wl->weight_bytes,
        (mat * gf + other) * wl->grad_bytes,
        layer_update_time(s, mat * cf + other),
        {f[TFM_FWD], f[TFM_DELTA] + f[TFM_WGRAD] + (s->recompute ? f[TFM_FWD] : 0)}};
    double head = wl->tied_embeddings ? wl->vocab * wl->hidden : tfm_head_params(wl);
    ly[LY_LOGITS] =
        (struct layer_cost){head * wl->weight_bytes,
                            head * wl->grad_bytes,
                            layer_update_time(s, tfm_head_params(wl)),
                            {tfm_logits_flops(wl, TFM_FWD),
                             tfm_logits_flops(wl, TFM_DELTA) + tfm_logits_flops(wl, TFM_WGRAD)}};
}

/* Packets of the first layer: at most SIM_FIRST_PACKETS, each at least one
 * chunk (a layer smaller than a chunk is one packet), so every hop holds a
 * whole chunk of it, or the whole layer, as it would on the hardware. */
static int first_packets(const struct sim *s, const struct layer_cost *embed)
{
    double chunks = floor(embed->w_bytes / s->hw->swx.chunk_bytes);
    return chunks >= SIM_FIRST_PACKETS ? SIM_FIRST_PACKETS : chunks < 1 ? 1 : (int)chunks;
}

/* Index of layer's packet p among the update packets of a step (backward
 * order: logits, blocks from the last, embedding). */
static int update_index(const struct sim *s, int layer, int p)
{
    int l = (int)s->wl->layers;
    return layer == 0 ? l + 1 + p : layer > l ? 0 : 1 + (l - layer);
}

/* Update packet the next step's forward packet j of a layer of np packets
 * waits for. */
static int gate_packet(const struct sim *s, int j, int np)
{
    int g = (int)ceil((1 - s->cfg->overlap) * np - 1e-9) - 1;
    if (g < j)
        g = j;
    return g > np - 1 ? np - 1 : g;
}

/* Which pass a packet belongs to. */
enum pass {
    PASS_FWD,       /* the forward pass                                  */
    PASS_RECOMPUTE, /* a block's forward again, before its segment's backward */
    PASS_BWD        /* the backward pass                                 */
};

static void add_packet(struct sim *s, const struct layer_cost *ly, int layer, int mb, int p, int np,
                       enum pass pass)
{
    const struct layer_cost *L = &ly[layer_kind(s, layer)];
    int bwd = pass == PASS_BWD;
    int upd = bwd && mb == s->r->micro_batches - 1;
    struct packet *x = &s->pk[s->npk++];
    *x = (struct packet){.layer = layer,
                         .mb = mb,
                         .pkt = p,
                         .npkt = np,
                         .bwd = (uint8_t)bwd,
                         .upd = (uint8_t)upd,
                         .rc = (uint8_t)(pass == PASS_RECOMPUTE),
                         .gate = -1,
                         .w_bytes = L->w_bytes / np,
                         .g_bytes = bwd ? L->g_bytes / np : 0,
                         .flops_tok = L->flops_tok[bwd] / np,
                         .update_s = upd ? L->update_s / np : 0};
    if (pass == PASS_FWD)
        x->gate = update_index(s, layer, gate_packet(s, p, np));
    x->act = pass == PASS_FWD && s->offload && layer_kind(s, layer) == LY_BLOCK;
}

/* The backward pass of the blocks, from the last: block by block, or with
 * segments of k blocks (the first segment holds blocks 1..k), each
 * segment's forwards in order and then its backwards in reverse. */
static void add_block_backward(struct sim *s, const struct layer_cost *ly, int mb)
{
    int l = (int)s->wl->layers, k = s->segment;
    if (k == 0) {
        for (int layer = l; layer >= 1; layer--)
            add_packet(s, ly, layer, mb, 0, 1, PASS_BWD);
        return;
    }
    for (int hi = l; hi >= 1;) {
        int lo = (hi - 1) / k * k + 1;
        for (int layer = lo; layer <= hi; layer++)
            add_packet(s, ly, layer, mb, 0, 1, PASS_RECOMPUTE);
        for (int layer = hi; layer >= lo; layer--)
            add_packet(s, ly, layer, mb, 0, 1, PASS_BWD);
        hi = lo - 1;
    }
}

/* Packets of one step: m x (forward and backward of every layer, the
 * embedding split in p0), and l recomputed forwards per micro-batch with
 * segments. */
static double step_packets(const struct sim *s, double m, double p0)
{
    double l = s->wl->layers;
    return m * (2 * (p0 + l + 1) + (s->segment > 0 ? l : 0));
}

static void build_packets(struct sim *s)
{
    struct layer_cost ly[3];
    layer_costs(s, ly);
    int l = (int)s->wl->layers, p0 = first_packets(s, &ly[LY_EMBED]);
    int m = (int)s->r->micro_batches;
    s->npk = 0;
    s->pk = xmalloc((size_t)step_packets(s, m, p0) * sizeof *s->pk);
    for (int mb = 0; mb < m; mb++) {
        for (int layer = 0; layer <= l + 1; layer++) {
            int np = layer == 0 ? p0 : 1;
            for (int p = 0; p < np; p++)
                add_packet(s, ly, layer, mb, p, np, PASS_FWD);
        }
        add_packet(s, ly, l + 1, mb, 0, 1, PASS_BWD);
        add_block_backward(s, ly, mb);
        for (int p = 0; p < p0; p++)
            add_packet(s, ly, 0, mb, p, p0, PASS_BWD);
    }
    s->r->packets = s->npk;
    for (int k = 0; k < SERVE_N; k++) {
        s->seq[k] = xmalloc((size_t)s->npk * sizeof *s->seq[k]);
        s->seqlen[k] = 0;
    }
    for (int i = 0; i < s->npk; i++) {
        s->seq[SERVE_ALL][s->seqlen[SERVE_ALL]++] = i;
        if (s->pk[i].bwd)
            s->seq[SERVE_BWD][s->seqlen[SERVE_BWD]++] = i;
        if (s->pk[i].bwd || s->pk[i].act)
            s->seq[SERVE_ACT][s->seqlen[SERVE_ACT]++] = i;
        if (s->pk[i].upd)
            s->seq[SERVE_UPD][s->seqlen[SERVE_UPD]++] = i;
    }
}

/* SRAM one sequence needs beside the stream buffers where the caller keeps
 * its activations (sim.h), with in a block's input and full a block's
 * activations for one sequence, and the logits of its predicted positions:
 * wafer l x full; recompute every k blocks ceil(l / k) x in + k x full;
 * offload one block's full (the working set). */
static double sram_per_seq(const struct sim *s)
{
    const struct wl_desc *wl = s->wl;
    double l = wl->layers;
    double in = tfm_act_bytes_per_seq_block(wl, 1), full = tfm_act_bytes_per_seq_block(wl, 0);
    double logits = wl->predictions * wl->vocab * wl->act_bytes;
    switch (s->cfg->act) {
    case SIM_ACT_WAFER:
        return l * full + logits;
    case SIM_ACT_RECOMPUTE:
        return ceil(l / s->cfg->act_k) * in + s->cfg->act_k * full + logits;
    default:
        return full + logits;
    }
}

/* How many micro-batches the most loaded system's share runs in (sim.h):
 * as many as SRAM needs beside the stream buffers (both directions), one
 * sequence at a time if not one fits; with offload, as many as the
 * activation servers need for the block inputs (one sequence at a time if
 * they hold none), the blocks rebuilt in the backward pass. */
static void plan_batch(struct sim *s)
{
    const struct hw_desc *hw = s->hw;
    const struct wl_desc *wl = s->wl;
    const struct sim_config *c = s->cfg;
    struct sim_result *r = s->r;
    double most = ceil(c->global_seqs / s->n);
    double room = hw->wse.sram_bytes - 2 * SIM_BUFFER_CHUNKS * hw->swx.chunk_bytes;
    r->act = c->act;
    r->act_k = c->act == SIM_ACT_RECOMPUTE ? c->act_k : 0;
    r->sram_per_seq = sram_per_seq(s);
    r->max_seqs = room > 0 ? floor(room / r->sram_per_seq) : 0;
    r->seqs_per_system = most;
    s->ckpt_seq_bytes = tfm_act_bytes_per_seq_block(wl, 1);
    s->offload = c->act == SIM_ACT_OFFLOAD;
    s->segment = c->act == SIM_ACT_RECOMPUTE && c->act_k > 1 ? (int)c->act_k : 0;
    s->recompute = s->offload || (c->act == SIM_ACT_RECOMPUTE && !s->segment);
    if (s->offload) {
        double held =
            floor(c->act_servers * hw->act.server_bytes / (wl->layers * s->ckpt_seq_bytes));
        r->store_seqs = held;
        r->micro_batches = held >= 1 ? ceil(most / held) : most;
        s->act_Bps = fmin(hw->wse.io_bw_Bps, c->act_servers * hw->act.server_net_Bps);
        r->act_Bps = s->act_Bps;
        r->act_bytes = most * wl->layers * s->ckpt_seq_bytes;
    } else {
        r->micro_batches = (r->max_seqs < 1 || most <= 1) ? most : ceil(most / r->max_seqs);
    }
    s->g_seqs = (long long)c->global_seqs;
    s->tokens_seq = wl->seq_len;
}

/* Compute-time factor of every system: system i runs at 1 + jitter x the
 * expected (i + 1)-th smallest of N standard normal draws, so system N - 1
 * is the slowest. */
static void plan_jitter(struct sim *s)
{
    s->factor = xmalloc((size_t)s->n * sizeof *s->factor);
    for (int i = 0; i < s->n; i++)
        s->factor[i] = 1 + s->hw->wse.jitter * hw_order_stat(i + 1, s->n);
    s->r->slowest = s->factor[s->n - 1];
}

/* Ring positions: a power of two, enough for a buffer of SIM_BUFFER_CHUNKS
 * chunks to hold the smallest packets any link moves (least bytes) and the
 * one after; at most SIM_MAX_WINDOW, and fewer when the rings of nc
 * components would take more than SIM_RING_BYTES (a buffer then holds
 * fewer small packets). */
static int ring_positions(const struct sim *s, double least, double nc)
{
    double want = least > 0 ? ceil(SIM_BUFFER_CHUNKS * s->hw->swx.chunk_bytes / least) + 2 : 2;
    double cap = fmin(SIM_MAX_WINDOW, floor(SIM_RING_BYTES / (nc * sizeof(struct slot))));
    int w = 2;
    while (w < want && 2 * w <= cap)
        w *= 2;
    return w;
}

/* The smallest share of a packet a link moves: a unit's share of a layer's
 * weights or gradients (the first layer's in p0 packets). */
static double least_packet(const struct sim *s, const struct layer_cost ly[3], double p0)
{
    double least = INFINITY;
    for (int k = 0; k < 3; k++) {
        double np = k == LY_EMBED ? p0 : 1;
        least = fmin(least, fmin(ly[k].w_bytes / np, ly[k].g_bytes / np) / s->units);
    }
    return least;
}

static void plan_ring(struct sim *s)
{
    double least = INFINITY;
    for (int i = 0; i < s->npk; i++) {
        const struct packet *p = &s->pk[i];
        least = fmin(least, p->w_bytes / s->units);
        if (p->bwd)
            least = fmin(least, p->g_bytes / s->units);
    }
    s->w = ring_positions(s, least, s->nc);
    for (s->w_log2 = 0; 1 << s->w_log2 < s->w;)
        s->w_log2++;
    size_t n = (size_t)s->nc * (size_t)s->w;
    s->ring = xmalloc(n * sizeof *s->ring);
    memset(s->ring, 0, n * sizeof *s->ring);
}

/* ---- configuration and results ---------------------------------------- */

void sim_config_init(struct sim_config *c, const struct hw_desc *hw, const struct wl_desc *wl)
{
    *c = (struct sim_config){.hw = hw, .wl = wl, .systems = 1, .units = 1};
    double state = tfm_params(wl) * state_per_param(wl);
    double port = fmin(hw->wse.io_bw_Bps, hw->swx.link_bw_Bps);
    double hold = ceil(state / hw->mx.server_dram_bytes);
    double feed = ceil(port / hw->mx.server_net_Bps);
    c->mx_servers = fmin(fmax(1, fmax(hold, feed)), HW_MAX_SERVERS);
    c->act = wl->recompute ? SIM_ACT_RECOMPUTE : SIM_ACT_WAFER;
    c->act_k = wl->recompute ? 1 : 0;
    c->overlap = hw->mx.boundary_overlap;
    c->global_seqs = wl->batch;
    c->steps = SIM_DEFAULT_STEPS;
}

const char *sim_act_label(enum sim_act act, double k, char *buf, size_t n)
{
    if (act == SIM_ACT_RECOMPUTE)
        snprintf(buf, n, "recompute:%.0f", k);
    else
        snprintf(buf, n, "%s", (int)act >= 0 && (int)act < SIM_NACT ? sim_act_name[act] : "?");
    return buf;
}

static int whole_in(double v, double lo, double hi)
{
    return v >= lo && v <= hi && v == floor(v);
}

/* The events one run may take: c->max_events, or SIM_MAX_EVENTS. */
static double event_bound(const struct sim_config *c)
{
    return c->max_events > 0 ? c->max_events : SIM_MAX_EVENTS;
}

/* The description's figures the simulator counts in ints: blocks (at least
 * two packets each a step, so more than SIM_MAX_PACKETS / 2 - 2 can never
 * run) and the SwarmX fan-out (capped, simtopo_fanout). */
static cp_status check_desc(const struct sim_config *c, struct cp_error *err)
{
    double l = c->wl->layers, most = SIM_MAX_PACKETS / 2 - 2;
    if (!whole_in(l, 1, most))
        return cp_fail(err, CP_EINPUT,
                       "model.layers: %g is not a whole number of blocks in 1..%g (each block is "
                       "two packets a step; the simulator takes at most %d)",
                       l, most, SIM_MAX_PACKETS);
    if (!whole_in(c->hw->swx.fanout, 2, INFINITY))
        return cp_fail(err, CP_EINPUT, "swarmx.fanout: %g is not a whole number of at least 2",
                       c->hw->swx.fanout);
    return CP_OK;
}

static cp_status check(const struct sim_config *c, struct cp_error *err)
{
    if (!whole_in(c->systems, 1, SIM_MAX_SYSTEMS))
        return cp_fail(err, CP_EINPUT, "--systems: %g is not a whole number in 1..%d", c->systems,
                       SIM_MAX_SYSTEMS);
    if (!whole_in(c->units, 1, SIM_MAX_UNITS))
        return cp_fail(err, CP_EINPUT, "--memoryx-units: %g is not a whole number in 1..%d",
                       c->units, SIM_MAX_UNITS);
    if (!whole_in(c->mx_servers, 1, HW_MAX_SERVERS))
        return cp_fail(err, CP_EINPUT, "--memoryx-servers: %g is not a whole number in 1..%g",
                       c->mx_servers, HW_MAX_SERVERS);
    if (c->units > c->mx_servers)
        return cp_fail(err, CP_EINPUT,
                       "--memoryx-units: %g units are more than the %g MemoryX servers", c->units,
                       c->mx_servers);
    if (!((int)c->act >= 0 && (int)c->act < SIM_NACT))
        return cp_fail(err, CP_EINPUT, "--activations: %d is not a placement", (int)c->act);
    cp_status st = check_desc(c, err);
    if (st != CP_OK)
        return st;
    if (c->act == SIM_ACT_RECOMPUTE && !whole_in(c->act_k, 1, c->wl->layers))
        return cp_fail(err, CP_EINPUT,
                       "--activations: recompute every %g blocks: k is not a whole number in "
                       "1..%g",
                       c->act_k, c->wl->layers);
    if (c->act == SIM_ACT_OFFLOAD && !whole_in(c->act_servers, 1, HW_MAX_SERVERS))
        return cp_fail(err, CP_EINPUT,
                       "--act-servers: %g is not a whole number in 1..%g (offload needs them)",
                       c->act_servers, HW_MAX_SERVERS);
    if (!whole_in(c->steps, 1, SIM_MAX_STEPS))
        return cp_fail(err, CP_EINPUT, "--steps: %g is not a whole number in 1..%d", c->steps,
                       SIM_MAX_STEPS);
    if (!whole_in(c->global_seqs, 1, SIM_MAX_BATCH))
        return cp_fail(err, CP_EINPUT, "--batch: %g is not a whole number of sequences in 1..%g",
                       c->global_seqs, SIM_MAX_BATCH);
    if (!(c->sparsity >= 0 && c->sparsity <= HW_MAX_SPARSITY))
        return cp_fail(err, CP_EINPUT, "--sparsity: %g is outside 0..%g", c->sparsity,
                       HW_MAX_SPARSITY);
    if (!(c->overlap >= 0 && c->overlap <= 1))
        return cp_fail(err, CP_EINPUT, "--overlap: %g is outside 0..1", c->overlap);
    if (c->max_events != 0 && !whole_in(c->max_events, 1, SIM_CEIL_EVENTS))
        return cp_fail(err, CP_EINPUT, "--max-events: %g is not a whole number in 1..%g",
                       c->max_events, SIM_CEIL_EVENTS);
    return CP_OK;
}

/* The packets of a step must fit in memory (and in an int): the blocks
 * alone (one micro-batch), then the micro-batches. */
static cp_status check_packets(const struct sim *s, double p0, struct cp_error *err)
{
    double one = step_packets(s, 1, p0), packets = step_packets(s, s->r->micro_batches, p0);
    if (!(one <= SIM_MAX_PACKETS))
        return cp_fail(
            err, CP_EINPUT,
            "model.layers: %.10g blocks make %.10g packets a step in one micro-batch; the "
            "simulator takes at most %d",
            s->wl->layers, one, SIM_MAX_PACKETS);
    if (!(packets <= SIM_MAX_PACKETS))
        return cp_fail(err, CP_EINPUT,
                       "--batch: %.10g sequences per system in %.10g micro-batches make %.10g "
                       "packets per step; the simulator takes at most %d",
                       s->r->seqs_per_system, s->r->micro_batches, packets, SIM_MAX_PACKETS);
    return CP_OK;
}

/* Packets of a step each component class serves (enum serves): all; the
 * backward ones; those and the forward ones that offload; the updates. */
static void serve_lengths(const struct sim *s, double p0, double len[SERVE_N])
{
    double m = s->r->micro_batches, per_pass = p0 + s->wl->layers + 1;
    len[SERVE_ALL] = step_packets(s, m, p0);
    len[SERVE_BWD] = m * per_pass;
    len[SERVE_ACT] = len[SERVE_BWD] + (s->offload ? m * s->wl->layers : 0);
    len[SERVE_UPD] = per_pass;
}

/* Events of the run: every component starts every packet it serves, every
 * step (the components simtopo_shape counts, each class serving its
 * packets). */
static double run_events(const struct sim *s, const struct topo_shape *t, const double len[SERVE_N])
{
    double n = s->n, u = s->units, egress = len[s->offload ? SERVE_ACT : SERVE_BWD];
    double per_step = t->nodes == 0
                          ? len[SERVE_ALL] + u * (len[SERVE_ALL] + egress + len[SERVE_UPD])
                          : n * (2 * len[SERVE_ALL] + egress) +
                                (t->nodes - 1) * (len[SERVE_ALL] + len[SERVE_BWD]) +
                                u * (len[SERVE_ALL] + len[SERVE_BWD] + len[SERVE_UPD]);
    return s->k * per_step;
}

/* Memory a run allocates, at most, in three parts: what grows with the
 * systems (the components and their links, rings, the event queue, which
 * holds each component once, jitter factors), with the packets of a step,
 * and with the units' update records. */
static void run_bytes(const struct sim *s, const struct topo_shape *t, const double len[SERVE_N],
                      double least, double part[3])
{
    double nc = t->comps;
    part[0] = t->bytes + nc * ring_positions(s, least, nc) * sizeof(struct slot) +
              fmax(256, 2 * nc) * EVQ_BYTES_PER_EVENT + (double)s->n * sizeof(double);
    part[1] = len[SERVE_ALL] * sizeof(struct packet) +
              (len[SERVE_ALL] + len[SERVE_BWD] + len[SERVE_ACT] + len[SERVE_UPD]) * sizeof(int);
    part[2] = (double)s->units * len[SERVE_UPD] * (sizeof(double) + sizeof(int)) +
              (double)s->k * sizeof(double);
}

static cp_status check_bytes(const struct sim *s, const double part[3], double bytes,
                             struct cp_error *err)
{
    if (bytes <= SIM_MAX_BYTES)
        return CP_OK;
    static const char *const figure[3] = {"-n", "--batch", "--memoryx-units"};
    int most = part[1] > part[0] ? 1 : 0;
    most = part[2] > part[most] ? 2 : most;
    char a[32], b[32];
    return cp_fail(err, CP_EINPUT,
                   "%s: the run would allocate %s (%d systems, %d MemoryX units, %.10g packets a "
                   "step); the simulator takes at most %s",
                   figure[most], unit_format(bytes, UNIT_BYTES, a, sizeof a), s->n, s->units,
                   (double)s->r->packets, unit_format(SIM_MAX_BYTES, UNIT_BYTES, b, sizeof b));
}

/* Check the configuration and size the run (sim_size) into s, r and z:
 * everything sim_run needs before it allocates. */
static cp_status plan(struct sim *s, const struct sim_config *c, struct sim_result *r,
                      struct sim_size *z, struct cp_error *err)
{
    *z = (struct sim_size){0};
    *r = (struct sim_result){0};
    cp_status st = check(c, err);
    if (st != CP_OK)
        return st;
    *s = (struct sim){.cfg = c, .hw = c->hw, .wl = c->wl, .r = r, .err = err};
    s->n = (int)c->systems;
    s->units = (int)c->units;
    s->k = (int)c->steps;
    s->fanout = simtopo_fanout(c->hw->swx.fanout, s->n);
    s->overhead_s = c->hw->wse.step_overhead_s;
    plan_batch(s);
    struct layer_cost ly[3];
    layer_costs(s, ly);
    double p0 = first_packets(s, &ly[LY_EMBED]), len[SERVE_N], part[3];
    z->micro_batches = r->micro_batches;
    if ((st = check_packets(s, p0, err)) != CP_OK)
        return st;
    struct topo_shape t;
    simtopo_shape(s->n, s->units, s->fanout, &t);
    serve_lengths(s, p0, len);
    run_bytes(s, &t, len, least_packet(s, ly, p0), part);
    r->packets = (long long)len[SERVE_ALL];
    *z = (struct sim_size){r->micro_batches, len[SERVE_ALL],         t.nodes,
                           t.comps,          run_events(s, &t, len), part[0] + part[1] + part[2]};
    if (!(z->events <= event_bound(c)))
        return cp_fail(err, CP_EINPUT,
                       "--max-events: the run would take %.4g events (%g step%s of %g packets "
                       "through %d components), more than the %.4g allowed; lower --steps, -n "
                       "or --batch, or raise --max-events (up to %g)",
                       z->events, c->steps, c->steps == 1 ? "" : "s", z->packets, t.comps,
                       event_bound(c), SIM_CEIL_EVENTS);
    return check_bytes(s, part, z->bytes, err);
}

cp_status sim_size(const struct sim_config *c, struct sim_size *z, struct cp_error *err)
{
    struct sim s;
    struct sim_result r;
    return plan(&s, c, &r, z, err);
}

/* The results of a finished run; CP_EINPUT if the step time is not a
 * positive number (figures beyond what the simulator resolves). */
static cp_status results(struct sim *s, struct cp_error *err)
{
    struct sim_result *r = s->r;
    int k = (int)s->cfg->steps;
    r->first_step_s = s->step_end[0];
    r->step_s = k > 1 ? s->step_end[k - 1] - s->step_end[k - 2] : s->step_end[0];
    double compute_busy = 0;
    for (int i = 0; i < s->nc; i++) {
        const struct comp *x = &s->c[i];
        r->busy_s[x->kind] += x->busy_last_s;
        r->bytes[x->kind] += x->bytes_last;
        r->sent_bytes[x->kind] += x->sent;
        r->recv_bytes[x->kind] += x->recv;
        if (x->kind == SIM_COMPUTE)
            compute_busy += x->busy_last_s;
    }
    r->compute_wait_s = r->step_s - compute_busy / s->n;
    if (!(isfinite(r->step_s) && r->step_s > 0 && isfinite(r->first_step_s)))
        return cp_fail(err, CP_EINPUT,
                       "the simulated step time is %g s: the description's figures are beyond "
                       "what the simulator resolves",
                       r->step_s);
    return CP_OK;
}

static cp_status finished(const struct sim *s, struct cp_error *err)
{
    for (int i = 0; i < s->nc; i++)
        if (s->c[i].pos != s->c[i].limit)
            return cp_fail(err, CP_EINPUT,
                           "simulation stalled: %s %d served %lld of %lld packets (a bug)",
                           sim_comp_name[s->c[i].kind], s->c[i].index, (long long)s->c[i].pos,
                           (long long)s->c[i].limit);
    return CP_OK;
}

static void sim_free(struct sim *s)
{
    free(s->c);
    free(s->ups);
    free(s->dns);
    free(s->pk);
    for (int k = 0; k < SERVE_N; k++)
        free(s->seq[k]);
    free(s->upd_end);
    free(s->upd_step);
    free(s->step_end);
    free(s->factor);
    free(s->ring);
    evq_free(&s->q);
}

cp_status sim_run(const struct sim_config *c, struct sim_result *r, struct cp_error *err)
{
    struct sim s;
    struct sim_size z;
    cp_status st = plan(&s, c, r, &z, err);
    if (st != CP_OK)
        return st;
    evq_init(&s.q);
    plan_jitter(&s);
    simtopo_build(&s);
    build_packets(&s);
    plan_ring(&s);
    size_t nupd = (size_t)s.units * (size_t)s.seqlen[SERVE_UPD];
    s.upd_end = xmalloc(nupd * sizeof *s.upd_end);
    s.upd_step = xmalloc(nupd * sizeof *s.upd_step);
    for (size_t i = 0; i < nupd; i++)
        s.upd_step[i] = -1;
    s.step_end = xmalloc((size_t)s.k * sizeof *s.step_end);
    for (int i = 0; i < s.k; i++)
        s.step_end[i] = 0;
    simflow_run(&s);
    st = s.st;
    if (st == CP_OK)
        st = finished(&s, err);
    if (st == CP_OK)
        st = results(&s, err);
    sim_free(&s);
    return st;
}
