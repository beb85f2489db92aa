/* test_check.c - the cross-check's room (src/check/check.h): the summary
 * of a grid's rows, the simulator's configuration settled by the analytic
 * model, and one point run both ways.  The rows of the summary are made
 * up here (high-entropy figures), so each assertion could fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "load.h"

#include <math.h>
#include <string.h>

#include "check/check.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Rows with these relative differences, all placed alike. */
static void rows_of(struct check_row *rows, const double *rel, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rows[i] = (struct check_row){.rel = rel[i], .placement_ok = 1, .p = &check_grid[i]};
}

static void test_summary_sorts_and_medians(void **state)
{
    (void)state;
    const double rel[] = {0.00113, -0.0312, 0.00271, -0.00047};
    struct check_row rows[NELEM(rel)];
    rows_of(rows, rel, NELEM(rel));
    struct check_summary sum;
    check_summarise(rows, NELEM(rows), &sum);
    /* worst |rel| first */
    assert_true(rows[0].rel == -0.0312);
    assert_true(rows[1].rel == 0.00271);
    assert_true(rows[3].rel == -0.00047);
    assert_true(rows[0].p == &check_grid[1]); /* a row moves whole */
    assert_true(sum.worst == 0.0312);
    assert_true(fabs(sum.median - (0.00271 + 0.00113) / 2) < 1e-15);
    assert_int_equal(sum.misplaced, 0);
    assert_false(sum.agree); /* 3.12 % > CHECK_MAX_TOL */
}

/* An odd count's median is its middle row; the verdict needs both the
 * largest and the median within their limits. */
static void test_summary_odd_count_and_verdict(void **state)
{
    (void)state;
    const double rel[] = {0.0041, -0.0019, 0.0173};
    struct check_row rows[NELEM(rel)];
    rows_of(rows, rel, NELEM(rel));
    struct check_summary sum;
    check_summarise(rows, NELEM(rows), &sum);
    assert_true(sum.worst == 0.0173);
    assert_true(sum.median == 0.0041);
    assert_true(sum.agree);
    const double wide[] = {0.0061, -0.0059, 0.0173};
    rows_of(rows, wide, NELEM(wide));
    check_summarise(rows, NELEM(rows), &sum);
    assert_true(sum.median == 0.0061);
    assert_false(sum.agree); /* the median over CHECK_MEDIAN_TOL */
}

static void test_summary_misplaced(void **state)
{
    (void)state;
    const double rel[] = {0.0003, -0.0002, 0.0001};
    struct check_row rows[NELEM(rel)];
    rows_of(rows, rel, NELEM(rel));
    struct check_summary sum;
    check_summarise(rows, NELEM(rows), &sum);
    assert_true(sum.agree);
    rows[2].placement_ok = 0;
    check_summarise(rows, NELEM(rows), &sum);
    assert_int_equal(sum.misplaced, 1);
    assert_false(sum.agree);
}

/* The grid names shipped descriptions and sane figures. */
static void test_grid(void **state)
{
    (void)state;
    assert_true(check_npoints >= 60);
    for (size_t i = 0; i < check_npoints; i++) {
        const struct check_point *p = &check_grid[i];
        assert_non_null(p->model);
        assert_true(strcmp(p->system, "cs2") == 0 || strcmp(p->system, "cs3") == 0);
        assert_true(p->systems >= 1 && p->sparsity >= 0 && p->sparsity < 1);
        assert_true(p->overlap >= 0 && p->overlap <= 1);
    }
}

/* The simulator gets the analytic model's servers and placement, and the
 * cluster's own figures. */
static void test_sim_config(void **state)
{
    (void)state;
    static struct wl_desc wl;
    static struct hw_desc hw;
    load_model("gpt3-xl", NULL, 0, &wl);
    load_hw("cs3", NULL, 0, &hw);
    struct cluster c;
    cluster_init(&c, &hw, &wl);
    c.systems = 13;
    c.sparsity = 0.35;
    c.global_seqs = 208;
    struct sim_config sc;
    struct step_result st;
    check_sim_config(&c, &sc, &st);
    assert_true(sc.hw == &hw && sc.wl == &wl);
    assert_true(sc.systems == 13 && sc.sparsity == 0.35 && sc.global_seqs == 208);
    assert_true(sc.overlap == c.overlap);
    assert_true(st.mx_servers >= 1 && sc.mx_servers == st.mx_servers);
    assert_true(sc.act == (st.act == ACT_OFFLOAD ? SIM_ACT_OFFLOAD
                           : st.act == ACT_WAFER ? SIM_ACT_WAFER
                                                 : SIM_ACT_RECOMPUTE));
    assert_true(sc.act_servers == (st.act == ACT_OFFLOAD ? st.act_servers : 0));
}

/* One grid point both ways: the two agree within the grid's limit, and
 * sizing it counts the events the run takes. */
static void test_point_run(void **state)
{
    (void)state;
    static struct wl_desc wl;
    static struct hw_desc hw;
    const struct check_point *p = &check_grid[11]; /* gpt3-xl on 16 x cs2 */
    assert_string_equal(p->model, "gpt3-xl");
    load_model(p->model, NULL, 0, &wl);
    load_hw(p->system, NULL, 0, &hw);
    struct cluster c;
    cluster_init(&c, &hw, &wl);
    c.systems = p->systems;
    double events = 7;
    struct cp_error err = {0};
    assert_int_equal(check_point_events(p, &c, &events, &err), CP_OK);
    struct check_row row;
    assert_int_equal(check_point_run(p, &c, "sized", &row, &err), CP_OK);
    assert_true(events - 7 == (double)row.events);
    assert_string_equal(row.tier, "sized");
    assert_true(row.analytic_s > 0 && row.sim_s > 0);
    assert_true(fabs(row.rel - (row.sim_s - row.analytic_s) / row.analytic_s) < 1e-15);
    assert_true(fabs(row.rel) <= CHECK_MAX_TOL);
    assert_true(row.placement_ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_sorts_and_medians),
        cmocka_unit_test(test_summary_odd_count_and_verdict),
        cmocka_unit_test(test_summary_misplaced),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_sim_config),
        cmocka_unit_test(test_point_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
