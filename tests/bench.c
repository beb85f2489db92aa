/* bench.c - `make bench`: throughput figures, one line each as
 * "name value unit".  Each figure repeats its work for about half a second
 * of wall time on one core and reports the rate.
 *
 *   desc_loads_per_s   parse + check of the GPT-3 175B description (libinih,
 *                      units, schema) from its built-in text
 *   tfm_evals_per_s    parameters, training FLOPs and activation bytes of
 *                      GPT-3 175B, with one key varied per evaluation
 *   analytic_evals_per_s  full estimates (train_eval: step time by layer,
 *                      verdicts, time-to-train, energy) of GPT-3 175B on
 *                      CS-2, the number of systems varied per evaluation */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/train.h"
#include "spec/catalog.h"
#include "spec/hw.h"
#include "spec/tfm.h"
#include "spec/wl.h"

#define BENCH_SECONDS 0.5

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink; /* keeps the work from being optimised away */

static double bench_loads(const char *text)
{
    struct wl_desc w;
    struct cp_error err;
    long n = 0;
    double t0 = now_s(), t;
    do {
        for (int i = 0; i < 100; i++, n++)
            if (wl_load(text, "bench", NULL, 0, &w, NULL, &err) != CP_OK)
                return -1;
        t = now_s() - t0;
    } while (t < BENCH_SECONDS);
    sink = w.layers;
    return (double)n / t;
}

static double bench_tfm(struct wl_desc w)
{
    long n = 0;
    double acc = 0, t0 = now_s(), t;
    do {
        for (int i = 0; i < 10000; i++, n++) {
            w.layers = 64 + (double)(i & 63);
            acc += tfm_params(&w) + tfm_train_flops(&w) + tfm_act_bytes_per_seq_block(&w, 0);
        }
        t = now_s() - t0;
    } while (t < BENCH_SECONDS);
    sink = acc;
    return (double)n / t;
}

static double bench_analytic(const struct wl_desc *w, const struct hw_desc *hw)
{
    struct cluster c;
    cluster_init(&c, hw, w);
    struct train_result r;
    long n = 0;
    double acc = 0, t0 = now_s(), t;
    do {
        for (int i = 0; i < 10000; i++, n++) {
            c.systems = 1 + (double)(i & 255);
            train_eval(&c, &r);
            acc += r.time_s;
        }
        t = now_s() - t0;
    } while (t < BENCH_SECONDS);
    sink = acc;
    return (double)n / t;
}

int main(void)
{
    struct cat_dirs none = {.n = 0};
    struct cat_entry e;
    struct cp_error err;
    struct wl_desc w;
    if (cat_resolve(&none, "gpt3-175b", CAT_MODEL, &e, &err) != CP_OK ||
        wl_load(e.text, e.origin, NULL, 0, &w, NULL, &err) != CP_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    double loads = bench_loads(e.text);
    printf("desc_loads_per_s %.0f 1/s\n", loads);
    printf("tfm_evals_per_s %.0f 1/s\n", bench_tfm(w));
    struct cat_entry he;
    struct hw_desc hw;
    if (cat_resolve(&none, "cs2", CAT_HW, &he, &err) != CP_OK ||
        hw_load(he.text, he.origin, NULL, 0, &hw, NULL, &err) != CP_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    cat_entry_free(&he);
    printf("analytic_evals_per_s %.0f 1/s\n", bench_analytic(&w, &hw));
    cat_entry_free(&e);
    return loads > 0 ? 0 : 1;
}
