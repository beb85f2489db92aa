/* check_print.c - the cross-check's table and verdict (check_print.h). */
#include "check_print.h"

#include <math.h>

static const char *const header[] = {
    "model",      "system",      "systems",       "batch_seqs",  "sparsity",        "memoryx",
    "overlap",    "regime",      "analytic_s",    "simulated_s", "rel_diff",        "events",
    "sim_wall_s", "activations", "micro_batches", "set",         "memoryx_servers", "act_servers"};
#define NCOLS (sizeof header / sizeof header[0])

/* rel in percent as "%+.4f" shows it, with a figure that rounds to zero
 * shown as +0.0000, not -0.0000. */
static double pct_shown(double rel)
{
    double pct = 100 * rel;
    return fabs(pct) < 0.00005 ? 0.0 : pct;
}

static void add_row(struct out_table *t, const struct check_row *r, int csv)
{
    char b[NCOLS][96];
    const char *cell[NCOLS] = {r->p->model, r->p->system};
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
    for (size_t i = 2; i < NCOLS; i++)
        cell[i] = b[i];
    out_row(t, cell);
}

void check_table_init(struct out_table *t)
{
    out_init(t, NCOLS, header);
}

void check_table_rows(struct out_table *t, const struct check_row *rows, size_t n, int csv)
{
    for (size_t i = 0; i < n; i++)
        add_row(t, &rows[i], csv);
}

void check_print_verdict(FILE *f, const struct check_summary *sum, size_t n)
{
    if (sum->misplaced)
        fprintf(f,
                "\n%zu points hold a different number of sequences in SRAM or on the "
                "activation servers, or run a different number of micro-batches\n",
                sum->misplaced);
    fprintf(f,
            "\n%zu points: max |rel_diff| %.4f %% (limit %g %%), median %.4f %% (limit %g %%): "
            "%s\n",
            n, 100 * sum->worst, 100 * CHECK_MAX_TOL, 100 * sum->median, 100 * CHECK_MEDIAN_TOL,
            sum->agree ? "agree" : "DISAGREE");
}
