/* cmd_simulate.c - `simulate`: the discrete-event simulator on one
 * configuration (timing), or the functional simulator (--functional)
 * against one system.  This file reads the options and writes the trace
 * file; what the two print is src/print/sim_print.c's.
 *
 * The simulator times a configuration it is given whole.  What the
 * scenario leaves to be sized (MemoryX servers, activation servers, where
 * the activations go) is settled as `estimate` settles it: the analytic
 * model chooses, the simulator times the choice with its own arithmetic
 * (check_sim_config, src/check). */
#include <string.h>

#include "../base/wall.h"
#include "../check/check.h"
#include "../print/sim_print.h"
#include "atomic.h"
#include "../face/scenario_ws.h"

/* Run with the trace (if any) written to a temporary file af, closed and
 * checked here (a trace that cannot be written fails before anything is
 * printed) and renamed into place by finish_trace() after the results are
 * printed; *bytes its size (-1 for a FIFO or device). */
static int run_timing(const struct cli_opts *o, struct sim_config *c, struct sim_result *r,
                      double *wall, struct atomic_file *af, off_t *bytes)
{
    struct sim_trace_out tr = {.f = NULL, .err = 0};
    if (o->trace) {
        if (atomic_open(af, o->trace) != 0)
            return EXIT_USAGE;
        tr.f = af->f;
        sim_trace_header(af->f);
        c->trace = sim_trace_row;
        c->trace_ctx = &tr;
    }
    struct cp_error err = {0};
    double t0 = wall_now_s();
    cp_status st = sim_run(c, r, &err);
    *wall = wall_now_s() - t0;
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

static int timing(struct cli_opts *o)
{
    static struct scenario s;
    int rc = scenario_load(o, &s);
    if (rc >= 0)
        return rc;
    struct sim_config c;
    check_sim_config(&s.c, &c, NULL);
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
        sim_table_init(&t);
        sim_table_row(&t, &c, &r, wall);
        out_csv.write(stdout, &t);
        out_free(&t);
    } else {
        sim_print_text(stdout, &c, &r, wall);
    }
    return o->trace ? finish_trace(o, &af, bytes) : cli_flush();
}

static int int_opt(const char *flag, const char *arg, double lo, double hi, int *out)
{
    double v = *out;
    int rc = scenario_whole_opt(flag, arg, lo, hi, &v);
    *out = (int)v;
    return rc;
}

/* The options that mean nothing to the functional run. */
static int refuse_timing_options(const struct cli_opts *o)
{
    const char *bad = o->memoryx         ? "--memoryx"
                      : o->tokens        ? "--tokens"
                      : o->overlap       ? "--overlap"
                      : o->price         ? "--price"
                      : o->batch_penalty ? "--batch-penalty"
                      : o->trace         ? "--trace"
                      : o->model         ? "-m"
                                         : NULL;
    if (bad)
        return cli_error("simulate --functional: %s does not apply (the network is a fixed MLP)",
                         bad);
    return -1;
}

/* The configuration, and the description's SwarmX fan-out as given in
 * *fanout: c->fanout is capped at FSIM_MAX_SYSTEMS, which makes the same
 * tree (one node over every system) as any larger fan-out. */
static int config(const struct cli_opts *o, struct fsim_config *c, double *fanout)
{
    static struct scenario s; /* for the SwarmX fan-out of -s and --set */
    int rc = scenario_load_names(o, SCENARIO_DEFAULT_MODEL, o->system ? o->system : "cs2", &s);
    if (rc >= 0)
        return rc;
    fsim_config_init(c);
    *fanout = s.hw.swx.fanout;
    c->fanout = *fanout < FSIM_MAX_SYSTEMS ? (int)*fanout : FSIM_MAX_SYSTEMS;
    if ((rc = scenario_whole_opt("--max-events", o->max_events, 1, FSIM_CEIL_EVENTS,
                                 &c->max_events)) >= 0 ||
        (rc = int_opt("-n", o->nsys, 1, FSIM_MAX_SYSTEMS, &c->systems)) >= 0 ||
        (rc = int_opt("--steps", o->steps, 1, FSIM_MAX_STEPS, &c->steps)) >= 0 ||
        (rc = int_opt("--memoryx-units", o->units, 1, FSIM_MAX_UNITS, &c->units)) >= 0)
        return rc;
    if (c->batch < c->systems)
        c->batch = c->systems;
    if ((rc = int_opt("--batch", o->batch, c->systems, FSIM_MAX_BATCH, &c->batch)) >= 0)
        return rc;
    if (o->sparsity) {
        char why[256];
        if (unit_parse(o->sparsity, UNIT_FRACTION, &c->sparsity, why, sizeof why) != 0)
            return cli_error("--sparsity '%s': %s", o->sparsity, why);
    }
    if (o->optimizer && strcmp(o->optimizer, "sgd") == 0)
        c->optimizer = FSIM_SGD;
    else if (o->optimizer && strcmp(o->optimizer, "adam") != 0)
        return cli_error("--optimizer '%s': must be sgd or adam", o->optimizer);
    return -1;
}

static int functional(const struct cli_opts *o)
{
    int rc = refuse_timing_options(o);
    if (rc >= 0)
        return rc;
    struct fsim_config c;
    double fanout;
    if ((rc = config(o, &c, &fanout)) >= 0)
        return rc;
    struct fsim_result r;
    struct cp_error err = {0};
    if (fsim_run(&c, &r, &err) != CP_OK)
        return cli_error("simulate --functional: %s", err.msg);
    int ok = fsim_agrees(&r);
    if (o->csv) {
        struct out_table t;
        sim_functional_table(&t, &c, fanout, &r, ok);
        rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        sim_functional_text(stdout, &c, fanout, &r, ok);
        rc = cli_flush();
    }
    return rc == EXIT_OK && !ok ? EXIT_VERDICT : rc;
}

int cmd_simulate(struct cli_opts *o)
{
    if (o->functional)
        return functional(o);
    if (o->optimizer)
        return cli_error("simulate: --optimizer applies only with --functional");
    return timing(o);
}
