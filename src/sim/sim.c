/* sim.c - the weight-streaming pipeline as discrete events (model: sim.h).
 *
 * Each component serves its packets in one fixed order.  A component
 * starts a packet at an event; starting fixes when it ends, tells its
 * consumers when the packet's first and last chunks reach them, and tells
 * its suppliers when their buffer slot frees.  A component is queued for its
 * next start once every supplier has sent it the packet, every consumer has
 * taken the previous one, and (MemoryX egress) the packet's weights have
 * been updated. */
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../spec/tfm.h"
#include "evq.h"

const char *const sim_comp_name[SIM_NCOMP] = {"memoryx_egress",  "swarmx_down",   "system_ingress",
                                              "compute",         "system_egress", "swarmx_up",
                                              "memoryx_ingress", "update"};

/* Which packets a component serves. */
enum serves {
    SERVE_ALL, /* every packet                                          */
    SERVE_BWD, /* backward: gradients                                   */
    SERVE_ACT, /* backward, and forward packets that offload activations */
    SERVE_UPD, /* backward in the last micro-batch: updates             */
    SERVE_N
};

enum layer_kind { LY_EMBED, LY_BLOCK, LY_LOGITS };

struct packet {
    int layer, mb, pkt, npkt;
    uint8_t bwd, upd, act; /* act: a forward block packet with offload */
    int gate;         /* forward: the update packet it waits for; -1 none */
    double w_bytes;   /* weights streamed                                 */
    double g_bytes;   /* gradients streamed (backward)                    */
    double flops_tok; /* wafer FLOP per token of the micro-batch          */
    double update_s;  /* MemoryX update (last micro-batch), all units     */
};

/* A component: a link or an engine.  Its consumers all serve the same
 * packets, so the packets it sends them are numbered alike (sent_n). */
struct comp {
    uint8_t kind, serves;
    uint8_t queued, shard; /* shard: a MemoryX unit's 1/U share            */
    uint8_t mx_out;        /* a MemoryX egress link (gated by the update)   */
    int32_t index;         /* within its class: system, node or unit        */
    double bw_Bps, lat_s;  /* links: bandwidth; latency before it may start */
    int32_t up0, nup, dn0, ndn;
    int64_t pos, limit; /* next packet in its sequence; sequence length   */
    int64_t sent_n;     /* packets sent to its consumers                   */
    double free_s;      /* its previous packet ends                       */
    int32_t gate_wait;  /* MemoryX egress: update index + 1 it waits for  */
    double busy_last_s, bytes_last, sent, recv;
};

/* One position in a component's ring of s->w: the packet at its own
 * position pos (arrivals; once started, what its suppliers' flow control
 * reads), and the packet it sent as its consumers' position pos. */
struct slot {
    int32_t arrived;         /* suppliers that have sent it                 */
    int32_t taken;           /* sent: consumers that have started it        */
    double first_s, last_s;  /* its first and last chunk reach this one     */
    double q_in_s;           /* the slowest supplier's time per chunk       */
    double end_s;            /* started: when it ends                       */
    double tau_s;            /* started: time per chunk of its bytes        */
    double chunks;           /* started: its bytes in chunks (a fraction)   */
    double out_bytes;        /* sent: its bytes                             */
};

struct sim {
    const struct sim_config *cfg;
    const struct hw_desc *hw;
    const struct wl_desc *wl;
    int n, units, k;
    struct comp *c;
    int nc;
    struct slot *ring; /* [component][w] */
    int w;             /* ring positions: packets a buffer may hold, + 1 */
    int32_t *ups, *dns;
    int nups, ndns;
    struct packet *pk;
    int npk;
    int *seq[SERVE_N];
    int seqlen[SERVE_N];
    int mx_out0, update0;
    double *upd_end; /* [unit][update index] */
    int *upd_step;
    double *step_end;
    double *factor;      /* [system] compute-time factor (jitter)        */
    double tokens_seq;
    long long g_seqs;
    int offload;         /* block inputs leave and return over the ports */
    int recompute;       /* blocks rerun their forward in the backward   */
    double ckpt_seq_bytes; /* offloaded per sequence per block         */
    double overhead_s;   /* idle before each component's first packet of a step */
    struct evq q;
    struct sim_result *r;
    cp_status st;
    struct cp_error *err;
};

/* ---- topology ---------------------------------------------------------- */

static int add_comp(struct sim *s, int kind, int serves, int index, double bw, double lat)
{
    struct comp *x = &s->c[s->nc];
    *x = (struct comp){.kind = (uint8_t)kind, .serves = (uint8_t)serves, .index = index};
    x->bw_Bps = bw;
    x->lat_s = lat;
    return s->nc++;
}

/* Items of one tree level: a system or a node, with its down (in) and up
 * (out) links and, for a system, its compute engine. */
struct item {
    int in, out; /* link components, -1 for the top item              */
    int compute; /* systems only, else -1                             */
    int is_node;
    int child0, nchild; /* node: its children in the level below       */
};

/* Adjacency is built as lists of (from, to) pairs first, then packed. */
struct edge {
    int from, to;
};

static int cmp_from(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->from != y->from ? (x->from > y->from) - (x->from < y->from)
                              : (x->to > y->to) - (x->to < y->to);
}

static int cmp_to(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->to != y->to ? (x->to > y->to) - (x->to < y->to)
                          : (x->from > y->from) - (x->from < y->from);
}

static void pack_edges(struct sim *s, struct edge *e, int ne)
{
    qsort(e, (size_t)ne, sizeof *e, cmp_from);
    for (int i = 0; i < ne; i++) {
        struct comp *x = &s->c[e[i].from];
        if (x->ndn++ == 0)
            x->dn0 = s->ndns;
        s->dns[s->ndns++] = e[i].to;
    }
    qsort(e, (size_t)ne, sizeof *e, cmp_to);
    for (int i = 0; i < ne; i++) {
        struct comp *x = &s->c[e[i].to];
        if (x->nup++ == 0)
            x->up0 = s->nups;
        s->ups[s->nups++] = e[i].from;
    }
}

static double link_bw(const struct sim *s, int to_system)
{
    double bw = s->hw->swx.link_bw_Bps;
    return to_system ? fmin(bw, s->hw->wse.io_bw_Bps) : bw;
}

/* Build components and links.  Levels: systems, then nodes grouping up to
 * fanout items of the level below, until one item is left (with several
 * MemoryX units and one system, one node joins them). */
static void build(struct sim *s)
{
    int n = s->n, k = (int)s->hw->swx.fanout, u = s->units;
    int nodes = 0;
    for (int len = n, extra = n == 1 && u > 1; len > 1 || extra; extra = 0) {
        len = (len + k - 1) / k;
        nodes += len;
        s->r->depth++;
    }
    s->r->nodes = nodes;
    int items = n + nodes;
    int maxc = 3 * n + 2 * nodes + 3 * u;
    s->c = xmalloc((size_t)maxc * sizeof *s->c);
    struct item *it = xmalloc((size_t)items * sizeof *it);
    int maxe = 4 * items + 4 * u * (k + 1) + 8;
    struct edge *e = xmalloc((size_t)maxe * sizeof *e);
    int ne = 0;
    double hop = s->hw->swx.hop_latency_s;
    /* A system's egress also carries the offloaded activations out in the
     * forward pass. */
    int egress = s->offload ? SERVE_ACT : SERVE_BWD;

    /* Links and engines of every item; the top item's links are MemoryX's. */
    for (int i = 0; i < items; i++) {
        int sys = i < n, top = i == items - 1;
        it[i] = (struct item){-1, -1, -1, !sys, 0, 0};
        if (sys)
            it[i].compute = add_comp(s, SIM_COMPUTE, SERVE_ALL, i, 0, 0);
        if (!top) {
            it[i].in = add_comp(s, sys ? SIM_SYS_INGRESS : SIM_SWX_DOWN, SERVE_ALL, i,
                                link_bw(s, sys), hop);
            it[i].out = add_comp(s, sys ? SIM_SYS_EGRESS : SIM_SWX_UP, sys ? egress : SERVE_BWD,
                                 i, link_bw(s, sys), sys ? 0 : hop);
        }
    }
    /* Parents: level by level, consecutive groups of k. */
    for (int lo = 0, len = n, next = n, extra = n == 1 && u > 1; len > 1 || extra; extra = 0) {
        int parents = (len + k - 1) / k;
        for (int p = 0; p < parents; p++) {
            struct item *P = &it[next + p];
            P->child0 = lo + p * k;
            P->nchild = (p == parents - 1) ? len - p * k : k;
        }
        lo = next;
        next += parents;
        len = parents;
    }
    /* Down: a node's in-link feeds its children's in-links (a system's
     * in-link feeds its compute); up: children's out-links feed the node's
     * out-link, a system's compute feeds its out-link. */
    for (int i = 0; i < items; i++) {
        struct item *I = &it[i];
        if (I->compute >= 0) {
            if (I->in >= 0)
                e[ne++] = (struct edge){I->in, I->compute};
            if (I->out >= 0)
                e[ne++] = (struct edge){I->compute, I->out};
        }
        for (int c = I->child0; c < I->child0 + I->nchild && I->is_node; c++) {
            if (I->in >= 0)
                e[ne++] = (struct edge){I->in, it[c].in};
            if (I->out >= 0)
                e[ne++] = (struct edge){it[c].out, I->out};
        }
    }
    /* MemoryX units at the top item. */
    struct item *T = &it[items - 1];
    double share = s->hw->mx.bw_Bps / u;
    int top_sys = !T->is_node;
    s->mx_out0 = s->nc;
    for (int j = 0; j < u; j++)
        s->c[add_comp(s, top_sys ? SIM_SYS_INGRESS : SIM_MX_EGRESS, SERVE_ALL, j,
                      fmin(share, link_bw(s, top_sys)), 0)]
            .mx_out = 1;
    int mx_in0 = s->nc;
    for (int j = 0; j < u; j++)
        add_comp(s, top_sys ? SIM_SYS_EGRESS : SIM_MX_INGRESS, top_sys ? egress : SERVE_BWD, j,
                 fmin(share, link_bw(s, top_sys)), top_sys ? 0 : hop);
    s->update0 = s->nc;
    for (int j = 0; j < u; j++)
        add_comp(s, SIM_UPDATE, SERVE_UPD, j, 0, 0);
    for (int i = s->mx_out0; i < s->nc; i++)
        s->c[i].shard = 1;
    for (int j = 0; j < u; j++) {
        if (top_sys) {
            e[ne++] = (struct edge){s->mx_out0 + j, T->compute};
            e[ne++] = (struct edge){T->compute, mx_in0 + j};
        } else {
            for (int c = T->child0; c < T->child0 + T->nchild; c++) {
                e[ne++] = (struct edge){s->mx_out0 + j, it[c].in};
                e[ne++] = (struct edge){it[c].out, mx_in0 + j};
            }
        }
        e[ne++] = (struct edge){mx_in0 + j, s->update0 + j};
    }
    s->ups = xmalloc((size_t)ne * sizeof *s->ups);
    s->dns = xmalloc((size_t)ne * sizeof *s->dns);
    pack_edges(s, e, ne);
    free(e);
    free(it);
    for (int i = 0; i < s->nc; i++)
        s->r->count[s->c[i].kind]++;
}

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

static int layer_kind(const struct sim *s, int layer)
{
    return layer == 0 ? LY_EMBED : layer > (int)s->wl->layers ? LY_LOGITS : LY_BLOCK;
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
        s->r->micro_batches = 1;
    } else if (store > 0) {
        double held = floor(store / tfm_ckpt_bytes_per_seq(wl));
        s->offload = 1;
        s->r->store_seqs = held;
        s->r->micro_batches = held >= 1 ? ceil(most / held) : most;
    } else {
        s->r->micro_batches = (fit < 1 || most <= 1) ? most : ceil(most / fit);
    }
    s->recompute = wl->recompute || s->offload;
    s->r->offload = s->offload;
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

/* Sequences system i runs in micro-batch mb: the batch dealt as evenly as
 * possible over systems, the extra sequences to the slowest systems (the
 * highest indices), and then over micro-batches. */
static long long seqs_of(const struct sim *s, int i, int mb)
{
    long long n = s->n, m = (long long)s->r->micro_batches;
    long long mine = s->g_seqs / n + (i >= n - s->g_seqs % n);
    return mine / m + (mb < mine % m);
}

/* ---- the event engine -------------------------------------------------- */

static const struct packet *packet_at(const struct sim *s, const struct comp *x, int64_t pos,
                                      int *step)
{
    int len = s->seqlen[x->serves];
    *step = (int)(pos / len);
    return &s->pk[s->seq[x->serves][pos % len]];
}

static int serves(const struct comp *x, const struct packet *p)
{
    switch (x->serves) {
    case SERVE_ALL:
        return 1;
    case SERVE_BWD:
        return p->bwd;
    case SERVE_ACT:
        return p->bwd || p->act;
    default:
        return p->upd;
    }
}

static int is_up(int kind)
{
    return kind == SIM_SYS_EGRESS || kind == SIM_SWX_UP || kind == SIM_MX_INGRESS;
}

/* Offloaded activation bytes packet p moves on x: a block's input, out of
 * the system in the forward pass, back in beside its weights in the
 * backward pass; 0 elsewhere.  A system's ports are its in- and egress
 * links (with one system and one MemoryX unit, MemoryX's links). */
static double act_bytes(const struct sim *s, const struct comp *x, const struct packet *p)
{
    if (!s->offload || layer_kind(s, p->layer) != LY_BLOCK ||
        !(x->kind == SIM_SYS_INGRESS ? p->bwd : x->kind == SIM_SYS_EGRESS && !p->bwd))
        return 0;
    return (double)seqs_of(s, x->index, p->mb) * s->ckpt_seq_bytes;
}

/* Work of packet p on x: seconds, and bytes moved (or consumed).  The
 * activations share the system's port at its I/O bandwidth with the
 * weights or gradients, which keep their own link's cap. */
static double work_of(const struct sim *s, const struct comp *x, const struct packet *p,
                      double *bytes)
{
    double div = x->shard ? s->units : 1;
    switch (x->kind) {
    case SIM_COMPUTE: {
        *bytes = p->w_bytes;
        double t = (double)seqs_of(s, x->index, p->mb) * s->tokens_seq;
        double u = hw_util(&s->hw->wse, t);
        double f = s->factor[x->index];
        return u > 0 ? f * p->flops_tok * t / (s->hw->wse.peak_flops * u) : 0;
    }
    case SIM_UPDATE:
        *bytes = p->g_bytes / div;
        return p->update_s;
    default: {
        double b = (is_up(x->kind) ? p->g_bytes : p->w_bytes) / div, act = act_bytes(s, x, p);
        *bytes = b + act;
        return act > 0 ? fmax(b / x->bw_Bps, (b + act) / s->hw->wse.io_bw_Bps) : b / x->bw_Bps;
    }
    }
}

/* x's ring slot for position pos (of its own sequence, or of its
 * consumers' when x sends). */
static struct slot *slot_of(const struct sim *s, const struct comp *x, int64_t pos)
{
    return &s->ring[(size_t)(x - s->c) * (size_t)s->w + (size_t)(pos % s->w)];
}

/* When a supplier may start sending c the packet at c's position kc, with
 * c's buffer of SIM_BUFFER_CHUNKS chunks (a packet smaller than a chunk
 * takes its share of one) holding what c has not yet consumed of the
 * packets before kc, and the hop latency ahead of it.  0 while that is not
 * known (c has yet to start the packet it hangs on, or its ring is full);
 * else 1 with *t. */
static int credit(const struct sim *s, const struct comp *c, int64_t kc, double *t)
{
    double room = SIM_BUFFER_CHUNKS;
    *t = 0;
    if (kc >= c->pos + s->w)
        return 0;
    for (int64_t j = kc - 1; j >= 0 && j > kc - s->w; j--) {
        const struct slot *q = slot_of(s, c, j);
        double n = q->chunks;
        if (j >= c->pos) {
            int step;
            double b;
            work_of(s, c, packet_at(s, c, j, &step), &b);
            n = b / s->hw->swx.chunk_bytes;
        }
        if (n < room) {
            room -= n;
            continue;
        }
        if (j >= c->pos)
            return 0;
        *t = q->end_s - room * q->tau_s - c->lat_s;
        return 1;
    }
    return 1;
}

/* Queue x's next start if everything it needs is known. */
static void try_queue(struct sim *s, struct comp *x)
{
    if (x->queued || x->pos >= x->limit)
        return;
    const struct slot *in = slot_of(s, x, x->pos);
    if (in->arrived < x->nup)
        return;
    int step;
    const struct packet *p = packet_at(s, x, x->pos, &step);
    /* What the previous step holds it to (its own previous packet, its
     * consumers' buffers, the update it waits for) counts step_overhead later
     * for a step's first packet; the update for every gated packet. */
    double t = x->free_s;
    if (x->pos % s->seqlen[x->serves] == 0)
        t += s->overhead_s;
    if (x->mx_out && p->gate >= 0 && step > 0) {
        size_t g = (size_t)x->index * (size_t)s->seqlen[SERVE_UPD] + (size_t)p->gate;
        if (s->upd_step[g] != step - 1) {
            x->gate_wait = p->gate + 1;
            return;
        }
        t = fmax(t, s->upd_end[g] + s->overhead_s);
    }
    t = fmax(t, in->first_s);
    if (x->ndn > 0 && serves(&s->c[s->dns[x->dn0]], p)) {
        for (int i = 0; i < x->ndn; i++) {
            double tc;
            if (!credit(s, &s->c[s->dns[x->dn0 + i]], x->sent_n, &tc))
                return;
            t = fmax(t, tc);
        }
    }
    x->queued = 1;
    evq_push(&s->q, t, (int32_t)(x - s->c));
}

static void record(struct sim *s, struct comp *x, const struct packet *p, int64_t pos, int step,
                   double now, double end, double w, double bytes)
{
    int last = step == (int)s->cfg->steps - 1;
    if (last) {
        x->busy_last_s += w;
        x->bytes_last += bytes;
    }
    if (x->kind == SIM_SWX_UP || (x->kind == SIM_MX_INGRESS && x->index == 0))
        s->r->reductions++;
    if (x->shard && is_up(x->kind) && p->bwd)
        s->r->mx_received++;
    if (x->kind == SIM_UPDATE) {
        int k = (int)(pos % s->seqlen[SERVE_UPD]);
        size_t g = (size_t)x->index * (size_t)s->seqlen[SERVE_UPD] + (size_t)k;
        s->upd_end[g] = end;
        s->upd_step[g] = step;
        if (end > s->step_end[step])
            s->step_end[step] = end;
        struct comp *out = &s->c[s->mx_out0 + x->index];
        if (out->gate_wait == k + 1) {
            out->gate_wait = 0;
            try_queue(s, out);
        }
    }
    if (s->cfg->trace && s->st == CP_OK) {
        struct sim_interval iv = {now,
                                  end,
                                  (enum sim_comp)x->kind,
                                  x->index,
                                  x->kind == SIM_UPDATE ? "update"
                                  : p->bwd              ? "backward"
                                                        : "forward",
                                  step,
                                  p->mb,
                                  p->layer,
                                  p->pkt,
                                  bytes};
        if (s->cfg->trace(s->cfg->trace_ctx, &iv))
            s->st = cp_fail(s->err, CP_EIO, "trace: %s", "could not be written");
    }
}

/* Hand the packet x started at now (ending at end, q per chunk) to its
 * consumers. */
static void send(struct sim *s, struct comp *x, double now, double end, double q, double bytes)
{
    struct slot *o = slot_of(s, x, x->sent_n);
    o->out_bytes = bytes;
    o->taken = 0;
    for (int i = 0; i < x->ndn; i++) {
        struct comp *d = &s->c[s->dns[x->dn0 + i]];
        struct slot *in = slot_of(s, d, x->sent_n);
        in->arrived++;
        in->first_s = fmax(in->first_s, now + q + d->lat_s);
        in->last_s = fmax(in->last_s, end + d->lat_s);
        in->q_in_s = fmax(in->q_in_s, q);
        try_queue(s, d);
    }
    x->sent_n++;
}

/* x starts its next packet now. */
static void start(struct sim *s, struct comp *x, double now)
{
    int step;
    int64_t pos = x->pos;
    const struct packet *p = packet_at(s, x, pos, &step);
    struct slot *in = slot_of(s, x, pos);
    double bytes, w = work_of(s, x, p, &bytes);
    double n = bytes / s->hw->swx.chunk_bytes;
    double q = w / fmax(1, n), end = now + w;
    if (x->nup > 0)
        end = fmax(end, in->last_s + q);
    in->end_s = end;
    in->chunks = n;
    in->tau_s = n > 0 ? fmax(q, in->q_in_s) / fmin(1, n) : 0;
    in->arrived = 0;
    in->first_s = in->last_s = in->q_in_s = 0;
    x->queued = 0;
    x->pos++;
    x->free_s = end;
    x->sent += bytes;
    record(s, x, p, pos, step, now, end, w, bytes);
    /* Taken from the suppliers: their buffers free as x works. */
    for (int i = 0; i < x->nup; i++) {
        struct comp *u = &s->c[s->ups[x->up0 + i]];
        struct slot *o = slot_of(s, u, pos);
        if (++o->taken == u->ndn)
            u->recv += o->out_bytes; /* every receiver has taken the packet */
        try_queue(s, u);
    }
    if (x->ndn > 0 && serves(&s->c[s->dns[x->dn0]], p))
        send(s, x, now, end, q, bytes);
    else
        x->recv += bytes;
    try_queue(s, x);
}

static void run_events(struct sim *s)
{
    for (int i = 0; i < s->nc; i++) {
        struct comp *x = &s->c[i];
        x->limit = (int64_t)s->cfg->steps * s->seqlen[x->serves];
    }
    for (int i = 0; i < s->nc; i++)
        try_queue(s, &s->c[i]);
    struct evq_event e;
    while (s->st == CP_OK && evq_pop(&s->q, &e)) {
        s->r->events++;
        start(s, &s->c[e.who], e.t_s);
    }
}

/* Ring positions: enough for a buffer of SIM_BUFFER_CHUNKS chunks to hold
 * the smallest packets any link moves, and the one in flight; at most
 * SIM_MAX_WINDOW, and fewer when the rings would take more than
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
    double fit = floor(SIM_RING_BYTES / ((double)s->nc * sizeof *s->ring));
    s->w = (int)fmax(2, fmin(fmin(want, fit), SIM_MAX_WINDOW));
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
    build(&s);
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
    run_events(&s);
    st = s.st;
    if (st == CP_OK)
        st = finished(&s, err);
    if (st == CP_OK)
        results(&s);
    sim_free(&s);
    return st;
}
