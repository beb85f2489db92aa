/* cmd_crosscheck.c - `crosscheck`: the analytic model against the timing
 * simulator on the grid of src/check (check.h), worst points first.  This
 * file loads each point's descriptions and words the errors; the
 * comparison is check.c's, the table check_print.c's. */
#include <stdio.h>
#include <stdlib.h>

#include "produce.h"
#include "../base/xalloc.h"
#include "../check/check.h"
#include "../print/check_print.h"
#include "../face/scenario_ws.h"

/* o with the point's own --set options added, into po; -1 or an exit
 * code after a message. */
static int point_opts(const struct cli_opts *o, const struct check_point *p, struct cli_opts *po)
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
static int point_scenario(const struct cli_opts *o, const struct check_point *p, struct scenario *s)
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

/* Evaluate one point both ways into row, or with events non-NULL only
 * size its simulation and add its events there.  -1, or an exit code after
 * a message. */
static int eval_point(const struct cli_opts *o, const struct check_point *p, struct check_row *row,
                      double *events)
{
    static struct scenario s;
    int rc = point_scenario(o, p, &s);
    if (rc >= 0)
        return rc;
    struct cp_error err = {0};
    char msg[CP_ERROR_MAX];
    if (events) {
        if (check_point_events(p, &s.c, events, &err) == CP_OK)
            return -1;
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system,
                         scenario_batch_msg(o, &s, p->batch > 0, err.msg, msg, sizeof msg));
    }
    if (check_point_run(p, &s.c, s.tier, row, &err) != CP_OK)
        return cli_error("crosscheck: %s on %g %s: %s", p->model, p->systems, p->system, err.msg);
    return -1;
}

/* The grid's simulations are sized before any runs: -1 if their events in
 * all stay within --max-events (SIM_MAX_EVENTS unless given), or an exit
 * code after a message. */
static int check_events(const struct cli_opts *o)
{
    double bound = SIM_MAX_EVENTS, events = 0;
    int rc = scenario_whole_opt("--max-events", o->max_events, 1, SIM_CEIL_EVENTS, &bound);
    for (size_t i = 0; i < check_npoints && rc < 0; i++)
        rc = eval_point(o, &check_grid[i], NULL, &events);
    if (rc < 0 && events > bound)
        return cli_error("crosscheck: --max-events: the %zu points would take %.4g simulated "
                         "events in all, more than the %.4g allowed; raise --max-events (up to "
                         "%g)",
                         check_npoints, events, bound, SIM_CEIL_EVENTS);
    return rc;
}

/* crosscheck_table(), and the summary into *sum. */
static int table(const struct cli_opts *o, struct out_table *t, struct check_summary *sum)
{
    check_table_init(t);
    int rc = check_events(o);
    if (rc >= 0)
        return rc;
    struct check_row *rows = xmalloc(check_npoints * sizeof *rows);
    for (size_t i = 0; i < check_npoints && rc < 0; i++)
        rc = eval_point(o, &check_grid[i], &rows[i], NULL);
    if (rc < 0) {
        check_summarise(rows, check_npoints, sum);
        check_table_rows(t, rows, check_npoints, o->csv);
    }
    free(rows);
    return rc;
}

int crosscheck_table(const struct cli_opts *o, struct out_table *t, double *worst, double *median)
{
    struct check_summary sum;
    int rc = table(o, t, &sum);
    if (rc < 0) {
        *worst = sum.worst;
        *median = sum.median;
    }
    return rc;
}

int cmd_crosscheck(struct cli_opts *o)
{
    struct out_table t;
    struct check_summary sum;
    int rc = table(o, &t, &sum);
    if (rc >= 0) {
        out_free(&t);
        return rc;
    }
    rc = cli_emit(o, &t);
    out_free(&t);
    if (!o->csv) {
        check_print_verdict(stdout, &sum, check_npoints);
        rc = rc == EXIT_OK ? cli_flush() : rc;
    }
    if (rc == EXIT_OK && !sum.agree)
        rc = EXIT_VERDICT;
    return rc;
}
