/* train.h - time-to-train, energy, cost and the feasibility verdicts of a
 * cluster configuration, and the scaling of those with N.
 *
 *  - steps = ceil(tokens / (global batch x seq_len)), whole steps; time =
 *    steps x step time.
 *  - Sparsity at equal quality (desc/loss.h): at sparsity S the run
 *    trains m(S) x the tokens, m of the workload's loss law at its block
 *    matrix weights and its tokens; infeasible when no token count reaches
 *    the dense loss.
 *  - Critical batch and batch penalty (desc/batch.h, the arithmetic both
 *    kinds share): B_crit from the converged loss of the model's
 *    parameters; with the batch penalty on, the tokens needed at batch B
 *    are tokens x (1 + B / B_crit) / (1 + B_ref / B_crit), B_ref the batch
 *    the workload's token count is for.
 *  - Power = N x system power + MemoryX servers x server power + N x
 *    activation servers x their power + SwarmX nodes x node power;
 *    energy = power x time; cost = N x hours x price when a price is given.
 *  - Failures (gp.h): the parts' failure rate (cost.h), a checkpoint of the
 *    state written by the MemoryX servers at the least of their summed
 *    reliability.write_bandwidth and the site's storage
 *    bandwidth, read back at the same on a restart; time = the expected
 *    wall time; cost over it (cost.h), the rental --price replacing the
 *    capital part.
 *  - Verdicts: MemoryX state fits the tier; SRAM holds what the activation
 *    placement needs (step.h); the activation store holds one sequence's
 *    checkpoints; the largest matmul dimension is within
 *    max_matmul_dim; the global batch is within B_crit; every system has at
 *    least one sequence; the micro-batch reaches the stream-balance point
 *    (where a block's forward pass, the binding one, computes as long as
 *    its weights take to stream in); N is within the generation's
 *    max_systems.  The configuration is infeasible when MemoryX, SRAM, the
 *    activation store, the split or max_systems fails; the
 *    others are warnings. */
#ifndef CP_TRAIN_H
#define CP_TRAIN_H

#include <stddef.h>

#include "step.h"
#include "../tm/cost.h"
#include "../tm/gp.h"

enum train_warn {
    TW_MEMORYX = 1u << 0,    /* state larger than the tier                  */
    TW_SRAM = 1u << 1,       /* not even one sequence fits in SRAM          */
    TW_SPLIT = 1u << 2,      /* fewer sequences than systems                */
    TW_MATMUL = 1u << 3,     /* a matmul dimension needs blocking           */
    TW_CRIT_BATCH = 1u << 4, /* global batch above the critical batch      */
    TW_STREAM = 1u << 5,     /* micro-batch below the stream-balance point  */
    TW_FLASH = 1u << 6,      /* part of the state is on flash               */
    TW_ACCUM = 1u << 7,      /* local batch split into micro-batches        */
    TW_ACT_STORE = 1u << 8,  /* the activation store cannot hold one sequence */
    TW_CHUNK = 1u << 9,      /* a SwarmX chunk above half a block's stream  */
    TW_MAX_SYSTEMS = 1u << 10, /* more systems than the generation's largest cluster */
    TW_FAILURES = 1u << 11,    /* failures lose work as fast as it is made (gp.h) */
    TW_SPARSE_LOSS = 1u << 12, /* no token count reaches the dense loss at the sparsity */
};
/* Above this share of a block's smallest stream a SwarmX chunk lets
 * neighbouring layers overlap in the two-chunk buffers, and the per-layer
 * lock step the model charges is only an approximation (crosscheck: 3 % at
 * a 16 MB chunk against 14.5 MB blocks, 12 % at 64 MB). */
#define TRAIN_CHUNK_SHARE 0.5
#define TW_INFEASIBLE                                                                              \
    (TW_MEMORYX | TW_SRAM | TW_SPLIT | TW_ACT_STORE | TW_MAX_SYSTEMS | TW_FAILURES |              \
     TW_SPARSE_LOSS)

/* Where the power goes: the systems, MemoryX servers, activation servers
 * (of every system) and SwarmX nodes. */
enum train_power { TRAIN_POWER_SYSTEMS, TRAIN_POWER_MEMORYX, TRAIN_POWER_ACT, TRAIN_POWER_SWARMX,
                   TRAIN_NPOWER };
extern const char *const train_power_name[TRAIN_NPOWER];

struct train_result {
    struct step_result step;
    double memoryx_bytes;             /* capacity of the MemoryX servers       */
    double swx_nodes;                 /* SwarmX broadcast/reduce nodes         */
    double power_part[TRAIN_NPOWER]; /* watts                                 */
    double params, bytes_per_param, state_bytes;
    double global_tokens; /* per step                                      */
    double loss, critical_tokens, token_factor;
    int batch_penalty; /* token_factor charged (the cluster's batch_penalty) */
    /* Sparsity at equal quality (desc/loss.h): tokens = the cluster's
     * tokens x sparse_factor x token_factor; sparse_factor INFINITY, and
     * TW_SPARSE_LOSS, when no token count reaches the dense loss (tokens
     * then as at sparse_factor 1). */
    double sparse_factor;  /* m(S)                                          */
    double sparse_weights; /* the block matrix weights N the law counts     */
    double tokens, steps, time_s, tokens_per_s;
    /* Model FLOPs of one step: forward, activation and weight gradient of
     * every token, attention and logits included, no recompute (the count
     * the GPU model's MFU takes, tfm.h), less the zeros of the sparse block
     * weights; mfu = model_flops / (step time x N x dense peak). */
    double model_flops, mfu;
    double power_W, energy_J, cost; /* cost < 0 when no price was given   */
    double sram_per_seq, matmul_dim, balance_tokens;
    int chunk_fine; /* chunk <= TRAIN_CHUNK_SHARE x a block's smallest stream */
    int memoryx_fits, sram_fits, act_fits, matmul_fits, batch_ok, split_ok, stream_balanced;
    int systems_ok; /* N <= system.max_systems                             */
    /* Failures and what the job costs (train_power): time_s above is the
     * expected wall time, gp.wall_s, when the job finishes, else
     * time_ff_s (and TW_FAILURES); energy and cost are over time_s. */
    double time_ff_s;  /* steps x step time, without failures            */
    double ckpt_bytes; /* a checkpoint: the state, from MemoryX          */
    struct gp_result gp;
    struct bom_line bom[TRAIN_NPOWER]; /* train_power_name's parts        */
    struct cost_result costs;
    char currency[COST_CURRENCY_MAX]; /* [cost] currency ("": none)    */
    int feasible;
    unsigned warnings; /* enum train_warn */
};

/* c must have passed cluster_check(). */
void train_eval(const struct cluster *c, struct train_result *r);

/* "name;name" for the warning bits (empty string for none).  Returns buf. */
const char *train_warn_names(unsigned warnings, char *buf, size_t n);

enum scaling { SCALE_WEAK, SCALE_STRONG };

/* base evaluated at n systems: weak keeps base's sequences per system,
 * strong keeps its global batch. */
void train_at(const struct cluster *base, double n, enum scaling mode, struct train_result *r);

/* The name of the first figure of r that is not a finite number, or NULL. */
const char *train_nonfinite(const struct train_result *r);

/* Inputs can each pass their range checks and still overflow together
 * (a FLOP/s near zero, a batch of 1e300).  Evaluates c at 1 system, at its
 * own N and at CLUSTER_MAX_SYSTEMS, weak and strong, and fails with
 * CP_EINPUT naming the first figure that is not finite.  c must have passed
 * cluster_check(). */
cp_status train_check(const struct cluster *c, struct cp_error *err);

#endif
