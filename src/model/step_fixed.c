/* step_fixed.c - what every placement of one step shares, once per
 * step_eval() (step_fixed.h); the part neither N nor the batch changes is
 * kept across calls. */
#include "step_fixed.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "minmax.h"
#include "mx.h"
#include "swx.h"

/* Chunks in flight on the wafer: two (double-buffered) in each direction. */
#define STEP_BUFFER_CHUNKS 4

/* step.h: the SRAM the SwarmX chunk buffers take (here, so that step.c
 * uses this file and not the reverse). */
double step_buffer_bytes(const struct hw_desc *hw)
{
    return STEP_BUFFER_CHUNKS * hw->swx.chunk_bytes;
}

/* MemoryX servers to hold the state and fill the port, and the stream
 * rate they give. */
static void stream_links(const struct cluster *c, struct fixed *F)
{
    const struct hw_desc *hw = c->hw;
    const struct mx_spec *mx = &hw->mx;
    double port = mm_min(hw->wse.io_bw_Bps, hw->swx.link_bw_Bps);
    double params = F->tf->params;
    double state = params * F->bpp;
    F->mx_hold = mx_servers_to_hold(mx, state);
    F->mx_stream = ceil(port / mx->server_net_Bps);
    F->S = c->mx_servers > 0 ? c->mx_servers
                             : mm_min(mm_max(F->mx_hold, F->mx_stream), HW_MAX_SERVERS);
    F->bw = mm_min(port, F->S * mx->server_net_Bps);
    F->flash_fraction = c->mx_servers > 0 ? mx_flash_fraction(mx, F->S, state) : 0;
}

/* The links each rate may meet: the system's I/O, the SwarmX link,
 * MemoryX (when its servers are given) and the gradient reduce (set at N
 * systems by grad_binds()).  The first three and the links at the weight
 * stream's rate (the reduce never counts there) change with neither N nor
 * the batch: they are kept. */
static void stream_bind(const struct cluster *c, struct fixed *F)
{
    const struct hw_desc *hw = c->hw;
    F->link[STEP_LINK_IO] = hw->wse.io_bw_Bps;
    F->link[STEP_LINK_SWARMX] = hw->swx.link_bw_Bps;
    F->link[STEP_LINK_MEMORYX] = c->mx_servers > 0 ? F->S * hw->mx.server_net_Bps : INFINITY;
    F->stream_bind = 0;
    for (int i = 0; i < STEP_NLINKS; i++)
        F->stream_bind |= i != STEP_LINK_REDUCE && F->link[i] <= F->bw ? 1u << i : 0;
}

/* The gradient rate at more than one system (multi) whose SwarmX nodes
 * have children each, the links that bind it, and the layers' gradient
 * streams at it (wl's, tf's). */
static void grad_binds(const struct hw_desc *hw, const struct wl_desc *wl,
                       const struct tfm_figs *tf, int multi, double children, struct fixed *F)
{
    F->gbw = multi ? mm_min(F->bw, hw->swx.reduce_Bps / children) : F->bw;
    F->link[STEP_LINK_REDUCE] = multi ? hw->swx.reduce_Bps / children : INFINITY;
    F->grad_bind = 0;
    for (int i = 0; i < STEP_NLINKS; i++)
        F->grad_bind |= F->link[i] <= F->gbw ? 1u << i : 0;
    double head_stream = wl->tied_embeddings ? wl->vocab * wl->hidden : tf->head;
    F->ly[0].out_s = F->embed * wl->grad_bytes / F->gbw;
    F->ly[1].out_s = F->block_g / F->gbw;
    F->ly[2].out_s = head_stream * wl->grad_bytes / F->gbw;
    F->embed_stream_s = mm_max(F->ly[0].in_s, F->ly[0].out_s);
}

/* The boundary's fill and drain through a tree depth levels deep. */
static void boundary_at(const struct swx_spec *swx, double depth, struct fixed *F)
{
    F->fill_s = depth * (swx->hop_latency_s + F->cw / swx->link_bw_Bps) + F->cw / F->bw;
    F->drain_s = depth * (swx->hop_latency_s + F->cg / swx->link_bw_Bps);
    F->latency_s = F->fill_s + F->drain_s + F->boundary_s;
}

/* The embedding (with the final norm): streamed and updated, no matmul. */
static void embed_layer(const struct cluster *c, struct fixed *F)
{
    const struct wl_desc *wl = c->wl;
    struct layer *L = &F->ly[0];
    F->embed = F->tf->embed;
    F->update_params[0] = F->embed;
    L->count = 1;
    L->in_s = L->bwd_in_s = F->embed * wl->weight_bytes / F->bw;
}

/* The blocks' streams and FLOPs: matmul weights may be sparse; norms and
 * biases stay dense. */
static void block_fixed(const struct cluster *c, struct fixed *F)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    struct layer *L = &F->ly[1];
    double cf = hw_sparse_compute(&hw->sp, c->sparsity);
    double wf = hw_sparse_stream(&hw->sp, c->sparsity, wl->weight_bytes);
    double gf = hw_sparse_stream(&hw->sp, c->sparsity, wl->grad_bytes);
    double matrix = F->tf->block_matrix;
    double other = F->tf->block - matrix;
    double mm_flops = 2 * matrix; /* per token, in each pass */
    F->update_params[1] = matrix * cf + other;
    L->count = wl->layers;
    F->block_w = (matrix * wf + other) * wl->weight_bytes;
    F->block_g = (matrix * gf + other) * wl->grad_bytes;
    L->in_s = L->bwd_in_s = F->block_w / F->bw;
    for (int p = 0; p < TFM_NPASSES; p++)
        F->block_f[p] = F->tf->block_flops[p] - mm_flops + mm_flops * cf;
}

/* The logits: the vocab x hidden matrix streams whether tied or not; it is
 * updated here only if untied (else with the embedding). */
static void head_fixed(const struct cluster *c, struct fixed *F)
{
    const struct wl_desc *wl = c->wl;
    struct layer *L = &F->ly[2];
    double head_stream = wl->tied_embeddings ? wl->vocab * wl->hidden : F->tf->head;
    F->update_params[2] = F->tf->head;
    L->count = 1;
    L->in_s = L->bwd_in_s = head_stream * wl->weight_bytes / F->bw;
    for (int p = 0; p < TFM_NPASSES; p++)
        F->head_f[p] = F->tf->logits_flops[p];
}

/* The iteration boundary's latencies (step.h): the next step's first layer
 * waits for the update of this step's last gradient chunk of it: the last
 * chunk goes up the tree (drain), is applied by the server that holds it,
 * and the first chunk of the next step comes down (fill).  A node forwards
 * whole chunks, and a chunk holds no more than the layer: the embedding's
 * first weight chunk and last gradient chunk. */
static void boundary_fixed(const struct cluster *c, struct fixed *F)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    F->cw = mm_min(hw->swx.chunk_bytes, F->embed * wl->weight_bytes);
    F->cg = mm_min(hw->swx.chunk_bytes, F->embed * wl->grad_bytes);
    double chunk_params = F->cg / wl->grad_bytes;
    F->boundary_s = mx_update_time_bpp(&hw->mx, F->bpp, chunk_params, F->flash_fraction);
}

/* The k that needs the least SRAM per sequence: ceil(l / k) block inputs
 * plus k blocks' activations, about sqrt(l x input / full). */
static double best_k(double layers, double input, double full)
{
    double best = 1, least = INFINITY;
    double k0 = floor(sqrt(layers * input / full));
    for (double k = mm_max(1, k0 - 1); k <= mm_min(layers, k0 + 2); k++) {
        double need = ceil(layers / k) * input + k * full;
        if (need < least)
            least = need, best = k;
    }
    return best;
}

/* What neither N nor the batch changes, from the inputs the keys below name. */
static void fixed_const(const struct cluster *c, const struct tfm_figs *tf, double bpp,
                        struct fixed *F)
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    memset(F->ly, 0, sizeof F->ly);
    F->tf = tf;
    F->room = hw->wse.sram_bytes - step_buffer_bytes(hw);
    F->input = tf->act_input;
    F->full = tf->act_full;
    F->logits = wl->predictions * wl->vocab * wl->act_bytes;
    F->best_k = best_k(wl->layers, F->input, F->full);
    const enum act_mode mode[FIXED_NPLACE] = {ACT_WAFER, ACT_RECOMPUTE, ACT_RECOMPUTE, ACT_OFFLOAD};
    const double k[FIXED_NPLACE] = {1, 1, F->best_k, 1};
    for (int i = 0; i < FIXED_NPLACE; i++) {
        F->place_sram[i] =
            step_sram_per_seq(mode[i], k[i], wl->layers, F->input, F->full, F->logits);
        F->place_max[i] = step_max_seqs(F->room, F->place_sram[i]);
    }
    F->bpp = bpp;
    stream_links(c, F);
    stream_bind(c, F);
    embed_layer(c, F);
    block_fixed(c, F);
    head_fixed(c, F);
    boundary_fixed(c, F);
    for (int i = 0; i < 3; i++)
        F->update_one_s[i] =
            mx_update_time_bpp(&hw->mx, F->bpp, F->update_params[i], F->flash_fraction);
}

/* Every input fixed_const() reads, as numbers (an int is exact as a
 * double), in two keys: the fields of the hardware and the cluster it
 * reads, then those that come from the workload alone (its figures, the
 * fields it reads, the bytes per parameter as their value). */
#define FIXED_NTF (sizeof(struct tfm_figs) / sizeof(double))
enum { FIXED_NHW = 15, FIXED_NWL = FIXED_NTF + 9 };
_Static_assert(sizeof(struct tfm_figs) == FIXED_NTF * sizeof(double), "tfm_figs: doubles only");
struct key_hw {
    double v[FIXED_NHW];
};
struct key_wl {
    struct tfm_figs tf;
    double v[FIXED_NWL - FIXED_NTF];
};
_Static_assert(sizeof(struct key_wl) == FIXED_NWL * sizeof(double), "key_wl: no padding");

/* The hardware key's fields in order, X(field) each (hw and mx named as
 * in the functions below). */
/* clang-format off */
#define FIXED_KEY_HW(X)                                                                        \
    X(hw->wse.sram_bytes) X(hw->swx.chunk_bytes) X(hw->wse.io_bw_Bps) X(hw->swx.link_bw_Bps)   \
    X(mx->server_dram_bytes) X(mx->server_flash_bytes) X(mx->server_net_Bps)                   \
    X(mx->server_mem_bw_Bps) X(mx->server_flash_bw_Bps) X(mx->server_update_flops)            \
    X(mx->update_flop_per_param) X(hw->sp.index_bytes) X(hw->sp.overhead) X(c->sparsity)      \
    X(c->mx_servers)
/* clang-format on */

/* Each key built where the caller keeps it: no copy. */
static struct key_hw fixed_key_hw(const struct cluster *c)
{
    const struct hw_desc *hw = c->hw;
    const struct mx_spec *mx = &hw->mx;
#define KEY_VALUE(e) e,
    return (struct key_hw){{FIXED_KEY_HW(KEY_VALUE)}};
#undef KEY_VALUE
}

/* c's fields are k's, bit for bit: compared where they are, without
 * building a key first (as many instructions as the comparison). */
static int fixed_same_hw(const struct cluster *c, const struct key_hw *k)
{
    const struct hw_desc *hw = c->hw;
    const struct mx_spec *mx = &hw->mx;
    const double *v = k->v;
    uint64_t d = 0;
#define KEY_DIFF(e) d |= mm_bits(e) ^ mm_bits(*v++);
    FIXED_KEY_HW(KEY_DIFF)
#undef KEY_DIFF
    return d == 0;
}

static struct key_wl fixed_key_wl(const struct cluster *c, const struct tfm_figs *tf, double bpp)
{
    const struct wl_desc *wl = c->wl;
    return (struct key_wl){*tf,
                           {
                               wl->weight_bytes, wl->grad_bytes, wl->layers,
                               wl->predictions, wl->vocab, wl->act_bytes,
                               wl->hidden, wl->tied_embeddings, bpp,
                           }};
}

/* What N alone sets (with the batch, the jitter and the fan-out): the
 * local batch, hw_slowest() and swx_depth().  Each thread keeps them for
 * whole N below FIXED_NMEMO with those inputs, compared bit for bit (one
 * look-up for what were two calls and a division, each with its own
 * checks); any other N is worked out. */
#define FIXED_NMEMO 2048
struct at_n {
    double local_seqs, slowest, depth;
};

static struct at_n at_n_work(const struct cluster *c)
{
    const struct hw_desc *hw = c->hw;
    return (struct at_n){
        /* Whole sequences: the most loaded system sets the pace. */
        ceil(c->global_seqs / c->systems),
        /* The slowest of N systems sets every layer's pace. */
        hw_slowest(&hw->wse, c->systems),
        swx_depth(&hw->swx, c->systems),
    };
}

static struct at_n at_n_of(const struct cluster *c)
{
    static _Thread_local struct {
        int known;
        double global_seqs, jitter, fanout; /* the inputs of */
        struct at_n v;
    } memo[FIXED_NMEMO];
    const struct hw_desc *hw = c->hw;
    double n = c->systems;
    /* in range first, so the conversion is exact, and gives n back only
     * for a whole number */
    if (!(n >= 0 && n < FIXED_NMEMO) || (double)(int)n != n)
        return at_n_work(c);
    int i = (int)n;
    if (!memo[i].known || !mm_same(memo[i].global_seqs, c->global_seqs) ||
        !mm_same(memo[i].jitter, hw->wse.jitter) || !mm_same(memo[i].fanout, hw->swx.fanout)) {
        memo[i].v = at_n_work(c);
        memo[i].global_seqs = c->global_seqs;
        memo[i].jitter = hw->wse.jitter;
        memo[i].fanout = hw->swx.fanout;
        memo[i].known = 1;
    }
    return memo[i].v;
}

/* fixed_const() of the last inputs is kept per thread (a sweep over sizes
 * asks the same) and compared bit for bit: inputs that differ in any
 * number, in the sign of a zero, or hold a NaN, are worked out again.  The
 * workload's part is not compared when tf_gen says it is the one of the
 * last call (step.h, step_eval_figs()).  Then what N and the batch set:
 * the gradient rate and the boundary's latencies are kept too, with the
 * inputs N gives them (a node's children, the tree's depth; the same from
 * N = fanout on, and from one power of it to the next) and the keys that
 * fixed_const() does not read.  Long because the three kept parts share
 * one per-thread record, each with its own test. */
const struct fixed *step_fixed_init(const struct cluster *c, const struct tfm_figs *tf,
                                    unsigned long tf_gen)
{
    static _Thread_local struct {
        struct key_hw hw;
        struct key_wl wl;
        unsigned long gen;
        struct fixed F;
        unsigned long gens; /* the numbers F.gen has had */
        int set;
        int grad_set, multi; /* grad_binds() of F, of these: */
        double children, reduce;
        int lat_set; /* boundary_at() of F, of these: */
        double depth, hop;
    } last;
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *wl = c->wl;
    double bpp = last.F.bpp;
    int same_wl = last.set && tf_gen != 0 && tf_gen == last.gen;
    if (!same_wl) {
        bpp = mx_bytes_per_param(wl);
        struct key_wl kwl = fixed_key_wl(c, tf, bpp);
        same_wl = last.set && memcmp(&kwl, &last.wl, sizeof kwl) == 0;
        if (!same_wl)
            last.wl = kwl;
    }
    last.gen = tf_gen;
    if (!same_wl || !fixed_same_hw(c, &last.hw)) {
        fixed_const(c, tf, bpp, &last.F);
        last.F.gen = ++last.gens;
        last.hw = fixed_key_hw(c);
        last.set = 1;
        last.grad_set = last.lat_set = 0;
    }
    /* the rest is written over it: no copy */
    struct fixed *F = &last.F;
    F->tf = tf;
    struct at_n at = at_n_of(c);
    F->local_seqs = at.local_seqs;
    F->slowest = at.slowest;
    /* A SwarmX node shares reduce_bandwidth among the children it has: at
     * most its fan-out, and no more than the systems there are. */
    int multi = c->systems > 1;
    double children = mm_min(hw->swx.fanout, c->systems);
    if (!last.grad_set || multi != last.multi || !mm_same(children, last.children) ||
        !mm_same(hw->swx.reduce_Bps, last.reduce)) {
        grad_binds(hw, wl, tf, multi, children, F);
        last.grad_set = 1;
        last.multi = multi;
        last.children = children;
        last.reduce = hw->swx.reduce_Bps;
    }
    double depth = at.depth;
    if (!last.lat_set || !mm_same(depth, last.depth) || !mm_same(hw->swx.hop_latency_s, last.hop)) {
        boundary_at(&hw->swx, depth, F);
        last.lat_set = 1;
        last.depth = depth;
        last.hop = hw->swx.hop_latency_s;
    }
    return F;
}
