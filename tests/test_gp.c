/* test_gp.c - goodput arithmetic (src/tm/gp.h): Young/Daly's interval,
 * the expected wall time under failures and its limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>

#include "tm/gp.h"

/* Young 1974: tau = sqrt(2 delta M). */
static void young_interval(void **state)
{
    (void)state;
    assert_rel(gp_interval(37.5, 6120.25), sqrt(2 * 37.5 * 6120.25), 1e-12);
    assert_true(isinf(gp_interval(12.25, INFINITY)));
    assert_rel(gp_interval(0, 5000), 0, 0);
}

/* No failures: no checkpoints, no restarts, the failure-free time. */
static void no_failures(void **state)
{
    (void)state;
    struct gp_result g;
    gp_eval(86400 * 3.125, 0, 41.5, 618.0, &g);
    assert_true(g.finishes);
    assert_rel(g.goodput, 1, 0);
    assert_rel(g.wall_s, 86400 * 3.125, 0);
    assert_rel(g.interruptions, 0, 0);
    assert_true(isinf(g.mtbf_s));
    /* an MTBF of 0 means the part is not counted, not that it always fails */
    assert_rel(gp_rate(2048, 0), 0, 0);
    assert_rel(gp_rate(2048, 1.25e7), 2048 / 1.25e7, 1e-15);
}

/* The wall time solves W = T (1 + d / tau) + (W / M) ((tau + d) / 2 + R);
 * checked by putting W back into that equation, not by the closed form. */
static void wall_time(void **state)
{
    (void)state;
    double T = 4.6656e6, M = 6493.5, d = 2.83, R = 603.7;
    struct gp_result g;
    gp_eval(T, 1 / M, d, R, &g);
    assert_true(g.finishes);
    double tau = sqrt(2 * d * M);
    assert_rel(g.interval_s, tau, 1e-12);
    double rhs = T * (1 + d / tau) + g.wall_s / M * ((tau + d) / 2 + R);
    assert_rel(g.wall_s, rhs, 1e-12);
    assert_rel(g.interruptions, g.wall_s / M, 1e-12);
    assert_true(g.goodput > 0.8 && g.goodput < 0.95);
    /* more often failing, less goodput */
    struct gp_result worse;
    gp_eval(T, 2 / M, d, R, &worse);
    assert_true(worse.goodput < g.goodput);
}

/* A job whose MTBF is below its restart (or its checkpoint) never
 * finishes; just above that it does, slowly. */
static void no_finish(void **state)
{
    (void)state;
    struct gp_result g;
    gp_eval(1e6, 1 / 300.0, 50, 400, &g); /* restart alone exceeds the MTBF */
    assert_false(g.finishes);
    assert_rel(g.goodput, 0, 0);
    assert_true(isinf(g.wall_s));
    gp_eval(1e6, 1 / 100.0, 150, 0, &g); /* the checkpoint exceeds the MTBF */
    assert_false(g.finishes);
    gp_eval(1e6, 1 / 5000.0, 1, 100, &g);
    assert_true(g.finishes);
    assert_true(g.goodput > 0.9 && g.goodput < 1);
}

/* A checkpoint of no time is continuous: a failure costs the restart. */
static void free_checkpoint(void **state)
{
    (void)state;
    struct gp_result g;
    gp_eval(7.5e5, 1 / 2000.0, 0, 100, &g);
    assert_true(g.finishes);
    assert_rel(g.wall_s, 7.5e5 / (1 - 100 / 2000.0), 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(young_interval), cmocka_unit_test(no_failures),
        cmocka_unit_test(wall_time),      cmocka_unit_test(no_finish),
        cmocka_unit_test(free_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
