/* test_sim.c - the timing discrete-event simulator (src/sim/sim.h), checked
 * on its own: nothing from src/model is used, so the two step-time
 * computations stay independent.
 *
 * Expected counts come from the topology and packet layout sim.h documents
 * (tree of SwarmX nodes, one packet per layer and pass, the embedding split
 * into up to SIM_FIRST_PACKETS, one recomputed forward per block with
 * segments of k > 1 blocks), and the lower bounds from the description and
 * src/desc/tfm.h; none is read back from the counter it checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "desc/hw.h"
#include "desc/tfm.h"
#include "desc/wl.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---- */

/* A shipped model on a shipped system, with an optional hardware --set. */
struct setup {
    struct wl_desc wl;
    struct hw_desc hw;
};

static void load(struct setup *s, const char *model, const char *hw, const char *hw_set)
{
    const char *sets[1] = {hw_set};
    load_model(model, NULL, 0, &s->wl);
    load_hw(hw, sets, hw_set ? 1 : 0, &s->hw);
}

/* The same with two hardware --sets (the second may be NULL). */
static void load2(struct setup *s, const char *model, const char *hw, const char *set1,
                  const char *set2)
{
    const char *sets[2] = {set1, set2};
    load_model(model, NULL, 0, &s->wl);
    load_hw(hw, sets, set2 ? 2 : 1, &s->hw);
}

static struct sim_config config(const struct setup *s, double systems, double units,
                                double sparsity, double global_seqs, double steps)
{
    struct sim_config c;
    sim_config_init(&c, &s->hw, &s->wl);
    c.systems = systems;
    c.units = units;
    c.sparsity = sparsity;
    c.global_seqs = global_seqs;
    c.steps = steps;
    return c;
}

static void run(const struct sim_config *c, struct sim_result *r)
{
    struct cp_error err = {0};
    memset(r, 0, sizeof *r);
    assert_ok(sim_run(c, r, &err), err);
}

/* SwarmX levels and nodes of the tree sim.h describes: every level groups
 * up to fanout items of the one below until one is left; with one system
 * and several MemoryX units one node joins them. */
static void tree_shape(long n, long fanout, long units, int *depth, long *nodes)
{
    *depth = 0;
    *nodes = 0;
    if (n == 1) {
        if (units > 1) {
            *depth = 1;
            *nodes = 1;
        }
        return;
    }
    for (long len = n; len > 1;) {
        len = (len + fanout - 1) / fanout;
        *nodes += len;
        ++*depth;
    }
}

/* Packets per step (sim.h): per micro-batch and pass, one per block and one
 * for the logits, and the embedding split into packets of at least one
 * chunk, at most SIM_FIRST_PACKETS (the embedding is never sparse); with
 * segments of k > 1 blocks, one recomputed forward per block besides. */
static long long passes_packets(const struct setup *s, double micro_batches)
{
    double chunks = floor(tfm_embed_params(&s->wl) * s->wl.weight_bytes / s->hw.swx.chunk_bytes);
    double first = fmin(SIM_FIRST_PACKETS, fmax(1, chunks));
    return 2 * (long long)micro_batches * ((long long)first + (long long)s->wl.layers + 1);
}

static long long recompute_packets(const struct setup *s, const struct sim_config *c,
                                   double micro_batches)
{
    int segments = c->act == SIM_ACT_RECOMPUTE && c->act_k > 1;
    return segments ? (long long)micro_batches * (long long)s->wl.layers : 0;
}

/* Where the activations go, for a case: {0} keeps sim_config_init's. */
struct placement {
    enum sim_act act;
    double k, servers; /* recompute: every k blocks; offload: activation servers */
};

static void place(struct sim_config *c, const struct placement *pl)
{
    if (!pl || (pl->act == SIM_ACT_WAFER && pl->k == 0 && pl->servers == 0))
        return;
    c->act = pl->act;
    c->act_k = pl->act == SIM_ACT_RECOMPUTE ? pl->k : 0;
    c->act_servers = pl->act == SIM_ACT_OFFLOAD ? pl->servers : 0;
}

static const struct placement WAFER = {SIM_ACT_WAFER, 0, 0};

/* sim_size, from the configuration alone, says what the run took: its
 * events exactly, its packets, nodes, components and micro-batches. */
static void check_size(const struct sim_config *c, const struct sim_result *r)
{
    struct sim_size z;
    struct cp_error err = {0};
    assert_ok(sim_size(c, &z, &err), err);
    int comps = 0;
    for (int k = 0; k < SIM_NCOMP; k++)
        comps += r->count[k];
    if (z.events != (double)r->events || z.packets != (double)r->packets || z.nodes != r->nodes ||
        z.comps != comps || z.micro_batches != r->micro_batches ||
        !(z.bytes > 0 && z.bytes <= SIM_MAX_BYTES)) {
        print_error("sim_size: %.17g events, %g packets, %g nodes, %g components, %g "
                    "micro-batches, %g bytes; the run: %lld, %lld, %d, %d, %g\n",
                    z.events, z.packets, z.nodes, z.comps, z.micro_batches, z.bytes, r->events,
                    r->packets, r->nodes, comps, r->micro_batches);
        fail();
    }
}

/* sim_run (or sim_size) on c refuses with CP_EINPUT, its message starting
 * with figure and a colon and holding what (if not NULL), and does not
 * start the run (the trace callback, set here, is never called). */
static int count_trace(void *ctx, const struct sim_interval *iv)
{
    (void)iv;
    ++*(long long *)ctx;
    return 0;
}

static void expect_refused(struct sim_config c, const char *figure, const char *what)
{
    long long calls = 0;
    c.trace = count_trace;
    c.trace_ctx = &calls;
    struct sim_result r;
    struct sim_size z;
    struct cp_error err = {0}, err2 = {0};
    assert_int_equal(sim_run(&c, &r, &err), CP_EINPUT);
    assert_int_equal(sim_size(&c, &z, &err2), CP_EINPUT);
    assert_int_equal(calls, 0);
    assert_string_equal(err.msg, err2.msg);
    size_t len = strlen(figure);
    if (strncmp(err.msg, figure, len) != 0 || err.msg[len] != ':' ||
        (what && !strstr(err.msg, what))) {
        print_error("message \"%s\" does not start with %s: or lacks \"%s\"\n", err.msg, figure,
                    what ? what : "");
        fail();
    }
}

/* ---- 1. conservation ---- */

struct conservation_case {
    const char *model, *hw, *hw_set;
    double systems, units, sparsity, global_seqs;
    long fanout;
    struct placement pl;
};

/* Checks one configuration; prints every mismatch and returns how many. */
static int check_conservation(const struct conservation_case *k)
{
    struct setup s;
    load(&s, k->model, k->hw, k->hw_set);
    assert_int_equal((long)s.hw.swx.fanout, k->fanout);
    const double steps = 3;
    struct sim_config c = config(&s, k->systems, k->units, k->sparsity, k->global_seqs, steps);
    place(&c, &k->pl);
    struct sim_result r;
    run(&c, &r);
    check_size(&c, &r);

    int depth;
    long nodes;
    tree_shape((long)k->systems, k->fanout, (long)k->units, &depth, &nodes);
    assert_int_equal(r.depth, depth);
    assert_int_equal(r.nodes, nodes);
    long long rc = recompute_packets(&s, &c, r.micro_batches);
    assert_int_equal(r.packets, passes_packets(&s, r.micro_batches) + rc);

    int bad = 0;
    for (int i = 0; i < SIM_NCOMP; i++) {
        double sent = r.sent_bytes[i], recv = r.recv_bytes[i];
        double rel = sent == 0 ? fabs(recv) : fabs(recv - sent) / fabs(sent);
        if (!(rel <= 1e-12)) {
            print_error("%s on %s%s%s, N=%g, units=%g, sparsity=%g: %s sent %.17g, "
                        "received %.17g (x%.6g)\n",
                        k->model, k->hw, k->hw_set ? " --set " : "", k->hw_set ? k->hw_set : "",
                        k->systems, k->units, k->sparsity, sim_comp_name[i], sent, recv,
                        recv / sent);
            bad++;
        }
    }
    /* Forward and backward passes have the same packets; every SwarmX node
     * reduces each backward packet once, every MemoryX unit takes it in
     * (recomputed forwards send nothing up). */
    long long bwd = (r.packets - rc) / 2, nsteps = (long long)steps;
    assert_int_equal((r.packets - rc) % 2, 0);
    assert_int_equal(r.reductions, (long long)nodes * bwd * nsteps);
    assert_int_equal(r.mx_received, (long long)k->units * bwd * nsteps);
    return bad;
}

static void test_conservation(void **state)
{
    (void)state;
    const char *f3 = "swarmx.fanout=3";
    const struct conservation_case cases[] = {
        {"gpt3-xl", "cs2", NULL, 1, 1, 0, 8, 2, {0}},
        {"gpt3-xl", "cs2", NULL, 1, 3, 0.9, 8, 2, {0}},
        {"gpt3-xl", "cs2", NULL, 2, 1, 0, 8, 2, {0}},
        {"gpt3-xl", "cs2", f3, 2, 3, 0.9, 8, 3, {0}},
        {"gpt3-xl", "cs2", NULL, 7, 3, 0.9, 14, 2, {0}},
        {"gpt3-xl", "cs2", f3, 7, 1, 0, 7, 3, {0}},
        {"gpt3-xl", "cs2", NULL, 64, 1, 0.9, 64, 2, {0}},
        {"gpt3-xl", "cs2", f3, 64, 3, 0, 64, 3, {0}},
        {"gpt3-175b", "cs3", f3, 7, 3, 0, 7, 3, {0}},
        /* recomputed forwards, offloaded activations (with one activation
         * server, in micro-batches) */
        {"gpt3-xl", "cs2", NULL, 7, 3, 0.9, 30, 2, {SIM_ACT_RECOMPUTE, 5, 0}},
        {"gpt3-xl", "cs2", f3, 4, 1, 0, 64, 3, {SIM_ACT_RECOMPUTE, 4, 0}},
        {"gpt3-xl", "cs3", NULL, 5, 2, 0.5, 20, 4, {SIM_ACT_OFFLOAD, 0, 1}},
        {"gpt3-xl", "cs2", NULL, 1, 1, 0, 8, 2, {SIM_ACT_OFFLOAD, 0, 2}},
    };
    int bad = 0;
    for (size_t i = 0; i < NELEM(cases); i++)
        bad += check_conservation(&cases[i]);
    if (bad) {
        print_error("%d byte counts do not balance\n", bad);
        fail();
    }
}

/* ---- 2. determinism ---- */

struct trace_hash {
    uint64_t h;
    long long n;
};

static void fnv(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        *h ^= b[i];
        *h *= 1099511628211u;
    }
}

static int hash_interval(void *ctx, const struct sim_interval *iv)
{
    struct trace_hash *t = ctx;
    int ints[] = {(int)iv->comp, iv->index, iv->step, iv->micro_batch, iv->layer, iv->packet};
    double nums[] = {iv->start_s, iv->end_s, iv->bytes};
    fnv(&t->h, nums, sizeof nums);
    fnv(&t->h, ints, sizeof ints);
    fnv(&t->h, iv->activity, strlen(iv->activity) + 1);
    t->n++;
    return 0;
}

static void hashed_run(struct sim_config *c, struct sim_result *r, struct trace_hash *t)
{
    *t = (struct trace_hash){14695981039346656037u, 0};
    c->trace = hash_interval;
    c->trace_ctx = t;
    run(c, r);
}

static void test_deterministic(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    struct sim_config c = config(&s, 7, 3, 0.5, 16, 3);
    struct sim_result a, b;
    struct trace_hash ta, tb;
    hashed_run(&c, &a, &ta);
    hashed_run(&c, &b, &tb);
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(ta.n > 0);
    assert_int_equal(ta.n, tb.n);
    assert_true(ta.h == tb.h);
    c.sparsity = 0.6;
    hashed_run(&c, &b, &tb);
    assert_true(ta.h != tb.h);
    assert_true(a.step_s != b.step_s);
}

/* ---- 3. trace sanity ---- */

struct trace_check {
    const struct setup *s;
    const struct sim_config *c;
    long long n, bad;
    double bytes[SIM_NCOMP], bytes_last[SIM_NCOMP]; /* whole run; last step */
};

static int check_interval(void *ctx, const struct sim_interval *iv)
{
    struct trace_check *t = ctx;
    const struct wl_desc *wl = &t->s->wl;
    int comp_ok = (int)iv->comp >= 0 && (int)iv->comp < SIM_NCOMP;
    int is_update = comp_ok && iv->comp == SIM_UPDATE;
    const char *want = NULL;
    if (iv->activity && strcmp(iv->activity, "update") == 0)
        want = is_update ? "update" : NULL;
    else if (iv->activity && !is_update &&
             (strcmp(iv->activity, "forward") == 0 || strcmp(iv->activity, "recompute") == 0 ||
              strcmp(iv->activity, "backward") == 0))
        want = iv->activity;
    int ok = comp_ok && want && iv->start_s >= 0 && iv->end_s >= iv->start_s &&
             isfinite(iv->end_s) && iv->step >= 0 && iv->step < (int)t->c->steps &&
             iv->index >= 0 && iv->micro_batch >= 0 && iv->layer >= 0 &&
             iv->layer <= (int)wl->layers + 1 && iv->packet >= 0 &&
             iv->packet < SIM_FIRST_PACKETS && (iv->layer == 0 || iv->packet == 0) &&
             iv->bytes >= 0 && isfinite(iv->bytes);
    if (!ok) {
        if (t->bad++ < 5)
            print_error("bad interval %lld: comp %d index %d %s step %d mb %d layer %d packet %d "
                        "[%.17g, %.17g] bytes %.17g\n",
                        t->n, (int)iv->comp, iv->index, iv->activity ? iv->activity : "(null)",
                        iv->step, iv->micro_batch, iv->layer, iv->packet, iv->start_s, iv->end_s,
                        iv->bytes);
    } else {
        t->bytes[iv->comp] += iv->bytes;
        if (iv->step == (int)t->c->steps - 1)
            t->bytes_last[iv->comp] += iv->bytes;
    }
    t->n++;
    return 0;
}

static void check_trace(const char *model, const char *hw, double systems, double units,
                        double sparsity, double global_seqs, const struct placement *pl)
{
    struct setup s;
    load(&s, model, hw, NULL);
    struct sim_config c = config(&s, systems, units, sparsity, global_seqs, 3);
    place(&c, pl);
    struct trace_check t = {.s = &s, .c = &c};
    c.trace = check_interval;
    c.trace_ctx = &t;
    struct sim_result r;
    run(&c, &r);
    assert_int_equal(t.bad, 0);
    /* sim.c's event loop starts one packet on one component per event, and
     * every start is one busy interval. */
    assert_int_equal(t.n, r.events);
    for (int k = 0; k < SIM_NCOMP; k++) {
        assert_rel(t.bytes[k], r.sent_bytes[k], 1e-9);
        assert_rel(t.bytes_last[k], r.bytes[k], 1e-9);
    }
}

static void test_trace_sane(void **state)
{
    (void)state;
    const struct placement rc4 = {SIM_ACT_RECOMPUTE, 4, 0}, off = {SIM_ACT_OFFLOAD, 0, 1};
    check_trace("gpt3-xl", "cs2", 1, 1, 0, 8, NULL);
    check_trace("gpt3-xl", "cs3", 7, 3, 0.9, 20, NULL);
    check_trace("gpt3-175b", "cs2", 5, 2, 0, 5, NULL);
    check_trace("gpt3-xl", "cs2", 3, 2, 0, 12, &rc4);
    check_trace("gpt3-xl", "cs3", 2, 1, 0.5, 16, &off);
}

/* ---- 4. steady state ---- */

static void check_steady(const char *model, const char *hw, double systems, double units,
                         double global_seqs, double overlap)
{
    struct setup s;
    load(&s, model, hw, NULL);
    struct sim_result r2, r;
    struct sim_config c = config(&s, systems, units, 0, global_seqs, 2);
    c.overlap = overlap;
    run(&c, &r2);
    assert_true(r2.first_step_s > 0);
    assert_true(r2.step_s > 0);
    for (double steps = 3; steps <= 4; steps++) {
        c.steps = steps;
        run(&c, &r);
        assert_rel(r.step_s, r2.step_s, 1e-9);
        assert_true(r.first_step_s == r2.first_step_s); /* later steps cannot change it */
    }
}

static void test_steady_state(void **state)
{
    (void)state;
    check_steady("gpt3-xl", "cs2", 4, 1, 32, 0);
    check_steady("gpt3-xl", "cs3", 9, 2, 30, 1);
    check_steady("gpt3-175b", "cs2", 1, 1, 4, 0);
    check_steady("gpt3-175b", "cs3", 2, 3, 8, 1);
}

/* ---- 5. physical bounds ---- */

static void check_bounds(const char *model, const char *hw, double systems, double units,
                         double global_seqs)
{
    struct setup s;
    load(&s, model, hw, NULL);
    struct sim_config c = config(&s, systems, units, 0, global_seqs, 3);
    struct sim_result r;
    run(&c, &r);
    const struct hw_desc *h = &s.hw;
    const struct wl_desc *w = &s.wl;
    double m = r.micro_batches;
    assert_true(m >= 1 && m == floor(m));

    /* Streaming, dense (sparsity 0 streams every weight): each micro-batch
     * takes every weight in twice (forward, backward) and sends every
     * gradient out once, in and out on separate links, no faster than the
     * system, a SwarmX link or the MemoryX servers' network. */
    double mx_rate = c.mx_servers * h->mx.server_net_Bps;
    double rate = fmin(h->wse.io_bw_Bps, fmin(h->swx.link_bw_Bps, mx_rate));
    double in_s = 2 * m * tfm_weight_bytes(w) / rate;
    double out_s = m * tfm_grad_bytes(w) / rate;
    double stream_s = fmax(in_s, out_s);

    /* Compute on the most loaded system: ceil(G/N) sequences in m
     * micro-batches of t_i tokens, each at hw_util(t_i) = u t_i / (t_i + h)
     * of peak, so sum t_i / util(t_i) = (T + m h) / u whatever the split. */
    double tokens = ceil(global_seqs / systems) * w->seq_len;
    double flops = tfm_train_flops_per_token(w, w->recompute);
    double compute_s = flops * tokens / h->wse.peak_flops;
    double compute_util_s =
        flops * (tokens + m * h->wse.util_half_tokens) / (h->wse.peak_flops * h->wse.utilization);

    if (!(r.step_s >= stream_s * (1 - 1e-9) && r.step_s >= compute_s * (1 - 1e-9) &&
          r.step_s >= compute_util_s * (1 - 1e-9))) {
        print_error("%s on %s, N=%g, units=%g, batch %g: step %.9g s, streaming bound %.9g s, "
                    "compute bound %.9g s (%.9g s at the description's utilisation)\n",
                    model, hw, systems, units, global_seqs, r.step_s, stream_s, compute_s,
                    compute_util_s);
        fail();
    }
}

static void test_physical_bounds(void **state)
{
    (void)state;
    check_bounds("gpt3-xl", "cs2", 1, 1, 8);
    check_bounds("gpt3-xl", "cs3", 4, 3, 16);
    check_bounds("gpt3-xl", "cs2", 3, 1, 100);
    check_bounds("gpt3-175b", "cs2", 1, 1, 5); /* nearly compute-bound */
    check_bounds("gpt3-175b", "cs3", 2, 2, 12);
    check_bounds("gpt3-175b", "cs2", 16, 1, 16);
}

/* ---- 6. weak scaling ---- */

static void test_weak_scaling(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    const double n[] = {1, 4, 16};
    double step[NELEM(n)];
    for (size_t i = 0; i < NELEM(n); i++) {
        struct sim_config c = config(&s, n[i], 1, 0, 8 * n[i], 3);
        struct sim_result r;
        run(&c, &r);
        step[i] = r.step_s;
        if (i > 0 && !(step[i] > step[i - 1])) {
            print_error("step at N=%g (%.17g s) not above N=%g (%.17g s)\n", n[i], step[i],
                        n[i - 1], step[i - 1]);
            fail();
        }
    }
    assert_true(step[0] > 0);
    assert_true((step[NELEM(n) - 1] - step[0]) / step[0] < 0.05);
}

/* ---- 7. boundary overlap ---- */

static void check_overlap(const char *hw, double systems, double global_seqs)
{
    struct setup s;
    load(&s, "gpt3-175b", hw, NULL);
    struct sim_config c = config(&s, systems, 1, 0, global_seqs, 3);
    struct sim_result r0, rh, r1;
    c.overlap = 0;
    run(&c, &r0);
    c.overlap = 0.5;
    run(&c, &rh);
    c.overlap = 1;
    run(&c, &r1);
    if (!(r1.step_s < r0.step_s && r1.step_s <= rh.step_s && rh.step_s <= r0.step_s &&
          r0.step_s - r1.step_s < 0.01 * r0.step_s)) {
        print_error("%s, N=%g, batch %g: step %.17g s at overlap 0, %.17g at 0.5, %.17g at 1\n", hw,
                    systems, global_seqs, r0.step_s, rh.step_s, r1.step_s);
        fail();
    }
}

static void test_overlap(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-175b", "cs2", NULL);
    check_overlap("cs2", 1, s.wl.batch);
    check_overlap("cs2", 1, 4);
    check_overlap("cs3", 16, 64);
}

/* ---- 8. bad configuration ---- */

enum field {
    F_SYSTEMS,
    F_UNITS,
    F_STEPS,
    F_SEQS,
    F_SPARSITY,
    F_OVERLAP,
    F_MX_SERVERS,
    F_ACT,
    F_RECOMPUTE_K,
    F_OFFLOAD_SERVERS
};

static void test_bad_config(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    const struct {
        const char *option; /* the message must start with it and a colon */
        enum field f;
        double value;
    } bad[] = {
        {"--systems", F_SYSTEMS, 0},
        {"--systems", F_SYSTEMS, 1.5},
        {"--memoryx-units", F_UNITS, 0},
        {"--memoryx-units", F_UNITS, 65},
        {"--memoryx-units", F_UNITS, 3}, /* more units than the two servers */
        {"--memoryx-servers", F_MX_SERVERS, 0},
        {"--memoryx-servers", F_MX_SERVERS, 2.5},
        {"--activations", F_ACT, SIM_NACT},
        {"--activations", F_RECOMPUTE_K, 0},
        {"--activations", F_RECOMPUTE_K, 25}, /* gpt3-xl has 24 blocks */
        {"--activations", F_RECOMPUTE_K, 1.5},
        {"--act-servers", F_OFFLOAD_SERVERS, 0},
        {"--act-servers", F_OFFLOAD_SERVERS, 0.5},
        {"--steps", F_STEPS, 0},
        {"--batch", F_SEQS, 0},
        {"--batch", F_SEQS, 2.5},
        {"--sparsity", F_SPARSITY, -0.1},
        {"--sparsity", F_SPARSITY, 0.995},
        {"--sparsity", F_SPARSITY, NAN},
        {"--overlap", F_OVERLAP, 1.5},
        /* whole and in range, but too many micro-batches to hold in memory */
        {"--batch", F_SEQS, 1e12},
    };
    for (size_t i = 0; i < NELEM(bad); i++) {
        struct sim_config c = config(&s, 2, 1, 0, 8, 2);
        c.mx_servers = 2;
        switch (bad[i].f) {
        case F_SYSTEMS:
            c.systems = bad[i].value;
            break;
        case F_UNITS:
            c.units = bad[i].value;
            break;
        case F_STEPS:
            c.steps = bad[i].value;
            break;
        case F_SEQS:
            c.global_seqs = bad[i].value;
            break;
        case F_SPARSITY:
            c.sparsity = bad[i].value;
            break;
        case F_OVERLAP:
            c.overlap = bad[i].value;
            break;
        case F_MX_SERVERS:
            c.mx_servers = bad[i].value;
            break;
        case F_ACT:
            c.act = (enum sim_act)bad[i].value;
            break;
        case F_RECOMPUTE_K:
            c.act = SIM_ACT_RECOMPUTE;
            c.act_k = bad[i].value;
            break;
        case F_OFFLOAD_SERVERS:
            c.act = SIM_ACT_OFFLOAD;
            c.act_servers = bad[i].value;
            break;
        }
        struct sim_result r;
        struct cp_error err = {0};
        assert_int_equal(sim_run(&c, &r, &err), CP_EINPUT);
        assert_int_equal(err.status, CP_EINPUT);
        size_t len = strlen(bad[i].option);
        if (strncmp(err.msg, bad[i].option, len) != 0 || err.msg[len] != ':') {
            print_error("case %zu: message \"%s\" does not start with %s:\n", i, err.msg,
                        bad[i].option);
            fail();
        }
    }
    /* The same base configuration is accepted, and so are the fields that
     * the placement does not use: k without recompute, activation servers
     * without offload. */
    struct sim_config c = config(&s, 2, 1, 0, 8, 2);
    c.mx_servers = 2;
    struct sim_result r;
    run(&c, &r);
    c.act_k = 0;
    c.act_servers = 0;
    run(&c, &r);
    c.units = 2;
    run(&c, &r);
}

/* ---- 9. a trace callback that fails ---- */

struct stop_after {
    long long calls, stop_at;
};

static int stop_trace(void *ctx, const struct sim_interval *iv)
{
    struct stop_after *t = ctx;
    (void)iv;
    return ++t->calls >= t->stop_at;
}

static void test_trace_stops(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    const long long stop_at[] = {1, 1000};
    for (size_t i = 0; i < NELEM(stop_at); i++) {
        struct sim_config c = config(&s, 4, 2, 0, 8, 3);
        struct stop_after t = {0, stop_at[i]};
        c.trace = stop_trace;
        c.trace_ctx = &t;
        struct sim_result r;
        struct cp_error err = {0};
        assert_int_equal(sim_run(&c, &r, &err), CP_EIO);
        assert_int_equal(err.status, CP_EIO);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(t.calls, stop_at[i]); /* not called again */
    }
}

/* ---- 10. scale ---- */

static void test_large_tree(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-175b", "cs2", NULL);
    struct sim_config c = config(&s, 2048, 1, 0, 2048, 2);
    struct sim_result r;
    run(&c, &r);
    assert_true(isfinite(r.step_s) && r.step_s > 0);
    assert_int_equal(r.count[SIM_COMPUTE], 2048);
    assert_int_equal(r.count[SIM_SYS_INGRESS], 2048);
    assert_int_equal(r.depth, 11);
    assert_int_equal(r.nodes, 2047);
}

/* ---- 11. step overhead ---- */

/* sim.h: every component starts its first packet of a step step_overhead
 * after it otherwise could, which shifts step k by (k + 1) x the overhead:
 * the steady-state step and the first step grow by exactly that.  m: the
 * micro-batches the case is for. */
static void check_overhead(const char *model, const char *hw, double systems, double units,
                           double global_seqs, double overlap, const char *set,
                           const struct placement *pl, double m)
{
    const double overhead = 0.2375;
    char with[64];
    snprintf(with, sizeof with, "system.step_overhead=%.17g s", overhead);
    struct setup s0, s1;
    load2(&s0, model, hw, "system.step_overhead=0 s", set);
    load2(&s1, model, hw, with, set);
    struct sim_config c0 = config(&s0, systems, units, 0, global_seqs, 3);
    struct sim_config c1 = config(&s1, systems, units, 0, global_seqs, 3);
    place(&c0, pl);
    place(&c1, pl);
    c0.overlap = c1.overlap = overlap;
    struct sim_result r0, r1;
    run(&c0, &r0);
    run(&c1, &r1);
    if (r1.micro_batches != m) {
        print_error("%s on %g %s: %g micro-batches, want %g\n", model, systems, hw,
                    r1.micro_batches, m);
        fail();
    }
    if (!(fabs(r1.step_s - r0.step_s - overhead) <= 1e-9 * overhead &&
          fabs(r1.first_step_s - r0.first_step_s - overhead) <= 1e-9 * overhead)) {
        print_error("%s on %g %s: step %.17g -> %.17g s, first %.17g -> %.17g s\n", model, systems,
                    hw, r0.step_s, r1.step_s, r0.first_step_s, r1.first_step_s);
        fail();
    }
}

static void test_overhead(void **state)
{
    (void)state;
    /* gpt2-small: 12 block inputs of 2048 x 768 x 2 B, 37.7 MB a sequence;
     * one activation server of 100 MB holds 2 of the 23 a system takes */
    const struct placement rc5 = {SIM_ACT_RECOMPUTE, 5, 0}, off = {SIM_ACT_OFFLOAD, 0, 1};
    const char *small = "activation.server_memory=100 MB";
    check_overhead("gpt3-xl", "cs2", 4, 1, 32, 0, NULL, NULL, 3);
    check_overhead("gpt3-xl", "cs3", 9, 2, 30, 1, NULL, NULL, 2);
    check_overhead("gpt3-xl", "cs2", 3, 1, 20, 0.5, NULL, &WAFER, 3); /* micro-batches */
    check_overhead("gpt3-175b", "cs2", 1, 3, 4, 0, NULL, NULL, 1);
    check_overhead("gpt3-xl", "cs2", 2, 1, 40, 0, NULL, &rc5, 2);       /* recomputed forwards */
    check_overhead("gpt2-small", "cs3", 5, 1, 112, 0, small, &off, 12); /* offload, m > 1 */
}

/* ---- 12. jitter ---- */

/* System i computes 1 + jitter x hw_order_stat(i + 1, N) as long (sim.h);
 * the tree holds every system to the slowest, so a compute-bound step
 * grows by nearly that factor and never by more, and one system has no
 * jitter. */
static void test_jitter(void **state)
{
    (void)state;
    const double jitter = 0.0625, n = 64;
    struct setup s0, s1;
    load2(&s0, "gpt3-175b", "cs2", "system.jitter=0", "system.step_overhead=0 s");
    load2(&s1, "gpt3-175b", "cs2", "system.jitter=0.0625", "system.step_overhead=0 s");
    struct sim_config c0 = config(&s0, n, 1, 0, 16 * n, 2);
    struct sim_config c1 = config(&s1, n, 1, 0, 16 * n, 2);
    /* enough MemoryX servers that every layer's update hides in its
     * backward pass, and the activations offloaded so that the share runs
     * in one pass: compute-bound */
    c0.mx_servers = c1.mx_servers = 64;
    place(&c0, &(struct placement){SIM_ACT_OFFLOAD, 0, 12});
    place(&c1, &(struct placement){SIM_ACT_OFFLOAD, 0, 12});
    struct sim_result r0, r1;
    run(&c0, &r0);
    run(&c1, &r1);
    double f = 1 + jitter * hw_order_stat(n, n);
    assert_rel(r1.slowest, f, 1e-12);
    assert_true(r0.slowest == 1);
    double ratio = r1.step_s / r0.step_s;
    if (!(ratio > 1 + 0.8 * (f - 1) && ratio <= f * (1 + 1e-9))) {
        print_error("step grew x%.9g with the slowest system at x%.9g\n", ratio, f);
        fail();
    }
    c0.systems = c1.systems = 1;
    c0.global_seqs = c1.global_seqs = 16;
    run(&c0, &r0);
    run(&c1, &r1);
    assert_true(r1.step_s == r0.step_s);
}

/* ---- 13. where the activations go ---- */

/* Bytes and busy time per class and activity in the last step, from the
 * trace. */
enum activity { A_FORWARD, A_RECOMPUTE, A_BACKWARD, A_UPDATE, A_N };

struct pass_bytes {
    int last_step;
    double bytes[A_N][SIM_NCOMP], busy[A_N][SIM_NCOMP];
    long long intervals[A_N][SIM_NCOMP];
};

static int add_pass_bytes(void *ctx, const struct sim_interval *iv)
{
    static const char *const names[A_N] = {"forward", "recompute", "backward", "update"};
    struct pass_bytes *t = ctx;
    if (iv->step != t->last_step)
        return 0;
    for (int a = 0; a < A_N; a++)
        if (strcmp(iv->activity, names[a]) == 0) {
            t->bytes[a][iv->comp] += iv->bytes;
            t->busy[a][iv->comp] += iv->end_s - iv->start_s;
            t->intervals[a][iv->comp]++;
        }
    return 0;
}

/* SRAM one sequence needs (sim.h), from src/desc/tfm.h: l blocks' full
 * activations on the wafer; every k-th block input and k blocks' full
 * activations with recompute; one block's with offload; and the logits. */
static double sram_need(const struct wl_desc *w, const struct placement *pl)
{
    double in = tfm_act_bytes_per_seq_block(w, 1), full = tfm_act_bytes_per_seq_block(w, 0);
    double logits = w->predictions * w->vocab * w->act_bytes;
    if (pl->act == SIM_ACT_WAFER)
        return w->layers * full + logits;
    if (pl->act == SIM_ACT_RECOMPUTE)
        return ceil(w->layers / pl->k) * in + pl->k * full + logits;
    return full + logits;
}

/* One configuration of gpt3-xl on a CS-2 (set: an --set, or NULL): the
 * micro-batches it takes (worked out by hand in test_placement), what fits
 * in SRAM and on the activation servers, and with offload the block inputs
 * of every sequence leave on the systems' egress in the forward pass, at
 * the activation servers' rate, and come back on their ingress in the
 * backward pass. */
static void check_placement(const char *set, double systems, double global_seqs,
                            struct placement pl, double micro_batches)
{
    struct setup s;
    load(&s, "gpt3-xl", "cs2", set);
    const struct hw_desc *h = &s.hw;
    const struct wl_desc *w = &s.wl;
    struct sim_config c = config(&s, systems, 1, 0, global_seqs, 2);
    place(&c, &pl);
    struct pass_bytes t = {.last_step = 1};
    c.trace = add_pass_bytes;
    c.trace_ctx = &t;
    struct sim_result r;
    run(&c, &r);
    double local = ceil(global_seqs / systems);
    double fit = floor((h->wse.sram_bytes - 4 * h->swx.chunk_bytes) / sram_need(w, &pl));
    assert_true(r.max_seqs == fit);
    assert_int_equal(r.act, pl.act);
    if (r.micro_batches != micro_batches) {
        print_error("%g systems, %g sequences, placement %d k %g servers %g: %g micro-batches, "
                    "want %g\n",
                    systems, global_seqs, (int)pl.act, pl.k, pl.servers, r.micro_batches,
                    micro_batches);
        fail();
    }
    if (pl.act != SIM_ACT_OFFLOAD) {
        assert_true(r.act_bytes == 0 && t.bytes[A_FORWARD][SIM_SYS_EGRESS] == 0);
        return;
    }
    double per_seq = w->layers * tfm_act_bytes_per_seq_block(w, 1);
    assert_rel(r.store_seqs, floor(pl.servers * h->act.server_bytes / per_seq), 1e-12);
    assert_rel(r.act_bytes, local * per_seq, 1e-12);
    double all = global_seqs * per_seq;
    double rate = fmin(h->wse.io_bw_Bps, pl.servers * h->act.server_net_Bps);
    assert_rel(r.act_Bps, rate, 1e-12);
    assert_rel(t.bytes[A_FORWARD][SIM_SYS_EGRESS], all, 1e-9);
    assert_rel(t.bytes[A_BACKWARD][SIM_SYS_INGRESS] - t.bytes[A_FORWARD][SIM_SYS_INGRESS], all,
               1e-9);
    /* A system's egress works the activations at the servers' rate in the
     * forward pass and the gradients at its link's in the backward pass
     * (one system: the link into MemoryX, also at the servers' network). */
    double link = fmin(h->swx.link_bw_Bps, h->wse.io_bw_Bps);
    if (systems == 1)
        link = fmin(link, c.mx_servers * h->mx.server_net_Bps);
    double grads = t.bytes[A_BACKWARD][SIM_SYS_EGRESS];
    assert_rel(r.busy_s[SIM_SYS_EGRESS], all / rate + grads / link, 1e-9);
}

static void test_placement(void **state)
{
    (void)state;
    /* gpt3-xl: a block's input is 2048 x 2048 x 2 B = 8.39 MB a sequence
     * (201 MB for the 24 blocks), its full activations 478 MB, the logits
     * 206 MB.  In the 40 GB of a CS-2: 3 sequences on the wafer (11.7 GB
     * each), 45 with recompute every block (885 MB), 18 every 4 (2.17 GB),
     * 15 every 5 (2.64 GB, segments of 5, 5, 5, 5, 4), 58 with offload. */
    const struct placement rc1 = {SIM_ACT_RECOMPUTE, 1, 0}, rc4 = {SIM_ACT_RECOMPUTE, 4, 0},
                           rc5 = {SIM_ACT_RECOMPUTE, 5, 0};
    check_placement(NULL, 1, 2, WAFER, 1);
    check_placement(NULL, 3, 9, WAFER, 1);
    check_placement(NULL, 1, 8, WAFER, 3);  /* 3 + 3 + 2 */
    check_placement(NULL, 5, 20, WAFER, 2); /* 4 each */
    check_placement(NULL, 1, 100, rc1, 3);
    check_placement(NULL, 2, 80, rc4, 3); /* 40 each */
    check_placement(NULL, 1, 16, rc5, 2);
    check_placement(NULL, 1, 1, rc5, 1);
    /* Offload: a 183 GiB activation server holds 976 sequences' block
     * inputs; one of 700 MB holds 3, of 450 MB 2, of 100 MB none. */
    check_placement(NULL, 2, 16, (struct placement){SIM_ACT_OFFLOAD, 0, 1}, 1);
    check_placement(NULL, 2, 16, (struct placement){SIM_ACT_OFFLOAD, 0, 20}, 1); /* at I/O rate */
}

/* The activation servers' memory, not SRAM, sets the micro-batches with
 * offload: more servers hold more sequences, until the share runs in one
 * pass; when they hold none, one sequence at a time. */
static void test_act_servers(void **state)
{
    (void)state;
    const char *s700 = "activation.server_memory=700 MB";
    const char *s450 = "activation.server_memory=450 MB";
    const char *s100 = "activation.server_memory=100 MB";
    for (double a = 1; a <= 3; a++) {
        /* 8 sequences: 3 a server, so 3 micro-batches (3 + 3 + 2), then 2, then 1 */
        static const double m[] = {3, 2, 1};
        check_placement(s700, 1, 8, (struct placement){SIM_ACT_OFFLOAD, 0, a}, m[(int)a - 1]);
    }
    check_placement(s450, 3, 22, (struct placement){SIM_ACT_OFFLOAD, 0, 1}, 4); /* 8 each */
    check_placement(s100, 2, 10, (struct placement){SIM_ACT_OFFLOAD, 0, 1}, 5); /* none */
    check_placement(s100, 2, 10, (struct placement){SIM_ACT_OFFLOAD, 0, 2}, 5); /* 200 MB: none */
    check_placement(s100, 2, 10, (struct placement){SIM_ACT_OFFLOAD, 0, 3}, 5); /* one */
    check_placement(s100, 2, 10, (struct placement){SIM_ACT_OFFLOAD, 0, 5}, 3); /* two */
}

/* ---- 14. recompute every k blocks ---- */

/* The compute engine of system 0 in the last step: which layer in which
 * activity, in order. */
struct compute_order {
    int last_step;
    int n;
    int layer[512];
    char kind[512]; /* 'f', 'r', 'b' */
};

static int add_compute_order(void *ctx, const struct sim_interval *iv)
{
    struct compute_order *t = ctx;
    if (iv->step != t->last_step || iv->comp != SIM_COMPUTE || iv->index != 0 ||
        iv->micro_batch != 0 || iv->packet != 0 || t->n == (int)NELEM(t->layer))
        return 0;
    t->layer[t->n] = iv->layer;
    t->kind[t->n++] = iv->activity[0];
    return 0;
}

/* With segments of k > 1 blocks every block's weights stream in a third
 * time, before its segment's backward: the bytes every link down the tree
 * carries per step grow by exactly the blocks' weights for each
 * micro-batch, the system computes each block's forward once more, and the
 * backward pass runs the segments from the last, each forward in order and
 * then backward in reverse.  k = 1 streams nothing more. */
static void check_segments(double k, double systems, double units, double sparsity)
{
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    const struct wl_desc *w = &s.wl;
    const struct hw_desc *h = &s.hw;
    struct sim_config c = config(&s, systems, units, sparsity, 4 * systems, 2);
    place(&c, &(struct placement){SIM_ACT_RECOMPUTE, k, 0});
    struct pass_bytes t = {.last_step = 1};
    c.trace = add_pass_bytes;
    c.trace_ctx = &t;
    struct sim_result r;
    run(&c, &r);
    double m = r.micro_batches;
    double mat = tfm_block_matrix_params(w), other = tfm_block_params(w) - mat;
    double wf = hw_sparse_stream(&h->sp, sparsity, w->weight_bytes);
    double block = (mat * wf + other) * w->weight_bytes;
    double third = k > 1 ? m * w->layers * block : 0;
    /* every system's ingress carries them */
    assert_rel(t.bytes[A_RECOMPUTE][SIM_SYS_INGRESS], systems * third, 1e-9);
    assert_rel(t.bytes[A_FORWARD][SIM_SYS_INGRESS], t.bytes[A_BACKWARD][SIM_SYS_INGRESS], 1e-12);
    assert_rel(r.bytes[SIM_SYS_INGRESS], 2 * t.bytes[A_FORWARD][SIM_SYS_INGRESS] + systems * third,
               1e-9);
    assert_int_equal(t.intervals[A_RECOMPUTE][SIM_COMPUTE],
                     (long long)(k > 1 ? systems * m * w->layers : 0));
    assert_true(t.bytes[A_RECOMPUTE][SIM_SYS_EGRESS] == 0 &&
                t.bytes[A_RECOMPUTE][SIM_MX_INGRESS] == 0);

    /* The order on one compute engine, first micro-batch, first packet of
     * each layer. */
    struct compute_order o = {.last_step = 1};
    c.trace = add_compute_order;
    c.trace_ctx = &o;
    run(&c, &r);
    int l = (int)w->layers, n = 0;
    int want_layer[512];
    char want_kind[512];
    for (int i = 0; i <= l + 1; i++)
        want_layer[n] = i, want_kind[n++] = 'f';
    want_layer[n] = l + 1, want_kind[n++] = 'b';
    for (int hi = l; hi >= 1;) {
        int lo = k > 1 ? hi - ((hi - 1) % (int)k) : hi; /* segments 1..k, k+1..2k, ... */
        for (int i = lo; k > 1 && i <= hi; i++)
            want_layer[n] = i, want_kind[n++] = 'r';
        for (int i = hi; i >= lo; i--)
            want_layer[n] = i, want_kind[n++] = 'b';
        hi = lo - 1;
    }
    want_layer[n] = 0, want_kind[n++] = 'b';
    assert_int_equal(o.n, n);
    for (int i = 0; i < n; i++)
        if (o.layer[i] != want_layer[i] || o.kind[i] != want_kind[i]) {
            print_error("k %g: compute %d is %c%d, want %c%d\n", k, i, o.kind[i], o.layer[i],
                        want_kind[i], want_layer[i]);
            fail();
        }
}

static void test_recompute_segments(void **state)
{
    (void)state;
    check_segments(1, 1, 1, 0);
    check_segments(4, 1, 1, 0);
    check_segments(5, 3, 2, 0.5);  /* segments of 5, 5, 5, 5, 4 */
    check_segments(24, 2, 1, 0.9); /* one segment of every block */
}

/* ---- 15. MemoryX servers ---- */

/* gpt3-xl on 4 CS-2 whose MemoryX servers update at 1 GFLOP/s is
 * update-bound (each layer's update takes longer than its backward pass);
 * every layer's update is shared by the servers, so twice the servers take
 * half the update time, and the step falls by nearly what the update
 * saved.  8 and 16 servers, so that their network (37.5 GB/s each) stays
 * above the system's port and the streams do not change. */
static void test_mx_servers_update(void **state)
{
    (void)state;
    struct setup s;
    load2(&s, "gpt3-xl", "cs2", "system.step_overhead=0 s",
          "memoryx.server_update_flops=1 GFLOP/s");
    struct sim_result r[2];
    for (int i = 0; i < 2; i++) {
        struct sim_config c = config(&s, 4, 1, 0, 64, 3);
        c.mx_servers = 8 << i;
        run(&c, &r[i]);
    }
    assert_int_equal(r[0].count[SIM_UPDATE], 1);
    assert_rel(r[0].busy_s[SIM_UPDATE], 2 * r[1].busy_s[SIM_UPDATE], 1e-12);
    /* update-bound: the update engine is busy all the step but the
     * forward pass (which waits for the embedding's update, the last) */
    if (!(r[0].busy_s[SIM_UPDATE] > 0.85 * r[0].step_s)) {
        print_error("update %.9g s of a step of %.9g s\n", r[0].busy_s[SIM_UPDATE], r[0].step_s);
        fail();
    }
    double saved = r[0].busy_s[SIM_UPDATE] - r[1].busy_s[SIM_UPDATE];
    double fell = r[0].step_s - r[1].step_s;
    if (!(fell > 0.8 * saved && fell <= saved * (1 + 1e-9))) {
        print_error("update %.9g s -> %.9g s, step %.9g s -> %.9g s\n", r[0].busy_s[SIM_UPDATE],
                    r[1].busy_s[SIM_UPDATE], r[0].step_s, r[1].step_s);
        fail();
    }
    /* The update of one layer: one server's FLOPs for 1/S of it. */
    const struct wl_desc *w = &s.wl;
    double per_param = s.hw.mx.update_flop_per_param / s.hw.mx.server_update_flops;
    assert_rel(r[0].busy_s[SIM_UPDATE], tfm_params(w) / 8 * per_param, 1e-9);
}

/* With S servers MemoryX sends and takes S x server_network (when that is
 * below the port): one CS-2 with one server (37.5 GB/s) streams at a
 * quarter of the system's 150 GB/s, and the MemoryX links are busy for the
 * bytes at that rate. */
static void test_mx_servers_network(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    struct sim_config c = config(&s, 2, 1, 0, 4, 2);
    c.mx_servers = 1;
    struct sim_result r;
    run(&c, &r);
    double rate = s.hw.mx.server_net_Bps;
    assert_true(rate < s.hw.wse.io_bw_Bps);
    assert_rel(r.busy_s[SIM_MX_EGRESS], r.bytes[SIM_MX_EGRESS] / rate, 1e-9);
    assert_rel(r.busy_s[SIM_MX_INGRESS], r.bytes[SIM_MX_INGRESS] / rate, 1e-9);
    assert_true(r.step_s >= r.bytes[SIM_MX_EGRESS] / rate);
}

/* State beyond the servers' DRAM goes to their flash: the share on flash,
 * and the update reading and writing it there. */
static void test_flash(void **state)
{
    (void)state;
    struct setup s;
    load2(&s, "gpt3-175b", "cs2", "memoryx.server_flash=4 TB",
          "memoryx.server_flash_bandwidth=5 GB/s");
    const struct wl_desc *w = &s.wl;
    double per_param = w->weight_bytes + 2 * w->master_bytes + w->optimizer_bytes;
    double state_bytes = tfm_params(w) * per_param;
    for (double servers = 1; servers <= 4; servers++) {
        struct sim_config c = config(&s, 1, 1, 0, 1, 2);
        c.mx_servers = servers;
        struct sim_result r;
        run(&c, &r);
        double dram = servers * s.hw.mx.server_dram_bytes;
        double flash = state_bytes > dram ? (state_bytes - dram) / state_bytes : 0;
        assert_rel(r.flash_fraction, flash, 1e-12);
        assert_rel(r.mx_bytes, servers * (s.hw.mx.server_dram_bytes + s.hw.mx.server_flash_bytes),
                   1e-12);
        /* one server's memory time on 1/S of the state, read and written */
        double mem_s =
            2 * state_bytes / servers *
            ((1 - flash) / s.hw.mx.server_mem_bw_Bps + flash / s.hw.mx.server_flash_bw_Bps);
        double flop_s =
            tfm_params(w) / servers * s.hw.mx.update_flop_per_param / s.hw.mx.server_update_flops;
        assert_rel(r.busy_s[SIM_UPDATE], fmax(mem_s, flop_s), 1e-9);
    }
}

/* ---- 16. SwarmX reduce bandwidth ---- */

/* A node sums its children's gradients at reduce_bandwidth in all, so with
 * 4 children each stream moves at most a quarter of it: 100 GB/s gives
 * 25 GB/s, below the 150 GB/s of a link.  The links up the tree and into
 * MemoryX are busy for their bytes at that rate, and the step is at least
 * every gradient at it; one system has no node to sum at and is not
 * capped. */
static void test_reduce_cap(void **state)
{
    (void)state;
    struct setup lo, hi;
    load2(&lo, "gpt3-xl", "cs3", "swarmx.reduce_bandwidth=100 GB/s", "system.step_overhead=0 s");
    load2(&hi, "gpt3-xl", "cs3", "swarmx.reduce_bandwidth=600 GB/s", "system.step_overhead=0 s");
    assert_true(lo.hw.swx.fanout == 4);
    double cap = lo.hw.swx.reduce_Bps / lo.hw.swx.fanout;
    assert_true(cap < fmin(lo.hw.swx.link_bw_Bps, lo.hw.wse.io_bw_Bps));
    struct sim_result rl, rh;
    struct sim_config cl = config(&lo, 16, 1, 0, 16, 2), ch = config(&hi, 16, 1, 0, 16, 2);
    run(&cl, &rl);
    run(&ch, &rh);
    assert_int_equal(rl.count[SIM_SWX_UP], 4); /* 4 nodes of 4 under the top node of 4 */
    assert_rel(rl.busy_s[SIM_SWX_UP], rl.bytes[SIM_SWX_UP] / cap, 1e-9);
    assert_rel(rl.busy_s[SIM_MX_INGRESS], rl.bytes[SIM_MX_INGRESS] / cap, 1e-9);
    assert_true(rl.step_s >= tfm_grad_bytes(&lo.wl) / cap);
    assert_true(rl.step_s > rh.step_s);
    /* 600 GB/s / 4 is the link's 150 GB/s: not below it */
    assert_rel(rh.busy_s[SIM_SWX_UP], rh.bytes[SIM_SWX_UP] / hi.hw.swx.link_bw_Bps, 1e-9);
    cl = config(&lo, 1, 1, 0, 16, 2);
    ch = config(&hi, 1, 1, 0, 16, 2);
    run(&cl, &rl);
    run(&ch, &rh);
    assert_true(rl.step_s == rh.step_s);
}

/* ---- 17. large chunks ---- */

/* Flow control counts bytes: a buffer of two 256 MB chunks holds many
 * 14.5 MB sparse blocks, so they queue behind the embedding and MemoryX
 * sends the forward pass back to back instead of one block per hop time. */
static int egress_gaps(void *ctx, const struct sim_interval *iv)
{
    double *t = ctx; /* [0]: end of the previous forward packet, [1]: largest gap */
    if (iv->comp != SIM_MX_EGRESS || iv->step != 1 || iv->micro_batch != 0 ||
        strcmp(iv->activity, "forward") != 0)
        return 0;
    if (t[0] > 0)
        t[1] = fmax(t[1], iv->start_s - t[0]);
    t[0] = iv->end_s;
    return 0;
}

static void test_large_chunk(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs3", "swarmx.chunk=256 MB");
    struct sim_config c = config(&s, 128, 1, 0.9, 512, 2);
    double t[2] = {0, 0};
    c.trace = egress_gaps;
    c.trace_ctx = t;
    struct sim_result r;
    run(&c, &r);
    if (!(t[1] <= 1e-12)) {
        print_error("MemoryX egress idles %.9g s between forward packets\n", t[1]);
        fail();
    }
}

/* ---- 18. the simulator's limits ---- */

/* A run of exactly max_events events runs; one more is refused before it
 * starts, naming --max-events and the count; so is a bound out of range. */
static void test_event_bound(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", "swarmx.fanout=3");
    struct sim_config c = config(&s, 7, 2, 0.5, 30, 3);
    struct sim_size z;
    struct cp_error err = {0};
    assert_ok(sim_size(&c, &z, &err), err);
    struct sim_result r;
    c.max_events = z.events;
    run(&c, &r);
    assert_true((double)r.events == z.events);
    char count[64];
    snprintf(count, sizeof count, "take %.4g events", z.events);
    c.max_events = z.events - 1;
    expect_refused(c, "--max-events", count);
    const double bad[] = {0.5, -1, 1.5, 2e15, NAN, INFINITY};
    for (size_t i = 0; i < NELEM(bad); i++) {
        c.max_events = bad[i];
        expect_refused(c, "--max-events", NULL);
    }
    /* 0 is the default bound, which 120T on 2048 CS-3 for 1000 steps
     * (1.6e10 events, 20 minutes) passes */
    c.max_events = 0;
    run(&c, &r);
    struct setup big;
    load(&big, "120t", "cs3", NULL);
    struct sim_config b = config(&big, 2048, 1, 0, 2048, 1000);
    expect_refused(b, "--max-events", "raise --max-events");
    b.max_events = SIM_CEIL_EVENTS;
    assert_ok(sim_size(&b, &z, &err), err);
    assert_true(z.events > 1e10);
}

/* Blocks and fan-outs the simulator counts in ints: too many blocks for a
 * step's packets are refused naming model.layers (not --batch, whatever the
 * micro-batches); a fan-out beyond an int is one node over all systems, as
 * a fan-out of N is, instead of a tree of nothing. */
static void test_desc_limits(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    const double layers[] = {1e9, 9007199254740992.0, 999999, 999998, 12.5, 0};
    for (size_t i = 0; i < NELEM(layers); i++) {
        struct setup t = s;
        t.wl.layers = layers[i];
        expect_refused(config(&t, 1, 1, 0, 1, 1), "model.layers", NULL);
    }
    const double bad_fanout[] = {1, 2.5, NAN};
    for (size_t i = 0; i < NELEM(bad_fanout); i++) {
        struct setup t = s;
        t.hw.swx.fanout = bad_fanout[i];
        expect_refused(config(&t, 5, 1, 0, 10, 2), "swarmx.fanout", NULL);
    }
    struct setup t = s;
    t.hw.swx.fanout = 5;
    struct sim_config c = config(&t, 5, 2, 0, 10, 2);
    struct sim_result one, r;
    run(&c, &one);
    assert_int_equal(one.nodes, 1);
    const double huge[] = {6, 1e9, 2147483648.0, 4294967298.0, 9007199254740992.0, 1e300};
    for (size_t i = 0; i < NELEM(huge); i++) {
        t.hw.swx.fanout = huge[i];
        run(&c, &r);
        check_size(&c, &r);
        assert_int_equal(r.nodes, 1);
        assert_int_equal(r.depth, 1);
        assert_true(r.step_s == one.step_s && r.events == one.events);
    }
}

/* Memory is estimated before anything is allocated: 10^6 systems of a
 * model of 10^6 blocks over 64 units (allowed as many events as can be)
 * would take more than SIM_MAX_BYTES and are refused, naming the figure
 * that takes the most; either alone is within it. */
static void test_memory_bound(void **state)
{
    (void)state;
    struct setup s;
    load(&s, "gpt3-xl", "cs2", NULL);
    s.wl.layers = 999000;
    struct sim_config c = config(&s, 1e6, 64, 0, 1e6, 1);
    c.mx_servers = 64;
    c.act = SIM_ACT_WAFER;
    c.max_events = SIM_CEIL_EVENTS;
    expect_refused(c, "-n", "the simulator takes at most");
    struct sim_size z;
    struct cp_error err = {0};
    c.systems = 1;
    c.global_seqs = 1;
    assert_ok(sim_size(&c, &z, &err), err);
    assert_true(z.bytes > 5e8 && z.bytes <= SIM_MAX_BYTES);
    s.wl.layers = 24;
    c.systems = 1e6;
    c.global_seqs = 1e6;
    assert_ok(sim_size(&c, &z, &err), err);
    assert_true(z.bytes > 1e9 && z.bytes <= SIM_MAX_BYTES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conservation),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_trace_sane),
        cmocka_unit_test(test_steady_state),
        cmocka_unit_test(test_physical_bounds),
        cmocka_unit_test(test_weak_scaling),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_trace_stops),
        cmocka_unit_test(test_large_tree),
        cmocka_unit_test(test_overhead),
        cmocka_unit_test(test_jitter),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_act_servers),
        cmocka_unit_test(test_recompute_segments),
        cmocka_unit_test(test_mx_servers_update),
        cmocka_unit_test(test_mx_servers_network),
        cmocka_unit_test(test_flash),
        cmocka_unit_test(test_reduce_cap),
        cmocka_unit_test(test_large_chunk),
        cmocka_unit_test(test_event_bound),
        cmocka_unit_test(test_desc_limits),
        cmocka_unit_test(test_memory_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
