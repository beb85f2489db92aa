/* test_tm.c - the training-model interface (src/tm/tm.h) against the two
 * models it wraps, called directly: each kind's tm_eval gives the same
 * doubles, bit for bit, as train_eval / train_at (weight streaming) and
 * gpu_search with gpu_train_eval (GPUs) at the job's own count and under
 * weak and strong scaling; the verdicts' feasibility is the model's; a
 * GPU count no layout divides is a refusal of the input and one where no
 * layout fits is a verdict; the divisor listing kept in the detail gives
 * what a fresh one gives; each shipped description is claimed by exactly
 * one kind; each kind's parameter operations (names, schema indices,
 * values, whole numbers, valid values, keys not ranked, an evaluation with
 * one key changed) agree with its description and its model. */
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

#include "desc/tfm.h"
#include "gpu/gpu_tm.h"
#include "model/param.h"
#include "model/ws_tm.h"

/* a and b the same double, bit for bit (NAN equal to NAN) */
#define assert_same(a, b) assert_memory_equal(&(double){a}, &(double){b}, sizeof(double))

static void same_result(const struct tm_result *a, const struct tm_result *b)
{
    assert_same(a->step_s, b->step_s);
    assert_same(a->time_s, b->time_s);
    assert_same(a->tokens_per_s, b->tokens_per_s);
    assert_same(a->energy_J, b->energy_J);
    assert_same(a->cost, b->cost);
    assert_int_equal(a->feasible, b->feasible);
}

static void ws_matches_train(void **state)
{
    (void)state;
    static struct hw_desc h;
    static struct wl_desc w;
    const char *const systems[] = {"cs2", "cs3"};
    const double ns[] = {1, 16, 192, 2048};
    static struct train_result t, d;
    for (size_t k = 0; k < 2; k++) {
        load_hw(systems[k], NULL, 0, &h);
        load_model("gpt3-175b", NULL, 0, &w);
        struct cluster c;
        cluster_init(&c, &h, &w);
        c.systems = 16;
        c.price = 2000;
        struct tm_job j = {&tm_ws, &c, c.systems};
        struct tm_result r;
        struct cp_error err = {0};
        assert_ok(tm_eval(&j, 0, TM_STRONG, &r, &d, &err), err);
        train_eval(&c, &t);
        assert_memory_equal(&t, &d, sizeof t);
        assert_same(r.step_s, t.step.step_s);
        for (size_t m = 0; m < 2; m++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                assert_ok(tm_eval(&j, ns[i], (enum tm_scaling)m, &r, &d, &err), err);
                /* weak scaling charges the batch penalty (tm.h) */
                struct cluster cm = c;
                cm.batch_penalty = m == TM_WEAK;
                train_at(&cm, ns[i], m == TM_WEAK ? SCALE_WEAK : SCALE_STRONG, &t);
                assert_memory_equal(&t, &d, sizeof t);
                assert_same(r.step_s, t.step.step_s);
                assert_same(r.time_s, t.time_s);
                assert_same(r.tokens_per_s, t.tokens_per_s);
                assert_same(r.global_tokens, t.global_tokens);
                assert_same(r.power_W, t.power_W);
                assert_same(r.energy_J, t.energy_J);
                assert_same(r.cost, t.cost);
                assert_int_equal(r.feasible, t.feasible);
                assert_int_equal(r.runs, 1);
                double sum = 0;
                for (size_t p = 0; p < r.nparts; p++)
                    sum += r.part_s[p];
                assert_rel(sum, r.step_s, 1e-12);
                assert_string_equal(r.part_name[r.bottleneck], step_res_name[t.step.bottleneck]);
            }
    }
}

struct gfx {
    struct gpuhw_desc g;
    struct wl_desc w;
    struct gpu_tm_job j;
    struct gpu_tm_detail d, fresh;
    struct gpu_search_result sr;
};

static struct gfx *gfx_new(const char *gpu, double gpus)
{
    struct gfx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    load_gpu(gpu, &f->g);
    load_model("gpt3-175b", NULL, 0, &f->w);
    f->j.g = &f->g;
    f->j.wl = &f->w;
    f->j.spec = gpu_search_spec_default(gpus);
    f->j.spec.batch = f->w.batch;
    f->j.tokens = 300e9;
    f->j.price = 2.5;
    return f;
}

/* The tokens of a run at a global batch of batch sequences against the
 * model's, with the batch penalty: the published law (McCandlish et al.
 * 2018, Kaplan et al. 2020) from the GPU description's [batch] keys. */
static double penalised(const struct gfx *f, double batch)
{
    const struct batch_spec *b = &f->g.batch;
    double loss = pow(b->loss_params / tfm_params(&f->w), b->loss_exponent);
    double crit = b->critical_tokens / pow(loss, 1 / b->critical_exponent);
    double g = batch * f->w.seq_len, ref = f->w.batch * f->w.seq_len;
    return f->j.tokens * (1 + g / crit) / (1 + ref / crit);
}

/* The direct path: gpu_search at gpus, global batch, its best run of
 * tokens tokens. */
static void direct(struct gfx *f, double gpus, double batch, double tokens, struct tm_result *want)
{
    struct gpu_search_spec p = f->j.spec;
    p.gpus = gpus;
    p.batch = batch;
    struct cp_error err = {0};
    assert_ok(gpu_search(&f->g, &f->w, &p, &f->sr, &err), err);
    struct gpu_train t;
    const struct gpu_result *r = &f->sr.hit[0].result;
    gpu_train_eval(&f->g, gpus, gpu_train_steps(tokens, batch, f->w.seq_len), f->j.price,
                   gpu_state_bytes(&f->w), r, &t);
    *want = (struct tm_result){.step_s = r->step_s, .time_s = t.time_s,
                               .tokens_per_s = r->tokens_per_s, .energy_J = t.energy_J,
                               .cost = t.cost, .feasible = 1};
}

static void gpu_matches_search(void **state)
{
    (void)state;
    struct gfx *f = gfx_new("h100", 1024);
    struct tm_job j = {&tm_gpu, &f->j, 1024};
    struct tm_result r, want;
    struct cp_error err = {0};
    assert_ok(tm_eval(&j, 0, TM_STRONG, &r, &f->d, &err), err);
    direct(f, 1024, f->w.batch, f->j.tokens, &want);
    same_result(&r, &want);
    /* the same layout, field by field (a struct's padding is undefined) */
    const struct gpu_layout *a = &f->d.sr.hit[0].layout, *b = &f->sr.hit[0].layout;
    const double fa[] = {a->tp, a->pp, a->dp, a->cp, a->mbs, a->vp, a->recompute_layers};
    const double fb[] = {b->tp, b->pp, b->dp, b->cp, b->mbs, b->vp, b->recompute_layers};
    assert_memory_equal(fa, fb, sizeof fa);
    assert_int_equal(a->recompute, b->recompute);
    assert_int_equal(a->fsdp, b->fsdp);
    assert_int_equal(a->precision, b->precision);
    assert_same(r.mfu, f->sr.hit[0].result.mfu);
    /* strong at 2048 keeps the batch and the tokens; weak doubles the
     * batch and charges its tokens the batch penalty */
    assert_ok(tm_eval(&j, 2048, TM_STRONG, &r, &f->d, &err), err);
    direct(f, 2048, f->w.batch, f->j.tokens, &want);
    same_result(&r, &want);
    assert_same(r.tokens, f->j.tokens);
    assert_int_equal(r.batch_penalty, 0);
    assert_ok(tm_eval(&j, 2048, TM_WEAK, &r, &f->d, &err), err);
    direct(f, 2048, 2 * f->w.batch, penalised(f, 2 * f->w.batch), &want);
    same_result(&r, &want);
    assert_same(r.global_tokens, 2 * f->w.batch * f->w.seq_len);
    assert_rel(r.tokens, penalised(f, 2 * f->w.batch), 1e-12);
    assert_true(r.tokens > f->j.tokens);
    assert_int_equal(r.batch_penalty, 1);
    /* the listing kept in the detail gives what a fresh detail gives */
    struct tm_result again;
    assert_ok(tm_eval(&j, 512, TM_STRONG, &r, &f->d, &err), err);
    assert_ok(tm_eval(&j, 512, TM_STRONG, &again, &f->fresh, &err), err);
    same_result(&r, &again);
    free(f);
}

static void gpu_refusals(void **state)
{
    (void)state;
    struct gfx *f = gfx_new("h100", 8);
    struct tm_job j = {&tm_gpu, &f->j, 8};
    struct tm_result r;
    struct cp_error err = {0};
    /* 175 B parameters do not fit in 8 H100 in any layout: a verdict */
    assert_ok(tm_eval(&j, 0, TM_STRONG, &r, &f->d, &err), err);
    assert_int_equal(r.runs, 0);
    assert_int_equal(r.feasible, 0);
    assert_int_equal(r.bad_input, 0);
    assert_non_null(strstr(r.why, "fits in memory"));
    /* a prime count past the heads, layers and batch divides nothing */
    assert_ok(tm_eval(&j, 1000003, TM_STRONG, &r, &f->d, &err), err);
    assert_int_equal(r.runs, 0);
    assert_int_equal(r.bad_input, 1);
    assert_int_equal(r.verdict[0].holds, 0);
    assert_string_equal(r.verdict[0].name, "divides");
    free(f);
}

/* The index of kind k's parameter named name; fails when none is. */
static size_t param_of(const struct tm_kind *k, const char *name)
{
    char buf[96];
    for (size_t i = 0; i < k->nparams(); i++)
        if (strcmp(k->param_name(i, buf, sizeof buf), name) == 0)
            return i;
    fail_msg("no parameter %s", name);
    return 0;
}

/* The GPU kind's parameters: gpuhw_schema's numbers but the claims'
 * figures, each read from its field; the rules of the keys and the one
 * spanning the node and the NVLink domain; evaluations with a key changed
 * are the search on a changed copy, bit for bit, and leave the job and
 * the divisors kept in the detail as they were. */
static void gpu_params(void **state)
{
    (void)state;
    const struct tm_kind *k = &tm_gpu;
    struct gfx *f = gfx_new("h100", 1024);
    size_t nnum = 0;
    for (size_t i = 0; i < gpuhw_schema.nkeys; i++)
        nnum += gpuhw_schema.keys[i].type == DESC_NUM;
    assert_int_equal(k->nparams(), nnum - 3); /* cores, l2_cache, die_area_mm2 */
    char name[96], full[96];
    for (size_t i = 0; i < k->nparams(); i++) {
        const struct desc_key *key = &gpuhw_schema.keys[k->param_index(i)];
        snprintf(full, sizeof full, "%s.%s", key->section, key->name);
        assert_string_equal(k->param_name(i, name, sizeof name), full);
        assert_int_equal(key->type, DESC_NUM);
        assert_int_equal(k->param_dim(i), key->dim);
        assert_same(k->param_get(&f->j, i), *(const double *)((const char *)&f->g + key->off));
        assert_int_equal(k->param_whole(i), (key->flags & DESC_INTEGER) != 0);
        assert_true(i == 0 || k->param_index(i) > k->param_index(i - 1));
        assert_null(strstr(name, "cores"));
    }
    size_t peak = param_of(k, "gpu.peak_bf16"), sm = param_of(k, "gpu.sm_count");
    assert_same(k->param_get(&f->j, peak), 989e12);
    assert_true(k->param_whole(sm) && !k->param_whole(peak));
    /* valid values */
    size_t eff = param_of(k, "fit.matmul_efficiency"), dom = param_of(k, "network.nvlink_domain");
    assert_true(k->param_valid(&f->j, eff, 0.583) && !k->param_valid(&f->j, eff, 1.2));
    assert_true(!k->param_valid(&f->j, peak, 0) && k->param_valid(&f->j, peak, 1.2e15));
    assert_true(k->param_valid(&f->j, param_of(k, "gpu.peak_fp4"), 0));
    assert_true(!k->param_valid(&f->j, sm, 131.5) && !k->param_valid(&f->j, peak, NAN));
    assert_true(k->param_valid(&f->j, dom, 16) && k->param_valid(&f->j, dom, 4));
    assert_false(k->param_valid(&f->j, dom, 12)); /* neither divides 8 nor whole nodes */
    /* not ranked: the capacities and the node's shape, with a reason */
    assert_non_null(k->param_skip_why(param_of(k, "gpu.hbm")));
    assert_null(k->param_skip_why(peak));
    for (size_t i = 0; k->skipped[i]; i++)
        assert_non_null(k->param_skip_why(param_of(k, k->skipped[i])));
    /* evaluations with a key changed */
    struct tm_job j = {k, &f->j, 1024};
    struct tm_result base, r, want;
    struct cp_error err = {0};
    assert_ok(tm_eval(&j, 0, TM_STRONG, &base, &f->d, &err), err);
    assert_ok(tm_param_eval(&j, peak, 989e12, 0, TM_STRONG, &r, &f->d, &err), err);
    same_result(&r, &base);
    assert_ok(tm_param_eval(&j, peak, 2.37e15, 0, TM_STRONG, &r, &f->d, &err), err);
    assert_same(f->g.chip.peak_flops[GPUHW_BF16], 989e12); /* the job's own description */
    assert_true(r.step_s < base.step_s);
    f->g.chip.peak_flops[GPUHW_BF16] = 2.37e15;
    direct(f, 1024, f->w.batch, f->j.tokens, &want);
    f->g.chip.peak_flops[GPUHW_BF16] = 989e12;
    same_result(&r, &want);
    /* the job again after a change: its own result, not the changed one */
    assert_ok(tm_eval(&j, 0, TM_STRONG, &r, &f->d, &err), err);
    same_result(&r, &base);
    /* the GPUs' power does not enter the time */
    assert_ok(tm_param_eval(&j, param_of(k, "gpu.power"), 1234.5, 0, TM_STRONG, &r, &f->d, &err),
              err);
    assert_same(r.time_s, base.time_s);
    free(f);
}

/* The weight-streaming kind's parameters are param.h's keys, and an
 * evaluation with one changed is param_eval's, bit for bit. */
static void ws_params(void **state)
{
    (void)state;
    const struct tm_kind *k = &tm_ws;
    static struct hw_desc h, h2;
    static struct wl_desc w;
    static struct train_result t, d;
    load_hw("cs2", NULL, 0, &h);
    load_model("gpt3-175b", NULL, 0, &w);
    struct cluster c;
    cluster_init(&c, &h, &w);
    c.systems = 192;
    assert_int_equal(k->nparams(), param_count());
    for (size_t i = 0; i < k->nparams(); i++) {
        assert_int_equal(k->param_index(i), param_key(i));
        assert_same(k->param_get(&c, i), param_get(&h, param_key(i)));
    }
    size_t u = param_of(k, "system.utilization");
    assert_null(k->param_skip_why(u));
    assert_non_null(k->param_skip_why(param_of(k, "system.sram")));
    assert_false(k->param_valid(&c, u, 1.07));
    struct tm_job j = {k, &c, 192};
    struct tm_result r;
    struct cp_error err = {0};
    assert_ok(tm_param_eval(&j, u, 0.4137, 0, TM_STRONG, &r, &d, &err), err);
    h2 = h;
    *param_ptr(&h2, param_key(u)) = 0.4137;
    param_eval(&c, &h2, &t);
    assert_memory_equal(&t, &d, sizeof t);
    assert_same(r.time_s, t.time_s);
    char buf[512];
    assert_non_null(strstr(k->describe(&c, NULL, &r, &d, buf, sizeof buf),
                           "GPT-3 175B on 192 x CS-2 (WSE-2), MemoryX sized ("));
    c.mx_servers = 4;
    assert_non_null(strstr(k->describe(&c, NULL, &r, &d, buf, sizeof buf), "MemoryX 4 servers ("));
    assert_non_null(strstr(k->describe(&c, "24TB", &r, &d, buf, sizeof buf), "MemoryX 24TB ("));
}

static void kinds_claim(void **state)
{
    (void)state;
    const struct {
        const char *name;
        const struct tm_kind *kind;
    } want[] = {{"cs2", &tm_ws}, {"cs3", &tm_ws}, {"h100", &tm_gpu}, {"a100", &tm_gpu}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct cat_entry e;
        builtin_text(want[i].name, CAT_HW, &e);
        assert_ptr_equal(tm_kind_of(e.text), want[i].kind);
        size_t mine = 0;
        for (size_t k = 0; tm_kinds[k]; k++)
            mine += tm_kinds[k]->is_mine(e.text) != 0;
        assert_int_equal(mine, 1);
        cat_entry_free(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ws_matches_train),
        cmocka_unit_test(gpu_matches_search),
        cmocka_unit_test(gpu_refusals),
        cmocka_unit_test(gpu_params),
        cmocka_unit_test(ws_params),
        cmocka_unit_test(kinds_claim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
