/* batch.h - the critical batch of language-model training, a property of
 * the training and not of the chip: both kinds of cluster description
 * carry it as the same four [batch] keys (BATCH_DESC_KEYS, one schema
 * entry each), with the same source, and both kinds' models charge it
 * with the arithmetic below.
 *
 *  - Converged loss of a model of P parameters (Kaplan et al. 2020, eq.
 *    1.1): L = (loss_params / P)^loss_exponent.
 *  - Critical batch at that loss (Kaplan et al. 2020, eq. 5.3; McCandlish
 *    et al. 2018): B_crit = critical_tokens / L^(1 / critical_exponent)
 *    tokens.
 *  - Steps and tokens trade off as (S / S_min - 1)(E / E_min - 1) = 1
 *    (McCandlish et al. 2018), so E = E_min (1 + B / B_crit): a batch of B
 *    tokens needs (1 + B / B_crit) / (1 + B_ref / B_crit) times the tokens
 *    a run at the reference batch B_ref needs.  Above B_crit the steps
 *    hardly fall: S = E / B tends to S_min = E_min / B_crit.
 *
 * Pure arithmetic, no I/O. */
#ifndef CP_BATCH_H
#define CP_BATCH_H

#include <stddef.h>

/* The [batch] keys (FIGURES.md row "large-batch efficiency"). */
struct batch_spec {
    double critical_tokens;   /* B*, tokens                                */
    double critical_exponent; /* alpha_B                                   */
    double loss_params;       /* N_c, parameters                           */
    double loss_exponent;     /* alpha_N                                   */
};

/* The four schema entries (struct desc_key, desc.h) of a description
 * whose struct batch_spec sits at byte offset off. */
#define BATCH_DESC_KEYS(off)                                                                       \
    {"batch", "critical_tokens", DESC_NUM, UNIT_COUNT, DESC_REQUIRED,                              \
     (off) + offsetof(struct batch_spec, critical_tokens), 0, NULL, 0,                             \
     "B*: critical batch in tokens at loss 1 nat"},                                                \
        {"batch", "critical_exponent", DESC_NUM, UNIT_COUNT, DESC_REQUIRED,                        \
         (off) + offsetof(struct batch_spec, critical_exponent), 0, NULL, 0,                       \
         "alpha_B: B_crit(L) = B* / L^(1/alpha_B)"},                                               \
        {"batch", "loss_params", DESC_NUM, UNIT_COUNT, DESC_REQUIRED,                              \
         (off) + offsetof(struct batch_spec, loss_params), 0, NULL, 0,                             \
         "N_c: converged loss L(P) = (N_c / P)^alpha_N"},                                          \
        {"batch", "loss_exponent", DESC_NUM, UNIT_COUNT, DESC_REQUIRED,                            \
         (off) + offsetof(struct batch_spec, loss_exponent), 0, NULL, 0,                           \
         "alpha_N of the converged loss"}

/* The converged loss (nats) of a model of params parameters. */
double batch_loss(const struct batch_spec *b, double params);

/* The critical batch, tokens, at the converged loss loss. */
double batch_critical_tokens(const struct batch_spec *b, double loss);

/* The factor on the training tokens of a run at a global batch of
 * tokens per step, against the reference batch ref_tokens the token count
 * was set for, with a critical batch of critical tokens. */
double batch_token_factor(double tokens, double ref_tokens, double critical);

#endif
