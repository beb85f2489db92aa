/* test_sparse.c - sparse pretraining at equal quality (src/desc/loss.h):
 * the token multiplier m(S) of GPT-3 175B at 300 B tokens against the
 * worked values of the research note for issue 32 (its m.py), with the
 * published constants written out here: Frantar et al. 2024 (ICLR, arXiv
 * 2309.08520), Table 1, T5/C4; and the Chinchilla law (Hoffmann et al.
 * 2022, eq. 10) on the non-zero weights (Jin et al. 2025).  m(0) is 1
 * exactly, m rises with S, and no token count reaches the dense loss at or
 * above the threshold; the model description's loss_ keys take loss_fit's
 * set unless given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "load.h"

#include <math.h>

#include "desc/loss.h"

/* GPT-3 175B: 12 l h^2 block matrix weights (Brown et al. 2020, Table
 * 2.1: 96 layers, d 12288), 300 B tokens (section 2.2). */
#define GPT3_WEIGHTS (12.0 * 96 * 12288.0 * 12288.0)
#define GPT3_TOKENS 300e9

static const struct loss_spec t5 = {16.8, 0.722, 45.0, 0.245, 6.90e8, 0.203, 0.651};

static struct loss_spec chinchilla(void)
{
    /* E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28: B / D^beta =
     * (B^(1/beta) / D)^beta */
    return (struct loss_spec){0, 1, 406.4, 0.34, pow(410.7, 1 / 0.28), 0.28, 1.69};
}

/* The note's table (section 4.2) gives m to 3 decimals. */
static void near(double got, double want)
{
    if (fabs(got - want) > 0.0006 * want) {
        print_error("m = %.6g, the note's %.4g\n", got, want);
        fail();
    }
}

static const double S[] = {0.5, 0.75, 0.9, 0.95};

static void worked_t5(void **state)
{
    (void)state;
    static const double want[] = {1.115, 1.363, 2.085, 3.349};
    for (int i = 0; i < 4; i++)
        near(loss_token_multiplier(&t5, S[i], GPT3_WEIGHTS, GPT3_TOKENS), want[i]);
}

static void worked_chinchilla(void **state)
{
    (void)state;
    static const double want[] = {1.270, 1.764, 3.394, 7.519};
    struct loss_spec c = chinchilla();
    for (int i = 0; i < 4; i++)
        near(loss_token_multiplier(&c, S[i], GPT3_WEIGHTS, GPT3_TOKENS), want[i]);
}

/* m(0) is 1 bit for bit, and m rises with S up to the threshold (the
 * note: 0.9986 with T5/C4, 0.9917 Chinchilla), beyond which it is
 * infinite; just below it is finite and large. */
static void threshold(void **state)
{
    (void)state;
    const struct loss_spec sets[] = {t5, chinchilla()};
    const double smax[] = {0.9986, 0.9917}, beyond[] = {0.999, 0.995};
    for (int k = 0; k < 2; k++) {
        const struct loss_spec *l = &sets[k];
        assert_true(loss_token_multiplier(l, 0, GPT3_WEIGHTS, GPT3_TOKENS) == 1.0);
        double s_max = loss_max_sparsity(l, GPT3_WEIGHTS, GPT3_TOKENS);
        assert_true(fabs(s_max - smax[k]) < 0.00006);
        double prev = 1;
        for (double s = 0.013; s < s_max - 1e-6; s += 0.0137) {
            double m = loss_token_multiplier(l, s, GPT3_WEIGHTS, GPT3_TOKENS);
            assert_true(m > prev && isfinite(m));
            prev = m;
        }
        assert_true(isinf(loss_token_multiplier(l, s_max + 1e-8, GPT3_WEIGHTS, GPT3_TOKENS)));
        assert_true(isinf(loss_token_multiplier(l, beyond[k], GPT3_WEIGHTS, GPT3_TOKENS)));
        assert_true(loss_token_multiplier(l, s_max - 1e-6, GPT3_WEIGHTS, GPT3_TOKENS) > 100);
        /* at the threshold the sparse floor is the dense loss at D */
        double floor = loss_floor(l, s_max, GPT3_WEIGHTS);
        assert_true(fabs(floor - loss_at(l, 0, GPT3_WEIGHTS, GPT3_TOKENS)) < 1e-6);
    }
}

/* The shipped sets are the published constants. */
static void shipped_sets(void **state)
{
    (void)state;
    struct loss_spec c = chinchilla();
    const double *a = &loss_fits[LOSS_CHINCHILLA].sparse_a, *b = &c.sparse_a;
    for (int i = 0; i < 7; i++)
        assert_true(fabs(a[i] - b[i]) <= 1e-6 * fabs(b[i]));
    a = &loss_fits[LOSS_T5_C4].sparse_a, b = &t5.sparse_a;
    for (int i = 0; i < 7; i++)
        assert_true(a[i] == b[i]);
}

/* A model without loss_ keys takes the Chinchilla set; loss_fit=t5-c4
 * the T5/C4 set; a key given replaces that one value and marks the law
 * as the file's. */
static void model_keys(void **state)
{
    (void)state;
    struct wl_desc w;
    load_model("gpt3-175b", NULL, 0, &w);
    assert_int_equal(w.loss_fit, LOSS_CHINCHILLA);
    assert_int_equal(w.loss_given, 0);
    assert_memory_equal(&w.loss, &loss_fits[LOSS_CHINCHILLA], sizeof w.loss);
    const char *t5set[] = {"model.loss_fit=t5-c4"};
    load_model("gpt3-175b", t5set, 1, &w);
    assert_int_equal(w.loss_given, 0);
    assert_memory_equal(&w.loss, &loss_fits[LOSS_T5_C4], sizeof w.loss);
    const char *one[] = {"model.loss_fit=t5-c4", "model.loss_irreducible=1.2345"};
    load_model("gpt3-175b", one, 2, &w);
    assert_int_equal(w.loss_given, 1);
    assert_true(w.loss.irreducible == 1.2345);
    assert_true(w.loss.param_coeff == 45.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_t5),  cmocka_unit_test(worked_chinchilla),
        cmocka_unit_test(threshold),  cmocka_unit_test(shipped_sets),
        cmocka_unit_test(model_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
