/* simtopo.c - the simulator's components and how they are linked (the
 * model is stated in sim.h): every system's ingress link, compute engine
 * and egress link; the SwarmX tree over them, each node with a link down
 * (broadcast) and one up (reduce); and the MemoryX units at its root, each
 * standing for S / U of the S servers. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "../base/xalloc.h"
#include "simint.h"

static int add_comp(struct sim *s, int kind, int serves, int index, double bw, double lat)
{
    struct comp *x = &s->c[s->nc];
    *x = (struct comp){.kind = (uint8_t)kind, .serves = (uint8_t)serves, .index = index};
    x->bw_Bps = bw;
    x->lat_s = lat;
    return s->nc++;
}

/* Items of one tree level: a system or a node, with its down (in) and up
 * (out) links and, for a system, its compute engine. */
struct item {
    int in, out; /* link components, -1 for the top item              */
    int compute; /* systems only, else -1                             */
    int is_node;
    int child0, nchild; /* node: its children in the level below       */
};

/* Adjacency is built as lists of (from, to) pairs first, then packed. */
struct edge {
    int from, to;
};

static int cmp_from(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->from != y->from ? (x->from > y->from) - (x->from < y->from)
                              : (x->to > y->to) - (x->to < y->to);
}

static int cmp_to(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->to != y->to ? (x->to > y->to) - (x->to < y->to)
                          : (x->from > y->from) - (x->from < y->from);
}

static void pack_edges(struct sim *s, struct edge *e, int ne)
{
    qsort(e, (size_t)ne, sizeof *e, cmp_from);
    for (int i = 0; i < ne; i++) {
        struct comp *x = &s->c[e[i].from];
        if (x->ndn++ == 0)
            x->dn0 = s->ndns;
        s->dns[s->ndns++] = e[i].to;
    }
    qsort(e, (size_t)ne, sizeof *e, cmp_to);
    for (int i = 0; i < ne; i++) {
        struct comp *x = &s->c[e[i].to];
        if (x->nup++ == 0)
            x->up0 = s->nups;
        s->ups[s->nups++] = e[i].from;
    }
}

static double link_bw(const struct sim *s, int to_system)
{
    double bw = s->hw->swx.link_bw_Bps;
    return to_system ? fmin(bw, s->hw->wse.io_bw_Bps) : bw;
}

/* A node sums its children's gradient streams at reduce_bandwidth in all,
 * so with c children each of them, and the sum it sends on, moves at most
 * reduce_bandwidth / c; a node with one child sums nothing and only
 * forwards. */
static double reduce_bw(const struct sim *s, int children)
{
    return children > 1 ? s->hw->swx.reduce_Bps / children : INFINITY;
}

int simtopo_fanout(double fanout, int n)
{
    int one_node = n > 2 ? n : 2;
    return fanout >= one_node ? one_node : (int)fanout;
}

/* Levels: systems, then nodes grouping up to k items of the level below,
 * until one item is left (with several MemoryX units and one system, one
 * node joins them).  Components: each system's ingress, compute and
 * egress, each node's down and up links, but none of the top item's links,
 * which are MemoryX's: each unit's egress, ingress and update.  Links: a
 * system's compute to its two links; a child's two links to its parent's
 * (to every unit's, under the top node); a unit's ingress to its update. */
void simtopo_shape(int n, int u, int k, struct topo_shape *t)
{
    *t = (struct topo_shape){0};
    for (int len = n, extra = n == 1 && u > 1; len > 1 || extra; extra = 0) {
        t->top_children = len;
        len = (len + k - 1) / k;
        t->nodes += len;
        t->depth++;
    }
    int items = n + t->nodes, top_sys = t->nodes == 0;
    t->comps = top_sys ? 1 + 3 * u : 3 * n + 2 * (t->nodes - 1) + 3 * u;
    t->edges =
        (top_sys ? 2 * u : 2 * n) + 2 * (items - 1 - t->top_children) + 2 * u * t->top_children + u;
    t->bytes = (double)t->comps * sizeof(struct comp) + (double)items * sizeof(struct item) +
               (double)t->edges * (sizeof(struct edge) + 2 * sizeof(int32_t));
}

/* What a system's egress serves: it also carries the offloaded activations
 * out in the forward pass. */
static int egress_serves(const struct sim *s)
{
    return s->offload ? SERVE_ACT : SERVE_BWD;
}

/* The n + nodes items, systems first, and each node's children: level by
 * level, consecutive groups of k items of the level below (with several
 * MemoryX units and one system, one node over that system). */
static void link_parents(struct item *it, int items, int n, int u, int k)
{
    for (int i = 0; i < items; i++)
        it[i] = (struct item){-1, -1, -1, i >= n, 0, 0};
    for (int lo = 0, len = n, next = n, extra = n == 1 && u > 1; len > 1 || extra; extra = 0) {
        int parents = (len + k - 1) / k;
        for (int p = 0; p < parents; p++) {
            struct item *P = &it[next + p];
            P->child0 = lo + p * k;
            P->nchild = (p == parents - 1) ? len - p * k : k;
        }
        lo = next;
        next += parents;
        len = parents;
    }
}

/* Links and engines of every item; the top item's links are MemoryX's.
 * A node's up link carries the sum of its children's gradients. */
static void add_items(struct sim *s, struct item *it, int items)
{
    int n = s->n, egress = egress_serves(s);
    double hop = s->hw->swx.hop_latency_s;
    for (int i = 0; i < items; i++) {
        int sys = i < n, top = i == items - 1;
        if (sys)
            it[i].compute = add_comp(s, SIM_COMPUTE, SERVE_ALL, i, 0, 0);
        if (!top) {
            double up = sys ? link_bw(s, 1) : fmin(link_bw(s, 0), reduce_bw(s, it[i].nchild));
            it[i].in = add_comp(s, sys ? SIM_SYS_INGRESS : SIM_SWX_DOWN, SERVE_ALL, i,
                                link_bw(s, sys), hop);
            it[i].out = add_comp(s, sys ? SIM_SYS_EGRESS : SIM_SWX_UP, sys ? egress : SERVE_BWD, i,
                                 up, sys ? 0 : hop);
        }
    }
}

/* Down: a node's in-link feeds its children's in-links (a system's
 * in-link feeds its compute); up: children's out-links feed the node's
 * out-link, a system's compute feeds its out-link.  Returns the edges
 * written to e. */
static int item_edges(const struct item *it, int items, struct edge *e)
{
    int ne = 0;
    for (int i = 0; i < items; i++) {
        const struct item *I = &it[i];
        if (I->compute >= 0) {
            if (I->in >= 0)
                e[ne++] = (struct edge){I->in, I->compute};
            if (I->out >= 0)
                e[ne++] = (struct edge){I->compute, I->out};
        }
        for (int c = I->child0; c < I->child0 + I->nchild && I->is_node; c++) {
            if (I->in >= 0)
                e[ne++] = (struct edge){I->in, it[c].in};
            if (I->out >= 0)
                e[ne++] = (struct edge){it[c].out, I->out};
        }
    }
    return ne;
}

/* MemoryX units at the top item T: each carries S / U servers' network
 * each way (capped by the link it drives), and when T is a node that sums,
 * takes 1/U of its sum.  Each unit's egress, then ingress, then update
 * engine (s->mx_out0, s->update0); returns the first ingress. */
static int add_memoryx(struct sim *s, const struct item *T)
{
    int u = s->units, top_sys = !T->is_node, egress = egress_serves(s);
    double hop = s->hw->swx.hop_latency_s;
    double share = s->cfg->mx_servers * s->hw->mx.server_net_Bps / u;
    double down = fmin(share, link_bw(s, top_sys));
    double up = top_sys ? down : fmin(down, reduce_bw(s, T->nchild) / u);
    s->mx_out0 = s->nc;
    for (int j = 0; j < u; j++) {
        int out = add_comp(s, top_sys ? SIM_SYS_INGRESS : SIM_MX_EGRESS, SERVE_ALL, j, down, 0);
        s->c[out].mx_out = 1;
    }
    int mx_in0 = s->nc;
    for (int j = 0; j < u; j++)
        add_comp(s, top_sys ? SIM_SYS_EGRESS : SIM_MX_INGRESS, top_sys ? egress : SERVE_BWD, j, up,
                 top_sys ? 0 : hop);
    s->update0 = s->nc;
    for (int j = 0; j < u; j++)
        add_comp(s, SIM_UPDATE, SERVE_UPD, j, 0, 0);
    for (int i = s->mx_out0; i < s->nc; i++)
        s->c[i].shard = 1;
    return mx_in0;
}

/* Each unit's egress feeds the top system's compute or the top node's
 * children's in-links, whose out-links (or the compute) feed its ingress,
 * which feeds its update.  Returns the edges written to e. */
static int memoryx_edges(const struct sim *s, const struct item *it, const struct item *T,
                         int mx_in0, struct edge *e)
{
    int ne = 0;
    for (int j = 0; j < s->units; j++) {
        if (!T->is_node) {
            e[ne++] = (struct edge){s->mx_out0 + j, T->compute};
            e[ne++] = (struct edge){T->compute, mx_in0 + j};
        } else {
            for (int c = T->child0; c < T->child0 + T->nchild; c++) {
                e[ne++] = (struct edge){s->mx_out0 + j, it[c].in};
                e[ne++] = (struct edge){it[c].out, mx_in0 + j};
            }
        }
        e[ne++] = (struct edge){mx_in0 + j, s->update0 + j};
    }
    return ne;
}

/* Build components and links (simtopo_shape). */
void simtopo_build(struct sim *s)
{
    struct topo_shape shape;
    simtopo_shape(s->n, s->units, s->fanout, &shape);
    s->r->depth = shape.depth;
    s->r->nodes = shape.nodes;
    int items = s->n + shape.nodes;
    s->c = xmalloc((size_t)shape.comps * sizeof *s->c);
    struct item *it = xmalloc((size_t)items * sizeof *it);
    struct edge *e = xmalloc((size_t)shape.edges * sizeof *e);
    link_parents(it, items, s->n, s->units, s->fanout);
    add_items(s, it, items);
    int ne = item_edges(it, items, e);
    int mx_in0 = add_memoryx(s, &it[items - 1]);
    ne += memoryx_edges(s, it, &it[items - 1], mx_in0, e + ne);
    assert(ne == shape.edges && s->nc == shape.comps);
    s->ups = xmalloc((size_t)ne * sizeof *s->ups);
    s->dns = xmalloc((size_t)ne * sizeof *s->dns);
    pack_edges(s, e, ne);
    free(e);
    free(it);
    for (int i = 0; i < s->nc; i++)
        s->r->count[s->c[i].kind]++;
}
