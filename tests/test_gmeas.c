/* test_gmeas.c - the GPU measurement corpus reader (src/desc/gmeas): the
 * shipped hw/gpu-measurements.csv loads whole, its rows are normalised
 * (GPU, precision, recompute, context parallelism), each source's quantity
 * converts to the step time a hand computation from the published numbers
 * gives, the optional columns (cp, vp, the software switches and the
 * optimizer state's type) are read in any order or left to their defaults,
 * and malformed input fails with FILE:LINE and the column named. */
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
#include "desc/wl.h"

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

/* HDR with the optional columns cols (comma-separated) after notes, then
 * the base row (column col, if >= 0, set to val) with the cells vals. */
static const char *doc_opt(const char *cols, const char *vals, int col, const char *val)
{
    static char buf[4096];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%.*s,%s\n", (int)strlen(HDR) - 1, HDR, cols);
    for (int c = 0; c < NCOLS; c++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", c ? "," : "",
                              c == col ? val : base_row[c]);
    snprintf(buf + n, sizeof buf - n, ",%s\n", vals);
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
    assert_int_equal(l.n, 49);
    for (size_t i = 0; i < l.n; i++) {
        const struct gmeas_row *r = &l.rows[i];
        int a100 = strncmp(r->id, "NAR", 3) == 0 || strncmp(r->id, "KOR22-", 6) == 0;
        assert_true(r->step_time_s > 0 && isfinite(r->step_time_s));
        assert_rel(r->tokens_per_s * r->step_time_s, r->batch_seqs * r->seq_len, 1e-12);
        assert_int_equal(r->gpu, a100 ? GMEAS_A100 : GMEAS_H100);
        assert_non_null(r->convention);
        /* the cp column, where given, is the quotient; a vp column agrees
         * with the notes (the reader refuses otherwise) */
        assert_rel(r->cp * r->tp * r->pp * r->dp, r->gpus, 0);
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
    /* the switch columns: Narayanan et al. 2021's early-2021 stack, the
     * Nemotron-340B recipe's bf16 optimizer state, MLPerf v3.1's configs */
    assert_int_equal(nar->sequence_parallel, 0);
    assert_int_equal(nar->flash_attention, 0);
    assert_int_equal(nar->tp_overlap, 0);
    assert_int_equal(nar->distributed_optimizer, 0);
    assert_int_equal(nar->fsdp, -1);
    assert_int_equal(nar->optimizer_precision, -1);
    assert_int_equal(find(&l, "NM24-10")->optimizer_precision, WL_OPT_BF16);
    assert_int_equal(mlp->tp_overlap, 1);
    assert_int_equal(mlp->distributed_optimizer, 1);
    assert_int_equal(mlp->fp8_params, -1);
    assert_rel(mlp->vp, 12, 0);
    /* Korthikanti et al. 2022: Table 3's layouts, full recompute without
     * and selective recompute with sequence parallelism, m = 3 interleaving
     * for 175B and 530B (sec. 6), none stated for 1T */
    const struct gmeas_row *k22 = find(&l, "KOR22-22B-full"),
                           *k175 = find(&l, "KOR22-175B-present"), *k1t = find(&l, "KOR22-1T-full");
    assert_rel(k22->micro_batch, 4, 0);
    assert_int_equal(k22->recompute, GMEAS_RC_FULL);
    assert_int_equal(k22->sequence_parallel, 0);
    assert_int_equal(k175->recompute, GMEAS_RC_SELECTIVE);
    assert_int_equal(k175->sequence_parallel, 1);
    assert_int_equal(k175->flash_attention, 0);
    assert_int_equal(k175->tp_overlap, -1);
    assert_int_equal(k175->distributed_optimizer, 0);
    assert_rel(k175->vp, 3, 0);
    assert_true(isnan(k1t->vp));
    assert_rel(find(&l, "KOR22-530B-2240-present")->dp, 8, 0);
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
 * "741.1 tokens/s/GPU" in the notes: 4194304 / 11.0539 / 512 = 741.10.
 *
 * Korthikanti et al. 2022, 530B on 2240 A100s with full recompute: MFU
 * 42.1 % (abstract), i.e. 0.421 x 312 = 131.352 TFLOP/s of model FLOP per
 * GPU.  Eq. 7 with B = 2240, s = 2048, l = 105, h = 20480, V = 51200:
 * 72 B s l h^2 = 1.4546539e19; 1 + s/6h + V/12lh = 1 + 0.0166667 +
 * 0.0019841; 1.4817843e19 FLOP per step / (2240 x 131.352e12 = 2.9422848e17
 * FLOP/s) = 50.3617 s.  The same run with sequence parallelism and
 * selective recompute took 39.15 s (sec. 6.3): 54.2 % MFU, 1.287 times
 * faster, as the abstract says (29 %). */
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
        {"KOR22-530B-2240-full", 2240 * 131.352e12, 1.4817843e19, 50.3617, NAN},
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

#define OPT_COLS                                                                                   \
    "cp,vp,fsdp,fp8_params,optimizer_precision,sequence_parallel,flash_attention,tp_overlap,"      \
    "distributed_optimizer"

/* The optional columns: read in any order and case, defaults where a cell
 * is empty or the column absent (the 26-column files above). */
static void test_optional_columns(void **state)
{
    (void)state;
    struct gmeas_list l;
    struct cp_error err = {0};
    /* absent: cp from the layout (48 / (2 x 1 x 24)), vp NaN (the notes
     * say none), every switch and the optimizer's type not given */
    check_ok(gmeas_parse(doc_with(-1, ""), "g.csv", &l, &err), &err, __FILE__, __LINE__);
    const struct gmeas_row *r = &l.rows[0];
    assert_rel(r->cp, 1, 0);
    assert_true(isnan(r->vp));
    int *sw[] = {&l.rows[0].fsdp,
                 &l.rows[0].fp8_params,
                 &l.rows[0].optimizer_precision,
                 &l.rows[0].sequence_parallel,
                 &l.rows[0].flash_attention,
                 &l.rows[0].tp_overlap,
                 &l.rows[0].distributed_optimizer};
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++)
        assert_int_equal(*sw[i], -1);
    gmeas_list_free(&l);
    /* present but empty: the same defaults */
    check_ok(gmeas_parse(doc_opt(OPT_COLS, ",,,,,,,,", -1, ""), "g.csv", &l, &err), &err, __FILE__,
             __LINE__);
    r = &l.rows[0];
    assert_rel(r->cp, 1, 0);
    assert_true(isnan(r->vp));
    assert_int_equal(r->fsdp, -1);
    assert_int_equal(r->optimizer_precision, -1);
    assert_int_equal(r->distributed_optimizer, -1);
    gmeas_list_free(&l);
    /* every word, in any case */
    check_ok(
        gmeas_parse(doc_opt(OPT_COLS, "1,3,ON,off,BF16,yes,No,TRUE,0", -1, ""), "g.csv", &l, &err),
        &err, __FILE__, __LINE__);
    r = &l.rows[0];
    assert_rel(r->cp, 1, 0);
    assert_rel(r->vp, 3, 0);
    assert_int_equal(r->fsdp, 1);
    assert_int_equal(r->fp8_params, 0);
    assert_int_equal(r->optimizer_precision, WL_OPT_BF16);
    assert_int_equal(r->sequence_parallel, 1);
    assert_int_equal(r->flash_attention, 0);
    assert_int_equal(r->tp_overlap, 1);
    assert_int_equal(r->distributed_optimizer, 0);
    gmeas_list_free(&l);
    check_ok(
        gmeas_parse(doc_opt("optimizer_precision,fsdp", "Fp32,False", -1, ""), "g.csv", &l, &err),
        &err, __FILE__, __LINE__);
    assert_int_equal(l.rows[0].optimizer_precision, WL_OPT_FP32);
    assert_int_equal(l.rows[0].fsdp, 0);
    assert_int_equal(l.rows[0].sequence_parallel, -1);
    gmeas_list_free(&l);
    /* any order: optional columns before the required ones, a cp the
     * layout leaves (48 / (2 x 1 x 12) = 2), a vp the notes agree with */
    char text[4096];
    const char *row = doc_with(19, "12") + strlen(HDR);
    snprintf(text, sizeof text, "tp_overlap,vp,cp,%s1,6,2,%.*s,\"VP=6\"\n", HDR,
             (int)(strrchr(row, ',') - row), row);
    check_ok(gmeas_parse(text, "g.csv", &l, &err), &err, __FILE__, __LINE__);
    assert_rel(l.rows[0].cp, 2, 0);
    assert_rel(l.rows[0].vp, 6, 0);
    assert_int_equal(l.rows[0].tp_overlap, 1);
    gmeas_list_free(&l);
    /* no vp column, or an empty one: the notes' VP=N */
    check_ok(gmeas_parse(doc_opt("vp", "", 25, "\"CP=1 VP=12\""), "g.csv", &l, &err), &err,
             __FILE__, __LINE__);
    assert_rel(l.rows[0].vp, 12, 0);
    gmeas_list_free(&l);
    /* a vp column and notes without VP=N */
    check_ok(gmeas_parse(doc_opt("vp", "4", -1, ""), "g.csv", &l, &err), &err, __FILE__, __LINE__);
    assert_rel(l.rows[0].vp, 4, 0);
    gmeas_list_free(&l);
}

static void test_optional_errors(void **state)
{
    (void)state;
    /* cp must be what the layout leaves: 48 GPUs / (2 x 1 x 24) = 1 */
    expect_error(doc_opt("cp", "2", -1, ""), "g.csv:2: cp: '2' is not gpus / (tp x pp x dp)",
                 "= 48 / 48 = 1");
    /* ...also where the layout leaves no whole number */
    expect_error(doc_opt("cp", "1", 19, "36"), "g.csv:2: cp: '1' is not gpus / (tp x pp x dp)",
                 "= 48 / 72 = 0.666667");
    expect_error(doc_opt("cp", "0", -1, ""), "g.csv:2: cp: '0' is not a whole number", "");
    expect_error(doc_opt("cp", "unknown", -1, ""), "g.csv:2: cp: 'unknown'", "");
    /* vp against the notes */
    expect_error(doc_opt("vp", "4", 25, "\"CP=1 VP=6\""),
                 "g.csv:2: vp: '4' disagrees with the notes", "VP=6");
    expect_error(doc_opt("vp", "1.5", -1, ""), "g.csv:2: vp: '1.5' is not a whole number", "");
    /* switch and optimizer words */
    expect_error(doc_opt("sequence_parallel", "maybe", -1, ""),
                 "g.csv:2: sequence_parallel: 'maybe' is not on, off, true, false, yes, no, 1 or 0",
                 "");
    expect_error(doc_opt(OPT_COLS, "1,,on,off,bf16,on,off,2,off", -1, ""),
                 "g.csv:2: tp_overlap: '2' is not on, off", "");
    expect_error(doc_opt("fsdp", "enabled", -1, ""), "g.csv:2: fsdp: 'enabled'", "");
    expect_error(doc_opt("optimizer_precision", "fp16", -1, ""),
                 "g.csv:2: optimizer_precision: 'fp16' is not fp32 or bf16", "");
    /* a column named twice, an unknown one, a required one missing beside
     * optional ones, a field beyond the header */
    expect_error(doc_opt("cp,vp,cp", "1,1,1", -1, ""), "g.csv:1: header: column 'cp' named twice",
                 "");
    expect_error(doc_opt("tp_overlap,distributed_optimizer,tp_overlap", "on,on,on", -1, ""),
                 "g.csv:1: header: column 'tp_overlap' named twice", "");
    expect_error(doc_opt("ep", "1", -1, ""), "g.csv:1: header: unknown column 'ep'", "");
    expect_error("cp,vp,id\n", "g.csv:1: header: missing column 'source'", "");
    char text[4096];
    snprintf(text, sizeof text, "%s", doc_opt("cp", "1", -1, ""));
    text[strlen(text) - 1] = '\0';
    strcat(text, ",extra\n");
    expect_error(text, "g.csv:2: too many fields: the header on line 1 names 27 columns", "");
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
        cmocka_unit_test(test_shipped_loads),   cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_base_and_words),  cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_lines),     cmocka_unit_test(test_optional_columns),
        cmocka_unit_test(test_optional_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
