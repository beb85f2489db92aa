/* est.c - one estimate as a CSV row. */
#include "est.h"

#include <assert.h>
#include <stdio.h>

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
    "warnings",
};
const size_t est_ncols = sizeof est_header / sizeof est_header[0];

const char *est_verdict(int ok)
{
    return ok ? "holds" : "fails";
}

/* A row being built, cell by cell. */
struct row {
    const char *cell[64];
    char buf[64][48];
    size_t k;
};

static void put_s(struct row *w, const char *v)
{
    w->cell[w->k++] = v;
}

static void put_n(struct row *w, double v)
{
    w->cell[w->k] = unit_format_exact(v, w->buf[w->k], sizeof w->buf[w->k]);
    w->k++;
}

void est_row(struct out_table *t, const struct scenario *s, const struct cluster *c,
             const struct train_result *r)
{
    const struct step_result *st = &r->step;
    struct row w = {.k = 0};
    put_s(&w, s->model);
    put_s(&w, s->system);
    put_n(&w, c->systems);
    put_s(&w, s->tier);
    put_n(&w, c->memoryx_bytes);
    put_n(&w, c->sparsity);
    put_n(&w, c->overlap);
    put_n(&w, c->global_seqs);
    put_n(&w, r->global_tokens);
    put_n(&w, st->local_seqs);
    put_n(&w, st->micro_batches);
    put_n(&w, st->micro_tokens);
    put_n(&w, st->step_s);
    for (int i = 0; i < STEP_NRES; i++)
        put_n(&w, st->busy[i]);
    for (int i = 0; i < STEP_LATENCY; i++)
        put_n(&w, st->critical[i]);
    for (int p = 0; p < TFM_NPASSES; p++)
        put_n(&w, st->pass_s[p]);
    put_n(&w, st->recompute_s);
    put_n(&w, st->fill_s);
    put_n(&w, st->drain_s);
    put_n(&w, st->boundary_s);
    put_n(&w, st->hidden_s);
    put_n(&w, r->tokens);
    put_n(&w, r->steps);
    put_n(&w, r->tokens_per_s);
    put_n(&w, r->time_s);
    put_n(&w, r->power_W);
    put_n(&w, r->energy_J);
    if (r->cost >= 0)
        put_n(&w, r->cost);
    else
        put_s(&w, "");
    put_s(&w, step_res_name[st->bottleneck]);
    put_n(&w, r->params);
    put_n(&w, r->state_bytes);
    put_n(&w, r->critical_tokens);
    put_n(&w, r->balance_tokens);
    put_n(&w, st->max_seqs);
    const int flags[] = {r->memoryx_fits, r->sram_fits,       r->matmul_fits,
                         r->batch_ok,     r->stream_balanced, r->feasible};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        put_s(&w, flags[i] ? "1" : "0");
    char warn[256];
    put_s(&w, train_warn_names(r->warnings, warn, sizeof warn));
    assert(w.k == est_ncols);
    out_row(t, w.cell);
}
