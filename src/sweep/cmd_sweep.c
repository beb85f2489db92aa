/* cmd_sweep.c - `sweep`: the estimate of every point of a grid of
 * configurations, streamed as CSV in a fixed order (or, to a terminal, as
 * a text table with units for people), optionally filtered (--where),
 * reduced to the best row of each group (--best, --group-by), cut to some
 * columns (--columns), computed on N threads (-j) and split into
 * interleaved shards (--shard).
 *
 * This file reads the axes every sweep has: models x systems x --set axes
 * (each such "combo" loads its descriptions once), the options that keep
 * and write rows, and which kind of system the sweep runs on: the
 * weight-streaming systems' points (sweep_ws.c) or the GPU systems' points
 * (sweep_gpu.c); one run takes one kind.  The rows go out through
 * sweep_emit.c whatever the kind (see sweep_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/xalloc.h"
#include "../cli/job.h"
#include "sweep_int.h"

/* The largest grid one sweep run evaluates unless --max-points says
 * otherwise (cerebras-plan(1), sweep): about 25 minutes at the measured
 * 6.5e5 points per second, and terabytes of CSV past it.  Sizes are checked
 * against it before any output.  --max-points may raise it as far as
 * SWEEP_CEIL_POINTS, where a point's index still counts exactly in a
 * double. */
#define SWEEP_MAX_POINTS 1e9
#define SWEEP_CEIL_POINTS 1e15
/* ---- axes ---- */

/* Whether -s all keeps the listed system item: one of the default
 * system's kind, as a sweep takes systems of one kind (a description that
 * cannot be opened is kept: its load names the error). */
static int keep_listed(const struct cat_entry *item)
{
    const struct face *f = job_listed_face(item);
    return !f || f == job_default_face();
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
            if (kind != CAT_HW || keep_listed(&l.items[i]))
                (*out)[(*n)++] = xstrdup(l.items[i].name);
        cat_list_free(&l);
        return *n ? -1 : cli_error("%s all: no descriptions found", flag);
    }
    *out = sweep_split(arg, n);
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
        struct sweep_axis *a = &sw->axis[sw->naxis++];
        snprintf(a->key, sizeof a->key, "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
        a->text = sweep_split(eq + 1, &a->n);
        if (a->n == 0)
            return cli_error("--set '%s': no values", o->sets[i]);
        a->val = xmalloc(a->n * sizeof *a->val);
        for (size_t k = 0; k < a->n; k++) {
            size_t len = strlen(a->key) + strlen(a->text[k]) + 2;
            a->val[k] = xmalloc(len);
            snprintf(a->val[k], len, "%s=%s", a->key, a->text[k]);
        }
        sw->names[sw->nbase + sw->naxis - 1] = a->key;
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
        rc = sweep_where_parse(sw->lab->where[i], o->where[i], sw->names, sw->ncols, sw->nbase,
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
    if (sweep_col_is_text(sw->names, (size_t)c, sw->nbase))
        return cli_error("%s '%s': not a numeric column of the output", sw->lab->best, o->best);
    sw->best = 1;
    sw->best_col = (size_t)c;
    size_t n = 0;
    char **g = o->group_by ? sweep_split(o->group_by, &n) : NULL;
    for (size_t i = 0; i < n && rc < 0; i++) {
        if ((c = sweep_col(g[i], sw->names, sw->ncols)) < 0)
            rc = cli_error("%s '%s': no column '%s' (%s)", sw->lab->group_by, o->group_by, g[i],
                           sweep_col_hint(g[i], sw->names, sw->ncols, hint, sizeof hint));
        else
            sw->group[sw->ngroup++] = (size_t)c;
    }
    sweep_free_list(g, n);
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
 * system always), the --best and --group-by columns, then the answers of
 * the kind. */
static void table_cols(struct sweep *sw, const struct cli_opts *o)
{
    select_col(sw, "model");
    select_col(sw, "system");
    if (sw->mx_all || sw->nmx > 1)
        select_col(sw, "memoryx");
    if (sw->nsp > 1)
        select_col(sw, "sparsity");
    if (sw->nprec > 1)
        select_col(sw, "precision");
    for (size_t i = 0; i < sw->naxis; i++)
        select_col(sw, sw->axis[i].key);
    select_col(sw, sw->face->count_col);
    for (size_t i = 0; i < sw->ngroup; i++)
        select_col(sw, sw->names[sw->group[i]]);
    if (sw->best)
        select_col(sw, sw->names[sw->best_col]);
    if (sw->layouts > 1)
        select_col(sw, "rank");
    for (size_t i = 0; i < sw->face->nanswers; i++)
        select_col(sw, sw->face->answers[i]);
    if (o->price)
        select_col(sw, "cost");
    select_col(sw, "bottleneck");
    select_col(sw, sw->face->why_col);
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
                        sweep_col_is_text(sw->names, sw->sel[i], sw->nbase));
    return -1;
}

/* sw->want: the columns of the kind whose numbers are written as text
 * (the CSV's) or read as text (--where, --best, --group-by). */
static void wanted_cols(struct sweep *sw)
{
    unsigned char *w = sw->want_col;
    memset(w, 0, sizeof sw->want_col);
    for (size_t i = 0; i < sw->nsel && !sw->table; i++)
        w[sw->sel[i]] = 1;
    for (size_t i = 0; i < sw->nwhere; i++)
        w[sw->where[i].col] = 1;
    for (size_t i = 0; i < sw->ngroup; i++)
        w[sw->group[i]] = 1;
    if (sw->best)
        w[sw->best_col] = 1;
    sw->want = NULL;
    for (size_t c = 0; c < sw->nbase; c++)
        if (!w[c])
            sw->want = w;
}

/* Which kind of system the sweep runs on: every system of -s of one kind
 * (their rows have different columns). */
static int systems_kind(struct sweep *sw, const struct cli_opts *o)
{
    for (size_t i = 0; i < sw->nsystem; i++) {
        struct cat_entry e;
        struct cp_error err = {0};
        if (cat_resolve(&o->dirs, sw->system[i], CAT_HW, &e, &err) != CP_OK)
            return cli_error("%s '%s': %s", sw->lab->system, sw->system[i], err.msg);
        const struct sweep_face *f = job_face_of(e.text)->sweep;
        cat_entry_free(&e);
        if (i == 0)
            sw->face = f;
        else if (f != sw->face)
            return cli_error("%s: %s is a %s system and %s a %s system; one sweep runs on one "
                             "kind (their rows have different columns): sweep each kind in a "
                             "run of its own",
                             sw->lab->system, sw->system[0], sw->face->word, sw->system[i],
                             f->word);
    }
    return -1;
}

static int parse_axes(struct sweep *sw, const struct cli_opts *o)
{
    if (o->weak || o->strong)
        return cli_error("sweep: --weak and --strong apply to scale only");
    if (o->systems && o->nsys)
        return cli_error("sweep: give the cluster sizes with --systems or -n, not both");
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
        rc = systems_kind(sw, o);
    if (rc < 0)
        rc = sw->face->parse(sw, o);
    if (rc < 0)
        rc = set_axes(sw, o);
    sw->ncols = sw->nbase + sw->naxis;
    if (rc < 0)
        rc = keep_opts(sw, o);
    if (rc < 0)
        rc = output_opts(sw, o);
    if (rc < 0)
        wanted_cols(sw); /* the columns are known and checked */
    return rc;
}

static void sweep_free(struct sweep *sw)
{
    sweep_free_list(sw->model, sw->nmodel);
    sweep_free_list(sw->system, sw->nsystem);
    sweep_free_list(sw->mx, sw->nmx);
    free(sw->ns);
    free(sw->sp);
    for (size_t i = 0; i < sw->naxis; i++) {
        sweep_free_list(sw->axis[i].val, sw->axis[i].n);
        sweep_free_list(sw->axis[i].text, sw->axis[i].n);
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
        rc = sw.face->exec(&sw);
    sweep_free(&sw);
    sweep_file_free();
    return rc;
}
