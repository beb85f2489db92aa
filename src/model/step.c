/* step.c - per-layer step time: compute, streams, update, exposed latency;
 * activation placement and server sizing (the model is stated in step.h). */
#include "step.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "minmax.h"
#include "mx.h"
#include "step_fixed.h"
#include "wse.h"

/* The first of the largest of t0..t3 (a NaN only as t0), as charge() takes. */
static inline double longest(double t0, double t1, double t2, double t3)
{
    double t = t0;
    if (t1 > t)
        t = t1;
    if (t2 > t)
        t = t2;
    if (t3 > t)
        t = t3;
    return t;
}

/* Charge count layers of duration max(t0..t3) (the first of equals) to the
 * resource that set it (critical[], indexed by enum step_res). */
static inline double charge(double *critical, double t0, double t1, double t2, double t3,
                            double count)
{
    int arg = 0;
    double t = t0;
    if (t1 > t)
        arg = 1, t = t1;
    if (t2 > t)
        arg = 2, t = t2;
    if (t3 > t)
        arg = 3, t = t3;
    critical[arg] += count * t;
    return count * t;
}

/* The backward terms of a layer that are not its update. */
static double bwd_busy(const struct layer *L)
{
    double c = L->pass_s[TFM_DELTA] + L->pass_s[TFM_WGRAD] + L->recompute_s;
    return mm_max(c, mm_max(L->bwd_in_s, L->out_s));
}

/* n of layer L, forward and backward (with its update upd) and its
 * segment, charged; returns total with their time added, in this order. */
static inline double charge_layer(double *critical, const struct layer *L, double upd, double n,
                                  double total)
{
    double fwd = charge(critical, L->pass_s[TFM_FWD], L->in_s, L->act_out_s, 0, n);
    double bwd = charge(critical, L->pass_s[TFM_DELTA] + L->pass_s[TFM_WGRAD] + L->recompute_s,
                        L->bwd_in_s, L->out_s, upd, n);
    total += fwd + bwd;
    if (L->segment_s > 0)
        total += charge(critical, L->segment_s, L->in_s, 0, 0, n);
    return total;
}

/* Forward and backward of one micro-batch through the three layers;
 * with each layer's update upd[] in the last micro-batch (else upd is
 * NULL).  Returns its time, times reps. */
static double micro_batch(double *critical, const struct layer *const ly[3], const double *upd,
                          double reps)
{
    double total = 0;
    for (int i = 0; i < 3; i++)
        total = charge_layer(critical, ly[i], upd ? upd[i] : 0, ly[i]->count * reps, total);
    return total;
}

/* micro_batch()'s time without the charges, no update, of the first m - 1
 * micro-batches (*first) and of the last (returned): the two sums
 * micro_batch() would add up, in its order, each peak found once.  The
 * three layers by pointer: a placement not yet staged gives its own
 * block and logits beside the shared embedding. */
static double micro_batch_s(const struct layer *const ly[3], double m, double *first)
{
    double total = 0, last = 0;
    for (int i = 0; i < 3; i++) {
        const struct layer *L = ly[i];
        double n = L->count * (m - 1), n1 = L->count * 1;
        double f = longest(L->pass_s[TFM_FWD], L->in_s, L->act_out_s, 0);
        double b = longest(L->pass_s[TFM_DELTA] + L->pass_s[TFM_WGRAD] + L->recompute_s,
                           L->bwd_in_s, L->out_s, 0);
        total += n * f + n * b;
        last += n1 * f + n1 * b;
        if (L->segment_s > 0) {
            double g = longest(L->segment_s, L->in_s, 0, 0);
            total += n * g;
            last += n1 * g;
        }
    }
    *first = total;
    return last;
}

/* The time of m micro-batches through the layers, the last with the
 * update, each resource's share charged to critical[] (enum step_res up to
 * STEP_UPDATE; zero on entry): micro_batch() of the first m - 1, then of
 * the last.  With m = 1 the first adds count x 0 x t for each peak t: +0
 * or -0 when every t and count is finite, which leaves every sum as it is
 * (+0 plus either zero is +0, and the sums start at +0), so the last
 * micro-batch alone gives the same bits: its total starts at +0 and so is
 * never -0, and +0 + it is it.  That holds when the last micro-batch's
 * total is finite: then each of its terms count x t is (a sum with an
 * infinity or a NaN is not finite), so each count and t is (the first's
 * backward peak is the largest of the same terms and 0 where the last's
 * has its update instead: finite too).  Otherwise the sums are zeroed
 * again and both are charged in order. */
static double micro_batches(double *critical, const struct layer *const ly[3], const double *upd,
                            double m)
{
    if (m == 1) {
        double last = micro_batch(critical, ly, upd, 1);
        if (isfinite(last))
            return last;
        memset(critical, 0, sizeof(double) * (STEP_UPDATE + 1));
    }
    return micro_batch(critical, ly, NULL, m - 1) + micro_batch(critical, ly, upd, 1);
}

/* The same without the charges and without the update (lower_step_s()):
 * with m = 1 the first term is +0 when the second is finite, for the same
 * reasons. */
static double micro_batches_s(const struct layer *const ly[3], double m)
{
    double first, last = micro_batch_s(ly, m, &first);
    if (m == 1 && isfinite(last))
        return last;
    return first + last;
}

/* SRAM per sequence, micro-batches and activation servers of one placement. */
static void place(const struct cluster *c, const struct fixed *F, enum act_mode mode, double k,
                  struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    double local = r->local_seqs;
    double input = F->input;
    r->act = mode;
    r->act_k = mode == ACT_RECOMPUTE ? k : mode == ACT_OFFLOAD ? 1 : 0;
    r->recompute = mode != ACT_WAFER;
    r->ckpt_per_seq = wl->layers * input;
    r->act_fits = 1;
    /* the cluster's activation servers whatever the placement: they carry
     * the samples in (cerebras-plan(1), MODEL, The cluster's servers) */
    r->act_servers = c->act_servers > 0 ? c->act_servers : hw->act.servers_per_system;
    r->store_seqs = r->act_bw = 0;
    int ahead = mode == ACT_WAFER     ? FIXED_PLACE_WAFER
                : mode == ACT_OFFLOAD ? FIXED_PLACE_OFFLOAD
                : k == 1              ? FIXED_PLACE_K1
                : k == F->best_k      ? FIXED_PLACE_KBEST
                                      : -1;
    if (ahead >= 0) {
        r->sram_per_seq = F->place_sram[ahead];
        r->max_seqs = F->place_max[ahead];
    } else {
        r->sram_per_seq = step_sram_per_seq(mode, k, wl->layers, input, F->full, F->logits);
        r->max_seqs = step_max_seqs(F->room, r->sram_per_seq);
    }
    r->sram_fits = r->max_seqs >= 1;
    if (mode != ACT_OFFLOAD) {
        /* with local > 1 and a finite max_seqs >= 1, local / max_seqs is
         * in (0, 1], and its ceil() 1, exactly when local <= max_seqs (the
         * rounded quotient is monotone and 1 is a double) */
        r->micro_batches = (local <= 1 || r->max_seqs < 1) ? ceil(local)
                           : local <= r->max_seqs && isfinite(r->max_seqs)
                               ? 1
                               : ceil(local / r->max_seqs);
        return;
    }
    /* what the servers hold sets the micro-batch (the vendor's automatic
     * micro-batching, gradients accumulated), not more servers */
    const struct act_spec *as = &hw->act;
    r->store_seqs = floor(r->act_servers * as->server_bytes / r->ckpt_per_seq);
    r->act_fits = r->store_seqs >= 1;
    r->micro_batches = r->store_seqs >= 1 ? ceil(local / r->store_seqs) : ceil(local);
    r->act_bw = mm_min(hw->wse.io_bw_Bps, r->act_servers * as->server_net_Bps);
}

/* What the phases of one placement's step share. */
struct placed {
    double S;                  /* MemoryX servers                           */
    struct layer L, H;         /* the blocks and the logits (F's embedding
                                  is the same in every placement)          */
    const struct layer *ly[3]; /* the embedding, the blocks, the logits     */
    double update_s[3];        /* each one's MemoryX update, once per step,
                                  on S servers                             */
};

/* Sequences and tokens per micro-batch of placement r, per system. */
static inline void micro_size(const struct cluster *c, const struct step_result *r, double *seqs,
                              double *t)
{
    /* (x / 1 is x: one division fewer in the common case) */
    *seqs = r->micro_batches == 1 ? r->local_seqs : r->local_seqs / r->micro_batches;
    *t = *seqs * c->wl->seq_len;
}

/* The blocks (L) and the logits (H) at this placement's micro-batch of
 * seqs sequences, t tokens, from F's (L and H hold F's layers on entry).
 * Offloaded, each block's input goes out and comes back; recomputed, its
 * forward runs again in (k = 1) or before (k > 1) the backward.  Sets r's
 * block_stream_bytes and act_bytes. */
static void placed_layers(const struct cluster *c, const struct fixed *F, double k, double seqs,
                          double t, struct layer *L, struct layer *H, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    r->block_stream_bytes = mm_min(F->block_w, F->block_g);
    if (r->act == ACT_OFFLOAD) {
        /* Each block's input leaves on the system's egress in the forward
         * pass and comes back beside the block's weights in the backward,
         * both at the activation servers' rate (the port caps it). */
        double ckpt = seqs * F->input;
        r->act_bytes = ckpt * wl->layers * r->micro_batches;
        L->act_out_s = ckpt / r->act_bw;
        r->block_stream_bytes = mm_min(r->block_stream_bytes, ckpt);
        L->bwd_in_s =
            mm_max(L->in_s, mm_max(ckpt / r->act_bw, (F->block_w + ckpt) / hw->wse.io_bw_Bps));
    }
    double rate = wse_rate(&hw->wse, t);
    for (int p = 0; p < TFM_NPASSES; p++) {
        L->pass_s[p] = F->slowest * wse_time_at(F->block_f[p] * t, rate);
        /* the logits' passes are one matmul each: the same FLOPs, the same
         * time, without dividing again */
        H->pass_s[p] = p > 0 && F->head_f[p] == F->head_f[p - 1]
                           ? H->pass_s[p - 1]
                           : F->slowest * wse_time_at(F->head_f[p] * t, rate);
    }
    if (r->act == ACT_RECOMPUTE && k > 1)
        L->segment_s = L->pass_s[TFM_FWD];
    else if (r->recompute)
        L->recompute_s = L->pass_s[TFM_FWD];
}

/* A placement's step up to the update: its micro-batches and its layers
 * (the links and weights from F). */
static void stage(const struct cluster *c, const struct fixed *F, double k, struct placed *P,
                  struct step_result *r)
{
    double seqs, t;
    micro_size(c, r, &seqs, &t);
    r->micro_tokens = t;
    r->slowest = F->slowest;
    r->mx_hold = F->mx_hold;
    r->mx_stream = F->mx_stream;
    r->stream_bw = F->bw;
    r->grad_bw = F->gbw;
    r->stream_bind = F->stream_bind;
    r->grad_bind = F->grad_bind;
    r->flash_fraction = F->flash_fraction;
    P->S = F->S;
    P->L = F->ly[1];
    P->H = F->ly[2];
    P->ly[0] = &F->ly[0];
    P->ly[1] = &P->L;
    P->ly[2] = &P->H;
    placed_layers(c, F, k, seqs, t, &P->L, &P->H, r);
}

/* Each layer's update on S servers (as size_update() wants them), into
 * upd.  A sweep over sizes asks for the same S again and again, so each
 * thread keeps the last S with F's number: the same bits of S on the same
 * fixed part are the same updates. */
static void layer_updates(const struct mx_spec *mx, const struct fixed *F, double S, double upd[3])
{
    static _Thread_local struct {
        unsigned long gen; /* F->gen, 0: none yet */
        double S, upd[3];
    } last;
    if (last.gen != F->gen || !mm_same(S, last.S)) {
        for (int i = 0; i < 3; i++)
            last.upd[i] =
                mx_update_time_bpp(mx, F->bpp, F->update_params[i] / S, F->flash_fraction);
        last.gen = F->gen;
        last.S = S;
    }
    for (int i = 0; i < 3; i++)
        upd[i] = last.upd[i];
}

/* MemoryX sized for the run: also enough servers that each layer's share
 * of the update fits in that layer's backward pass.  Then each layer's
 * update on the servers there are. */
static void size_update(const struct cluster *c, const struct fixed *F, struct placed *P,
                        struct step_result *r)
{
    /* mm_max(need, ceil(one / room)) of each layer, need a whole number
     * >= 1 or infinity: ceil(q) <= need when q <= need (equal, it is need's
     * bits: both positive), and a quotient that is not a number leaves
     * need; so ceil() only for a quotient above need */
    double need = 1;
    for (int i = 0; i < 3; i++) {
        double one = F->update_one_s[i];
        double room = bwd_busy(P->ly[i]);
        if (one > 0 && room > 0) {
            double q = one / room;
            if (q > need)
                need = ceil(q);
        }
    }
    r->mx_update = need;
    if (c->mx_servers == 0)
        P->S = mm_min(mm_max(P->S, r->mx_update), HW_MAX_SERVERS);
    r->mx_servers = P->S;
    layer_updates(&c->hw->mx, F, P->S, P->update_s);
}

/* Each resource's busy time, whole step, added up layer by layer. */
struct busy_sums {
    double fwd, delta, wgrad, rec, in, out, upd;
};

/* Layer L's share of the sums at m micro-batches, with its update upd. */
static inline void busy_add(struct busy_sums *b, const struct layer *L, double m, double upd)
{
    double n = m * L->count; /* m x count x t is (m x count) x t */
    b->fwd += n * L->pass_s[TFM_FWD];
    b->delta += n * L->pass_s[TFM_DELTA];
    b->wgrad += n * L->pass_s[TFM_WGRAD];
    b->rec += n * (L->recompute_s + L->segment_s);
    double seg_in = L->segment_s > 0 ? L->in_s : 0;
    b->in += n * (L->in_s + L->bwd_in_s + seg_in);
    b->out += n * (L->out_s + L->act_out_s);
    b->upd += L->count * upd;
}

/* Every micro-batch through the layers (the last with the update), each
 * resource's busy time added up (in locals, in the same order, from +0
 * as before: r is written once); returns the time they take.  With one
 * micro-batch, micro_batches()'s charges (micro_batch() of the last,
 * each charge in its order) come in the same pass over the layers as the
 * sums. */
static double run_layers(const struct placed *P, struct step_result *r)
{
    double m = r->micro_batches, time;
    struct busy_sums b = {0, 0, 0, 0, 0, 0, 0};

    _Static_assert(TFM_NPASSES == 3, "run_layers() adds the three passes");
    if (m == 1) {
        double *critical = r->critical;
        time = 0;
        for (int i = 0; i < 3; i++) {
            time = charge_layer(critical, P->ly[i], P->update_s[i], P->ly[i]->count * 1, time);
            busy_add(&b, P->ly[i], m, P->update_s[i]);
        }
        if (!isfinite(time)) { /* as micro_batches() does then */
            memset(critical, 0, sizeof(double) * (STEP_UPDATE + 1));
            time = micro_batch(critical, P->ly, NULL, m - 1) +
                   micro_batch(critical, P->ly, P->update_s, 1);
        }
    } else {
        time = micro_batches(r->critical, P->ly, P->update_s, m);
        for (int i = 0; i < 3; i++)
            busy_add(&b, P->ly[i], m, P->update_s[i]);
    }
    r->pass_s[TFM_FWD] = b.fwd;
    r->pass_s[TFM_DELTA] = b.delta;
    r->pass_s[TFM_WGRAD] = b.wgrad;
    r->recompute_s = b.rec;
    r->busy[STEP_STREAM_IN] = b.in;
    r->busy[STEP_STREAM_OUT] = b.out;
    r->busy[STEP_UPDATE] = b.upd;
    r->busy[STEP_COMPUTE] = b.fwd + b.delta + b.wgrad + b.rec;
    return time;
}

/* The latency the boundary leaves exposed: the overlap lets the first
 * layer's next forward start while that fraction of its backward is still
 * running, hiding up to overlap x its backward time (first layer, last
 * micro-batch). */
static double boundary(const struct cluster *c, const struct fixed *F, const struct placed *P,
                       struct step_result *r)
{
    r->fill_s = F->fill_s;
    r->drain_s = F->drain_s;
    r->boundary_s = F->boundary_s;
    r->first_bwd_s = mm_max(P->update_s[0], F->embed_stream_s);
    double total = F->latency_s;
    r->hidden_s = mm_min(total, c->overlap * r->first_bwd_s);
    return total - r->hidden_s;
}

/* A staged placement's step from its update on (the model is stated in
 * step.h): update servers, the micro-batches, the boundary. */
static void finish(const struct cluster *c, const struct fixed *F, struct placed *P,
                   struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    /* run_layers() and the lines below set every sum but the charges */
    memset(r->critical, 0, sizeof(double) * (STEP_UPDATE + 1));
    size_update(c, F, P, r);
    double time = run_layers(P, r);

    double exposed = boundary(c, F, P, r);
    r->busy[STEP_LATENCY] = exposed;
    r->critical[STEP_LATENCY] = exposed;
    r->busy[STEP_OVERHEAD] = r->critical[STEP_OVERHEAD] = hw->wse.step_overhead_s;
    r->step_s = time + exposed + hw->wse.step_overhead_s;

    /* the first of the largest, each resource in turn (written out: the
     * loop was a tenth of this function) */
    _Static_assert(STEP_NRES == 6, "finish() weighs six resources");
    const double *k = r->critical;
    enum step_res b = STEP_COMPUTE;
    double top = k[STEP_COMPUTE];
    if (k[STEP_STREAM_IN] > top)
        b = STEP_STREAM_IN, top = k[STEP_STREAM_IN];
    if (k[STEP_STREAM_OUT] > top)
        b = STEP_STREAM_OUT, top = k[STEP_STREAM_OUT];
    if (k[STEP_UPDATE] > top)
        b = STEP_UPDATE, top = k[STEP_UPDATE];
    if (k[STEP_LATENCY] > top)
        b = STEP_LATENCY, top = k[STEP_LATENCY];
    if (k[STEP_OVERHEAD] > top)
        b = STEP_OVERHEAD;
    r->bottleneck = b;
}

/* A lower bound of a placed candidate's step_s, before it is staged:
 * micro_batch() without the update in the last micro-batch, no exposed
 * latency, the same overhead; its block and logits are made here as stage()
 * makes them (the embedding is F's), without the rest of stage()'s work,
 * which a candidate the bound rules out never needs.  Rounded sums and
 * products of the same terms in the same order are monotone, and a charge
 * without the update is at most the one with it, so the bound holds in
 * floating point too.  When it is above the finite step_s of another
 * placement, step_s is a number: that placement's exposed latency was
 * finite, so the latency both share (fixed.latency_s) is, and the exposed
 * part of it is then between 0 and it. */
static double lower_step_s(const struct cluster *c, const struct fixed *F, double k,
                           struct step_result *r)
{
    double seqs, t;
    struct layer L = F->ly[1], H = F->ly[2];
    micro_size(c, r, &seqs, &t);
    placed_layers(c, F, k, seqs, t, &L, &H, r);
    const struct layer *const ly[3] = {&F->ly[0], &L, &H};
    return micro_batches_s(ly, r->micro_batches) + c->hw->wse.step_overhead_s;
}

/* Start r for a placement: place(), stage() and finish() set every field
 * of it but the offloaded bytes (offload only), which are zeroed here, and
 * the sums finish() sets itself (a candidate auto rules
 * out before finishing it never needs them): the whole struct was, at more
 * than twice the cost (a tenth of an evaluation with the two or three
 * placements auto weighs).  The three runs around its 4-byte fields that hold padding on
 * an LP64 machine (after act, after recompute, at the end) are zeroed
 * too, so that two evaluations of one cluster are the same bytes (a
 * result may be compared or hashed whole). */
static void step_start(struct step_result *r, double local_seqs)
{
    memset(&r->act, 0, offsetof(struct step_result, act_k) - offsetof(struct step_result, act));
    memset(&r->recompute, 0,
           offsetof(struct step_result, sram_per_seq) - offsetof(struct step_result, recompute));
    memset(&r->bottleneck, 0, sizeof *r - offsetof(struct step_result, bottleneck));
    r->act_bytes = 0;
    r->local_seqs = local_seqs;
}

/* One placement, start to end. */
static void eval_placed(const struct cluster *c, const struct fixed *F, enum act_mode mode,
                        double k, struct step_result *r)
{
    struct placed P;
    step_start(r, F->local_seqs);
    place(c, F, mode, k, r);
    stage(c, F, k, &P, r);
    finish(c, F, &P, r);
}

/* Candidate b beats a: it fits where a does not, or both fit (or neither)
 * and it is faster. */
static int better(const struct step_result *b, const struct step_result *a)
{
    int fb = b->sram_fits && b->act_fits, fa = a->sram_fits && a->act_fits;
    return fb != fa ? fb : b->step_s < a->step_s;
}

/* A placement ACT_AUTO (or recompute with no k) weighs: placed first,
 * bounded when it might win, staged and finished when it still might. */
struct cand {
    int fits;              /* sram_fits && act_fits                       */
    int done;              /* r is the placement's whole step             */
    double k;              /* recompute: checkpoint every k blocks        */
    struct step_result *r; /* the caller's result (the first candidate, so
                              that it is not copied when it is kept) or one
                              of eval_auto()'s own */
};

static void cand_place(const struct cluster *c, const struct fixed *F, struct cand *x,
                       enum act_mode mode, double k)
{
    step_start(x->r, F->local_seqs);
    place(c, F, mode, k, x->r);
    x->fits = x->r->sram_fits && x->r->act_fits;
    x->k = k;
    x->done = 0;
}

static void cand_finish(const struct cluster *c, const struct fixed *F, struct cand *x)
{
    if (x->done)
        return;
    struct placed P;
    stage(c, F, x->k, &P, x->r);
    finish(c, F, &P, x->r);
    x->done = 1;
}

/* What keeping the first candidate and replacing it by each next one that
 * is better() gives, without finishing the candidates that cannot win.
 * Only those of the best fit count (one that fits replaces any that does
 * not, never the reverse).  Among them the one with the fewest
 * micro-batches (the first of equals) is finished first; another whose
 * bound (lower_step_s(), exact in floating point) is above its step time is
 * slower, so never replaces it, and never kept, changes nothing.  A step
 * time that is not a number breaks that order: then every candidate is
 * finished, as it was. */
static void choose(const struct cluster *c, const struct fixed *F, struct cand *x, int n,
                   struct step_result *r)
{
    int top = 0, p = -1, nan = 0;
    for (int i = 0; i < n; i++)
        top |= x[i].fits;
    for (int i = 0; i < n; i++)
        if (x[i].fits == top && (p < 0 || x[i].r->micro_batches < x[p].r->micro_batches))
            p = i;
    cand_finish(c, F, &x[p]);
    for (int i = 0; i < n; i++) {
        if (x[i].fits != top || x[i].done)
            continue;
        if (!(lower_step_s(c, F, x[i].k, x[i].r) > x[p].r->step_s))
            cand_finish(c, F, &x[i]);
    }
    for (int i = 0; i < n; i++)
        nan |= x[i].done && isnan(x[i].r->step_s);
    int keep = -1;
    for (int i = 0; i < n; i++) {
        if (x[i].fits != top)
            continue;
        if (nan)
            cand_finish(c, F, &x[i]);
        if (x[i].done && (keep < 0 || better(x[i].r, x[keep].r)))
            keep = i;
    }
    if (x[keep].r != r)
        *r = *x[keep].r;
}

/* The step of ACT_AUTO (the wafer, recompute every block or every best_k()
 * blocks, offload) or of ACT_RECOMPUTE with no k (the two recomputes): the
 * better() of them in that order.  Shortcuts that are exact: with the local
 * batch in one pass the wafer is fastest (no recompute, no extra traffic),
 * and then recompute every block (no extra stream; offload adds traffic and
 * k > 1 a third weight stream). */
static void eval_auto(const struct cluster *c, const struct fixed *F, struct step_result *r)
{
    struct step_result own[3];
    struct cand x[4];
    x[0].r = r; /* cand_place() sets the rest */
    for (int i = 1; i < 4; i++)
        x[i].r = &own[i - 1];
    int n = 0, wafer = c->act == ACT_AUTO && !c->wl->recompute;
    if (wafer)
        cand_place(c, F, &x[n++], ACT_WAFER, 1);
    cand_place(c, F, &x[n++], ACT_RECOMPUTE, 1);
    for (int i = 0; i <= wafer; i++) {
        struct step_result *s = x[i].r;
        if (!(s->micro_batches == 1 && s->sram_fits))
            continue;
        cand_finish(c, F, &x[i]);
        if (i == 1) {
            cand_finish(c, F, &x[0]);
            if (!better(s, x[0].r)) {
                n--; /* the wafer is kept: the rest weigh against it */
                break;
            }
        }
        if (s != r)
            *r = *s;
        return;
    }
    /* the rest, placed only now that no shortcut took the step, in the
     * same order */
    double k = F->best_k;
    if (k > 1)
        cand_place(c, F, &x[n++], ACT_RECOMPUTE, k);
    if (c->act == ACT_AUTO)
        cand_place(c, F, &x[n++], ACT_OFFLOAD, 1);
    choose(c, F, x, n, r);
}

void step_eval(const struct cluster *c, struct step_result *r)
{
    struct tfm_figs tf;
    tfm_figures(c->wl, &tf);
    step_eval_figs(c, &tf, 0, r);
}

void step_eval_figs(const struct cluster *c, const struct tfm_figs *tf, unsigned long tf_gen,
                    struct step_result *r)
{
    const struct fixed *F = step_fixed_init(c, tf, tf_gen);
    if (c->act == ACT_WAFER || c->act == ACT_OFFLOAD)
        eval_placed(c, F, c->act, 1, r);
    else if (c->act == ACT_RECOMPUTE && c->act_k > 0)
        eval_placed(c, F, ACT_RECOMPUTE, c->act_k, r);
    else
        eval_auto(c, F, r);
}
