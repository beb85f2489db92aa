/* fsim.h - functional weight-streaming simulator: trains a tiny MLP the way a
 * Cerebras weight-streaming cluster does and checks the numbers against a
 * single-system reference.
 *
 * Unlike the timing simulator, this one moves real numbers.  MemoryX holds
 * the master weights and the optimizer state, sharded over `units` MemoryX
 * units; for every layer of every pass it encodes the layer into a stream
 * buffer that a SwarmX tree of fan-out `fanout` copies, node by node, into a
 * buffer per child, down to the N systems.  Each system runs its contiguous
 * shard of the global batch layer by layer, and on the backward pass sends
 * its shard's gradient SUM back up the tree, where every node adds its
 * children's buffers in child order.  MemoryX divides the reduced sum by the
 * global batch and its units update their shards.  A reference trains the
 * same network on one system with dense, masked weights for the same steps;
 * "sparse streaming must equal masked dense training".
 *
 * Network (fixed): FSIM_IN -> FSIM_HIDDEN -> FSIM_HIDDEN -> FSIM_OUT, that is
 * 16 -> 32 -> 32 -> 4, tanh after the two hidden layers, linear output, a
 * bias per output of every layer.  Layer l computes
 *     a[l+1][o] = f(b[o] + sum_i W[o][i] a[l][i]),
 * W stored row-major (row = output).  Loss: mean over the batch of
 * (1/FSIM_OUT) sum_o (y_o - t_o)^2.  All network and optimizer arithmetic is
 * single precision; losses and differences are reported in double.
 *
 * Data: one gsl_rng (mt19937) seeded with config.seed draws, in this order,
 * the sparsity masks, the initial weights (Gaussian, sd 1/sqrt(fan-in),
 * zero off the mask; biases zero), a fixed "teacher" t = T2 tanh(T1 x) of
 * shape 16 -> 32 -> 4, and `batch` inputs x uniform in [-1, 1).  Every step
 * trains on the same batch (full-batch training), so the loss falls.
 *
 * Sparsity: each weight matrix (not the biases) has a fixed mask with
 * round(sparsity x size) zeros at random positions; masked weights start at
 * zero and, as no gradient is ever streamed for them, stay zero.
 *
 * MemoryX sharding: each weight matrix and each bias vector, as a flat array,
 * is split into `units` contiguous element ranges as even as possible (the
 * first size % units ranges one longer); unit u updates only range u.
 *
 * SwarmX tree: the systems are the leaves.  Level 0 has ceil(N/k) nodes,
 * node j reducing systems j*k .. j*k+k-1; level v+1 groups the nodes of level
 * v the same way, up to a single root.  Depth ceil(log_k N); no nodes for
 * N = 1, where MemoryX talks to the system directly.
 *
 * Stream buffer (the wire format of every message, both directions):
 *     uint32 kind (0 dense, 1 sparse), uint32 nw, uint32 nb,
 *     sparse only: nw uint16 positions (flat row-major index), zero-padded to
 *                  a multiple of 4 bytes,
 *     nw float weight values (the matrix, or its values at the positions),
 *     nb float bias values,
 * all in host byte order.  Dense when sparsity is 0, sparse otherwise; a
 * gradient uses the positions of the weights it belongs to.
 *
 * Optimizers (per element, float): SGD w -= lr g; Adam with beta1 0.9, beta2
 * 0.999, eps 1e-8 and bias correction m/(1 - beta1^t), v/(1 - beta2^t). */
#ifndef CP_FSIM_H
#define CP_FSIM_H

#include <stdint.h>

#include "../base/status.h"

enum { FSIM_IN = 16, FSIM_HIDDEN = 32, FSIM_OUT = 4, FSIM_LAYERS = 3 };

/* Weights and biases of the whole network: 16*32+32 + 32*32+32 + 32*4+4. */
#define FSIM_PARAMS 1732

#define FSIM_LR_SGD 0.05f  /* learning rate of plain SGD            */
#define FSIM_LR_ADAM 0.01f /* learning rate of Adam                 */
#define FSIM_ADAM_BETA1 0.9f
#define FSIM_ADAM_BETA2 0.999f
#define FSIM_ADAM_EPS 1e-8f

/* Largest max_rel_diff accepted as agreement.  Only the order of the
 * gradient sums differs between the cluster and the reference (shard sums
 * added up a tree versus one running sum), so the weights differ by float
 * rounding: ~1e-7 per step, amplified a little by Adam's normalisation.
 * With one system the order is the same and the difference is exactly 0. */
#define FSIM_TOLERANCE 1e-5

/* Limits of the configuration, as fsim_run checks them. */
#define FSIM_MAX_SYSTEMS 4096
#define FSIM_MAX_UNITS 64
#define FSIM_MAX_STEPS 100000
#define FSIM_MAX_BATCH 1000000
/* Events one run may take unless fsim_config.max_events says otherwise
 * (fsim_events): a core trains about 1.3e5 samples a step a second (the
 * cluster and the reference) and moves about 1.5e6 messages, so this is
 * about a minute at most where FSIM_MAX_STEPS x FSIM_MAX_BATCH would take
 * days.  The most it may be raised to is SIM_CEIL_EVENTS's 1e15. */
#define FSIM_MAX_EVENTS 1e7
#define FSIM_CEIL_EVENTS 1e15

enum fsim_optimizer { FSIM_SGD, FSIM_ADAM };

struct fsim_config {
    int systems;     /* N, 1..FSIM_MAX_SYSTEMS                       */
    int fanout;      /* SwarmX fan-out k, >= 2                        */
    int units;       /* MemoryX units, 1..FSIM_MAX_UNITS              */
    int steps;       /* training steps K, 1..FSIM_MAX_STEPS           */
    int batch;       /* global batch, samples, N..FSIM_MAX_BATCH      */
    double sparsity; /* fraction of weights masked to zero, [0, 1) */
    enum fsim_optimizer optimizer;
    unsigned long seed; /* gsl mt19937 seed (0 acts as GSL's default 4357) */
    double max_events;  /* refuse a run of more events (fsim_events): whole,
                           1..FSIM_CEIL_EVENTS; 0 for FSIM_MAX_EVENTS      */
};

/* Link classes: MemoryX <-> the root node (or the only system when N = 1),
 * node <-> node, node <-> system. */
enum fsim_link { FSIM_LINK_MX, FSIM_LINK_NODE, FSIM_LINK_SYS, FSIM_NLINKS };
/* Directions: weights down, gradients up. */
enum fsim_dir { FSIM_DOWN, FSIM_UP, FSIM_NDIRS };

/* Everything fsim_run reports.  Counters cover the whole run.  The struct is
 * zeroed before it is filled, so two results can be compared with memcmp. */
struct fsim_result {
    /* max over layers of max_i |w_sim_i - w_ref_i| / max_i |w_ref_i|, i over
     * the layer's weights and biases; w_sim are MemoryX's master weights and
     * w_ref the reference's after K steps (a layer whose reference is all
     * zero contributes its largest absolute difference). */
    double max_rel_diff;
    double loss_first, loss_last;         /* cluster, before step 1's / step K's update */
    double ref_loss_first, ref_loss_last; /* reference, same points */
    int depth, nodes;                     /* SwarmX levels and broadcast/reduce nodes */
    /* Messages and their bytes put on and taken off each link class. */
    uint64_t msgs_sent[FSIM_NDIRS][FSIM_NLINKS], msgs_recv[FSIM_NDIRS][FSIM_NLINKS];
    uint64_t bytes_sent[FSIM_NDIRS][FSIM_NLINKS], bytes_recv[FSIM_NDIRS][FSIM_NLINKS];
    /* Gradient reductions a node performed over the run (one per layer per
     * step expected), smallest and largest over the nodes; 0 with no nodes. */
    uint64_t node_reductions_min, node_reductions_max;
    uint64_t buffers_reduced;              /* child buffers added into a node's sum, all nodes */
    uint64_t weight_count[FSIM_LAYERS];    /* dense size of each weight matrix */
    uint64_t mask_nnz[FSIM_LAYERS];        /* weights kept by each mask */
    uint64_t values_streamed[FSIM_LAYERS]; /* weight values MemoryX encoded, both passes */
    uint64_t broadcasts;       /* weight broadcasts, all layers: 2 x FSIM_LAYERS per step */
    uint64_t unit_updates;     /* parameter elements updated, summed over MemoryX units */
    uint64_t off_mask_nonzero; /* master weights off the mask that are not 0 at the end */
};

/* Defaults: 1 system, fan-out 2, 1 unit, 10 steps, batch 64, dense, Adam,
 * seed 1, FSIM_MAX_EVENTS. */
void fsim_config_init(struct fsim_config *c);

/* The events of a run of c, the measure of its size: one per sample and
 * step (its forward and backward pass, in the cluster and again in the
 * reference) and one per message a link carries, 3 x FSIM_LAYERS a step on
 * each of the N + nodes links: steps x (batch + 3 x FSIM_LAYERS x (N +
 * nodes)).  Exact for a configuration fsim_run accepts. */
double fsim_events(const struct fsim_config *c);

/* Train the cluster and the reference for c->steps steps and fill *r.
 * CP_EINPUT, with a message that starts with the figure it names and a
 * colon (-n, swarmx.fanout, --memoryx-units, --steps, --batch, --sparsity,
 * --optimizer, --max-events), when a field is out of range or the run
 * would take more than max_events events; *r is then untouched.  CP_ENOMEM only if GSL cannot
 * allocate its random generator (other allocations abort through xmalloc).  Time and memory grow as
 * steps x batch and as systems + batch. */
cp_status fsim_run(const struct fsim_config *c, struct fsim_result *r, struct cp_error *err);

/* fsim_run that also copies the final parameters out: sim_params gets
 * MemoryX's master weights and ref_params the reference's, FSIM_PARAMS
 * floats each, laid out layer by layer as W (row-major) then b.  Either
 * pointer may be NULL; the caller owns both arrays. */
cp_status fsim_run_params(const struct fsim_config *c, struct fsim_result *r, float *sim_params,
                          float *ref_params, struct cp_error *err);

/* Whether the run r computes the same training as one system: its weights
 * within FSIM_TOLERANCE of the reference's, and the loss fell. */
int fsim_agrees(const struct fsim_result *r);

#endif
