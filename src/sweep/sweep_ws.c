/* sweep_ws.c - a sweep over weight-streaming systems: each combo's points
 * are MemoryX tiers x sparsities x cluster sizes (the last fastest),
 * evaluated by the grid engine (src/grid) with the analytic model; a
 * point's row is estimate --csv's, then the --set axes' values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../cli/range.h"
#include "sweep_int.h"

/* Points a thread takes a round when the sweep runs on one thread: its
 * rows wait in a buffer until the round ends, and a buffer of 2,048 rows
 * (GRID_BLOCK, about 1.4 MB of CSV) costs some 350 page faults the first
 * time it fills, measured at 15 to 27 us each on our 2-core machines (a
 * tenth of the bench sweep's time), while each round costs a write, about
 * 2.5 us here (a perf profile of 64-row rounds: 1,600 writes, a tenth of
 * the time in the kernel).  256 rows (about 45 pages) measured best of 64,
 * 256 and 512: 63 ms against 66 and 67, best of 15.  With more threads a
 * round also starts a thread, so they keep GRID_BLOCK. */
#define SWEEP_WS_BLOCK_ONE 256

struct combo {
    struct scenario s;
    struct grid_tier *tier;
    size_t ntier;
    const char *axis_text[CLI_MAX_SETS];
    struct grid grid; /* its points */
};

static int sparsity_axis(struct sweep *sw, const char *arg)
{
    const char *flag = sw->lab->sparsity;
    size_t n;
    char **v = sweep_split(arg, &n);
    int rc = n ? -1 : cli_error("%s '%s': no values", flag, arg);
    sw->sp = xmalloc((n ? n : 1) * sizeof *sw->sp);
    for (size_t i = 0; i < n && rc < 0; i++) {
        char why[256];
        if (unit_parse(v[i], UNIT_FRACTION, &sw->sp[i], why, sizeof why) != 0)
            rc = cli_error("%s '%s': '%s': %s", flag, arg, v[i], why);
        else if (!(sw->sp[i] >= 0 && sw->sp[i] <= CLUSTER_MAX_SPARSITY))
            rc = cli_error("%s '%s': %s is outside 0..%g", flag, arg, v[i], CLUSTER_MAX_SPARSITY);
    }
    sw->nsp = n;
    sweep_free_list(v, n);
    return rc;
}

static int systems_axis(struct sweep *sw, const struct cli_opts *o)
{
    const char *flag = sw->lab->systems;
    const char *arg = o->systems ? o->systems : o->nsys ? o->nsys : "1";
    int rc = range_parse(flag, arg, "systems", &sw->ns, &sw->nn);
    for (size_t i = 0; i < sw->nn && rc < 0; i++)
        rc = scenario_whole_systems(flag, arg, sw->ns[i]);
    return rc;
}

static int ws_parse(struct sweep *sw, const struct cli_opts *o)
{
    const struct {
        const char *flag, *value;
    } gpu[] = {{"--precision", o->precision},
               {"--tp", o->tp},
               {"--pp", o->pp},
               {"--cp", o->cp},
               {"--vp", o->vp},
               {"--mbs", o->mbs},
               {"--fsdp", o->fsdp ? "" : NULL},
               {"--layouts", o->layouts}};
    /* refused, as estimate, scale, plan and compare refuse them here */
    for (size_t i = 0; i < sizeof gpu / sizeof gpu[0]; i++)
        if (gpu[i].value)
            return cli_error("sweep: %s applies to GPU systems; %s is a weight-streaming system",
                             gpu[i].flag, sw->system[0]);
    for (size_t i = 0; i < est_ncols; i++)
        sw->names[i] = est_header[i];
    sw->nbase = est_ncols;
    sw->run.block = sw->run.jobs == 1 ? SWEEP_WS_BLOCK_ONE : 0;
    int rc = systems_axis(sw, o);
    if (rc < 0 && o->sparsity)
        rc = sparsity_axis(sw, o->sparsity);
    if (rc < 0 && o->memoryx) {
        sw->mx_all = strcmp(o->memoryx, "all") == 0;
        if (!sw->mx_all)
            sw->mx = sweep_split(o->memoryx, &sw->nmx);
    }
    return rc;
}

/* The tiers of combo cb: --memoryx's, every one (all), or the one
 * scenario_load chose; -1 or an exit code after a message. */
static int combo_tiers(const struct sweep *sw, struct combo *cb)
{
    struct scenario *s = &cb->s;
    size_t nt = sw->mx_all ? s->hw.mx.tiers.n : sw->nmx;
    cb->ntier = nt ? nt : 1;
    cb->tier = xrealloc(cb->tier, cb->ntier * sizeof *cb->tier);
    if (nt == 0) { /* the tier scenario_load chose */
        snprintf(cb->tier[0].name, sizeof cb->tier[0].name, "%s", s->tier);
        cb->tier[0].servers = s->c.mx_servers;
    }
    double keep_servers = s->c.mx_servers;
    char keep_tier[sizeof s->tier];
    memcpy(keep_tier, s->tier, sizeof keep_tier);
    int rc = -1;
    for (size_t i = 0; i < nt && rc < 0; i++) {
        const char *name = sw->mx_all ? s->hw.mx.tiers.item[i].name : sw->mx[i];
        if ((rc = scenario_memoryx(s, name)) < 0) {
            snprintf(cb->tier[i].name, sizeof cb->tier[i].name, "%s", s->tier);
            cb->tier[i].servers = s->c.mx_servers;
        }
    }
    s->c.mx_servers = keep_servers;
    memcpy(s->tier, keep_tier, sizeof keep_tier);
    return rc;
}

/* Load combo q and its tiers (sweep_kind.load). */
static int combo_load(const struct sweep *sw, size_t q, void *arg, size_t *npts)
{
    struct combo *cb = arg;
    struct cli_opts o2;
    sweep_combo_opts(sw, q, &o2, cb->axis_text);
    o2.nsys = o2.memoryx = o2.sparsity = NULL;
    int rc = scenario_load(&o2, &cb->s);
    if (rc < 0)
        rc = combo_tiers(sw, cb);
    cb->grid = (struct grid){.base = &cb->s.c,
                             .tier = cb->tier,
                             .ntier = cb->ntier,
                             .sp = sw->sp,
                             .nsp = sw->nsp,
                             .ns = sw->ns,
                             .nn = sw->nn,
                             .mode = SCALE_STRONG};
    *npts = grid_size(&cb->grid);
    return rc;
}

/* A point's row (grid_visit_fn). */
static void combo_point(void *ctx, size_t j, const struct cluster *c, const struct train_result *r)
{
    struct sweep_job *jb = ctx;
    const struct combo *cb = jb->cb;
    if (jb->direct) { /* the CSV line written as the cells are made */
        sweep_buf_room(&jb->out, EST_CSV_ROOM);
        jb->cells.csv = jb->out.p + jb->out.n;
    }
    est_cells(&jb->cells, &cb->s, grid_tier_of(&cb->grid, j)->name, c, r);
    char *end = jb->cells.csv;
    jb->cells.csv = NULL;
    if (end) { /* the last comma becomes the CRLF */
        memcpy(end - 1, "\r\n", 2);
        jb->out.n = (size_t)(end + 1 - jb->out.p);
        return;
    }
    const char *row[SWEEP_MAX_COLS];
    memcpy(row, jb->cells.cell, est_ncols * sizeof *row);
    sweep_job_row(jb, row, cb->axis_text, jb->cells.have, jb->cells.prev, jb->cells.plain,
                  jb->cells.len);
}

/* Every point of combo cb this run takes, through the grid engine
 * (sweep_kind.run). */
static void combo_run(const struct sweep *sw, const void *arg, size_t base, struct sweep_job *jobs,
                      struct sweep_sink *k)
{
    const struct combo *cb = arg;
    void *ctx[GRID_MAX_JOBS];
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        jobs[t].cb = cb;
        /* the combo's texts (model, system, tiers) scanned once */
        jobs[t].cells.texts_kept = 1;
        memset(jobs[t].cells.s_text, 0, sizeof jobs[t].cells.s_text);
        ctx[t] = &jobs[t];
    }
    struct grid_sched run = sw->run;
    run.base = base;
    grid_run(&cb->grid, &run, ctx, combo_point, sweep_round_emit, k);
}

static int ws_exec(const struct sweep *sw)
{
    struct combo *cb = xmalloc(sizeof *cb);
    memset(cb, 0, sizeof *cb);
    /* every system at least one MemoryX choice */
    struct sweep_kind kind = {.cb = cb,
                              .load = combo_load,
                              .run = combo_run,
                              .points_per_combo = (double)(sw->sp ? sw->nsp : 1) * (double)sw->nn};
    int rc = sweep_exec(sw, &kind);
    free(cb->tier);
    free(cb);
    return rc;
}

/* The table's columns of the kind, after the axes. */
static const char *const answers[] = {"feasible", "step_time_s", "time_to_train_s", "power_W",
                                      "energy_J"};

const struct sweep_face sweep_ws_face = {
    .word = "weight-streaming",
    .parse = ws_parse,
    .exec = ws_exec,
    .count_col = "systems",
    .answers = answers,
    .nanswers = sizeof answers / sizeof answers[0],
    .why_col = "warnings",
};
