/* step_fixed.h - what every placement of one step shares (step.c's
 * internals, worked out in step_fixed.c): the layers as far as no
 * placement changes them, the links, the weights, the boundary. */
#ifndef CP_STEP_FIXED_H
#define CP_STEP_FIXED_H

#include <math.h>

#include "step.h"

/* One kind of layer, per micro-batch on one system. */
struct layer {
    double count;       /* identical layers of this kind       */
    double in_s, out_s; /* weights in, gradients out            */
    double act_out_s;   /* forward: its input checkpoint out    */
    double bwd_in_s;    /* backward: weights and checkpoint in  */
    double pass_s[TFM_NPASSES];
    double recompute_s; /* recomputed forward inside the backward (k = 1, offload) */
    double segment_s;   /* recomputed forward before the backward (k > 1) */
};

/* SRAM one sequence needs, placed as mode says (k for recompute), and the
 * sequences that fit in room: the same expressions for the placements the
 * fixed part works out ahead and for the others. */
static inline double step_sram_per_seq(enum act_mode mode, double k, double layers, double input,
                                       double full, double logits)
{
    if (mode == ACT_WAFER)
        return layers * full + logits;
    if (mode == ACT_RECOMPUTE)
        return ceil(layers / k) * input + k * full + logits;
    return full + logits;
}

static inline double step_max_seqs(double room, double sram_per_seq)
{
    return room > 0 ? floor(room / sram_per_seq) : 0;
}

/* The placements whose SRAM the fixed part works out ahead (neither N nor
 * the batch changes it): the wafer, recompute every block, recompute every
 * best_k blocks, offload. */
enum { FIXED_PLACE_WAFER, FIXED_PLACE_K1, FIXED_PLACE_KBEST, FIXED_PLACE_OFFLOAD, FIXED_NPLACE };

/* What every placement of one step shares, worked out once per step_eval():
 * the links, the layers' weights and FLOPs, the boundary's latencies. */
struct fixed {
    unsigned long gen;       /* the thread's number of the part neither N nor
                                the batch changes: a new one each time it is
                                worked out again (from 1)                  */
    const struct tfm_figs *tf; /* the workload's figures                  */
    double local_seqs;       /* ceil(G / N)                                 */
    double slowest;          /* hw_slowest() at N                           */
    double room;             /* SRAM left beside the chunk buffers          */
    double input, full;      /* a sequence's input to a block; a block's activations */
    double logits;           /* a sequence's logits                         */
    double best_k;           /* the k of recompute that needs the least SRAM */
    double place_sram[FIXED_NPLACE], place_max[FIXED_NPLACE]; /* step_sram_per_seq(),
                                step_max_seqs() of each placement above      */
    double bpp;              /* MemoryX bytes per parameter                 */
    double mx_hold, mx_stream, S, bw, gbw, flash_fraction;
    double link[STEP_NLINKS]; /* each link's rate (enum step_link; the reduce at N) */
    unsigned stream_bind, grad_bind;
    double embed;            /* embedding parameters (with the final norm)  */
    double update_params[3]; /* parameters each layer kind updates          */
    double update_one_s[3];  /* their update on one server                  */
    double block_w, block_g; /* a block's weight and gradient bytes         */
    double block_f[TFM_NPASSES], head_f[TFM_NPASSES]; /* FLOP per token     */
    double fill_s, drain_s, boundary_s, latency_s; /* latency_s: their sum */
    double cw, cg;           /* the embedding's first weight, last gradient chunk */
    double embed_stream_s;   /* the embedding's larger stream, one way      */
    struct layer ly[3];      /* the layers as far as no placement changes them */
};

/* The shared figures of cluster c with tf = tfm_figures(c->wl), in the
 * calling thread's own struct, valid until its next call.  What neither N
 * nor the batch changes stays there from the last call with the same
 * inputs (compared bit for bit; tf_gen as step_eval_figs() takes it). */
const struct fixed *step_fixed_init(const struct cluster *c, const struct tfm_figs *tf,
                                    unsigned long tf_gen);

#endif
