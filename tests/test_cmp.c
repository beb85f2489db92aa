/* test_cmp.c - the comparison of a weight-streaming and a GPU cluster
 * (src/plan/cmp.h).  At a deadline both sides meet it and every smaller
 * cluster searched misses it (found here by evaluating train_eval and
 * gpu_search at every count, not through cmp.c); with N systems the GPUs
 * are as fast and the counts below are not; power, energy and cost are
 * the arithmetic cmp.h states; at equal power the GPU nodes fit in the
 * weight-streaming power and no count within it is faster.  Against a
 * published figure: GPT-3 175B on 1024 A100 for 300 B tokens, which
 * Narayanan et al. 2021 (arXiv:2104.04473, sec. 5.1) estimate at 34 days
 * from 8 T P / (n X) with X = 140 TFLOP/s per GPU.  Refusals: a precision
 * the GPU lacks, a deadline of zero, a model no GPU count holds (the
 * bytes named), a deadline out of reach on both sides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc/gpuhw.h"
#include "gpu/gpu_search.h"
#include "model/cluster.h"
#include "model/train.h"
#include "plan/cmp.h"

#define DAY_S 86400.0

struct fx {
    struct hw_desc h;
    struct wl_desc w;
    struct gpuhw_desc g;
    struct cluster c;
    struct cmp_spec s;
    struct cmp_result r;
};

/* model (with the overrides sets) on systems of hw (MemoryX and
 * activation servers sized for the run) against gpu, at bf16 with every
 * layout figure free. */
static struct fx *fx_new_set(const char *model, const char *const *sets, size_t nsets,
                             const char *hw, const char *gpu)
{
    struct fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    load_hw(hw, NULL, 0, &f->h);
    load_model(model, sets, nsets, &f->w);
    load_gpu(gpu, &f->g);
    cluster_init(&f->c, &f->h, &f->w);
    struct cp_error err = {0};
    assert_ok(cluster_check(&f->c, &err), err);
    f->s.ws = &f->c;
    f->s.gpu = &f->g;
    f->s.layout = gpu_search_spec_default(0);
    f->s.gpu_price = -1;
    return f;
}

static struct fx *fx_new(const char *model, const char *hw, const char *gpu)
{
    return fx_new_set(model, NULL, 0, hw, gpu);
}

/* The job's whole steps, as train.h counts them. */
static double steps_of(const struct fx *f)
{
    return ceil(f->c.tokens / (f->c.global_seqs * f->w.seq_len));
}

/* The best step time of n GPUs by gpu_search alone; 0 when none runs. */
static double step_at(const struct fx *f, double n)
{
    static struct gpu_search_result sr;
    struct gpu_search_spec sp = f->s.layout;
    struct cp_error err = {0};
    sp.gpus = n;
    sp.batch = f->c.global_seqs;
    sp.keep = 1;
    return gpu_search(&f->g, &f->w, &sp, &sr, &err) == CP_OK ? sr.hit[0].result.step_s : 0;
}

/* The time-to-train of f's GPUs at n: the steps at step_at's step time
 * with what failures take (gp.h), through gpu_train_eval; 0 when no
 * layout runs or the job never finishes. */
static double time_at(const struct fx *f, double n)
{
    double st = step_at(f, n);
    if (st == 0)
        return 0;
    struct gpu_result r = {.step_s = st};
    struct gpu_train t;
    gpu_train_eval(&f->g, n, steps_of(f), -1, gpu_state_bytes(&f->w), &r, &t);
    assert_true(t.time_s >= steps_of(f) * st);
    return t.gp.finishes ? t.time_s : 0;
}

/* Every GPU count of the step below g's misses the time t (or runs no
 * layout), and g meets it. */
static void check_gpu_fewest(const struct fx *f, const struct cmp_gpu *g, double t)
{
    double step = cmp_count_step(&f->g);
    assert_true(g->s.time_s <= t);
    assert_rel(g->s.time_s, time_at(f, g->s.units), 1e-12);
    for (double n = step; n < g->s.units; n += step) {
        double tn = time_at(f, n);
        assert_true(tn == 0 || tn > t);
    }
}

/* The arithmetic of a GPU side: whole nodes at node power, energy, cost
 * per GPU-hour of the nodes' GPUs. */
static void check_gpu_side(const struct fx *f, const struct cmp_side *d)
{
    const struct gpu_net *n = &f->g.net;
    assert_rel(d->nodes, ceil(d->units / n->gpus_per_node), 0);
    assert_rel(d->power_W, d->nodes * n->node_power_W, 1e-15);
    assert_rel(d->energy_J, d->power_W * d->time_s, 1e-15);
    assert_rel(d->steps, steps_of(f), 0);
    /* the rental replaces the capital part; the energy stays (cost.h) */
    double energy = d->energy_J / 3.6e6 * f->g.site.pue * f->g.site.energy_price_kwh;
    if (f->s.gpu_price >= 0)
        assert_rel(d->cost,
                   f->s.gpu_price * d->nodes * n->gpus_per_node * d->time_s / 3600 + energy, 1e-12);
    else
        assert_true(d->cost > energy);
}

/* The weight-streaming side: train_eval's figures, power the sum of its
 * parts, cost per system-hour. */
static void check_ws_side(const struct fx *f)
{
    const struct cmp_result *r = &f->r;
    struct train_result tr;
    struct cluster c = r->ws;
    train_eval(&c, &tr);
    assert_rel(r->w.time_s, tr.time_s, 0);
    /* the wall time: the steps' time with what failures take (gp.h) */
    assert_rel(tr.time_ff_s, steps_of(f) * tr.step.step_s, 1e-12);
    assert_true(r->w.time_s >= tr.time_ff_s);
    double p = 0;
    for (int i = 0; i < TRAIN_NPOWER; i++)
        p += tr.power_part[i];
    assert_rel(r->w.power_W, p, 1e-12);
    assert_rel(r->w.energy_J, r->w.power_W * r->w.time_s, 1e-12);
    if (f->c.price >= 0) /* the rental replaces the capital part (cost.h) */
        assert_rel(r->w.cost, f->c.price * c.systems * r->w.time_s / 3600 + tr.costs.energy,
                   1e-12);
}

/* At equal power: the nodes within the weight-streaming power, and no
 * count within it faster (brute force over every count of the step). */
static void check_equal_power(const struct fx *f)
{
    const struct cmp_result *r = &f->r;
    const struct gpu_net *n = &f->g.net;
    assert_true(r->eq_ok);
    assert_rel(r->eq_power_W, r->w.power_W, 0);
    assert_true(r->eq.s.power_W <= r->eq_power_W);
    double nodes = floor(r->eq_power_W / n->node_power_W), step = cmp_count_step(&f->g);
    double best = INFINITY;
    for (double k = step; ceil(k / n->gpus_per_node) <= nodes; k += step) {
        double tk = time_at(f, k);
        if (tk > 0 && tk < best)
            best = tk;
    }
    assert_rel(r->eq.s.time_s, best, 1e-12);
    check_gpu_side(f, &r->eq.s);
}

/* GPT-3 175B by 30 days on CS-3 and H100, priced. */
static void deadline_both_meet(void **state)
{
    (void)state;
    struct fx *f = fx_new("gpt3-175b", "cs3", "h100");
    struct cp_error err = {0};
    f->c.price = 1234.5;
    f->s.gpu_price = 2.375;
    f->s.mode = CMP_DEADLINE;
    f->s.deadline_s = 30 * DAY_S;
    assert_ok(cmp_run(&f->s, &f->r, &err), err);
    const struct cmp_result *r = &f->r;
    assert_true(r->ws_ok && r->gpu_ok && r->gpu_ran);
    /* weight streaming: meets, one system fewer does not */
    assert_true(r->w.time_s <= f->s.deadline_s);
    assert_true(r->plan.has_below);
    assert_rel(r->plan.below.systems, r->ws.systems - 1, 0);
    assert_true(r->plan.rb.time_s > f->s.deadline_s);
    check_ws_side(f);
    /* GPUs: meets, every smaller count misses */
    check_gpu_fewest(f, &r->g, f->s.deadline_s);
    check_gpu_side(f, &r->g.s);
    assert_rel(r->g.s.units, r->scan.last, 0);
    if (r->has_below) {
        assert_true(r->below.s.units < r->g.s.units);
        assert_true(r->below.s.time_s > f->s.deadline_s);
    }
    check_equal_power(f);
    free(f);
}

/* Megatron 1T on 16 CS-3 against B200: the fewest GPUs as fast. */
static void systems_gpus_as_fast(void **state)
{
    (void)state;
    struct fx *f = fx_new("megatron-1t", "cs3", "b200");
    struct cp_error err = {0};
    f->c.systems = 16;
    f->s.mode = CMP_SYSTEMS;
    assert_ok(cmp_run(&f->s, &f->r, &err), err);
    const struct cmp_result *r = &f->r;
    assert_true(r->ws_ok && r->gpu_ok);
    assert_rel(r->ws.systems, 16, 0);
    assert_rel(r->target_s, r->w.time_s, 0);
    check_ws_side(f);
    check_gpu_fewest(f, &r->g, r->w.time_s);
    check_gpu_side(f, &r->g.s);
    check_equal_power(f);
    free(f);
}

/* GPT-3 175B, 300 B tokens, batch 1536 on 1024 A100 as Narayanan et al.
 * ran it: Megatron-LM of 2021 (no sequence parallelism, flash attention,
 * distributed optimizer or overlapped communication; as src/gpu/gpu_run.c
 * reads their rows; no context parallelism or FSDP either) with full
 * activation recompute (their 8 T P counts the recomputed forward); tp,
 * pp, micro-batch and interleaving searched.  The search takes the
 * software switches from the workload (model.sequence_parallel, ...) and
 * the gradient overlap from the spec's options.  Their estimate: 34 days
 * (sec. 5.1); within 25 %. */
static void a100_narayanan_34_days(void **state)
{
    (void)state;
    struct fx *f = fx_new("gpt3-175b", "cs3", "a100");
    struct cp_error err = {0};
    assert_rel(f->c.tokens, 300e9, 0);
    assert_rel(f->c.global_seqs, 1536, 0);
    f->w.sequence_parallel = f->w.flash_attention = 0;
    f->w.tp_overlap = f->w.distributed_optimizer = 0;
    f->s.layout.options.overlap_grad = 0;
    f->s.layout.allow_cp = 0;
    f->s.layout.fsdp = 0;
    f->s.layout.recompute = GPU_RC_FULL;
    f->s.mode = CMP_SYSTEMS;
    struct cmp_gpu g;
    assert_ok(cmp_gpu_at(&f->s, 1024, &g, &err), err);
    print_message("# GPT-3 175B on 1024 A100: %.1f days (Narayanan et al.: 34)\n",
                  g.s.time_s / DAY_S);
    assert_rel(g.s.time_s, 34 * DAY_S, 0.25);
    assert_int_equal(g.layout.recompute, GPU_RC_FULL);
    /* the 2021 stack throughout the layout found */
    assert_true(!g.layout.seq_parallel && !g.layout.flash_attention && !g.layout.overlap_tp &&
                !g.layout.shard_optimizer && !g.layout.overlap_grad && !g.layout.fsdp);
    assert_rel(g.layout.cp, 1, 0);
    free(f);
}

/* The count step: whole 8-GPU nodes; 8 of an NVL72 rack; 2 of a 6-GPU
 * node. */
static void count_step(void **state)
{
    (void)state;
    struct gpuhw_desc g;
    load_gpu("h100", &g);
    assert_rel(cmp_count_step(&g), 8, 0);
    load_gpu("gb200", &g);
    assert_rel(g.net.gpus_per_node, 72, 0);
    assert_rel(cmp_count_step(&g), 8, 0);
    g.net.gpus_per_node = 6;
    assert_rel(cmp_count_step(&g), 2, 0);
    g.net.gpus_per_node = 1;
    assert_rel(cmp_count_step(&g), 1, 0);
}

/* Wrong specs: CP_EINPUT with the figure named. */
static void refuses_bad_spec(void **state)
{
    (void)state;
    struct fx *f = fx_new("gpt3-175b", "cs3", "h100");
    struct cp_error err = {0};
    f->s.mode = CMP_DEADLINE;
    f->s.deadline_s = 0;
    assert_int_equal(cmp_run(&f->s, &f->r, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "deadline"));
    f->s.deadline_s = 30 * DAY_S;
    f->s.layout.precision = GPUHW_FP4;
    assert_int_equal(cmp_run(&f->s, &f->r, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "fp4"));
    f->s.layout.precision = GPUHW_BF16;
    f->s.layout.tp = 5;
    assert_int_equal(cmp_check(&f->s, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "tp = 5 does not divide the 96 attention heads"));
    /* a tp that divides the heads but not the NVLink domain of 8 is no
     * longer refused: its group runs at the scale-out rate */
    f->s.layout.tp = 3;
    assert_ok(cmp_check(&f->s, &err), err);
    f->s.layout.tp = GPU_SEARCH_FREE;
    f->s.gpu_price = NAN;
    assert_int_equal(cmp_check(&f->s, &err), CP_EINPUT);
    free(f);
}

/* 120T (1036 layers, hidden 98304) against 16 CS-3: pipelines of any
 * divisor of L + 2 = 1038 (Megatron's uneven split) now hold it on H100,
 * one or two layers a stage, so some count as fast is found and its
 * layout runs.  Widened to hidden 131072 (1024 heads of 128), one layer's
 * 16-bit weights and gradients over tp 8 alone, 12 x 131072^2 / 8 x 4 B =
 * 103 GB, exceed the 77 GB usable (and FSDP holds three layers' worth):
 * no GPU count up to CMP_GPU_MAX holds it; the refusal names the bytes
 * per GPU. */
static void model_too_large_for_gpus(void **state)
{
    (void)state;
    struct fx *f = fx_new("120t", "cs3", "h100");
    struct cp_error err = {0};
    /* the layouts are the subject: failures, which stop a job of tens of
     * thousands of nodes (gp.h), are not counted */
    f->g.rel.node_mtbf_s = 0;
    f->c.systems = 16;
    f->s.mode = CMP_SYSTEMS;
    assert_ok(cmp_run(&f->s, &f->r, &err), err);
    assert_true(f->r.ws_ok && f->r.gpu_ok && f->r.gpu_ran);
    struct wl_desc w = f->w;
    w.batch = f->c.global_seqs;
    assert_ok(gpu_check(&f->g, &w, &f->r.g.layout, &err), err);
    assert_true(f->r.g.res.fits);
    assert_true(f->r.g.s.time_s <= f->r.w.time_s);
    free(f);

    const char *const wide[] = {"model.hidden=131072", "model.heads=1024"};
    f = fx_new_set("120t", wide, 2, "cs3", "h100");
    f->c.systems = 16;
    f->c.act_servers = 2; /* one 512 GiB server holds no 556 GB sequence */
    f->s.mode = CMP_SYSTEMS;
    assert_ok(cmp_run(&f->s, &f->r, &err), err);
    assert_true(f->r.ws_ok);
    assert_false(f->r.gpu_ok || f->r.gpu_ran);
    assert_rel(f->r.scan.last, CMP_GPU_MAX, 0);
    assert_rel(f->r.scan.runs, 0, 0);
    assert_non_null(strstr(f->r.gpu_why, "bytes per GPU"));
    assert_true(f->r.scan.least_mem > f->r.scan.capacity);
    assert_true(f->r.scan.least_mem > 12 * 131072.0 * 131072.0 / 8 * 4);
    free(f);
}

/* GPT-3 175B in one hour: out of reach of 1..max_systems CS-3 and of
 * every GPU count searched; each side keeps its fastest. */
static void deadline_out_of_reach(void **state)
{
    (void)state;
    struct fx *f = fx_new("gpt3-175b", "cs3", "h100");
    struct cp_error err = {0};
    f->s.mode = CMP_DEADLINE;
    f->s.deadline_s = 3600;
    assert_ok(cmp_run(&f->s, &f->r, &err), err);
    const struct cmp_result *r = &f->r;
    assert_false(r->ws_ok);
    assert_true(strlen(r->ws_why) > 0);
    assert_null(strstr(r->ws_why, "--allow"));
    assert_false(r->gpu_ok);
    assert_true(r->gpu_ran);
    assert_false(r->has_below);
    assert_rel(r->scan.last, CMP_GPU_MAX, 0);
    assert_true(r->g.s.time_s > 3600);
    /* the fastest of the scan: no count runs faster */
    for (double n = 8; n <= CMP_GPU_MAX; n *= 2) {
        double tn = time_at(f, n);
        assert_true(tn == 0 || tn >= r->g.s.time_s);
    }
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deadline_both_meet),     cmocka_unit_test(systems_gpus_as_fast),
        cmocka_unit_test(a100_narayanan_34_days), cmocka_unit_test(count_step),
        cmocka_unit_test(refuses_bad_spec),       cmocka_unit_test(model_too_large_for_gpus),
        cmocka_unit_test(deadline_out_of_reach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
