/* cmd_functional.c - `simulate --functional`: real numbers through the
 * weight-streaming pipeline (src/sim/fsim.h), against one system. */
#include <stdio.h>
#include <string.h>

#include "../sim/fsim.h"
#include "scenario.h"

int cmd_simulate_functional(struct cli_opts *o);

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

static uint64_t total(const uint64_t v[FSIM_NLINKS])
{
    uint64_t t = 0;
    for (int i = 0; i < FSIM_NLINKS; i++)
        t += v[i];
    return t;
}

static int emit_csv(const struct cli_opts *o, const struct fsim_config *c, double fanout,
                    const struct fsim_result *r, int ok)
{
    static const char *const hdr[] = {
        "systems",      "fanout",         "memoryx_units", "steps",      "batch_samples",
        "sparsity",     "optimizer",      "max_rel_diff",  "tolerance",  "loss_first",
        "loss_last",    "ref_loss_first", "ref_loss_last", "bytes_down", "bytes_up",
        "swarmx_nodes", "verdict"};
    enum { N = sizeof hdr / sizeof hdr[0] };
    char b[N][64];
    snprintf(b[0], 64, "%d", c->systems);
    snprintf(b[1], 64, "%.17g", fanout);
    snprintf(b[2], 64, "%d", c->units);
    snprintf(b[3], 64, "%d", c->steps);
    snprintf(b[4], 64, "%d", c->batch);
    snprintf(b[5], 64, "%g", c->sparsity);
    snprintf(b[6], 64, "%s", c->optimizer == FSIM_SGD ? "sgd" : "adam");
    snprintf(b[7], 64, "%.6e", r->max_rel_diff);
    snprintf(b[8], 64, "%g", FSIM_TOLERANCE);
    snprintf(b[9], 64, "%.9g", r->loss_first);
    snprintf(b[10], 64, "%.9g", r->loss_last);
    snprintf(b[11], 64, "%.9g", r->ref_loss_first);
    snprintf(b[12], 64, "%.9g", r->ref_loss_last);
    snprintf(b[13], 64, "%llu", (unsigned long long)total(r->bytes_sent[FSIM_DOWN]));
    snprintf(b[14], 64, "%llu", (unsigned long long)total(r->bytes_sent[FSIM_UP]));
    snprintf(b[15], 64, "%d", r->nodes);
    snprintf(b[16], 64, "%s", ok ? "agrees" : "differs");
    const char *cell[N];
    for (int i = 0; i < N; i++)
        cell[i] = b[i];
    struct out_table t;
    out_init(&t, N, hdr);
    out_row(&t, cell);
    int rc = cli_emit(o, &t);
    out_free(&t);
    return rc;
}

static void print_text(const struct fsim_config *c, double fanout, const struct fsim_result *r,
                       int ok)
{
    printf("functional run: MLP %d-%d-%d-%d on %d system%s (SwarmX fan-out %.17g, %d nodes), "
           "%d MemoryX unit%s\n",
           FSIM_IN, FSIM_HIDDEN, FSIM_HIDDEN, FSIM_OUT, c->systems, c->systems == 1 ? "" : "s",
           fanout, r->nodes, c->units, c->units == 1 ? "" : "s");
    printf("training   %d steps of %d samples, %s, sparsity %g (%s streaming)\n", c->steps,
           c->batch, c->optimizer == FSIM_SGD ? "SGD" : "Adam", c->sparsity,
           c->sparsity > 0 ? "sparse-encoded" : "dense");
    printf("loss       %.6g -> %.6g (one system on the whole batch: %.6g -> %.6g)\n", r->loss_first,
           r->loss_last, r->ref_loss_first, r->ref_loss_last);
    printf("traffic    %llu B down, %llu B up (all links, all steps)\n",
           (unsigned long long)total(r->bytes_sent[FSIM_DOWN]),
           (unsigned long long)total(r->bytes_sent[FSIM_UP]));
    printf("weights    largest relative difference %.3g (tolerance %g): %s\n", r->max_rel_diff,
           FSIM_TOLERANCE,
           ok ? "the cluster computes the same training"
              : "DIFFERS from one-system training (or the loss did not fall)");
}

int cmd_simulate_functional(struct cli_opts *o)
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
    int ok = r.max_rel_diff <= FSIM_TOLERANCE && r.loss_last < r.loss_first;
    if (o->csv)
        rc = emit_csv(o, &c, fanout, &r, ok);
    else {
        print_text(&c, fanout, &r, ok);
        rc = cli_flush();
    }
    return rc == EXIT_OK && !ok ? EXIT_VERDICT : rc;
}
