/* test_claim.c - the claims' room (src/claim/claim.h): the table of claim
 * types agrees with the kinds' names and with the file's GPU columns; a
 * weight-streaming claim judged through claim_judge runs the claim's own
 * systems and sparsity, its time the training model's (tm.h) bit for bit,
 * and its verdict follows the target; the GPU descriptions a claim is
 * given load by name, and a name that is no GPU is refused naming the
 * file's line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim/claim.h"
#include "model/train.h"

#define DAY_S 86400.0

/* Each type has its own name (the kind cell's word) and a judge; those given GPUs are the kinds
 * from ratio on; an empty gpus cell is "auto" for the jobs on GPUs only. */
static void types_table(void **state)
{
    (void)state;
    for (int k = 0; k < CLAIM_NKINDS; k++) {
        const struct claim_type *t = &claim_types[k];
        assert_true(t->name[0] != '\0');
        for (int j = 0; j < k; j++)
            assert_string_not_equal(t->name, claim_types[j].name);
        assert_non_null(t->judge);
        assert_int_equal(claim_kind_is_gpu((enum claim_kind)k), k >= CLAIM_RATIO);
        assert_int_equal(!!(t->needs & CLAIM_NEEDS_JOB), k != CLAIM_RATIO);
        assert_int_equal(t->gpus_auto, k > CLAIM_RATIO);
    }
    assert_string_equal(claim_types[CLAIM_WEAK_SCALING].name, "weak_scaling");
    assert_string_equal(claim_types[CLAIM_POWER].name, "power");
}

/* A time_to_train claim of model on n systems of hw at target seconds;
 * the job's own count (1.5) is not the claim's. */
static void judge_time(const char *model, const char *hw, double n, double target,
                       struct claim_result *r, struct train_result *t)
{
    struct hw_desc h;
    struct wl_desc w;
    struct cluster c;
    load_hw(hw, NULL, 0, &h);
    load_model(model, NULL, 0, &w);
    cluster_init(&c, &h, &w);
    c.systems = 1.5;
    struct claim cl = {.kind = CLAIM_TIME_TO_TRAIN, .systems = n, .target = target};
    snprintf(cl.memoryx, sizeof cl.memoryx, "auto");
    struct claim_in in = {.cl = &cl, .hw = &h, .ws = &c};
    struct cp_error err = {0};
    assert_ok(claim_judge(&in, r, &err), err);
    c.systems = n;
    train_eval(&c, t);
}

static void time_on_the_claims_systems(void **state)
{
    (void)state;
    struct claim_result r;
    struct train_result t;
    judge_time("gpt3-xl", "cs2", 4, 365 * DAY_S, &r, &t);
    assert_true(t.feasible);
    assert_true(r.predicted == t.time_s); /* bit for bit */
    assert_int_equal(r.verdict, CLAIM_HOLDS);
    assert_non_null(strstr(r.reason, "on 4 systems"));
    judge_time("gpt3-xl", "cs2", 4, t.time_s * 0.4137, &r, &t);
    assert_true(r.predicted == t.time_s);
    assert_int_not_equal(r.verdict, CLAIM_HOLDS);
}

/* The claim's GPU by name; a weight-streaming system or an unknown name
 * is refused naming origin:line, a bad --set is the description's own
 * error (in_row: the caller names the line after it). */
static void gpu_by_name(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct gpuhw_desc *g = calloc(CLAIM_OTHERS_MAX + 1, sizeof *g);
    assert_non_null(g);
    struct claim cl = {.line = 7};
    struct cp_error err = {0};
    int in_row = -1;
    snprintf(cl.gpu, sizeof cl.gpu, "h100");
    assert_ok(claim_gpu_load(&none, &cl, "c.csv", NULL, 0, g, &in_row, &err), err);
    assert_int_equal(in_row, 0);
    assert_rel(g->chip.hbm_Bps, 3.35e12, 1e-12);
    snprintf(cl.gpu, sizeof cl.gpu, "cs3");
    assert_int_equal(claim_gpu_load(&none, &cl, "c.csv", NULL, 0, g, &in_row, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "c.csv:7: gpu 'cs3': a weight-streaming system"));
    assert_int_equal(in_row, 0);
    snprintf(cl.gpu, sizeof cl.gpu, "nosuch-gpu");
    assert_int_equal(claim_gpu_load(&none, &cl, "c.csv", NULL, 0, g, &in_row, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "c.csv:7: gpu 'nosuch-gpu': "));
    const char *bad[] = {"gpu.power=900"}; /* no unit */
    snprintf(cl.gpu, sizeof cl.gpu, "a100");
    assert_int_not_equal(claim_gpu_load(&none, &cl, "c.csv", bad, 1, g, &in_row, &err), CP_OK);
    assert_int_equal(in_row, 1);
    assert_non_null(strstr(err.msg, "gpu.power"));
    size_t n = 0;
    assert_ok(claim_gpu_all(&none, NULL, 0, g, CLAIM_OTHERS_MAX, &n, &err), err);
    assert_int_equal(n, 5); /* a100 b200 gb200 h100 h200 */
    assert_int_not_equal(claim_gpu_all(&none, bad, 1, g, CLAIM_OTHERS_MAX, &n, &err), CP_OK);
    free(g);
}

/* A claims file through the one CSV reader: errors name the row's number
 * (the header is 1; blank lines are not rows), not its line, and
 * malformed CSV its line and byte; a cell holding a line end is refused
 * (every cell is printed as it is). */
static void parse_rows(void **state)
{
    (void)state;
    const char *hdr = "id,claim,source,kind,model,system,systems,memoryx,sparsity,target,"
                      "condition\n";
    const char *row = "a,\"one, line\",s,capacity,m,cs2,2,auto,0,30 d,c\n";
    char text[512];
    struct claim_list l;
    struct cp_error err = {0};
    snprintf(text, sizeof text, "%s%s\n\n%s", hdr, row, row);
    assert_int_equal(claim_parse(text, strlen(text), "c.csv", &l, &err), CP_OK);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.items[1].line, 3);
    assert_string_equal(l.items[1].text, "one, line");
    assert_true(l.items[0].systems == 2);
    claim_list_free(&l);
    snprintf(text, sizeof text, "%s\n%sb,t,s,capacty,m,cs2,1,auto,0,1 d,c\n", hdr, row);
    assert_int_equal(claim_parse(text, strlen(text), "c.csv", &l, &err), CP_EINPUT);
    assert_true(strncmp(err.msg, "c.csv:3: kind: 'capacty' is not a kind", 38) == 0);
    snprintf(text, sizeof text, "%s\n%sb,t,s\"x\n", hdr, row);
    assert_int_equal(claim_parse(text, strlen(text), "c.csv", &l, &err), CP_EINPUT);
    assert_true(strncmp(err.msg, "c.csv:4:6: source: malformed CSV: a double quote", 48) == 0);
    snprintf(text, sizeof text, "%sb,\"two\nlines\",s,capacity,m,cs2,2,auto,0,30 d,c\n", hdr);
    assert_int_equal(claim_parse(text, strlen(text), "c.csv", &l, &err), CP_EINPUT);
    assert_true(strncmp(err.msg, "c.csv:2: claim: control character 0x0A", 38) == 0);
    snprintf(text, sizeof text, "%sb,t\n", hdr);
    assert_int_equal(claim_parse(text, strlen(text), "c.csv", &l, &err), CP_EINPUT);
    assert_string_equal(err.msg, "c.csv:2: 2 fields, expected 11");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(types_table),
        cmocka_unit_test(time_on_the_claims_systems),
        cmocka_unit_test(gpu_by_name),
        cmocka_unit_test(parse_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
