/* fsimint.h - the functional simulator's insides (the model, the wire format
 * and the assumptions are stated in fsim.h), shared by fsim_net.c (the
 * network's arithmetic and the optimizer), fsim_data.c (masks, initial
 * weights, data), fsim_wire.c (stream buffers), fsim_cluster.c (MemoryX,
 * the SwarmX tree and the systems) and fsim.c (the reference and the
 * driver).  Not for use outside src/sim.
 *
 * The systems and the reference share the worker, and MemoryX and the
 * reference share the optimizer, so the two differ only in the order of the
 * gradient sums, and one system repeats the reference's arithmetic exactly. */
#ifndef CP_FSIMINT_H
#define CP_FSIMINT_H

#include <stddef.h>
#include <stdint.h>

#include "fsim.h"

#define NL FSIM_LAYERS
#define MAX_W (FSIM_HIDDEN * FSIM_HIDDEN) /* largest weight matrix, elements */
#define MAX_B FSIM_HIDDEN                 /* largest bias vector */

/* ---- shapes and the parameter layout ---- */

/* Width of activation l: the input (l = 0), the hidden layers, the output. */
static inline size_t fsim_width(int l)
{
    static const int width[NL + 1] = {FSIM_IN, FSIM_HIDDEN, FSIM_HIDDEN, FSIM_OUT};
    return (size_t)width[l];
}

static inline size_t n_in(int l)
{
    return fsim_width(l);
}

static inline size_t n_out(int l)
{
    return fsim_width(l + 1);
}

static inline size_t n_w(int l)
{
    return n_out(l) * n_in(l);
}

/* All parameters live in flat arrays of FSIM_PARAMS floats, layer by layer,
 * W (row-major) then b: the layout fsim_run_params hands out.  Index of
 * layer l's first weight; its biases follow at w_at(l) + n_w(l). */
static inline size_t w_at(int l)
{
    size_t at = 0;
    for (int j = 0; j < l; j++)
        at += n_w(j) + n_out(j);
    return at;
}

static inline size_t b_at(int l)
{
    return w_at(l) + n_w(l);
}

_Static_assert(FSIM_PARAMS == FSIM_HIDDEN * FSIM_IN + FSIM_HIDDEN + FSIM_HIDDEN * FSIM_HIDDEN +
                                  FSIM_HIDDEN + FSIM_OUT * FSIM_HIDDEN + FSIM_OUT,
               "FSIM_PARAMS does not match the layer widths");

/* n zeroed floats (xmalloc: aborts if memory runs out). */
float *fsim_falloc(size_t n);

/* ---- fsim_net.c: the optimizer and the worker ---- */

/* Weights with their optimizer state (Adam's moments; unused by SGD). */
struct state {
    float p[FSIM_PARAMS], m[FSIM_PARAMS], v[FSIM_PARAMS];
};

/* The optimizer of one step. */
struct opt {
    enum fsim_optimizer kind;
    float lr;
    float c1, c2; /* Adam's bias corrections 1 - beta^t for this step */
};

/* s's weights from init (FSIM_PARAMS floats), its moments zero. */
void fsim_state_init(struct state *s, const float *init);
/* The optimizer of kind for step t (counted from 1). */
struct opt fsim_opt_for_step(enum fsim_optimizer kind, int t);
/* Parameter i of s takes a step along g, its batch-mean gradient. */
void fsim_opt_elem(const struct opt *o, struct state *s, size_t i, float g);

/* A slice of the batch, run one layer at a time. */
struct worker {
    size_t n;           /* samples */
    const float *x, *t; /* inputs n x FSIM_IN, targets n x FSIM_OUT (borrowed) */
    float *act[NL + 1]; /* act[l + 1]: output of layer l, n x n_out(l) */
    float *dz[NL];      /* d(loss sum)/d(pre-activation) of layer l, n x n_out(l) */
};

/* A worker over the n samples at x and t, which it borrows. */
void fsim_worker_new(struct worker *wk, const float *x, const float *t, size_t n);
void fsim_worker_free(struct worker *wk);
/* Layer l on every sample with dense weights w and biases b. */
void fsim_worker_forward(struct worker *wk, int l, const float *w, const float *b);
/* Sum of the per-sample losses after the forward pass; seeds the backward
 * pass with d(loss)/d(output) of every sample. */
double fsim_worker_loss(struct worker *wk);
/* Gradient SUMS of layer l over the samples, in sample order, into gw
 * (dense, n_w(l)) and gb; then, for l > 0, dz of layer l - 1 through w. */
void fsim_worker_backward(struct worker *wk, int l, const float *w, float *gw, float *gb);

/* ---- fsim_data.c: the problem ---- */

/* What config.seed draws: masks, initial weights, data. */
struct problem {
    size_t batch;
    int sparse;              /* sparsity > 0: sparse encoding */
    unsigned char *mask[NL]; /* 1 = weight kept */
    uint16_t *pos[NL];       /* kept positions, increasing */
    size_t nnz[NL];          /* kept weights */
    float init[FSIM_PARAMS]; /* initial parameters, weights zero off the mask */
    float *x, *t;            /* batch x FSIM_IN inputs, batch x FSIM_OUT targets */
};

/* Draw c's problem into *pb.  CP_ENOMEM if GSL cannot allocate its random
 * generator (then nothing is allocated); free with fsim_problem_free. */
cp_status fsim_problem_new(struct problem *pb, const struct fsim_config *c, struct cp_error *err);
void fsim_problem_free(struct problem *pb);

/* ---- fsim_wire.c: stream buffers ---- */

struct buf {
    unsigned char *p;
    size_t len, cap; /* bytes in use, bytes allocated */
};

/* dst becomes a copy of src. */
void fsim_buf_copy(struct buf *dst, const struct buf *src);
/* Weight values a message carries (its nw). */
uint32_t fsim_msg_values(const struct buf *b);
/* Encode layer l into out: w is dense (n_w(l) floats); pos == NULL sends all
 * of w, else only w at the npos positions pos.  b has n_out(l) floats. */
void fsim_encode(struct buf *out, int l, const uint16_t *pos, size_t npos, const float *w,
                 const float *b);
/* Decode a layer-l message into dense w (zeros off the positions) and b.
 * Sparse positions go to pos (room for n_w(l)); *npos gets the number of
 * weight values.  Returns 1 if the message was sparse. */
int fsim_decode(const struct buf *in, int l, float *w, float *b, uint16_t *pos, size_t *npos);
/* acc += src, value by value; the headers and positions must agree. */
void fsim_add_values(struct buf *acc, const struct buf *src);

/* ---- fsim_cluster.c: MemoryX, the SwarmX tree, the systems ---- */

struct cluster;

/* The cluster of c training pb (borrowed), counting its traffic into r. */
struct cluster *fsim_cluster_new(const struct problem *pb, const struct fsim_config *c,
                                 struct fsim_result *r);
void fsim_cluster_free(struct cluster *cl);
/* One training step of the cluster; returns the batch loss before it. */
double fsim_cluster_step(struct cluster *cl, const struct opt *o);
/* MemoryX's master weights, FSIM_PARAMS floats. */
const float *fsim_cluster_params(const struct cluster *cl);
/* The tree's figures into r: depth, nodes, reductions per node. */
void fsim_cluster_finish(const struct cluster *cl, struct fsim_result *r);

#endif
