/* est_print.c - one estimate for people (est_print, est.h): the
 * configuration, the step time by resource and pass, the latencies, the
 * training time, energy and cost, then the verdicts with what would change
 * them. */
#include "est.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/swx.h"
#include "money.h"

/* "a;b" as "a = b", in place. */
static const char *tie_text(char *names)
{
    char tmp[128];
    size_t j = 0;
    for (const char *p = names; *p && j + 4 < sizeof tmp; p++)
        if (*p == ';')
            memcpy(tmp + j, " = ", 3), j += 3;
        else
            tmp[j++] = *p;
    tmp[j] = '\0';
    memcpy(names, tmp, j + 1);
    return names;
}

/* Which links set the streams' rates; when several tie, raising one alone
 * changes nothing, so say so and give the what-if that doubles them all. */
static void print_binding(const struct hw_desc *hw, const struct step_result *st)
{
    char w[128], g[128], rate[64], sets[512] = "";
    unsigned all = st->stream_bind | st->grad_bind;
    int tied = 0;
    size_t len = 0;
    for (int i = 0; i < STEP_NLINKS; i++)
        tied += !!(all & (1u << i));
    step_link_names(st->stream_bind, w, sizeof w);
    step_link_names(st->grad_bind, g, sizeof g);
    printf("           bound by: weights %s; gradients %s\n", tie_text(w), tie_text(g));
    if (tied < 2)
        return;
    for (int i = 0; i < STEP_NLINKS; i++) {
        if (!(all & (1u << i)) || i == STEP_LINK_MEMORYX)
            continue;
        double v = i == STEP_LINK_REDUCE ? 2 * hw->swx.reduce_Bps
                   : i == STEP_LINK_IO   ? 2 * hw->wse.io_bw_Bps
                                         : 2 * hw->swx.link_bw_Bps;
        int k = snprintf(sets + len, sizeof sets - len, " --set '%s=%s'", step_link_key[i],
                         unit_format(v, UNIT_BYTE_RATE, rate, sizeof rate));
        if (k < 0 || (size_t)k >= sizeof sets - len)
            break;
        len += (size_t)k;
    }
    printf("           %d links tie, so raising one alone changes nothing; twice each:%s%s\n", tied,
           sets, all & (1u << STEP_LINK_MEMORYX) ? " and twice --memoryx-servers" : "");
}

/* loss_unreachable_text() of c's workload at its sparsity and tokens. */
static const char *est_sparse_why(const struct cluster *c, const struct train_result *r, char *buf,
                                  size_t n)
{
    char law[256];
    return loss_unreachable_text(&c->wl->loss, wl_loss_source(c->wl, law, sizeof law), c->sparsity,
                                 r->sparse_weights, c->tokens, buf, n);
}

/* Each failed verdict first, with what would change it: the key (or flag)
 * and the value at which it would hold. */
static void print_infeasible(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    const struct hw_desc *hw = &s->hw;
    char a[64], b[64], lab[32];
    if (r->feasible)
        return;
    printf("INFEASIBLE: the figures below describe a configuration that cannot run\n");
    if (!r->systems_ok)
        printf("  above_max_systems  %g systems, but a %s cluster has at most %g "
               "(system.max_systems): -n %g or fewer\n",
               c->systems, hw->wse.name, hw->wse.max_systems, hw->wse.max_systems);
    if (!r->split_ok)
        printf("  fewer_seqs_than_systems  %g sequences for %g systems: --batch %g or more, or "
               "-n %g or fewer\n",
               c->global_seqs, c->systems, c->systems, c->global_seqs);
    if (!r->memoryx_fits)
        printf("  memoryx_full  state %s, %g MemoryX server%s %s: --memoryx-servers %g or "
               "more (or leave MemoryX sized)\n",
               unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), st->mx_servers,
               st->mx_servers == 1 ? " holds" : "s hold",
               unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b), st->mx_hold);
    if (!r->sram_fits) {
        double need = st->sram_per_seq + step_buffer_bytes(hw);
        step_act_label(st, lab, sizeof lab);
        printf("  sram_full  one sequence needs %s of SRAM (%s, with the stream buffers), the "
               "wafer has %s: system.sram %s or more, a shorter model.seq_len",
               unit_format(need, UNIT_BYTES, a, sizeof a), lab,
               unit_format(hw->wse.sram_bytes, UNIT_BYTES, b, sizeof b),
               unit_format(need, UNIT_BYTES, a, sizeof a));
        printf("%s\n", c->act != ACT_AUTO ? ", or --activations auto" : "");
    }
    if (r->warnings & TW_SPARSE_LOSS) {
        char why[512];
        printf("  sparse_unreachable  %s\n", est_sparse_why(c, r, why, sizeof why));
    }
    if (!r->act_fits) {
        double need = ceil(st->ckpt_per_seq / hw->act.server_bytes);
        printf(
            "  act_store_full  one sequence offloads %s, %g activation server%s %s: "
            "--act-servers %g or more, or activation.server_memory %s or more\n",
            unit_format(st->ckpt_per_seq, UNIT_BYTES, a, sizeof a), st->act_servers,
            st->act_servers == 1 ? " holds" : "s hold",
            unit_format(st->act_servers * hw->act.server_bytes, UNIT_BYTES, b, sizeof b), need,
            unit_format(st->ckpt_per_seq / fmax(st->act_servers, 1), UNIT_BYTES, lab, sizeof lab));
    }
    printf("\n");
}

/* The batch line: sequences and tokens per step and per system, and the
 * micro-batches when there are several (the line is left open). */
static void print_batch(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    char a[64], b[64];
    printf("batch      %g sequence%s x %g = %s tokens per step; %g sequence%s per system",
           c->global_seqs, c->global_seqs == 1 ? "" : "s", s->wl.seq_len,
           unit_format(r->global_tokens, UNIT_COUNT, a, sizeof a), st->local_seqs,
           st->local_seqs == 1 ? "" : "s");
    if (st->micro_batches > 1) {
        /* Sequences are whole: the largest micro-batch holds the ceiling,
         * the model charges the mean (micro_batch_tokens). */
        double most = ceil(st->local_seqs / st->micro_batches);
        printf(" in %g micro-batches of at most %g sequence%s", st->micro_batches, most,
               most == 1 ? "" : "s");
        if (most * st->micro_batches != st->local_seqs)
            printf(" (%s tokens on average)",
                   unit_format(st->micro_tokens, UNIT_COUNT, b, sizeof b));
    }
}

/* The MemoryX servers (and how they were sized), the stream rates and the
 * links that bind them. */
static void print_streams(const struct scenario *s, const struct train_result *r)
{
    const struct step_result *st = &r->step;
    char a[64], b[64];
    printf("\nmemoryx    %g server%s, %s", st->mx_servers, st->mx_servers == 1 ? "" : "s",
           unit_format(r->memoryx_bytes, UNIT_BYTES, a, sizeof a));
    if (s->c.mx_servers == 0)
        printf(" (sized: %g hold the state in DRAM, %g feed the stream, %g keep the update "
               "within each layer's backward)",
               st->mx_hold, st->mx_stream, st->mx_update);
    printf("\nstreams    weights %s, gradients %s (each the least of system I/O, SwarmX link "
           "and reduce, MemoryX servers)\n",
           unit_format(st->stream_bw, UNIT_BYTE_RATE, a, sizeof a),
           unit_format(st->grad_bw, UNIT_BYTE_RATE, b, sizeof b));
    print_binding(&s->hw, st);
}

/* Where the activations of the backward pass are kept, and why there. */
static void print_activations(const struct scenario *s, const struct step_result *st)
{
    char a[64], b[64], d[64], lab[32];
    step_act_label(st, lab, sizeof lab);
    const char *how = s->c.act != ACT_AUTO            ? " (forced)"
                      : st->sram_fits && st->act_fits ? " (fastest that fits)"
                                                      : " (none fits; the fastest)";
    printf("activations %s%s: ", lab, how);
    if (st->act == ACT_OFFLOAD)
        printf("%s of block inputs per system per step out and back to %g activation server%s "
               "per system (%s, %s), blocks recomputed (where offload goes is inferred; their "
               "memory and rate are assumed)\n",
               unit_format(st->act_bytes, UNIT_BYTES, a, sizeof a), st->act_servers,
               st->act_servers == 1 ? "" : "s",
               unit_format(st->act_servers * s->hw.act.server_bytes, UNIT_BYTES, b, sizeof b),
               unit_format(st->act_bw, UNIT_BYTE_RATE, d, sizeof d));
    else if (st->act == ACT_WAFER)
        printf("every block's activations stay on the wafer\n");
    else if (st->act_k == 1)
        printf("block inputs stay on the wafer, each block recomputed in its backward pass\n");
    else
        printf("the input of one block in %g stays on the wafer; each segment of %g blocks is "
               "recomputed before its backward, its weights streamed in again\n",
               st->act_k, st->act_k);
}

/* The step time, and a table of each resource's busy time, the time it
 * set the pace and its share of the step. */
static void print_resources(const struct step_result *st)
{
    char a[64];
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
}

/* The compute time by pass, and the exposed latency term by term. */
static void print_compute_latency(const struct scenario *s, const struct step_result *st)
{
    char a[64], b[64], d[64], e[64], f[64];
    printf("\ncompute    forward %s, delta %s, weight gradient %s",
           unit_format(st->pass_s[TFM_FWD], UNIT_TIME, a, sizeof a),
           unit_format(st->pass_s[TFM_DELTA], UNIT_TIME, b, sizeof b),
           unit_format(st->pass_s[TFM_WGRAD], UNIT_TIME, d, sizeof d));
    if (st->recompute)
        printf(", recompute %s", unit_format(st->recompute_s, UNIT_TIME, e, sizeof e));
    printf("\nlatency    fill %s + drain %s (SwarmX depth %g) + boundary %s (update of one "
           "chunk)\n           - hidden %s (overlap %g of the first layer's backward, %s)\n\n",
           unit_format(st->fill_s, UNIT_TIME, a, sizeof a),
           unit_format(st->drain_s, UNIT_TIME, b, sizeof b), swx_depth(&s->hw.swx, s->c.systems),
           unit_format(st->boundary_s, UNIT_TIME, d, sizeof d),
           unit_format(st->hidden_s, UNIT_TIME, e, sizeof e), s->c.overlap,
           unit_format(st->first_bwd_s, UNIT_TIME, f, sizeof f));
}

/* Sparsity at equal quality (desc/loss.h): the factor on the tokens and
 * the law it comes from, with the speedup per token and at equal quality
 * against the same cluster dense; or why no token count reaches the dense
 * loss. */
static void print_sparsity(const struct cluster *c, const struct train_result *r)
{
    char law[256], why[512];
    if (!(c->sparsity > 0))
        return;
    if (!isfinite(r->sparse_factor)) {
        printf("sparsity   %s\n", est_sparse_why(c, r, why, sizeof why));
        return;
    }
    struct cluster d = *c;
    struct train_result rd;
    d.sparsity = 0;
    train_eval(&d, &rd);
    printf("sparsity   %g trains %.4g x the tokens to reach the dense loss (loss law %s; an "
           "extrapolation far beyond the fits); against dense: %.3gx per token, %.3gx at equal "
           "quality\n",
           c->sparsity, r->sparse_factor, wl_loss_source(c->wl, law, sizeof law),
           rd.step.step_s / r->step.step_s, rd.time_s / r->time_s);
}

/* The whole run: tokens and steps, the time with what failures take
 * (goodput), throughput, energy by part, servers, and the cost. */
static void print_training(const struct cluster *c, const struct train_result *r)
{
    const struct step_result *st = &r->step;
    char a[64], b[64], d[64], e[64];
    printf("training   %s token%s", unit_format(r->tokens, UNIT_COUNT, a, sizeof a),
           r->tokens == 1 ? "" : "s");
    if (isfinite(r->sparse_factor) && r->sparse_factor != 1)
        printf(" (x %.4g sparsity at equal quality)", r->sparse_factor);
    if (r->token_factor != 1)
        printf(" (x %.3f batch penalty)", r->token_factor);
    printf(" in %s step%s: %s", unit_format(r->steps, UNIT_COUNT, b, sizeof b),
           r->steps == 1 ? "" : "s", out_duration(r->time_s, e, sizeof e));
    printf("%s\n", r->gp.finishes && r->gp.goodput < 1 ? " with the expected time lost to failures"
                                                       : "");
    char text[512];
    printf("goodput    %s\n",
           money_goodput_text(&r->gp, r->time_ff_s, r->ckpt_bytes, text, sizeof text));
    printf("throughput %s tokens/s, MFU %.1f %% of the dense peak (model FLOPs %s a step)\n",
           unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a), 100 * r->mfu,
           unit_format(r->model_flops, UNIT_FLOP, b, sizeof b));
    printf("energy     %s at %s", out_energy(r->energy_J, d, sizeof d),
           unit_format(r->power_W, UNIT_POWER, b, sizeof b));
    for (int i = 0; i < TRAIN_NPOWER; i++)
        printf("%s %s %s", i ? "," : ":", train_power_name[i],
               unit_format(r->power_part[i], UNIT_POWER, a, sizeof a));
    printf("\n");
    printf("servers    %g MemoryX, %g activation (%g per system), %g SwarmX nodes\n",
           st->mx_servers, c->systems * st->act_servers, st->act_servers, r->swx_nodes);
    printf("cost       %s\n",
           money_cost_text(&r->costs, r->bom, TRAIN_NPOWER, &c->hw->site, r->energy_J,
                           c->systems, r->time_s, c->price, "system", text, sizeof text));
}

/* Everything but the verdicts: the configuration, the step time by
 * resource, latency, training time, energy and cost. */
static void print_breakdown(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    printf("%s on %g x %s, MemoryX %s, sparsity %g\n\n", s->wl.name, c->systems, s->hw.wse.name,
           s->tier, c->sparsity);
    print_infeasible(s, r);
    print_batch(s, r);
    print_streams(s, r);
    print_activations(s, st);
    if (st->slowest > 1)
        printf("jitter     the slowest of %g systems computes %.2f %% longer\n", c->systems,
               100 * (st->slowest - 1));
    printf("\n");
    print_resources(st);
    print_compute_latency(s, st);
    print_training(c, r);
    print_sparsity(c, r);
}

/* The verdicts as a table, each with the numbers behind it, then the
 * reasons the configuration cannot run when it cannot. */
static void print_verdicts(const struct scenario *s, const struct train_result *r)
{
    const struct cluster *c = &s->c;
    const struct step_result *st = &r->step;
    static const char *const hdr[] = {"verdict", "result", "the numbers"};
    struct out_table t;
    out_init(&t, 3, hdr);
    char why[256], a[64], b[64], d[64];

    snprintf(why, sizeof why, "state %s (%.4g B/param) vs %g server%s %s%s",
             unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), r->bytes_per_param,
             st->mx_servers, st->mx_servers == 1 ? "'s" : "s'",
             unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b),
             st->flash_fraction > 0 ? "; part on flash" : "");
    out_row(&t, (const char *[]){"memoryx", est_verdict(r->memoryx_fits), why});
    if (st->act == ACT_OFFLOAD)
        snprintf(why, sizeof why,
                 "working set of one sequence %s vs SRAM %s (activations offloaded)",
                 unit_format(st->sram_per_seq, UNIT_BYTES, a, sizeof a),
                 unit_format(s->hw.wse.sram_bytes, UNIT_BYTES, b, sizeof b));
    else
        snprintf(why, sizeof why, "%g sequence%s per system fit%s (%s each, SRAM %s)", st->max_seqs,
                 st->max_seqs == 1 ? "" : "s", st->max_seqs == 1 ? "s" : "",
                 unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a),
                 unit_format(s->hw.wse.sram_bytes, UNIT_BYTES, b, sizeof b));
    out_row(&t, (const char *[]){"sram", est_verdict(r->sram_fits), why});
    if (st->act == ACT_OFFLOAD) {
        snprintf(why, sizeof why, "%g sequences' checkpoints fit (%s each, %g server%s %s)",
                 st->store_seqs, unit_format(st->ckpt_per_seq, UNIT_BYTES, a, sizeof a),
                 st->act_servers, st->act_servers == 1 ? "'s" : "s'",
                 unit_format(st->act_servers * s->hw.act.server_bytes, UNIT_BYTES, b, sizeof b));
        out_row(&t, (const char *[]){"act_store", est_verdict(r->act_fits), why});
    }
    snprintf(why, sizeof why, "%g sequence%s per system on %g system%s", st->local_seqs,
             st->local_seqs == 1 ? "" : "s", c->systems, c->systems == 1 ? "" : "s");
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
    snprintf(why, sizeof why, "SwarmX chunk %s vs half of a block's smallest stream %s",
             unit_format(s->hw.swx.chunk_bytes, UNIT_BYTES, a, sizeof a),
             unit_format(TRAIN_CHUNK_SHARE * st->block_stream_bytes, UNIT_BYTES, d, sizeof d));
    out_row(&t, (const char *[]){"chunk", r->chunk_fine ? "holds" : "warning", why});
    printf("\n");
    out_text.write(stdout, &t);
    out_free(&t);
    char warn[256];
    if (!r->feasible)
        printf("\ninfeasible: %s\n",
               train_warn_names(r->warnings & TW_INFEASIBLE, warn, sizeof warn));
}

void est_print(const struct scenario *s, const struct train_result *r)
{
    print_breakdown(s, r);
    print_verdicts(s, r);
}
