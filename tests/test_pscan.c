/* test_pscan.c - the planner's scan (src/plan/pscan.h) on a made-up kind
 * of cluster whose figures at each count are a table, against answers
 * worked out by hand from pscan.h's rules: the fewest count that meets the
 * limits, the fastest (of equal times the first), the count below, the
 * nearest when none meets, the least of each figure, the counts a cheap
 * test passes over, a count that does not run or is infeasible, NaN
 * figures, a cost without a price, and when a scan stops at its answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <string.h>

#include "plan/pscan.h"

/* A made-up job: at count n (1..TABLE), time t[n], energy e[n], cost c[n];
 * runs 0 where t[n] is 0, infeasible where bad[n]. */
#define TABLE 8
struct fake {
    double t[TABLE + 1], e[TABLE + 1], c[TABLE + 1];
    int bad[TABLE + 1];
};

static cp_status fake_eval(const void *job, double count, enum tm_scaling mode,
                           struct tm_result *r, void *detail, struct cp_error *err)
{
    (void)mode, (void)detail, (void)err;
    const struct fake *f = job;
    size_t n = (size_t)count;
    tm_result_init(r, count);
    if (f->t[n] == 0) {
        strcpy(r->why, "no run");
        tm_result_close(r);
        return CP_OK;
    }
    r->runs = 1;
    r->time_s = f->t[n];
    r->energy_J = f->e[n];
    r->cost = f->c[n];
    tm_verdict_add(r, "fits", !f->bad[n], 1);
    tm_result_close(r);
    return CP_OK;
}

static const struct tm_kind fake_kind = {.name = "fake", .eval = fake_eval};

/* f's counts 1..TABLE scanned whole for limits (time, energy, cost) and
 * goal. */
static void scan(struct fake *f, double tl, double el, double cl, enum pscan_goal goal,
                 struct pscan_result *res)
{
    struct tm_job j = {&fake_kind, f, 1};
    struct pscan_spec s = {
        .job = &j, .first = 1, .step = 1, .max = TABLE, .goal = goal, .whole = 1};
    s.limit[PLAN_TIME] = tl;
    s.limit[PLAN_ENERGY] = el;
    s.limit[PLAN_COST] = cl;
    struct cp_error err = {0};
    assert_ok(pscan_run(&s, res, &err), err);
}

/* Times that fall and then rise, with a plateau: 80 40 30 20 20 20 25 30. */
static void fill(struct fake *f)
{
    static const double t[] = {0, 80, 40, 30, 20, 20, 20, 25, 30};
    memset(f, 0, sizeof *f);
    for (size_t n = 1; n <= TABLE; n++) {
        f->t[n] = t[n];
        f->e[n] = t[n] * (double)n; /* energy grows with the count */
        f->c[n] = 10 * t[n] * (double)n;
    }
}

static void fewest_and_below(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    scan(&f, 30, 0, 0, PSCAN_FEWEST, &r);
    assert_true(r.found);
    assert_rel(r.count, 3, 0);
    assert_rel(r.r.time_s, 30, 0);
    assert_rel(r.below, 2, 0);
    assert_rel(r.rb.time_s, 40, 0);
    assert_true(r.complete);
    assert_rel(r.counts, 8, 0);
    /* the least of each figure over every count, the first of equals */
    assert_rel(r.least[PLAN_TIME], 20, 0);
    assert_rel(r.least_n[PLAN_TIME], 4, 0);
    assert_rel(r.least[PLAN_ENERGY], 80, 0);
    assert_rel(r.least_n[PLAN_ENERGY], 1, 0);
    /* the first count meets: nothing below */
    scan(&f, 100, 0, 0, PSCAN_FEWEST, &r);
    assert_rel(r.count, 1, 0);
    assert_rel(r.below, 0, 0);
}

static void fastest_first_of_equals(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    /* every cost is within 1e9: the fastest is 20, first at 4, not 6 */
    scan(&f, 0, 0, 1e9, PSCAN_FASTEST, &r);
    assert_true(r.found);
    assert_rel(r.count, 4, 0);
    assert_rel(r.below, 0, 0);
    /* a budget of 1000 (cost 10 t n: 800 800 900 800 1000 1200 ...): the
     * fastest within it is 20 at 4 (800); at 5, 1000, also meets, not
     * faster */
    scan(&f, 0, 0, 1000, PSCAN_FASTEST, &r);
    assert_rel(r.count, 4, 0);
    /* a budget of 850: 1, 2 and 4 meet; 4 is the fastest */
    scan(&f, 0, 0, 850, PSCAN_FASTEST, &r);
    assert_rel(r.count, 4, 0);
}

static void nearest_when_none_meets(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    /* time alone out of reach: the nearest is the fastest, first of equals */
    scan(&f, 10, 0, 0, PSCAN_FEWEST, &r);
    assert_false(r.found);
    assert_rel(r.count, 4, 0);
    assert_rel(r.r.time_s, 20, 0);
    assert_rel(r.below, 0, 0);
    /* time 20 and energy 70: ratios max(t/20, e/70) = 4, 2*, ...: at 1,
     * 80/20 = 4 and 80/70; at 2, 2 and 80/70 (1.14) -> 2; at 3, 1.5 and
     * 90/70 (1.29) -> 1.5; at 4, 1 and 80/70 -> 1.14 (the least) */
    scan(&f, 20, 70, 0, PSCAN_FEWEST, &r);
    assert_false(r.found);
    assert_rel(r.count, 4, 0);
}

static void infeasible_and_not_running(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    f.t[3] = 0;   /* does not run */
    f.bad[4] = 1; /* runs, infeasible */
    scan(&f, 20, 0, 0, PSCAN_FEWEST, &r);
    assert_rel(r.count, 5, 0);
    assert_rel(r.below, 2, 0); /* the last feasible count before it */
    assert_rel(r.runs, 7, 0);
    assert_rel(r.evaluated, 8, 0);
    assert_rel(r.least_n[PLAN_TIME], 5, 0);
}

static void nan_and_unpriced(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    f.t[4] = NAN;
    f.c[5] = -1; /* no price */
    scan(&f, 0, 0, 1e9, PSCAN_FASTEST, &r);
    assert_true(r.found);
    assert_rel(r.count, 6, 0); /* 4 is NaN, 5 has no cost */
    assert_true(pscan_meets((double[]){0, 0, 1e9}, &r.r));
    /* a NaN time first is no fastest answer that sticks */
    fill(&f);
    f.t[1] = NAN;
    scan(&f, 0, 0, 1e9, PSCAN_FASTEST, &r);
    assert_rel(r.count, 4, 0);
    fill(&f);
    f.t[4] = NAN;
    scan(&f, 20, 0, 0, PSCAN_FEWEST, &r);
    assert_rel(r.count, 5, 0);
    assert_rel(r.least_n[PLAN_TIME], 5, 0); /* NaN is no least */
}

static int only_even(void *user, double n)
{
    (void)user;
    return fmod(n, 2) == 0;
}

static void passed_over(void **state)
{
    (void)state;
    struct fake f;
    struct pscan_result r;
    fill(&f);
    struct tm_job j = {&fake_kind, &f, 1};
    struct pscan_spec s = {
        .job = &j, .first = 1, .step = 1, .max = TABLE, .goal = PSCAN_FEWEST, .may_run = only_even};
    s.limit[PLAN_TIME] = 30;
    struct cp_error err = {0};
    assert_ok(pscan_run(&s, &r, &err), err);
    assert_rel(r.count, 4, 0); /* 3 meets but is passed over */
    assert_rel(r.below, 2, 0);
    assert_rel(r.counts, 4, 0); /* stopped at the answer */
    assert_rel(r.evaluated, 2, 0);
    assert_false(r.complete);
}

/* A fewest scan stops at its answer unless asked for the whole range. */
static cp_status ramp_eval(const void *job, double count, enum tm_scaling mode,
                           struct tm_result *r, void *detail, struct cp_error *err)
{
    (void)job, (void)mode, (void)detail, (void)err;
    tm_result_init(r, count);
    r->runs = 1;
    r->time_s = 1e6 / count;
    tm_result_close(r);
    return CP_OK;
}

static void whole_or_stop(void **state)
{
    (void)state;
    static const struct tm_kind ramp = {.name = "ramp", .eval = ramp_eval};
    struct tm_job j = {&ramp, NULL, 1};
    struct pscan_result r;
    struct cp_error err = {0};
    for (int whole = 0; whole < 2; whole++) {
        struct pscan_spec s = {.job = &j, .first = 1, .step = 1, .max = 5000, .whole = whole};
        s.limit[PLAN_TIME] = 1e6 / 100;
        assert_ok(pscan_run(&s, &r, &err), err);
        assert_rel(r.count, 100, 0);
        assert_int_equal(r.complete, whole);
        assert_rel(r.counts, whole ? 5000 : 100, 0);
        /* the least time: over every count, or those scanned */
        assert_rel(r.least_n[PLAN_TIME], whole ? 5000 : 100, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fewest_and_below),
        cmocka_unit_test(fastest_first_of_equals),
        cmocka_unit_test(nearest_when_none_meets),
        cmocka_unit_test(infeasible_and_not_running),
        cmocka_unit_test(nan_and_unpriced),
        cmocka_unit_test(passed_over),
        cmocka_unit_test(whole_or_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
