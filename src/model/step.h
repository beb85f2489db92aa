/* step.h - the time of one training step, layer by layer.
 *
 * The model (cerebras-plan(1), MODEL, says it in words):
 *  - Each system takes ceil(global_seqs / N) sequences.  Activations the
 *    backward pass needs are placed one of three ways:
 *    - wafer: every block's activations stay in SRAM;
 *    - recompute every k blocks: the input of every k-th block stays in
 *      SRAM, and the backward pass recomputes each segment of k blocks
 *      from it, holding that segment's activations.  For k = 1 a block is
 *      recomputed with the weights its backward pass streams in anyway;
 *      for k > 1 the segment's forward runs before its backward, so every
 *      block's weights stream in a third time;
 *    - offload: each block's input leaves on the system's port in the
 *      forward pass to the system's activation servers, comes back beside
 *      the block's weights in the backward pass, and the block is
 *      recomputed; SRAM holds one sequence's working set.
 *    Whatever SRAM (or the activation servers) cannot hold runs in m
 *    micro-batches; in each the weights stream in again and the gradients
 *    out.  ACT_AUTO takes the fastest placement that fits (the wafer is
 *    left out when the workload says recompute).
 *  - Activation servers per system: as given, else the hardware's
 *    servers_per_system (the published clusters: one), whatever the
 *    placement and the batch; offloaded, what they hold sets the
 *    micro-batch.  Their rate is min(system I/O, servers x server_network).
 *  - MemoryX: S servers, as given, or the fewest that (a) hold the state in
 *    DRAM, (b) feed the stream at the system and SwarmX rate and (c) update
 *    every layer within that layer's backward pass.  Weights stream at
 *    min(system I/O, SwarmX link, S x server_network); gradients also at
 *    most a SwarmX node's reduce_bandwidth / fanout when N > 1.  SwarmX
 *    replicates and reduces, so MemoryX moves one copy whatever N is.
 *  - Compute of every layer runs at the pace of the slowest of N systems:
 *    hw_slowest() = 1 + jitter x E[max of N standard normals].
 *  - A fixed step_overhead per step that nothing overlaps.
 *  - Layers: the embedding, l identical blocks, the logits layer.
 *    Forward of a layer: max(compute, weights in, checkpoint out).
 *    Backward: max(compute, weights and checkpoint in, gradients out), and
 *    in the last micro-batch also the layer's update on MemoryX (each
 *    server updates its 1/S share as the gradients arrive).  A segment's
 *    recomputed forward (k > 1): max(compute, weights in).
 *    A layer costs the slowest of its concurrent streams; the step sums the
 *    layers.
 *  - Exposed latency, once per step, at the iteration boundary: the next
 *    step's first layer waits for its updated weights.  Updates run chunk
 *    by chunk as gradients arrive, so what is exposed is the last chunk's
 *    trip up the tree (drain: SwarmX latency), its update on one server
 *    (boundary) and the first chunk's trip down (fill: SwarmX latency + one
 *    chunk at the stream rate), less what the overlap hides: overlap x the
 *    first layer's backward time, when its next forward may start that
 *    much early. */
#ifndef CP_STEP_H
#define CP_STEP_H

#include <stddef.h>

#include "../desc/tfm.h"
#include "cluster.h"

enum step_res {
    STEP_COMPUTE,
    STEP_STREAM_IN,
    STEP_STREAM_OUT,
    STEP_UPDATE,
    STEP_LATENCY,
    STEP_OVERHEAD,
    STEP_NRES
};
extern const char *const step_res_name[STEP_NRES];

/* The links a stream's rate is the minimum of.  MemoryX counts only when
 * its servers are given: sized servers are as many as the stream needs. */
enum step_link { STEP_LINK_IO, STEP_LINK_SWARMX, STEP_LINK_MEMORYX, STEP_LINK_REDUCE,
                 STEP_NLINKS };
/* The key (or keys) that sets each link's rate, e.g. "system.io_bandwidth". */
extern const char *const step_link_key[STEP_NLINKS];


struct step_result {
    double local_seqs;          /* sequences per step on the most loaded system: ceil(G / N) */
    enum act_mode act;          /* where activations live (never ACT_AUTO)        */
    double act_k;               /* recompute: checkpoint every k blocks; offload: 1 */
    int recompute;              /* blocks recomputed in the backward pass         */
    double sram_per_seq;        /* SRAM one sequence needs in this placement      */
    double max_seqs;            /* sequences whose activations fit in SRAM        */
    int sram_fits;              /* the wafer holds one sequence of this placement */
    int act_fits;               /* the activation servers hold one sequence       */
    double ckpt_per_seq;        /* offloaded bytes of one sequence (block inputs) */
    double act_servers;         /* activation servers per system (offload only)   */
    double store_seqs;          /* sequences whose checkpoints they hold          */
    double act_bw;              /* bytes/s to and from them                       */
    double act_bytes;           /* offloaded per system per step (out, and back)  */
    double mx_servers;          /* MemoryX servers                                */
    double mx_hold, mx_stream, mx_update; /* servers each need sets (auto sizing) */
    double slowest;             /* compute factor of the slowest system           */
    double block_stream_bytes;  /* smallest stream of a block per micro-batch:
                                   weights in, gradients out, checkpoint     */
    double micro_batches;       /* m                                             */
    double micro_tokens;        /* tokens per system per micro-batch             */
    double stream_bw;           /* bytes/s of the weight stream                   */
    double grad_bw;             /* bytes/s of the gradient stream                 */
    unsigned stream_bind;       /* links (1u << enum step_link) at the weight rate */
    unsigned grad_bind;         /* links at the gradient rate                     */
    double flash_fraction;      /* of MemoryX state, on flash                     */
    double pass_s[TFM_NPASSES]; /* wafer compute per pass, whole step        */
    double recompute_s;         /* the recomputed forward, whole step             */
    double busy[STEP_NRES];     /* time each resource works, whole step      */
    double critical[STEP_NRES]; /* time each resource sets the pace; sums to step_s */
    double fill_s, drain_s, boundary_s; /* boundary: update of one chunk */
    double first_bwd_s;                 /* first layer's backward, last micro-batch */
    double hidden_s;                    /* hidden by the overlap; busy[STEP_LATENCY] =
                                           fill + drain + boundary - hidden */
    double step_s;
    enum step_res bottleneck; /* largest critical[] */
};

/* c must have passed cluster_check(). */
void step_eval(const struct cluster *c, struct step_result *r);
/* The same with tfm_figures() of c->wl worked out by the caller.  tf_gen
 * is 0, or a number the calling thread gives only to one workload's
 * figures: two calls with the same nonzero tf_gen have workloads equal in
 * every field tfm_figures() reads, and so the same tf (train.c numbers
 * the figures it keeps); the step then does not compare them again. */
void step_eval_figs(const struct cluster *c, const struct tfm_figs *tf, unsigned long tf_gen,
                    struct step_result *r);

/* "recompute:4", "offload", ... for r's placement.  Returns buf. */
const char *step_act_label(const struct step_result *r, char *buf, size_t n);

/* "system.io_bandwidth;swarmx.link_bandwidth" for the links in bind, or ""
 * for none.  Returns buf. */
const char *step_link_names(unsigned bind, char *buf, size_t n);

/* SRAM bytes set aside for double-buffered chunks in both directions. */
double step_buffer_bytes(const struct hw_desc *hw);

#endif
