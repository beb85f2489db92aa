/* test_meas.c - the measurement CSV reader (src/desc/meas): the columns
 * that name and describe a row (id, software, unit, source, notes), the
 * samples_per_s quantity, and every error they bring, each placed at its
 * line and column.  The older columns and the CSV syntax are covered by
 * test_calib.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <stdio.h>
#include <string.h>

#include "desc/meas.h"

#define HDR "id,model,system,systems,quantity,value,unit\n"
/* The required columns alone. */
#define HDR_MIN "model,system,systems,quantity,value\n"

static cp_status parse(const char *text, struct meas_list *l, struct cp_error *err)
{
    memset(err, 0, sizeof *err);
    return meas_parse(text, "m.csv", l, err);
}

/* text fails with a message that starts with prefix and contains what. */
static void expect_error(const char *text, const char *prefix, const char *what)
{
    struct meas_list l;
    struct cp_error err;
    cp_status st = parse(text, &l, &err);
    if (st != CP_EINPUT || strncmp(err.msg, prefix, strlen(prefix)) != 0 ||
        !strstr(err.msg, what)) {
        print_error("input:\n%s\nstatus %d, message '%s'; wanted '%s...%s'\n", text, st, err.msg,
                    prefix, what);
        fail();
    }
    assert_int_equal(l.n, 0);
    assert_null(l.rows);
}

/* The layout of hw/measurements.csv: every column, quoted free text. */
static void test_all_columns(void **state)
{
    (void)state;
    const char *text =
        "# corpus\n"
        "id,model,system,systems,batch,software,quantity,value,unit,source,notes\n"
        "M05,gptj-6b,cs2,2,120,R2.0.3,samples_per_s,43.67,samples/s,"
        "\"ALCF user guide, 2023\",\"GlobalRate at step 200; \"\"FP16\"\"\"\n"
        "M19,gpt2-small,cs2,1,112,about R2.1,samples_per_s,0.4944 k,samples/s,guide,\n"
        "V01,megatron-1t,cs3,16,,2024,speedup,15.3,x,press release,\"shape\nnot published\"\n"
        "S1,gpt3-xl,cs2,4,,,step_time_s,2.385 min,s,,\n"
        "T1,gpt3-xl,cs2,4,,,tokens_per_s,2.385e5,tokens/s,,\n";
    struct meas_list l;
    struct cp_error err;
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(l.n, 5);
    const struct meas_row *r = l.rows;
    assert_string_equal(r[0].id, "M05");
    assert_string_equal(r[0].software, "R2.0.3");
    assert_string_equal(r[0].source, "ALCF user guide, 2023");
    assert_int_equal(r[0].quantity, MEAS_SAMPLES_PER_S);
    assert_rel(r[0].value, 43.67, 1e-15);
    assert_rel(r[0].batch, 120, 0);
    assert_rel(r[0].systems, 2, 0);
    /* the id is the first field; unit the ninth, after "M05,gptj-6b,cs2,2,
     * 120,R2.0.3,samples_per_s,43.67," (49 bytes) */
    assert_int_equal(r[0].at[MEAS_ID].col, 1);
    assert_int_equal(r[0].at[MEAS_UNIT].line, 3);
    assert_int_equal(r[0].at[MEAS_UNIT].col, 50);
    /* a count with a prefix; an empty notes cell */
    assert_rel(r[1].value, 494.4, 1e-15);
    assert_string_equal(r[1].software, "about R2.1");
    /* a speedup in x, no batch; its notes held a line break */
    assert_int_equal(r[2].quantity, MEAS_SPEEDUP);
    assert_rel(r[2].batch, 0, 0);
    assert_int_equal(r[3].line, 7);
    /* a step time in s, given in minutes; empty software and source */
    assert_int_equal(r[3].quantity, MEAS_STEP_TIME);
    assert_rel(r[3].value, 143.1, 1e-15);
    assert_string_equal(r[3].software, "");
    assert_string_equal(r[3].source, "");
    assert_int_equal(r[4].quantity, MEAS_TOKENS_PER_S);
    assert_rel(r[4].value, 238500, 1e-15);
    meas_list_free(&l);
}

/* The new columns are optional, and a unit cell may be left empty. */
static void test_optional(void **state)
{
    (void)state;
    struct meas_list l;
    struct cp_error err;
    /* published.csv's layout: no id, software, unit or notes */
    assert_ok(parse("model,system,systems,memoryx,sparsity,batch,quantity,value,source\n"
                    "megatron-1t,cs3,16,55TB,0,,speedup,15.3,\"seed 004, \"\"15.3x\"\"\"\n",
                    &l, &err),
              err);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.rows[0].id, "");
    assert_string_equal(l.rows[0].software, "");
    assert_string_equal(l.rows[0].source, "seed 004, \"15.3x\"");
    assert_int_equal(l.rows[0].at[MEAS_ID].line, 0);
    meas_list_free(&l);
    /* a unit column with an empty cell; samples_per_s without a unit */
    assert_ok(parse("model,system,systems,quantity,value,unit\n"
                    "llama2-7b,cs3,1,samples_per_s,31.99,\n"
                    "llama2-7b,cs3,1,samples_per_s,28.51,samples/s\n",
                    &l, &err),
              err);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.rows[0].quantity, MEAS_SAMPLES_PER_S);
    assert_rel(l.rows[1].value, 28.51, 1e-15);
    meas_list_free(&l);
    /* ids are compared whole and by case */
    assert_ok(parse(HDR "M1,gpt3-xl,cs2,1,speedup,1,x\n"
                        "m1,gpt3-xl,cs2,1,speedup,1,x\n"
                        "M11,gpt3-xl,cs2,1,speedup,1,x\n",
                    &l, &err),
              err);
    assert_int_equal(l.n, 3);
    meas_list_free(&l);
}

/* Free text: a source longer than a cell is kept cut (never inside a
 * UTF-8 character), notes of any length are not read, and other cells that
 * long are refused. */
static void test_long_text(void **state)
{
    (void)state;
    char text[2048], src[600];
    /* 254 ASCII bytes, then two-byte characters: the 255th and 256th bytes
     * are one character, which does not fit */
    memset(src, 'a', 254);
    for (int i = 254; i < 400; i += 2)
        memcpy(src + i, "\xc3\xa9", 2); /* e acute */
    src[400] = '\0';
    snprintf(text, sizeof text,
             "model,system,systems,quantity,value,source,notes\n"
             "gpt3-xl,cs2,1,speedup,1.5,\"%s\",%0900d\n",
             src, 3);
    struct meas_list l;
    struct cp_error err;
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(strlen(l.rows[0].source), 254);
    assert_memory_equal(l.rows[0].source, src, 254);
    meas_list_free(&l);
    /* one ASCII byte less: the character fits whole */
    snprintf(text, sizeof text,
             "model,system,systems,quantity,value,source\n"
             "gpt3-xl,cs2,1,speedup,1.5,\"%s\"\n",
             src + 1);
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(strlen(l.rows[0].source), MEAS_TEXT_MAX - 1);
    meas_list_free(&l);
    /* not UTF-8 at the cut: cut where the room ends */
    memset(src, '\x80', 300);
    src[300] = '\0';
    snprintf(text, sizeof text,
             "model,system,systems,quantity,value,source\n"
             "gpt3-xl,cs2,1,speedup,1.5,%s\n",
             src);
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(strlen(l.rows[0].source), MEAS_TEXT_MAX - 1);
    meas_list_free(&l);
    /* an id, a software label or a unit that long */
    snprintf(text, sizeof text, HDR "%0300d,gpt3-xl,cs2,1,speedup,1,x\n", 7);
    expect_error(text, "m.csv:2:1: ", "id: longer than 255 bytes");
    snprintf(text, sizeof text, HDR "M1,gpt3-xl,cs2,1,speedup,1,%0300d\n", 7);
    expect_error(text, "m.csv:2:28: ", "unit: longer than");
    snprintf(text, sizeof text,
             "model,system,systems,quantity,value,software\ngpt3-xl,cs2,1,speedup,1,%0300d\n", 7);
    expect_error(text, "m.csv:2:25: ", "software: longer than");
}

static void test_errors(void **state)
{
    (void)state;
    /* a unit that is not the quantity's, at the unit cell */
    expect_error(HDR "M1,gpt3-xl,cs2,1,step_time_s,1.5,ms\n",
                 "m.csv:2:34: ", "unit: 'ms' is not the unit of step_time_s, which is 's'");
    expect_error(HDR "M1,gpt3-xl,cs2,1,samples_per_s,43.67,tokens/s\n", "m.csv:2:38: ",
                 "unit: 'tokens/s' is not the unit of samples_per_s, which is 'samples/s'");
    expect_error(HDR "M1,gpt3-xl,cs2,16,speedup,15.3,X\n", "m.csv:2:32: ", "which is 'x'");
    expect_error(HDR "M1,gpt3-xl,cs2,1,tokens_per_s,2e5,samples/s\n",
                 "m.csv:2:35: ", "which is 'tokens/s'");
    /* an id repeated, naming the line of the first */
    expect_error(HDR "# c\nM05,gpt3-xl,cs2,1,speedup,1,x\n"
                     "M07,gpt3-xl,cs2,1,speedup,1,x\n"
                     "\"M05\",gpt3-xl,cs2,2,speedup,2,x\n",
                 "m.csv:5:1: ", "id: 'M05' is already the id of the measurement on line 3");
    /* an id empty, quoted or not */
    expect_error(HDR "M1,gpt3-xl,cs2,1,speedup,1,x\n,gpt3-xl,cs2,1,speedup,1,x\n",
                 "m.csv:3:1: ", "id: empty");
    expect_error("model,system,systems,quantity,value,id\ngpt3-xl,cs2,1,speedup,1,\"\"\n",
                 "m.csv:2:25: ", "id: empty");
    /* the lists in messages name the new column and quantity */
    expect_error("model,system,systems,quantity,value,sw\n", "m.csv:1:37: ",
                 "unknown column 'sw' (columns: model, system, systems, quantity, value, "
                 "sparsity, batch, memoryx, source, id, software, unit and notes)");
    expect_error(HDR "M1,gpt3-xl,cs2,1,samples,1,x\n", "m.csv:2:18: ",
                 "'samples' is not a quantity (step_time_s, tokens_per_s, speedup or "
                 "samples_per_s)");
    expect_error("", "m.csv:1: ",
                 "any of sparsity, batch, memoryx, source, id, software, unit, "
                 "notes)");
    expect_error("id,model,system,systems,unit\n", "m.csv:1: ",
                 "missing column 'quantity' (model, system, systems, quantity and value are "
                 "required)");
    expect_error("id,model,system,systems,quantity,value,id\n",
                 "m.csv:1:40: ", "column 'id' named twice (first at column 1)");
    /* samples_per_s is a count: a time is refused */
    expect_error(HDR "M1,gpt3-xl,cs2,1,samples_per_s,3 s,samples/s\n", "m.csv:2:32: ", "value: ");
}

/* Many ids: all kept, a repeat of the last found. */
static void test_many_ids(void **state)
{
    (void)state;
    enum { N = 3000, ROW = 48 };
    static char text[sizeof HDR + (N + 1) * ROW];
    size_t used = (size_t)snprintf(text, sizeof text, "%s", HDR);
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "run-%d,gpt3-xl,cs2,%d,speedup,1.5,x\n", i, 1 + i % 7);
    struct meas_list l;
    struct cp_error err;
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(l.n, N);
    assert_string_equal(l.rows[N - 1].id, "run-2999");
    meas_list_free(&l);
    snprintf(text + used, sizeof text - used, "run-2999,gpt3-xl,cs2,1,speedup,1.5,x\n");
    expect_error(text, "m.csv:3002:1: ",
                 "'run-2999' is already the id of the measurement on "
                 "line 3001");
}

static void test_meas_good(void **state)
{
    (void)state;
    const char *text = "\xef\xbb\xbf# measured points\r\n"
                       "\r\n"
                       "source,value,quantity , systems,system,model,batch,sparsity,memoryx\r\n"
                       "  # a comment between records\r\n"
                       "\"run 1, first\",43 min,step_time_s,16,cs3,megatron-1t,3072,75%,55TB\r\n"
                       "\"two\nlines\",2583.9,step_time_s,2,cs2,gpt3-xl,,,\r\n"
                       "x,2.385 k,tokens_per_s,1,cs2,./models/m.ini,64,0.25,4 TB\n"
                       "\t\n"
                       "y,15.3,speedup,16,cs3,megatron-1t,,0,";
    struct meas_list l;
    struct cp_error err;
    assert_ok(parse(text, &l, &err), err);
    assert_int_equal(l.n, 4);
    const struct meas_row *r = l.rows;
    assert_int_equal(r[0].line, 5);
    assert_string_equal(r[0].model, "megatron-1t");
    assert_string_equal(r[0].system, "cs3");
    assert_string_equal(r[0].memoryx, "55TB");
    assert_int_equal(r[0].quantity, MEAS_STEP_TIME);
    assert_rel(r[0].value, 2580, 1e-15);
    assert_rel(r[0].systems, 16, 0);
    assert_rel(r[0].batch, 3072, 0);
    assert_rel(r[0].sparsity, 0.75, 1e-15);
    /* cells know where they are: value is the second field, after
     * "\"run 1, first\"," (15 bytes) */
    assert_int_equal(r[0].at[MEAS_VALUE].line, 5);
    assert_int_equal(r[0].at[MEAS_VALUE].col, 16);
    assert_int_equal(r[0].at[MEAS_SOURCE].col, 1);
    /* a bare step time is seconds; empty optional cells are defaults */
    assert_int_equal(r[1].line, 6);
    assert_rel(r[1].value, 2583.9, 1e-15);
    assert_rel(r[1].batch, 0, 0);
    assert_rel(r[1].sparsity, 0, 0);
    assert_string_equal(r[1].memoryx, "");
    /* the quoted source held a line break: the next record is on line 8 */
    assert_int_equal(r[2].line, 8);
    assert_int_equal(r[2].quantity, MEAS_TOKENS_PER_S);
    assert_rel(r[2].value, 2385, 1e-15);
    assert_string_equal(r[2].model, "./models/m.ini");
    assert_string_equal(r[2].memoryx, "4 TB");
    /* the last record has no line end */
    assert_int_equal(r[3].line, 10);
    assert_int_equal(r[3].quantity, MEAS_SPEEDUP);
    assert_rel(r[3].value, 15.3, 1e-15);
    assert_int_equal(r[3].at[MEAS_SYSTEMS].col, 16);
    meas_list_free(&l);
    assert_int_equal(l.n, 0);

    /* the optional columns may be left out */
    assert_ok(parse(HDR_MIN "gpt3-xl,cs2,1,speedup,1\n", &l, &err), err);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.rows[0].at[MEAS_BATCH].line, 0);
    meas_list_free(&l);
}

static void test_meas_errors(void **state)
{
    (void)state;
    /* quote not closed: placed at the quote that opened the field */
    expect_error(HDR_MIN "gpt3-xl,cs2,1,step_time_s,\"1.5\n", "m.csv:2:27: ", "quote not closed");
    expect_error(HDR_MIN "# c\n\n\"gpt3-xl,cs2,1,step_time_s,1\n",
                 "m.csv:4:1: ", "quote not closed");
    /* strict quoting inside a record */
    expect_error(HDR_MIN "gpt3-xl,c\"s2,1,step_time_s,1\n", "m.csv:2:10: ", "double quote");
    expect_error(HDR_MIN "\"gpt3-xl\"x,cs2,1,step_time_s,1\n", "m.csv:2:10: ", "closing quote");
    /* unknown, repeated and missing columns */
    expect_error("model,system,nodes,quantity,value\n", "m.csv:1:14: ", "unknown column 'nodes'");
    expect_error("# c\nmodel,system,systems,quantity,value,model\n", "m.csv:2:37: ", "named twice");
    expect_error("model,system,systems,quantity\ngpt3-xl,cs2,1,speedup\n",
                 "m.csv:1: ", "missing column 'value'");
    /* bad numbers, with the column's name */
    expect_error(HDR_MIN "gpt3-xl,cs2,x2,step_time_s,1\n", "m.csv:2:13: ", "systems: ");
    expect_error(HDR_MIN "gpt3-xl,cs2,2.5,step_time_s,1\n", "m.csv:2:13: ", "whole number");
    /* past 2^53: too large, not "not a whole number" */
    expect_error(HDR_MIN "gpt3-xl,cs2,1e300,step_time_s,1\n",
                 "m.csv:2:13: ", "systems: '1e300' is too large for a whole number of systems");
    expect_error("model,system,systems,quantity,value,batch\ngpt3-xl,cs2,2,speedup,2,1e16\n",
                 "m.csv:2:25: ", "batch: '1e16' is too large for a whole number of sequences");
    /* too small to tell from 0: said so */
    expect_error(HDR_MIN "gpt3-xl,cs2,2,step_time_s,1e-400\n",
                 "m.csv:2:27: ", "value: '1e-400' is out of range (below the smallest number");
    expect_error(HDR_MIN "gpt3-xl,cs2,2,step_time_s,3 GB\n", "m.csv:2:27: ", "value: ");
    expect_error(HDR_MIN "gpt3-xl,cs2,2,step_time_s,0\n", "m.csv:2:27: ", "greater than zero");
    expect_error(HDR_MIN "gpt3-xl,cs2,2,speedup,nan\n", "m.csv:2:23: ", "value: ");
    expect_error("model,system,systems,quantity,value,sparsity\ngpt3-xl,cs2,2,speedup,2,1\n",
                 "m.csv:2:25: ", "sparsity: ");
    expect_error("model,system,systems,quantity,value,batch\ngpt3-xl,cs2,2,speedup,2,0\n",
                 "m.csv:2:25: ", "batch: ");
    expect_error(HDR_MIN "gpt3-xl,,2,speedup,2\n", "m.csv:2:9: ", "system: empty");
    /* a quantity not in the list */
    expect_error(HDR_MIN "gpt3-xl,cs2,2,flops,2\n", "m.csv:2:15: ", "not a quantity");
    /* too many and too few fields */
    expect_error(HDR_MIN "gpt3-xl,cs2,2,speedup,2,extra\n", "m.csv:2:25: ", "too many fields");
    expect_error(HDR_MIN "gpt3-xl,cs2,2,speedup\n", "m.csv:2:22: ", "4 fields");
    /* no header, no rows */
    expect_error("", "m.csv:1: ", "no header row");
    expect_error("# only a comment\n\n", "m.csv:1: ", "no header row");
    expect_error("# c\n" HDR_MIN "\n# c\n", "m.csv:2: ", "no measurements");
    /* a cell longer than the reader keeps */
    char big[600];
    snprintf(big, sizeof big, HDR_MIN "%0300d,cs2,1,speedup,1\n", 7);
    expect_error(big, "m.csv:2:1: ", "longer than");
}

/* Any bytes: an answer and no crash (run under valgrind or ASan to see
 * more).  Inputs are a valid header and rows mutated byte by byte from a
 * fixed pseudo-random sequence. */
static void test_meas_any_bytes(void **state)
{
    (void)state;
    static const char seed[] = HDR_MIN "gpt3-xl,cs2,1,step_time_s,\"1.5 s\"\n"
                                       "# c\r\nllama2-70b,cs3,16,speedup,15.3\r\n";
    static const char alphabet[] = ",\"\r\n# \t0a.\xff";
    uint64_t x = 0x9e3779b97f4a7c15u;
    size_t ok = 0;
    for (int n = 0; n < 4000; n++) {
        char text[sizeof seed + 8];
        memcpy(text, seed, sizeof seed);
        size_t len = sizeof seed - 1;
        for (int m = 0; m < 1 + n % 5; m++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = (size_t)(x % len);
            char b = (x >> 32) % 4 ? alphabet[(x >> 40) % (sizeof alphabet - 1)]
                                   : (char)((x >> 48) & 0xff);
            text[at] = b ? b : ' ';
        }
        if ((x >> 20) % 7 == 0)
            text[(x >> 24) % len] = '\0'; /* truncated */
        struct meas_list l;
        struct cp_error err;
        cp_status st = parse(text, &l, &err);
        if (st == CP_OK) {
            ok++;
            assert_true(l.n >= 1 && l.n <= 2);
            for (size_t i = 0; i < l.n; i++)
                assert_true(l.rows[i].value > 0 && l.rows[i].systems >= 1);
        } else {
            assert_int_equal(st, CP_EINPUT);
            assert_memory_equal(err.msg, "m.csv:", 6);
        }
        meas_list_free(&l);
    }
    assert_true(ok > 0 && ok < 4000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_columns), cmocka_unit_test(test_optional),
        cmocka_unit_test(test_long_text),   cmocka_unit_test(test_errors),
        cmocka_unit_test(test_many_ids),    cmocka_unit_test(test_meas_good),
        cmocka_unit_test(test_meas_errors), cmocka_unit_test(test_meas_any_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
