/* step.c - per-layer step time: compute, streams, update, exposed latency. */
#include "step.h"

#include <math.h>

#include "mx.h"
#include "swx.h"
#include "wse.h"

const char *const step_res_name[STEP_NRES] = {"compute", "stream_in", "stream_out",
                                              "update",  "latency",   "overhead"};
const char *const step_act_name[STEP_NACT] = {"wafer", "offload", "micro-batches"};

/* Chunks in flight on the wafer: two (double-buffered) in each direction. */
#define STEP_BUFFER_CHUNKS 4

/* One kind of layer, per micro-batch on one system. */
struct layer {
    double count;       /* identical layers of this kind       */
    double in_s, out_s; /* weights in, gradients out            */
    double act_out_s;   /* forward: its input checkpoint out    */
    double bwd_in_s;    /* backward: weights and checkpoint in  */
    double pass_s[TFM_NPASSES];
    double recompute_s;
    double update_s; /* MemoryX update, once per step        */
};

double step_buffer_bytes(const struct hw_desc *hw)
{
    return STEP_BUFFER_CHUNKS * hw->swx.chunk_bytes;
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
    }
    return total;
}

/* Where the activations kept for the backward pass live, and how many
 * micro-batches the local batch takes (the model is stated in step.h). */
static void place_activations(const struct cluster *c, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    double room = hw->wse.sram_bytes - step_buffer_bytes(hw);
    double local = r->local_seqs;
    r->max_seqs = wse_max_seqs(&hw->wse, wl, step_buffer_bytes(hw));
    r->ckpt_per_seq = tfm_ckpt_bytes_per_seq(wl);
    r->working_per_seq = tfm_working_bytes_per_seq(wl);
    r->store_seqs =
        hw->wse.act_store_bytes > 0 ? floor(hw->wse.act_store_bytes / r->ckpt_per_seq) : 0;
    r->act_fits = 1;
    if (local <= r->max_seqs) {
        r->act = STEP_ACT_WAFER;
        r->micro_batches = 1;
        r->sram_fits = 1;
    } else if (hw->wse.act_store_bytes > 0) {
        r->act = STEP_ACT_OFFLOAD;
        r->sram_fits = room >= r->working_per_seq;
        r->act_fits = r->store_seqs >= 1;
        r->micro_batches = r->store_seqs >= 1 ? ceil(local / r->store_seqs) : local;
    } else {
        r->act = STEP_ACT_MICRO;
        r->sram_fits = r->max_seqs >= 1;
        r->micro_batches =
            (local <= 1 || r->max_seqs < 1) ? ceil(local) : ceil(local / r->max_seqs);
    }
    r->recompute = wl->recompute || r->act == STEP_ACT_OFFLOAD;
}

void step_eval(const struct cluster *c, struct step_result *r)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    *r = (struct step_result){0};

    /* Whole sequences: the most loaded system sets the pace. */
    r->local_seqs = ceil(c->global_seqs / c->systems);
    place_activations(c, r);
    double seqs = r->local_seqs / r->micro_batches;
    double t = seqs * wl->seq_len;
    r->micro_tokens = t;
    double bw = fmin(hw->wse.io_bw_Bps, fmin(hw->swx.link_bw_Bps, hw->mx.bw_Bps));
    double io = hw->wse.io_bw_Bps;
    r->stream_bw = bw;
    /* The slowest of N systems sets every layer's pace. */
    r->slowest = hw_slowest(&hw->wse, c->systems);

    double params = tfm_params(wl);
    r->flash_fraction =
        mx_flash_fraction(&hw->mx, c->memoryx_bytes, params * mx_bytes_per_param(wl));

    double cf = hw_sparse_compute(&hw->sp, c->sparsity);
    double wf = hw_sparse_stream(&hw->sp, c->sparsity, wl->weight_bytes);
    double gf = hw_sparse_stream(&hw->sp, c->sparsity, wl->grad_bytes);

    /* Embedding (with the final norm): streamed and updated, no matmul. */
    double embed = tfm_embed_params(wl);
    /* Blocks: matmul weights may be sparse; norms and biases stay dense. */
    double matrix = tfm_block_matrix_params(wl);
    double other = tfm_block_params(wl) - matrix;
    double mm_flops = 2 * matrix; /* per token, in each pass */
    /* Logits: the vocab x hidden matrix streams whether tied or not; it is
     * updated here only if untied (else with the embedding). */
    double head_stream = wl->tied_embeddings ? wl->vocab * wl->hidden : tfm_head_params(wl);
    double head_update = tfm_head_params(wl);

    struct layer ly[3] = {{0}};
    ly[0].count = 1;
    ly[0].in_s = ly[0].bwd_in_s = embed * wl->weight_bytes / bw;
    ly[0].out_s = embed * wl->grad_bytes / bw;
    ly[0].update_s = mx_update_time(&hw->mx, wl, embed, r->flash_fraction);

    ly[1].count = wl->layers;
    double block_w = (matrix * wf + other) * wl->weight_bytes;
    ly[1].in_s = ly[1].bwd_in_s = block_w / bw;
    ly[1].out_s = (matrix * gf + other) * wl->grad_bytes / bw;
    r->block_stream_bytes = fmin(block_w, (matrix * gf + other) * wl->grad_bytes);
    if (r->act == STEP_ACT_OFFLOAD) {
        /* Each block's input leaves on the system's egress in the forward
         * pass and comes back beside the block's weights in the backward. */
        double ckpt = seqs * tfm_act_bytes_per_seq_block(wl, 1);
        r->act_bytes = ckpt * wl->layers * r->micro_batches;
        ly[1].act_out_s = ckpt / io;
        r->block_stream_bytes = fmin(r->block_stream_bytes, ckpt);
        ly[1].bwd_in_s = fmax(ly[1].in_s, (block_w + ckpt) / io);
    }
    for (int p = 0; p < TFM_NPASSES; p++) {
        double f = tfm_block_flops(wl, (enum tfm_pass)p) - mm_flops + mm_flops * cf;
        ly[1].pass_s[p] = r->slowest * wse_compute_time(&hw->wse, f * t, t);
    }
    ly[1].recompute_s = r->recompute ? ly[1].pass_s[TFM_FWD] : 0;
    ly[1].update_s = mx_update_time(&hw->mx, wl, matrix * cf + other, r->flash_fraction);

    ly[2].count = 1;
    ly[2].in_s = ly[2].bwd_in_s = head_stream * wl->weight_bytes / bw;
    ly[2].out_s = head_stream * wl->grad_bytes / bw;
    for (int p = 0; p < TFM_NPASSES; p++)
        ly[2].pass_s[p] =
            r->slowest * wse_compute_time(&hw->wse, tfm_logits_flops(wl, (enum tfm_pass)p) * t, t);
    ly[2].update_s = mx_update_time(&hw->mx, wl, head_update, r->flash_fraction);

    double m = r->micro_batches;
    double time = micro_batch(r, ly, 3, 0, m - 1) + micro_batch(r, ly, 3, 1, 1);

    for (int i = 0; i < 3; i++) {
        for (int p = 0; p < TFM_NPASSES; p++)
            r->pass_s[p] += m * ly[i].count * ly[i].pass_s[p];
        r->recompute_s += m * ly[i].count * ly[i].recompute_s;
        r->busy[STEP_STREAM_IN] += m * ly[i].count * (ly[i].in_s + ly[i].bwd_in_s);
        r->busy[STEP_STREAM_OUT] += m * ly[i].count * (ly[i].out_s + ly[i].act_out_s);
        r->busy[STEP_UPDATE] += ly[i].count * ly[i].update_s;
    }
    r->busy[STEP_COMPUTE] =
        r->pass_s[TFM_FWD] + r->pass_s[TFM_DELTA] + r->pass_s[TFM_WGRAD] + r->recompute_s;

    /* The iteration boundary: the next step's first layer waits for the
     * update of this step's last gradient chunk of it: the last chunk goes
     * up the tree (drain), is applied, and the first chunk of the next step
     * comes down (fill).  The overlap lets that layer's next forward start
     * while that fraction of its backward is still running, hiding up to
     * overlap x its backward time (first layer, last micro-batch). */
    /* A node forwards whole chunks, and a chunk holds no more than the
     * layer: the embedding's first weight chunk and last gradient chunk. */
    double depth = swx_depth(&hw->swx, c->systems);
    double cw = fmin(hw->swx.chunk_bytes, embed * wl->weight_bytes);
    double cg = fmin(hw->swx.chunk_bytes, embed * wl->grad_bytes);
    double chunk_params = cg / wl->grad_bytes;
    r->fill_s = depth * (hw->swx.hop_latency_s + cw / hw->swx.link_bw_Bps) + cw / bw;
    r->drain_s = depth * (hw->swx.hop_latency_s + cg / hw->swx.link_bw_Bps);
    r->boundary_s = mx_update_time(&hw->mx, wl, chunk_params, r->flash_fraction);
    r->first_bwd_s = fmax(ly[0].update_s, fmax(ly[0].in_s, ly[0].out_s));
    double boundary = r->fill_s + r->drain_s + r->boundary_s;
    r->hidden_s = fmin(boundary, c->overlap * r->first_bwd_s);
    double exposed = boundary - r->hidden_s;
    r->busy[STEP_LATENCY] = exposed;
    r->critical[STEP_LATENCY] = exposed;
    r->busy[STEP_OVERHEAD] = r->critical[STEP_OVERHEAD] = hw->wse.step_overhead_s;
    r->step_s = time + exposed + hw->wse.step_overhead_s;

    r->bottleneck = STEP_COMPUTE;
    for (int i = 1; i < STEP_NRES; i++)
        if (r->critical[i] > r->critical[r->bottleneck])
            r->bottleneck = (enum step_res)i;
}
