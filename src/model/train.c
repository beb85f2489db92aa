/* train.c - time-to-train, energy, cost and verdicts. */
#include "train.h"

#include "../base/finite.h"
#include "../base/units.h"
#include "../desc/loss.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mx.h"
#include "swx.h"
#include "wse.h"

const char *const train_power_name[TRAIN_NPOWER] = {"systems", "memoryx", "activation", "swarmx"};

static const char *const warn_name[] = {
    "memoryx_full",         "sram_full",    "fewer_seqs_than_systems", "matmul_blocked",
    "above_critical_batch", "stream_bound", "state_on_flash",          "gradient_accumulation",
    "act_store_full",       "coarse_chunk", "above_max_systems",       "failures_outpace",
    [12] = "sparse_unreachable", /* TW_SPARSE_LOSS */
};

const char *train_warn_names(unsigned warnings, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof warn_name / sizeof warn_name[0]; i++) {
        if (!(warnings & (1u << i)))
            continue;
        /* memcpy, not snprintf: sweep writes this for every row */
        size_t k = strlen(warn_name[i]) + (len > 0);
        if (k >= n - len)
            break;
        if (len)
            buf[len] = ';';
        memcpy(buf + len + (len > 0), warn_name[i], k - (len > 0) + 1);
        len += k;
    }
    return buf;
}

/* Tokens per system per micro-batch at which a block's forward pass (at
 * the large-batch utilisation) takes as long as streaming its weights in
 * once.  The forward is the binding pass: the backward streams the weights
 * once too but computes at least twice as much, so above this point every
 * pass is compute-bound. */
static double balance_tokens(const struct hw_desc *hw, const struct wl_desc *wl,
                             const struct tfm_figs *tf, double bw)
{
    double stream_s = tf->block * wl->weight_bytes / bw;
    return stream_s * hw->wse.peak_flops * hw->wse.utilization / tf->block_flops[TFM_FWD];
}

/* a and b are the same bits, field by field (inline: memcmp() was a
 * call in every evaluation). */
static inline int loss_same(const struct loss_spec *a, const struct loss_spec *b)
{
    return mm_same(a->sparse_a, b->sparse_a) && mm_same(a->sparse_b, b->sparse_b) &&
           mm_same(a->param_coeff, b->param_coeff) &&
           mm_same(a->param_exponent, b->param_exponent) &&
           mm_same(a->data_scale, b->data_scale) && mm_same(a->data_exponent, b->data_exponent) &&
           mm_same(a->irreducible, b->irreducible);
}

/* The state, the converged loss and the critical batch (train.h), and the
 * batch against it in whole steps: what neither N (of a strong scaling)
 * nor the step time changes.  A scan asks for the same figures again and
 * again (the two pow() alone were a tenth of an evaluation), so each
 * thread keeps them with what they come from, bit for bit: the workload's
 * figures by their number gen (workload_figures(): the same number, the
 * same workload fields and figures), its loss law (not in those fields)
 * and the batch spec; then the cluster's batch, tokens, penalty and
 * sparsity (the tokens at equal quality, desc/loss.h).  Long because the
 * two kept parts and the keys each is kept by belong together. */
static void batch_figures(const struct cluster *c, const struct tfm_figs *tf, unsigned long gen,
                          struct train_result *r)
{
    static _Thread_local struct {
        unsigned long gen; /* 0: none yet */
        struct batch_spec b;
        struct loss_spec ls;
        double params, bpp, state, loss, critical_tokens, weights;
        int steps_set, penalty; /* the figures below, of these: */
        double global_seqs, tokens, ref_seqs, sparsity;
        double global_tokens, token_factor, sparse_factor, need, steps;
    } last;
    _Static_assert(sizeof(struct batch_spec) == 4 * sizeof(double), "batch_spec: no padding");
    _Static_assert(sizeof(struct loss_spec) == 7 * sizeof(double), "loss_spec: no padding");
    const struct wl_desc *wl = c->wl;
    const struct batch_spec *b = &c->hw->batch;
    if (gen != last.gen || memcmp(b, &last.b, sizeof *b) != 0 || !loss_same(&wl->loss, &last.ls)) {
        last.params = tf->params;
        last.bpp = mx_bytes_per_param(wl);
        last.state = last.params * last.bpp;
        last.loss = batch_loss(b, last.params);
        last.critical_tokens = batch_critical_tokens(b, last.loss);
        last.weights = tf->block_matrix * wl->layers;
        last.b = *b;
        last.ls = wl->loss;
        last.gen = gen;
        last.steps_set = 0;
    }
    if (!last.steps_set || !mm_same(c->global_seqs, last.global_seqs) ||
        !mm_same(c->tokens, last.tokens) || !mm_same(c->ref_seqs, last.ref_seqs) ||
        c->batch_penalty != last.penalty || !mm_same(c->sparsity, last.sparsity)) {
        last.global_tokens = c->global_seqs * wl->seq_len;
        last.token_factor = 1;
        if (c->batch_penalty)
            last.token_factor = batch_token_factor(
                last.global_tokens, c->ref_seqs * wl->seq_len, last.critical_tokens);
        last.sparse_factor = loss_token_multiplier(&wl->loss, c->sparsity, last.weights, c->tokens);
        last.sparsity = c->sparsity;
        last.need = c->tokens * last.token_factor *
                    (isfinite(last.sparse_factor) ? last.sparse_factor : 1);
        /* whole steps: the last one runs whole even when the tokens end
         * inside it */
        last.steps = ceil(last.need / last.global_tokens);
        last.steps_set = 1;
        last.penalty = c->batch_penalty;
        last.global_seqs = c->global_seqs;
        last.tokens = c->tokens;
        last.ref_seqs = c->ref_seqs;
    }
    r->params = last.params;
    r->bytes_per_param = last.bpp;
    r->state_bytes = last.state;
    r->global_tokens = last.global_tokens;
    r->loss = last.loss;
    r->critical_tokens = last.critical_tokens;
    r->token_factor = last.token_factor;
    r->batch_penalty = last.penalty;
    r->sparse_factor = last.sparse_factor;
    r->sparse_weights = last.weights;
    r->tokens = last.need;
    r->steps = last.steps;
}

/* The state, the batch against the critical batch, and the time: whole
 * steps of the step time. */
static void train_time(const struct cluster *c, const struct tfm_figs *tf, unsigned long gen,
                       struct train_result *r)
{
    const struct step_result *s = &r->step;
    batch_figures(c, tf, gen, r);
    r->time_s = r->steps * s->step_s;
    r->tokens_per_s = r->global_tokens / s->step_s;
    /* a zero weight's multiply-add in each of the three passes: 6 FLOP */
    double zeros = 6 * c->wl->layers * tf->block_matrix * c->sparsity;
    r->model_flops = (tf->train_flops - zeros) * r->global_tokens;
    r->mfu = r->model_flops / (s->step_s * c->systems * c->hw->wse.peak_flops);
}

/* The bill of materials: each part's count (the systems, MemoryX
 * servers, every system's activation servers, SwarmX nodes) with its
 * power, MTBF and price. */
static void train_bom(const struct cluster *c, struct train_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct step_result *s = &r->step;
    r->swx_nodes = swx_nodes(&hw->swx, c->systems);
    const struct bom_line b[TRAIN_NPOWER] = {
        [TRAIN_POWER_SYSTEMS] = {train_power_name[TRAIN_POWER_SYSTEMS], c->systems,
                                 hw->wse.power_W, hw->rel.system_mtbf_s, hw->price.system},
        [TRAIN_POWER_MEMORYX] = {train_power_name[TRAIN_POWER_MEMORYX], s->mx_servers,
                                 hw->mx.server_power_W, hw->rel.memoryx_mtbf_s, hw->price.memoryx},
        [TRAIN_POWER_ACT] = {train_power_name[TRAIN_POWER_ACT], c->systems * s->act_servers,
                             hw->act.server_power_W, hw->rel.act_mtbf_s, hw->price.act},
        [TRAIN_POWER_SWARMX] = {train_power_name[TRAIN_POWER_SWARMX], r->swx_nodes,
                                hw->swx.node_power_W, hw->rel.swarmx_mtbf_s, hw->price.swarmx},
    };
    memcpy(r->bom, b, sizeof b);
}

/* Power by part, the expected wall time under failures (gp.h: MemoryX
 * writes the state to storage and reads it back), energy over it, and
 * cost (cost.h). */
static void train_power(const struct cluster *c, struct train_result *r)
{
    const struct hw_desc *hw = c->hw;
    train_bom(c, r);
    r->power_W = 0;
    for (int i = 0; i < TRAIN_NPOWER; i++) {
        r->power_part[i] = r->bom[i].count * r->bom[i].power_W;
        r->power_W += r->power_part[i];
    }
    r->time_ff_s = r->time_s;
    r->ckpt_bytes = r->state_bytes;
    double bw = site_ckpt_Bps(&hw->site, r->step.mx_servers * hw->rel.server_ckpt_Bps);
    double io_s = bw > 0 ? r->ckpt_bytes / bw : 0;
    gp_eval(r->time_ff_s, cost_failure_rate(r->bom, TRAIN_NPOWER), io_s, io_s + hw->site.restart_s,
            &r->gp);
    if (r->gp.finishes)
        r->time_s = r->gp.wall_s;
    r->energy_J = r->power_W * r->time_s;
    /* a copy: the description may not outlive the result (param_eval) */
    memcpy(r->currency, hw->site.currency, sizeof r->currency - 1);
    r->currency[sizeof r->currency - 1] = '\0';
    cost_eval(r->bom, TRAIN_NPOWER, r->time_s, r->energy_J, &hw->site, c->systems, c->price,
              &r->costs);
    r->cost = r->costs.total;
}

/* The verdicts, their warning bits and whether the run is feasible. */
static void train_verdicts(const struct cluster *c, const struct tfm_figs *tf,
                           struct train_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    const struct step_result *s = &r->step;
    r->sram_per_seq = s->sram_per_seq;
    r->matmul_dim = wse_largest_matmul(wl);
    r->balance_tokens = balance_tokens(hw, wl, tf, s->stream_bw);

    r->memoryx_bytes = mx_capacity(&hw->mx, s->mx_servers);
    r->memoryx_fits = r->state_bytes <= r->memoryx_bytes;
    r->sram_fits = s->sram_fits;
    r->act_fits = s->act_fits;
    r->split_ok = c->global_seqs >= c->systems;
    r->systems_ok = c->systems <= hw->wse.max_systems;
    r->matmul_fits = r->matmul_dim <= hw->wse.max_matmul_dim;
    r->batch_ok = r->global_tokens <= r->critical_tokens;
    r->stream_balanced = s->micro_tokens >= r->balance_tokens;

    unsigned w = 0;
    w |= r->memoryx_fits ? 0 : TW_MEMORYX;
    w |= r->sram_fits ? 0 : TW_SRAM;
    w |= r->split_ok ? 0 : TW_SPLIT;
    w |= r->matmul_fits ? 0 : TW_MATMUL;
    w |= r->batch_ok ? 0 : TW_CRIT_BATCH;
    w |= r->stream_balanced ? 0 : TW_STREAM;
    w |= s->flash_fraction > 0 ? TW_FLASH : 0;
    w |= s->micro_batches > 1 ? TW_ACCUM : 0;
    w |= r->act_fits ? 0 : TW_ACT_STORE;
    r->chunk_fine = hw->swx.chunk_bytes <= TRAIN_CHUNK_SHARE * s->block_stream_bytes;
    w |= r->chunk_fine ? 0 : TW_CHUNK;
    w |= r->systems_ok ? 0 : TW_MAX_SYSTEMS;
    w |= r->gp.finishes ? 0 : TW_FAILURES;
    w |= isfinite(r->sparse_factor) ? 0 : TW_SPARSE_LOSS;
    r->warnings = w;
    r->feasible = !(w & TW_INFEASIBLE);
}

/* Every field of a workload that src/desc/tfm.c reads lies in one of two
 * runs of struct wl_desc, compared and kept as they are (the asserts say
 * that the runs hold those fields and no padding): layers .. tokens and
 * tokens_chinchilla; gated_ffn .. recompute and weight_bytes .. act_bytes.
 * A field tfm.c comes to read belongs in a run (or a run of its own). */
#define WL_RUN1 offsetof(struct wl_desc, layers)
#define WL_RUN1_END (offsetof(struct wl_desc, tokens_chinchilla) + sizeof(int))
#define WL_RUN2 offsetof(struct wl_desc, gated_ffn)
#define WL_RUN2_END (offsetof(struct wl_desc, act_bytes) + sizeof(double))
_Static_assert(WL_RUN1_END - WL_RUN1 == 9 * sizeof(double) + sizeof(int),
               "layers, hidden, heads, kv_heads, ffn, seq_len, vocab, predictions, tokens, "
               "tokens_chinchilla: adjacent");
_Static_assert(WL_RUN2_END - WL_RUN2 == 8 * sizeof(int) + 5 * sizeof(double),
               "gated_ffn, bias, tied_embeddings, norm, positions, dropout, attention_dropout, "
               "recompute, weight_bytes, grad_bytes, master_bytes, optimizer_bytes, act_bytes: "
               "adjacent");
struct wl_key {
    unsigned char run1[WL_RUN1_END - WL_RUN1], run2[WL_RUN2_END - WL_RUN2];
};

/* The XOR of the 8 bytes at a and at b. */
static inline uint64_t word_diff(const unsigned char *a, const unsigned char *b)
{
    uint64_t x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return x ^ y;
}

/* The XORs of the 9 words at a and at b, ORed. */
#define WL_DIFF9(a, b)                                                                             \
    (word_diff(a, b) | word_diff(a + 8, b + 8) | word_diff(a + 16, b + 16) |                       \
     word_diff(a + 24, b + 24) | word_diff(a + 32, b + 32) | word_diff(a + 40, b + 40) |           \
     word_diff(a + 48, b + 48) | word_diff(a + 56, b + 56) | word_diff(a + 64, b + 64))

/* The runs of w are k's: word by word, without a call (two memcmp() were
 * a thirtieth of an analytic evaluation); run1's last 4 bytes (the int
 * tokens_chinchilla) as the tail of a word that ends there. */
static int workload_same(const struct wl_desc *w, const struct wl_key *k)
{
    const unsigned char *b = (const unsigned char *)w;
    _Static_assert(sizeof k->run1 == 76 && sizeof k->run2 == 72, "WL_DIFF9: 9 words a run");
    uint64_t d = WL_DIFF9(b + WL_RUN1, k->run1) | word_diff(b + WL_RUN1 + 68, k->run1 + 68) |
                 WL_DIFF9(b + WL_RUN2, k->run2);
    return d == 0;
}

static void workload_keep(const struct wl_desc *w, struct wl_key *k)
{
    const unsigned char *b = (const unsigned char *)w;
    memcpy(k->run1, b + WL_RUN1, sizeof k->run1);
    memcpy(k->run2, b + WL_RUN2, sizeof k->run2);
}

/* tfm_figures() of wl.  A scan evaluates one workload again and again, so
 * each thread keeps the figures of the last one with the runs above:
 * another workload, or any of those fields changed in any bit, a NaN or
 * the sign of a zero included, is worked out again.  (The runs, not the
 * struct's bytes: its padding and the tail of its name may be
 * uninitialised.)  Each time they are worked out they get the thread's next
 * number, *gen (from 1), which step_eval_figs() takes.  Valid until the
 * thread's next call. */
static const struct tfm_figs *workload_figures(const struct wl_desc *wl, unsigned long *gen)
{
    static _Thread_local struct {
        struct wl_key key;
        struct tfm_figs tf;
        unsigned long gen;
        int set;
    } last;
    if (!last.set || !workload_same(wl, &last.key)) {
        tfm_figures(wl, &last.tf);
        workload_keep(wl, &last.key);
        last.gen++;
        last.set = 1;
    }
    *gen = last.gen;
    return &last.tf;
}

void train_eval(const struct cluster *c, struct train_result *r)
{
    unsigned long gen;
    const struct tfm_figs *tf = workload_figures(c->wl, &gen);
    /* not zeroed first: step_eval_figs() sets the whole step and the
     * three below every other field */
    step_eval_figs(c, tf, gen, &r->step);
    train_time(c, tf, gen, r);
    train_power(c, r);
    train_verdicts(c, tf, r);
}

void train_at(const struct cluster *base, double n, enum scaling mode, struct train_result *r)
{
    struct cluster c = *base;
    c.systems = n;
    if (mode == SCALE_WEAK)
        c.global_seqs = base->global_seqs / base->systems * n;
    train_eval(&c, r);
}

/* Where a figure of the weight-streaming model can come from: any input. */
#define TRAIN_INPUTS "the hardware, --set, --hw-overlay, --batch, --tokens or --price"

/* Every figure of r with its name into f (room for TRAIN_NFIGS); their
 * count. */
enum { TRAIN_NAMED = 29, TRAIN_NFIGS = TRAIN_NAMED + TFM_NPASSES + 2 * STEP_NRES };
static size_t train_figures(const struct train_result *r, struct finite_fig *f)
{
    const struct step_result *st = &r->step;
    const struct {
        const char *name;
        double v;
    } fig[] = {
        {"step time", st->step_s},
        {"sequences per system", st->local_seqs},
        {"micro-batches", st->micro_batches},
        {"tokens per micro-batch", st->micro_tokens},
        {"stream bandwidth", st->stream_bw},
        {"flash share of the state", st->flash_fraction},
        {"recompute time", st->recompute_s},
        {"pipeline fill", st->fill_s},
        {"pipeline drain", st->drain_s},
        {"boundary update", st->boundary_s},
        {"first backward", st->first_bwd_s},
        {"hidden latency", st->hidden_s},
        {"parameters", r->params},
        {"state bytes", r->state_bytes},
        {"tokens per step", r->global_tokens},
        {"critical batch", r->critical_tokens},
        {"token factor", r->token_factor},
        {"training tokens", r->tokens},
        {"steps", r->steps},
        {"time to train", r->time_s},
        {"tokens per second", r->tokens_per_s},
        {"power", r->power_W},
        {"energy", r->energy_J},
        {"cost", r->cost},
        {"checkpoint time", r->gp.ckpt_s},
        {"SRAM per sequence", r->sram_per_seq},
        {"stream-balance point", r->balance_tokens},
        {"offloaded activation bytes", st->act_bytes},
        {"slowest-system factor", st->slowest},
    };
    _Static_assert(sizeof fig / sizeof fig[0] == TRAIN_NAMED, "TRAIN_NAMED counts fig[]");
    size_t n = 0;
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
        f[n++] = (struct finite_fig){fig[i].name, fig[i].v, TRAIN_INPUTS};
    for (int p = 0; p < TFM_NPASSES; p++)
        f[n++] = (struct finite_fig){"compute time of a pass", st->pass_s[p], TRAIN_INPUTS};
    for (int k = 0; k < STEP_NRES; k++) {
        f[n++] = (struct finite_fig){"time of a resource", st->busy[k], TRAIN_INPUTS};
        f[n++] = (struct finite_fig){"time of a resource", st->critical[k], TRAIN_INPUTS};
    }
    return n;
}

const char *train_nonfinite(const struct train_result *r)
{
    struct finite_fig f[TRAIN_NFIGS];
    size_t n = train_figures(r, f), i = finite_first(f, n);
    return i < n ? f[i].name : NULL;
}

cp_status train_check(const struct cluster *c, struct cp_error *err)
{
    /* The size asked first, then the ends scale and plan may reach, which
     * a message does not name: nobody asked for them. */
    const double ns[] = {c->systems, 1, CLUSTER_MAX_SYSTEMS};
    struct train_result r;
    /* A critical batch of 0 (or beyond any number) is finite arithmetic
     * but no batch: every batch is above it and the penalty divides by it. */
    train_eval(c, &r);
    if (!(r.critical_tokens >= 1) || !isfinite(r.critical_tokens))
        return cp_fail(err, CP_EINPUT,
                       "batch.critical_exponent, batch.critical_tokens: the critical batch of "
                       "%s comes to %g tokens (loss %.6g raised to 1/%g); a critical batch "
                       "must be at least one token and finite",
                       c->wl->name, r.critical_tokens, r.loss, c->hw->batch.critical_exponent);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        for (int mode = SCALE_WEAK; mode <= SCALE_STRONG; mode++) {
            train_at(c, ns[i], (enum scaling)mode, &r);
            struct finite_fig f[TRAIN_NFIGS];
            size_t nf = train_figures(&r, f);
            char at[64] = "";
            if (i == 0)
                snprintf(at, sizeof at, " at %.0f system%s", ns[i], ns[i] == 1 ? "" : "s");
            if (finite_check(f, nf, at, err) != CP_OK)
                return CP_EINPUT;
        }
    }
    return CP_OK;
}
