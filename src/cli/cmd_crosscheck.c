/* cmd_crosscheck.c - `crosscheck`: the analytic model against the timing
 * simulator on a grid that covers every regime and mechanism (activation
 * placement, jitter, step overhead, SwarmX chunk); worst points first. */
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

/* One grid point.  batch 0: the model's; tier NULL: the smallest that
 * holds the model. */
struct xc_point {
    const char *model, *system;
    double systems, batch, sparsity;
    const char *tier;
    double overlap;
    double units;    /* MemoryX units in the simulator (0: one)            */
    const char *set; /* one --set applied to both, or NULL                 */
};

/* Regimes are named by the analytic bottleneck of each point; the comments
 * say what the point was chosen for. */
static const struct xc_point grid[] = {
    /* the headline job and its published cluster sizes */
    {"gpt3-175b", "cs2", 1, 0, 0, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs3", 192, 0, 0.5, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs2", 7, 1540, 0, NULL, 0, 0, NULL},    /* uneven tree */
    {"gpt3-175b", "cs2", 2048, 2048, 0, NULL, 0, 0, NULL}, /* one sequence each */
    /* sparsity 0..0.95 */
    {"gpt3-175b", "cs2", 16, 0, 0.5, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs2", 16, 0, 0.9, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs2", 16, 0, 0.95, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs3", 64, 1024, 0.75, NULL, 1, 0, NULL},
    /* stream-bound: small model, small batch per system */
    {"gpt3-xl", "cs2", 1, 8, 0, NULL, 0, 0, NULL},
    {"gpt3-xl", "cs2", 16, 0, 0, NULL, 0, 0, NULL},
    {"gpt3-xl", "cs3", 128, 512, 0.9, NULL, 0, 0, NULL},
    /* latency-bound: small model, one sequence per system, deep tree */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, NULL},
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, NULL},
    {"gpt3-xl", "cs3", 512, 512, 0, NULL, 1, 0, NULL},
    {"gpt3-xl", "cs2", 256, 256, 0, NULL, 0.5, 0, NULL},
    /* compute-bound: long micro-batches */
    {"llama2-70b", "cs2", 1, 64, 0, NULL, 0, 0, NULL},
    {"llama2-70b", "cs3", 32, 0, 0, NULL, 0, 0, NULL},
    {"llama2-70b", "cs2", 8, 0, 0.75, NULL, 1, 0, NULL},
    /* flash: state beyond MemoryX DRAM, update-bound */
    {"megatron-1t", "cs2", 16, 64, 0, "2.4PB", 0, 0, NULL},
    {"megatron-1t", "cs2", 4, 16, 0.9, "2.4PB", 0, 0, NULL},
    {"megatron-1t", "cs3", 16, 0, 0, NULL, 0, 0, NULL},
    {"megatron-1t", "cs3", 64, 256, 0.5, NULL, 1, 0, NULL},
    {"gpt3-175b", "cs2", 32, 256, 0, "2.4PB", 0, 0, NULL},
    {"gpt3-xl", "cs2", 8, 64, 0, "2.4PB", 0, 0, NULL},
    /* the largest models, one sequence per system */
    {"10t", "cs3", 16, 16, 0, NULL, 0, 0, NULL},
    {"100t", "cs3", 8, 8, 0.9, NULL, 0, 0, NULL},
    {"120t", "cs2", 4, 4, 0, NULL, 0, 0, NULL},
    {"120t", "cs3", 32, 32, 0.95, NULL, 1, 0, NULL},
    /* latency-bound: slow SwarmX hops (the published figure is withheld) */
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, "swarmx.hop_latency=5ms"},
    {"gpt3-xl", "cs3", 100, 100, 0.5, NULL, 0.5, 0, "swarmx.hop_latency=1ms"},
    {"gpt3-175b", "cs2", 512, 512, 0, NULL, 1, 0, "swarmx.hop_latency=2ms"},
    /* several MemoryX units, other fan-outs, uneven shares */
    {"gpt3-175b", "cs2", 64, 1024, 0, NULL, 0, 4, NULL},
    {"gpt3-xl", "cs3", 48, 480, 0.5, NULL, 0, 3, "swarmx.fanout=3"},
    {"llama2-70b", "cs2", 5, 1031, 0, NULL, 0, 2, "swarmx.fanout=4"},
    /* activations on the wafer: a small batch */
    {"gpt3-xl", "cs2", 1, 2, 0, NULL, 0, 0, NULL},
    {"bert-large", "cs3", 64, 4096, 0, NULL, 0, 0, NULL},
    /* offloaded to the activation store, in one micro-batch; a small model
     * whose last block's activations leave while the logits layer runs */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, NULL},
    {"gpt2-small", "cs2", 1, 0, 0, NULL, 0, 0, NULL},
    {"gpt2-small", "cs3", 1, 0, 0, NULL, 0, 0, NULL},
    /* offloaded, in several micro-batches of what a small store holds, and
     * one sequence at a time when it holds none (the model flags that) */
    {"llama2-7b", "cs3", 1, 0, 0, NULL, 0, 0, "system.act_store=300 GB"},
    {"gptj-6b", "cs2", 2, 0, 0, NULL, 0, 2, "system.act_store=20 GB"},
    {"gpt3-xl", "cs2", 4, 16, 0, NULL, 0, 0, "system.act_store=100 MB"},
    /* no activation store: micro-batches of what SRAM holds */
    {"gpt3-175b", "cs2", 16, 0, 0, NULL, 0, 0, "system.act_store=0 B"},
    {"gpt3-xl", "cs2", 1, 9, 0, NULL, 0, 0, "system.act_store=0 B"},
    /* jitter: the slowest of many systems sets every layer's pace */
    {"llama2-70b", "cs3", 2048, 8192, 0, NULL, 0, 0, NULL},
    {"gpt3-175b", "cs3", 2048, 16384, 0, NULL, 0, 0, "system.jitter=0.1"},
    /* the fixed step overhead dominates small models */
    {"gpt2-small", "cs3", 16, 0, 0, NULL, 0, 0, NULL},
    {"bert-large", "cs2", 4, 0, 0, NULL, 0, 0, NULL},
    {"llama-7b", "cs2", 8, 0, 0.5, NULL, 0, 0, NULL},
    /* SwarmX chunks of 64 and 256 MB: a chunk larger than a sparse block
     * (flow control counts bytes, so small packets queue behind a large
     * one), a chunk that is a large part of the first layer */
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, "swarmx.chunk=64 MB"},
    {"gpt3-xl", "cs2", 2048, 2048, 0, NULL, 0, 0, "swarmx.chunk=64 MB"},
    {"gpt3-175b", "cs2", 192, 0, 0, NULL, 0, 0, "swarmx.chunk=256 MB"},
    {"llama2-70b", "cs2", 256, 256, 0.9, NULL, 0, 0, "swarmx.chunk=256 MB"},
    {"gpt3-xl", "cs2", 1024, 1024, 0.95, NULL, 0, 0, "swarmx.chunk=256 MB"}, /* chunk > embedding */
};
#define XC_NPOINTS (sizeof grid / sizeof grid[0])

struct xc_row {
    const struct xc_point *p;
    char tier[DESC_NAME_MAX];
    double batch, analytic_s, sim_s, rel, wall_s;
    long long events;
    enum step_res regime;
    enum step_act act;
    double micro_batches; /* the simulator's */
    int placement_ok;     /* both place the activations alike, in as many micro-batches */
};

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int same_act(enum sim_act s, enum step_act a)
{
    switch (s) {
    case SIM_ACT_WAFER:
        return a == STEP_ACT_WAFER;
    case SIM_ACT_OFFLOAD:
        return a == STEP_ACT_OFFLOAD;
    case SIM_ACT_MICRO:
        return a == STEP_ACT_MICRO;
    default:
        return 0;
    }
}

/* Evaluate one point both ways.  -1, or an exit code after a message. */
static int eval_point(const struct cli_opts *o, const struct xc_point *p, struct xc_row *row)
{
    static struct scenario s;
    static struct cli_opts po;
    po = *o;
    if (p->set) {
        if (po.nsets == CLI_MAX_SETS)
            return cli_error("crosscheck: too many --set options");
        po.sets[po.nsets++] = p->set;
    }
    int rc = scenario_load_names(&po, p->model, p->system, &s);
    if (rc >= 0)
        return rc;
    struct cluster *c = &s.c;
    c->systems = p->systems;
    c->sparsity = p->sparsity;
    c->overlap = p->overlap;
    if (p->batch > 0)
        c->global_seqs = p->batch;
    if (p->tier) {
        if ((rc = scenario_memoryx(&s, p->tier)) >= 0)
            return rc;
    } else {
        scenario_auto_tier(&s);
    }
    struct train_result tr;
    train_eval(c, &tr);

    struct sim_config sc;
    sim_config_init(&sc, &s.hw, &s.wl);
    sc.systems = c->systems;
    sc.memoryx_bytes = c->memoryx_bytes;
    sc.sparsity = c->sparsity;
    sc.overlap = c->overlap;
    sc.global_seqs = c->global_seqs;
    if (p->units > 0)
        sc.units = p->units;
    struct sim_result sr;
    struct cp_error err = {0};
    double t0 = wall_now();
    if (sim_run(&sc, &sr, &err) != CP_OK)
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system, err.msg);
    *row = (struct xc_row){.p = p, .batch = c->global_seqs};
    snprintf(row->tier, sizeof row->tier, "%s", s.tier);
    row->wall_s = wall_now() - t0;
    row->analytic_s = tr.step.step_s;
    row->sim_s = sr.step_s;
    row->rel = (sr.step_s - tr.step.step_s) / tr.step.step_s;
    row->events = sr.events;
    row->regime = tr.step.bottleneck;
    row->act = tr.step.act;
    row->micro_batches = sr.micro_batches;
    row->placement_ok = sr.micro_batches == tr.step.micro_batches && same_act(sr.act, tr.step.act);
    return -1;
}

static int worse_first(const void *a, const void *b)
{
    double x = fabs(((const struct xc_row *)a)->rel), y = fabs(((const struct xc_row *)b)->rel);
    return (x < y) - (x > y);
}

static const char *const xc_header[] = {"model",      "system",      "systems",       "batch_seqs",
                                        "sparsity",   "memoryx",     "overlap",       "regime",
                                        "analytic_s", "simulated_s", "rel_diff",      "events",
                                        "sim_wall_s", "activations", "micro_batches", "set"};
#define XC_NCOLS (sizeof xc_header / sizeof xc_header[0])

static void add_row(struct out_table *t, const struct xc_row *r, int csv)
{
    char b[XC_NCOLS][64];
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
        snprintf(b[10], sizeof b[10], "%+.4f %%", 100 * r->rel);
    snprintf(b[11], sizeof b[11], "%lld", r->events);
    out_num(csv, r->wall_s, UNIT_TIME, b[12], sizeof b[12]);
    snprintf(b[13], sizeof b[13], "%s", step_act_name[r->act]);
    snprintf(b[14], sizeof b[14], "%g", r->micro_batches);
    snprintf(b[15], sizeof b[15], "%s", r->p->set ? r->p->set : "");
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

int crosscheck_table(const struct cli_opts *o, struct out_table *t, double *worst, double *median)
{
    static struct xc_row rows[XC_NPOINTS];
    out_init(t, XC_NCOLS, xc_header);
    for (size_t i = 0; i < XC_NPOINTS; i++) {
        int rc = eval_point(o, &grid[i], &rows[i]);
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
            printf("\n%zu points place the activations differently (activations, "
                   "micro_batches)\n",
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
