/* cmd_simulate.c - `simulate`: the discrete-event simulator on one
 * configuration (timing), or the functional simulator (--functional).
 *
 * The simulator times a configuration it is given whole.  What the
 * scenario leaves to be sized (MemoryX servers, activation servers, where
 * the activations go) is settled as `estimate` settles it: the analytic
 * model chooses, the simulator times the choice with its own arithmetic. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../model/step.h"
#include "../sim/sim.h"
#include "atomic.h"
#include "scenario.h"

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The trace's file and why its first failed row failed (errno), for the
 * message: the simulator only learns that it failed. */
struct trace_out {
    FILE *f;
    int err;
};

static int trace_row(void *ctx, const struct sim_interval *iv)
{
    struct trace_out *t = ctx;
    int bad = fprintf(t->f, "%.9e,%.9e,%s,%d,%s,%d,%d,%d,%d,%.9e\n", iv->start_s, iv->end_s,
                      sim_comp_name[iv->comp], iv->index, iv->activity, iv->step, iv->micro_batch,
                      iv->layer, iv->packet, iv->bytes) < 0;
    if (bad && !t->err)
        t->err = errno ? errno : EIO;
    return bad;
}

static const char *const sim_header[] = {"systems",
                                         "memoryx_units",
                                         "step_time_s",
                                         "first_step_s",
                                         "events",
                                         "sim_wall_s",
                                         "events_per_s",
                                         "micro_batches",
                                         "packets_per_step",
                                         "swarmx_depth",
                                         "swarmx_nodes",
                                         "flash_fraction",
                                         "compute_wait_s",
                                         "util_memoryx_egress",
                                         "util_swarmx_down",
                                         "util_system_ingress",
                                         "util_compute",
                                         "util_system_egress",
                                         "util_swarmx_up",
                                         "util_memoryx_ingress",
                                         "util_update",
                                         "bytes_memoryx_egress",
                                         "bytes_swarmx_down",
                                         "bytes_system_ingress",
                                         "bytes_system_egress",
                                         "bytes_swarmx_up",
                                         "bytes_memoryx_ingress",
                                         "activations",
                                         "act_bytes",
                                         "slowest_factor",
                                         "memoryx_servers",
                                         "memoryx_bytes",
                                         "act_servers",
                                         "max_seqs"};
#define SIM_NCOLS (sizeof sim_header / sizeof sim_header[0])

/* Mean utilisation of a class over the last step (0 when it has none). */
static double util(const struct sim_result *r, int k)
{
    return r->count[k] ? r->busy_s[k] / (r->count[k] * r->step_s) : 0;
}

static void csv_row(struct out_table *t, const struct sim_config *c, const struct sim_result *r,
                    double wall)
{
    char b[SIM_NCOLS][64];
    const char *cell[SIM_NCOLS];
    double v[] = {c->systems,         c->units, r->step_s,        r->first_step_s,
                  (double)r->events,  wall,     r->events / wall, r->micro_batches,
                  (double)r->packets, r->depth, r->nodes,         r->flash_fraction,
                  r->compute_wait_s};
    size_t nv = sizeof v / sizeof v[0], i = 0;
    for (; i < nv; i++)
        snprintf(b[i], sizeof b[i], "%.10g", v[i]);
    for (int k = 0; k < SIM_NCOMP; k++, i++)
        snprintf(b[i], sizeof b[i], "%.6g", util(r, k));
    for (int k = 0; k < SIM_NCOMP; k++)
        if (k != SIM_COMPUTE && k != SIM_UPDATE)
            snprintf(b[i++], sizeof b[i], "%.10g", r->bytes[k]);
    sim_act_label(r->act, r->act_k, b[i], sizeof b[i]);
    i++;
    snprintf(b[i++], sizeof b[i], "%.10g", r->act_bytes);
    snprintf(b[i++], sizeof b[i], "%.10g", r->slowest);
    snprintf(b[i++], sizeof b[i], "%.10g", c->mx_servers);
    snprintf(b[i++], sizeof b[i], "%.10g", r->mx_bytes);
    snprintf(b[i++], sizeof b[i], "%.10g", c->act == SIM_ACT_OFFLOAD ? c->act_servers : 0);
    snprintf(b[i++], sizeof b[i], "%.10g", r->max_seqs);
    for (i = 0; i < SIM_NCOLS; i++)
        cell[i] = b[i];
    out_row(t, cell);
}

static void print_activations(const struct sim_config *c, const struct sim_result *r)
{
    char a[64], b[64], lbl[32];
    sim_act_label(r->act, r->act_k, lbl, sizeof lbl);
    printf("activations %s: %s of SRAM a sequence", lbl,
           unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a));
    switch (r->act) {
    case SIM_ACT_OFFLOAD:
        printf("; %s of block inputs per system per step out and back at %s to %g activation "
               "server%s, which hold%s %g sequences; blocks recomputed\n",
               unit_format(r->act_bytes, UNIT_BYTES, a, sizeof a),
               unit_format(r->act_Bps, UNIT_BYTE_RATE, b, sizeof b), c->act_servers,
               c->act_servers == 1 ? "" : "s", c->act_servers == 1 ? "s" : "", r->store_seqs);
        break;
    case SIM_ACT_RECOMPUTE:
        printf("; %s\n", r->act_k > 1 ? "each segment's forward rerun before its backward, "
                                        "its weights streamed a third time"
                                      : "each block recomputed in its backward");
        break;
    default:
        printf("\n");
    }
}

static void print_text(const struct scenario *s, const struct sim_config *c,
                       const struct sim_result *r, double wall)
{
    char a[64], b[64], d[64];
    printf("%s on %g x %s, MemoryX %g server%s (%s, %.3g %% on flash) as %g unit%s, "
           "sparsity %g, overlap %g\n",
           s->wl.name, c->systems, s->hw.wse.name, c->mx_servers, c->mx_servers == 1 ? "" : "s",
           unit_format(r->mx_bytes, UNIT_BYTES, a, sizeof a), 100 * r->flash_fraction, c->units,
           c->units == 1 ? "" : "s", c->sparsity, c->overlap);
    printf("batch      %g sequence%s; at most %g per system in %g micro-batch%s (SRAM holds %g)\n",
           c->global_seqs, c->global_seqs == 1 ? "" : "s", r->seqs_per_system, r->micro_batches,
           r->micro_batches == 1 ? "" : "es", r->max_seqs);
    print_activations(c, r);
    if (r->slowest != 1)
        printf("jitter     the slowest of %g systems computes %.3g %% longer\n", c->systems,
               100 * (r->slowest - 1));
    if (s->hw.wse.step_overhead_s > 0)
        printf("overhead   %s per step that nothing overlaps\n",
               unit_format(s->hw.wse.step_overhead_s, UNIT_TIME, a, sizeof a));
    printf("swarmx     depth %d, %d nodes; %lld packets per step\n\n", r->depth, r->nodes,
           r->packets);
    printf("step time  %s (steady state, step %g of %g); first step %s\n",
           unit_format(r->step_s, UNIT_TIME, a, sizeof a), c->steps, c->steps,
           unit_format(r->first_step_s, UNIT_TIME, b, sizeof b));
    printf("events     %lld in %s of wall time (%s events/s)\n\n", r->events,
           unit_format(wall, UNIT_TIME, a, sizeof a),
           unit_format(r->events / wall, UNIT_COUNT, d, sizeof d));
    static const char *const hdr[] = {"component", "count", "busy per step", "utilisation",
                                      "bytes per step"};
    struct out_table t;
    out_init(&t, 5, hdr);
    for (int k = 0; k < SIM_NCOMP; k++) {
        if (!r->count[k])
            continue;
        char n[32], busy[64], u[32], by[64];
        snprintf(n, sizeof n, "%d", r->count[k]);
        unit_format(r->busy_s[k] / r->count[k], UNIT_TIME, busy, sizeof busy);
        snprintf(u, sizeof u, "%.1f %%", 100 * util(r, k));
        if (k == SIM_COMPUTE || k == SIM_UPDATE)
            snprintf(by, sizeof by, "-");
        else
            unit_format(r->bytes[k], UNIT_BYTES, by, sizeof by);
        out_row(&t, (const char *[]){sim_comp_name[k], n, busy, u, by});
    }
    out_text.write(stdout, &t);
    out_free(&t);
    printf("\nwaiting    a compute engine is idle %s per step (%.1f %%)\n",
           unit_format(r->compute_wait_s, UNIT_TIME, a, sizeof a),
           100 * r->compute_wait_s / r->step_s);
    if (r->max_seqs < 1)
        printf("warning    not one sequence fits in SRAM; simulated one sequence at a time\n");
    if (r->act == SIM_ACT_OFFLOAD && r->store_seqs < 1)
        printf("warning    the activation servers hold not one sequence's block inputs; "
               "simulated one sequence at a time\n");
}

/* Run with the trace (if any) written to a temporary file af, closed and
 * checked here (a trace that cannot be written fails before anything is
 * printed) and renamed into place by finish_trace() after the results are
 * printed; *bytes its size (-1 for a FIFO or device). */
static int run_timing(const struct cli_opts *o, struct sim_config *c, struct sim_result *r,
                      double *wall, struct atomic_file *af, off_t *bytes)
{
    struct trace_out tr = {.f = NULL, .err = 0};
    if (o->trace) {
        if (atomic_open(af, o->trace) != 0)
            return EXIT_USAGE;
        tr.f = af->f;
        fputs("start_s,end_s,component,index,activity,step,micro_batch,layer,packet,bytes\n",
              af->f);
        c->trace = trace_row;
        c->trace_ctx = &tr;
    }
    struct cp_error err = {0};
    double t0 = wall_s();
    cp_status st = sim_run(c, r, &err);
    *wall = wall_s() - t0;
    c->trace = NULL; /* tr goes out of scope */
    c->trace_ctx = NULL;
    if (o->trace) {
        if (st != CP_OK) {
            atomic_abort(af);
            if (tr.err)
                return cli_error("--trace %s: could not be written: %s", o->trace,
                                 strerror(tr.err));
            return cli_error("--trace %s: %s", o->trace, err.msg);
        }
        fflush(af->f);
        *bytes = ftello(af->f);
        if (atomic_close(af) != 0)
            return EXIT_USAGE;
    }
    return st == CP_OK ? -1 : cli_error("simulate: %s", err.msg);
}

/* After the results are printed: the trace renamed into place only when
 * they were written (atomic_commit flushes the output first), so that a
 * failed command replaces no file. */
static int finish_trace(const struct cli_opts *o, struct atomic_file *af, off_t bytes)
{
    if (atomic_commit(af) != 0)
        return EXIT_USAGE;
    char size[64] = "";
    if (bytes >= 0) /* a FIFO or device has no size to tell */
        snprintf(size, sizeof size, " (%s)",
                 unit_format((double)bytes, UNIT_BYTES, size + 32, sizeof size - 32));
    fprintf(stderr, "cerebras-plan: simulate: trace written to %s%s\n", o->trace, size);
    return EXIT_OK;
}

int cmd_simulate_functional(struct cli_opts *o);

/* Events a run with --trace may take unless --max-events says otherwise: a
 * row of about 110 bytes per event, so 1e7 events is a trace of about
 * 1 GB, not the 110 GB SIM_MAX_EVENTS would write. */
#define TRACE_MAX_EVENTS 1e7

/* --max-events into c (the trace's default with --trace), then the run
 * sized against it and the simulator's other limits before anything is
 * opened or written: -1, or an exit code after a message. */
static int check_run(const struct cli_opts *o, const struct scenario *s, struct sim_config *c)
{
    char msg[CP_ERROR_MAX];
    c->max_events = o->trace ? TRACE_MAX_EVENTS : SIM_MAX_EVENTS;
    int rc = scenario_whole_opt("--max-events", o->max_events, 1, SIM_CEIL_EVENTS, &c->max_events);
    if (rc >= 0)
        return rc;
    struct sim_size z;
    struct cp_error err = {0};
    if (sim_size(c, &z, &err) != CP_OK)
        return cli_error("simulate: %s%s", scenario_batch_msg(o, s, 0, err.msg, msg, sizeof msg),
                         o->trace && !o->max_events && z.events > c->max_events
                             ? "; with --trace the bound is 1e7 unless given (a row of about "
                               "110 bytes an event)"
                             : "");
    return -1;
}

/* The MemoryX servers, activation servers and placement the analytic model
 * settles for the scenario (those given stay as given), for the simulator
 * to time. */
static void resolve(const struct cluster *cl, struct sim_config *c)
{
    struct step_result st;
    step_eval(cl, &st);
    c->mx_servers = st.mx_servers;
    c->act = st.act == ACT_OFFLOAD ? SIM_ACT_OFFLOAD
             : st.act == ACT_WAFER ? SIM_ACT_WAFER
                                   : SIM_ACT_RECOMPUTE;
    c->act_k = st.act == ACT_RECOMPUTE ? st.act_k : 0;
    c->act_servers = st.act == ACT_OFFLOAD ? st.act_servers : 0;
}

static int timing(struct cli_opts *o)
{
    static struct scenario s;
    int rc = scenario_load(o, &s);
    if (rc >= 0)
        return rc;
    struct sim_config c;
    sim_config_init(&c, &s.hw, &s.wl);
    resolve(&s.c, &c);
    c.systems = s.c.systems;
    c.sparsity = s.c.sparsity;
    c.overlap = s.c.overlap;
    c.global_seqs = s.c.global_seqs;
    if ((rc = scenario_whole_opt("--steps", o->steps, 1, SIM_MAX_STEPS, &c.steps)) >= 0 ||
        (rc = scenario_whole_opt("--memoryx-units", o->units, 1, SIM_MAX_UNITS, &c.units)) >= 0)
        return rc;
    if ((rc = check_run(o, &s, &c)) >= 0)
        return rc;
    struct sim_result r;
    struct atomic_file af;
    double wall;
    off_t bytes = -1;
    if ((rc = run_timing(o, &c, &r, &wall, &af, &bytes)) >= 0)
        return rc;
    if (o->csv) {
        struct out_table t;
        out_init(&t, SIM_NCOLS, sim_header);
        csv_row(&t, &c, &r, wall);
        out_csv.write(stdout, &t);
        out_free(&t);
    } else {
        print_text(&s, &c, &r, wall);
    }
    return o->trace ? finish_trace(o, &af, bytes) : cli_flush();
}

int cmd_simulate(struct cli_opts *o)
{
    if (o->functional)
        return cmd_simulate_functional(o);
    if (o->optimizer)
        return cli_error("simulate: --optimizer applies only with --functional");
    return timing(o);
}
