/* grid.c - the points of a grid, and their evaluation on several threads
 * in rounds (see grid.h). */
#include "grid.h"

#include <pthread.h>

size_t grid_size(const struct grid *g)
{
    return (g->tier ? g->ntier : 1) * (g->sp ? g->nsp : 1) * g->nn;
}

const struct grid_tier *grid_tier_of(const struct grid *g, size_t j)
{
    return g->tier ? &g->tier[j / ((g->sp ? g->nsp : 1) * g->nn)] : NULL;
}

void grid_cluster(const struct grid *g, size_t j, struct cluster *c)
{
    const struct cluster *b = g->base;
    /* the place on the axes first, in locals: two divisions (the copy
     * below could alias g, so the compiler would divide again) */
    size_t nsp = g->sp ? g->nsp : 1, q = j / g->nn, n = j - q * g->nn;
    size_t sp = q % nsp, tier = q / nsp;
    *c = *b;
    c->systems = g->ns[n];
    if (g->mode == SCALE_WEAK)
        c->global_seqs = b->global_seqs / b->systems * c->systems;
    if (g->sp)
        c->sparsity = g->sp[sp];
    if (g->tier)
        c->mx_servers = g->tier[tier].servers;
}

void grid_eval(const struct grid *g, size_t j, struct cluster *c, struct train_result *r)
{
    grid_cluster(g, j, c);
    train_eval(c, r);
}

/* The grid's first point that the run s takes (the grid's index). */
static size_t first_taken(const struct grid_sched *s)
{
    return (s->shard_k + s->shard_n - s->base % s->shard_n) % s->shard_n;
}

size_t grid_share(size_t total, const struct grid_sched *s)
{
    size_t j0 = first_taken(s);
    return j0 < total ? (total - 1 - j0) / s->shard_n + 1 : 0;
}

/* A worker's block: the points p0..p1 of those taken; taken point p is
 * point j0 + p * step. */
struct block {
    grid_point_fn visit;
    void *ctx;
    size_t p0, p1, j0, step;
    pthread_t tid;
    int threaded;
};

static void *block_run(void *arg)
{
    struct block *bk = arg;
    for (size_t p = bk->p0; p < bk->p1; p++)
        bk->visit(bk->ctx, bk->j0 + p * bk->step);
    return NULL;
}

size_t grid_run_points(size_t npoints, const struct grid_sched *s, void *const *ctx,
                       grid_point_fn visit, grid_round_fn round, void *arg)
{
    size_t np = grid_share(npoints, s), per = s->block ? s->block : GRID_BLOCK;
    unsigned jobs = s->jobs < 1 ? 1 : s->jobs > GRID_MAX_JOBS ? GRID_MAX_JOBS : s->jobs;
    size_t per_round = (size_t)jobs * per;
    struct block bk[GRID_MAX_JOBS];
    for (size_t b = 0; b < np; b += per_round) {
        unsigned used = 0;
        for (unsigned t = 0; t < jobs && b + t * per < np; t++, used++) {
            size_t p0 = b + t * per;
            bk[t] = (struct block){.visit = visit,
                                   .ctx = ctx[t],
                                   .p0 = p0,
                                   .p1 = p0 + per < np ? p0 + per : np,
                                   .j0 = first_taken(s),
                                   .step = s->shard_n};
            bk[t].threaded = t > 0 && pthread_create(&bk[t].tid, NULL, block_run, &bk[t]) == 0;
        }
        for (unsigned t = 0; t < used; t++)
            if (!bk[t].threaded)
                block_run(&bk[t]);
        for (unsigned t = 0; t < used; t++)
            if (bk[t].threaded)
                pthread_join(bk[t].tid, NULL);
        round(arg, ctx, used, bk[used - 1].p1 - b);
    }
    return np;
}

/* grid_run() over grid_run_points(): each worker's context is the grid,
 * the caller's visit and its ctx. */
struct eval_ctx {
    const struct grid *g;
    grid_visit_fn visit;
    void *ctx;
};

static void eval_point(void *arg, size_t j)
{
    struct eval_ctx *e = arg;
    struct cluster c;
    struct train_result r;
    grid_eval(e->g, j, &c, &r);
    e->visit(e->ctx, j, &c, &r);
}

struct eval_round {
    grid_round_fn round;
    void *arg;
    void *const *ctx;
};

static void eval_round(void *arg, void *const *ctx, unsigned used, size_t done)
{
    (void)ctx;
    struct eval_round *er = arg;
    er->round(er->arg, er->ctx, used, done);
}

size_t grid_run(const struct grid *g, const struct grid_sched *s, void *const *ctx,
                grid_visit_fn visit, grid_round_fn round, void *arg)
{
    struct eval_ctx e[GRID_MAX_JOBS];
    void *ectx[GRID_MAX_JOBS];
    unsigned jobs = s->jobs < 1 ? 1 : s->jobs > GRID_MAX_JOBS ? GRID_MAX_JOBS : s->jobs;
    for (unsigned t = 0; t < jobs; t++) {
        e[t] = (struct eval_ctx){g, visit, ctx[t]};
        ectx[t] = &e[t];
    }
    struct eval_round er = {round, arg, ctx};
    return grid_run_points(grid_size(g), s, ectx, eval_point, eval_round, &er);
}
