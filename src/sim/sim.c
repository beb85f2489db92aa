/* sim.c - the weight-streaming pipeline as discrete events (model: sim.h):
 * the configuration, where the activations go, the packets of a step, and
 * the results.  The components are built in simtopo.c and run in
 * simflow.c. */
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../spec/tfm.h"
#include "simint.h"

const char *const sim_comp_name[SIM_NCOMP] = {"memoryx_egress",  "swarmx_down",   "system_ingress",
                                              "compute",         "system_egress", "swarmx_up",
                                              "memoryx_ingress", "update"};

const char *const sim_act_name[SIM_NACT] = {"wafer", "offload", "micro-batches"};

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

static double update_time(const struct sim *s, double params, double flash)
{
    const struct mx_spec *mx = &s->hw->mx;
    double flop_s = params * mx->update_flop_per_param / mx->update_flops;
    double bytes = 2 * params * state_per_param(s->wl);
    double dram_s = bytes * (1 - flash) / mx->dram_bw_Bps;
    double flash_s = bytes * flash / mx->flash_bw_Bps;
    return fmax(flop_s, dram_s + flash_s);
}

static void layer_costs(struct sim *s, struct layer_cost ly[3])
{
    const struct wl_desc *wl = s->wl;
    const struct hw_desc *hw = s->hw;
    double state = tfm_params(wl) * state_per_param(wl);
    double dram = fmin(s->cfg->memoryx_bytes, hw->mx.dram_bytes);
    double flash = state > dram ? (state - dram) / state : 0;
    s->r->flash_fraction = flash;
    double sp = s->cfg->sparsity;
    double cf = hw_sparse_compute(&hw->sp, sp);
    double wf = hw_sparse_stream(&hw->sp, sp, wl->weight_bytes);
    double gf = hw_sparse_stream(&hw->sp, sp, wl->grad_bytes);

    double embed = tfm_embed_params(wl);
    ly[LY_EMBED] = (struct layer_cost){
        embed * wl->weight_bytes, embed * wl->grad_bytes, update_time(s, embed, flash), {0, 0}};
    double mat = tfm_block_matrix_params(wl), other = tfm_block_params(wl) - mat;
    double f[TFM_NPASSES];
    for (int p = 0; p < TFM_NPASSES; p++)
        f[p] = tfm_block_flops(wl, (enum tfm_pass)p) - 2 * mat * (1 - cf);
    ly[LY_BLOCK] = (struct layer_cost){
        (mat * wf + other) * wl->weight_bytes,
        (mat * gf + other) * wl->grad_bytes,
        update_time(s, mat * cf + other, flash),
        {f[TFM_FWD], f[TFM_DELTA] + f[TFM_WGRAD] + (s->recompute ? f[TFM_FWD] : 0)}};
    double head = wl->tied_embeddings ? wl->vocab * wl->hidden : tfm_head_params(wl);
    ly[LY_LOGITS] =
        (struct layer_cost){head * wl->weight_bytes,
                            head * wl->grad_bytes,
                            update_time(s, tfm_head_params(wl), flash),
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

static void add_packet(struct sim *s, const struct layer_cost *ly, int layer, int mb, int p, int np,
                       int bwd)
{
    const struct layer_cost *L = &ly[layer_kind(s, layer)];
    int upd = bwd && mb == s->r->micro_batches - 1;
    struct packet *x = &s->pk[s->npk++];
    *x = (struct packet){.layer = layer,
                         .mb = mb,
                         .pkt = p,
                         .npkt = np,
                         .bwd = (uint8_t)bwd,
                         .upd = (uint8_t)upd,
                         .gate = -1,
                         .w_bytes = L->w_bytes / np,
                         .g_bytes = bwd ? L->g_bytes / np : 0,
                         .flops_tok = L->flops_tok[bwd] / np,
                         .update_s = upd ? L->update_s / np : 0};
    if (!bwd)
        x->gate = update_index(s, layer, gate_packet(s, p, np));
    x->act = !bwd && s->offload && layer_kind(s, layer) == LY_BLOCK;
}

static void build_packets(struct sim *s)
{
    struct layer_cost ly[3];
    layer_costs(s, ly);
    int l = (int)s->wl->layers, p0 = first_packets(s, &ly[LY_EMBED]);
    int m = (int)s->r->micro_batches;
    int per_pass = p0 + l + 1;
    s->npk = 0;
    s->pk = xmalloc((size_t)(2 * m * per_pass) * sizeof *s->pk);
    for (int mb = 0; mb < m; mb++) {
        for (int layer = 0; layer <= l + 1; layer++) {
            int np = layer == 0 ? p0 : 1;
            for (int p = 0; p < np; p++)
                add_packet(s, ly, layer, mb, p, np, 0);
        }
        for (int layer = l + 1; layer >= 0; layer--) {
            int np = layer == 0 ? p0 : 1;
            for (int p = 0; p < np; p++)
                add_packet(s, ly, layer, mb, p, np, 1);
        }
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

/* Where the activations the backward pass needs are kept, and in how many
 * micro-batches the most loaded system's share runs (sim.h):
 *  - wafer: the share's activations fit in SRAM beside the stream buffers
 *    (both directions): one pass;
 *  - offload (an activation store): every block input leaves and comes back
 *    over the system's ports and the block is recomputed; as many
 *    micro-batches as the store needs (one sequence at a time if it holds
 *    none);
 *  - micro-batches: as many as SRAM needs, one sequence at a time if none
 *    fits. */
static void plan_batch(struct sim *s)
{
    const struct hw_desc *hw = s->hw;
    const struct wl_desc *wl = s->wl;
    double most = ceil(s->cfg->global_seqs / s->n);
    double room = hw->wse.sram_bytes - 2 * SIM_BUFFER_CHUNKS * hw->swx.chunk_bytes;
    double fit = room > 0 ? floor(room / tfm_sram_per_seq(wl)) : 0;
    double store = hw->wse.act_store_bytes;
    s->r->max_seqs = fit;
    s->r->seqs_per_system = most;
    s->ckpt_seq_bytes = tfm_act_bytes_per_seq_block(wl, 1);
    if (most <= fit) {
        s->r->act = SIM_ACT_WAFER;
        s->r->micro_batches = 1;
    } else if (store > 0) {
        s->r->act = SIM_ACT_OFFLOAD;
        double held = floor(store / tfm_ckpt_bytes_per_seq(wl));
        s->offload = 1;
        s->r->store_seqs = held;
        s->r->micro_batches = held >= 1 ? ceil(most / held) : most;
    } else {
        s->r->act = SIM_ACT_MICRO;
        s->r->micro_batches = (fit < 1 || most <= 1) ? most : ceil(most / fit);
    }
    s->recompute = wl->recompute || s->offload;
    s->r->act_bytes = s->offload ? most * wl->layers * s->ckpt_seq_bytes : 0;
    s->g_seqs = (long long)s->cfg->global_seqs;
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
 * chunks to hold the smallest packets any link moves and the one after;
 * at most SIM_MAX_WINDOW, and fewer when the rings would take more than
 * SIM_RING_BYTES (a buffer then holds fewer small packets). */
static void plan_ring(struct sim *s)
{
    double least = INFINITY;
    for (int i = 0; i < s->npk; i++) {
        const struct packet *p = &s->pk[i];
        least = fmin(least, p->w_bytes / s->units);
        if (p->bwd)
            least = fmin(least, p->g_bytes / s->units);
    }
    double want = least > 0 ? ceil(SIM_BUFFER_CHUNKS * s->hw->swx.chunk_bytes / least) + 2 : 2;
    double cap = fmin(SIM_MAX_WINDOW, floor(SIM_RING_BYTES / ((double)s->nc * sizeof *s->ring)));
    s->w = 2;
    s->w_log2 = 1;
    while (s->w < want && 2 * s->w <= cap) {
        s->w *= 2;
        s->w_log2++;
    }
    size_t n = (size_t)s->nc * (size_t)s->w;
    s->ring = xmalloc(n * sizeof *s->ring);
    memset(s->ring, 0, n * sizeof *s->ring);
}

/* ---- configuration and results ---------------------------------------- */

void sim_config_init(struct sim_config *c, const struct hw_desc *hw, const struct wl_desc *wl)
{
    *c = (struct sim_config){.hw = hw, .wl = wl, .systems = 1, .units = 1};
    c->memoryx_bytes = hw->mx.capacity_bytes;
    c->overlap = hw->mx.boundary_overlap;
    c->global_seqs = wl->batch;
    c->steps = SIM_DEFAULT_STEPS;
}

static int whole_in(double v, double lo, double hi)
{
    return v >= lo && v <= hi && v == floor(v);
}

static cp_status check(const struct sim_config *c, struct cp_error *err)
{
    if (!whole_in(c->systems, 1, SIM_MAX_SYSTEMS))
        return cp_fail(err, CP_EINPUT, "--systems: %g is not a whole number in 1..%d", c->systems,
                       SIM_MAX_SYSTEMS);
    if (!whole_in(c->units, 1, SIM_MAX_UNITS))
        return cp_fail(err, CP_EINPUT, "--memoryx-units: %g is not a whole number in 1..%d",
                       c->units, SIM_MAX_UNITS);
    if (!whole_in(c->steps, 1, SIM_MAX_STEPS))
        return cp_fail(err, CP_EINPUT, "--steps: %g is not a whole number in 1..%d", c->steps,
                       SIM_MAX_STEPS);
    if (!whole_in(c->global_seqs, 1, 1e12))
        return cp_fail(err, CP_EINPUT, "--batch: %g is not a whole number of sequences",
                       c->global_seqs);
    if (!(c->sparsity >= 0 && c->sparsity <= 0.99))
        return cp_fail(err, CP_EINPUT, "--sparsity: %g is outside 0..0.99", c->sparsity);
    if (!(c->overlap >= 0 && c->overlap <= 1))
        return cp_fail(err, CP_EINPUT, "--overlap: %g is outside 0..1", c->overlap);
    if (!(c->memoryx_bytes > 0))
        return cp_fail(err, CP_EINPUT, "--memoryx: capacity must be positive");
    return CP_OK;
}

/* The packets of a step must fit in memory (and in an int). */
static cp_status check_size(const struct sim *s, struct cp_error *err)
{
    double per_pass = SIM_FIRST_PACKETS + s->wl->layers + 1;
    double packets = 2 * s->r->micro_batches * per_pass;
    if (!(packets <= SIM_MAX_PACKETS))
        return cp_fail(err, CP_EINPUT,
                       "--batch: %g sequences per system in %g micro-batches make up to %g "
                       "packets per step; the simulator takes at most %d",
                       s->r->seqs_per_system, s->r->micro_batches, packets, SIM_MAX_PACKETS);
    return CP_OK;
}

static void results(struct sim *s)
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
    cp_status st = check(c, err);
    if (st != CP_OK)
        return st;
    struct sim s = {.cfg = c, .hw = c->hw, .wl = c->wl, .r = r, .err = err};
    *r = (struct sim_result){0};
    s.n = (int)c->systems;
    s.units = (int)c->units;
    s.k = (int)c->steps;
    s.overhead_s = c->hw->wse.step_overhead_s;
    evq_init(&s.q);
    plan_batch(&s);
    if ((st = check_size(&s, err)) != CP_OK)
        return st;
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
        results(&s);
    sim_free(&s);
    return st;
}
