/* step.c - per-layer step time: compute, streams, update, exposed latency;
 * activation placement and server sizing (the model is stated in step.h). */
#include "step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mx.h"
#include "swx.h"
#include "wse.h"

const char *const step_res_name[STEP_NRES] = {"compute", "stream_in", "stream_out",
                                              "update",  "latency",   "overhead"};

const char *const step_link_key[STEP_NLINKS] = {"system.io_bandwidth", "swarmx.link_bandwidth",
                                                "memoryx.server_network",
                                                "swarmx.reduce_bandwidth"};

const char *step_link_names(unsigned bind, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < STEP_NLINKS; i++) {
        if (!(bind & (1u << i)))
            continue;
        /* memcpy, not snprintf: sweep writes this for every row */
        size_t k = strlen(step_link_key[i]) + (len > 0);
        if (k >= n - len)
            break;
        if (len)
            buf[len] = ';';
        memcpy(buf + len + (len > 0), step_link_key[i], k - (len > 0) + 1);
        len += k;
    }
    return buf;
}

/* Chunks in flight on the wafer: two (double-buffered) in each direction. */
#define STEP_BUFFER_CHUNKS 4

/* One kind of layer, per micro-batch on one system. */
struct layer {
    double count;       /* identical layers of this kind       */
    double in_s, out_s; /* weights in, gradients out            */
    double act_out_s;   /* forward: its input checkpoint out    */
    double bwd_in_s;    /* backward: weights and checkpoint in  */
    double pass_s[TFM_NPASSES];
    double recompute_s; /* recomputed forward inside the backward (k = 1, offload) */
    double segment_s;   /* recomputed forward before the backward (k > 1) */
    double update_s;    /* MemoryX update, once per step, on S servers */
};

double step_buffer_bytes(const struct hw_desc *hw)
{
    return STEP_BUFFER_CHUNKS * hw->swx.chunk_bytes;
}

const char *step_act_label(const struct step_result *r, char *buf, size_t n)
{
    /* without snprintf on the common paths: sweep labels every row */
    const char *name = act_mode_name[r->act];
    size_t len = strlen(name);
    if (n == 0)
        return buf;
    if (r->act != ACT_RECOMPUTE || !(r->act_k >= 1 && r->act_k < 1e9)) {
        if (r->act == ACT_RECOMPUTE)
            snprintf(buf, n, "recompute:%.0f", r->act_k);
        else if (len < n)
            memcpy(buf, name, len + 1);
        else
            buf[0] = '\0';
        return buf;
    }
    char digits[16], *p = digits + sizeof digits;
    unsigned long k = (unsigned long)(r->act_k + 0.5);
    *--p = '\0';
    do
        *--p = (char)('0' + k % 10);
    while (k /= 10);
    size_t nd = (size_t)(digits + sizeof digits - 1 - p);
    if (len + 1 + nd < n) {
        memcpy(buf, name, len);
        buf[len] = ':';
        memcpy(buf + len + 1, p, nd + 1);
    } else {
        buf[0] = '\0';
    }
    return buf;
}

/* Charge count layers of duration max(t[]) to the resource that set it. */
static double charge(struct step_result *r, const double t[STEP_LATENCY], double count)
{
    int arg = 0;
    for (int i = 1; i < STEP_LATENCY; i++)
        if (t[i] > t[arg])
            arg = i;
    r->critical[arg] += count * t[arg];
    return count * t[arg];
}

/* The backward terms of a layer that are not its update. */
static double bwd_busy(const struct layer *L)
{
    double c = L->pass_s[TFM_DELTA] + L->pass_s[TFM_WGRAD] + L->recompute_s;
    return fmax(c, fmax(L->bwd_in_s, L->out_s));
}

/* Forward and backward of one micro-batch through every layer; with_update
 * in the last micro-batch.  Returns its time, times reps. */
static double micro_batch(struct step_result *r, const struct layer *ly, int nly, int with_update,
                          double reps)
{
    double total = 0;
    for (int i = 0; i < nly; i++) {
        const struct layer *L = &ly[i];
        double fwd[STEP_LATENCY] = {L->pass_s[TFM_FWD], L->in_s, L->act_out_s, 0};
        double bwd[STEP_LATENCY] = {L->pass_s[TFM_DELTA] + L->pass_s[TFM_WGRAD] + L->recompute_s,
                                    L->bwd_in_s, L->out_s, with_update ? L->update_s : 0};
        total += charge(r, fwd, L->count * reps) + charge(r, bwd, L->count * reps);
        if (L->segment_s > 0) {
            double seg[STEP_LATENCY] = {L->segment_s, L->in_s, 0, 0};
            total += charge(r, seg, L->count * reps);
        }
    }
    return total;
}

/* SRAM per sequence, micro-batches and activation servers of one placement. */
static void place(const struct cluster *c, enum act_mode mode, double k, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    double room = hw->wse.sram_bytes - step_buffer_bytes(hw);
    double local = r->local_seqs;
    double input = tfm_act_bytes_per_seq_block(wl, 1);
    double full = tfm_act_bytes_per_seq_block(wl, 0);
    double logits = wl->predictions * wl->vocab * wl->act_bytes;
    r->act = mode;
    r->act_k = mode == ACT_RECOMPUTE ? k : mode == ACT_OFFLOAD ? 1 : 0;
    r->recompute = mode != ACT_WAFER;
    r->ckpt_per_seq = wl->layers * input;
    r->act_fits = 1;
    r->act_servers = r->store_seqs = r->act_bw = 0;
    if (mode == ACT_WAFER)
        r->sram_per_seq = wl->layers * full + logits;
    else if (mode == ACT_RECOMPUTE)
        r->sram_per_seq = ceil(wl->layers / k) * input + k * full + logits;
    else
        r->sram_per_seq = full + logits;
    r->max_seqs = room > 0 ? floor(room / r->sram_per_seq) : 0;
    r->sram_fits = r->max_seqs >= 1;
    if (mode != ACT_OFFLOAD) {
        r->micro_batches =
            (local <= 1 || r->max_seqs < 1) ? ceil(local) : ceil(local / r->max_seqs);
        return;
    }
    const struct act_spec *as = &hw->act;
    double need = fmax(ceil(local * r->ckpt_per_seq / as->server_bytes),
                       ceil(hw->wse.io_bw_Bps / as->server_net_Bps));
    r->act_servers = c->act_servers > 0 ? c->act_servers : fmin(need, HW_MAX_SERVERS);
    r->store_seqs = floor(r->act_servers * as->server_bytes / r->ckpt_per_seq);
    r->act_fits = r->store_seqs >= 1;
    r->micro_batches = r->store_seqs >= 1 ? ceil(local / r->store_seqs) : ceil(local);
    r->act_bw = fmin(hw->wse.io_bw_Bps, r->act_servers * as->server_net_Bps);
}

/* What the phases of one placement's step share (eval_placed()). */
struct placed {
    double seqs, t;          /* sequences and tokens per micro-batch, per system */
    double io;               /* the system's I/O bandwidth                      */
    double bw, gbw;          /* weight stream and gradient rates                 */
    double S;                /* MemoryX servers                                  */
    double embed;            /* embedding parameters (with the final norm)      */
    double update_params[3]; /* parameters each layer kind updates              */
    struct layer ly[3];      /* the embedding, the blocks, the logits            */
};

/* MemoryX servers to hold the state and fill the port, the stream and
 * gradient rates they give, and the links that bind each. */
static void stream_links(const struct cluster *c, struct placed *P, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    const struct mx_spec *mx = &hw->mx;
    double port = fmin(P->io, hw->swx.link_bw_Bps);
    double params = tfm_params(wl);
    double state = params * mx_bytes_per_param(wl);
    r->mx_hold = mx_servers_to_hold(mx, state);
    r->mx_stream = ceil(port / mx->server_net_Bps);
    P->S = c->mx_servers > 0 ? c->mx_servers : fmin(fmax(r->mx_hold, r->mx_stream), HW_MAX_SERVERS);
    P->bw = fmin(port, P->S * mx->server_net_Bps);
    /* A SwarmX node shares reduce_bandwidth among the children it has: at
     * most its fan-out, and no more than the systems there are. */
    double children = fmin(hw->swx.fanout, c->systems);
    P->gbw = c->systems > 1 ? fmin(P->bw, hw->swx.reduce_Bps / children) : P->bw;
    r->stream_bw = P->bw;
    r->grad_bw = P->gbw;
    double link[STEP_NLINKS] = {P->io, hw->swx.link_bw_Bps,
                                c->mx_servers > 0 ? P->S * mx->server_net_Bps : INFINITY,
                                c->systems > 1 ? hw->swx.reduce_Bps / children : INFINITY};
    for (int i = 0; i < STEP_NLINKS; i++) {
        r->stream_bind |= i != STEP_LINK_REDUCE && link[i] <= P->bw ? 1u << i : 0;
        r->grad_bind |= link[i] <= P->gbw ? 1u << i : 0;
    }
    r->flash_fraction = c->mx_servers > 0 ? mx_flash_fraction(mx, P->S, state) : 0;
}

/* The embedding (with the final norm): streamed and updated, no matmul. */
static void embed_layer(const struct cluster *c, struct placed *P)
{
    const struct wl_desc *wl = c->wl;
    struct layer *L = &P->ly[0];
    P->embed = tfm_embed_params(wl);
    P->update_params[0] = P->embed;
    L->count = 1;
    L->in_s = L->bwd_in_s = P->embed * wl->weight_bytes / P->bw;
    L->out_s = P->embed * wl->grad_bytes / P->gbw;
}

/* The blocks: matmul weights may be sparse; norms and biases stay dense.
 * Offloaded, each block's input goes out and comes back; recomputed, its
 * forward runs again in (k = 1) or before (k > 1) the backward. */
static void block_layer(const struct cluster *c, enum act_mode mode, double k, struct placed *P,
                        struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    struct layer *L = &P->ly[1];
    double cf = hw_sparse_compute(&hw->sp, c->sparsity);
    double wf = hw_sparse_stream(&hw->sp, c->sparsity, wl->weight_bytes);
    double gf = hw_sparse_stream(&hw->sp, c->sparsity, wl->grad_bytes);
    double matrix = tfm_block_matrix_params(wl);
    double other = tfm_block_params(wl) - matrix;
    double mm_flops = 2 * matrix; /* per token, in each pass */
    P->update_params[1] = matrix * cf + other;

    L->count = wl->layers;
    double block_w = (matrix * wf + other) * wl->weight_bytes;
    double block_g = (matrix * gf + other) * wl->grad_bytes;
    L->in_s = L->bwd_in_s = block_w / P->bw;
    L->out_s = block_g / P->gbw;
    r->block_stream_bytes = fmin(block_w, block_g);
    if (mode == ACT_OFFLOAD) {
        /* Each block's input leaves on the system's egress in the forward
         * pass and comes back beside the block's weights in the backward,
         * both at the activation servers' rate (the port caps it). */
        double ckpt = P->seqs * tfm_act_bytes_per_seq_block(wl, 1);
        r->act_bytes = ckpt * wl->layers * r->micro_batches;
        L->act_out_s = ckpt / r->act_bw;
        r->block_stream_bytes = fmin(r->block_stream_bytes, ckpt);
        L->bwd_in_s = fmax(L->in_s, fmax(ckpt / r->act_bw, (block_w + ckpt) / P->io));
    }
    for (int p = 0; p < TFM_NPASSES; p++) {
        double f = tfm_block_flops(wl, (enum tfm_pass)p) - mm_flops + mm_flops * cf;
        L->pass_s[p] = r->slowest * wse_compute_time(&hw->wse, f * P->t, P->t);
    }
    if (mode == ACT_RECOMPUTE && k > 1)
        L->segment_s = L->pass_s[TFM_FWD];
    else if (r->recompute)
        L->recompute_s = L->pass_s[TFM_FWD];
}

/* The logits: the vocab x hidden matrix streams whether tied or not; it is
 * updated here only if untied (else with the embedding). */
static void head_layer(const struct cluster *c, struct placed *P, const struct step_result *r)
{
    const struct wl_desc *wl = c->wl;
    struct layer *L = &P->ly[2];
    double head_stream = wl->tied_embeddings ? wl->vocab * wl->hidden : tfm_head_params(wl);
    P->update_params[2] = tfm_head_params(wl);
    L->count = 1;
    L->in_s = L->bwd_in_s = head_stream * wl->weight_bytes / P->bw;
    L->out_s = head_stream * wl->grad_bytes / P->gbw;
    for (int p = 0; p < TFM_NPASSES; p++)
        L->pass_s[p] =
            r->slowest *
            wse_compute_time(&c->hw->wse, tfm_logits_flops(wl, (enum tfm_pass)p) * P->t, P->t);
}

/* MemoryX sized for the run: also enough servers that each layer's share
 * of the update fits in that layer's backward pass.  Then each layer's
 * update on the servers there are. */
static void size_update(const struct cluster *c, struct placed *P, struct step_result *r)
{
    const struct mx_spec *mx = &c->hw->mx;
    r->mx_update = 1;
    for (int i = 0; i < 3; i++) {
        double one = mx_update_time(mx, c->wl, P->update_params[i], r->flash_fraction);
        double room = bwd_busy(&P->ly[i]);
        if (one > 0 && room > 0)
            r->mx_update = fmax(r->mx_update, ceil(one / room));
    }
    if (c->mx_servers == 0)
        P->S = fmin(fmax(P->S, r->mx_update), HW_MAX_SERVERS);
    r->mx_servers = P->S;
    for (int i = 0; i < 3; i++)
        P->ly[i].update_s =
            mx_update_time(mx, c->wl, P->update_params[i] / P->S, r->flash_fraction);
}

/* Every micro-batch through the layers (the last with the update), each
 * resource's busy time added up; returns the time they take. */
static double run_layers(const struct placed *P, struct step_result *r)
{
    const struct layer *ly = P->ly;
    double m = r->micro_batches;
    double time = micro_batch(r, ly, 3, 0, m - 1) + micro_batch(r, ly, 3, 1, 1);

    for (int i = 0; i < 3; i++) {
        for (int p = 0; p < TFM_NPASSES; p++)
            r->pass_s[p] += m * ly[i].count * ly[i].pass_s[p];
        r->recompute_s += m * ly[i].count * (ly[i].recompute_s + ly[i].segment_s);
        double seg_in = ly[i].segment_s > 0 ? ly[i].in_s : 0;
        r->busy[STEP_STREAM_IN] += m * ly[i].count * (ly[i].in_s + ly[i].bwd_in_s + seg_in);
        r->busy[STEP_STREAM_OUT] += m * ly[i].count * (ly[i].out_s + ly[i].act_out_s);
        r->busy[STEP_UPDATE] += ly[i].count * ly[i].update_s;
    }
    r->busy[STEP_COMPUTE] =
        r->pass_s[TFM_FWD] + r->pass_s[TFM_DELTA] + r->pass_s[TFM_WGRAD] + r->recompute_s;
    return time;
}

/* The iteration boundary: the next step's first layer waits for the update
 * of this step's last gradient chunk of it: the last chunk goes up the
 * tree (drain), is applied by the server that holds it, and the first
 * chunk of the next step comes down (fill).  The overlap lets that layer's
 * next forward start while that fraction of its backward is still
 * running, hiding up to overlap x its backward time (first layer, last
 * micro-batch).  A node forwards whole chunks, and a chunk holds no more
 * than the layer: the embedding's first weight chunk and last gradient
 * chunk.  Returns the latency left exposed. */
static double boundary(const struct cluster *c, const struct placed *P, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    double depth = swx_depth(&hw->swx, c->systems);
    double cw = fmin(hw->swx.chunk_bytes, P->embed * wl->weight_bytes);
    double cg = fmin(hw->swx.chunk_bytes, P->embed * wl->grad_bytes);
    double chunk_params = cg / wl->grad_bytes;
    r->fill_s = depth * (hw->swx.hop_latency_s + cw / hw->swx.link_bw_Bps) + cw / P->bw;
    r->drain_s = depth * (hw->swx.hop_latency_s + cg / hw->swx.link_bw_Bps);
    r->boundary_s = mx_update_time(&hw->mx, wl, chunk_params, r->flash_fraction);
    r->first_bwd_s = fmax(P->ly[0].update_s, fmax(P->ly[0].in_s, P->ly[0].out_s));
    double total = r->fill_s + r->drain_s + r->boundary_s;
    r->hidden_s = fmin(total, c->overlap * r->first_bwd_s);
    return total - r->hidden_s;
}

/* The step of one placement (the model is stated in step.h): placement,
 * links, layers, update servers, the micro-batches, the boundary. */
static void eval_placed(const struct cluster *c, enum act_mode mode, double k,
                        struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    struct placed P = {0};
    *r = (struct step_result){0};

    /* Whole sequences: the most loaded system sets the pace. */
    r->local_seqs = ceil(c->global_seqs / c->systems);
    place(c, mode, k, r);
    P.seqs = r->local_seqs / r->micro_batches;
    P.t = P.seqs * c->wl->seq_len;
    r->micro_tokens = P.t;
    P.io = hw->wse.io_bw_Bps;
    /* The slowest of N systems sets every layer's pace. */
    r->slowest = hw_slowest(&hw->wse, c->systems);

    stream_links(c, &P, r);
    embed_layer(c, &P);
    block_layer(c, mode, k, &P, r);
    head_layer(c, &P, r);
    size_update(c, &P, r);
    double time = run_layers(&P, r);

    double exposed = boundary(c, &P, r);
    r->busy[STEP_LATENCY] = exposed;
    r->critical[STEP_LATENCY] = exposed;
    r->busy[STEP_OVERHEAD] = r->critical[STEP_OVERHEAD] = hw->wse.step_overhead_s;
    r->step_s = time + exposed + hw->wse.step_overhead_s;

    r->bottleneck = STEP_COMPUTE;
    for (int i = 1; i < STEP_NRES; i++)
        if (r->critical[i] > r->critical[r->bottleneck])
            r->bottleneck = (enum step_res)i;
}

/* The k that needs the least SRAM per sequence: ceil(l / k) block inputs
 * plus k blocks' activations, about sqrt(l x input / full). */
static double best_k(const struct wl_desc *wl)
{
    double input = tfm_act_bytes_per_seq_block(wl, 1), full = tfm_act_bytes_per_seq_block(wl, 0);
    double best = 1, least = INFINITY;
    double k0 = floor(sqrt(wl->layers * input / full));
    for (double k = fmax(1, k0 - 1); k <= fmin(wl->layers, k0 + 2); k++) {
        double need = ceil(wl->layers / k) * input + k * full;
        if (need < least)
            least = need, best = k;
    }
    return best;
}

/* Candidate b beats a: it fits where a does not, or both fit (or neither)
 * and it is faster. */
static int better(const struct step_result *b, const struct step_result *a)
{
    int fb = b->sram_fits && b->act_fits, fa = a->sram_fits && a->act_fits;
    return fb != fa ? fb : b->step_s < a->step_s;
}

void step_eval(const struct cluster *c, struct step_result *r)
{
    if (c->act == ACT_WAFER || c->act == ACT_OFFLOAD) {
        eval_placed(c, c->act, 1, r);
        return;
    }
    if (c->act == ACT_RECOMPUTE && c->act_k > 0) {
        eval_placed(c, ACT_RECOMPUTE, c->act_k, r);
        return;
    }
    /* Shortcuts that are exact: with the local batch in one pass the
     * wafer is fastest (no recompute, no extra traffic), and then
     * recompute every block (no extra stream; offload adds traffic and
     * k > 1 a third weight stream). */
    struct step_result cand;
    int first = 1;
    if (c->act == ACT_AUTO && !c->wl->recompute) {
        eval_placed(c, ACT_WAFER, 1, r);
        if (r->micro_batches == 1 && r->sram_fits)
            return;
        first = 0;
    }
    eval_placed(c, ACT_RECOMPUTE, 1, first ? r : &cand);
    if (!first && better(&cand, r))
        *r = cand;
    if (r->act == ACT_RECOMPUTE && r->micro_batches == 1 && r->sram_fits)
        return;
    double k = best_k(c->wl);
    if (k > 1) {
        eval_placed(c, ACT_RECOMPUTE, k, &cand);
        if (better(&cand, r))
            *r = cand;
    }
    if (c->act == ACT_AUTO) {
        eval_placed(c, ACT_OFFLOAD, 1, &cand);
        if (better(&cand, r))
            *r = cand;
    }
}
