/* simint.h - the timing simulator's insides, shared by sim.c (configuration,
 * packets, results), simtopo.c (the components and their links) and
 * simflow.c (the event engine).  Not for use outside src/sim. */
#ifndef CP_SIMINT_H
#define CP_SIMINT_H

#include <stdint.h>

#include "evq.h"
#include "sim.h"

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
    uint8_t rc;            /* a block's forward recomputed before its segment's
                              backward (recompute every k > 1 blocks)      */
    int gate;              /* forward: the update packet it waits for; -1 none */
    double w_bytes;        /* weights streamed                                 */
    double g_bytes;        /* gradients streamed (backward)                    */
    double flops_tok;      /* wafer FLOP per token of the micro-batch          */
    double update_s;       /* MemoryX update (last micro-batch): each unit's time
                              for its share                                */
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
    int32_t step, idx;  /* pos as step x (sequence length) + idx          */
    int64_t sent_n;     /* packets sent to its consumers                   */
    double free_s;      /* its previous packet ends                       */
    int32_t gate_wait;  /* MemoryX egress: update index + 1 it waits for  */
    double busy_last_s, bytes_last, sent, recv;
};

/* One position in a component's ring of s->w: the packet at its own
 * position pos (arrivals; once started, what its suppliers' flow control
 * reads), and the packet it sent as its consumers' position pos. */
struct slot {
    int32_t arrived;        /* suppliers that have sent it                 */
    int32_t taken;          /* sent: consumers that have started it        */
    double first_s, last_s; /* its first and last chunk reach this one     */
    double q_in_s;          /* the slowest supplier's time per chunk       */
    double end_s;           /* started: when it ends                       */
    double tau_s;           /* started: time per chunk of its bytes        */
    double chunks;          /* started: its bytes in chunks (a fraction)   */
    double out_bytes;       /* sent: its bytes                             */
};

struct sim {
    const struct sim_config *cfg;
    const struct hw_desc *hw;
    const struct wl_desc *wl;
    int n, units, k; /* systems, MemoryX units, steps                  */
    int fanout;      /* SwarmX fan-out, capped (simtopo_fanout)         */
    struct comp *c;
    int nc;
    struct slot *ring; /* [component][w] */
    int w, w_log2;     /* ring positions (a power of two): packets a buffer
                          may hold, and more                             */
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
    double *factor; /* [system] compute-time factor (jitter)        */
    double tokens_seq;
    long long g_seqs;
    int offload;           /* block inputs leave and return over the ports */
    int recompute;         /* blocks rerun their forward inside the backward */
    int segment;           /* k > 1: blocks whose forwards rerun before their
                              backward, as recompute packets; else 0       */
    double ckpt_seq_bytes; /* offloaded per sequence per block         */
    double act_Bps;        /* to and from the activation servers       */
    double overhead_s;     /* idle before each component's first packet of a step */
    struct evq q;
    struct sim_result *r;
    cp_status st;
    struct cp_error *err;
};

/* Kind of a layer: 0 the embedding, 1..l the blocks, l + 1 the logits. */
static inline int layer_kind(const struct sim *s, int layer)
{
    return layer == 0 ? LY_EMBED : layer > (int)s->wl->layers ? LY_LOGITS : LY_BLOCK;
}

/* Sequences system i runs in micro-batch mb: the batch dealt as evenly as
 * possible over systems, the extra sequences to the slowest systems (the
 * highest indices), and then over micro-batches. */
static inline long long seqs_of(const struct sim *s, int i, int mb)
{
    long long n = s->n, m = (long long)s->r->micro_batches;
    long long mine = s->g_seqs / n + (i >= n - s->g_seqs % n);
    return mine / m + (mb < mine % m);
}

/* The SwarmX tree over n systems with u MemoryX units and fan-out k, and
 * what simtopo_build makes of it, counted without building it. */
struct topo_shape {
    int depth, nodes;
    int top_children; /* of the top node; 0 if the top item is the one system */
    int comps, edges; /* components; links between them                     */
    double bytes;     /* what simtopo_build allocates                        */
};
void simtopo_shape(int n, int u, int k, struct topo_shape *t);

/* The fan-out the tree is built with for a description's fanout (whole,
 * >= 2) over n systems: any fan-out of max(n, 2) or more makes the same
 * tree, one node over all n, so it is capped there (and fits an int). */
int simtopo_fanout(double fanout, int n);

/* simtopo.c: the components, their links and the SwarmX tree (s->c, s->ups,
 * s->dns, s->mx_out0, s->update0; r->depth, r->nodes, r->count).  Needs
 * s->n, s->units, s->fanout, s->offload and the configuration's MemoryX
 * servers. */
void simtopo_build(struct sim *s);

/* simflow.c: every component serves every packet of every step; s->st is
 * CP_EIO if the trace callback stopped it. */
void simflow_run(struct sim *s);

#endif
