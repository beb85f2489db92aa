/* fsim.c - functional weight-streaming simulator (fsim.h has the model, the
 * wire format and the assumptions).
 *
 * Layout: shapes and helpers; stream buffers and the layer encoding;
 * parameters and the optimizer; a worker that runs a slice of the batch
 * layer by layer; the SwarmX tree; MemoryX; the cluster step; the reference
 * step; the driver.  The systems and the reference share the worker and
 * MemoryX and the reference share the optimizer, so the two differ only in
 * the order of the gradient sums, and one system repeats the reference's
 * arithmetic exactly.
 *
 * The systems run one after another, so they share one scratch for the
 * decoded layer and its gradient; each keeps its own activations and its own
 * message buffers (the inbox its parent writes, the outbox its parent reads). */
#include "fsim.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../base/xalloc.h"

#define NL FSIM_LAYERS
#define MAX_W (FSIM_HIDDEN * FSIM_HIDDEN) /* largest weight matrix, elements */
#define MAX_B FSIM_HIDDEN                 /* largest bias vector */
#define HDR_BYTES 12                      /* kind, nw, nb */
#define MAX_LEVELS 32                     /* tree levels; 12 suffice for 4096 systems */

static const int width[NL + 1] = {FSIM_IN, FSIM_HIDDEN, FSIM_HIDDEN, FSIM_OUT};

/* ---- helpers ---- */

static size_t n_in(int l)
{
    return (size_t)width[l];
}
static size_t n_out(int l)
{
    return (size_t)width[l + 1];
}
static size_t n_w(int l)
{
    return n_out(l) * n_in(l);
}

static float *falloc(size_t n)
{
    float *p = xmalloc(n * sizeof *p);
    memset(p, 0, n * sizeof *p);
    return p;
}

/* Part k of n items cut into `parts` contiguous ranges as even as possible
 * (the first n % parts one longer): [*lo, *hi). */
static void shard(size_t n, size_t parts, size_t k, size_t *lo, size_t *hi)
{
    size_t q = n / parts, rem = n % parts;
    *lo = k * q + (k < rem ? k : rem);
    *hi = *lo + q + (k < rem ? 1 : 0);
}

/* ---- stream buffers ---- */

struct buf {
    unsigned char *p;
    size_t len, cap; /* bytes in use, bytes allocated */
};

static void buf_resize(struct buf *b, size_t n)
{
    if (n > b->cap) {
        b->p = xrealloc(b->p, n);
        b->cap = n;
    }
    b->len = n;
}

static void buf_copy(struct buf *dst, const struct buf *src)
{
    buf_resize(dst, src->len);
    memcpy(dst->p, src->p, src->len);
}

static uint32_t get_u32(const struct buf *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_u32(struct buf *b, size_t off, uint32_t v)
{
    memcpy(b->p + off, &v, sizeof v);
}

static uint16_t get_u16(const struct buf *b, size_t off)
{
    uint16_t v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_u16(struct buf *b, size_t off, uint16_t v)
{
    memcpy(b->p + off, &v, sizeof v);
}

static float get_f32(const struct buf *b, size_t off)
{
    float v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_f32(struct buf *b, size_t off, float v)
{
    memcpy(b->p + off, &v, sizeof v);
}

/* Byte offset of the first value: after the header and, if sparse, the
 * positions padded to 4 bytes. */
static size_t val_offset(uint32_t kind, uint32_t nw)
{
    return HDR_BYTES + (kind ? ((size_t)nw * 2 + 3) / 4 * 4 : 0);
}

/* Encode layer l into out: w is dense (n_w(l) floats); pos == NULL sends all
 * of w, else only w at the npos positions pos.  b has n_out(l) floats. */
static void encode(struct buf *out, int l, const uint16_t *pos, size_t npos, const float *w,
                   const float *b)
{
    uint32_t kind = pos != NULL, nw = (uint32_t)(pos ? npos : n_w(l)), nb = (uint32_t)n_out(l);
    size_t v = val_offset(kind, nw);
    buf_resize(out, v + 4 * ((size_t)nw + nb));
    memset(out->p, 0, v);
    put_u32(out, 0, kind);
    put_u32(out, 4, nw);
    put_u32(out, 8, nb);
    for (size_t j = 0; j < nw; j++) {
        if (pos)
            put_u16(out, HDR_BYTES + 2 * j, pos[j]);
        put_f32(out, v + 4 * j, w[pos ? pos[j] : j]);
    }
    for (size_t o = 0; o < nb; o++)
        put_f32(out, v + 4 * (nw + o), b[o]);
}

/* Decode a layer-l message into dense w (zeros off the positions) and b.
 * Sparse positions go to pos (room for n_w(l)); *npos gets the number of
 * weight values.  Returns 1 if the message was sparse. */
static int decode(const struct buf *in, int l, float *w, float *b, uint16_t *pos, size_t *npos)
{
    uint32_t kind = get_u32(in, 0), nw = get_u32(in, 4), nb = get_u32(in, 8);
    size_t v = val_offset(kind, nw);
    assert(nb == n_out(l) && (kind ? nw <= n_w(l) : nw == n_w(l)));
    assert(in->len == v + 4 * ((size_t)nw + nb));
    if (kind)
        memset(w, 0, n_w(l) * sizeof *w);
    for (size_t j = 0; j < nw; j++) {
        size_t i = kind ? get_u16(in, HDR_BYTES + 2 * j) : j;
        assert(i < n_w(l));
        if (kind)
            pos[j] = (uint16_t)i;
        w[i] = get_f32(in, v + 4 * j);
    }
    for (size_t o = 0; o < nb; o++)
        b[o] = get_f32(in, v + 4 * (nw + o));
    *npos = nw;
    return (int)kind;
}

/* acc += src, value by value; the headers and positions must agree. */
static void add_values(struct buf *acc, const struct buf *src)
{
    uint32_t kind = get_u32(acc, 0), nw = get_u32(acc, 4), nb = get_u32(acc, 8);
    size_t v = val_offset(kind, nw);
    assert(src->len == acc->len && memcmp(src->p, acc->p, v) == 0);
    for (size_t j = 0; j < (size_t)nw + nb; j++)
        put_f32(acc, v + 4 * j, get_f32(acc, v + 4 * j) + get_f32(src, v + 4 * j));
}

/* ---- parameters and the optimizer ---- */

/* All parameters live in flat arrays of FSIM_PARAMS floats, layer by layer,
 * W (row-major) then b: the layout fsim_run_params hands out. */
_Static_assert(FSIM_PARAMS == FSIM_HIDDEN * FSIM_IN + FSIM_HIDDEN + FSIM_HIDDEN * FSIM_HIDDEN +
                                  FSIM_HIDDEN + FSIM_OUT * FSIM_HIDDEN + FSIM_OUT,
               "FSIM_PARAMS does not match the layer widths");

/* Index of layer l's first weight; its biases follow at w_at(l) + n_w(l). */
static size_t w_at(int l)
{
    size_t at = 0;
    for (int j = 0; j < l; j++)
        at += n_w(j) + n_out(j);
    return at;
}

static size_t b_at(int l)
{
    return w_at(l) + n_w(l);
}

/* Weights with their optimizer state (Adam's moments; unused by SGD). */
struct state {
    float p[FSIM_PARAMS], m[FSIM_PARAMS], v[FSIM_PARAMS];
};

static void state_init(struct state *s, const float *init)
{
    memcpy(s->p, init, sizeof s->p);
    memset(s->m, 0, sizeof s->m);
    memset(s->v, 0, sizeof s->v);
}

struct opt {
    enum fsim_optimizer kind;
    float lr;
    float c1, c2; /* Adam's bias corrections 1 - beta^t for this step */
};

static struct opt opt_for_step(enum fsim_optimizer kind, int t)
{
    struct opt o = {kind, kind == FSIM_SGD ? FSIM_LR_SGD : FSIM_LR_ADAM, 1.0f, 1.0f};
    if (kind == FSIM_ADAM) {
        o.c1 = 1.0f - powf(FSIM_ADAM_BETA1, (float)t);
        o.c2 = 1.0f - powf(FSIM_ADAM_BETA2, (float)t);
    }
    return o;
}

/* Parameter i of s takes a step along g, its batch-mean gradient. */
static void opt_elem(const struct opt *o, struct state *s, size_t i, float g)
{
    float *w = s->p, *m = s->m, *v = s->v;
    if (o->kind == FSIM_SGD) {
        w[i] -= o->lr * g;
        return;
    }
    m[i] = FSIM_ADAM_BETA1 * m[i] + (1.0f - FSIM_ADAM_BETA1) * g;
    v[i] = FSIM_ADAM_BETA2 * v[i] + (1.0f - FSIM_ADAM_BETA2) * g * g;
    w[i] -= o->lr * (m[i] / o->c1) / (sqrtf(v[i] / o->c2) + FSIM_ADAM_EPS);
}

/* ---- the worker: a slice of the batch, one layer at a time ---- */

struct worker {
    size_t n;           /* samples */
    const float *x, *t; /* inputs n x FSIM_IN, targets n x FSIM_OUT (borrowed) */
    float *act[NL + 1]; /* act[l + 1]: output of layer l, n x width[l + 1] */
    float *dz[NL];      /* d(loss sum)/d(pre-activation) of layer l, n x width[l + 1] */
};

static void worker_new(struct worker *wk, const float *x, const float *t, size_t n)
{
    wk->n = n;
    wk->x = x;
    wk->t = t;
    wk->act[0] = NULL;
    for (int l = 0; l < NL; l++) {
        wk->act[l + 1] = falloc(n * n_out(l));
        wk->dz[l] = falloc(n * n_out(l));
    }
}

static void worker_free(struct worker *wk)
{
    for (int l = 0; l < NL; l++) {
        free(wk->act[l + 1]);
        free(wk->dz[l]);
    }
}

static const float *layer_input(const struct worker *wk, int l)
{
    return l ? wk->act[l] : wk->x;
}

/* Layer l on every sample with dense weights w and biases b. */
static void worker_forward(struct worker *wk, int l, const float *w, const float *b)
{
    size_t in = n_in(l), out = n_out(l);
    const float *a = layer_input(wk, l);
    float *y = wk->act[l + 1];
    for (size_t s = 0; s < wk->n; s++)
        for (size_t o = 0; o < out; o++) {
            float z = b[o];
            for (size_t i = 0; i < in; i++)
                z += w[o * in + i] * a[s * in + i];
            y[s * out + o] = l < NL - 1 ? tanhf(z) : z;
        }
}

/* Sum of the per-sample losses after the forward pass; seeds the backward
 * pass with d(loss)/d(output) of every sample. */
static double worker_loss(struct worker *wk)
{
    const float *y = wk->act[NL];
    float *d = wk->dz[NL - 1];
    double sum = 0;
    for (size_t s = 0; s < wk->n; s++) {
        double ls = 0;
        for (size_t k = s * FSIM_OUT; k < (s + 1) * FSIM_OUT; k++) {
            float e = y[k] - wk->t[k];
            ls += (double)e * e;
            d[k] = 2.0f * e / (float)FSIM_OUT;
        }
        sum += ls / FSIM_OUT;
    }
    return sum;
}

/* dz of layer l - 1 from dz of layer l through weights w and tanh. */
static void worker_backprop(struct worker *wk, int l, const float *w)
{
    size_t in = n_in(l), out = n_out(l);
    const float *a = wk->act[l], *d = wk->dz[l];
    float *prev = wk->dz[l - 1];
    for (size_t s = 0; s < wk->n; s++)
        for (size_t i = 0; i < in; i++) {
            float sum = 0;
            for (size_t o = 0; o < out; o++)
                sum += w[o * in + i] * d[s * out + o];
            float ai = a[s * in + i];
            prev[s * in + i] = sum * (1.0f - ai * ai);
        }
}

/* Gradient SUMS of layer l over the samples, in sample order, into gw
 * (dense, n_w(l)) and gb; then, for l > 0, dz of layer l - 1. */
static void worker_backward(struct worker *wk, int l, const float *w, float *gw, float *gb)
{
    size_t in = n_in(l), out = n_out(l);
    const float *a = layer_input(wk, l), *d = wk->dz[l];
    memset(gw, 0, n_w(l) * sizeof *gw);
    memset(gb, 0, out * sizeof *gb);
    for (size_t s = 0; s < wk->n; s++)
        for (size_t o = 0; o < out; o++) {
            float ds = d[s * out + o];
            gb[o] += ds;
            for (size_t i = 0; i < in; i++)
                gw[o * in + i] += ds * a[s * in + i];
        }
    if (l > 0)
        worker_backprop(wk, l, w);
}

/* ---- the problem: masks, initial weights, data ---- */

struct problem {
    size_t batch;
    int sparse;              /* sparsity > 0: sparse encoding */
    unsigned char *mask[NL]; /* 1 = weight kept */
    uint16_t *pos[NL];       /* kept positions, increasing */
    size_t nnz[NL];          /* kept weights */
    float init[FSIM_PARAMS]; /* initial parameters, weights zero off the mask */
    float *x, *t;            /* batch x FSIM_IN inputs, batch x FSIM_OUT targets */
};

/* round(sparsity x n) zeros at random positions (partial Fisher-Yates). */
static void draw_mask(gsl_rng *rng, struct problem *pb, int l, double sparsity)
{
    size_t n = n_w(l), zeros = (size_t)floor(sparsity * (double)n + 0.5);
    uint16_t perm[MAX_W];
    for (size_t i = 0; i < n; i++) {
        perm[i] = (uint16_t)i;
        pb->mask[l][i] = 1;
    }
    for (size_t j = 0; j < zeros; j++) {
        size_t k = j + gsl_rng_uniform_int(rng, (unsigned long)(n - j));
        uint16_t tmp = perm[j];
        perm[j] = perm[k];
        perm[k] = tmp;
        pb->mask[l][perm[j]] = 0;
    }
    pb->nnz[l] = 0;
    for (size_t i = 0; i < n; i++)
        if (pb->mask[l][i])
            pb->pos[l][pb->nnz[l]++] = (uint16_t)i;
}

/* Gaussian weights of sd 1/sqrt(fan-in) into w[rows x cols]. */
static void draw_gauss(gsl_rng *rng, float *w, size_t rows, size_t cols)
{
    double sd = 1.0 / sqrt((double)cols);
    for (size_t i = 0; i < rows * cols; i++)
        w[i] = (float)gsl_ran_gaussian(rng, sd);
}

/* Inputs uniform in [-1, 1), targets from the teacher T2 tanh(T1 x). */
static void draw_data(gsl_rng *rng, struct problem *pb)
{
    float t1[FSIM_HIDDEN * FSIM_IN], t2[FSIM_OUT * FSIM_HIDDEN], h[FSIM_HIDDEN];
    draw_gauss(rng, t1, FSIM_HIDDEN, FSIM_IN);
    draw_gauss(rng, t2, FSIM_OUT, FSIM_HIDDEN);
    for (size_t s = 0; s < pb->batch; s++) {
        float *x = pb->x + s * FSIM_IN, *t = pb->t + s * FSIM_OUT;
        for (size_t i = 0; i < FSIM_IN; i++)
            x[i] = (float)(2.0 * gsl_rng_uniform(rng) - 1.0);
        for (size_t j = 0; j < FSIM_HIDDEN; j++) {
            float z = 0;
            for (size_t i = 0; i < FSIM_IN; i++)
                z += t1[j * FSIM_IN + i] * x[i];
            h[j] = tanhf(z);
        }
        for (size_t o = 0; o < FSIM_OUT; o++) {
            t[o] = 0;
            for (size_t j = 0; j < FSIM_HIDDEN; j++)
                t[o] += t2[o * FSIM_HIDDEN + j] * h[j];
        }
    }
}

static void problem_draw(gsl_rng *rng, struct problem *pb, double sparsity)
{
    for (int l = 0; l < NL; l++)
        draw_mask(rng, pb, l, sparsity);
    for (int l = 0; l < NL; l++) {
        float *w = pb->init + w_at(l);
        draw_gauss(rng, w, n_out(l), n_in(l));
        for (size_t i = 0; i < n_w(l); i++)
            if (!pb->mask[l][i])
                w[i] = 0.0f;
        memset(pb->init + b_at(l), 0, n_out(l) * sizeof(float));
    }
    draw_data(rng, pb);
}

static void problem_free(struct problem *pb)
{
    for (int l = 0; l < NL; l++) {
        free(pb->mask[l]);
        free(pb->pos[l]);
    }
    free(pb->x);
    free(pb->t);
}

static cp_status problem_new(struct problem *pb, const struct fsim_config *c, struct cp_error *err)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return cp_fail(err, CP_ENOMEM, "fsim: cannot allocate the random number generator");
    gsl_rng_set(rng, c->seed);
    pb->batch = (size_t)c->batch;
    pb->sparse = c->sparsity > 0;
    for (int l = 0; l < NL; l++) {
        pb->mask[l] = xmalloc(n_w(l));
        pb->pos[l] = xmalloc(n_w(l) * sizeof *pb->pos[l]);
    }
    pb->x = falloc(pb->batch * FSIM_IN);
    pb->t = falloc(pb->batch * FSIM_OUT);
    problem_draw(rng, pb, c->sparsity);
    gsl_rng_free(rng);
    return CP_OK;
}

/* ---- the cluster: MemoryX, the SwarmX tree, the systems ---- */

/* A system's or a tree node's message buffers: the inbox its parent writes
 * (weights down) and the outbox its parent reads (gradients up). */
struct port {
    struct buf down, up;
};

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

static struct port *node_port(struct cluster *cl, int lv, int j)
{
    return &cl->port[cl->n_sys + cl->tree.first[lv] + j];
}

/* Child c of a node of level lv: a node of level lv - 1, or a system. */
static struct port *child_port(struct cluster *cl, int lv, int c)
{
    return lv ? node_port(cl, lv - 1, c) : &cl->port[c];
}

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
        buf_copy(&child_port(cl, lv, c)->down, &nd->down);
        note_sent(cl, FSIM_DOWN, link_above(cl, lv - 1), &nd->down);
    }
}

/* MemoryX's message down to every system's inbox. */
static void broadcast(struct cluster *cl, const struct buf *msg)
{
    buf_copy(&top_port(cl)->down, msg);
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
            buf_copy(&nd->up, in);
        else
            add_values(&nd->up, in);
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
    encode(&cl->mx_msg, l, pb->sparse ? pb->pos[l] : NULL, pb->nnz[l], cl->mx.p + w_at(l),
           cl->mx.p + b_at(l));
    cl->r->values_streamed[l] += get_u32(&cl->mx_msg, 4);
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
            opt_elem(o, s, w0 + i, cl->gw[i]);
            cl->r->unit_updates++;
        }
    shard(n_out(l), (size_t)cl->units, (size_t)u, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        opt_elem(o, s, b0 + i, cl->gb[i]);
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
    decode(&top_port(cl)->up, l, cl->gw, cl->gb, cl->pos, &npos);
    assert(npos == (cl->pb->sparse ? cl->pb->nnz[l] : n_w(l)));
    for (size_t i = 0; i < n_w(l); i++)
        cl->gw[i] /= batch;
    for (size_t i = 0; i < n_out(l); i++)
        cl->gb[i] /= batch;
    for (int u = 0; u < cl->units; u++)
        mx_unit_update(cl, u, l, o);
}

static struct cluster *cluster_new(const struct problem *pb, const struct fsim_config *c,
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
    state_init(&cl->mx, pb->init);
    size_t ports = (size_t)(c->systems + cl->tree.nodes);
    cl->port = xmalloc(ports * sizeof *cl->port);
    memset(cl->port, 0, ports * sizeof *cl->port);
    cl->wk = xmalloc((size_t)c->systems * sizeof *cl->wk);
    for (int k = 0; k < c->systems; k++) {
        size_t lo, hi;
        shard(pb->batch, (size_t)c->systems, (size_t)k, &lo, &hi);
        worker_new(&cl->wk[k], pb->x + lo * FSIM_IN, pb->t + lo * FSIM_OUT, hi - lo);
    }
    return cl;
}

static void cluster_free(struct cluster *cl)
{
    for (int k = 0; k < cl->n_sys; k++)
        worker_free(&cl->wk[k]);
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
    return decode(&cl->port[k].down, l, cl->w, cl->b, cl->pos, npos);
}

/* System k's backward pass of layer l: gradient sums into its outbox. */
static void sys_backward(struct cluster *cl, int k, int l)
{
    size_t npos;
    int sparse = sys_receive(cl, k, l, &npos);
    worker_backward(&cl->wk[k], l, cl->w, cl->gw, cl->gb);
    encode(&cl->port[k].up, l, sparse ? cl->pos : NULL, npos, cl->gw, cl->gb);
    note_sent(cl, FSIM_UP, link_above(cl, -1), &cl->port[k].up);
}

/* One training step of the cluster; returns the batch loss before it. */
static double cluster_step(struct cluster *cl, const struct opt *o)
{
    double loss = 0;
    size_t npos;
    for (int l = 0; l < NL; l++) {
        mx_stream(cl, l);
        for (int k = 0; k < cl->n_sys; k++) {
            sys_receive(cl, k, l, &npos);
            worker_forward(&cl->wk[k], l, cl->w, cl->b);
        }
    }
    for (int k = 0; k < cl->n_sys; k++)
        loss += worker_loss(&cl->wk[k]);
    for (int l = NL - 1; l >= 0; l--) {
        mx_stream(cl, l);
        for (int k = 0; k < cl->n_sys; k++)
            sys_backward(cl, k, l);
        reduce(cl);
        mx_apply(cl, l, o);
    }
    return loss / (double)cl->pb->batch;
}

/* ---- the reference: one system, dense masked weights ---- */

struct ref {
    struct state st;
    struct worker wk;
    float *wm[NL]; /* this step's weights times the mask */
    float gw[MAX_W], gb[MAX_B];
};

static struct ref *ref_new(const struct problem *pb)
{
    struct ref *rf = xmalloc(sizeof *rf);
    state_init(&rf->st, pb->init);
    worker_new(&rf->wk, pb->x, pb->t, pb->batch);
    for (int l = 0; l < NL; l++)
        rf->wm[l] = falloc(n_w(l));
    return rf;
}

static void ref_free(struct ref *rf)
{
    worker_free(&rf->wk);
    for (int l = 0; l < NL; l++)
        free(rf->wm[l]);
    free(rf);
}

/* Backward pass of layer l and its update: gradient times the mask, over the
 * batch, every element stepped. */
static void ref_update(struct ref *rf, const struct problem *pb, int l, const struct opt *o)
{
    struct state *s = &rf->st;
    float batch = (float)pb->batch;
    size_t w0 = w_at(l), b0 = b_at(l);
    worker_backward(&rf->wk, l, rf->wm[l], rf->gw, rf->gb);
    for (size_t i = 0; i < n_w(l); i++)
        opt_elem(o, s, w0 + i, rf->gw[i] * pb->mask[l][i] / batch);
    for (size_t i = 0; i < n_out(l); i++)
        opt_elem(o, s, b0 + i, rf->gb[i] / batch);
}

static double ref_step(struct ref *rf, const struct problem *pb, const struct opt *o)
{
    for (int l = 0; l < NL; l++) {
        const float *w = rf->st.p + w_at(l);
        for (size_t i = 0; i < n_w(l); i++)
            rf->wm[l][i] = w[i] * pb->mask[l][i];
        worker_forward(&rf->wk, l, rf->wm[l], rf->st.p + b_at(l));
    }
    double loss = worker_loss(&rf->wk) / (double)pb->batch;
    for (int l = NL - 1; l >= 0; l--)
        ref_update(rf, pb, l, o);
    return loss;
}

/* ---- the driver ---- */

/* Nodes of the SwarmX tree over n systems of fan-out k (tree_new). */
static double tree_nodes(int n, int k)
{
    double nodes = 0;
    for (int below = n; below > 1;) {
        below = (below - 1) / k + 1;
        nodes += below;
    }
    return nodes;
}

double fsim_events(const struct fsim_config *c)
{
    double links = c->systems + tree_nodes(c->systems, c->fanout);
    return (double)c->steps * ((double)c->batch + 3 * FSIM_LAYERS * links);
}

static cp_status check_config(const struct fsim_config *c, struct cp_error *err)
{
    if (c->systems < 1 || c->systems > FSIM_MAX_SYSTEMS)
        return cp_fail(err, CP_EINPUT, "-n: must be 1..%d, got %d", FSIM_MAX_SYSTEMS, c->systems);
    if (c->fanout < 2)
        return cp_fail(err, CP_EINPUT, "swarmx.fanout: must be at least 2, got %d", c->fanout);
    if (c->units < 1 || c->units > FSIM_MAX_UNITS)
        return cp_fail(err, CP_EINPUT, "--memoryx-units: must be 1..%d, got %d", FSIM_MAX_UNITS,
                       c->units);
    if (c->steps < 1 || c->steps > FSIM_MAX_STEPS)
        return cp_fail(err, CP_EINPUT, "--steps: must be 1..%d, got %d", FSIM_MAX_STEPS, c->steps);
    if (c->batch < c->systems || c->batch > FSIM_MAX_BATCH)
        return cp_fail(err, CP_EINPUT, "--batch: must be %d (one sample per system)..%d, got %d",
                       c->systems, FSIM_MAX_BATCH, c->batch);
    if (!(c->sparsity >= 0 && c->sparsity < 1))
        return cp_fail(err, CP_EINPUT, "--sparsity: must be in [0, 1), got %g", c->sparsity);
    if (c->optimizer != FSIM_SGD && c->optimizer != FSIM_ADAM)
        return cp_fail(err, CP_EINPUT, "--optimizer: must be sgd or adam, got %d",
                       (int)c->optimizer);
    double most = c->max_events > 0 ? c->max_events : FSIM_MAX_EVENTS;
    if (!(c->max_events == 0 || (c->max_events >= 1 && c->max_events <= FSIM_CEIL_EVENTS &&
                                 c->max_events == floor(c->max_events))))
        return cp_fail(err, CP_EINPUT, "--max-events: must be a whole number in 1..%g, got %g",
                       FSIM_CEIL_EVENTS, c->max_events);
    if (fsim_events(c) > most)
        return cp_fail(err, CP_EINPUT,
                       "--max-events: the run would take %.4g events (%d steps, each of %d "
                       "samples and %.4g messages), more than the %.4g allowed; lower --steps or "
                       "--batch, or raise --max-events (up to %g)",
                       fsim_events(c), c->steps, c->batch, fsim_events(c) / c->steps - c->batch,
                       most, FSIM_CEIL_EVENTS);
    return CP_OK;
}

/* max_i |a_i - b_i| / max_i |b_i| over layer l's weights and biases. */
static double layer_rel_diff(const float *a, const float *b, int l)
{
    double diff = 0, ref = 0;
    for (size_t i = w_at(l); i < w_at(l + 1); i++) {
        diff = fmax(diff, fabs((double)a[i] - b[i]));
        ref = fmax(ref, fabs((double)b[i]));
    }
    return ref > 0 ? diff / ref : diff;
}

/* The end-of-run figures: differences, mask counts, per-node reductions. */
static void finish(struct fsim_result *r, const struct cluster *cl, const struct ref *rf)
{
    const struct problem *pb = cl->pb;
    r->depth = cl->tree.levels;
    r->nodes = cl->tree.nodes;
    for (int l = 0; l < NL; l++) {
        r->max_rel_diff = fmax(r->max_rel_diff, layer_rel_diff(cl->mx.p, rf->st.p, l));
        r->weight_count[l] = n_w(l);
        r->mask_nnz[l] = pb->nnz[l];
        const float *w = cl->mx.p + w_at(l);
        for (size_t i = 0; i < n_w(l); i++)
            r->off_mask_nonzero += !pb->mask[l][i] && w[i] != 0.0f;
    }
    for (int j = 0; j < cl->tree.nodes; j++) {
        uint64_t n = cl->tree.reductions[j];
        r->node_reductions_min = j == 0 || n < r->node_reductions_min ? n : r->node_reductions_min;
        r->node_reductions_max = n > r->node_reductions_max ? n : r->node_reductions_max;
    }
}

static void train(struct cluster *cl, struct ref *rf, const struct fsim_config *c,
                  struct fsim_result *r)
{
    for (int t = 1; t <= c->steps; t++) {
        struct opt o = opt_for_step(c->optimizer, t);
        double loss = cluster_step(cl, &o), ref_loss = ref_step(rf, cl->pb, &o);
        if (t == 1) {
            r->loss_first = loss;
            r->ref_loss_first = ref_loss;
        }
        r->loss_last = loss;
        r->ref_loss_last = ref_loss;
    }
}

void fsim_config_init(struct fsim_config *c)
{
    memset(c, 0, sizeof *c);
    c->systems = 1;
    c->fanout = 2;
    c->units = 1;
    c->steps = 10;
    c->batch = 64;
    c->sparsity = 0;
    c->optimizer = FSIM_ADAM;
    c->seed = 1;
    c->max_events = FSIM_MAX_EVENTS;
}

cp_status fsim_run_params(const struct fsim_config *c, struct fsim_result *r, float *sim_params,
                          float *ref_params, struct cp_error *err)
{
    struct problem pb;
    struct fsim_result res;
    cp_status st = check_config(c, err);
    if (st != CP_OK)
        return st;
    st = problem_new(&pb, c, err);
    if (st != CP_OK)
        return st;
    memset(&res, 0, sizeof res);
    struct cluster *cl = cluster_new(&pb, c, &res);
    struct ref *rf = ref_new(&pb);
    train(cl, rf, c, &res);
    finish(&res, cl, rf);
    if (sim_params)
        memcpy(sim_params, cl->mx.p, sizeof cl->mx.p);
    if (ref_params)
        memcpy(ref_params, rf->st.p, sizeof rf->st.p);
    ref_free(rf);
    cluster_free(cl);
    problem_free(&pb);
    memcpy(r, &res, sizeof res);
    return CP_OK;
}

cp_status fsim_run(const struct fsim_config *c, struct fsim_result *r, struct cp_error *err)
{
    return fsim_run_params(c, r, NULL, NULL, err);
}
