/* sim_print.c - what `simulate` prints (sim_print.h). */
#include "sim_print.h"

#include <errno.h>
#include <stdint.h>

int sim_trace_row(void *ctx, const struct sim_interval *iv)
{
    struct sim_trace_out *t = ctx;
    int bad = fprintf(t->f, "%.9e,%.9e,%s,%d,%s,%d,%d,%d,%d,%.9e\n", iv->start_s, iv->end_s,
                      sim_comp_name[iv->comp], iv->index, iv->activity, iv->step, iv->micro_batch,
                      iv->layer, iv->packet, iv->bytes) < 0;
    if (bad && !t->err)
        t->err = errno ? errno : EIO;
    return bad;
}

void sim_trace_header(FILE *f)
{
    fputs("start_s,end_s,component,index,activity,step,micro_batch,layer,packet,bytes\n", f);
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

void sim_table_init(struct out_table *t)
{
    out_init(t, SIM_NCOLS, sim_header);
}

/* Mean utilisation of a class over the last step (0 when it has none). */
static double util(const struct sim_result *r, int k)
{
    return r->count[k] ? r->busy_s[k] / (r->count[k] * r->step_s) : 0;
}

void sim_table_row(struct out_table *t, const struct sim_config *c, const struct sim_result *r,
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

static void print_activations(FILE *f, const struct sim_config *c, const struct sim_result *r)
{
    char a[64], b[64], lbl[32];
    sim_act_label(r->act, r->act_k, lbl, sizeof lbl);
    fprintf(f, "activations %s: %s of SRAM a sequence", lbl,
            unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a));
    switch (r->act) {
    case SIM_ACT_OFFLOAD:
        fprintf(f,
                "; %s of block inputs per system per step out and back at %s to %g activation "
                "server%s, which hold%s %g sequences; blocks recomputed\n",
                unit_format(r->act_bytes, UNIT_BYTES, a, sizeof a),
                unit_format(r->act_Bps, UNIT_BYTE_RATE, b, sizeof b), c->act_servers,
                c->act_servers == 1 ? "" : "s", c->act_servers == 1 ? "s" : "", r->store_seqs);
        break;
    case SIM_ACT_RECOMPUTE:
        fprintf(f, "; %s\n",
                r->act_k > 1 ? "each segment's forward rerun before its backward, "
                               "its weights streamed a third time"
                             : "each block recomputed in its backward");
        break;
    default:
        fprintf(f, "\n");
    }
}

void sim_print_text(FILE *f, const struct sim_config *c, const struct sim_result *r, double wall)
{
    char a[64], b[64], d[64];
    fprintf(f,
            "%s on %g x %s, MemoryX %g server%s (%s, %.3g %% on flash) as %g unit%s, "
            "sparsity %g, overlap %g\n",
            c->wl->name, c->systems, c->hw->wse.name, c->mx_servers, c->mx_servers == 1 ? "" : "s",
            unit_format(r->mx_bytes, UNIT_BYTES, a, sizeof a), 100 * r->flash_fraction, c->units,
            c->units == 1 ? "" : "s", c->sparsity, c->overlap);
    fprintf(f,
            "batch      %g sequence%s; at most %g per system in %g micro-batch%s (SRAM holds %g)\n",
            c->global_seqs, c->global_seqs == 1 ? "" : "s", r->seqs_per_system, r->micro_batches,
            r->micro_batches == 1 ? "" : "es", r->max_seqs);
    print_activations(f, c, r);
    if (r->slowest != 1)
        fprintf(f, "jitter     the slowest of %g systems computes %.3g %% longer\n", c->systems,
                100 * (r->slowest - 1));
    if (c->hw->wse.step_overhead_s > 0)
        fprintf(f, "overhead   %s per step that nothing overlaps\n",
                unit_format(c->hw->wse.step_overhead_s, UNIT_TIME, a, sizeof a));
    fprintf(f, "swarmx     depth %d, %d nodes; %lld packets per step\n\n", r->depth, r->nodes,
            r->packets);
    fprintf(f, "step time  %s (steady state, step %g of %g); first step %s\n",
            unit_format(r->step_s, UNIT_TIME, a, sizeof a), c->steps, c->steps,
            unit_format(r->first_step_s, UNIT_TIME, b, sizeof b));
    fprintf(f, "events     %lld in %s of wall time (%s events/s)\n\n", r->events,
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
    out_text.write(f, &t);
    out_free(&t);
    fprintf(f, "\nwaiting    a compute engine is idle %s per step (%.1f %%)\n",
            unit_format(r->compute_wait_s, UNIT_TIME, a, sizeof a),
            100 * r->compute_wait_s / r->step_s);
    if (r->max_seqs < 1)
        fprintf(f, "warning    not one sequence fits in SRAM; simulated one sequence at a time\n");
    if (r->act == SIM_ACT_OFFLOAD && r->store_seqs < 1)
        fprintf(f, "warning    the activation servers hold not one sequence's block inputs; "
                   "simulated one sequence at a time\n");
}

static uint64_t total(const uint64_t v[FSIM_NLINKS])
{
    uint64_t t = 0;
    for (int i = 0; i < FSIM_NLINKS; i++)
        t += v[i];
    return t;
}

void sim_functional_table(struct out_table *t, const struct fsim_config *c, double fanout,
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
    out_init(t, N, hdr);
    out_row(t, cell);
}

void sim_functional_text(FILE *f, const struct fsim_config *c, double fanout,
                         const struct fsim_result *r, int ok)
{
    fprintf(f,
            "functional run: MLP %d-%d-%d-%d on %d system%s (SwarmX fan-out %.17g, %d nodes), "
            "%d MemoryX unit%s\n",
            FSIM_IN, FSIM_HIDDEN, FSIM_HIDDEN, FSIM_OUT, c->systems, c->systems == 1 ? "" : "s",
            fanout, r->nodes, c->units, c->units == 1 ? "" : "s");
    fprintf(f, "training   %d steps of %d samples, %s, sparsity %g (%s streaming)\n", c->steps,
            c->batch, c->optimizer == FSIM_SGD ? "SGD" : "Adam", c->sparsity,
            c->sparsity > 0 ? "sparse-encoded" : "dense");
    fprintf(f, "loss       %.6g -> %.6g (one system on the whole batch: %.6g -> %.6g)\n",
            r->loss_first, r->loss_last, r->ref_loss_first, r->ref_loss_last);
    fprintf(f, "traffic    %llu B down, %llu B up (all links, all steps)\n",
            (unsigned long long)total(r->bytes_sent[FSIM_DOWN]),
            (unsigned long long)total(r->bytes_sent[FSIM_UP]));
    fprintf(f, "weights    largest relative difference %.3g (tolerance %g): %s\n", r->max_rel_diff,
            FSIM_TOLERANCE,
            ok ? "the cluster computes the same training"
               : "DIFFERS from one-system training (or the loss did not fall)");
}
