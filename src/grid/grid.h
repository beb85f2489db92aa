/* grid.h - the analytic model over a grid of cluster configurations, below
 * the front ends: sweep evaluates its grid through it, the explorer its
 * curves and the report its tables.
 *
 * A grid is a base cluster and up to three axes, MemoryX tier x sparsity x
 * cluster size, the last fastest.  Point j (from 0) is the base with the
 * tier j / (nsp * nn), the sparsity j / nn % nsp and the size j % nn.  A
 * size keeps the base's global batch (SCALE_STRONG) or its sequences per
 * system (SCALE_WEAK), as train_at() does.
 *
 * grid_run() evaluates the points one run takes (every one, or the share
 * of a shard) on several threads, a block of points to each thread a
 * round, and hands each round's blocks back in grid order on the calling
 * thread: what a caller writes there does not depend on the threads. */
#ifndef CP_GRID_H
#define CP_GRID_H

#include <stddef.h>

#include "../desc/desc.h"
#include "../model/train.h"

#define GRID_MAX_JOBS 256
#define GRID_BLOCK 2048 /* points per thread per round */

/* A MemoryX choice: its label, and its servers (0: sized for the run). */
struct grid_tier {
    char name[DESC_NAME_MAX];
    double servers;
};

struct grid {
    const struct cluster *base;
    const struct grid_tier *tier; /* ntier of them; NULL: the base's servers */
    size_t ntier;
    const double *sp; /* nsp sparsities; NULL: the base's */
    size_t nsp;
    const double *ns; /* nn cluster sizes (at least one) */
    size_t nn;
    enum scaling mode;
};

/* The number of points of g. */
size_t grid_size(const struct grid *g);

/* The tier of point j, or NULL when g has no tier axis. */
const struct grid_tier *grid_tier_of(const struct grid *g, size_t j);

/* The cluster of point j into *c. */
void grid_cluster(const struct grid *g, size_t j, struct cluster *c);

/* Point j evaluated: its cluster into *c, the model's answer into *r. */
void grid_eval(const struct grid *g, size_t j, struct cluster *c, struct train_result *r);

/* Which points a run takes and on how many threads: point i of the whole
 * grid (from 0; the grid's first point is at base) belongs to the run when
 * i mod shard_n = shard_k. */
struct grid_sched {
    unsigned jobs;           /* threads, 1..GRID_MAX_JOBS */
    size_t shard_k, shard_n; /* 0 <= shard_k < shard_n */
    size_t base;
    size_t block; /* points per thread per round; 0: GRID_BLOCK */
};

/* The points of a grid of total points (its first at s->base) that the
 * run s takes. */
size_t grid_share(size_t total, const struct grid_sched *s);

/* Called on a worker thread for each point it evaluates, in order within
 * its block, with its own ctx. */
typedef void (*grid_visit_fn)(void *ctx, size_t j, const struct cluster *c,
                              const struct train_result *r);
/* Called on the calling thread after each round: ctx[0..used) hold the
 * round's blocks in grid order; done is the points of this round. */
typedef void (*grid_round_fn)(void *arg, void *const *ctx, unsigned used, size_t done);

/* Evaluate every point of g that s takes: s->jobs workers (worker t with
 * ctx[t]; a thread that cannot start computes on the calling thread, with
 * the same result) visit a block of s->block (0: GRID_BLOCK) points each,
 * then round() sees the round.  Returns the points taken. */
size_t grid_run(const struct grid *g, const struct grid_sched *s, void *const *ctx,
                grid_visit_fn visit, grid_round_fn round, void *arg);

/* The scheduling of grid_run() alone, for points another model
 * evaluates (the GPU sweep: a layout search per point, so a block of a
 * few points): visit(ctx[t], j) for each point j of the npoints that s
 * takes, in rounds of s->block points a thread, round() after each. */
typedef void (*grid_point_fn)(void *ctx, size_t j);
size_t grid_run_points(size_t npoints, const struct grid_sched *s, void *const *ctx,
                       grid_point_fn visit, grid_round_fn round, void *arg);

#endif
