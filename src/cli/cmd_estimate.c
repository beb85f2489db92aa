/* cmd_estimate.c - `estimate`: one configuration, its step-time breakdown,
 * time-to-train, energy and verdicts. */
#include <stdio.h>

#include "../model/mx.h"
#include "../model/swx.h"
#include "est.h"

static void print_breakdown(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    char a[64], b[64], d[64], e[64], f[64];
    printf("%s on %g x %s, MemoryX %s (%s), sparsity %g\n\n", s->wl.name, c->systems,
           s->hw.wse.name, s->tier, unit_format(c->memoryx_bytes, UNIT_BYTES, a, sizeof a),
           c->sparsity);
    printf("batch      %g sequences x %g = %s tokens per step; %g sequences per system",
           c->global_seqs, s->wl.seq_len, unit_format(r->global_tokens, UNIT_COUNT, a, sizeof a),
           st->local_seqs);
    if (st->micro_batches > 1)
        printf(" in %g micro-batches of %s tokens", st->micro_batches,
               unit_format(st->micro_tokens, UNIT_COUNT, b, sizeof b));
    printf("\nstreams    %s each way (min of system I/O, SwarmX link, MemoryX)\n\n",
           unit_format(st->stream_bw, UNIT_BYTE_RATE, a, sizeof a));

    printf("step time  %s   bottleneck: %s\n\n", unit_format(st->step_s, UNIT_TIME, a, sizeof a),
           step_res_name[st->bottleneck]);
    static const char *const hdr[] = {"resource", "busy", "sets the pace", "share"};
    struct out_table t;
    out_init(&t, 4, hdr);
    for (int i = 0; i < STEP_NRES; i++) {
        char busy[64], paced[64], share[32];
        snprintf(share, sizeof share, "%.1f %%", 100 * st->critical[i] / st->step_s);
        out_row(&t, (const char *[]){i == STEP_LATENCY ? "latency (exposed)" : step_res_name[i],
                                     unit_format(st->busy[i], UNIT_TIME, busy, sizeof busy),
                                     unit_format(st->critical[i], UNIT_TIME, paced, sizeof paced),
                                     share});
    }
    out_text.write(stdout, &t);
    out_free(&t);
    printf("\ncompute    forward %s, delta %s, weight gradient %s",
           unit_format(st->pass_s[TFM_FWD], UNIT_TIME, a, sizeof a),
           unit_format(st->pass_s[TFM_DELTA], UNIT_TIME, b, sizeof b),
           unit_format(st->pass_s[TFM_WGRAD], UNIT_TIME, d, sizeof d));
    if (s->wl.recompute)
        printf(", recompute %s", unit_format(st->recompute_s, UNIT_TIME, e, sizeof e));
    printf("\nlatency    fill %s + drain %s (SwarmX depth %g) + boundary %s (update of one "
           "chunk)\n           - hidden %s (overlap %g of the first layer's backward, %s)\n\n",
           unit_format(st->fill_s, UNIT_TIME, a, sizeof a),
           unit_format(st->drain_s, UNIT_TIME, b, sizeof b), swx_depth(&s->hw.swx, c->systems),
           unit_format(st->boundary_s, UNIT_TIME, d, sizeof d),
           unit_format(st->hidden_s, UNIT_TIME, e, sizeof e), c->overlap,
           unit_format(st->first_bwd_s, UNIT_TIME, f, sizeof f));

    printf("training   %s tokens", unit_format(r->tokens, UNIT_COUNT, a, sizeof a));
    if (r->token_factor != 1)
        printf(" (x %.3f batch penalty)", r->token_factor);
    printf(" in %s steps: %s (%s)\n", unit_format(r->steps, UNIT_COUNT, b, sizeof b),
           out_duration(r->time_s, d, sizeof d), unit_format(r->time_s, UNIT_TIME, e, sizeof e));
    printf("throughput %s tokens/s\n", unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a));
    printf("energy     %.4g MWh at %s\n", r->energy_J / 3.6e9,
           unit_format(r->power_W, UNIT_POWER, b, sizeof b));
    if (r->cost >= 0)
        printf("cost       %.4g (%g system-hours at %g)\n", r->cost, c->systems * r->time_s / 3600,
               c->price);
}

static void print_verdicts(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    static const char *const hdr[] = {"verdict", "result", "the numbers"};
    struct out_table t;
    out_init(&t, 3, hdr);
    char why[256], a[64], b[64], d[64];

    snprintf(why, sizeof why, "state %s (%.4g B/param) vs tier %s%s",
             unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), r->bytes_per_param,
             unit_format(c->memoryx_bytes, UNIT_BYTES, b, sizeof b),
             st->flash_fraction > 0 ? "; part on flash" : "");
    out_row(&t, (const char *[]){"memoryx", est_verdict(r->memoryx_fits), why});
    snprintf(why, sizeof why, "%g sequences per system fit (%s each, SRAM %s)", st->max_seqs,
             unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a),
             unit_format(s->hw.wse.sram_bytes, UNIT_BYTES, b, sizeof b));
    out_row(&t, (const char *[]){"sram", est_verdict(r->sram_fits), why});
    snprintf(why, sizeof why, "%g sequences per system on %g system%s", st->local_seqs, c->systems,
             c->systems == 1 ? "" : "s");
    out_row(&t, (const char *[]){"split", est_verdict(r->split_ok), why});
    snprintf(why, sizeof why, "largest dimension %g vs %g without blocking", r->matmul_dim,
             s->hw.wse.max_matmul_dim);
    out_row(&t, (const char *[]){"matmul", r->matmul_fits ? "holds" : "warning", why});
    snprintf(why, sizeof why, "global batch %s tokens vs critical %s",
             unit_format(r->global_tokens, UNIT_COUNT, a, sizeof a),
             unit_format(r->critical_tokens, UNIT_COUNT, b, sizeof b));
    out_row(&t, (const char *[]){"batch", r->batch_ok ? "holds" : "warning", why});
    snprintf(why, sizeof why, "%s tokens per micro-batch vs balance %s",
             unit_format(st->micro_tokens, UNIT_COUNT, a, sizeof a),
             unit_format(r->balance_tokens, UNIT_COUNT, d, sizeof d));
    out_row(&t, (const char *[]){"stream", r->stream_balanced ? "holds" : "warning", why});
    printf("\n");
    out_text.write(stdout, &t);
    out_free(&t);
    char warn[256];
    if (!r->feasible)
        printf("\ninfeasible: %s\n",
               train_warn_names(r->warnings & TW_INFEASIBLE, warn, sizeof warn));
}

int cmd_estimate(struct cli_opts *o)
{
    static struct scenario s;
    int rc = scenario_load(o, &s);
    if (rc >= 0)
        return rc;
    struct train_result r;
    train_eval(&s.c, &r);
    if (o->csv) {
        struct out_table t;
        out_init(&t, est_ncols, est_header);
        est_row(&t, &s, &s.c, &r);
        rc = cli_emit(o, &t);
        out_free(&t);
    } else {
        print_breakdown(&s, &r);
        print_verdicts(&s, &r);
        rc = cli_flush();
    }
    if (rc == EXIT_OK && !r.feasible)
        rc = EXIT_VERDICT;
    return rc;
}
