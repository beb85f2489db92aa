/* step.h - the time of one training step, layer by layer.
 *
 * The model (cerebras-plan(1), MODEL, says it in words):
 *  - Each system takes ceil(global_seqs / N) sequences.  Activations:
 *    - wafer: every activation the backward pass needs, for the whole local
 *      batch, fits in SRAM beside the stream buffers: one pass per step;
 *    - offload (the hardware has an activation store, act_store > 0): the
 *      wafer holds the working set of the layer in flight (one sequence's
 *      block activations and logits at least); each block's input leaves
 *      on the system's egress in the forward pass, comes back beside the
 *      block's weights in the backward pass, and the block is recomputed
 *      from it.  The local batch runs in one pass unless the store cannot
 *      hold its checkpoints: then in m micro-batches of what it holds;
 *    - micro-batches (no store): m micro-batches of what fits in SRAM.
 *    In each micro-batch the weights stream in twice (forward and
 *    backward) and the gradients out once; the update runs once per step.
 *  - Compute of every layer runs at the pace of the slowest of N systems:
 *    hw_slowest() = 1 + jitter x E[max of N standard normals].
 *  - A fixed step_overhead per step that nothing overlaps.
 *  - Layers: the embedding, l identical blocks, the logits layer.  The
 *    stream rate is min(system I/O, SwarmX link, MemoryX bandwidth): SwarmX
 *    replicates weights and reduces gradients, so MemoryX moves one copy
 *    whatever N is.
 *  - Forward of a layer: max(compute, weights in, checkpoint out).
 *    Backward (delta and weight-gradient passes, and the recomputed
 *    forward): max(compute, weights and checkpoint in, gradients out), and
 *    in the last micro-batch also the MemoryX update of that layer, which
 *    runs as its gradients arrive.  The checkpoint terms are 0 unless the
 *    activations are offloaded; they use the system's port
 *    (io_bandwidth), the weights and gradients the stream rate.
 *    A layer costs the slowest of its concurrent streams; the step sums the
 *    layers.
 *  - Exposed latency, once per step, at the iteration boundary: the next
 *    step's first layer waits for its updated weights.  Updates run chunk
 *    by chunk as gradients arrive, so what is exposed is the last chunk's
 *    trip up the tree (drain: SwarmX latency), its update (boundary) and the
 *    first chunk's trip down (fill: SwarmX latency + one chunk at the stream
 *    rate), less what the overlap hides: overlap x the first layer's
 *    backward time, when its next forward may start that much early. */
#ifndef CP_STEP_H
#define CP_STEP_H

#include "../spec/tfm.h"
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

/* Where the activations for the backward pass are kept. */
enum step_act { STEP_ACT_WAFER, STEP_ACT_OFFLOAD, STEP_ACT_MICRO, STEP_NACT };
extern const char *const step_act_name[STEP_NACT];

struct step_result {
    double local_seqs;          /* sequences per step on the most loaded system: ceil(G / N) */
    double max_seqs;            /* sequences per system whose activations fit in SRAM */
    enum step_act act;          /* where activations live                         */
    int recompute;              /* blocks recomputed in the backward pass         */
    int sram_fits;              /* the wafer holds what the placement needs       */
    int act_fits;               /* the store holds one sequence's checkpoints     */
    double ckpt_per_seq;        /* offloaded bytes of one sequence (block inputs) */
    double working_per_seq;     /* SRAM working set of one sequence, one layer    */
    double store_seqs;          /* sequences whose checkpoints the store holds    */
    double act_bytes;           /* offloaded per system per step (out, and back)  */
    double slowest;             /* compute factor of the slowest system           */
    double block_stream_bytes;  /* smallest stream of a block per micro-batch:
                                   weights in, gradients out, checkpoint     */
    double micro_batches;       /* m                                             */
    double micro_tokens;        /* tokens per system per micro-batch             */
    double stream_bw;           /* bytes/s of the weight and gradient streams     */
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

/* SRAM bytes set aside for double-buffered chunks in both directions. */
double step_buffer_bytes(const struct hw_desc *hw);

#endif
