/* loss.c - the token multiplier of sparse pretraining at equal quality
 * (loss.h), and the two published constant sets a model names. */
#include "loss.h"

#include <math.h>
#include <stdio.h>

const char *const loss_fit_name[LOSS_NFITS] = {"chinchilla", "t5-c4"};

const char *const loss_fit_source[LOSS_NFITS] = {
    "the Chinchilla law on the non-zero weights, Hoffmann et al. 2022 and Jin et al. 2025",
    "Frantar et al. 2024 Table 1 T5/C4, optimistic",
};

const struct loss_spec loss_fits[LOSS_NFITS] = {
    /* Hoffmann et al. 2022, "Training Compute-Optimal Large Language
     * Models", eq. 10 (approach 3): E 1.69, A 406.4, B 410.7, alpha 0.34,
     * beta 0.28, on the non-zero weights (Jin et al. 2025, ICLR, arXiv
     * 2501.12486: loss follows the average parameter count over training,
     * the non-zero count for static sparsity), so a_S = 0 (b_S unused) and
     * a_D = B^(1/beta) = 410.7^(1/0.28) = 2.157828e9 tokens. */
    [LOSS_CHINCHILLA] = {0, 1, 406.4, 0.34, 2.157828e9, 0.28, 1.69},
    /* Frantar et al. 2024 (ICLR, arXiv 2309.08520), Table 1, T5/C4; the
     * same from the authors' fit (jaxpruner projects/bigsparse
     * sparsity-scaling.ipynb) in raw units, D in tokens at 65,536 tokens
     * a step.  Fit on runs pruned gradually from 25 % to 75 % of
     * training, N_nz 1.3e6 .. 8.5e7, D 1.6e10 .. 6.6e10: charged here at
     * full sparse speed from the first step, an optimistic bound. */
    [LOSS_T5_C4] = {16.8, 0.722, 45.0, 0.245, 6.90e8, 0.203, 0.651},
};

/* The parameter term of the loss at sparsity s: (a_S (1-s)^b_S + c_S)
 * ((1-s) N)^-b_N. */
static double param_term(const struct loss_spec *l, double s, double weights)
{
    double x = 1 - s;
    return (l->sparse_a * pow(x, l->sparse_b) + l->param_coeff) *
           pow(x * weights, -l->param_exponent);
}

static double data_term(const struct loss_spec *l, double tokens)
{
    return pow(l->data_scale / tokens, l->data_exponent);
}

double loss_at(const struct loss_spec *l, double sparsity, double weights, double tokens)
{
    return param_term(l, sparsity, weights) + data_term(l, tokens) + l->irreducible;
}

double loss_floor(const struct loss_spec *l, double sparsity, double weights)
{
    return param_term(l, sparsity, weights) + l->irreducible;
}

/* Delta(S) (loss.h): how much the parameter term rises. */
static double delta(const struct loss_spec *l, double s, double weights)
{
    return param_term(l, s, weights) - param_term(l, 0, weights);
}

double loss_token_multiplier(const struct loss_spec *l, double sparsity, double weights,
                             double tokens)
{
    if (!(sparsity > 0))
        return 1;
    double room = data_term(l, tokens), d = delta(l, sparsity, weights);
    if (!(d < room))
        return INFINITY;
    return pow(1 - d / room, -1 / l->data_exponent);
}

double loss_max_sparsity(const struct loss_spec *l, double weights, double tokens)
{
    double room = data_term(l, tokens), lo = 0, hi = 1;
    /* Delta rises with S for every published set (it is a sum of powers
     * of 1 - S that the sets' exponents make fall); bisection to 1e-9 */
    if (delta(l, 1 - 1e-12, weights) < room)
        return 1;
    while (hi - lo > 1e-9) {
        double mid = (lo + hi) / 2;
        if (delta(l, mid, weights) < room)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

const char *loss_unreachable_text(const struct loss_spec *l, const char *law, double sparsity,
                                  double weights, double tokens, char *buf, size_t n)
{
    double s_max = loss_max_sparsity(l, weights, tokens);
    /* the largest sparsity in thousandths below the threshold */
    double below = floor(s_max * 1000 - 1e-9) / 1000;
    snprintf(buf, n,
             "a sparse model at S %g cannot reach the dense loss at any token count: with "
             "unlimited tokens its loss stays at %.4g nats, above the dense model's %.4g at "
             "%.4g tokens (loss law %s); sparsity %g or less can (the threshold is %.4f)",
             sparsity, loss_floor(l, sparsity, weights), loss_at(l, 0, weights, tokens), tokens,
             law, below, s_max);
    return buf;
}
