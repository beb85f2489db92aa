/* fsim_cluster.c - the functional simulator's cluster (fsim.h states the
 * model): MemoryX with the master weights sharded over its units, the
 * SwarmX tree that copies every message down and adds the gradient sums up,
 * and the systems, each training its shard of the batch.
 *
 * The systems run one after another, so they share one scratch for the
 * decoded layer and its gradient; each keeps its own activations and its own
 * message buffers (the inbox its parent writes, the outbox its parent reads). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "fsimint.h"

#define MAX_LEVELS 32 /* tree levels; 12 suffice for 4096 systems */

/* Part k of n items cut into `parts` contiguous ranges as even as possible
 * (the first n % parts one longer): [*lo, *hi). */
static void shard(size_t n, size_t parts, size_t k, size_t *lo, size_t *hi)
{
    size_t q = n / parts, rem = n % parts;
    *lo = k * q + (k < rem ? k : rem);
    *hi = *lo + q + (k < rem ? 1 : 0);
}

/* A system's or a tree node's message buffers: the inbox its parent writes
 * (weights down) and the outbox its parent reads (gradients up). */
struct port {
    struct buf down, up;
};

/* The SwarmX tree (fsim.h): its levels, and what each node did. */
struct tree {
    int levels, nodes;
    int first[MAX_LEVELS], count[MAX_LEVELS]; /* nodes per level, level 0 lowest */
    uint64_t *reductions;                     /* per node */
};

struct cluster {
    const struct problem *pb;
    struct fsim_result *r;
    int k, n_sys, units;
    struct tree tree;
    /* Ports of the systems 0..n_sys-1, then of the nodes level by level, the
     * root last; MemoryX talks to the last port (the only system if N = 1). */
    struct port *port;
    struct worker *wk; /* per system */
    struct state mx;   /* MemoryX: master weights and optimizer state */
    struct buf mx_msg;
    /* Shared scratch: the decoded layer (or gradient) and its positions. */
    float w[MAX_W], b[MAX_B], gw[MAX_W], gb[MAX_B];
    uint16_t pos[MAX_W];
};

/* The levels of the tree over n_sys systems of fan-out k. */
static void tree_new(struct tree *t, int n_sys, int k)
{
    int below = n_sys;
    t->levels = 0;
    t->nodes = 0;
    while (below > 1) {
        assert(t->levels < MAX_LEVELS);
        below = (below - 1) / k + 1;
        t->first[t->levels] = t->nodes;
        t->count[t->levels++] = below;
        t->nodes += below;
    }
    t->reductions = xmalloc((size_t)(t->nodes + 1) * sizeof *t->reductions);
    memset(t->reductions, 0, (size_t)(t->nodes + 1) * sizeof *t->reductions);
}

/* The ports of node j of level lv. */
static struct port *node_port(struct cluster *cl, int lv, int j)
{
    return &cl->port[cl->n_sys + cl->tree.first[lv] + j];
}

/* Child c of a node of level lv: a node of level lv - 1, or a system. */
static struct port *child_port(struct cluster *cl, int lv, int c)
{
    return lv ? node_port(cl, lv - 1, c) : &cl->port[c];
}

/* The port MemoryX talks to: the root's, or the only system's. */
static struct port *top_port(struct cluster *cl)
{
    return &cl->port[cl->n_sys + cl->tree.nodes - 1];
}

/* Children of node j of level lv: [*lo, *hi). */
static void children(const struct cluster *cl, int lv, int j, int *lo, int *hi)
{
    int below = lv ? cl->tree.count[lv - 1] : cl->n_sys;
    *lo = j * cl->k;
    *hi = below - *lo > cl->k ? *lo + cl->k : below;
}

/* Link class of the link above level lv (lv = -1: above the systems). */
static enum fsim_link link_above(const struct cluster *cl, int lv)
{
    if (lv == cl->tree.levels - 1)
        return FSIM_LINK_MX;
    return lv < 0 ? FSIM_LINK_SYS : FSIM_LINK_NODE;
}

/* Counts of messages and bytes by direction and link class. */
static void note_sent(struct cluster *cl, enum fsim_dir d, enum fsim_link k, const struct buf *b)
{
    cl->r->msgs_sent[d][k]++;
    cl->r->bytes_sent[d][k] += b->len;
}

static void note_recv(struct cluster *cl, enum fsim_dir d, enum fsim_link k, const struct buf *b)
{
    cl->r->msgs_recv[d][k]++;
    cl->r->bytes_recv[d][k] += b->len;
}

/* Node j of level lv takes its inbox and copies it to every child's inbox. */
static void node_broadcast(struct cluster *cl, int lv, int j)
{
    struct port *nd = node_port(cl, lv, j);
    int lo, hi;
    note_recv(cl, FSIM_DOWN, link_above(cl, lv), &nd->down);
    children(cl, lv, j, &lo, &hi);
    for (int c = lo; c < hi; c++) {
        fsim_buf_copy(&child_port(cl, lv, c)->down, &nd->down);
        note_sent(cl, FSIM_DOWN, link_above(cl, lv - 1), &nd->down);
    }
}

/* MemoryX's message down to every system's inbox. */
static void broadcast(struct cluster *cl, const struct buf *msg)
{
    fsim_buf_copy(&top_port(cl)->down, msg);
    note_sent(cl, FSIM_DOWN, FSIM_LINK_MX, msg);
    for (int lv = cl->tree.levels - 1; lv >= 0; lv--)
        for (int j = 0; j < cl->tree.count[lv]; j++)
            node_broadcast(cl, lv, j);
}

/* Node j of level lv adds its children's outboxes, in child order, into its
 * own outbox. */
static void node_reduce(struct cluster *cl, int lv, int j)
{
    struct port *nd = node_port(cl, lv, j);
    int lo, hi;
    children(cl, lv, j, &lo, &hi);
    for (int c = lo; c < hi; c++) {
        const struct buf *in = &child_port(cl, lv, c)->up;
        note_recv(cl, FSIM_UP, link_above(cl, lv - 1), in);
        if (c == lo)
            fsim_buf_copy(&nd->up, in);
        else
            fsim_add_values(&nd->up, in);
    }
    cl->tree.reductions[cl->tree.first[lv] + j]++;
    cl->r->buffers_reduced += (uint64_t)(hi - lo);
    note_sent(cl, FSIM_UP, link_above(cl, lv), &nd->up);
}

/* The systems' outboxes reduced level by level up to the top outbox. */
static void reduce(struct cluster *cl)
{
    for (int lv = 0; lv < cl->tree.levels; lv++)
        for (int j = 0; j < cl->tree.count[lv]; j++)
            node_reduce(cl, lv, j);
}

/* MemoryX encodes layer l of its master weights and broadcasts it. */
static void mx_stream(struct cluster *cl, int l)
{
    const struct problem *pb = cl->pb;
    fsim_encode(&cl->mx_msg, l, pb->sparse ? pb->pos[l] : NULL, pb->nnz[l], cl->mx.p + w_at(l),
                cl->mx.p + b_at(l));
    cl->r->values_streamed[l] += fsim_msg_values(&cl->mx_msg);
    cl->r->broadcasts++;
    broadcast(cl, &cl->mx_msg);
}

/* Unit u updates its range of each tensor of layer l with the batch-mean
 * gradient in the scratch (off-mask weights are not its to update). */
static void mx_unit_update(struct cluster *cl, int u, int l, const struct opt *o)
{
    struct state *s = &cl->mx;
    size_t lo, hi, w0 = w_at(l), b0 = b_at(l);
    shard(n_w(l), (size_t)cl->units, (size_t)u, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        if (cl->pb->mask[l][i]) {
            fsim_opt_elem(o, s, w0 + i, cl->gw[i]);
            cl->r->unit_updates++;
        }
    shard(n_out(l), (size_t)cl->units, (size_t)u, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        fsim_opt_elem(o, s, b0 + i, cl->gb[i]);
        cl->r->unit_updates++;
    }
}

/* MemoryX takes the reduced gradient sum of layer l, divides it by the
 * global batch and lets every unit update its shard. */
static void mx_apply(struct cluster *cl, int l, const struct opt *o)
{
    size_t npos;
    float batch = (float)cl->pb->batch;
    note_recv(cl, FSIM_UP, FSIM_LINK_MX, &top_port(cl)->up);
    fsim_decode(&top_port(cl)->up, l, cl->gw, cl->gb, cl->pos, &npos);
    assert(npos == (cl->pb->sparse ? cl->pb->nnz[l] : n_w(l)));
    for (size_t i = 0; i < n_w(l); i++)
        cl->gw[i] /= batch;
    for (size_t i = 0; i < n_out(l); i++)
        cl->gb[i] /= batch;
    for (int u = 0; u < cl->units; u++)
        mx_unit_update(cl, u, l, o);
}

/* The tree and the ports, MemoryX with the initial weights, and a worker on
 * each system's contiguous shard of the batch. */
struct cluster *fsim_cluster_new(const struct problem *pb, const struct fsim_config *c,
                                 struct fsim_result *r)
{
    struct cluster *cl = xmalloc(sizeof *cl);
    memset(cl, 0, sizeof *cl);
    cl->pb = pb;
    cl->r = r;
    cl->k = c->fanout;
    cl->n_sys = c->systems;
    cl->units = c->units;
    tree_new(&cl->tree, c->systems, c->fanout);
    fsim_state_init(&cl->mx, pb->init);
    size_t ports = (size_t)(c->systems + cl->tree.nodes);
    cl->port = xmalloc(ports * sizeof *cl->port);
    memset(cl->port, 0, ports * sizeof *cl->port);
    cl->wk = xmalloc((size_t)c->systems * sizeof *cl->wk);
    for (int k = 0; k < c->systems; k++) {
        size_t lo, hi;
        shard(pb->batch, (size_t)c->systems, (size_t)k, &lo, &hi);
        fsim_worker_new(&cl->wk[k], pb->x + lo * FSIM_IN, pb->t + lo * FSIM_OUT, hi - lo);
    }
    return cl;
}

void fsim_cluster_free(struct cluster *cl)
{
    for (int k = 0; k < cl->n_sys; k++)
        fsim_worker_free(&cl->wk[k]);
    for (int k = 0; k < cl->n_sys + cl->tree.nodes; k++) {
        free(cl->port[k].down.p);
        free(cl->port[k].up.p);
    }
    free(cl->wk);
    free(cl->port);
    free(cl->tree.reductions);
    free(cl->mx_msg.p);
    free(cl);
}

/* System k takes layer l from its inbox into the scratch; returns whether
 * the layer came sparse and leaves its positions in the scratch. */
static int sys_receive(struct cluster *cl, int k, int l, size_t *npos)
{
    note_recv(cl, FSIM_DOWN, link_above(cl, -1), &cl->port[k].down);
    return fsim_decode(&cl->port[k].down, l, cl->w, cl->b, cl->pos, npos);
}

/* System k's backward pass of layer l: gradient sums into its outbox. */
static void sys_backward(struct cluster *cl, int k, int l)
{
    size_t npos;
    int sparse = sys_receive(cl, k, l, &npos);
    fsim_worker_backward(&cl->wk[k], l, cl->w, cl->gw, cl->gb);
    fsim_encode(&cl->port[k].up, l, sparse ? cl->pos : NULL, npos, cl->gw, cl->gb);
    note_sent(cl, FSIM_UP, link_above(cl, -1), &cl->port[k].up);
}

/* One training step of the cluster; returns the batch loss before it. */
double fsim_cluster_step(struct cluster *cl, const struct opt *o)
{
    double loss = 0;
    size_t npos;
    for (int l = 0; l < NL; l++) {
        mx_stream(cl, l);
        for (int k = 0; k < cl->n_sys; k++) {
            sys_receive(cl, k, l, &npos);
            fsim_worker_forward(&cl->wk[k], l, cl->w, cl->b);
        }
    }
    for (int k = 0; k < cl->n_sys; k++)
        loss += fsim_worker_loss(&cl->wk[k]);
    for (int l = NL - 1; l >= 0; l--) {
        mx_stream(cl, l);
        for (int k = 0; k < cl->n_sys; k++)
            sys_backward(cl, k, l);
        reduce(cl);
        mx_apply(cl, l, o);
    }
    return loss / (double)cl->pb->batch;
}

const float *fsim_cluster_params(const struct cluster *cl)
{
    return cl->mx.p;
}

void fsim_cluster_finish(const struct cluster *cl, struct fsim_result *r)
{
    r->depth = cl->tree.levels;
    r->nodes = cl->tree.nodes;
    for (int j = 0; j < cl->tree.nodes; j++) {
        uint64_t n = cl->tree.reductions[j];
        r->node_reductions_min = j == 0 || n < r->node_reductions_min ? n : r->node_reductions_min;
        r->node_reductions_max = n > r->node_reductions_max ? n : r->node_reductions_max;
    }
}
