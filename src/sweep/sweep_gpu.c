/* sweep_gpu.c - a sweep over GPU systems: each combo (model x GPU system x
 * --set axes, loaded as estimate -s h100 loads it: src/cli/gscen.c) has
 * precisions x GPU counts as its points, the counts fastest.  A point is
 * one layout search (src/gpu/gpu_search.h) of the job at that count and
 * precision, the global batch fixed; its rows are the --layouts fastest
 * layouts that fit, ranked (the columns of estimate --csv on a GPU system,
 * src/cli/gpu_cells.h, with kind, feasible and reason), or one row with
 * feasible 0 and the reason when no layout divides the job or fits, or
 * the GPU lacks the precision.  The points run on the grid engine's
 * scheduler (grid_run_points) a few to a thread, since a search takes
 * about a millisecond. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../cli/range.h"
#include "sweep_int.h"

/* Points a run evaluates unless --max-points says otherwise: about 25
 * minutes on one thread at the measured 1.5e4 GPU points a second (a
 * layout search each, 70 us on average), as the weight-streaming limit is
 * (cerebras-plan(1), sweep). */
#define SWEEP_GPU_MAX_POINTS 2e7
/* Points per thread per round: a few milliseconds of work, enough to
 * make starting the round's threads cheap, few enough that -j spreads a
 * small grid and rows come out as they are computed. */
#define SWEEP_GPU_BLOCK 64

/* The columns: estimate --csv's (gpu_cells) in the sweep's order, with
 * three of the sweep's own. */
enum { X_KIND = GC_NCOLS, X_FEASIBLE, X_REASON };
static const int order[] = {GC_MODEL,
                            GC_SYSTEM,
                            X_KIND,
                            GC_GPUS,
                            GC_NODES,
                            GC_PRECISION,
                            GC_RANK,
                            GC_TP,
                            GC_PP,
                            GC_VP,
                            GC_DP,
                            GC_CP,
                            GC_FSDP,
                            GC_MBS,
                            GC_RECOMPUTE,
                            GC_RECOMPUTE_LAYERS,
                            GC_BATCH,
                            GC_MICRO_BATCHES,
                            GC_STEP,
                            GC_TOKENS_PER_S,
                            GC_TIME_TO_TRAIN,
                            GC_MFU,
                            GC_BUBBLE,
                            GC_BOTTLENECK,
                            GC_MEM,
                            GC_MEM_USABLE,
                            GC_POWER,
                            GC_ENERGY,
                            GC_COST,
                            GC_TRAIN_TOKENS,
                            GC_CRITICAL,
                            GC_BATCH_OK,
                            X_FEASIBLE,
                            X_REASON};
#define NORDER (sizeof order / sizeof order[0])

struct gcombo {
    struct gscen s;
    const char *axis_text[CLI_MAX_SETS];
    double one_node;  /* the count without --systems or -n: one node */
    const double *ns; /* the counts: sw's, or one_node */
    size_t nn;
    unsigned char has_prec[GPUHW_NPRECS]; /* sw->prec[i] ran on a combo loaded */
};

/* --systems or -n as GPU counts, whole, 1 to GSCEN_MAX_GPUS; neither:
 * one node of each system (nn 0). */
static int counts_axis(struct sweep *sw, const struct cli_opts *o)
{
    const char *flag = sw->lab->systems;
    const char *arg = o->systems ? o->systems : o->nsys;
    if (!arg)
        return -1;
    int rc = range_parse(flag, arg, "GPUs", &sw->ns, &sw->nn);
    for (size_t i = 0; i < sw->nn && rc < 0; i++)
        if (sw->ns[i] != floor(sw->ns[i]))
            rc = cli_error("%s '%s': %.17g is not a whole number of GPUs", flag, arg, sw->ns[i]);
        else if (!(sw->ns[i] >= 1 && sw->ns[i] <= GSCEN_MAX_GPUS))
            rc = cli_error("%s '%s': %.17g GPUs is outside 1 to %.0f, the most GPUs a run may "
                           "name",
                           flag, arg, sw->ns[i], GSCEN_MAX_GPUS);
    return rc;
}

/* --precision: a comma list of bf16, fp8, fp4 (default bf16). */
static int precision_axis(struct sweep *sw, const struct cli_opts *o)
{
    sw->nprec = 1;
    sw->prec[0] = GPUHW_BF16;
    if (!o->precision)
        return -1;
    const char *flag = sw->lab->precision;
    size_t n;
    char **v = sweep_split(o->precision, &n);
    int rc = n ? -1 : cli_error("%s '%s': no values", flag, o->precision);
    sw->nprec = 0;
    for (size_t i = 0; i < n && rc < 0; i++) {
        int p = 0;
        while (p < GPUHW_NPRECS && strcmp(v[i], gpuhw_prec_name[p]) != 0)
            p++;
        for (size_t k = 0; k < sw->nprec && p < GPUHW_NPRECS; k++)
            if (sw->prec[k] == (enum gpuhw_prec)p)
                rc = cli_error("%s '%s': %s given twice", flag, o->precision, v[i]);
        if (p == GPUHW_NPRECS)
            rc = cli_error("%s '%s': '%s' must be bf16, fp8 or fp4", flag, o->precision, v[i]);
        else if (rc < 0)
            sw->prec[sw->nprec++] = (enum gpuhw_prec)p;
    }
    sweep_free_list(v, n);
    return rc;
}

static int gpu_parse(struct sweep *sw, const struct cli_opts *o)
{
    for (size_t i = 0; i < NORDER; i++)
        sw->names[i] = order[i] == X_KIND       ? "kind"
                       : order[i] == X_FEASIBLE ? "feasible"
                       : order[i] == X_REASON   ? "reason"
                                                : gpu_col_name[order[i]];
    sw->nbase = NORDER;
    sw->run.block = SWEEP_GPU_BLOCK;
    if (!o->max_points)
        sw->max_points = SWEEP_GPU_MAX_POINTS;
    double k = 1;
    int rc = scenario_whole_opt(sw->lab->layouts, o->layouts, 1, GPU_SEARCH_KEEP_MAX, &k);
    sw->layouts = (size_t)k;
    if (rc < 0)
        rc = counts_axis(sw, o);
    if (rc < 0)
        rc = precision_axis(sw, o);
    return rc;
}

/* Load combo q (sweep_kind.load). */
static int gcombo_load(const struct sweep *sw, size_t q, void *arg, size_t *npts)
{
    struct gcombo *cb = arg;
    struct cli_opts o2;
    sweep_combo_opts(sw, q, &o2, cb->axis_text);
    o2.nsys = o2.systems = o2.precision = NULL;
    int rc = gscen_load(&o2, "sweep", &cb->s);
    cb->one_node = cb->s.g.net.gpus_per_node;
    cb->ns = sw->nn ? sw->ns : &cb->one_node;
    cb->nn = sw->nn ? sw->nn : 1;
    *npts = sw->nprec * cb->nn;
    for (size_t i = 0; i < sw->nprec && rc < 0; i++)
        cb->has_prec[i] |= cb->s.g.chip.peak_flops[sw->prec[i]] > 0;
    return rc;
}

/* After the first pass: a precision no system of the sweep has is
 * refused (one some lack is a row with the reason on those). */
static int gcombo_loaded(const struct sweep *sw, const void *arg)
{
    const struct gcombo *cb = arg;
    for (size_t i = 0; i < sw->nprec; i++) {
        const char *p = gpuhw_prec_name[sw->prec[i]];
        if (cb->has_prec[i])
            continue;
        if (sw->nsystem == 1)
            return cli_error("%s %s: %s has no %s tensor rate (gpu.peak_%s is 0)",
                             sw->lab->precision, p, sw->system[0], p, p);
        return cli_error("%s %s: none of the systems has an %s tensor rate (gpu.peak_%s is 0 "
                         "on each)",
                         sw->lab->precision, p, p, p);
    }
    return -1;
}

/* The row of the cells in jb->gc. */
static void put_row(struct sweep_job *jb, const struct gcombo *cb, int feasible, const char *reason)
{
    const struct gpu_cells *w = &jb->gc;
    const char *row[SWEEP_MAX_COLS];
    unsigned char num[NORDER];
    double value[NORDER];
    for (size_t i = 0; i < NORDER; i++) {
        int c = order[i];
        if (c < GC_NCOLS) {
            row[i] = w->cell[c];
            num[i] = w->num[c];
            value[i] = w->value[c];
            continue;
        }
        num[i] = c == X_FEASIBLE;
        value[i] = feasible;
        row[i] = c == X_KIND ? "gpu" : c == X_REASON ? reason : feasible ? "1" : "0";
    }
    sweep_job_row(jb, row, cb->axis_text, num, value, NULL, NULL);
}

/* Point j of the combo: the precision j / nn, the count j % nn
 * (grid_point_fn). */
static void gpu_point(void *ctx, size_t j)
{
    struct sweep_job *jb = ctx;
    const struct sweep *sw = jb->sw;
    const struct gcombo *cb = jb->cb;
    const struct gscen *s = &cb->s;
    struct gpu_search_spec spec = s->spec;
    spec.gpus = cb->ns[j % cb->nn];
    spec.precision = sw->prec[j / cb->nn];
    spec.keep = sw->layouts;
    const char *prec = gpuhw_prec_name[spec.precision];
    struct cp_error err = {0};
    struct gpu_search_result *sr = &jb->sr;
    if (!(s->g.chip.peak_flops[spec.precision] > 0)) {
        snprintf(err.msg, sizeof err.msg, "%s has no %s tensor rate (gpu.peak_%s is 0)", s->system,
                 prec, prec);
        gpu_cells_point(&jb->gc, s, &spec, spec.precision, NAN, NAN);
        put_row(jb, cb, 0, err.msg);
        return;
    }
    if (gpu_search(&s->g, &s->wl, &spec, sr, &err) != CP_OK) {
        /* the least memory a layout that divides needs, when one does */
        double least = sr->divided > 0 && isfinite(sr->least_mem) ? sr->least_mem : NAN;
        gpu_cells_point(&jb->gc, s, &spec, spec.precision, least,
                        sr->capacity > 0 ? sr->capacity : NAN);
        put_row(jb, cb, 0, err.msg);
        return;
    }
    for (size_t i = 0; i < sr->n; i++) {
        gpu_cells_hit(&jb->gc, s, &spec, i + 1, &sr->hit[i]);
        put_row(jb, cb, 1, "");
    }
}

/* Every point of combo cb this run takes (sweep_kind.run). */
static void gcombo_run(const struct sweep *sw, const void *arg, size_t base, struct sweep_job *jobs,
                       struct sweep_sink *k)
{
    const struct gcombo *cb = arg;
    void *ctx[GRID_MAX_JOBS];
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        jobs[t].cb = cb;
        ctx[t] = &jobs[t];
    }
    struct grid_sched run = sw->run;
    run.base = base;
    grid_run_points(sw->nprec * cb->nn, &run, ctx, gpu_point, sweep_round_emit, k);
}

static int gpu_exec(const struct sweep *sw)
{
    struct gcombo *cb = xmalloc(sizeof *cb);
    memset(cb, 0, sizeof *cb);
    struct sweep_kind kind = {.cb = cb,
                              .load = gcombo_load,
                              .run = gcombo_run,
                              .loaded = gcombo_loaded,
                              .points_per_combo =
                                  (double)sw->nprec * (double)(sw->nn ? sw->nn : 1)};
    int rc = sweep_exec(sw, &kind);
    free(cb);
    return rc;
}

/* The table's columns of the kind, after the axes. */
static const char *const answers[] = {"tp",
                                      "pp",
                                      "vp",
                                      "dp",
                                      "cp",
                                      "fsdp",
                                      "micro_batch",
                                      "recompute",
                                      "feasible",
                                      "step_time_s",
                                      "time_to_train_s",
                                      "mfu",
                                      "mem_per_gpu_B",
                                      "power_W",
                                      "energy_J"};

const struct sweep_face sweep_gpu_face = {
    .word = "GPU",
    .parse = gpu_parse,
    .exec = gpu_exec,
    .count_col = "gpus",
    .answers = answers,
    .nanswers = sizeof answers / sizeof answers[0],
    .why_col = "reason",
};
