/* test_gpu_finite.c - the finiteness gate of the GPU model (gpu.h:
 * gpu_range_check before a search, gpu_figures_check on what it keeps),
 * issue 30's sweep of hostile descriptions in one program: every numeric
 * key of hw/h100.ini set in turn to 1e-300, 1e308 and 5e-324 (in its base
 * unit).  Each variant is refused by the loader, refused by the gate
 * before the search, or every layout the search keeps (bf16 and fp8, 8
 * and 64 GPUs) has finite figures, its run included (steps, time, power,
 * energy, GPU-hours, cost at a price).  The issue's own inputs are refused
 * by the gate naming the key or flag.  Runs from the top of the source
 * tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "desc/tfm.h"
#include "gpu/gpu.h"
#include "gpu/gpu_search.h"

/* The job: GPT-3 XL, at a price per GPU-hour so the cost is computed. */
#define PRICE 2.37
#define MAX_GPUS 1e6

/* h100 with one override (NULL: none) into g; the loader's status. */
static cp_status load_h100(const char *set, struct gpuhw_desc *g, struct cp_error *err)
{
    struct cat_entry e;
    builtin_text("h100", CAT_HW, &e);
    cp_status st = gpuhw_load(e.text, e.origin, &set, set ? 1 : 0, g, NULL, err);
    cat_entry_free(&e);
    return st;
}

/* Every layout a search of w on n GPUs of g in precision p keeps has
 * finite figures (a search that finds none is a verdict, not a figure). */
static void check_search(const struct gpuhw_desc *g, const struct wl_desc *w, double n,
                         enum gpuhw_prec p, const char *set)
{
    static struct gpu_search_result sr;
    struct gpu_search_spec spec = gpu_search_spec_default(n);
    spec.precision = p;
    spec.keep = 3;
    struct cp_error err = {0};
    if (gpu_search(g, w, &spec, &sr, &err) != CP_OK)
        return;
    for (size_t i = 0; i < sr.n; i++) {
        struct gpu_train t;
        gpu_train_eval(g, n, gpu_train_steps(tfm_tokens(w), w->batch, w->seq_len), PRICE,
                       gpu_state_bytes(w), &sr.hit[i].result, &t);
        if (gpu_figures_check(&sr.hit[i].result, &t, "", &err) != CP_OK) {
            print_error("%s, %g GPUs, %s: passed the gate, then %s\n", set, n, gpuhw_prec_name[p],
                        err.msg);
            fail();
        }
    }
}

static void test_hostile_keys(void **state)
{
    (void)state;
    static const char *const values[] = {"1e-300", "1e308", "5e-324"};
    struct wl_desc w;
    load_model("gpt3-xl", NULL, 0, &w);
    size_t variants = 0, loader = 0, gate = 0, ran = 0;
    for (size_t k = 0; k < gpuhw_schema.nkeys; k++) {
        const struct desc_key *key = &gpuhw_schema.keys[k];
        if (key->type != DESC_NUM)
            continue;
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            char set[128];
            snprintf(set, sizeof set, "%s.%s=%s %s", key->section, key->name, values[v],
                     unit_base_symbol(key->dim));
            struct gpuhw_desc g;
            struct cp_error err = {0};
            variants++;
            if (load_h100(set, &g, &err) != CP_OK) {
                loader++;
                continue;
            }
            if (gpu_range_check(&g, &w, 64, MAX_GPUS, tfm_tokens(&w), PRICE, &err) != CP_OK) {
                gate++;
                continue;
            }
            ran++;
            for (int p = GPUHW_BF16; p <= GPUHW_FP8; p++) {
                check_search(&g, &w, 8, (enum gpuhw_prec)p, set);
                check_search(&g, &w, 64, (enum gpuhw_prec)p, set);
            }
        }
    }
    /* every numeric key of the schema, three values each */
    assert_true(variants >= 3 * 30);
    assert_true(loader > 0 && gate > 0 && ran > 0);
}

/* The inputs: refused by the gate, naming the key or flag. */
static void test_named(void **state)
{
    (void)state;
    static const struct {
        const char *set;
        double tokens, price;
        const char *names;
    } c[] = {
        {"gpu.peak_bf16=1e-300 FLOP/s", 0, -1, "gpu.peak_bf16"},
        {"gpu.hbm_bandwidth=1e-300 B/s", 0, -1, "gpu.hbm_bandwidth"},
        {"network.nvlink_bandwidth=1e-300 B/s", 0, -1, "network.nvlink_bandwidth"},
        {"network.scaleout_bandwidth=1e-300 B/s", 0, -1, "network.scaleout_bandwidth"},
        {"fit.comm_efficiency=5e-324", 0, -1, "fit.comm_efficiency"},
        {"fit.matmul_efficiency=5e-324", 0, -1, "fit.matmul_efficiency"},
        {"fit.elementwise_bytes=1e308 B", 0, -1, "fit.elementwise_bytes"},
        {"fit.optimizer_bytes=1e308 B", 0, -1, "fit.optimizer_bytes"},
        {"network.link_latency=1e308 s", 0, -1, "network.link_latency"},
        {"fit.step_overhead=1e308 s", 0, -1, "fit.step_overhead"},
        {"system.node_power=1e308 W", 0, -1, "system.node_power"},
        {NULL, 9.007e15, 1e306, "--price"},
    };
    struct wl_desc w;
    load_model("gpt3-xl", NULL, 0, &w);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct gpuhw_desc g;
        struct cp_error err = {0};
        assert_ok(load_h100(c[i].set, &g, &err), err);
        double tokens = c[i].tokens > 0 ? c[i].tokens : tfm_tokens(&w);
        cp_status st = gpu_range_check(&g, &w, 64, MAX_GPUS, tokens, c[i].price, &err);
        if (st != CP_EINPUT || !strstr(err.msg, c[i].names) ||
            !strstr(err.msg, "is not a finite number at 64 GPUs")) {
            print_error("%s: status %d, '%s' (want it refused naming %s)\n",
                        c[i].set ? c[i].set : "--price", st, err.msg, c[i].names);
            fail();
        }
    }
    /* and the shipped description, priced, passes */
    struct gpuhw_desc g;
    struct cp_error err = {0};
    assert_ok(load_h100(NULL, &g, &err), err);
    assert_ok(gpu_range_check(&g, &w, 64, MAX_GPUS, tfm_tokens(&w), PRICE, &err), err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_keys),
        cmocka_unit_test(test_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
