/* test_grid.c - the grid engine (src/grid): the points of a grid, the
 * share of a shard, evaluation on threads in grid order, and the best row
 * of each group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grid/grid.h"
#include "grid/grid_best.h"
#include "load.h"

static struct hw_desc hw;
static struct wl_desc wl;

static void base_cluster(struct cluster *c, double systems)
{
    load_hw("cs2", NULL, 0, &hw);
    load_model("gpt3-175b", NULL, 0, &wl);
    cluster_init(c, &hw, &wl);
    c->systems = systems;
}

/* Tier slowest, sparsity next, size fastest; each point is the base with
 * those three set, and a weak grid keeps the sequences per system. */
static void points(void **state)
{
    (void)state;
    struct cluster b;
    base_cluster(&b, 4);
    const struct grid_tier tier[2] = {{"a", 3}, {"b", 7}};
    const double sp[3] = {0, 0.5, 0.9}, ns[4] = {1, 2, 8, 64};
    struct grid g = {.base = &b, .tier = tier, .ntier = 2, .sp = sp, .nsp = 3, .ns = ns,
                     .nn = 4, .mode = SCALE_STRONG};
    assert_int_equal(grid_size(&g), 24);
    for (size_t j = 0; j < 24; j++) {
        struct cluster c;
        grid_cluster(&g, j, &c);
        assert_true(c.systems == ns[j % 4]);
        assert_true(c.sparsity == sp[j / 4 % 3]);
        assert_true(c.mx_servers == tier[j / 12].servers);
        assert_string_equal(grid_tier_of(&g, j)->name, tier[j / 12].name);
        assert_true(c.global_seqs == b.global_seqs); /* strong: the global batch kept */
    }
    g.mode = SCALE_WEAK;
    struct cluster c;
    grid_cluster(&g, 2, &c);
    assert_true(c.global_seqs == b.global_seqs / 4 * 8);
    /* no tier or sparsity axis: the base's */
    struct grid h = {.base = &b, .ns = ns, .nn = 4, .mode = SCALE_STRONG};
    assert_int_equal(grid_size(&h), 4);
    assert_null(grid_tier_of(&h, 3));
    grid_cluster(&h, 3, &c);
    assert_true(c.mx_servers == b.mx_servers && c.sparsity == b.sparsity && c.systems == 64);
}

/* A grid point evaluates as train_at() does at that size. */
static void eval_matches_train_at(void **state)
{
    (void)state;
    struct cluster b;
    base_cluster(&b, 16);
    const double ns[3] = {1, 16, 192};
    for (int m = 0; m < 2; m++) {
        struct grid g = {.base = &b, .ns = ns, .nn = 3, .mode = m ? SCALE_WEAK : SCALE_STRONG};
        for (size_t j = 0; j < 3; j++) {
            struct cluster c;
            struct train_result r, t;
            grid_eval(&g, j, &c, &r);
            train_at(&b, ns[j], g.mode, &t);
            assert_true(r.step.step_s == t.step.step_s);
            assert_true(r.time_s == t.time_s);
        }
    }
}

/* The shards K of N partition the points. */
static void shares(void **state)
{
    (void)state;
    for (size_t total = 0; total < 40; total++)
        for (size_t n = 1; n <= 7; n++)
            for (size_t base = 0; base < 9; base++) {
                size_t sum = 0;
                for (size_t k = 0; k < n; k++) {
                    struct grid_sched s = {.jobs = 1, .shard_k = k, .shard_n = n, .base = base};
                    size_t want = 0;
                    for (size_t i = base; i < base + total; i++)
                        want += i % n == k;
                    assert_int_equal(grid_share(total, &s), want);
                    sum += want;
                }
                assert_int_equal(sum, total);
            }
}

/* What the workers saw, handed back in rounds. */
struct seen {
    size_t j[8192];
    double step[8192];
    size_t n;
};
struct collect {
    struct seen out;
    size_t rounds, done;
};

static void visit(void *ctx, size_t j, const struct cluster *c, const struct train_result *r)
{
    struct seen *s = ctx;
    (void)c;
    s->j[s->n] = j;
    s->step[s->n++] = r->step.step_s;
}

static void round_fn(void *arg, void *const *ctx, unsigned used, size_t done)
{
    struct collect *k = arg;
    for (unsigned t = 0; t < used; t++) {
        struct seen *s = ctx[t];
        for (size_t i = 0; i < s->n; i++) {
            k->out.j[k->out.n] = s->j[i];
            k->out.step[k->out.n++] = s->step[i];
        }
        s->n = 0;
    }
    k->rounds++;
    k->done += done;
}

static struct seen workers[4];
static struct collect runs[2];

/* The same points in the same order on one thread and on four, a shard
 * taking every third from its base. */
static void run_order(void **state)
{
    (void)state;
    struct cluster b;
    base_cluster(&b, 1);
    static double ns[3000];
    for (size_t i = 0; i < 3000; i++)
        ns[i] = (double)(i + 1);
    const double sp[4] = {0, 0.25, 0.5, 0.75};
    struct grid g = {.base = &b, .sp = sp, .nsp = 4, .ns = ns, .nn = 3000,
                     .mode = SCALE_STRONG};
    void *ctx[4] = {&workers[0], &workers[1], &workers[2], &workers[3]};
    for (int r = 0; r < 2; r++) {
        struct grid_sched s = {.jobs = r ? 4 : 1, .shard_k = 1, .shard_n = 3, .base = 5};
        memset(&runs[r], 0, sizeof runs[r]);
        size_t np = grid_run(&g, &s, ctx, visit, round_fn, &runs[r]);
        assert_int_equal(np, grid_share(12000, &s));
        assert_int_equal(runs[r].out.n, np);
        assert_int_equal(runs[r].done, np);
        for (size_t i = 0; i < np; i++) /* grid point j is global point 5 + j */
            assert_int_equal((5 + runs[r].out.j[i]) % 3, 1);
        for (size_t i = 1; i < np; i++)
            assert_true(runs[r].out.j[i] == runs[r].out.j[i - 1] + 3);
    }
    assert_true(runs[0].rounds > runs[1].rounds); /* blocks of GRID_BLOCK a thread */
    assert_memory_equal(runs[0].out.j, runs[1].out.j, runs[0].out.n * sizeof(size_t));
    assert_memory_equal(runs[0].out.step, runs[1].out.step, runs[0].out.n * sizeof(double));
}

/* The least value of each group, the first of a tie, groups in the order
 * they first came, through rehashing. */
static void best_rows(void **state)
{
    (void)state;
    struct grid_best gs;
    grid_best_init(&gs);
    char key[16], row[32];
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(key, sizeof key, "g%d", i % 100);
        int m = snprintf(row, sizeof row, "row%d", i);
        grid_best_offer(&gs, key, (size_t)n, (double)((i * 37) % 101), row, (size_t)m);
    }
    assert_int_equal(gs.n, 100);
    for (int g = 0; g < 100; g++) {
        snprintf(key, sizeof key, "g%d", g);
        assert_string_equal(gs.row[g].key, key);
        double least = INFINITY;
        int first = -1;
        for (int i = g; i < 1000; i += 100)
            if ((i * 37) % 101 < least)
                least = (i * 37) % 101, first = i;
        snprintf(row, sizeof row, "row%d", first);
        assert_string_equal(gs.row[g].row, row);
        assert_true(gs.row[g].by == least);
    }
    grid_best_offer(&gs, "g5", 2, gs.row[5].by, "tie", 3); /* a tie keeps the first */
    assert_string_not_equal(gs.row[5].row, "tie");
    grid_best_free(&gs);
    assert_int_equal(gs.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points),   cmocka_unit_test(eval_matches_train_at),
        cmocka_unit_test(shares),   cmocka_unit_test(run_order),
        cmocka_unit_test(best_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
