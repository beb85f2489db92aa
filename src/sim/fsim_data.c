/* fsim_data.c - the functional simulator's problem (fsim.h states what is
 * drawn and in which order): the sparsity masks, the initial weights and the
 * data of a fixed teacher network, all from one gsl mt19937 seeded with
 * config.seed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../base/xalloc.h"
#include "fsimint.h"

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

/* Masks first, then the initial weights, then the data (fsim.h's order). */
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

void fsim_problem_free(struct problem *pb)
{
    for (int l = 0; l < NL; l++) {
        free(pb->mask[l]);
        free(pb->pos[l]);
    }
    free(pb->x);
    free(pb->t);
}

cp_status fsim_problem_new(struct problem *pb, const struct fsim_config *c, struct cp_error *err)
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
    pb->x = fsim_falloc(pb->batch * FSIM_IN);
    pb->t = fsim_falloc(pb->batch * FSIM_OUT);
    problem_draw(rng, pb, c->sparsity);
    gsl_rng_free(rng);
    return CP_OK;
}
