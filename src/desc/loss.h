/* loss.h - sparse pretraining at equal quality: the tokens a model with a
 * share S of its block weights zero needs to reach the loss the dense
 * model reaches on D tokens.  A property of the training, not of the chip:
 * the constants are keys of the model description (wl.h, [model] loss_*).
 *
 *  - Loss against sparsity S, the non-zero block weights N_nz = (1 - S) N
 *    and the tokens D (Frantar et al. 2024, "Scaling Laws for
 *    Sparsely-Connected Foundation Models", ICLR, arXiv 2309.08520, eq. 1):
 *    L = (a_S (1 - S)^b_S + c_S) N_nz^-b_N + (a_D / D)^b_D + c.
 *  - The dense model's loss is that at S = 0; the sparse model reaches it
 *    on D' tokens where (a_D / D')^b_D = (a_D / D)^b_D - Delta(S), with
 *    Delta(S) = N^-b_N [(a_S (1 - S)^b_S + c_S)(1 - S)^-b_N - (a_S + c_S)],
 *    so m(S) = D' / D = [1 - Delta(S) (D / a_D)^b_D]^(-1 / b_D).
 *  - No token count reaches it when Delta(S) >= (a_D / D)^b_D: the sparse
 *    model's loss at infinite data is then at or above the dense loss at D.
 *  - A dense law on the non-zero weights (Hoffmann et al. 2022, as Jin et
 *    al. 2025, ICLR, arXiv 2501.12486, find for the average parameter count
 *    over training; for static sparsity the non-zero count) is the same
 *    form with a_S = 0.
 *  - N counts the block matrix weights (the ones sparsity zeroes, as in
 *    Frantar's fit); embeddings are left out.
 *
 * Every figure here lies far outside the fits (GPT-3 175B is about 300x
 * Frantar's largest N and 10x Chinchilla's): an extrapolation, stated as
 * such in cerebras-plan(1).  Pure arithmetic, no I/O. */
#ifndef CP_LOSS_H
#define CP_LOSS_H

#include <stddef.h>

/* The law's seven constants, in raw units (N weights, D tokens). */
struct loss_spec {
    double sparse_a;       /* a_S                                          */
    double sparse_b;       /* b_S                                          */
    double param_coeff;    /* c_S                                          */
    double param_exponent; /* b_N                                          */
    double data_scale;     /* a_D, tokens                                  */
    double data_exponent;  /* b_D                                          */
    double irreducible;    /* c, nats                                      */
};

/* The published constant sets a model description names (loss_fit). */
enum loss_fit { LOSS_CHINCHILLA, LOSS_T5_C4, LOSS_NFITS };
/* "chinchilla", "t5-c4": the key's words. */
extern const char *const loss_fit_name[LOSS_NFITS];
/* Where each set comes from, one line, for output. */
extern const char *const loss_fit_source[LOSS_NFITS];
/* The sets, with their sources in loss.c. */
extern const struct loss_spec loss_fits[LOSS_NFITS];

/* The loss (nats) of a model of weights block weights (dense count) at
 * sparsity 0 <= sparsity < 1 trained on tokens tokens. */
double loss_at(const struct loss_spec *l, double sparsity, double weights, double tokens);

/* m(S): the factor on tokens (the dense run's) that a run at sparsity
 * trains to reach the dense loss; exactly 1 at sparsity 0; INFINITY when
 * no token count reaches it (sparsity >= loss_max_sparsity()). */
double loss_token_multiplier(const struct loss_spec *l, double sparsity, double weights,
                             double tokens);

/* The sparsity at and above which no token count reaches the dense loss
 * at tokens (the root of Delta(S) = (a_D / D)^b_D, to 1e-9), or 1 when
 * every sparsity below 1 reaches it. */
double loss_max_sparsity(const struct loss_spec *l, double weights, double tokens);

/* The loss at infinite data of the sparse model (nats): what it cannot go
 * below. */
double loss_floor(const struct loss_spec *l, double sparsity, double weights);

/* Why no token count reaches the dense loss at sparsity (a sparsity at or
 * above loss_max_sparsity()), in words, naming the law as law: "a sparse
 * model at S 0.95 cannot reach the dense loss at any token count: ...".
 * Returns buf. */
const char *loss_unreachable_text(const struct loss_spec *l, const char *law, double sparsity,
                                  double weights, double tokens, char *buf, size_t n);

#endif
