/* est.c - one estimate: as a CSV row, and for people. */
#include "est.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/dtoa.h"
#include "../model/swx.h"

const char *const est_header[] = {
    "model",
    "system",
    "systems",
    "memoryx",
    "memoryx_bytes",
    "sparsity",
    "overlap",
    "global_batch_seqs",
    "global_batch_tokens",
    "local_batch_seqs",
    "micro_batches",
    "micro_batch_tokens",
    "step_time_s",
    "compute_s",
    "stream_in_s",
    "stream_out_s",
    "update_s",
    "exposed_latency_s",
    "overhead_s",
    "paced_compute_s",
    "paced_stream_in_s",
    "paced_stream_out_s",
    "paced_update_s",
    "fwd_s",
    "delta_s",
    "wgrad_s",
    "recompute_s",
    "fill_s",
    "drain_s",
    "boundary_s",
    "hidden_s",
    "tokens",
    "steps",
    "tokens_per_s",
    "time_to_train_s",
    "power_W",
    "energy_J",
    "cost",
    "bottleneck",
    "params",
    "state_bytes",
    "critical_batch_tokens",
    "balance_tokens",
    "max_local_seqs",
    "memoryx_fits",
    "sram_fits",
    "matmul_fits",
    "batch_ok",
    "stream_balanced",
    "feasible",
    "activations",
    "offload_bytes",
    "act_store_fits",
    "memoryx_servers",
    "act_servers",
    "swarmx_nodes",
    "power_systems_W",
    "power_memoryx_W",
    "power_activation_W",
    "power_swarmx_W",
    "systems_ok",
    "stream_bound_by",
    "gradient_bound_by",
    "warnings",
};
const size_t est_ncols = sizeof est_header / sizeof est_header[0];

const char *est_verdict(int ok)
{
    return ok ? "holds" : "fails";
}

/* Bytes that keep text from being written as it is in CSV: NUL, and
 * those that need quotes (sweep_buf_csv's fast path). */
static const unsigned char csv_stop[256] = {[0] = 1, [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1};
/* First bytes out_csv_guard may ask a leading quote for. */
static const unsigned char csv_lead[256] = {
    ['='] = 1, ['+'] = 1, ['-'] = 1, ['@'] = 1, ['\t'] = 1, ['\r'] = 1};

/* The row being made: its cells (w), where its CSV goes on (NULL: none)
 * and the next cell; kept apart from w so that the compiler may hold
 * them in registers across the stores of the text. */
struct row {
    struct est_cells *w;
    char *csv;
    size_t k;
};

/* Text v of len bytes as cell k: plain when it needs neither quotes nor
 * out_csv_guard's leading quote.  With room >= TEXT_FIXED bytes readable at
 * v, a shorter text is copied as a fixed block (no memcpy call). */
#define TEXT_FIXED 32
static inline void set_text(struct row *x, size_t k, const char *v, size_t len, int plain,
                            size_t room)
{
    x->w->have[k] = 0;
    x->w->cell[k] = v;
    x->w->plain[k] = plain && len <= UCHAR_MAX ? EST_PLAIN_TEXT : EST_PLAIN_NO;
    x->w->len[k] = (unsigned char)(len <= UCHAR_MAX ? len : 0);
    if (!x->csv || x->w->plain[k] != EST_PLAIN_TEXT) {
        x->csv = NULL; /* none, or no more: the cells are made as always */
        return;
    }
    if (len <= TEXT_FIXED && room >= TEXT_FIXED)
        memcpy(x->csv, v, TEXT_FIXED);
    else
        memcpy(x->csv, v, len);
    x->csv += len;
    *x->csv++ = ',';
}

/* Number cell k's text (at most 24 bytes) and a comma at x->csv, if set:
 * a fixed DTOA_BUF bytes copied, csv moved by its length. */
static inline void csv_number(struct row *x, size_t k)
{
    if (!x->csv)
        return;
    memcpy(x->csv, x->w->buf[k], DTOA_BUF);
    x->csv += x->w->len[k];
    *x->csv++ = ',';
}

/* Whether text v needs neither quotes nor out_csv_guard's leading quote;
 * its strlen into *len. */
static int scan_text(const char *v, size_t *len)
{
    size_t n = 0;
    while (!csv_stop[(unsigned char)v[n]])
        n++;
    int plain = v[n] == '\0' && (!csv_lead[(unsigned char)v[0]] || !out_csv_guard(v));
    if (!plain)
        n += strlen(v + n);
    *len = n;
    return plain;
}

/* Text that may need quotes (room bytes readable): scanned here, or
 * (est_cells.texts_kept) as when it was last scanned as text i. */
static inline void put_s(struct row *x, int i, const char *v, size_t room)
{
    struct est_cells *w = x->w;
    if (!w->texts_kept || w->s_text[i] != v) {
        w->s_plain[i] = (unsigned char)scan_text(v, &w->s_len[i]);
        w->s_text[i] = w->texts_kept ? v : NULL;
    }
    set_text(x, x->k++, v, w->s_len[i], w->s_plain[i], room);
}

/* Text known to need no quotes, of len bytes. */
static inline void put_lit(struct row *x, const char *v, size_t len)
{
    set_text(x, x->k++, v, len, 1, 0);
}

/* The text in buf of slot i (of text_key[]) as the next cell: scanned
 * only when it was made again (made set). */
static inline void put_kept(struct row *x, int i, const char *buf, size_t room, int made)
{
    if (made)
        x->w->text_plain[i] = (unsigned char)scan_text(buf, &x->w->text_len[i]);
    set_text(x, x->k++, buf, x->w->text_len[i], x->w->text_plain[i], room);
}

/* A link or warning list made by name() from the bits key into buf, made
 * again only when key changed since slot i's text was made. */
static inline void put_names(struct row *x, int i, unsigned key, char *buf, size_t n,
                             const char *(*name)(unsigned, char *, size_t))
{
    int made = x->w->text_key[i] != (unsigned long long)key + 1;
    if (made) {
        name(key, buf, n);
        x->w->text_key[i] = (unsigned long long)key + 1;
    }
    put_kept(x, i, buf, n, made);
}

/* Number v's text in cell k's buffer, with its plain[] and len[]. */
static void format_n(struct est_cells *w, size_t k, double v)
{
    w->cell[k] = w->buf[k]; /* a number cell's text is always there */
    w->prev[k] = v;
    w->have[k] = 1;
    w->plain[k] = EST_PLAIN_NUM;
    if (w->want && !w->want[k]) { /* its value alone */
        w->buf[k][0] = '\0';
        w->len[k] = 0;
        return;
    }
    /* dtoa_whole's own test first, without a call for a fraction */
    int whole = fabs(v) < 1e15 && v == (double)(long long)v ? dtoa_whole(v, w->buf[k]) : -1;
    if (whole >= 0) {
        w->len[k] = (unsigned char)whole;
        return;
    }
    /* the shortest round trip straight into the cell, its length known */
    int len = dtoa_roundtrip_g(v, w->buf[k]);
    if (len < 0) {
        unit_format_exact(v, w->buf[k], sizeof w->buf[k]);
        len = (int)strlen(w->buf[k]);
    }
    w->len[k] = (unsigned char)len;
}

/* A verdict as "1" or "0": one byte, no scan, no copy call. */
static inline void put_flag(struct row *x, int ok)
{
    size_t k = x->k++;
    x->w->have[k] = 0, x->w->cell[k] = ok ? "1" : "0";
    x->w->plain[k] = EST_PLAIN_TEXT, x->w->len[k] = 1;
    if (x->csv)
        memcpy(x->csv, ok ? "1," : "0,", 2), x->csv += 2;
}

/* A number, exact (shortest round trip); the text of the previous row is
 * kept when the column's value has not changed. */
static inline void put_n(struct row *x, double v)
{
    size_t k = x->k++;
    if (!(x->w->have[k] && memcmp(&x->w->prev[k], &v, sizeof v) == 0)) /* else its text stands */
        format_n(x->w, k, v);
    csv_number(x, k);
}

/* The batch columns: global, per system, and per micro-batch. */
static inline void put_batch(struct row *x, const struct cluster *c, const struct train_result *r)
{
    const struct step_result *st = &r->step;
    put_n(x, c->global_seqs);
    put_n(x, r->global_tokens);
    put_n(x, st->local_seqs);
    put_n(x, st->micro_batches);
    put_n(x, st->micro_tokens);
}

/* The step time and its parts: by resource (busy, then paced), by pass,
 * and the latency terms. */
static inline void put_step_times(struct row *x, const struct step_result *st)
{
    put_n(x, st->step_s);
    for (int i = 0; i < STEP_NRES; i++)
        put_n(x, st->busy[i]);
    for (int i = 0; i < STEP_LATENCY; i++)
        put_n(x, st->critical[i]);
    for (int p = 0; p < TFM_NPASSES; p++)
        put_n(x, st->pass_s[p]);
    put_n(x, st->recompute_s);
    put_n(x, st->fill_s);
    put_n(x, st->drain_s);
    put_n(x, st->boundary_s);
    put_n(x, st->hidden_s);
}

/* The whole run: tokens, steps, time, energy, cost (empty without a
 * price) and what set the pace. */
static inline void put_training(struct row *x, const struct train_result *r)
{
    put_n(x, r->tokens);
    put_n(x, r->steps);
    put_n(x, r->tokens_per_s);
    put_n(x, r->time_s);
    put_n(x, r->power_W);
    put_n(x, r->energy_J);
    if (r->cost >= 0)
        put_n(x, r->cost);
    else
        put_lit(x, "", 0);
    const char *neck = step_res_name[r->step.bottleneck]; /* a word: no quotes */
    put_lit(x, neck, strlen(neck));
}

/* The sizes the verdicts weigh, then the verdicts as 1 or 0. */
static inline void put_verdicts(struct row *x, const struct train_result *r)
{
    put_n(x, r->params);
    put_n(x, r->state_bytes);
    put_n(x, r->critical_tokens);
    put_n(x, r->balance_tokens);
    put_n(x, r->step.max_seqs);
    const int flags[] = {r->memoryx_fits, r->sram_fits,       r->matmul_fits,
                         r->batch_ok,     r->stream_balanced, r->feasible};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        put_flag(x, flags[i]);
}

/* Activation placement, servers and nodes, power by part, the binding
 * links and the warnings (their text kept in w). */
static inline void put_placement(struct row *x, const struct train_result *r)
{
    const struct step_result *st = &r->step;
    int made = x->w->text_key[2] != (unsigned long long)st->act + 1 ||
               memcmp(&x->w->act_k, &st->act_k, sizeof x->w->act_k) != 0;
    if (made) {
        step_act_label(st, x->w->act, sizeof x->w->act);
        x->w->text_key[2] = (unsigned long long)st->act + 1;
        x->w->act_k = st->act_k;
    }
    put_kept(x, 2, x->w->act, sizeof x->w->act, made);
    put_n(x, st->act_bytes);
    put_flag(x, r->act_fits);
    put_n(x, st->mx_servers);
    put_n(x, st->act_servers);
    put_n(x, r->swx_nodes);
    for (int i = 0; i < TRAIN_NPOWER; i++)
        put_n(x, r->power_part[i]);
    put_flag(x, r->systems_ok);
    put_names(x, 0, st->stream_bind, x->w->bind[0], sizeof x->w->bind[0], step_link_names);
    put_names(x, 1, st->grad_bind, x->w->bind[1], sizeof x->w->bind[1], step_link_names);
    put_names(x, 3, r->warnings, x->w->warn, sizeof x->w->warn, train_warn_names);
}

void est_cells(struct est_cells *w, const struct scenario *s, const char *tier,
               const struct cluster *c, const struct train_result *r)
{
    struct row row = {w, w->csv, 0}, *x = &row;
    put_s(x, 0, s->model, sizeof s->model);
    put_s(x, 1, s->system, sizeof s->system);
    put_n(x, c->systems);
    put_s(x, 2, tier, 0);
    put_n(x, r->memoryx_bytes);
    put_n(x, c->sparsity);
    put_n(x, c->overlap);
    put_batch(x, c, r);
    put_step_times(x, &r->step);
    put_training(x, r);
    put_verdicts(x, r);
    put_placement(x, r);
    assert(x->k == est_ncols);
    w->k = x->k;
    w->csv = x->csv;
}

void est_row(struct out_table *t, const struct scenario *s, const struct cluster *c,
             const struct train_result *r)
{
    struct est_cells w;
    memset(w.have, 0, sizeof w.have);
    memset(w.text_key, 0, sizeof w.text_key);
    w.texts_kept = 0;
    w.want = NULL;
    w.csv = NULL;
    est_cells(&w, s, s->tier, c, r);
    out_row(t, w.cell);
}

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
               "per system (%s, %s), blocks recomputed\n",
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

/* The whole run: tokens and steps, throughput, energy by part, servers,
 * and the cost when there is a price. */
static void print_training(const struct cluster *c, const struct train_result *r)
{
    const struct step_result *st = &r->step;
    char a[64], b[64], d[64], e[64];
    printf("training   %s token%s", unit_format(r->tokens, UNIT_COUNT, a, sizeof a),
           r->tokens == 1 ? "" : "s");
    if (r->token_factor != 1)
        printf(" (x %.3f batch penalty)", r->token_factor);
    printf(" in %s step%s: %s", unit_format(r->steps, UNIT_COUNT, b, sizeof b),
           r->steps == 1 ? "" : "s", out_duration(r->time_s, e, sizeof e));
    printf("\n");
    printf("throughput %s tokens/s\n", unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a));
    printf("energy     %s at %s", out_energy(r->energy_J, d, sizeof d),
           unit_format(r->power_W, UNIT_POWER, b, sizeof b));
    for (int i = 0; i < TRAIN_NPOWER; i++)
        printf("%s %s %s", i ? "," : ":", train_power_name[i],
               unit_format(r->power_part[i], UNIT_POWER, a, sizeof a));
    printf("\n");
    printf("servers    %g MemoryX, %g activation (%g per system), %g SwarmX nodes\n",
           st->mx_servers, c->systems * st->act_servers, st->act_servers, r->swx_nodes);
    if (r->cost >= 0)
        printf("cost       %.4g (%g system-hours at %g)\n", r->cost,
               c->systems * r->time_s / UNIT_HOUR_S, c->price);
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
