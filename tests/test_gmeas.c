/* test_gmeas.c - the GPU measurement corpus reader (src/desc/gmeas): the
 * shipped hw/gpu-measurements.csv loads whole, its rows are normalised
 * (GPU, precision, recompute, context parallelism), each source's quantity
 * converts to the step time a hand computation from the published numbers
 * gives, and malformed input fails with FILE:LINE and the column named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "desc/catalog.h"
#include "desc/gmeas.h"

#define HDR                                                                                        \
    "id,source,date,status,gpu,gpus,model,params,layers,hidden,heads,kv_heads,ffn,seq_len,vocab,"  \
    "global_batch_seqs,micro_batch,tp,pp,dp,precision,recompute,quantity,value,unit,notes\n"
#define NCOLS 26

/* A Narayanan-style row (columns in header order), edited per test. */
static const char *const base_row[NCOLS] = {"T1",
                                            "Narayanan et al. 2021 Table 1",
                                            "2021-04",
                                            "measured",
                                            "A100-SXM4-80GB (Selene)",
                                            "48",
                                            "GPT 2.4B",
                                            "2.385e9",
                                            "24",
                                            "2304",
                                            "24",
                                            "24",
                                            "9216",
                                            "2048",
                                            "51200",
                                            "576",
                                            "unknown",
                                            "2",
                                            "1",
                                            "24",
                                            "FP16 mixed",
                                            "full (recompute)",
                                            "achieved_tflops_per_gpu",
                                            "137.5",
                                            "TFLOP/s/GPU",
                                            "\"eq. 3 with recompute\""};

/* HDR, then the base row with column col (if >= 0) set to val. */
static const char *doc_with(int col, const char *val)
{
    static char buf[4096];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", HDR);
    for (int c = 0; c < NCOLS; c++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", c ? "," : "",
                              c == col ? val : base_row[c]);
    snprintf(buf + n, sizeof buf - n, "\n");
    return buf;
}

static const struct gmeas_row *find(const struct gmeas_list *l, const char *id)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->rows[i].id, id) == 0)
            return &l->rows[i];
    print_error("no row '%s'\n", id);
    fail();
    return NULL;
}

/* The message text fails with: CP_EINPUT, and nothing kept. */
static const char *error_of(const char *text)
{
    static struct cp_error err;
    struct gmeas_list l;
    memset(&err, 0, sizeof err);
    assert_int_equal(gmeas_parse(text, "g.csv", &l, &err), CP_EINPUT);
    assert_true(l.n == 0 && l.rows == NULL);
    return err.msg;
}

/* text fails with a message that starts with prefix and holds what. */
static void expect_error(const char *text, const char *prefix, const char *what)
{
    const char *msg = error_of(text);
    if (strncmp(msg, prefix, strlen(prefix)) != 0 || !strstr(msg, what)) {
        print_error("input:\n%s\nmessage '%s'; wanted '%s...%s'\n", text, msg, prefix, what);
        fail();
    }
}

/* The shipped corpus, from the source tree (tests run at its top) or the
 * copy built into the program. */
static void load_shipped(struct gmeas_list *l)
{
    struct cat_dirs dirs = {.dir = {"."}, .n = 1};
    struct cat_entry e;
    struct cp_error err = {0};
    check_ok(cat_find_data(&dirs, "hw", "gpu-measurements.csv", &e, &err), &err, __FILE__,
             __LINE__);
    check_ok(gmeas_parse(e.text, e.origin, l, &err), &err, __FILE__, __LINE__);
    cat_entry_free(&e);
}

static void test_shipped_loads(void **state)
{
    (void)state;
    struct gmeas_list l;
    load_shipped(&l);
    assert_int_equal(l.n, 39);
    for (size_t i = 0; i < l.n; i++) {
        const struct gmeas_row *r = &l.rows[i];
        assert_true(r->step_time_s > 0 && isfinite(r->step_time_s));
        assert_rel(r->tokens_per_s * r->step_time_s, r->batch_seqs * r->seq_len, 1e-12);
        assert_int_equal(r->gpu, strncmp(r->id, "NAR", 3) == 0 ? GMEAS_A100 : GMEAS_H100);
        assert_non_null(r->convention);
    }
    const struct gmeas_row *nar = find(&l, "NAR-T1-01"), *mcr = find(&l, "MCR-H100-01");
    assert_int_equal(nar->precision, GMEAS_P16);
    assert_int_equal(nar->recompute, GMEAS_RC_FULL);
    assert_true(isnan(nar->micro_batch));
    assert_int_equal(mcr->precision, GMEAS_P16); /* "BF16 (inferred ...)" */
    assert_int_equal(mcr->recompute, GMEAS_RC_UNKNOWN);
    assert_true(isnan(mcr->kv_heads) && isnan(mcr->ffn));
    const struct gmeas_row *mlp = find(&l, "MLP3.1-NVIDIA-eos_n64_ngc23.09_nemo-gpt3-step");
    assert_int_equal(mlp->precision, GMEAS_FP8);
    assert_int_equal(mlp->recompute, GMEAS_RC_NONE);
    assert_true(isnan(mlp->vocab));
    /* NeMo 24.07 LLAMA3-8B: 8 GPUs, tp 1 pp 1 dp 4, the notes say CP=2 */
    assert_rel(find(&l, "NM24-11")->cp, 2, 0);
    assert_rel(find(&l, "NM24-01")->cp, 1, 0);
    gmeas_list_free(&l);
}

/* Step times worked by hand from the published numbers (NaN: no check).
 *
 * Narayanan et al. 2021 Table 1, the 1008B row: 3072 A100s at 163 TFLOP/s
 * each, "aggregate 502.0 PFLOP/s" in the paper (163 is rounded: 3072 x 163
 * = 500.7).  Eq. 3 with B = 3072, s = 2048, l = 128, h = 25600, V = 51200:
 * 96 B s l h^2 = 5.0665e19; 1 + s/6h + V/16lh = 1 + 0.013333 + 0.00097656;
 * 5.139051e19 FLOP per step / 5.00736e17 FLOP/s = 102.630 s.
 *
 * Megatron-Core r0.8.0 weak scaling, GPT 1.7B on 48 H100s at 408.8 TFLOP/s
 * ("aggregate 19.6 PFLOP/s"): model FLOP 12 B s l h^2 (1 + kv/heads + s/h
 * + ffn/h + V/2lh) with B = 192, s = 4096, l = 24, h = 2048, V = 131072,
 * ffn = 4h, kv = heads: 9.49978e14 x (1 + 1 + 2 + 4 + 1.33333) = 8.866462e15
 * FLOP; / (48 x 408.8e12 = 19.62e15 FLOP/s) = 0.451854 s.
 *
 * NeMo 24.07 GPT3-5B: 2048 sequences of 2048 tokens, 64 H100s at 23406
 * tokens/s each: 4194304 / 1497984 = 2.79997 s.
 *
 * MLPerf v3.1 eos_n64: 11.0539 s/step for 2048 x 2048 tokens on 512 GPUs,
 * "741.1 tokens/s/GPU" in the notes: 4194304 / 11.0539 / 512 = 741.10. */
static void test_conversions(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        double aggregate_flops, flop, step_s, tokens_per_gpu;
    } cases[] = {
        {"NAR-T1-10", 502.0e15, 5.139051e19, 102.630, NAN},
        {"MCR-H100-01", 19.6e15, 8.866462e15, 0.451854, NAN},
        {"NM24-01", NAN, NAN, 2.79997, 23406},
        {"MLP3.1-NVIDIA-eos_n64_ngc23.09_nemo-gpt3-step", NAN, NAN, 11.0539, 741.1},
    };
    struct gmeas_list l;
    load_shipped(&l);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct gmeas_row *r = find(&l, cases[i].id);
        if (!isnan(cases[i].aggregate_flops)) {
            assert_rel(r->gpus * r->value, cases[i].aggregate_flops, 0.005);
            assert_rel(r->flop_per_step, cases[i].flop, 1e-6);
        } else {
            assert_true(isnan(r->flop_per_step));
            assert_rel(r->tokens_per_s / r->gpus, cases[i].tokens_per_gpu, 1e-4);
        }
        assert_rel(r->step_time_s, cases[i].step_s, 1e-5);
    }
    gmeas_list_free(&l);
}

/* The base row parses, and the normalisation reads the other GPU and
 * precision words. */
static void test_base_and_words(void **state)
{
    (void)state;
    static const struct {
        int col;
        const char *val;
        int field, want;
    } cases[] = {
        {4, "NVIDIA GB200 NVL72", 0, GMEAS_GB200}, {4, "DGX B200", 0, GMEAS_B200},
        {4, "h200-sxm-141gb", 0, GMEAS_H200},      {20, "BF16", 1, GMEAS_P16},
        {20, "NVFP4 (blocks)", 1, GMEAS_FP4},      {21, "selective", 2, GMEAS_RC_SELECTIVE},
    };
    struct gmeas_list l;
    struct cp_error err = {0};
    check_ok(gmeas_parse(doc_with(-1, ""), "g.csv", &l, &err), &err, __FILE__, __LINE__);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.rows[0].line, 2);
    assert_rel(l.rows[0].value, 137.5e12, 1e-15);
    gmeas_list_free(&l);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_ok(gmeas_parse(doc_with(cases[i].col, cases[i].val), "g.csv", &l, &err), &err,
                 __FILE__, __LINE__);
        const struct gmeas_row *r = &l.rows[0];
        int got = cases[i].field == 0   ? (int)r->gpu
                  : cases[i].field == 1 ? (int)r->precision
                                        : (int)r->recompute;
        assert_int_equal(got, cases[i].want);
        gmeas_list_free(&l);
    }
}

static void test_errors(void **state)
{
    (void)state;
    /* a missing column: the header without vocab */
    expect_error("id,source,date,status,gpu,gpus,model,params,layers,hidden,heads,kv_heads,ffn,"
                 "seq_len,global_batch_seqs,micro_batch,tp,pp,dp,precision,recompute,quantity,"
                 "value,unit,notes\n",
                 "g.csv:1: header: ", "missing column 'vocab'");
    expect_error(doc_with(9, "2.3k4"), "g.csv:2: hidden: '2.3k4'", "");
    expect_error(doc_with(17, "-2"), "g.csv:2: tp: '-2' is not a whole number", "");
    expect_error(doc_with(5, "4.5"), "g.csv:2: gpus: '4.5' is not a whole number", "");
    expect_error(doc_with(7, "0"), "g.csv:2: params: '0' is not greater than zero", "");
    expect_error(doc_with(8, "unknown"), "g.csv:2: layers: 'unknown'", "");
    expect_error(doc_with(22, "mfu"), "g.csv:2: quantity: 'mfu' is not a quantity", "");
    expect_error(doc_with(1, "a blog"), "g.csv:2: quantity: ", "no known way it counts FLOP");
    expect_error(doc_with(24, "TFLOP/s"), "g.csv:2: unit: 'TFLOP/s' is not the unit", "");
    expect_error(doc_with(23, "fast"), "g.csv:2: value: 'fast'", "");
    expect_error(doc_with(14, "unknown"), "g.csv:2: vocab: unknown, but", "counts FLOP");
    expect_error(doc_with(4, "MI300X"), "g.csv:2: gpu: 'MI300X' names no GPU", "");
    expect_error(doc_with(20, "TF32"), "g.csv:2: precision: 'TF32'", "");
    expect_error(doc_with(21, "partial"), "g.csv:2: recompute: 'partial'", "");
    expect_error(doc_with(19, "7"), "g.csv:2: gpus: 48 GPUs are not a whole number", "= 14");
    expect_error(doc_with(19, "96"), "g.csv:2: gpus: ", "tp x pp x dp = 192");
    expect_error(doc_with(15, "577"), "g.csv:2: global_batch_seqs: 577 sequences", "dp = 24");
    expect_error(doc_with(0, ""), "g.csv:2: id: empty", "");
    expect_error(HDR "\n", "g.csv:1: no runs after the header", "");
    expect_error("", "g.csv:1: no header row", "");
}

/* Errors name the line where the record starts, past blank lines and a
 * quoted field that spans lines. */
static void test_error_lines(void **state)
{
    (void)state;
    char text[8192], row[4096];
    snprintf(row, sizeof row, "%s", doc_with(-1, "") + strlen(HDR));
    /* the first row again (a repeated id), after a blank line and a note
     * over two lines */
    snprintf(text, sizeof text, "%s%.*s,\"two\nlines\"\n\n%s", HDR, (int)(strrchr(row, ',') - row),
             row, row);
    expect_error(text, "g.csv:5: id: 'T1' is already the id of the run on line 2", "");
    snprintf(text, sizeof text, "%s%sT2,only,three\n", HDR, row);
    expect_error(text, "g.csv:3: 3 fields, but the header on line 1 names 26", "");
    snprintf(text, sizeof text, "%s%sT\"2,\n", HDR, row);
    expect_error(text, "g.csv:3: malformed CSV", "");
    snprintf(text, sizeof text, "%s%s\"T2,\n", HDR, row);
    expect_error(text, "g.csv:3: malformed CSV: a quote", "not closed");
    expect_error(HDR "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,extra\n",
                 "g.csv:2: too many fields", "");
    expect_error("id,id\n", "g.csv:1: header: column 'id' named twice", "");
    expect_error("id,mfu\n", "g.csv:1: header: unknown column 'mfu'", "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_loads),  cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_base_and_words), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
