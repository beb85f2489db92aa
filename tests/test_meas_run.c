/* test_meas_run.c - the measurement room's table of corpus kinds
 * (src/meas/meas_run.h) and validate's figures (src/meas/meas_valid.h):
 * a file's kind told once from its header, each kind's calibrate entry
 * and its refusals, and the medians, largest errors and per-kind error
 * lists the summary and the targets are made of. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <string.h>

#include "meas/meas_run.h"

/* A GPU corpus is told by a gpu column anywhere in its header (quoted,
 * padded, after a byte-order mark); anything else is weight streaming. */
static void test_kind_of(void **state)
{
    (void)state;
    assert_ptr_equal(meas_kind_of("id,source,gpu,gpus\nx,y,h100,8\n"), &meas_kind_gpu);
    assert_ptr_equal(meas_kind_of("\xef\xbb\xbf\"gpu\" , model\n"), &meas_kind_gpu);
    assert_ptr_equal(meas_kind_of("model,system,systems,quantity,value\n"), &meas_kind_ws);
    assert_ptr_equal(meas_kind_of("model,gpus,gpu_text\ngpu,1\n"), &meas_kind_ws);
    assert_ptr_equal(meas_kind_of(""), &meas_kind_ws);
    assert_int_equal(meas_kind_of("gpu\n")->kind, VKIND_GPU);
    /* every kind is in the table once, and the last takes any text */
    int seen[VKIND_N] = {0};
    for (size_t k = 0; k < MEAS_NKINDS; k++)
        seen[meas_kinds[k]->kind]++;
    for (int k = 0; k < VKIND_N; k++)
        assert_int_equal(seen[k], 1);
    assert_true(meas_kinds[MEAS_NKINDS - 1]->sniff("anything"));
}

/* calibrate through the table: each kind has its own.  The GPU kind
 * refuses -o, --set, --hw-overlay, a missing --fit and a key that is not a
 * fitted GPU constant in one line each, before reading the runs; weight
 * streaming a missing --fit and a key that is not a hardware key before
 * reading its points, and a file it cannot read after. */
static void expect_kind_refused(const struct meas_kind *kind, const struct meas_calib_req *req,
                                const char *start)
{
    struct meas_calib_out out;
    struct cp_error err = {0};
    assert_int_equal(kind->calibrate(req, &out, &err), CP_EINPUT);
    print_message("# %s\n", err.msg);
    assert_true(strncmp(err.msg, start, strlen(start)) == 0);
    assert_null(strchr(err.msg, '\n'));
    assert_null(out.runs);
    assert_true(out.ws == NULL || out.ws->m.rows.n == 0);
    meas_calib_out_free(&out);
}

static void expect_refused(const struct meas_calib_req *req, const char *start)
{
    expect_kind_refused(&meas_kind_gpu, req, start);
}

static void test_ws_calibrate_entry(void **state)
{
    (void)state;
    struct meas_env env = {0};
    struct meas_calib_req req = {.file = "/nonexistent/runs.csv", .env = &env};
    expect_kind_refused(&meas_kind_ws, &req,
                        "calibrate: --fit [SYSTEM:]section.key[,...] is required");
    req.fit = "system.utilisation";
    expect_kind_refused(&meas_kind_ws, &req, "calibrate: --fit ");
    req.fit = "system.utilization";
    expect_kind_refused(&meas_kind_ws, &req, "/nonexistent/runs.csv");
}

static void test_calibrate_entry(void **state)
{
    (void)state;
    assert_non_null(meas_kind_ws.calibrate);
    assert_non_null(meas_kind_gpu.calibrate);
    struct meas_calib_req req = {.file = "runs.csv", .text = "gpu\n", .fit = "fit.step_overhead"};
    req.overlay = "ov.ini";
    expect_refused(&req, "calibrate: -o: runs.csv is a GPU corpus, and GPU systems take no");
    req.overlay = NULL;
    req.nsets = 1;
    expect_refused(&req, "calibrate: --set: runs.csv is a GPU corpus");
    req.nsets = 0;
    req.noverlays = 2;
    expect_refused(&req, "calibrate: --hw-overlay: runs.csv is a GPU corpus");
    req.noverlays = 0;
    req.fit = NULL;
    expect_refused(&req, "calibrate: --fit fit.KEY[,...] is required for a GPU corpus (runs.csv)");
    req.fit = "fit.step_overhead,system.utilization";
    expect_refused(&req, "calibrate: --fit 'system.utilization': not a fitted GPU constant");
}

/* Median and largest |v| over the finite values only. */
static void test_figures(void **state)
{
    (void)state;
    const double v[] = {-0.25, 0.125, NAN, 0.0625, -0.5};
    assert_rel(validate_median_abs(v, 5), (0.125 + 0.25) / 2, 1e-15);
    assert_rel(validate_median_abs(v, 3), (0.125 + 0.25) / 2, 1e-15);
    assert_rel(validate_median_abs(v, 4), 0.125, 1e-15);
    assert_rel(validate_max_abs(v, 5), 0.5, 1e-15);
    assert_true(isnan(validate_median_abs(v + 2, 1)));
    assert_true(isnan(validate_max_abs(v + 2, 1)));
}

/* The errors of one kind's lines, or their leave-out errors, in order. */
static void test_errors_of(void **state)
{
    (void)state;
    struct vline l[4] = {
        {.kind = VKIND_WS, .error = 0.1, .loo_error = 0.2},
        {.kind = VKIND_GPU, .error = -0.3, .loo_error = NAN},
        {.kind = VKIND_WS, .error = 0.4, .loo_error = -0.5},
        {.kind = VKIND_GPU, .error = 0.6, .loo_error = 0.7},
    };
    double v[4];
    assert_int_equal(validate_errors_of(l, 4, VKIND_WS, 0, v), 2);
    assert_true(v[0] == 0.1);
    assert_true(v[1] == 0.4);
    assert_int_equal(validate_errors_of(l, 4, VKIND_GPU, 1, v), 2);
    assert_true(isnan(v[0]));
    assert_true(v[1] == 0.7);
    assert_int_equal(validate_errors_of(l, 0, VKIND_GPU, 0, v), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_of),
        cmocka_unit_test(test_calibrate_entry),
        cmocka_unit_test(test_ws_calibrate_entry),
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_errors_of),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
