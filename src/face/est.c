/* est.c - one estimate: as a CSV row, and for people. */
#include "est.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "../base/dtoa.h"

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

/* The row's helpers are inlined whole into each of est_cells()'s two
 * uses of row_cells(), so that on (a constant there) removes every test
 * of it, and struct row lives in registers. */
/* The loops over a row's few columns of one kind are unrolled too: each
 * cell then has its own code, and the bench sweep runs about 160
 * instructions a point fewer (callgrind). */
#if defined(__GNUC__)
#define ROW_INLINE static inline __attribute__((always_inline))
#define ROW_UNROLL _Pragma("GCC unroll 8")
#else
#define ROW_INLINE static inline
#define ROW_UNROLL
#endif

/* The row being made: its cells (w), the next cell, and when on, where
 * its CSV goes on (bad set when a text needs quotes: the row is then
 * made again with on unset); kept apart from w so that the compiler may
 * hold them in registers across the stores of the text. */
struct row {
    struct est_cells *w;
    char *csv;
    size_t k;
    int on, bad;
};

/* Text v of len bytes as cell k: plain when it needs neither quotes nor
 * out_csv_guard's leading quote.  With room >= TEXT_FIXED bytes readable at
 * v, a shorter text is copied as a fixed block (no memcpy call). */
#define TEXT_FIXED 32
ROW_INLINE void set_text(struct row *x, size_t k, const char *v, size_t len, int plain,
                            size_t room)
{
    x->w->have[k] = 0;
    x->w->cell[k] = v;
    x->w->plain[k] = plain && len <= UCHAR_MAX ? EST_PLAIN_TEXT : EST_PLAIN_NO;
    x->w->len[k] = (unsigned char)(len <= UCHAR_MAX ? len : 0);
    if (!x->on)
        return;
    if (x->w->plain[k] != EST_PLAIN_TEXT) {
        x->bad = 1; /* the cells are made again, without the CSV */
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
ROW_INLINE void csv_number(struct row *x, size_t k)
{
    if (!x->on)
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
ROW_INLINE void put_s(struct row *x, int i, const char *v, size_t room)
{
    struct est_cells *w = x->w;
    if (!w->texts_kept || w->s_text[i] != v) {
        w->s_plain[i] = (unsigned char)scan_text(v, &w->s_len[i]);
        w->s_text[i] = w->texts_kept ? v : NULL;
    }
    set_text(x, x->k++, v, w->s_len[i], w->s_plain[i], room);
}

/* Text known to need no quotes, of len bytes. */
ROW_INLINE void put_lit(struct row *x, const char *v, size_t len)
{
    set_text(x, x->k++, v, len, 1, 0);
}

/* The text in buf of slot i (of text_key[]) as the next cell: scanned
 * only when it was made again (made set). */
ROW_INLINE void put_kept(struct row *x, int i, const char *buf, size_t room, int made)
{
    if (made)
        x->w->text_plain[i] = (unsigned char)scan_text(buf, &x->w->text_len[i]);
    set_text(x, x->k++, buf, x->w->text_len[i], x->w->text_plain[i], room);
}

/* A link or warning list made by name() from the bits key into buf, made
 * again only when key changed since slot i's text was made. */
ROW_INLINE void put_names(struct row *x, int i, unsigned key, char *buf, size_t n,
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
    /* the shortest round trip straight into the cell, its length known
     * (a whole number's digits at once) */
    int len = dtoa_roundtrip_whole_g(v, w->buf[k]);
    if (len < 0) {
        unit_format_exact(v, w->buf[k], sizeof w->buf[k]);
        len = (int)strlen(w->buf[k]);
    }
    w->len[k] = (unsigned char)len;
}

/* A verdict as "1" or "0": one byte, no scan, no copy call. */
ROW_INLINE void put_flag(struct row *x, int ok)
{
    size_t k = x->k++;
    x->w->have[k] = 0, x->w->cell[k] = ok ? "1" : "0";
    x->w->plain[k] = EST_PLAIN_TEXT, x->w->len[k] = 1;
    if (x->on)
        memcpy(x->csv, ok ? "1," : "0,", 2), x->csv += 2;
}

/* A number, exact (shortest round trip); the text of the previous row is
 * kept when the column's value has not changed. */
ROW_INLINE void put_n(struct row *x, double v)
{
    size_t k = x->k++;
    if (!(x->w->have[k] && memcmp(&x->w->prev[k], &v, sizeof v) == 0)) /* else its text stands */
        format_n(x->w, k, v);
    csv_number(x, k);
}

/* The batch columns: global, per system, and per micro-batch. */
ROW_INLINE void put_batch(struct row *x, const struct cluster *c, const struct train_result *r)
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
ROW_INLINE void put_step_times(struct row *x, const struct step_result *st)
{
    put_n(x, st->step_s);
    ROW_UNROLL
    for (int i = 0; i < STEP_NRES; i++)
        put_n(x, st->busy[i]);
    ROW_UNROLL
    for (int i = 0; i < STEP_LATENCY; i++)
        put_n(x, st->critical[i]);
    ROW_UNROLL
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
ROW_INLINE void put_training(struct row *x, const struct train_result *r)
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
ROW_INLINE void put_verdicts(struct row *x, const struct train_result *r)
{
    put_n(x, r->params);
    put_n(x, r->state_bytes);
    put_n(x, r->critical_tokens);
    put_n(x, r->balance_tokens);
    put_n(x, r->step.max_seqs);
    const int flags[] = {r->memoryx_fits, r->sram_fits,       r->matmul_fits,
                         r->batch_ok,     r->stream_balanced, r->feasible};
    ROW_UNROLL
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        put_flag(x, flags[i]);
}

/* Activation placement, servers and nodes, power by part, the binding
 * links and the warnings (their text kept in w). */
ROW_INLINE void put_placement(struct row *x, const struct train_result *r)
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
    ROW_UNROLL
    for (int i = 0; i < TRAIN_NPOWER; i++)
        put_n(x, r->power_part[i]);
    put_flag(x, r->systems_ok);
    put_names(x, 0, st->stream_bind, x->w->bind[0], sizeof x->w->bind[0], step_link_names);
    put_names(x, 1, st->grad_bind, x->w->bind[1], sizeof x->w->bind[1], step_link_names);
    put_names(x, 3, r->warnings, x->w->warn, sizeof x->w->warn, train_warn_names);
}

/* The row's cells, and with on its CSV at csv: 0 when a text needs
 * quotes (w->csv then NULL). */
ROW_INLINE int row_cells(struct est_cells *w, const struct scenario *s, const char *tier,
                         const struct cluster *c, const struct train_result *r, char *csv,
                         int on)
{
    struct row row = {w, csv, 0, on, 0}, *x = &row;
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
    w->csv = on && !x->bad ? x->csv : NULL;
    return !x->bad;
}

void est_cells(struct est_cells *w, const struct scenario *s, const char *tier,
               const struct cluster *c, const struct train_result *r)
{
    if (w->csv && row_cells(w, s, tier, c, r, w->csv, 1))
        return;
    row_cells(w, s, tier, c, r, NULL, 0);
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
