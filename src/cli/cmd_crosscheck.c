/* cmd_crosscheck.c - `crosscheck`: the analytic model against the timing
 * simulator on a grid that covers every regime and mechanism (activation
 * placement, MemoryX and activation servers, flash, the reduce bandwidth,
 * jitter, step overhead, SwarmX chunk); worst points first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "produce.h"
#include "../model/train.h"
#include "../sim/sim.h"
#include "scenario.h"

/* Targets (issue: max |rel_diff| <= 2 %, median <= 0.5 %). */
#define XC_MAX_TOL 0.02
#define XC_MEDIAN_TOL 0.005

/* One grid point.  batch 0: the model's; tier NULL: the servers sized for
 * the run, or mx_servers. */
struct xc_vary {
    const char *set;    /* a --set applied to both, or NULL                 */
    const char *set2;   /* a second, or NULL                                */
    double mx_servers;  /* MemoryX servers (0: the tier's, or sized)        */
    double act_servers; /* activation servers per system (0: sized)        */
    const char *act;    /* --activations (NULL: auto, the fastest that fits) */
};

struct xc_point {
    const char *model, *system;
    double systems, batch, sparsity;
    const char *tier;
    double overlap;
    double units;     /* MemoryX units in the simulator (0: one)            */
    struct xc_vary v; /* what else the point varies ({0}: nothing)          */
};

/* Flash of a size and bandwidth on each of few MemoryX servers: their DRAM
 * cannot hold the state and flash, much slower, takes the rest. */
#define XC_FLASH(size, rate, servers)                                                              \
    {                                                                                              \
        .set = "memoryx.server_flash=" size, .set2 = "memoryx.server_flash_bandwidth=" rate,       \
        .mx_servers = servers                                                                      \
    }

/* MemoryX servers large enough to hold the largest block of state whole. */
#define XC_BIG_SERVERS "memoryx.server_memory=4 TB"

/* Activations offloaded to so many activation servers per system. */
#define XC_OFFLOAD(servers) .act_servers = servers, .act = "offload"

/* Regimes are named by the analytic bottleneck of each point; the comments
 * say what the point was chosen for. */
static const struct xc_point grid[] = {
    /* the headline job and its published cluster sizes */
    {"gpt3-175b", "cs2", 1, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 192, 0, 0.5, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 7, 1540, 0, NULL, 0, 0, {0}},    /* uneven tree */
    {"gpt3-175b", "cs2", 2048, 2048, 0, NULL, 0, 0, {0}}, /* one sequence each */
    /* sparsity 0..0.95 */
    {"gpt3-175b", "cs2", 16, 0, 0.5, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0.9, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs2", 16, 0, 0.95, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 64, 1024, 0.75, NULL, 1, 0, {0}},
    /* stream-bound: small model, small batch per system */
    {"gpt3-xl", "cs2", 1, 8, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 16, 0, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs3", 128, 512, 0.9, NULL, 0, 0, {0}},
    /* latency-bound: small model, one sequence per system, deep tree */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs3", 512, 512, 0, NULL, 1, 0, {0}},
    {"gpt3-xl", "cs2", 256, 256, 0, NULL, 0.5, 0, {0}},
    /* compute-bound: long micro-batches */
    {"llama2-70b", "cs2", 1, 64, 0, NULL, 0, 0, {0}},
    {"llama2-70b", "cs3", 32, 0, 0, NULL, 0, 0, {0}},
    {"llama2-70b", "cs2", 8, 0, 0.75, NULL, 1, 0, {0}},
    /* flash: state beyond the DRAM of few MemoryX servers, update-bound */
    {"megatron-1t", "cs2", 16, 64, 0, NULL, 0, 0, XC_FLASH("4 TB", "5 GB/s", 8)},
    {"megatron-1t", "cs2", 4, 16, 0.9, NULL, 0, 2, XC_FLASH("4 TB", "5 GB/s", 6)},
    {"gpt3-175b", "cs3", 16, 0, 0, NULL, 0, 0, XC_FLASH("2 TB", "20 GB/s", 2)},
    {"megatron-1t", "cs3", 16, 0, 0, NULL, 0, 0, {0}},
    {"megatron-1t", "cs3", 64, 256, 0.5, NULL, 1, 0, {0}},
    /* the largest published tier: thousands of servers */
    {"gpt3-175b", "cs2", 32, 256, 0, "2.4PB", 0, 0, {0}},
    {"gpt3-xl", "cs2", 8, 64, 0, "2.4PB", 0, 0, {0}},
    /* few MemoryX servers: their network or their update binds */
    {"gpt3-xl", "cs2", 4, 64, 0, NULL, 0, 0, {.mx_servers = 1}},
    {"gpt3-xl", "cs3", 1, 16, 0, NULL, 0, 0, {.mx_servers = 1}},
    {"llama2-70b", "cs2", 8, 0, 0, NULL, 0, 2, {.mx_servers = 2}},
    {"gpt3-175b", "cs3", 16, 0, 0, NULL, 0, 0, {.mx_servers = 3}},
    /* gradients capped by what a SwarmX node sums, reduce_bandwidth over
     * its fan-out */
    {"gpt3-175b", "cs3", 192, 0, 0.5, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=200 GB/s"}},
    {"gpt3-xl", "cs3", 64, 64, 0, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=100 GB/s"}},
    {"gpt3-xl", "cs2", 64, 512, 0, NULL, 0, 0, {.set = "swarmx.reduce_bandwidth=100 GB/s"}},
    /* the largest models, one sequence per system (a block of 100T and 120T
     * holds 2.1 TB of state, which a server must hold whole) */
    {"10t", "cs3", 16, 16, 0, NULL, 0, 0, {0}},
    {"100t", "cs3", 8, 8, 0.9, NULL, 0, 0, {.set = XC_BIG_SERVERS}},
    {"120t", "cs2", 4, 4, 0, NULL, 0, 0, {.set = XC_BIG_SERVERS}},
    {"120t", "cs3", 32, 32, 0.95, NULL, 1, 0, {.set = XC_BIG_SERVERS}},
    /* latency-bound: slow SwarmX hops (the published figure is withheld) */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {.set = "swarmx.hop_latency=8ms"}},
    {"gpt3-xl", "cs3", 100, 100, 0.5, NULL, 0.5, 0, {.set = "swarmx.hop_latency=1ms"}},
    {"gpt3-175b", "cs2", 512, 512, 0, NULL, 1, 0, {.set = "swarmx.hop_latency=2ms"}},
    /* several MemoryX units, other fan-outs, uneven shares */
    {"gpt3-175b", "cs2", 64, 1024, 0, NULL, 0, 4, {0}},
    {"gpt3-xl", "cs3", 48, 480, 0.5, NULL, 0, 3, {.set = "swarmx.fanout=3"}},
    {"llama2-70b", "cs2", 5, 1031, 0, NULL, 0, 2, {.set = "swarmx.fanout=4"}},
    /* activations on the wafer: a small batch in one pass, and a larger
     * one in micro-batches of what SRAM holds */
    {"gpt3-xl", "cs2", 1, 2, 0, NULL, 0, 0, {0}},
    {"bert-large", "cs3", 64, 4096, 0, NULL, 0, 0, {0}},
    {"gpt3-xl", "cs2", 1, 9, 0, NULL, 0, 0, {.act = "wafer"}},
    /* recompute every block, in micro-batches of what SRAM holds */
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, {.act = "recompute:1"}},
    /* recompute every k blocks: each block's weights stream in a third
     * time before its segment's backward; segments of 4 and of 5, 5, 5,
     * 5, 4 blocks; and GPT-3 175B in micro-batches of one sequence */
    {"gpt3-xl", "cs2", 16, 256, 0, NULL, 0, 0, {.act = "recompute:4"}},
    {"gpt3-xl", "cs3", 1, 16, 0.5, NULL, 0, 0, {.act = "recompute:5"}},
    {"gpt3-175b", "cs3", 192, 0, 0, NULL, 0, 0, {.act = "recompute:8"}},
    /* offloaded to the activation servers, in one micro-batch; a small
     * model whose last block's activations leave while the logits layer
     * runs */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    {"gpt2-small", "cs2", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    {"gpt2-small", "cs3", 1, 0, 0, NULL, 0, 0, {.act = "offload"}},
    /* offloaded to few activation servers: micro-batches of what they hold
     * at their rate, and one sequence at a time when they hold none (the
     * model flags that) */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, {XC_OFFLOAD(1)}},
    {"gptj-6b", "cs2", 2, 0, 0, NULL, 0, 2, {XC_OFFLOAD(2)}},
    {"gpt3-xl", "cs2", 4, 16, 0, NULL, 0, 0, {"activation.server_memory=100 MB", XC_OFFLOAD(1)}},
    /* jitter: the slowest of many systems sets every layer's pace */
    {"llama2-70b", "cs3", 2048, 8192, 0, NULL, 0, 0, {0}},
    {"gpt3-175b", "cs3", 2048, 16384, 0, NULL, 0, 0, {.set = "system.jitter=0.1"}},
    /* the fixed step overhead dominates small models */
    {"gpt2-small", "cs3", 16, 0, 0, NULL, 0, 0, {0}},
    {"bert-large", "cs2", 4, 0, 0, NULL, 0, 0, {0}},
    {"llama-7b", "cs2", 8, 0, 0.5, NULL, 0, 0, {0}},
    /* SwarmX chunks of 64 and 256 MB: a chunk larger than a sparse block
     * (flow control counts bytes, so small packets queue behind a large
     * one), a chunk that is a large part of the first layer */
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, {.set = "swarmx.chunk=64 MB"}},
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, {.set = "swarmx.chunk=64 MB"}},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, {.set = "swarmx.chunk=256 MB"}},
    {"llama2-70b", "cs2", 256, 256, 0.9, NULL, 0, 0, {.set = "swarmx.chunk=256 MB"}},
    {"gpt3-xl",
     "cs2",
     1024,
     1024,
     0.95,
     NULL,
     0,
     0,
     {.set = "swarmx.chunk=256 MB"}}, /* chunk > embedding */
};
#define XC_NPOINTS (sizeof grid / sizeof grid[0])

struct xc_row {
    const struct xc_point *p;
    char tier[DESC_NAME_MAX];
    char act[32]; /* the analytic model's placement, "recompute:4" */
    double batch, analytic_s, sim_s, rel, wall_s;
    long long events;
    enum step_res regime;
    double mx_servers, act_servers; /* as the analytic model settled them */
    double micro_batches;           /* the simulator's */
    int placement_ok;               /* both hold as many sequences in SRAM (and on the activation
                                       servers) and run as many micro-batches */
};

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static enum sim_act sim_placement(enum act_mode a)
{
    return a == ACT_OFFLOAD ? SIM_ACT_OFFLOAD : a == ACT_WAFER ? SIM_ACT_WAFER : SIM_ACT_RECOMPUTE;
}

/* The simulator's own count of what SRAM and the activation servers hold,
 * and so of the micro-batches, against the analytic model's. */
static int same_placement(const struct sim_result *sr, const struct step_result *st)
{
    return sr->micro_batches == st->micro_batches && sr->max_seqs == st->max_seqs &&
           (st->act != ACT_OFFLOAD || sr->store_seqs == st->store_seqs);
}

/* o with the point's own --set options added, into po; -1 or an exit
 * code after a message. */
static int point_opts(const struct cli_opts *o, const struct xc_point *p, struct cli_opts *po)
{
    *po = *o;
    const char *sets[] = {p->v.set, p->v.set2};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (!sets[i])
            continue;
        if (po->nsets == CLI_MAX_SETS)
            return cli_error("crosscheck: too many --set options");
        po->sets[po->nsets++] = sets[i];
    }
    return -1;
}

/* The point's scenario, loaded and set up as the grid gives it (systems,
 * sparsity, overlap, batch, MemoryX, activations) and checked, into s;
 * -1 or an exit code after a message. */
static int point_scenario(const struct cli_opts *o, const struct xc_point *p, struct scenario *s)
{
    static struct cli_opts po;
    int rc = point_opts(o, p, &po);
    if (rc >= 0 || (rc = scenario_load_names(&po, p->model, p->system, s)) >= 0)
        return rc;
    struct cluster *c = &s->c;
    c->systems = p->systems;
    c->sparsity = p->sparsity;
    c->overlap = p->overlap;
    if (p->batch > 0)
        c->global_seqs = p->batch;
    if (p->tier) {
        if ((rc = scenario_memoryx(s, p->tier)) >= 0)
            return rc;
    } else if (p->v.mx_servers > 0) {
        c->mx_servers = p->v.mx_servers;
        snprintf(s->tier, sizeof s->tier, "%g servers", p->v.mx_servers);
    } else {
        scenario_auto_tier(s);
    }
    c->act_servers = p->v.act_servers;
    if (p->v.act && (rc = scenario_activations(c, p->v.act)) >= 0)
        return rc;
    struct cp_error err = {0};
    if (cluster_check(c, &err) != CP_OK)
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system, err.msg);
    return -1;
}

/* The simulator's configuration for the point: the servers and placement
 * the analytic model settled (st), not its arithmetic. */
static void point_sim_config(const struct xc_point *p, const struct scenario *s,
                             const struct step_result *st, struct sim_config *sc)
{
    const struct cluster *c = &s->c;
    sim_config_init(sc, &s->hw, &s->wl);
    sc->systems = c->systems;
    sc->mx_servers = st->mx_servers;
    sc->act = sim_placement(st->act);
    sc->act_k = st->act == ACT_RECOMPUTE ? st->act_k : 0;
    sc->act_servers = st->act == ACT_OFFLOAD ? st->act_servers : 0;
    sc->sparsity = c->sparsity;
    sc->overlap = c->overlap;
    sc->global_seqs = c->global_seqs;
    if (p->units > 0)
        sc->units = p->units;
    sc->max_events = SIM_CEIL_EVENTS; /* the grid's total is bounded (crosscheck_table) */
}

/* Size the point's simulation and add its events to *events; -1 or an
 * exit code after a message. */
static int point_events(const struct cli_opts *o, const struct xc_point *p,
                        const struct scenario *s, const struct sim_config *sc, double *events)
{
    struct sim_size z;
    struct cp_error err = {0};
    char msg[CP_ERROR_MAX];
    if (sim_size(sc, &z, &err) != CP_OK)
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system,
                         scenario_batch_msg(o, s, p->batch > 0, err.msg, msg, sizeof msg));
    *events += z.events;
    return -1;
}

/* The row of a point: the analytic step st against the simulated sr, the
 * simulation's wall time counted from t0. */
static void point_row(struct xc_row *row, const struct xc_point *p, const struct scenario *s,
                      const struct step_result *st, const struct sim_config *sc,
                      const struct sim_result *sr, double t0)
{
    *row = (struct xc_row){.p = p, .batch = s->c.global_seqs};
    snprintf(row->tier, sizeof row->tier, "%s", s->tier);
    step_act_label(st, row->act, sizeof row->act);
    row->wall_s = wall_now() - t0;
    row->analytic_s = st->step_s;
    row->sim_s = sr->step_s;
    row->rel = (sr->step_s - st->step_s) / st->step_s;
    row->events = sr->events;
    row->regime = st->bottleneck;
    row->mx_servers = st->mx_servers;
    row->act_servers = sc->act_servers;
    row->micro_batches = sr->micro_batches;
    row->placement_ok = same_placement(sr, st);
}

/* Evaluate one point both ways into row, or with events non-NULL only
 * size its simulation and add its events there.  -1, or an exit code after
 * a message. */
static int eval_point(const struct cli_opts *o, const struct xc_point *p, struct xc_row *row,
                      double *events)
{
    static struct scenario s;
    int rc = point_scenario(o, p, &s);
    if (rc >= 0)
        return rc;
    struct train_result tr;
    train_eval(&s.c, &tr);
    struct sim_config sc;
    point_sim_config(p, &s, &tr.step, &sc);
    if (events)
        return point_events(o, p, &s, &sc, events);
    struct sim_result sr;
    struct cp_error err = {0};
    double t0 = wall_now();
    if (sim_run(&sc, &sr, &err) != CP_OK)
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system, err.msg);
    point_row(row, p, &s, &tr.step, &sc, &sr, t0);
    return -1;
}

static int worse_first(const void *a, const void *b)
{
    double x = fabs(((const struct xc_row *)a)->rel), y = fabs(((const struct xc_row *)b)->rel);
    return (x < y) - (x > y);
}

static const char *const xc_header[] = {
    "model",      "system",      "systems",       "batch_seqs",  "sparsity",        "memoryx",
    "overlap",    "regime",      "analytic_s",    "simulated_s", "rel_diff",        "events",
    "sim_wall_s", "activations", "micro_batches", "set",         "memoryx_servers", "act_servers"};
#define XC_NCOLS (sizeof xc_header / sizeof xc_header[0])

/* rel in percent as "%+.4f" shows it, with a figure that rounds to zero
 * shown as +0.0000, not -0.0000. */
static double pct_shown(double rel)
{
    double pct = 100 * rel;
    return fabs(pct) < 0.00005 ? 0.0 : pct;
}

static void add_row(struct out_table *t, const struct xc_row *r, int csv)
{
    char b[XC_NCOLS][96];
    const char *cell[XC_NCOLS] = {r->p->model, r->p->system};
    snprintf(b[2], sizeof b[2], "%g", r->p->systems);
    snprintf(b[3], sizeof b[3], "%g", r->batch);
    snprintf(b[4], sizeof b[4], "%g", r->p->sparsity);
    snprintf(b[5], sizeof b[5], "%s", r->tier);
    snprintf(b[6], sizeof b[6], "%g", r->p->overlap);
    snprintf(b[7], sizeof b[7], "%s", step_res_name[r->regime]);
    out_num(csv, r->analytic_s, UNIT_TIME, b[8], sizeof b[8]);
    out_num(csv, r->sim_s, UNIT_TIME, b[9], sizeof b[9]);
    if (csv)
        snprintf(b[10], sizeof b[10], "%.6e", r->rel);
    else
        snprintf(b[10], sizeof b[10], "%+.4f %%", pct_shown(r->rel));
    snprintf(b[11], sizeof b[11], "%lld", r->events);
    out_num(csv, r->wall_s, UNIT_TIME, b[12], sizeof b[12]);
    snprintf(b[13], sizeof b[13], "%s", r->act);
    snprintf(b[14], sizeof b[14], "%g", r->micro_batches);
    snprintf(b[15], sizeof b[15], "%s%s%s", r->p->v.set ? r->p->v.set : "", r->p->v.set2 ? " " : "",
             r->p->v.set2 ? r->p->v.set2 : "");
    snprintf(b[16], sizeof b[16], "%g", r->mx_servers);
    snprintf(b[17], sizeof b[17], "%g", r->act_servers);
    for (size_t i = 2; i < XC_NCOLS; i++)
        cell[i] = b[i];
    out_row(t, cell);
}

static double median_abs(const struct xc_row *rows, size_t n)
{
    /* rows are sorted by |rel| descending */
    double a = fabs(rows[(n - 1) / 2].rel), b = fabs(rows[n / 2].rel);
    return (a + b) / 2;
}

/* Points of the last table whose activation placement or micro-batch count
 * differs between the two (their step times would compare different work). */
static size_t xc_misplaced;

/* The grid's simulations are sized before any runs: -1 if their events in
 * all stay within --max-events (SIM_MAX_EVENTS unless given), or an exit
 * code after a message. */
static int check_events(const struct cli_opts *o)
{
    double bound = SIM_MAX_EVENTS, events = 0;
    int rc = scenario_whole_opt("--max-events", o->max_events, 1, SIM_CEIL_EVENTS, &bound);
    for (size_t i = 0; i < XC_NPOINTS && rc < 0; i++)
        rc = eval_point(o, &grid[i], NULL, &events);
    if (rc < 0 && events > bound)
        return cli_error("crosscheck: --max-events: the %zu points would take %.4g simulated "
                         "events in all, more than the %.4g allowed; raise --max-events (up to "
                         "%g)",
                         XC_NPOINTS, events, bound, SIM_CEIL_EVENTS);
    return rc;
}

int crosscheck_table(const struct cli_opts *o, struct out_table *t, double *worst, double *median)
{
    static struct xc_row rows[XC_NPOINTS];
    out_init(t, XC_NCOLS, xc_header);
    int rc = check_events(o);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < XC_NPOINTS; i++) {
        rc = eval_point(o, &grid[i], &rows[i], NULL);
        if (rc >= 0)
            return rc;
    }
    qsort(rows, XC_NPOINTS, sizeof rows[0], worse_first);
    for (size_t i = 0; i < XC_NPOINTS; i++)
        add_row(t, &rows[i], o->csv);
    *worst = fabs(rows[0].rel);
    *median = median_abs(rows, XC_NPOINTS);
    xc_misplaced = 0;
    for (size_t i = 0; i < XC_NPOINTS; i++)
        xc_misplaced += !rows[i].placement_ok;
    return -1;
}

int cmd_crosscheck(struct cli_opts *o)
{
    struct out_table t;
    double worst, median;
    int rc = crosscheck_table(o, &t, &worst, &median);
    if (rc >= 0) {
        out_free(&t);
        return rc;
    }
    rc = cli_emit(o, &t);
    out_free(&t);
    int ok = worst <= XC_MAX_TOL && median <= XC_MEDIAN_TOL && xc_misplaced == 0;
    if (!o->csv) {
        if (xc_misplaced)
            printf("\n%zu points hold a different number of sequences in SRAM or on the "
                   "activation servers, or run a different number of micro-batches\n",
                   xc_misplaced);
        printf("\n%zu points: max |rel_diff| %.4f %% (limit %g %%), median %.4f %% (limit %g %%): "
               "%s\n",
               XC_NPOINTS, 100 * worst, 100 * XC_MAX_TOL, 100 * median, 100 * XC_MEDIAN_TOL,
               ok ? "agree" : "DISAGREE");
        rc = rc == EXIT_OK ? cli_flush() : rc;
    }
    if (rc == EXIT_OK && !ok)
        rc = EXIT_VERDICT;
    return rc;
}
