/* check.c - the cross-check's comparison (check.h): the analytic model
 * settles a point's servers and placement, the simulator times that
 * choice with its own arithmetic, and the two step times are compared. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../base/wall.h"

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

void check_sim_config(const struct cluster *c, struct sim_config *sc, struct step_result *st)
{
    struct step_result own;
    if (!st)
        st = &own;
    step_eval(c, st);
    sim_config_init(sc, c->hw, c->wl);
    sc->mx_servers = st->mx_servers;
    sc->act = sim_placement(st->act);
    sc->act_k = st->act == ACT_RECOMPUTE ? st->act_k : 0;
    sc->act_servers = st->act == ACT_OFFLOAD ? st->act_servers : 0;
    sc->systems = c->systems;
    sc->sparsity = c->sparsity;
    sc->overlap = c->overlap;
    sc->global_seqs = c->global_seqs;
}

/* The simulator's configuration for point p on c: check_sim_config's, in
 * p's MemoryX units, bounded by the simulator's ceiling (the grid's
 * total is bounded by its caller). */
static void point_config(const struct check_point *p, const struct cluster *c,
                         struct sim_config *sc, struct step_result *st)
{
    check_sim_config(c, sc, st);
    if (p->units > 0)
        sc->units = p->units;
    sc->max_events = SIM_CEIL_EVENTS;
}

cp_status check_point_events(const struct check_point *p, const struct cluster *c, double *events,
                             struct cp_error *err)
{
    struct sim_config sc;
    struct step_result st;
    struct sim_size z;
    point_config(p, c, &sc, &st);
    cp_status rc = sim_size(&sc, &z, err);
    if (rc == CP_OK)
        *events += z.events;
    return rc;
}

cp_status check_point_run(const struct check_point *p, const struct cluster *c, const char *tier,
                          struct check_row *row, struct cp_error *err)
{
    struct sim_config sc;
    struct step_result st;
    struct sim_result sr;
    point_config(p, c, &sc, &st);
    double t0 = wall_now_s();
    cp_status rc = sim_run(&sc, &sr, err);
    if (rc != CP_OK)
        return rc;
    *row = (struct check_row){.p = p, .batch = c->global_seqs};
    snprintf(row->tier, sizeof row->tier, "%s", tier);
    step_act_label(&st, row->act, sizeof row->act);
    row->wall_s = wall_now_s() - t0;
    row->analytic_s = st.step_s;
    row->sim_s = sr.step_s;
    row->rel = (sr.step_s - st.step_s) / st.step_s;
    row->events = sr.events;
    row->regime = st.bottleneck;
    row->mx_servers = st.mx_servers;
    row->act_servers = sc.act_servers;
    row->micro_batches = sr.micro_batches;
    row->placement_ok = same_placement(&sr, &st);
    return CP_OK;
}

static int worse_first(const void *a, const void *b)
{
    double x = fabs(((const struct check_row *)a)->rel);
    double y = fabs(((const struct check_row *)b)->rel);
    return (x < y) - (x > y);
}

void check_summarise(struct check_row *rows, size_t n, struct check_summary *sum)
{
    if (n == 0) { /* nothing compared: nothing agrees */
        *sum = (struct check_summary){NAN, NAN, 0, 0};
        return;
    }
    qsort(rows, n, sizeof rows[0], worse_first);
    sum->worst = fabs(rows[0].rel);
    sum->median = (fabs(rows[(n - 1) / 2].rel) + fabs(rows[n / 2].rel)) / 2;
    sum->misplaced = 0;
    for (size_t i = 0; i < n; i++)
        sum->misplaced += !rows[i].placement_ok;
    sum->agree =
        sum->worst <= CHECK_MAX_TOL && sum->median <= CHECK_MEDIAN_TOL && sum->misplaced == 0;
}
