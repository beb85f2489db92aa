/* cmd_sweep.c - `sweep`: the estimate of every point of a grid of
 * configurations, streamed as CSV in a fixed order (or, to a terminal, as
 * a text table with units for people), optionally filtered (--where),
 * reduced to the best row of each group (--best, --group-by), cut to some
 * columns (--columns), computed on N threads (-j) and split into
 * interleaved shards (--shard).
 *
 * The grid is models x systems x --set axes (each such "combo" loads its
 * descriptions once) x MemoryX tiers x sparsities x cluster sizes, the last
 * fastest.  Point i (from 0, over the whole grid) belongs to shard K of N
 * when i mod N = K-1.  Each combo's points are evaluated by the grid
 * engine (src/grid), whose threads format blocks of rows into their own
 * buffers here; the main thread writes the blocks in order, so the output
 * does not depend on -j.  Memory is constant in the number of points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/xalloc.h"
#include "../cli/est.h"
#include "../grid/grid.h"
#include "../grid/grid_best.h"
#include "../cli/range.h"
#include "sweep_file.h"
#include "sweep_filter.h"
#include "sweep_out.h"

/* The largest grid one sweep run evaluates unless --max-points says
 * otherwise (cerebras-plan(1), sweep): about 25 minutes at the measured
 * 6.5e5 points per second, and terabytes of CSV past it.  Sizes are checked
 * against it before any output.  --max-points may raise it as far as
 * SWEEP_CEIL_POINTS, where a point's index still counts exactly in a
 * double. */
#define SWEEP_MAX_POINTS 1e9
#define SWEEP_CEIL_POINTS 1e15
#define SWEEP_MAX_COLS (EST_MAX_COLS + CLI_MAX_SETS)

struct axis { /* a --set with a comma list */
    char key[96];
    char **val;  /* "section.key=V" for the loader */
    char **text; /* "V", the column's cell */
    size_t n;
};

struct sweep {
    const struct cli_opts *o;
    const struct sweep_labels *lab; /* what to call each axis in a message */
    char **model, **system, **mx;   /* axis values; mx NULL: the auto tier */
    size_t nmodel, nsystem, nmx;
    int mx_all;
    double *ns, *sp; /* sp NULL: the model's default sparsity */
    size_t nn, nsp;
    struct axis axis[CLI_MAX_SETS];
    size_t naxis, nset; /* nset: product of the axes' sizes */
    const char *fixed[CLI_MAX_SETS];
    size_t nfixed;
    const char *names[SWEEP_MAX_COLS];
    size_t ncols;
    struct sweep_where where[CLI_MAX_WHERE];
    size_t nwhere;
    int best;
    size_t best_col, group[SWEEP_MAX_COLS], ngroup;
    struct grid_sched run;                  /* -j, --shard K/N as K-1 and N */
    double max_points;                      /* --max-points: per run (share) */
    size_t sel[SWEEP_MAX_COLS], nsel;       /* the columns written, in order */
    int table;                              /* a text table for people, not CSV */
    struct sweep_disp disp[SWEEP_MAX_COLS]; /* the table's columns (sel's) */
};

struct combo {
    struct scenario s;
    struct grid_tier *tier;
    size_t ntier;
    const char *axis_text[CLI_MAX_SETS];
    struct grid grid; /* its points */
    size_t base, npts; /* global index of its first point, its points */
};

struct rec { /* a row --best may keep */
    double by;
    size_t line, line_len, key, key_len; /* offsets into the job's buffer */
};

struct job { /* what one grid worker formats its rows into */
    const struct sweep *sw;
    const struct combo *cb;
    struct sweep_buf out;
    struct rec *rec;
    size_t nrec, caprec;
    struct est_cells cells;
};

/* ---- axes ---- */

/* Split a comma list into a malloc'd array of malloc'd strings. */
static char **split(const char *arg, size_t *n)
{
    char *copy = xstrdup(arg), *save = NULL, **v = NULL;
    *n = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        v = xrealloc(v, (*n + 1) * sizeof *v);
        v[(*n)++] = xstrdup(t);
    }
    free(copy);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Names of a kind (-m or -s): a comma list, or "all" for every one the
 * search path reaches (weight-streaming systems only).  Each must
 * resolve. */
static int names_axis(const struct cli_opts *o, const char *flag, const char *arg,
                      enum cat_kind kind, char ***out, size_t *n)
{
    struct cp_error err = {0};
    if (strcmp(arg, "all") == 0) {
        struct cat_list l;
        if (cat_list(&o->dirs, kind, &l, &err) != CP_OK)
            return cli_error("%s all: %s", flag, err.msg);
        *out = xmalloc((l.n ? l.n : 1) * sizeof **out);
        *n = 0;
        for (size_t i = 0; i < l.n; i++)
            if (kind != CAT_HW || !scenario_listed_gpu(&l.items[i]))
                (*out)[(*n)++] = xstrdup(l.items[i].name);
        cat_list_free(&l);
        return *n ? -1 : cli_error("%s all: no descriptions found", flag);
    }
    *out = split(arg, n);
    if (*n == 0)
        return cli_error("%s '%s': no values", flag, arg);
    for (size_t i = 0; i < *n; i++) {
        struct cat_entry e;
        cp_status st = cat_resolve(&o->dirs, (*out)[i], kind, &e, &err);
        if (st != CP_OK)
            return cli_error("%s '%s': %s", flag, (*out)[i], err.msg);
        cat_entry_free(&e);
    }
    return -1;
}

static int sparsity_axis(struct sweep *sw, const char *arg)
{
    const char *flag = sw->lab->sparsity;
    size_t n;
    char **v = split(arg, &n);
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
    free_list(v, n);
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

/* --set: a comma list is an axis, one value an override. */
static int set_axes(struct sweep *sw, const struct cli_opts *o)
{
    sw->nset = 1;
    for (size_t i = 0; i < o->nsets; i++) {
        const char *eq = strchr(o->sets[i], '=');
        if (!eq || !strchr(eq, ',')) {
            sw->fixed[sw->nfixed++] = o->sets[i];
            continue;
        }
        struct axis *a = &sw->axis[sw->naxis++];
        snprintf(a->key, sizeof a->key, "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
        a->text = split(eq + 1, &a->n);
        if (a->n == 0)
            return cli_error("--set '%s': no values", o->sets[i]);
        a->val = xmalloc(a->n * sizeof *a->val);
        for (size_t k = 0; k < a->n; k++) {
            size_t len = strlen(a->key) + strlen(a->text[k]) + 2;
            a->val[k] = xmalloc(len);
            snprintf(a->val[k], len, "%s=%s", a->key, a->text[k]);
        }
        sw->names[est_ncols + sw->naxis - 1] = a->key;
        if ((double)sw->nset * (double)a->n > sw->max_points * sw->run.shard_n)
            return cli_error("--set %s=...: with this axis (%zu values) the --set axes make "
                             "more than %.4g combinations, more than --max-points allows "
                             "(%.4g a run)",
                             a->key, a->n, sw->max_points * sw->run.shard_n, sw->max_points);
        sw->nset *= a->n;
    }
    return -1;
}

static int shard_opt(struct sweep *sw, const char *arg)
{
    char *end;
    unsigned long k = strtoul(arg, &end, 10), n = 0;
    int ok = end != arg && *end == '/' && arg[0] != '-';
    if (ok) {
        const char *s = end + 1;
        n = strtoul(s, &end, 10);
        ok = end != s && *end == '\0' && s[0] != '-';
    }
    if (!ok || k < 1 || n < 1 || k > n)
        return cli_error("--shard '%s': must be K/N with 1 <= K <= N (e.g. 2/4)", arg);
    sw->run.shard_k = k - 1;
    sw->run.shard_n = n;
    return -1;
}

static int keep_opts(struct sweep *sw, const struct cli_opts *o)
{
    int rc = -1;
    for (size_t i = 0; i < o->nwhere && rc < 0; i++)
        rc = sweep_where_parse(sw->lab->where[i], o->where[i], sw->names, sw->ncols, est_ncols,
                               &sw->where[i]);
    sw->nwhere = o->nwhere;
    if (rc >= 0)
        return rc;
    if (o->group_by && !o->best)
        return cli_error("%s needs --best", sw->lab->group_by);
    if (!o->best)
        return -1;
    int c = sweep_col(o->best, sw->names, sw->ncols);
    char hint[320];
    if (c < 0)
        return cli_error("%s '%s': no column '%s' (%s)", sw->lab->best, o->best, o->best,
                         sweep_col_hint(o->best, sw->names, sw->ncols, hint, sizeof hint));
    if (sweep_col_is_text(sw->names, (size_t)c, est_ncols))
        return cli_error("%s '%s': not a numeric column of the output", sw->lab->best, o->best);
    sw->best = 1;
    sw->best_col = (size_t)c;
    size_t n = 0;
    char **g = o->group_by ? split(o->group_by, &n) : NULL;
    for (size_t i = 0; i < n && rc < 0; i++) {
        if ((c = sweep_col(g[i], sw->names, sw->ncols)) < 0)
            rc = cli_error("%s '%s': no column '%s' (%s)", sw->lab->group_by, o->group_by, g[i],
                           sweep_col_hint(g[i], sw->names, sw->ncols, hint, sizeof hint));
        sw->group[sw->ngroup++] = (size_t)c;
    }
    free_list(g, n);
    return rc;
}

/* Add column name to the selection unless it is there or unknown. */
static void select_col(struct sweep *sw, const char *name)
{
    int c = sweep_col(name, sw->names, sw->ncols);
    for (size_t i = 0; i < sw->nsel && c >= 0; i++)
        if (sw->sel[i] == (size_t)c)
            return;
    if (c >= 0 && sw->nsel < SWEEP_MAX_COLS)
        sw->sel[sw->nsel++] = (size_t)c;
}

/* The table's columns without --columns: the axes that vary (model and
 * system always), the --best and --group-by columns, then the answers. */
static void table_cols(struct sweep *sw, const struct cli_opts *o)
{
    static const char *const answers[] = {"feasible", "step_time_s", "time_to_train_s", "power_W",
                                          "energy_J"};
    select_col(sw, "model");
    select_col(sw, "system");
    if (sw->mx_all || sw->nmx > 1)
        select_col(sw, "memoryx");
    if (sw->nsp > 1)
        select_col(sw, "sparsity");
    for (size_t i = 0; i < sw->naxis; i++)
        select_col(sw, sw->axis[i].key);
    select_col(sw, "systems");
    for (size_t i = 0; i < sw->ngroup; i++)
        select_col(sw, sw->names[sw->group[i]]);
    if (sw->best)
        select_col(sw, sw->names[sw->best_col]);
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++)
        select_col(sw, answers[i]);
    if (o->price)
        select_col(sw, "cost");
    select_col(sw, "bottleneck");
    select_col(sw, "warnings");
}

/* CSV or a table, and its columns: --columns, else every column for CSV
 * and table_cols() for the table. */
static int output_opts(struct sweep *sw, const struct cli_opts *o)
{
    sw->table = !o->csv && isatty(STDOUT_FILENO);
    if (o->columns) {
        int rc = sweep_columns_parse("--columns", o->columns, sw->names, sw->ncols, sw->sel,
                                     SWEEP_MAX_COLS, &sw->nsel);
        if (rc >= 0)
            return rc;
    } else if (sw->table) {
        table_cols(sw, o);
    } else {
        for (sw->nsel = 0; sw->nsel < sw->ncols; sw->nsel++)
            sw->sel[sw->nsel] = sw->nsel;
    }
    for (size_t i = 0; i < sw->nsel && sw->table; i++)
        sweep_disp_init(&sw->disp[i], sw->names[sw->sel[i]],
                        sweep_col_is_text(sw->names, sw->sel[i], est_ncols));
    return -1;
}

static int parse_axes(struct sweep *sw, const struct cli_opts *o)
{
    if (o->weak || o->strong)
        return cli_error("sweep: --weak and --strong apply to scale only");
    if (o->systems && o->nsys)
        return cli_error("sweep: give the cluster sizes with --systems or -n, not both");
    for (size_t i = 0; i < est_ncols; i++)
        sw->names[i] = est_header[i];
    double jobs = 1;
    int rc = scenario_whole_opt("-j", o->jobs, 1, GRID_MAX_JOBS, &jobs);
    sw->run.jobs = (unsigned)jobs;
    sw->run.shard_n = 1;
    if (rc < 0 && o->shard)
        rc = shard_opt(sw, o->shard);
    sw->max_points = SWEEP_MAX_POINTS;
    if (rc < 0)
        rc = scenario_whole_opt("--max-points", o->max_points, 1, SWEEP_CEIL_POINTS,
                                &sw->max_points);
    if (rc < 0)
        rc = names_axis(o, sw->lab->model, o->model ? o->model : SCENARIO_DEFAULT_MODEL, CAT_MODEL,
                        &sw->model, &sw->nmodel);
    if (rc < 0)
        rc = names_axis(o, sw->lab->system, o->system ? o->system : SCENARIO_DEFAULT_SYSTEM, CAT_HW,
                        &sw->system, &sw->nsystem);
    if (rc < 0)
        rc = systems_axis(sw, o);
    if (rc < 0 && o->sparsity)
        rc = sparsity_axis(sw, o->sparsity);
    if (rc < 0 && o->memoryx) {
        sw->mx_all = strcmp(o->memoryx, "all") == 0;
        if (!sw->mx_all)
            sw->mx = split(o->memoryx, &sw->nmx);
    }
    if (rc < 0)
        rc = set_axes(sw, o);
    sw->ncols = est_ncols + sw->naxis;
    if (rc < 0)
        rc = keep_opts(sw, o);
    return rc < 0 ? output_opts(sw, o) : rc;
}

/* ---- combos ---- */

static size_t ncombos(const struct sweep *sw)
{
    return sw->nmodel * sw->nsystem * sw->nset;
}

/* The grid of combo cb's points: its tiers x the sparsities x the sizes. */
static void combo_grid(const struct sweep *sw, const struct combo *cb, struct grid *g)
{
    *g = (struct grid){.base = &cb->s.c, .tier = cb->tier, .ntier = cb->ntier, .sp = sw->sp,
                       .nsp = sw->nsp, .ns = sw->ns, .nn = sw->nn, .mode = SCALE_STRONG};
}

/* Load combo q (model slowest, then system, then the --set axes, the last
 * fastest) and its tiers; -1 or an exit code after a message. */
static int combo_load(const struct sweep *sw, size_t q, struct combo *cb)
{
    struct cli_opts o2 = *sw->o;
    o2.model = sw->model[q / (sw->nsystem * sw->nset)];
    o2.system = sw->system[q / sw->nset % sw->nsystem];
    o2.nsys = o2.memoryx = o2.sparsity = NULL;
    o2.nsets = 0;
    for (size_t i = 0; i < sw->nfixed; i++)
        o2.sets[o2.nsets++] = sw->fixed[i];
    size_t a = q % sw->nset;
    for (size_t i = sw->naxis; i-- > 0;) {
        o2.sets[o2.nsets++] = sw->axis[i].val[a % sw->axis[i].n];
        cb->axis_text[i] = sw->axis[i].text[a % sw->axis[i].n];
        a /= sw->axis[i].n;
    }
    int rc = scenario_load(&o2, &cb->s);
    if (rc >= 0)
        return rc;
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
    for (size_t i = 0; i < nt && rc < 0; i++) {
        const char *name = sw->mx_all ? s->hw.mx.tiers.item[i].name : sw->mx[i];
        if ((rc = scenario_memoryx(s, name)) < 0) {
            snprintf(cb->tier[i].name, sizeof cb->tier[i].name, "%s", s->tier);
            cb->tier[i].servers = s->c.mx_servers;
        }
    }
    s->c.mx_servers = keep_servers;
    memcpy(s->tier, keep_tier, sizeof keep_tier);
    combo_grid(sw, cb, &cb->grid);
    cb->npts = grid_size(&cb->grid);
    return rc;
}

/* ---- points ---- */

static void job_rec(struct job *jb, const char *const *row, size_t line, size_t line_len)
{
    const struct sweep *sw = jb->sw;
    char *end;
    double by = strtod(row[sw->best_col], &end);
    if (end == row[sw->best_col] || *end) { /* an empty cost */
        jb->out.n = line;
        return;
    }
    size_t key = jb->out.n;
    for (size_t i = 0; i < sw->ngroup; i++) {
        const char *c = row[sw->group[i]];
        sweep_buf_put(&jb->out, c, strlen(c));
        sweep_buf_put(&jb->out, "\x1f", 1);
    }
    if (jb->nrec == jb->caprec) {
        jb->caprec = jb->caprec ? 2 * jb->caprec : 256;
        jb->rec = xrealloc(jb->rec, jb->caprec * sizeof *jb->rec);
    }
    jb->rec[jb->nrec++] = (struct rec){by, line, line_len, key, jb->out.n - key};
}

/* A point's row, formatted into the worker's buffer unless --where drops
 * it (grid_visit_fn). */
static void job_point(void *ctx, size_t j, const struct cluster *c, const struct train_result *r)
{
    struct job *jb = ctx;
    const struct sweep *sw = jb->sw;
    const struct combo *cb = jb->cb;
    est_cells(&jb->cells, &cb->s, grid_tier_of(&cb->grid, j)->name, c, r);
    const char *row[SWEEP_MAX_COLS];
    memcpy(row, jb->cells.cell, est_ncols * sizeof *row);
    for (size_t i = 0; i < sw->naxis; i++)
        row[est_ncols + i] = cb->axis_text[i];
    for (size_t i = 0; i < sw->nwhere; i++)
        if (!sweep_where_holds(&sw->where[i], row))
            return;
    size_t line = jb->out.n;
    if (sw->table)
        sweep_buf_table(&jb->out, row, jb->cells.have, jb->cells.prev, est_ncols, sw->sel, sw->disp,
                        sw->nsel);
    else
        sweep_buf_csv(&jb->out, row, jb->cells.have, jb->cells.len, est_ncols, sw->sel, sw->nsel);
    if (sw->best)
        job_rec(jb, row, line, jb->out.n - line);
}

/* ---- output ---- */

/* Where rows go: standard output as CSV or as the table, or (--best) the
 * groups, written at the end. */
struct sink {
    const struct sweep *sw;
    struct grid_best *gs; /* NULL without --best */
    struct sweep_table table;
    struct sweep_progress pg;
};

static void sink_put(struct sink *k, const char *lines, size_t len)
{
    if (k->sw->table) {
        sweep_table_add(&k->table, lines, len);
        return;
    }
    sweep_progress_before_out(&k->pg);
    fwrite(lines, 1, len, stdout);
}

/* Write (or fold into groups) what the jobs of one round computed, in
 * order, and empty their buffers; then the progress line (grid_round_fn). */
static void round_emit(void *arg, void *const *ctx, unsigned n, size_t done)
{
    struct sink *k = arg;
    for (unsigned t = 0; t < n; t++) {
        struct job *jb = ctx[t];
        if (!k->gs && jb->out.n) /* nothing kept: the buffer may never have been made */
            sink_put(k, jb->out.p, jb->out.n);
        for (size_t i = 0; k->gs && i < jb->nrec; i++) {
            const struct rec *r = &jb->rec[i];
            grid_best_offer(k->gs, jb->out.p + r->key, r->key_len, r->by, jb->out.p + r->line,
                               r->line_len);
        }
        jb->out.n = jb->nrec = 0;
    }
    k->pg.done += done;
    sweep_progress_show(&k->pg);
}

/* Every point of combo cb this run takes, through the grid engine. */
static void combo_run(const struct sweep *sw, const struct combo *cb, struct job *jobs,
                      struct sink *k)
{
    void *ctx[GRID_MAX_JOBS];
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        jobs[t].cb = cb;
        ctx[t] = &jobs[t];
    }
    struct grid_sched run = sw->run;
    run.base = cb->base;
    grid_run(&cb->grid, &run, ctx, job_point, round_emit, k);
}

/* The CSV header, or the table (its header waits for the first rows). */
static void sink_open(struct sink *k, const struct sweep *sw, struct grid_best *gs, size_t total)
{
    k->sw = sw;
    k->gs = sw->best ? gs : NULL;
    sweep_progress_start(&k->pg, grid_share(total, &sw->run));
    if (sw->table) {
        sweep_table_init(&k->table, stdout, sw->disp, sw->nsel);
        k->table.on_write = sweep_progress_before_out;
        k->table.arg = &k->pg;
        return;
    }
    struct sweep_buf b = {0};
    sweep_buf_csv(&b, sw->names, NULL, NULL, 0, sw->sel, sw->nsel);
    fwrite(b.p, 1, b.n, stdout);
    free(b.p);
}

/* The --best rows, the rest of the table, and the progress line erased. */
static void sink_close(struct sink *k)
{
    for (size_t i = 0; k->gs && i < k->gs->n; i++)
        sink_put(k, k->gs->row[i].row, strlen(k->gs->row[i].row));
    if (k->sw->table)
        sweep_table_end(&k->table);
    sweep_progress_end(&k->pg);
}

/* Fewest points the grid can have (every system at least one MemoryX
 * choice), in double so that no product wraps; refused when this run's
 * share (the grid over --shard's N) passes --max-points (SWEEP_MAX_POINTS unless given), before any
 * combination loads. */
static int check_size(const struct sweep *sw)
{
    double least = (double)sw->nmodel * (double)sw->nsystem * (double)sw->nset *
                   (double)(sw->sp ? sw->nsp : 1) * (double)sw->nn;
    if (least / sw->run.shard_n > sw->max_points)
        return cli_error("sweep: the grid has at least %.4g points, %.4g for this run, more "
                         "than the %.4g one run evaluates (--max-points); narrow an axis or "
                         "split it with --shard K/N",
                         least, least / sw->run.shard_n, sw->max_points);
    return -1;
}

static int sweep_run(const struct sweep *sw)
{
    int size_rc = check_size(sw);
    if (size_rc >= 0)
        return size_rc;
    struct combo *cb = xmalloc(sizeof *cb);
    memset(cb, 0, sizeof *cb);
    /* First pass: every combo loads, and the grid's size. */
    size_t total = 0;
    int rc = -1;
    for (size_t q = 0; q < ncombos(sw) && rc < 0; q++)
        if ((rc = combo_load(sw, q, cb)) < 0) {
            total += cb->npts;
            if ((double)total / sw->run.shard_n > sw->max_points)
                rc = cli_error("sweep: the grid has more than %.4g points for this run, the "
                               "most one run evaluates (--max-points); narrow an axis or split "
                               "it with --shard K/N",
                               sw->max_points);
        }
    if (rc >= 0 && sw->lab->file_scenario)
        cli_error("%s: its memoryx and section.key values are checked with the model and "
                  "system loaded, as --memoryx and --set",
                  sw->lab->path);
    if (rc >= 0) {
        free(cb->tier);
        free(cb);
        return rc;
    }
    struct job *jobs = xmalloc(sw->run.jobs * sizeof *jobs);
    memset(jobs, 0, sw->run.jobs * sizeof *jobs);
    for (unsigned t = 0; t < sw->run.jobs; t++)
        jobs[t].sw = sw;
    struct grid_best gs;
    grid_best_init(&gs);
    struct sink k = {0};
    sink_open(&k, sw, &gs, total);
    size_t base = 0;
    for (size_t q = 0; q < ncombos(sw); q++) {
        combo_load(sw, q, cb); /* loaded once already: cannot fail now */
        cb->base = base;
        combo_run(sw, cb, jobs, &k);
        base += cb->npts;
    }
    sink_close(&k);
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        free(jobs[t].out.p);
        free(jobs[t].rec);
    }
    free(jobs);
    grid_best_free(&gs);
    free(cb->tier);
    free(cb);
    return cli_flush();
}

static void sweep_free(struct sweep *sw)
{
    free_list(sw->model, sw->nmodel);
    free_list(sw->system, sw->nsystem);
    free_list(sw->mx, sw->nmx);
    free(sw->ns);
    free(sw->sp);
    for (size_t i = 0; i < sw->naxis; i++) {
        free_list(sw->axis[i].val, sw->axis[i].n);
        free_list(sw->axis[i].text, sw->axis[i].n);
    }
}

int cmd_sweep(struct cli_opts *o)
{
    static struct sweep sw;
    memset(&sw, 0, sizeof sw);
    struct sweep_labels lab;
    sweep_labels_init(&lab, o);
    sw.o = o;
    sw.lab = &lab;
    int rc = o->nargs ? sweep_file_load(o->args[0], o, &lab) : -1;
    if (rc < 0)
        rc = parse_axes(&sw, o);
    if (rc < 0)
        rc = sweep_run(&sw);
    sweep_free(&sw);
    sweep_file_free();
    return rc;
}
