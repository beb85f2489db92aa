/* fsim_net.c - the functional simulator's network arithmetic (fsim.h states
 * the network): the optimizer that MemoryX and the reference share, and the
 * worker that runs a slice of the batch layer by layer, the same code for
 * every system and for the reference.  Single precision throughout; only the
 * loss sums are double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "fsimint.h"

float *fsim_falloc(size_t n)
{
    float *p = xmalloc(n * sizeof *p);
    memset(p, 0, n * sizeof *p);
    return p;
}

/* ---- parameters and the optimizer ---- */

void fsim_state_init(struct state *s, const float *init)
{
    memcpy(s->p, init, sizeof s->p);
    memset(s->m, 0, sizeof s->m);
    memset(s->v, 0, sizeof s->v);
}

struct opt fsim_opt_for_step(enum fsim_optimizer kind, int t)
{
    struct opt o = {kind, kind == FSIM_SGD ? FSIM_LR_SGD : FSIM_LR_ADAM, 1.0f, 1.0f};
    if (kind == FSIM_ADAM) {
        o.c1 = 1.0f - powf(FSIM_ADAM_BETA1, (float)t);
        o.c2 = 1.0f - powf(FSIM_ADAM_BETA2, (float)t);
    }
    return o;
}

/* Parameter i of s takes a step along g, its batch-mean gradient. */
void fsim_opt_elem(const struct opt *o, struct state *s, size_t i, float g)
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

void fsim_worker_new(struct worker *wk, const float *x, const float *t, size_t n)
{
    wk->n = n;
    wk->x = x;
    wk->t = t;
    wk->act[0] = NULL;
    for (int l = 0; l < NL; l++) {
        wk->act[l + 1] = fsim_falloc(n * n_out(l));
        wk->dz[l] = fsim_falloc(n * n_out(l));
    }
}

void fsim_worker_free(struct worker *wk)
{
    for (int l = 0; l < NL; l++) {
        free(wk->act[l + 1]);
        free(wk->dz[l]);
    }
}

/* What layer l reads: the inputs, or the layer below's output. */
static const float *layer_input(const struct worker *wk, int l)
{
    return l ? wk->act[l] : wk->x;
}

/* Layer l on every sample with dense weights w and biases b. */
void fsim_worker_forward(struct worker *wk, int l, const float *w, const float *b)
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
double fsim_worker_loss(struct worker *wk)
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
void fsim_worker_backward(struct worker *wk, int l, const float *w, float *gw, float *gb)
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
