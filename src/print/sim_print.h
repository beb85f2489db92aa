/* sim_print.h - what `simulate` prints: the timing simulator's result
 * (src/sim/sim.h) as text or one CSV row, its trace rows, and the
 * functional simulator's (src/sim/fsim.h) as text or CSV. */
#ifndef CP_SIM_PRINT_H
#define CP_SIM_PRINT_H

#include <stdio.h>

#include "../cli/out.h"
#include "../sim/fsim.h"
#include "../sim/sim.h"

/* t initialised with simulate --csv's columns (the caller frees it). */
void sim_table_init(struct out_table *t);

/* The row of run c with result r, wall seconds of wall time. */
void sim_table_row(struct out_table *t, const struct sim_config *c, const struct sim_result *r,
                   double wall);

/* The run c (its workload and hardware c->wl, c->hw) with result r as
 * text to f, wall seconds of wall time. */
void sim_print_text(FILE *f, const struct sim_config *c, const struct sim_result *r, double wall);

/* The trace's header line, and one row per interval: as the simulator's
 * trace callback, ctx a struct sim_trace_out.  A row that cannot be
 * written stops the run (nonzero) and keeps its errno in err. */
struct sim_trace_out {
    FILE *f;
    int err;
};
void sim_trace_header(FILE *f);
int sim_trace_row(void *ctx, const struct sim_interval *iv);

/* simulate --functional's table: one row of run c (the description's
 * SwarmX fan-out as given, fanout) with result r and verdict ok
 * (the caller frees t). */
void sim_functional_table(struct out_table *t, const struct fsim_config *c, double fanout,
                          const struct fsim_result *r, int ok);

/* The same as text to f. */
void sim_functional_text(FILE *f, const struct fsim_config *c, double fanout,
                         const struct fsim_result *r, int ok);

#endif
