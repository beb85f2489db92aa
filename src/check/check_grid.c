/* check_grid.c - the cross-check's grid (check.h): points that cover every
 * regime and mechanism (activation placement, MemoryX and activation
 * servers, flash, the reduce bandwidth, jitter, step overhead, SwarmX
 * chunk).  Regimes are named by the analytic bottleneck of each point; the
 * comments say what the point was chosen for. */
#include "check.h"

/* Flash of a size and bandwidth on each of few MemoryX servers: their DRAM
 * cannot hold the state and flash, much slower, takes the rest. */
#define CHECK_FLASH(size, rate, servers)                                                           \
    {                                                                                              \
        .set = "memoryx.server_flash=" size, .set2 = "memoryx.server_flash_bandwidth=" rate,       \
        .mx_servers = servers                                                                      \
    }

/* MemoryX servers large enough to hold the largest block of state whole. */
#define CHECK_BIG_SERVERS "memoryx.server_memory=4 TB"

/* Activations offloaded to so many activation servers per system. */
#define CHECK_OFFLOAD(servers) .act_servers = servers, .act = "offload"

const struct check_point check_grid[] = {
    /* the headline job and its published cluster sizes */
    {"gpt3-175b", "cs2", 1, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 192, 0, 0.5, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 7, 1540, 0, NULL, 0, 0, {0}},    /* uneven tree */
    {"gpt3-175b", "cs2", 2048, 2048, 0, NULL, 0, 0, {0}}, /* one sequence each */
    /* sparsity 0..0.95 */
    {"gpt3-175b", "cs2", 16, 0, 0.5, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0.9, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0.95, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 64, 1024, 0.75, NULL, 1, 0, {0}},
    /* stream-bound: small model, small batch per system */
    {"gpt3-xl", "cs2", 1, 8, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 16, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs3", 128, 512, 0.9, NULL, 0, 0, {0}},
    /* latency-bound: small model, one sequence per system, deep tree */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs3", 512, 512, 0, NULL, 1, 0, {0}},
    {"gpt3-xl", "cs2", 256, 256, 0, NULL, 0.5, 0, {0}},
    /* compute-bound: long micro-batches */
    {"llama2-70b", "cs2", 1, 64, 0, NULL, 0, 0, {0}},
    {"llama2-70b", "cs3", 32, 0, 0, NULL, 0, 0, {0}},
    {"llama2-70b", "cs2", 8, 0, 0.75, NULL, 1, 0, {0}},
    /* flash: state beyond the DRAM of few MemoryX servers, update-bound */
    {"megatron-1t", "cs2", 16, 64, 0, NULL, 0, 0, CHECK_FLASH("4 TB", "5 GB/s", 8)},
    {"megatron-1t", "cs2", 4, 16, 0.9, NULL, 0, 2, CHECK_FLASH("4 TB", "5 GB/s", 6)},
    {"gpt3-175b", "cs3", 16, 0, 0, NULL, 0, 0, CHECK_FLASH("2 TB", "20 GB/s", 2)},
    {"megatron-1t", "cs3", 16, 0, 0, NULL, 0, 0, {0}},
    {"megatron-1t", "cs3", 64, 256, 0.5, NULL, 1, 0, {0}},
    /* the largest published tier: thousands of servers */
    {"gpt3-175b", "cs2", 32, 256, 0, "2.4PB", 0, 0, {0}},
    {"gpt3-xl", "cs2", 8, 64, 0, "2.4PB", 0, 0, {0}},
    /* few MemoryX servers: their network or their update binds */
    {"gpt3-xl", "cs2", 4, 64, 0, NULL, 0, 0, {.mx_servers = 1}},
    {"gpt3-xl", "cs3", 1, 16, 0, NULL, 0, 0, {.mx_servers = 1}},
    {"llama2-70b", "cs2", 8, 0, 0, NULL, 0, 2, {.mx_servers = 2}},
    {"gpt3-175b", "cs3", 16, 0, 0, NULL, 0, 0, {.mx_servers = 3}},
    /* gradients capped by what a SwarmX node sums, reduce_bandwidth over
     * its fan-out */
    {"gpt3-175b", "cs3", 192, 0, 0.5, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=200 GB/s"}},
    {"gpt3-xl", "cs3", 64, 64, 0, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=100 GB/s"}},
    {"gpt3-xl", "cs2", 64, 512, 0, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=100 GB/s"}},
    /* the largest models, one sequence per system (a block of 100T and 120T
     * holds 2.1 TB of state, which a server must hold whole) */
    {"10t", "cs3", 16, 16, 0, NULL, 0, 0, {0}},
    {"100t", "cs3", 8, 8, 0.9, NULL, 0, 0, {.set = CHECK_BIG_SERVERS}},
    {"120t", "cs2", 4, 4, 0, NULL, 0, 0, {.set = CHECK_BIG_SERVERS}},
    {"120t", "cs3", 32, 32, 0.95, NULL, 1, 0, {.set = CHECK_BIG_SERVERS}},
    /* latency-bound: slow SwarmX hops (the published figure is withheld) */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {.set = "swarmx.hop_latency=8ms"}},
    {"gpt3-xl", "cs3", 100, 100, 0.5, NULL, 0.5, 0, {.set = "swarmx.hop_latency=1ms"}},
    {"gpt3-175b", "cs2", 512, 512, 0, NULL, 1, 0, {.set = "swarmx.hop_latency=2ms"}},
    /* several MemoryX units, other fan-outs, uneven shares */
    {"gpt3-175b", "cs2", 64, 1024, 0, NULL, 0, 4, {0}},
    {"gpt3-xl", "cs3", 48, 480, 0.5, NULL, 0, 3, {.set = "swarmx.fanout=3"}},
    {"llama2-70b", "cs2", 5, 1031, 0, NULL, 0, 2, {.set = "swarmx.fanout=4"}},
    /* activations on the wafer: a small batch in one pass, and a larger
     * one in micro-batches of what SRAM holds */
    {"gpt3-xl", "cs2", 1, 2, 0, NULL, 0, 0, {0}},
    {"bert-large", "cs3", 64, 4096, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 1, 9, 0, NULL, 0, 0, {.act = "wafer"}},
    /* recompute every block, in micro-batches of what SRAM holds */
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, {.act = "recompute:1"}},
    /* recompute every k blocks: each block's weights stream in a third
     * time before its segment's backward; segments of 4 and of 5, 5, 5,
     * 5, 4 blocks; and GPT-3 175B in micro-batches of one sequence */
    {"gpt3-xl", "cs2", 16, 256, 0, NULL, 0, 0, {.act = "recompute:4"}},
    {"gpt3-xl", "cs3", 1, 16, 0.5, NULL, 0, 0, {.act = "recompute:5"}},
    {"gpt3-175b", "cs3", 192, 0, 0, NULL, 0, 0, {.act = "recompute:8"}},
    /* offloaded to the activation servers, in one micro-batch; a small
     * model whose last block's activations leave while the logits layer
     * runs */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    {"gpt2-small", "cs2", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    {"gpt2-small", "cs3", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    /* offloaded to few activation servers: micro-batches of what they hold
     * at their rate, and one sequence at a time when they hold none (the
     * model flags that) */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, {CHECK_OFFLOAD(1)}},
    {"gptj-6b", "cs2", 2, 0, 0, NULL, 0, 2, {CHECK_OFFLOAD(2)}},
    {"gpt3-xl", "cs2", 4, 16, 0, NULL, 0, 0, {"activation.server_memory=100 MB", CHECK_OFFLOAD(1)}},
    /* jitter: the slowest of many systems sets every layer's pace */
    {"llama2-70b", "cs3", 2048, 8192, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 2048, 16384, 0, NULL, 0, 0, {.set = "system.jitter=0.1"}},
    /* the fixed step overhead dominates small models */
    {"gpt2-small", "cs3", 16, 0, 0, NULL, 0, 0, {0}},
    {"bert-large", "cs2", 4, 0, 0, NULL, 0, 0, {0}},
    {"llama-7b", "cs2", 8, 0, 0.5, NULL, 0, 0, {0}},
    /* SwarmX chunks of 64 and 256 MB: a chunk larger than a sparse block
     * (flow control counts bytes, so small packets queue behind a large
     * one), a chunk that is a large part of the first layer */
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, {.set = "swarmx.chunk=64 MB"}},
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {.set = "swarmx.chunk=64 MB"}},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, {.set = "swarmx.chunk=256 MB"}},
    {"llama2-70b", "cs2", 256, 256, 0.9, NULL, 0, 0, {.set = "swarmx.chunk=256 MB"}},
    {"gpt3-xl",
     "cs2",
     1024,
     1024,
     0.95,
     NULL,
     0,
     0,
     {.set = "swarmx.chunk=256 MB"}}, /* chunk > embedding */
};
const size_t check_npoints = sizeof check_grid / sizeof check_grid[0];
