/* sweep_emit.c - the rows a sweep keeps and where they go, whatever the
 * kind of system: each point's row filtered (--where), formatted as CSV or
 * a table line into its worker's buffer, kept for --best; each round's
 * buffers written in order by the main thread, so the output does not
 * depend on -j; and the run of a kind's combos (see sweep_int.h).  Memory
 * is constant in the number of points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "sweep_int.h"

/* The number in cell c of a row (num and value as sweep_job_row takes
 * them); 0 when the cell is not a number. */
static int row_number(const struct sweep *sw, const char *const *row, const unsigned char *num,
                      const double *value, size_t c, double *x)
{
    if (c < sw->nbase && num[c]) { /* its text reads back as value[c] */
        *x = value[c];
        return 1;
    }
    char *end;
    *x = strtod(row[c], &end);
    return end != row[c] && !*end;
}

/* Keep the row at line (line_len bytes) of the job's buffer for --best:
 * its value and its group's key; a row without a value (an empty cost, an
 * infeasible GPU point's time) is dropped. */
static void job_rec(struct sweep_job *jb, const char *const *row, const unsigned char *num,
                    const double *value, size_t line, size_t line_len)
{
    const struct sweep *sw = jb->sw;
    double by;
    if (!row_number(sw, row, num, value, sw->best_col, &by)) {
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
    jb->rec[jb->nrec++] = (struct sweep_rec){by, line, line_len, key, jb->out.n - key};
}

void sweep_job_row(struct sweep_job *jb, const char **row, const char *const *axis_text,
                   const unsigned char *num, const double *value, const unsigned char *plain,
                   const unsigned char *plain_len)
{
    const struct sweep *sw = jb->sw;
    for (size_t i = 0; i < sw->naxis; i++)
        row[sw->nbase + i] = axis_text[i];
    for (size_t i = 0; i < sw->nwhere; i++)
        if (!sweep_where_holds(&sw->where[i], row, num, value, sw->nbase))
            return;
    size_t line = jb->out.n;
    if (sw->table)
        sweep_buf_table(&jb->out, row, num, value, sw->nbase, sw->sel, sw->disp, sw->nsel);
    else
        sweep_buf_csv(&jb->out, row, plain, plain_len, plain ? sw->nbase : 0, sw->sel, sw->nsel);
    if (sw->best)
        job_rec(jb, row, num, value, line, jb->out.n - line);
}

int sweep_direct(const struct sweep *sw)
{
    if (sw->table || sw->nwhere || sw->best || sw->naxis || sw->nsel != sw->nbase)
        return 0;
    for (size_t i = 0; i < sw->nsel; i++)
        if (sw->sel[i] != i)
            return 0;
    return 1;
}

static void sink_put(struct sweep_sink *k, const char *lines, size_t len)
{
    if (k->sw->table) {
        sweep_table_add(&k->table, lines, len);
        return;
    }
    sweep_progress_before_out(&k->pg);
    fwrite(lines, 1, len, stdout);
}

void sweep_round_emit(void *arg, void *const *ctx, unsigned n, size_t done)
{
    struct sweep_sink *k = arg;
    for (unsigned t = 0; t < n; t++) {
        struct sweep_job *jb = ctx[t];
        if (!k->gs && jb->out.n) /* nothing kept: the buffer may never have been made */
            sink_put(k, jb->out.p, jb->out.n);
        for (size_t i = 0; k->gs && i < jb->nrec; i++) {
            const struct sweep_rec *r = &jb->rec[i];
            grid_best_offer(k->gs, jb->out.p + r->key, r->key_len, r->by, jb->out.p + r->line,
                            r->line_len);
        }
        jb->out.n = jb->nrec = 0;
    }
    k->pg.done += done;
    sweep_progress_show(&k->pg);
}

/* The CSV header, or the table (its header waits for the first rows). */
static void sink_open(struct sweep_sink *k, const struct sweep *sw, struct grid_best *gs,
                      size_t total)
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
static void sink_close(struct sweep_sink *k)
{
    for (size_t i = 0; k->gs && i < k->gs->n; i++)
        sink_put(k, k->gs->row[i].row, strlen(k->gs->row[i].row));
    if (k->sw->table)
        sweep_table_end(&k->table);
    sweep_progress_end(&k->pg);
}

static size_t ncombos(const struct sweep *sw)
{
    return sw->nmodel * sw->nsystem * sw->nset;
}

/* Fewest points the grid can have, in double so that no product wraps;
 * refused when this run's share (the grid over --shard's N) passes
 * --max-points, before any combination loads. */
static int check_size(const struct sweep *sw, const struct sweep_kind *kind)
{
    double least = (double)ncombos(sw) * kind->points_per_combo;
    if (least / sw->run.shard_n > sw->max_points)
        return cli_error("sweep: the grid has at least %.4g points, %.4g for this run, more "
                         "than the %.4g one run evaluates (--max-points); narrow an axis or "
                         "split it with --shard K/N",
                         least, least / sw->run.shard_n, sw->max_points);
    return -1;
}

/* First pass: every combo loads (so that no bad value comes after some
 * output), and the grid's size into *total. */
static int load_all(const struct sweep *sw, const struct sweep_kind *kind, size_t *total)
{
    int rc = -1;
    for (size_t q = 0, n; q < ncombos(sw) && rc < 0; q++)
        if ((rc = kind->load(sw, q, kind->cb, &n)) < 0) {
            *total += n;
            if ((double)*total / sw->run.shard_n > sw->max_points)
                rc = cli_error("sweep: the grid has more than %.4g points for this run, the "
                               "most one run evaluates (--max-points); narrow an axis or split "
                               "it with --shard K/N",
                               sw->max_points);
        }
    if (rc >= 0 && sw->lab->file_scenario)
        cli_error("%s: its memoryx and section.key values are checked with the model and "
                  "system loaded, as --memoryx and --set",
                  sw->lab->path);
    if (rc < 0 && kind->loaded)
        rc = kind->loaded(sw, kind->cb);
    return rc;
}

int sweep_exec(const struct sweep *sw, const struct sweep_kind *kind)
{
    size_t total = 0;
    int rc = check_size(sw, kind);
    if (rc < 0)
        rc = load_all(sw, kind, &total);
    if (rc >= 0)
        return rc;
    struct sweep_job *jobs = xmalloc(sw->run.jobs * sizeof *jobs);
    memset(jobs, 0, sw->run.jobs * sizeof *jobs);
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        jobs[t].sw = sw;
        jobs[t].cells.want = sw->want; /* weight streaming: the numbers written */
        jobs[t].direct = sweep_direct(sw);
    }
    struct grid_best gs;
    grid_best_init(&gs);
    struct sweep_sink k = {0};
    sink_open(&k, sw, &gs, total);
    size_t base = 0;
    for (size_t q = 0, n; q < ncombos(sw); q++) {
        kind->load(sw, q, kind->cb, &n); /* loaded once already: cannot fail now */
        kind->run(sw, kind->cb, base, jobs, &k);
        base += n;
    }
    sink_close(&k);
    for (unsigned t = 0; t < sw->run.jobs; t++) {
        free(jobs[t].out.p);
        free(jobs[t].rec);
    }
    free(jobs);
    grid_best_free(&gs);
    return cli_flush();
}
