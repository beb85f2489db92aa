/* sim.h - discrete-event simulation of the weight-streaming pipeline (the
 * timing simulator behind `cerebras-plan simulate` and `crosscheck`).
 *
 * An independent second computation of the step time: it shares the
 * hardware and workload descriptions, the transformer arithmetic and what a
 * description says about execution (src/desc: utilisation, sparsity, order
 * statistics) with the analytic model (src/model), and nothing else;
 * neither includes the other.  Sources: sim.c (configuration, activations,
 * packets, results), simtopo.c (components), simflow.c (events), simint.h.
 *
 * What is simulated (cerebras-plan(1), SIMULATOR, says it in words):
 *  - Components: MemoryX is S servers (the caller sizes them) over which
 *    every layer's state is sharded evenly, simulated as U units (U <= S,
 *    the simulation's grain: a unit stands for S / U servers' network and
 *    update rates, which need not be whole), each with an egress link, an
 *    ingress link and an update engine, holding 1/U of every layer; a tree
 *    of SwarmX nodes of the configured fan-out over the N systems (the
 *    systems are the leaves; every level groups up to fanout items, so every
 *    system sits at depth ceil(log_fanout N)); each system with an ingress
 *    link, a compute engine and an egress link (its I/O port, one link each
 *    way).  Every link has a bandwidth: the SwarmX link, capped by the
 *    system I/O at a system and by the unit's S / U x server_network at
 *    MemoryX; a link leaving a SwarmX node adds the hop latency.  A node
 *    that sums c >= 2 children's gradients does so at reduce_bandwidth in
 *    all, so its sum leaves (up a link, or into the MemoryX units) at most
 *    reduce_bandwidth / c; a node with one child only forwards.
 *  - Work moves as packets: one per block layer and pass, the first layer
 *    (the embedding) split into up to SIM_FIRST_PACKETS packets of at least
 *    one chunk so that the iteration boundary is resolved.  A packet is a
 *    train of SwarmX chunks (one piece if it is smaller than a chunk): a
 *    component may start on it once its first chunk has reached it (store
 *    and forward per chunk), and cannot finish before its last chunk has
 *    arrived plus one chunk of its own work.  The MemoryX servers hold the
 *    state striped chunk by chunk, so all of them update a layer at once,
 *    but a packet's last chunk (or the whole of a unit's share, if
 *    smaller) is applied by one server alone: what waits for the update
 *    (the next step's forward, the step's end) waits for that.
 *  - Flow control by bytes: every component has a buffer of
 *    SIM_BUFFER_CHUNKS chunks in front of it (the wafer's stream buffers,
 *    a SwarmX node's store-and-forward buffers); a supplier may start a
 *    packet once the bytes its consumer has still to take in of the packets
 *    before it fit in that buffer, the hop latency ahead.  So a faster
 *    upstream waits (back-pressure) and layers much larger than a chunk run
 *    in lock step, while packets smaller than a chunk queue several to a
 *    buffer (at most SIM_MAX_WINDOW) instead of one at a time.
 *  - A step: for each micro-batch, the forward pass streams every layer's
 *    weights to every system in order; the backward pass streams them again
 *    in reverse, each system computes its share and sends the weight
 *    gradients up; every SwarmX node reduces its children's gradients;
 *    MemoryX accumulates them, and in the last micro-batch updates each
 *    packet's parameters as it arrives.  The next step's forward of a
 *    layer's packet j waits for the update of packet max(j, ceil((1 -
 *    overlap) P) - 1) of that layer: overlap 0 waits for the whole layer.
 *  - Step overhead: every component starts its first packet of a step
 *    step_overhead after it could otherwise (its previous packet, its
 *    consumer's buffer and, at MemoryX, the update it waits for), so every
 *    step, the first included, is longer by exactly step_overhead.
 *  - Jitter: system i (from 0) computes 1 + jitter x hw_order_stat(i + 1,
 *    N) times as long as the description says (the expected order
 *    statistics of N normal draws); the tree's broadcast and reduce hold the
 *    others to the slowest, which is system N - 1.
 *  - The global batch is sharded in whole sequences: systems get G/N
 *    rounded down or up, the extra sequences going to the slowest systems.
 *    The caller says where the activations the backward pass needs are
 *    kept; the SRAM one sequence then needs beside the stream buffers (both
 *    directions), of l blocks with a block input `in` and a block's full
 *    activations `full` per sequence, and the logits:
 *     - wafer: every block's activations stay in SRAM: l x full + logits;
 *     - recompute every k blocks: every k-th block input stays in SRAM and
 *       the backward pass rebuilds each segment of k blocks from it:
 *       ceil(l / k) x in + k x full + logits.  With k = 1 a block's forward
 *       is recomputed inside its backward, from the weights that pass
 *       streams in anyway; with k > 1, before each segment's backward its
 *       blocks' forwards run again in order, each streaming the block's
 *       weights in a third time (a "recompute" packet);
 *     - offload: each block's input leaves on the system's egress in the
 *       block's forward pass to the system's activation servers and comes
 *       back on its ingress beside the block's weights in the backward
 *       pass, where the block is recomputed; SRAM holds one sequence's
 *       working set, full + logits.  The activations move at the servers'
 *       rate, min(system I/O, A x server_network), and share the port's
 *       I/O bandwidth with the weights or gradients, which keep their own
 *       link's cap.
 *    Every system runs its share as m micro-batches, the same m on every
 *    system, set by the most loaded one's ceil(G/N) sequences: as many as
 *    SRAM needs (one sequence at a time if not one fits), or with offload
 *    as many as the A x server_memory of activation servers need for the
 *    block inputs (one sequence at a time if they hold none).
 *  - MemoryX state fills the servers' DRAM first and the rest goes to
 *    their flash (none unless server_flash > 0), the same share of every
 *    parameter; an update reads and writes the state (the DRAM part at
 *    server_memory_bandwidth, then the flash part at server_flash_bandwidth)
 *    or is bound by its FLOPs at server_update_flops, each server on its
 *    1/S of the layer.  State beyond what DRAM and flash hold (a run the
 *    caller should refuse) is timed as if it were in DRAM.
 * The step time reported is the time between the ends of the last two
 * steps' updates (steady state once steps >= 2). */
#ifndef CP_SIM_H
#define CP_SIM_H

#include <stddef.h>

#include "../base/status.h"
#include "../desc/hw.h"
#include "../desc/wl.h"

/* Packets the first layer is split into (simulation resolution, not
 * hardware): enough that one packet of the boundary is under 2% of it. */
#define SIM_FIRST_PACKETS 64
/* Chunks of buffer in front of every component: double buffering, the same
 * stream buffers the analytic model sets aside in SRAM. */
#define SIM_BUFFER_CHUNKS 2
#define SIM_MAX_SYSTEMS 1000000
#define SIM_MAX_UNITS 64
#define SIM_MAX_STEPS 1000
/* The largest global batch the simulator takes, in sequences: past it the
 * micro-batch arithmetic in sequences no longer counts exactly in the
 * int64/double mix it uses, and no published run comes within 1e5 of it. */
#define SIM_MAX_BATCH 1e12
#define SIM_DEFAULT_STEPS 3
/* Packets per step (both passes and the recomputed forwards, every
 * micro-batch, counting the first layer as SIM_FIRST_PACKETS): bounds the
 * memory of one run. */
#define SIM_MAX_PACKETS 2000000
/* Packets a component may have sent ahead of its consumer (its buffer
 * holds SIM_BUFFER_CHUNKS chunks, of small packets up to this many), and
 * the memory all such windows may take (simulation limits, not hardware). */
#define SIM_MAX_WINDOW 64
#define SIM_RING_BYTES (1u << 30)
/* Events (one per packet a component starts, sim_size) one run may take
 * unless the caller sets sim_config.max_events: the engine runs 5e6 (a
 * tree of thousands of systems) to 2e7 (a few) events a second on one
 * core, so this is under half a minute, and a run of hours is refused up
 * front instead of running silently.  Three steps of the largest models
 * on 2048 systems take 5e7, and so does the whole crosscheck grid. */
#define SIM_MAX_EVENTS 1e8
/* The most max_events may be: every count stays exact in a double and an
 * int64_t (and such a run would take years). */
#define SIM_CEIL_EVENTS 1e15
/* Memory one run may allocate (packets, components, links, rings, the
 * event queue), estimated and checked before any allocation: a run of
 * 10^6 systems takes 1.7 GB, one of 64 units over a model of 10^6 blocks
 * 0.9 GB; only together (8e12 events, refused unless --max-events is
 * raised that far) do they pass this, which a small machine can spare. */
#define SIM_MAX_BYTES 2147483648.0

/* Component classes (utilisation and bytes are reported per class). */
enum sim_comp {
    SIM_MX_EGRESS,   /* MemoryX -> SwarmX root                         */
    SIM_SWX_DOWN,    /* SwarmX node -> SwarmX node                     */
    SIM_SYS_INGRESS, /* -> system (from a leaf node, or from MemoryX)  */
    SIM_COMPUTE,     /* system compute engine                          */
    SIM_SYS_EGRESS,  /* system -> (leaf node or MemoryX)               */
    SIM_SWX_UP,      /* SwarmX node -> SwarmX node, reducing           */
    SIM_MX_INGRESS,  /* SwarmX root -> MemoryX                         */
    SIM_UPDATE,      /* MemoryX update engine                          */
    SIM_NCOMP
};
extern const char *const sim_comp_name[SIM_NCOMP];

/* Where the activations the backward pass needs are kept (sim.h's model). */
enum sim_act {
    SIM_ACT_WAFER,     /* every block's activations in SRAM               */
    SIM_ACT_RECOMPUTE, /* every k-th block input in SRAM, segments rebuilt */
    SIM_ACT_OFFLOAD,   /* block inputs on the activation servers, rebuilt */
    SIM_NACT
};
extern const char *const sim_act_name[SIM_NACT];

/* One busy interval of one component, for --trace. */
struct sim_interval {
    double start_s, end_s;
    enum sim_comp comp;
    int index;            /* which component of its class             */
    const char *activity; /* "forward", "recompute", "backward", "update" */
    int step, micro_batch, layer, packet;
    double bytes; /* moved (links) or of weights consumed (compute, update) */
};

struct sim_config {
    const struct hw_desc *hw;
    const struct wl_desc *wl;
    double systems;     /* N, whole, 1..SIM_MAX_SYSTEMS                     */
    double units;       /* MemoryX units, whole, 1..SIM_MAX_UNITS, <= mx_servers */
    double mx_servers;  /* MemoryX servers S, whole, 1..HW_MAX_SERVERS      */
    enum sim_act act;   /* where the activations are kept                   */
    double act_k;       /* recompute: every k blocks, whole, 1..layers      */
    double act_servers; /* offload: activation servers per system, whole, >= 1 */
    double sparsity;    /* 0..0.99                                          */
    double overlap;     /* 0..1                                             */
    double global_seqs; /* whole number of sequences per step, >= 1         */
    double steps;       /* whole, 1..SIM_MAX_STEPS                          */
    double max_events;  /* refuse a run of more events: whole, 1..SIM_CEIL_EVENTS;
                           0 for SIM_MAX_EVENTS                              */
    /* Called once per busy interval when non-NULL; nonzero stops the run
     * (sim_run then returns CP_EIO with the callback's reason). */
    int (*trace)(void *ctx, const struct sim_interval *iv);
    void *trace_ctx;
};

struct sim_result {
    double step_s;       /* steady-state step time (the last step)        */
    double first_step_s; /* the first step, from an empty pipeline        */
    double micro_batches;
    double sram_per_seq;    /* SRAM one sequence needs in this placement       */
    double max_seqs;        /* sequences that fit in SRAM per system (0: none) */
    double seqs_per_system; /* the most loaded system's share              */
    enum sim_act act;       /* where the activations are kept (as configured)  */
    double act_k;           /* recompute: every k blocks; else 0               */
    double store_seqs;      /* offload: sequences whose block inputs the
                               activation servers hold                         */
    double act_Bps;         /* offload: bytes/s to and from them               */
    double act_bytes;       /* offloaded per step by the most loaded system, each way */
    double slowest;         /* compute-time factor of the slowest system       */
    double mx_bytes;        /* MemoryX capacity: S x (DRAM + flash) of a server */
    double flash_fraction;  /* of MemoryX state on flash                       */
    int depth;              /* SwarmX levels                                 */
    int nodes;              /* SwarmX nodes                                  */
    long long packets;      /* per step                                      */
    long long events;       /* processed, whole run                          */
    int count[SIM_NCOMP];   /* components per class                          */
    /* Last step, summed over the components of a class. */
    double busy_s[SIM_NCOMP];
    double bytes[SIM_NCOMP];
    double compute_wait_s; /* mean time a compute engine is idle per step   */
    /* Conservation, whole run: bytes each link class sent, and bytes its
     * receivers took in; gradient packets reduced at SwarmX nodes (one per
     * node per backward packet) and taken in by MemoryX. */
    double sent_bytes[SIM_NCOMP], recv_bytes[SIM_NCOMP];
    long long reductions, mx_received;
};

/* Defaults: one system, one unit, MemoryX servers enough to hold the state
 * in their DRAM and to carry a system's port (system I/O, SwarmX link), the activations
 * on the wafer (recompute every block if the workload says recompute), no
 * activation servers, no sparsity, the hardware's overlap, the workload's
 * batch, SIM_DEFAULT_STEPS steps, no trace. */
void sim_config_init(struct sim_config *c, const struct hw_desc *hw, const struct wl_desc *wl);

/* "wafer", "recompute:4", "offload": the placement of act with k. */
const char *sim_act_label(enum sim_act act, double k, char *buf, size_t n);

/* What a run of c takes, known before it starts (sim_size). */
struct sim_size {
    double micro_batches;
    double packets; /* per step                                              */
    double nodes;   /* SwarmX nodes                                          */
    double comps;   /* components: links and engines                         */
    double events;  /* the whole run: exactly the events sim_run processes    */
    double bytes;   /* memory sim_run allocates at most (an upper bound)      */
};

/* Check c as sim_run does and size the run without running it, allocating
 * nothing.  CP_EINPUT with a message that starts with the figure it names
 * and a colon: the option (--systems, --memoryx-units, --memoryx-servers,
 * --activations, --act-servers, --steps, --batch, --sparsity, --overlap,
 * --max-events) when a field is out of range; model.layers or
 * swarmx.fanout when the description's is not a whole number the simulator
 * takes; model.layers or --batch when a step would hold more than
 * SIM_MAX_PACKETS packets; --max-events when the run would take more than
 * c->max_events events; -n, --batch or --memoryx-units (what takes the
 * most) past SIM_MAX_BYTES of memory.
 * z is filled on CP_OK (and as far as it got otherwise).  A SwarmX fan-out
 * of N or more (any whole number >= 2 the description allows) is one node
 * over all N systems. */
cp_status sim_size(const struct sim_config *c, struct sim_size *z, struct cp_error *err);

/* Run the simulation: CP_EINPUT as sim_size says, before anything is
 * allocated; CP_EIO when the trace callback stopped it.  r is filled on
 * CP_OK, with a finite, positive step time. */
cp_status sim_run(const struct sim_config *c, struct sim_result *r, struct cp_error *err);

#endif
