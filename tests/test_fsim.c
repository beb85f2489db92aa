/* test_fsim.c - the functional weight-streaming simulator (src/sim/fsim.h).
 *
 * The cluster (MemoryX, SwarmX tree, data-parallel systems) must train the
 * MLP to the same weights as one system with dense masked weights: exactly
 * with one system, within FSIM_TOLERANCE through a tree.  The counters must
 * balance: every byte sent on a link class is received, each node reduces
 * once per layer per step, and sparse streams carry exactly the mask's
 * nonzeros.  Expected counts and message sizes are worked out here from the
 * network shape and the wire format fsim.h documents, not read back from
 * the simulator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "sim/fsim.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The shape fsim.h documents: weights and biases per layer. */
static const uint64_t n_weights[FSIM_LAYERS] = {16 * 32, 32 * 32, 32 * 4};
static const uint64_t n_biases[FSIM_LAYERS] = {32, 32, 4};

/* ---- helpers ---- */

static struct fsim_config config(int systems, int fanout, double sparsity, enum fsim_optimizer opt)
{
    struct fsim_config c;
    fsim_config_init(&c);
    c.systems = systems;
    c.fanout = fanout;
    c.sparsity = sparsity;
    c.optimizer = opt;
    c.batch = 61; /* not a multiple of any system count used here */
    c.seed = 2385;
    return c;
}

/* Results go through pointers (never copied by value) so that memcmp also
 * sees fsim_run's zeroed padding, if the struct ever has any. */
static void run(const struct fsim_config *c, struct fsim_result *r, float *sim, float *ref)
{
    struct cp_error err = {0};
    assert_ok(fsim_run_params(c, r, sim, ref, &err), err);
}

static void assert_loss_falls(const struct fsim_result *r)
{
    if (!(r->loss_last < r->loss_first && r->ref_loss_last < r->ref_loss_first)) {
        print_error("loss did not fall: cluster %.9g -> %.9g, reference %.9g -> %.9g\n",
                    r->loss_first, r->loss_last, r->ref_loss_first, r->ref_loss_last);
        fail();
    }
}

/* Expected size of one layer message (fsim.h's wire format). */
static uint64_t msg_bytes(int l, uint64_t nnz, int sparse)
{
    uint64_t pos = sparse ? (2 * nnz + 3) / 4 * 4 : 0;
    uint64_t nw = sparse ? nnz : n_weights[l];
    return 12 + pos + 4 * (nw + n_biases[l]);
}

/* Bytes of one message per layer, summed over the layers. */
static uint64_t msgs_bytes(const uint64_t *nnz, int sparse)
{
    uint64_t sum = 0;
    for (int l = 0; l < FSIM_LAYERS; l++)
        sum += msg_bytes(l, nnz[l], sparse);
    return sum;
}

/* ---- tests ---- */

static void test_config_defaults(void **state)
{
    (void)state;
    struct fsim_config c;
    memset(&c, 0x5a, sizeof c);
    fsim_config_init(&c);
    assert_int_equal(c.systems, 1);
    assert_int_equal(c.fanout, 2);
    assert_int_equal(c.units, 1);
    assert_int_equal(c.steps, 10);
    assert_int_equal(c.batch, 64);
    assert_true(c.sparsity == 0.0);
    assert_int_equal(c.optimizer, FSIM_ADAM);
    assert_int_equal(c.seed, 1);
}

/* One system sums the batch in the reference's order: identical weights. */
static void check_one_system_exact(double sparsity)
{
    static float sim[FSIM_PARAMS], ref[FSIM_PARAMS];
    for (int opt = FSIM_SGD; opt <= FSIM_ADAM; opt++) {
        struct fsim_config c = config(1, 2, sparsity, (enum fsim_optimizer)opt);
        struct fsim_result r;
        run(&c, &r, sim, ref);
        assert_true(r.max_rel_diff == 0.0);
        assert_memory_equal(sim, ref, sizeof sim);
        assert_true(r.loss_first == r.ref_loss_first);
        assert_true(r.loss_last == r.ref_loss_last);
        assert_int_equal(r.depth, 0);
        assert_int_equal(r.nodes, 0);
        assert_loss_falls(&r);
    }
}

static void test_one_system_dense_exact(void **state)
{
    (void)state;
    check_one_system_exact(0.0);
}

static void test_one_system_sparse_exact(void **state)
{
    (void)state;
    check_one_system_exact(0.75);
}

/* Through a tree only the order of the gradient sums changes. */
static void test_tree_dense_agrees(void **state)
{
    (void)state;
    /* N = 7, k = 2: 4 + 2 + 1 nodes; N = 16, k = 3: 6 + 2 + 1 nodes. */
    const struct {
        int systems, fanout, depth, nodes;
    } tree[] = {{7, 2, 3, 7}, {16, 3, 3, 9}};
    for (size_t i = 0; i < NELEM(tree); i++)
        for (int opt = FSIM_SGD; opt <= FSIM_ADAM; opt++) {
            struct fsim_config c =
                config(tree[i].systems, tree[i].fanout, 0.0, (enum fsim_optimizer)opt);
            struct fsim_result r;
            run(&c, &r, NULL, NULL);
            assert_true(r.max_rel_diff <= FSIM_TOLERANCE);
            assert_int_equal(r.depth, tree[i].depth);
            assert_int_equal(r.nodes, tree[i].nodes);
            assert_rel(r.loss_first, r.ref_loss_first, 1e-12);
            assert_loss_falls(&r);
        }
}

/* Zeros in each weight matrix of a parameter vector laid out as fsim.h says. */
static void count_zero_weights(const float *p, uint64_t *zeros)
{
    for (int l = 0; l < FSIM_LAYERS; l++) {
        zeros[l] = 0;
        for (uint64_t i = 0; i < n_weights[l]; i++)
            zeros[l] += p[i] == 0.0f;
        p += n_weights[l] + n_biases[l];
    }
}

/* Sparse streaming equals masked dense training; masked weights stay 0. */
static void test_sparse_tree_agrees(void **state)
{
    (void)state;
    static float sim[FSIM_PARAMS], ref[FSIM_PARAMS];
    for (int opt = FSIM_SGD; opt <= FSIM_ADAM; opt++) {
        struct fsim_config c = config(5, 2, 0.75, (enum fsim_optimizer)opt);
        struct fsim_result r;
        run(&c, &r, sim, ref);
        uint64_t zeros[FSIM_LAYERS], ref_zeros[FSIM_LAYERS];
        assert_true(r.max_rel_diff <= FSIM_TOLERANCE);
        assert_loss_falls(&r);
        assert_int_equal(r.off_mask_nonzero, 0);
        count_zero_weights(sim, zeros);
        count_zero_weights(ref, ref_zeros);
        for (int l = 0; l < FSIM_LAYERS; l++) {
            uint64_t nnz = n_weights[l] - (uint64_t)lround(0.75 * (double)n_weights[l]);
            assert_int_equal(r.weight_count[l], n_weights[l]);
            assert_int_equal(r.mask_nnz[l], nnz);
            assert_int_equal(zeros[l], n_weights[l] - nnz);
            assert_int_equal(ref_zeros[l], n_weights[l] - nnz);
            assert_int_equal(r.values_streamed[l], 2 * (uint64_t)c.steps * nnz);
        }
        for (size_t i = 0; i < FSIM_PARAMS; i++)
            assert_true((sim[i] == 0.0f) == (ref[i] == 0.0f));
        assert_int_equal(r.broadcasts, 2 * (uint64_t)c.steps * FSIM_LAYERS);
        /* MemoryX sends one sparse message per layer per pass. */
        assert_int_equal(r.bytes_sent[FSIM_DOWN][FSIM_LINK_MX],
                         2 * (uint64_t)c.steps * msgs_bytes(r.mask_nnz, 1));
    }
}

/* Every message and byte sent on a link class is received; every node
 * reduces once per layer per step and adds each child's buffer once. */
static void check_conservation(int systems, int fanout, double sparsity, int nodes)
{
    struct fsim_config c = config(systems, fanout, sparsity, FSIM_ADAM);
    c.steps = 4;
    struct fsim_result r;
    run(&c, &r, NULL, NULL);
    uint64_t passes = (uint64_t)c.steps * FSIM_LAYERS; /* reductions per node */
    uint64_t n = (uint64_t)systems, below_root = nodes ? (uint64_t)nodes - 1 : 0;
    uint64_t links[FSIM_NLINKS] = {1, below_root, nodes ? n : 0};
    uint64_t bytes = msgs_bytes(r.mask_nnz, sparsity > 0);
    assert_int_equal(r.nodes, nodes);
    for (int d = 0; d < FSIM_NDIRS; d++)
        for (int k = 0; k < FSIM_NLINKS; k++) {
            uint64_t msgs = (d == FSIM_DOWN ? 2 : 1) * passes * links[k];
            assert_int_equal(r.msgs_sent[d][k], r.msgs_recv[d][k]);
            assert_int_equal(r.bytes_sent[d][k], r.bytes_recv[d][k]);
            assert_int_equal(r.msgs_sent[d][k], msgs);
            assert_int_equal(r.bytes_sent[d][k], msgs / FSIM_LAYERS * bytes);
        }
    assert_int_equal(r.node_reductions_min, nodes ? passes : 0);
    assert_int_equal(r.node_reductions_max, nodes ? passes : 0);
    assert_int_equal(r.buffers_reduced, nodes ? passes * (n + below_root) : 0);
}

static void test_conservation(void **state)
{
    (void)state;
    check_conservation(1, 2, 0.0, 0);
    check_conservation(7, 2, 0.0, 7);
    check_conservation(16, 3, 0.5, 9);
    check_conservation(5, 4, 0.75, 3); /* 2 + 1 nodes, a lone child */
}

static void test_deterministic(void **state)
{
    (void)state;
    struct fsim_config c = config(7, 2, 0.5, FSIM_ADAM);
    struct fsim_result a, b;
    run(&c, &a, NULL, NULL);
    run(&c, &b, NULL, NULL);
    assert_memory_equal(&a, &b, sizeof a);
    c.seed = 2386;
    run(&c, &b, NULL, NULL);
    assert_true(a.loss_first != b.loss_first);
    assert_true(a.loss_last != b.loss_last);
}

struct bad_case {
    const char *option; /* the message must start with it and a colon */
    void (*set)(struct fsim_config *c, double v);
    double value;
};

static void set_systems(struct fsim_config *c, double v)
{
    c->systems = (int)v;
}
static void set_fanout(struct fsim_config *c, double v)
{
    c->fanout = (int)v;
}
static void set_units(struct fsim_config *c, double v)
{
    c->units = (int)v;
}
static void set_steps(struct fsim_config *c, double v)
{
    c->steps = (int)v;
}
static void set_batch(struct fsim_config *c, double v)
{
    c->batch = (int)v;
}
static void set_sparsity(struct fsim_config *c, double v)
{
    c->sparsity = v;
}
static void set_optimizer(struct fsim_config *c, double v)
{
    c->optimizer = (enum fsim_optimizer)v;
}
static void set_max_events(struct fsim_config *c, double v)
{
    c->max_events = v;
}
static void set_most(struct fsim_config *c, double v)
{
    (void)v;
    c->steps = FSIM_MAX_STEPS;
    c->batch = FSIM_MAX_BATCH;
}

static void test_bad_config(void **state)
{
    (void)state;
    const struct bad_case bad[] = {
        {"-n", set_systems, 0},
        {"-n", set_systems, 4097},
        {"-n", set_systems, -3},
        {"swarmx.fanout", set_fanout, 1},
        {"swarmx.fanout", set_fanout, 0},
        {"--memoryx-units", set_units, 0},
        {"--memoryx-units", set_units, 65},
        {"--steps", set_steps, 0},
        {"--steps", set_steps, 100001},
        {"--batch", set_batch, 6},
        {"--batch", set_batch, 1000001},
        {"--sparsity", set_sparsity, -0.0625},
        {"--sparsity", set_sparsity, 1.0},
        {"--sparsity", set_sparsity, NAN},
        {"--optimizer", set_optimizer, 7},
        {"--max-events", set_max_events, 0.5},
        {"--max-events", set_max_events, -3},
        {"--max-events", set_max_events, 2e15},
        {"--max-events", set_max_events, NAN},
        /* each in range, but together 1e11 events: days of work */
        {"--max-events", set_most, 0},
    };
    for (size_t i = 0; i < NELEM(bad); i++) {
        struct fsim_config c = config(7, 2, 0.0, FSIM_SGD);
        struct fsim_result r, untouched;
        struct cp_error err = {0};
        memset(&r, 0xa5, sizeof r);
        memcpy(&untouched, &r, sizeof r);
        bad[i].set(&c, bad[i].value);
        assert_int_equal(fsim_run(&c, &r, &err), CP_EINPUT);
        assert_int_equal(err.status, CP_EINPUT);
        size_t len = strlen(bad[i].option);
        if (strncmp(err.msg, bad[i].option, len) != 0 || err.msg[len] != ':') {
            print_error("case %zu: message \"%s\" does not start with %s:\n", i, err.msg,
                        bad[i].option);
            fail();
        }
        assert_memory_equal(&r, &untouched, sizeof r);
    }
}

/* Sharding MemoryX over units changes who updates what, not the arithmetic;
 * 64 units leave most bias shards empty. */
static void test_units_bit_identical(void **state)
{
    (void)state;
    static float one[FSIM_PARAMS], many[FSIM_PARAMS];
    const int units[] = {3, 64};
    struct fsim_config c = config(7, 2, 0.5, FSIM_ADAM);
    struct fsim_result r1;
    run(&c, &r1, one, NULL);
    uint64_t params = 0;
    for (int l = 0; l < FSIM_LAYERS; l++)
        params += r1.mask_nnz[l] + n_biases[l];
    assert_int_equal(r1.unit_updates, (uint64_t)c.steps * params);
    for (size_t i = 0; i < NELEM(units); i++) {
        c.units = units[i];
        struct fsim_result r;
        run(&c, &r, many, NULL);
        assert_memory_equal(one, many, sizeof one);
        assert_memory_equal(&r1, &r, sizeof r);
    }
}

/* fsim_events counts every sample of every step and every message the
 * links carry, exactly; the bound takes a run of exactly max_events and
 * refuses one more, naming --max-events and the count; a fan-out past any
 * tree (as large as an int holds) is one node over all systems. */
static void check_events(int systems, int fanout, int steps)
{
    struct fsim_config c = config(systems, fanout, 0.5, FSIM_SGD);
    c.steps = steps;
    struct fsim_result r;
    run(&c, &r, NULL, NULL);
    uint64_t msgs = 0;
    for (int d = 0; d < FSIM_NDIRS; d++)
        for (int k = 0; k < FSIM_NLINKS; k++)
            msgs += r.msgs_sent[d][k];
    double events = (double)steps * c.batch + (double)msgs;
    assert_true(fsim_events(&c) == events);
    c.max_events = events;
    run(&c, &r, NULL, NULL);
    c.max_events = events - 1;
    struct cp_error err = {0};
    assert_int_equal(fsim_run(&c, &r, &err), CP_EINPUT);
    char count[32];
    snprintf(count, sizeof count, "%.4g events", events);
    if (strncmp(err.msg, "--max-events:", 13) != 0 || !strstr(err.msg, count)) {
        print_error("%d systems: \"%s\" does not name --max-events and %s\n", systems, err.msg,
                    count);
        fail();
    }
}

static void test_events(void **state)
{
    (void)state;
    check_events(1, 2, 3);
    check_events(7, 2, 2);
    check_events(16, 3, 1);
    check_events(61, 2147483647, 2);
    struct fsim_config c = config(61, 2147483647, 0.0, FSIM_ADAM);
    struct fsim_result r;
    run(&c, &r, NULL, NULL);
    assert_int_equal(r.nodes, 1);
    assert_int_equal(r.depth, 1);
}

/* The verdict simulate --functional gives: weights within the tolerance
 * and a falling loss, each needed; a real run of a tree agrees. */
static void test_agrees(void **state)
{
    (void)state;
    struct fsim_result r = {.max_rel_diff = 0.73 * FSIM_TOLERANCE, .loss_first = 2.385,
                            .loss_last = 1.125};
    assert_true(fsim_agrees(&r));
    r.max_rel_diff = 1.0001 * FSIM_TOLERANCE;
    assert_false(fsim_agrees(&r));
    r.max_rel_diff = FSIM_TOLERANCE;
    assert_true(fsim_agrees(&r));
    r.loss_last = r.loss_first;
    assert_false(fsim_agrees(&r));
    struct fsim_config c = config(7, 2, 0.0, FSIM_ADAM);
    run(&c, &r, NULL, NULL);
    assert_true(fsim_agrees(&r));
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_defaults),
        cmocka_unit_test(test_one_system_dense_exact),
        cmocka_unit_test(test_one_system_sparse_exact),
        cmocka_unit_test(test_tree_dense_agrees),
        cmocka_unit_test(test_sparse_tree_agrees),
        cmocka_unit_test(test_conservation),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_units_bit_identical),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
