/* test_plan.c - the planner (src/plan/plan.h) against a brute-force scan.
 *
 * Every expected answer is found here by evaluating train_eval() at every
 * whole number of systems from 1 to N_max (N_max worked out from the rules
 * plan.h states), at the same batch and sparsity the plan uses, and taking
 * the smallest (deadline, energy) N that meets every target, or with a
 * budget alone the fastest (of equal times the smallest N).  The
 * planner's own helper plan_metric_of is not used to compute
 * expectations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/mx.h"
#include "model/train.h"
#include "plan/plan.h"
#include "desc/tfm.h"

/* ---- fixture: a shipped hw and model description and a cluster ---- */

struct fx {
    struct hw_desc h;
    struct wl_desc w;
    struct cluster c;
};

static struct fx *fx_new(const char *hw, const char *model, const char *const *hw_sets,
                         size_t n_hw_sets)
{
    struct fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    load_hw(hw, hw_sets, n_hw_sets, &f->h);
    load_model(model, NULL, 0, &f->w);
    cluster_init(&f->c, &f->h, &f->w);
    struct cp_error err = {0};
    assert_ok(cluster_check(&f->c, &err), err);
    return f;
}

/* As fx_new, with the MemoryX servers sized for each run (the command
 * line's default, cluster_init's too), so that large models are feasible. */
static struct fx *fx_fit(const char *hw, const char *model)
{
    struct fx *f = fx_new(hw, model, NULL, 0);
    assert_rel(f->c.mx_servers, 0, 0);
    assert_rel(f->c.act_servers, 0, 0);
    return f;
}

/* ---- the reference: train_eval at every N ---- */

/* base at n systems and sparsity sp; with allow_batch the batch is
 * max(base batch, n) sequences and the larger batch's tokens are charged
 * (plan.h: "the batch grows to N sequences once N passes it"). */
static void ref_eval(const struct cluster *base, int allow_batch, double n, double sp,
                     struct cluster *c, struct train_result *r)
{
    *c = *base;
    c->systems = n;
    c->sparsity = sp;
    if (allow_batch) {
        if (n > c->global_seqs)
            c->global_seqs = n;
        c->batch_penalty = 1;
    }
    struct cp_error err = {0};
    assert_ok(cluster_check(c, &err), err);
    train_eval(c, r);
}

static double ref_metric(const struct train_result *r, enum plan_metric m)
{
    if (m == PLAN_TIME)
        return r->time_s;
    if (m == PLAN_ENERGY)
        return r->energy_J;
    return r->cost;
}

/* feasible and within every limit given */
static int ref_ok(const struct plan_opts *po, const struct train_result *r)
{
    if (!r->feasible)
        return 0;
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (po->limit[m] > 0 && !(ref_metric(r, (enum plan_metric)m) <= po->limit[m]))
            return 0;
    return 1;
}

/* N_max by plan.h's rules: the smallest of system.max_systems, the batch
 * (without allow_batch) or the critical batch in sequences (with it). */
static double ref_nmax(const struct cluster *base, int allow_batch, enum plan_cap *cap)
{
    double n = base->hw->wse.max_systems;
    *cap = PLAN_CAP_GENERATION;
    if (!allow_batch) {
        if (base->global_seqs < n)
            n = base->global_seqs, *cap = PLAN_CAP_BATCH;
        return n;
    }
    struct train_result r;
    train_eval(base, &r);
    double crit = floor(r.critical_tokens / base->wl->seq_len);
    if (crit < base->global_seqs)
        crit = base->global_seqs;
    if (crit < n)
        n = crit, *cap = PLAN_CAP_CRITICAL;
    return n;
}

static enum plan_metric primary_of(const struct plan_opts *po)
{
    for (int m = 0; m < PLAN_NMETRICS; m++)
        if (po->limit[m] > 0)
            return (enum plan_metric)m;
    return PLAN_NMETRICS;
}

/* The brute-force answer at sparsity sp: the smallest N in 1..nmax that
 * meets every target (deadline or energy first), or the fastest (budget
 * first; of equal times the smallest N); 0 when none does. */
static double ref_pick(const struct cluster *base, const struct plan_opts *po, double sp,
                       double nmax)
{
    int fastest = primary_of(po) == PLAN_COST;
    double found = 0, found_s = 0;
    for (double n = 1; n <= nmax; n++) {
        struct cluster c;
        struct train_result r;
        ref_eval(base, po->allow_batch, n, sp, &c, &r);
        if (ref_ok(po, &r)) {
            if (!found || r.time_s < found_s)
                found = n, found_s = r.time_s;
            if (!fastest)
                break;
        }
    }
    return found;
}

/* metric m at every N in 1..nmax (index n - 1), at sparsity sp */
static double *ref_curve(const struct cluster *base, int allow_batch, double sp, double nmax,
                         enum plan_metric m)
{
    double *v = malloc((size_t)nmax * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < (size_t)nmax; i++) {
        struct cluster c;
        struct train_result r;
        ref_eval(base, allow_batch, (double)i + 1, sp, &c, &r);
        v[i] = r.feasible ? ref_metric(&r, m) : INFINITY;
    }
    return v;
}

/* index of the smallest value (the first one on ties) */
static size_t argmin(const double *v, size_t n)
{
    size_t b = 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] < v[b])
            b = i;
    return b;
}

static void solve(const struct cluster *base, const struct plan_opts *po, struct plan_result *res)
{
    struct cp_error err = {0};
    assert_ok(plan_solve(base, po, NULL, NULL, res, &err), err);
}

static int multiple_of_step(double s)
{
    double k = s / PLAN_SPARSITY_STEP;
    return fabs(k - round(k)) < 1e-6;
}

/* res's N - 1 and N + 1 are what they say, evaluated as the reference does. */
static void check_neighbours(const struct cluster *base, const struct plan_opts *po,
                             const struct plan_result *res, double nmax)
{
    double n = res->best.systems, sp = res->best.sparsity;
    struct cluster c;
    struct train_result r;
    ref_eval(base, po->allow_batch, n, sp, &c, &r);
    assert_rel(res->r.time_s, r.time_s, 1e-12);
    assert_rel(res->r.energy_J, r.energy_J, 1e-12);
    assert_rel(res->best.global_seqs, c.global_seqs, 0);
    assert_int_equal(res->has_below, n > 1);
    if (res->has_below) {
        assert_rel(res->below.systems, n - 1, 0);
        assert_rel(res->below.sparsity, sp, 0);
        ref_eval(base, po->allow_batch, n - 1, sp, &c, &r);
        assert_rel(res->rb.time_s, r.time_s, 1e-12);
        assert_rel(res->below.global_seqs, c.global_seqs, 0);
    }
    assert_int_equal(res->has_above, n < nmax);
    if (res->has_above) {
        assert_rel(res->above.systems, n + 1, 0);
        assert_rel(res->above.sparsity, sp, 0);
        ref_eval(base, po->allow_batch, n + 1, sp, &c, &r);
        assert_rel(res->ra.time_s, r.time_s, 1e-12);
        assert_rel(res->above.global_seqs, c.global_seqs, 0);
    }
}

/* Answers that differ from the brute force, counted over a test so that
 * one test reports every case it finds, then fails once. */
static int mismatches;

static void no_mismatches(const char *file, int line)
{
    int n = mismatches;
    mismatches = 0;
    if (n != 0) {
        print_error("%s:%d: %d plan(s) differ from the brute-force scan (listed above)\n", file,
                    line, n);
        _fail(file, line);
    }
}
#define assert_no_mismatches() no_mismatches(__FILE__, __LINE__)

/* cmocka setup: a test that stopped early leaves no count behind */
static int reset_mismatches(void **state)
{
    (void)state;
    mismatches = 0;
    return 0;
}

/* Plan po on base and compare with the brute force at base's sparsity:
 * same N when one meets every target, not reached when none does (a
 * difference is printed and counted in mismatches).  Whatever N is chosen
 * must meet every target when reached, with consistent runners-up.
 * Returns 1 if reached. */
static int check_plan(const char *what, const struct cluster *base, const struct plan_opts *po)
{
    struct plan_result res;
    enum plan_cap cap;
    double nmax = ref_nmax(base, po->allow_batch, &cap);
    solve(base, po, &res);
    assert_rel(res.max_systems, nmax, 0);
    assert_int_equal(res.cap, cap);
    assert_int_equal(res.primary, primary_of(po));
    double want = ref_pick(base, po, base->sparsity, nmax);
    int cost_first = primary_of(po) == PLAN_COST;
    if (want > 0 &&
        (!res.reached || res.best.systems != want || res.best.sparsity != base->sparsity)) {
        print_error("%s: %s on %s, limits %.17g s, %.17g J, %.17g%s: plan %g systems at "
                    "sparsity %g (reached %d), brute force %s N meeting every target %g\n",
                    what, base->wl->name, base->hw->wse.name, po->limit[PLAN_TIME],
                    po->limit[PLAN_ENERGY], po->limit[PLAN_COST],
                    po->allow_batch ? " (allow_batch)" : "", res.best.systems, res.best.sparsity,
                    res.reached, cost_first ? "fastest" : "smallest", want);
        mismatches++;
    } else if (want == 0 && res.reached && !po->allow_sparsity) {
        print_error("%s: %s on %s: plan says reached at %g systems, brute force finds none\n", what,
                    base->wl->name, base->hw->wse.name, res.best.systems);
        mismatches++;
    }
    if (res.reached) {
        assert_true(ref_ok(po, &res.r));
        assert_true(res.best.systems >= 1 && res.best.systems <= nmax);
        check_neighbours(base, po, &res, nmax);
    }
    if (want > 0 && res.reached && res.best.systems == want) {
        assert_int_equal(res.sparsity_raised, 0);
        /* minimal: the neighbour below misses; the fastest within a
         * budget: a neighbour that meets it is not faster, and the one
         * below is slower */
        if (!cost_first && res.has_below)
            assert_false(ref_ok(po, &res.rb));
        if (cost_first && res.has_above && ref_ok(po, &res.ra))
            assert_true(res.ra.time_s >= res.r.time_s);
        if (cost_first && res.has_below && ref_ok(po, &res.rb))
            assert_true(res.rb.time_s > res.r.time_s);
    }
    return res.reached;
}

static const struct {
    const char *hw, *model;
    int allow_batch;
} cases[] = {
    {"cs2", "gpt3-175b", 0},   {"cs3", "gpt3-xl", 0},    {"cs3", "llama2-70b", 0},
    {"cs2", "gpt3-xl", 0},     {"cs3", "gpt3-175b", 0},  {"cs3", "megatron-1t", 0},
    {"cs3", "megatron-1t", 1}, {"cs2", "llama2-70b", 1},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Limits spread geometrically over [lo, hi], both ends inside. */
#define NSPREAD 9
static void spread(double lo, double hi, double out[NSPREAD])
{
    for (int k = 0; k < NSPREAD; k++)
        out[k] = lo * pow(hi / lo, (k + 0.5) / NSPREAD);
}

/* ---- deadline ---- */

/* Deadlines over the reachable range, from the least time-to-train (near
 * N_max) to the time on one system, plus each N's own time exactly (the
 * limit is inclusive) at a few N, and one past the time on one system. */
static void test_deadline_minimal(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, cases[i].allow_batch, &cap);
        double *t = ref_curve(&f->c, cases[i].allow_batch, 0, nmax, PLAN_TIME);
        size_t best = argmin(t, (size_t)nmax);
        assert_true(isfinite(t[best]));
        double lim[NSPREAD + 6];
        size_t nl = 0;
        if (isfinite(t[0]) && t[0] > t[best]) {
            spread(t[best], t[0], lim);
            nl = NSPREAD;
            lim[nl++] = t[0] * 1.5;
        }
        lim[nl++] = t[best];
        lim[nl++] = t[best] * (1 + 1e-9);
        for (double frac = 0.2; frac < 0.9; frac += 0.3) {
            size_t k = (size_t)(frac * nmax);
            if (isfinite(t[k]))
                lim[nl++] = t[k];
        }
        for (size_t l = 0; l < nl; l++) {
            struct plan_opts po = {{0}, 0, cases[i].allow_batch};
            po.limit[PLAN_TIME] = lim[l];
            char what[64];
            snprintf(what, sizeof what, "deadline #%zu", l);
            check_plan(what, &f->c, &po);
        }
        /* one system meets a deadline past its time */
        if (isfinite(t[0])) {
            struct plan_opts po = {{0}, 0, cases[i].allow_batch};
            po.limit[PLAN_TIME] = t[0] * 2;
            struct plan_result res;
            solve(&f->c, &po, &res);
            assert_true(res.reached);
            assert_rel(res.best.systems, 1, 0);
            assert_int_equal(res.has_below, 0);
        }
        free(t);
        free(f);
    }
    assert_no_mismatches();
}

/* Every N's own time-to-train as the deadline (the limit is inclusive):
 * the time is a step function of N (whole sequences per system) that can
 * rise a little inside a step (SwarmX depth), so the smallest N meeting it
 * is not always at the end of a step. */
static void check_every_step(const char *what, const struct cluster *base, int allow_batch)
{
    enum plan_cap cap;
    double nmax = ref_nmax(base, allow_batch, &cap);
    double *t = ref_curve(base, allow_batch, base->sparsity, nmax, PLAN_TIME);
    for (size_t k = 0; k < (size_t)nmax; k++) {
        if (!isfinite(t[k]))
            continue;
        struct plan_opts po = {{t[k], 0, 0}, 0, allow_batch};
        check_plan(what, base, &po);
    }
    free(t);
}

static void test_deadline_every_step(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        check_every_step("deadline at an N's time", &f->c, cases[i].allow_batch);
        free(f);
    }
    /* a small batch that grows with N, capped by the critical batch */
    const char *sets[] = {"batch.critical_tokens=2e6"};
    struct fx *f = fx_new("cs2", "gpt3-175b", sets, 1);
    f->c.global_seqs = 32;
    check_every_step("deadline at an N's time, batch 32 growing", &f->c, 1);
    free(f);
    assert_no_mismatches();
}

/* The headline: GPT-3 175B on CS-2 in 30 days. */
static void test_deadline_30d_gpt3(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{30 * 86400.0, 0, 0}, 0, 0};
    assert_true(check_plan("30 d", &f->c, &po));
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_true(res.r.time_s <= 30 * 86400.0);
    assert_true(res.rb.time_s > 30 * 86400.0);
    assert_rel(res.max_systems, 192, 0); /* the CS-2 maximum (cerebras-plan(1)) */
    assert_int_equal(res.cap, PLAN_CAP_GENERATION);
    /* the systems field of base is ignored */
    struct cluster b = f->c;
    b.systems = 37;
    struct plan_result res2;
    solve(&b, &po, &res2);
    assert_rel(res2.best.systems, res.best.systems, 0);
    free(f);
    assert_no_mismatches();
}

/* ---- energy ---- */

static void test_energy_minimal(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, cases[i].allow_batch, &cap);
        double *e = ref_curve(&f->c, cases[i].allow_batch, 0, nmax, PLAN_ENERGY);
        size_t best = argmin(e, (size_t)nmax);
        assert_true(isfinite(e[best]));
        double lim[NSPREAD + 6];
        size_t nl = 0;
        if (isfinite(e[0]) && e[0] > e[best]) {
            spread(e[best], e[0], lim);
            nl = NSPREAD;
        }
        lim[nl++] = e[best];
        lim[nl++] = e[best] * (1 + 1e-6);
        lim[nl++] = e[best] * 1.01;
        for (double frac = 0.25; frac < 0.9; frac += 0.25) {
            size_t k = (size_t)(frac * nmax);
            if (isfinite(e[k]))
                lim[nl++] = e[k];
        }
        for (size_t l = 0; l < nl; l++) {
            struct plan_opts po = {{0}, 0, cases[i].allow_batch};
            po.limit[PLAN_ENERGY] = lim[l];
            char what[64];
            snprintf(what, sizeof what, "energy #%zu", l);
            check_plan(what, &f->c, &po);
        }
        /* below the least energy: not reached */
        struct plan_opts po = {{0}, 0, cases[i].allow_batch};
        po.limit[PLAN_ENERGY] = e[best] * 0.99;
        struct plan_result res;
        solve(&f->c, &po, &res);
        assert_false(res.reached);
        assert_true(strlen(res.why) > 0);
        free(e);
        free(f);
    }
    assert_no_mismatches();
}

/* ---- budget ---- */

static void test_budget_maximal(void **state)
{
    (void)state;
    const double prices[] = {100, 3.5};
    for (size_t i = 0; i < NCASES; i++) {
        for (size_t p = 0; p < 2; p++) {
            struct fx *f = fx_fit(cases[i].hw, cases[i].model);
            f->c.price = prices[p];
            enum plan_cap cap;
            double nmax = ref_nmax(&f->c, cases[i].allow_batch, &cap);
            double *c = ref_curve(&f->c, cases[i].allow_batch, 0, nmax, PLAN_COST);
            size_t best = argmin(c, (size_t)nmax);
            assert_true(isfinite(c[best]) && c[best] > 0);
            double top = c[(size_t)nmax - 1];
            double lim[NSPREAD + 6];
            size_t nl = 0;
            if (isfinite(top) && top > c[best]) {
                spread(c[best], top, lim);
                nl = NSPREAD;
                lim[nl++] = top;
                lim[nl++] = top * 1.2;
            }
            lim[nl++] = c[best];
            for (double frac = 0.25; frac < 0.9; frac += 0.25) {
                size_t k = (size_t)(frac * nmax);
                if (isfinite(c[k]))
                    lim[nl++] = c[k];
            }
            for (size_t l = 0; l < nl; l++) {
                struct plan_opts po = {{0}, 0, cases[i].allow_batch};
                po.limit[PLAN_COST] = lim[l];
                char what[64];
                snprintf(what, sizeof what, "budget #%zu at price %g", l, prices[p]);
                check_plan(what, &f->c, &po);
            }
            /* a budget below the least cost: not reached, why names the cost */
            struct plan_opts po = {{0}, 0, cases[i].allow_batch};
            po.limit[PLAN_COST] = c[best] * 0.9;
            struct plan_result res;
            solve(&f->c, &po, &res);
            assert_false(res.reached);
            assert_non_null(strstr(res.why, "cost"));
            free(c);
            free(f);
        }
    }
    assert_no_mismatches();
}

/* Energy at no price and a rental price of zero cost nothing: the whole
 * range is affordable. */
static void test_budget_free(void **state)
{
    (void)state;
    const char *free_energy[] = {"cost.energy_price=0"};
    struct fx *f = fx_new("cs2", "gpt3-175b", free_energy, 1);
    f->c.price = 0;
    struct plan_opts po = {{0, 0, 1}, 0, 0};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_true(res.reached);
    assert_rel(res.best.systems, f->h.wse.max_systems, 0);
    free(f);
}

/* ---- several targets at once ---- */

static void test_combined_targets(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        f->c.price = 10;
        int ab = cases[i].allow_batch;
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, ab, &cap);
        double *t = ref_curve(&f->c, ab, 0, nmax, PLAN_TIME);
        double *e = ref_curve(&f->c, ab, 0, nmax, PLAN_ENERGY);
        double *c = ref_curve(&f->c, ab, 0, nmax, PLAN_COST);
        const double fr[] = {0.1, 0.3, 0.5, 0.8};
        for (size_t a = 0; a < 4; a++) {
            for (size_t b = 0; b < 4; b++) {
                size_t ka = (size_t)(fr[a] * (nmax - 1)), kb = (size_t)(fr[b] * (nmax - 1));
                if (!isfinite(t[ka]) || !isfinite(e[kb]) || !isfinite(c[kb]))
                    continue;
                /* deadline first, energy checked */
                struct plan_opts po = {{t[ka], e[kb], 0}, 0, ab};
                check_plan("deadline + energy", &f->c, &po);
                /* deadline first, budget checked */
                struct plan_opts pb = {{t[ka], 0, c[kb]}, 0, ab};
                check_plan("deadline + budget", &f->c, &pb);
                /* budget first, deadline checked */
                struct plan_opts pc = {{t[kb] * 1.0001, 0, c[ka]}, 0, ab};
                check_plan("budget + deadline", &f->c, &pc);
                /* energy first, budget checked */
                struct plan_opts pd = {{0, e[ka], c[kb]}, 0, ab};
                check_plan("energy + budget", &f->c, &pd);
            }
        }
        free(t);
        free(e);
        free(c);
        free(f);
    }
    assert_no_mismatches();
}

/* ---- unreachable ---- */

static void test_unreachable(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    enum plan_cap cap;
    double nmax = ref_nmax(&f->c, 0, &cap);
    double *t = ref_curve(&f->c, 0, 0, nmax, PLAN_TIME);
    size_t best = argmin(t, (size_t)nmax);
    const double fracs[] = {0.999, 0.5, 0.01};
    for (size_t i = 0; i < 3; i++) {
        struct plan_opts po = {{t[best] * fracs[i], 0, 0}, 0, 0};
        struct plan_result res;
        solve(&f->c, &po, &res);
        assert_false(res.reached);
        assert_int_equal(res.sparsity_raised, 0);
        assert_rel(res.best.sparsity, 0, 0);
        /* the best achievable: the least time-to-train there is */
        assert_rel(res.r.time_s, t[best], 1e-12);
        assert_true(res.r.time_s > po.limit[PLAN_TIME]);
        /* why names the generation's maximum and its value */
        assert_non_null(strstr(res.why, "max_systems"));
        char n[32];
        snprintf(n, sizeof n, "%g systems", f->h.wse.max_systems);
        assert_non_null(strstr(res.why, n));
        /* --allow-sparsity is suggested exactly when it reaches the
         * target (sparsity at equal quality, desc/loss.h) */
        int hint = strstr(res.why, "; --allow-sparsity may reach it") != NULL;
        assert_true(hint || strstr(res.why, "no sparsity reaches it at equal quality"));
        po.allow_sparsity = 1;
        solve(&f->c, &po, &res);
        assert_int_equal(res.reached, hint);
    }
    free(t);
    free(f);
}

/* A target below the least of its metric over 1..N_max: not reached, and
 * the best achievable (which why states as "the least ... over 1..N") is
 * that least value, found by the brute force. */
static void check_best_is_least(enum plan_metric m)
{
    static const char *const word[] = {"least time-to-train", "least energy", "least cost"};
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        f->c.price = 10;
        int ab = cases[i].allow_batch;
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, ab, &cap);
        double *v = ref_curve(&f->c, ab, 0, nmax, m);
        size_t best = argmin(v, (size_t)nmax);
        struct plan_opts po = {{0}, 0, ab};
        po.limit[m] = v[best] * 0.9;
        struct plan_result res;
        solve(&f->c, &po, &res);
        assert_false(res.reached);
        assert_non_null(strstr(res.why, word[m]));
        double got = ref_metric(&res.r, m);
        if (!(got <= v[best] * (1 + 1e-12))) {
            print_error("%s on %s: best achievable %s %.17g at %g systems, but %.17g at %zu; "
                        "why: %s\n",
                        cases[i].model, cases[i].hw, plan_metric_name[m], got, res.best.systems,
                        v[best], best + 1, res.why);
            mismatches++;
        }
        free(v);
        free(f);
    }
    assert_no_mismatches();
}

static void test_unreachable_time_best_is_least(void **state)
{
    (void)state;
    check_best_is_least(PLAN_TIME);
}

static void test_unreachable_energy_best_is_least(void **state)
{
    (void)state;
    check_best_is_least(PLAN_ENERGY);
}

static void test_unreachable_cost_best_is_least(void **state)
{
    (void)state;
    check_best_is_least(PLAN_COST);
}

/* ---- sparsity ---- */

/* Check a plan that raised the sparsity: a multiple of the step, meets at
 * N, one step less misses at N (and at every N), N the least at it. */
static void check_sparse(const struct fx *f, const struct plan_opts *po,
                         const struct plan_result *res, int across)
{
    enum plan_cap cap;
    double nmax = ref_nmax(&f->c, po->allow_batch, &cap);
    double s = res->best.sparsity, n = res->best.systems;
    assert_true(res->reached);
    assert_true(res->sparsity_raised);
    assert_true(s > f->c.sparsity && s <= CLUSTER_MAX_SPARSITY);
    assert_true(multiple_of_step(s));
    struct cluster c;
    struct train_result r;
    ref_eval(&f->c, po->allow_batch, n, s, &c, &r);
    assert_true(ref_ok(po, &r));
    ref_eval(&f->c, po->allow_batch, n, s - PLAN_SPARSITY_STEP, &c, &r);
    if (ref_ok(po, &r)) {
        print_error("sparsity %g: %g - step already meets the limit at %g systems (%.17g s)\n", s,
                    s, n, r.time_s);
        fail();
    }
    /* across: the least sparsity that makes the target reachable at any N
     * (cerebras-plan plan --help), not only at the N plan.h searches it at */
    double lower = across ? ref_pick(&f->c, po, s - PLAN_SPARSITY_STEP, nmax) : 0;
    if (lower != 0) {
        print_error("%s on %s, limits %.17g s, %.17g J: plan sparsity %g at %g systems, but %g "
                    "systems already meet the limits at sparsity %g\n",
                    f->w.name, f->h.wse.name, po->limit[PLAN_TIME], po->limit[PLAN_ENERGY], s, n,
                    lower, s - PLAN_SPARSITY_STEP);
        mismatches++;
    }
    /* and N the smallest at that sparsity */
    double want = ref_pick(&f->c, po, s, nmax);
    if (want != n) {
        print_error("%s on %s, limits %.17g s, %.17g J, at sparsity %g: plan %g systems, brute "
                    "force smallest %g\n",
                    f->w.name, f->h.wse.name, po->limit[PLAN_TIME], po->limit[PLAN_ENERGY], s, n,
                    want);
        mismatches++;
    }
    check_neighbours(&f->c, po, res, nmax);
}

/* As check_sparse when reached; when not, no N meets the targets at any
 * sparsity of a grid of 0.05 up to 0.95 and at 0.99 (brute force: at
 * equal quality the metric falls and then rises with the sparsity), and
 * why says so. */
static void check_sparse_or_none(const struct fx *f, const struct plan_opts *po,
                                 const struct plan_result *res, int across)
{
    if (res->reached) {
        check_sparse(f, po, res, across);
        return;
    }
    enum plan_cap cap;
    double nmax = ref_nmax(&f->c, po->allow_batch, &cap);
    for (int k = 0; k <= 20; k++) {
        double sp = k < 20 ? k * 0.05 : CLUSTER_MAX_SPARSITY;
        double n = sp >= f->c.sparsity ? ref_pick(&f->c, po, sp, nmax) : 0;
        if (n != 0) {
            print_error("%s on %s, limits %.17g s, %.17g J: plan not reached (%s), but %g "
                        "systems meet them at sparsity %g\n",
                        f->w.name, f->h.wse.name, po->limit[PLAN_TIME], po->limit[PLAN_ENERGY],
                        res->why, n, sp);
            mismatches++;
        }
    }
    assert_non_null(strstr(res->why, "no sparsity meets it"));
}

/* Deadlines below the least dense time-to-train, on CS-2 and CS-3. */
static void sparse_deadlines(int across)
{
    const struct {
        const char *hw, *model;
    } cs[] = {{"cs2", "gpt3-175b"}, {"cs3", "gpt3-xl"}, {"cs3", "llama2-70b"}};
    const double fracs[] = {0.99, 0.7, 0.3, 0.1};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        struct fx *f = fx_new(cs[i].hw, cs[i].model, NULL, 0);
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, 0, &cap);
        double *t = ref_curve(&f->c, 0, 0, nmax, PLAN_TIME);
        size_t best = argmin(t, (size_t)nmax);
        for (size_t k = 0; k < sizeof fracs / sizeof fracs[0]; k++) {
            struct plan_opts p = {{t[best] * fracs[k], 0, 0}, 1, 0};
            struct plan_result res;
            solve(&f->c, &p, &res);
            check_sparse_or_none(f, &p, &res, across);
        }
        free(t);
        free(f);
    }
}

/* Energy targets below the least dense energy on hw/model. */
static void sparse_energy(const char *hw, const char *model, int across)
{
    const double fracs[] = {0.9, 0.5};
    struct fx *f = fx_new(hw, model, NULL, 0);
    enum plan_cap cap;
    double nmax = ref_nmax(&f->c, 0, &cap);
    double *e = ref_curve(&f->c, 0, 0, nmax, PLAN_ENERGY);
    size_t best = argmin(e, (size_t)nmax);
    for (size_t k = 0; k < sizeof fracs / sizeof fracs[0]; k++) {
        struct plan_opts p = {{0, e[best] * fracs[k], 0}, 1, 0};
        struct plan_result res;
        struct cp_error err = {0};
        cp_status st = plan_solve(&f->c, &p, NULL, NULL, &res, &err);
        if (st != CP_OK) {
            print_error("%s on %s, energy limit %.17g J with sparsity allowed: status %d: %s\n",
                        f->w.name, f->h.wse.name, p.limit[PLAN_ENERGY], st, err.msg);
            mismatches++;
            continue;
        }
        check_sparse_or_none(f, &p, &res, across);
    }
    free(e);
    free(f);
}

static void test_sparsity_raised(void **state)
{
    (void)state;
    /* GPT-3 in 8 d on CS-2: the whole generation, sparse (dense it takes
     * 12.8 d; at equal quality a day is out of reach at any sparsity) */
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{8 * 86400.0, 0, 0}, 1, 0};
    struct plan_result res;
    solve(&f->c, &po, &res);
    check_sparse(f, &po, &res, 1);
    assert_rel(res.best.systems, f->h.wse.max_systems, 0);
    assert_true(res.best.sparsity > 0 && res.best.sparsity < 0.99);
    /* without --allow-sparsity the same deadline is out of reach */
    po.allow_sparsity = 0;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    free(f);
    /* a multiple of the step that meets at N where one step less does not,
     * and N the smallest at it */
    sparse_deadlines(0);
    assert_no_mismatches();
}

/* The same for energy targets; the search must not fail once the sparsity
 * is raised. */
static void test_sparsity_raised_energy(void **state)
{
    (void)state;
    sparse_energy("cs2", "gpt3-175b", 0);
    sparse_energy("cs3", "gpt3-xl", 0);
    sparse_energy("cs3", "llama2-70b", 0);
    assert_no_mismatches();
}

/* The raised sparsity is the least that reaches the target at any N in
 * 1..N_max (the help: "the least sparsity that makes the target reachable"),
 * not only at the N where plan.h's search takes it. */
static void test_sparsity_least_over_all_n(void **state)
{
    (void)state;
    sparse_deadlines(1);
    sparse_energy("cs2", "gpt3-175b", 1);
    assert_no_mismatches();
}

/* A reachable target leaves the sparsity alone even when it may be raised. */
static void test_sparsity_not_raised_when_reachable(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{30 * 86400.0, 0, 0}, 1, 0};
    assert_true(check_plan("30 d with sparsity allowed", &f->c, &po));
    /* a base sparsity is kept, and raised from, not from zero */
    f->c.sparsity = 0.5;
    assert_true(check_plan("30 d at sparsity 0.5", &f->c, &po));
    enum plan_cap cap;
    double nmax = ref_nmax(&f->c, 0, &cap);
    double *t = ref_curve(&f->c, 0, 0.5, nmax, PLAN_TIME);
    size_t best = argmin(t, (size_t)nmax);
    /* 0.8: at equal quality the sparsity cannot halve the time from 0.5 */
    po.limit[PLAN_TIME] = t[best] * 0.8;
    struct plan_result res;
    solve(&f->c, &po, &res);
    check_sparse(f, &po, &res, 1);
    free(t);
    free(f);
    assert_no_mismatches();
}

static void test_sparsity_not_enough(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{1, 0, 0}, 1, 0}; /* one second */
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    assert_int_equal(res.sparsity_raised, 0);
    assert_true(res.r.time_s > 1);
    assert_non_null(strstr(res.why, "no sparsity meets it"));
    /* the best achievable is at the sparsity where time at equal quality
     * is least: below the dense time and the largest sparsity's, and not
     * above its neighbours' a hundredth away */
    double s = res.best.sparsity, n = res.best.systems;
    assert_true(s > 0 && s < CLUSTER_MAX_SPARSITY && multiple_of_step(s));
    struct cluster c;
    struct train_result r;
    const double at[] = {0, s - 0.01, s + 0.01, CLUSTER_MAX_SPARSITY};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        ref_eval(&f->c, 0, n, at[i], &c, &r);
        assert_true(r.time_s >= res.r.time_s);
    }
    free(f);
}

/* ---- N_max ---- */

static void test_nmax_generation_and_batch(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{30 * 86400.0, 0, 0}, 0, 0};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_rel(res.max_systems, 192, 0);
    assert_rel(res.max_systems, f->h.wse.max_systems, 0);
    assert_int_equal(res.cap, PLAN_CAP_GENERATION);

    /* a batch of 64 sequences: at most 64 systems */
    f->c.global_seqs = 64;
    solve(&f->c, &po, &res);
    assert_rel(res.max_systems, 64, 0);
    assert_int_equal(res.cap, PLAN_CAP_BATCH);
    check_plan("batch 64", &f->c, &po);
    enum plan_cap cap;
    double *t = ref_curve(&f->c, 0, 0, 64, PLAN_TIME);
    size_t best = argmin(t, 64);
    po.limit[PLAN_TIME] = t[best] * 0.8;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    assert_true(res.best.systems <= 64);
    assert_non_null(strstr(res.why, "--allow-batch"));
    assert_non_null(strstr(res.why, "64 systems"));
    free(t);

    /* with allow_batch: the generation caps, and the batch grows past 64 */
    po.allow_batch = 1;
    double nmax = ref_nmax(&f->c, 1, &cap);
    assert_rel(nmax, 192, 0);
    t = ref_curve(&f->c, 1, 0, nmax, PLAN_TIME);
    best = argmin(t, (size_t)nmax);
    assert_true(best + 1 > 64);
    for (size_t k = 80; k < (size_t)nmax; k += 37) {
        po.limit[PLAN_TIME] = t[k];
        assert_true(check_plan("batch 64, allow_batch", &f->c, &po));
        solve(&f->c, &po, &res);
        assert_int_equal(res.cap, PLAN_CAP_GENERATION);
        assert_rel(res.max_systems, 192, 0);
        assert_true(res.best.systems > 64);
        assert_rel(res.best.global_seqs, res.best.systems, 0);
        assert_int_equal(res.best.batch_penalty, 1);
    }
    free(t);
    free(f);
    assert_no_mismatches();
}

/* The critical batch caps N_max with allow_batch when it is the smallest. */
static void test_nmax_critical(void **state)
{
    (void)state;
    const char *sets[] = {"batch.critical_tokens=2e6"};
    struct fx *f = fx_new("cs2", "gpt3-175b", sets, 1);
    f->c.global_seqs = 32;
    struct train_result r;
    train_eval(&f->c, &r);
    double crit = floor(r.critical_tokens / f->w.seq_len);
    assert_true(crit > 32 && crit < 192); /* the setting does what is meant */
    struct plan_opts po = {{30 * 86400.0, 0, 0}, 0, 1};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_rel(res.max_systems, crit, 0);
    assert_int_equal(res.cap, PLAN_CAP_CRITICAL);
    double *t = ref_curve(&f->c, 1, 0, crit, PLAN_TIME);
    size_t best = argmin(t, (size_t)crit);
    /* a little past each N's time (exact times: test_deadline_every_step) */
    for (size_t k = 0; k < (size_t)crit; k += 7) {
        po.limit[PLAN_TIME] = t[k] * 1.001;
        assert_true(check_plan("critical cap", &f->c, &po));
    }
    po.limit[PLAN_TIME] = t[best] * 0.9;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    assert_non_null(strstr(res.why, "critical"));
    free(t);
    free(f);
    assert_no_mismatches();
}

/* ---- infeasible ---- */

static void test_infeasible_model(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs3", "120t", NULL, 0);
    double state_bytes = tfm_params(&f->w) * mx_bytes_per_param(&f->w);
    double hold = mx_servers_to_hold(&f->h.mx, state_bytes);
    /* the premise: fewer MemoryX servers than hold 120T's state, as given */
    f->c.mx_servers = floor(hold * 0.5617);
    struct train_result r;
    train_eval(&f->c, &r);
    assert_false(r.feasible);
    assert_true(r.warnings & TW_MEMORYX);
    struct plan_opts po = {{365 * 86400.0 * 1000, 0, 0}, 1, 1};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    assert_non_null(strstr(res.why, "infeasible at any cluster size: memoryx_full"));
    assert_false(res.r.feasible);
    /* the plan keeps the servers given, and names them with the numbers */
    assert_rel(res.best.mx_servers, f->c.mx_servers, 0);
    assert_rel(res.r.step.mx_servers, f->c.mx_servers, 0);
    char a[64], b[64];
    snprintf(a, sizeof a, "room of %g MemoryX servers, %s", f->c.mx_servers,
             unit_format(mx_capacity(&f->h.mx, f->c.mx_servers), UNIT_BYTES, b, sizeof b));
    assert_non_null(strstr(res.why, a));
    snprintf(a, sizeof a, "the state, %s", unit_format(state_bytes, UNIT_BYTES, b, sizeof b));
    assert_non_null(strstr(res.why, a));
    snprintf(a, sizeof a, "%g servers hold it", hold);
    assert_non_null(strstr(res.why, a));
    assert_rel(res.least_n[PLAN_TIME], 0, 0); /* no N is feasible: nothing nearest */
    /* with a budget and an energy target alike */
    f->c.price = 1;
    struct plan_opts pb = {{0, 0, 1e30}, 0, 0};
    solve(&f->c, &pb, &res);
    assert_false(res.reached);
    assert_non_null(strstr(res.why, "memoryx_full"));
    struct plan_opts pe = {{0, 1e30, 0}, 0, 0};
    solve(&f->c, &pe, &res);
    assert_false(res.reached);
    assert_non_null(strstr(res.why, "memoryx_full"));
    /* as many servers as hold it: feasible, and the plan keeps that count */
    f->c.mx_servers = hold;
    f->c.tokens = 300e9;
    po.limit[PLAN_TIME] = 2 * 365 * 86400.0;
    assert_true(check_plan("120T on the servers that hold it", &f->c, &po));
    solve(&f->c, &po, &res);
    assert_rel(res.r.step.mx_servers, hold, 0);
    free(f);
    assert_no_mismatches();
}

/* Activation servers given too few for one sequence's checkpoints (one of
 * 183 GiB for 120T's 417 GB), with the activations offloaded: infeasible
 * at any size, with the numbers. */
static void test_infeasible_act_store(void **state)
{
    (void)state;
    const char *small[] = {"activation.server_memory=183 GiB"};
    struct fx *f = fx_new("cs3", "120t", small, 1);
    f->c.act = ACT_OFFLOAD;
    f->c.act_servers = 1;
    f->c.tokens = 300e9;
    struct train_result r;
    train_eval(&f->c, &r);
    assert_true(r.warnings & TW_ACT_STORE); /* the premise */
    struct plan_opts po = {{2 * 365 * 86400.0, 0, 0}, 0, 0};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_false(res.reached);
    assert_non_null(strstr(res.why, "infeasible at any cluster size: act_store_full"));
    char a[96], b[32];
    snprintf(a, sizeof a, "checkpoints, %s, exceed the room of 1 activation server per system",
             unit_format(r.step.ckpt_per_seq, UNIT_BYTES, b, sizeof b));
    assert_non_null(strstr(res.why, a));
    snprintf(a, sizeof a, "%g servers hold them",
             ceil(r.step.ckpt_per_seq / f->h.act.server_bytes));
    assert_non_null(strstr(res.why, a));
    /* with enough of them the plan keeps the count given */
    f->c.act_servers = 61;
    solve(&f->c, &po, &res);
    assert_true(res.r.feasible);
    assert_rel(res.r.step.act_servers, 61, 0);
    free(f);
}

/* ---- the nearest reachable limit ---- */

/* least[] and least_n[] are the least of each metric over the feasible N
 * of the brute force, where it first falls; met when given as the limit. */
static void test_least(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        f->c.price = 7.25;
        int ab = cases[i].allow_batch;
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, ab, &cap);
        for (int m = 0; m < PLAN_NMETRICS; m++) {
            double *v = ref_curve(&f->c, ab, 0, nmax, (enum plan_metric)m);
            size_t best = argmin(v, (size_t)nmax);
            /* a limit out of reach, and one within */
            const double fr[] = {0.5, 3};
            for (size_t k = 0; k < 2; k++) {
                struct plan_opts po = {{0}, 0, ab};
                po.limit[m] = v[best] * fr[k];
                struct plan_result res;
                solve(&f->c, &po, &res);
                for (int q = 0; q < PLAN_NMETRICS; q++) {
                    double *w = q == m ? v : ref_curve(&f->c, ab, 0, nmax, (enum plan_metric)q);
                    size_t bq = argmin(w, (size_t)nmax);
                    assert_rel(res.least[q], w[bq], 1e-12);
                    assert_rel(res.least_n[q], (double)bq + 1, 0);
                    if (w != v)
                        free(w);
                }
                assert_int_equal(res.reached, fr[k] > 1);
                if (res.reached)
                    continue;
                /* the best achievable is where the least falls, and the
                 * least as the limit is met there */
                assert_rel(res.best.systems, res.least_n[m], 0);
                po.limit[m] = res.least[m];
                solve(&f->c, &po, &res);
                assert_true(res.reached);
                assert_true(plan_metric_of(&res.r, (enum plan_metric)m) <= po.limit[m]);
            }
            free(v);
        }
        free(f);
    }
    /* no price (neither --price nor the [cost] keys): the cost has no least */
    const char *unpriced[] = {"cost.system_price=0", "cost.memoryx_price=0",
                              "cost.activation_price=0", "cost.swarmx_price=0",
                              "cost.energy_price=0"};
    struct fx *f = fx_new("cs2", "gpt3-175b", unpriced, 5);
    struct plan_opts po = {{30 * 86400.0, 0, 0}, 0, 0};
    struct plan_result res;
    solve(&f->c, &po, &res);
    assert_rel(res.least_n[PLAN_COST], 0, 0);
    assert_true(res.least_n[PLAN_TIME] >= 1);
    free(f);
}

/* ---- input errors ---- */

static void test_input_errors(void **state)
{
    (void)state;
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_result res;
    struct cp_error err = {0};
    struct plan_opts none = {{0, 0, 0}, 1, 1};
    assert_int_equal(plan_solve(&f->c, &none, NULL, NULL, &res, &err), CP_EINPUT);
    assert_true(strlen(err.msg) > 0);
    struct plan_opts neg = {{-5, -1, 0}, 0, 0};
    memset(&err, 0, sizeof err);
    assert_int_equal(plan_solve(&f->c, &neg, NULL, NULL, &res, &err), CP_EINPUT);
    assert_true(strlen(err.msg) > 0);
    /* a budget with nothing priced (no --price, no [cost] prices), as the
     * only target or not */
    const char *unpriced_in[] = {"cost.system_price=0", "cost.memoryx_price=0",
                                 "cost.activation_price=0", "cost.swarmx_price=0",
                                 "cost.energy_price=0"};
    load_hw("cs2", unpriced_in, 5, &f->h);
    assert_true(f->c.price < 0);
    struct plan_opts b = {{0, 0, 1e6}, 0, 0};
    memset(&err, 0, sizeof err);
    assert_int_equal(plan_solve(&f->c, &b, NULL, NULL, &res, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "price"));
    struct plan_opts bd = {{30 * 86400.0, 0, 1e6}, 0, 0};
    memset(&err, 0, sizeof err);
    assert_int_equal(plan_solve(&f->c, &bd, NULL, NULL, &res, &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "price"));
    free(f);
}

/* ---- trace ---- */

struct tr {
    const struct cluster *base;
    int allow_batch;
    int calls, bad_bracket, bad_stage, bad_value;
    char last_stage[16];
    int last_iter;
};

static void on_iter(const struct plan_iter *it, void *user)
{
    struct tr *t = user;
    t->calls++;
    if (!(it->lo <= it->x && it->x <= it->hi))
        t->bad_bracket++;
    int sys = strcmp(it->stage, "scan") == 0;
    if (!sys && strcmp(it->stage, "sparsity") != 0)
        t->bad_stage++;
    /* iterations of one stage count 1, 2, ... */
    if (strcmp(it->stage, t->last_stage) == 0 ? it->iter <= t->last_iter && it->iter != 1
                                              : it->iter != 1)
        t->bad_stage++;
    snprintf(t->last_stage, sizeof t->last_stage, "%s", it->stage);
    t->last_iter = it->iter;
    /* a whole number of systems, with the metric there (at base sparsity:
     * the cases traced do not raise it) */
    if (sys) {
        if (it->x != floor(it->x) || it->x < 1)
            t->bad_value++;
        struct cluster c;
        struct train_result r;
        ref_eval(t->base, t->allow_batch, it->x, t->base->sparsity, &c, &r);
        double want = r.time_s;
        if (!(fabs(it->value - want) <= 1e-9 * want))
            t->bad_value++;
    }
}

static void test_trace(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        struct fx *f = fx_fit(cases[i].hw, cases[i].model);
        int ab = cases[i].allow_batch;
        enum plan_cap cap;
        double nmax = ref_nmax(&f->c, ab, &cap);
        double *t = ref_curve(&f->c, ab, 0, nmax, PLAN_TIME);
        int total = 0;
        for (double frac = 0.1; frac < 1; frac += 0.2) {
            size_t k = (size_t)(frac * nmax);
            if (!isfinite(t[k]))
                continue;
            struct plan_opts po = {{t[k] * 1.0000001, 0, 0}, 0, ab};
            struct tr tr = {&f->c, ab, 0, 0, 0, 0, "", 0};
            struct plan_result res, res0;
            struct cp_error err = {0};
            assert_ok(plan_solve(&f->c, &po, on_iter, &tr, &res, &err), err);
            assert_int_equal(tr.calls, res.iterations);
            assert_int_equal(tr.bad_bracket, 0);
            assert_int_equal(tr.bad_stage, 0);
            assert_int_equal(tr.bad_value, 0);
            total += tr.calls;
            /* no callback: the same search */
            assert_ok(plan_solve(&f->c, &po, NULL, NULL, &res0, &err), err);
            assert_int_equal(res0.iterations, res.iterations);
            assert_rel(res0.best.systems, res.best.systems, 0);
        }
        assert_true(total > 0); /* the solvers did run */
        free(t);
        free(f);
    }
    /* the sparsity stage is traced too */
    struct fx *f = fx_new("cs2", "gpt3-175b", NULL, 0);
    struct plan_opts po = {{36 * 3600.0, 0, 0}, 1, 0};
    struct tr tr = {&f->c, 0, 0, 0, 0, 0, "", 0};
    struct plan_result res;
    struct cp_error err = {0};
    assert_ok(plan_solve(&f->c, &po, on_iter, &tr, &res, &err), err);
    assert_true(tr.calls > 0);
    assert_int_equal(tr.calls, res.iterations);
    assert_int_equal(tr.bad_bracket, 0);
    free(f);
}

int main(void)
{
    /* as the program does (src/cli/main.c): a GSL failure is a status,
     * which plan_solve() turns into CP_EIO, not an abort */
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_deadline_minimal, reset_mismatches),
        cmocka_unit_test_setup(test_deadline_every_step, reset_mismatches),
        cmocka_unit_test_setup(test_deadline_30d_gpt3, reset_mismatches),
        cmocka_unit_test_setup(test_energy_minimal, reset_mismatches),
        cmocka_unit_test_setup(test_budget_maximal, reset_mismatches),
        cmocka_unit_test_setup(test_budget_free, reset_mismatches),
        cmocka_unit_test_setup(test_combined_targets, reset_mismatches),
        cmocka_unit_test_setup(test_unreachable, reset_mismatches),
        cmocka_unit_test_setup(test_unreachable_time_best_is_least, reset_mismatches),
        cmocka_unit_test_setup(test_unreachable_energy_best_is_least, reset_mismatches),
        cmocka_unit_test_setup(test_unreachable_cost_best_is_least, reset_mismatches),
        cmocka_unit_test_setup(test_sparsity_raised, reset_mismatches),
        cmocka_unit_test_setup(test_sparsity_raised_energy, reset_mismatches),
        cmocka_unit_test_setup(test_sparsity_least_over_all_n, reset_mismatches),
        cmocka_unit_test_setup(test_sparsity_not_raised_when_reachable, reset_mismatches),
        cmocka_unit_test_setup(test_sparsity_not_enough, reset_mismatches),
        cmocka_unit_test_setup(test_nmax_generation_and_batch, reset_mismatches),
        cmocka_unit_test_setup(test_nmax_critical, reset_mismatches),
        cmocka_unit_test_setup(test_infeasible_model, reset_mismatches),
        cmocka_unit_test_setup(test_infeasible_act_store, reset_mismatches),
        cmocka_unit_test_setup(test_least, reset_mismatches),
        cmocka_unit_test_setup(test_input_errors, reset_mismatches),
        cmocka_unit_test_setup(test_trace, reset_mismatches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
