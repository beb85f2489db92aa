/* test_props.c - property tests of the analytic model (src/model) over the
 * whole shipped space: every model of models/ x every system of hw/ in four
 * variants (as shipped with the placement and the servers sized per run;
 * without jitter; with a small SRAM, a large jitter and the activations
 * forced to one activation server each; and forced to recompute every 3
 * blocks) x MemoryX sized for the run and as each tier's whole servers, the
 * cluster size N sampled in 1..system.max_systems (1, 2, 3, the maximum and
 * one below it, the powers of two, every power of the fan-out and one past
 * it, where the SwarmX tree gets a level deeper, and values from a
 * fixed-seed MT19937), the sparsity sampled in 0..0.99 (0, 0.99, the
 * overhead's edge, round values and random ones), and the overlap at the
 * hardware's default, 0.5 and 1.
 *
 * At every point, under weak scaling (the model's batch per system, as
 * `scale --weak`), the same with --batch-penalty, and strong scaling (the
 * model's batch as the global batch, as `estimate -n N`):
 *  - every figure of the step and of the training is finite, whether the
 *    point is feasible or not; the verdicts are the documented ones
 *    (cerebras-plan(1), MODEL, Verdicts) computed here from their
 *    definitions, as are the stream-balance point, the critical batch and
 *    its token factor, the power of each part (systems, MemoryX servers,
 *    activation servers of every system, SwarmX nodes) and the training
 *    figures (MODEL, Time, energy and cost); the paced times sum to the
 *    step;
 *  - the placement taken (wafer, recompute every k blocks, offload) has the
 *    SRAM per sequence, sequences in SRAM, micro-batches, activation
 *    servers (as given, or the fewest that hold the local batch's
 *    checkpoints and carry the port), the sequences they hold, their rate,
 *    the recompute, the offloaded bytes and the sram and act_store verdicts
 *    step.h states; the wafer is never taken when the model file asks for
 *    recompute; k is 1 or the k that needs the least SRAM (searched here
 *    over every k); the placement fits whenever one of the candidates does;
 *    the wafer is taken whenever it fits the local batch in one pass;
 *  - MemoryX: the servers that hold the state in DRAM, feed the stream and
 *    keep each layer's update within its backward pass (each computed here
 *    from the layers' times), the servers used (given, or the largest of
 *    the three), the weight and gradient rates (min(system I/O, SwarmX
 *    link, S x server_network), and the SwarmX reduce rate / fan-out for
 *    gradients when N > 1) and the share on flash;
 *  - each resource's busy time equals the sum over layers computed here:
 *    the compute (FLOP of the most loaded system at u(t) of its
 *    micro-batch, the recomputed forward included when the placement
 *    recomputes, times the slowest-of-N factor J_N), the weights in (twice
 *    per micro-batch, a third time for segments of k > 1 blocks, the
 *    backward beside the block's checkpoint when offloaded), the gradients
 *    and checkpoints out, and the update (each server its 1/S share); the
 *    step is at least each of these and the looser all FLOP / (N x peak x
 *    utilization) and offloading-port bounds, plus the exposed latency and
 *    the fixed step_overhead, and at most their sum (a layer costs the
 *    slowest of its concurrent streams, the step sums the layers: MODEL,
 *    Step time).  The figures are computed here from the hardware and
 *    model description fields with the formulas of cerebras-plan(1) MODEL,
 *    step.h and cerebras-plan(5) TRANSFORMER ARITHMETIC, not with
 *    src/desc/tfm.c or src/model;
 *  - with the placement free and servers sized (strong scaling, dense and
 *    the densest sparsity), the step equals the least of the placements
 *    --activations can force that fit (all of them when none fits);
 * and across points:
 *  - weak scaling: the layers' time (the step less its exposed latency and
 *    overhead) is between its one-system value and J_N times that (each
 *    system keeps its sequences; the same at every N without jitter), so
 *    throughput(N) / throughput(1) <= N;
 *  - weak scaling: time-to-train non-increasing in N without the penalty,
 *    and with it while the global batch is within the critical batch;
 *  - strong scaling: the layers' time over J_N non-increasing in N, and
 *    where ceil(B / N) is unchanged rising at most by J_N / J_Np
 *    (unchanged without jitter; the documented exception: PLAN in
 *    cerebras-plan(1), "small rises inside each step from the SwarmX
 *    depth");
 *  - sparsity: step non-increasing in the sparsity (compute and streams too
 *    where the placement and micro-batches are unchanged), and the speedup
 *    against dense at most 1 / min(1, d + overhead) (MODEL, Sparsity);
 *  - more MemoryX servers (the next larger tier) never slower and never
 *    failing where fewer hold the state;
 *  - the systems' and SwarmX nodes' power non-decreasing in N.
 * A separate test grows each model's shape (layers, hidden, ffn, vocab) and
 * checks, for each forced placement, that the capacity verdicts and the
 * memory figures are monotone.
 *
 * Failures are collected (with the configuration and the numbers) and the
 * test fails at the end, so one run shows every violation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"
#include "load.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/mx.h"
#include "model/step.h"
#include "model/train.h"
#include "desc/catalog.h"
#include "desc/gpuhw.h"
#include "desc/hw.h"
#include "desc/tfm.h"
#include "desc/wl.h"

/* Rounding only: the model and the formulas here evaluate the same sums
 * in different orders, a few ulps (1e-16 relative) each over at most a few
 * thousand terms.  1e-12 is far above that and far below any difference a
 * modelling change would make. */
#define TOL 1e-12

/* Fixed seed: the sample is the same on every run. */
#define SEED 20261122UL

#define MAX_NAMES 32
#define MAX_N 96
#define MAX_S 24
#define MAX_TIERS 16
#define MAX_MX (MAX_TIERS + 1) /* sized for the run, then each tier */
#define NOVERLAP 3

/* ---- collecting failures ---- */

static unsigned long n_points, n_checks, n_fail;
static unsigned long n_act[ACT_NMODES]; /* points per activation placement   */
static unsigned long n_seg;             /* recomputed in segments of k > 1   */
static unsigned long n_store_full;      /* offloaded points failing act_store */
static unsigned long n_offload_sram;    /* offloaded points failing sram      */
static unsigned long n_auto_compared;   /* auto placements against the forced */
static char where_[256];                /* the configuration being checked */

static void prop(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void prop(int ok, const char *file, int line, const char *fmt, ...)
{
    n_checks++;
    if (ok)
        return;
    if (n_fail++ < 40) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        print_error("%s:%d: [%s] %s\n", file, line, where_, msg);
    }
}
#define PROP(ok, ...) prop(!!(ok), __FILE__, __LINE__, __VA_ARGS__)

/* a <= b within the rounding tolerance */
static int le(double a, double b)
{
    return a <= b + TOL * fmax(fabs(a), fabs(b));
}

static void finish(const char *what)
{
    print_message("%s: %lu points, %lu checks, %lu failed\n", what, n_points, n_checks, n_fail);
    if (n_fail) {
        print_error("%lu of %lu checks failed (the first 40 are above)\n", n_fail, n_checks);
        fail();
    }
}

/* ---- the shipped descriptions ---- */

static size_t shipped(enum cat_kind kind, char names[MAX_NAMES][CAT_NAME_MAX])
{
    struct cat_dirs none = {0};
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&none, kind, &l, &err), err);
    assert_true(l.n >= 1 && l.n <= MAX_NAMES);
    size_t n = 0;
    for (size_t i = 0; i < l.n; i++) {
        /* the weight-streaming systems: GPU systems have their own model */
        struct cat_entry e;
        assert_ok(cat_open(&l.items[i], &e, &err), err);
        int gpu = gpuhw_kind_of(e.text) == GPUHW_GPU;
        cat_entry_free(&e);
        if (!gpu)
            snprintf(names[n++], CAT_NAME_MAX, "%s", l.items[i].name);
    }
    cat_list_free(&l);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sort and drop duplicates; returns the new count. */
static size_t sort_unique(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* N: 1, 2, 3, max - 1, max, the powers of two, the powers of the fan-out
 * and one past each (a level of the tree starts there), and 40 random. */
static size_t sample_systems(const struct hw_desc *h, gsl_rng *rng, double out[MAX_N])
{
    double max = h->wse.max_systems;
    size_t n = 0;
    const double fixed[] = {1, 2, 3, max - 1, max};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        out[n++] = fixed[i];
    for (double p = 4; p <= max && n < MAX_N - 48; p *= 2)
        out[n++] = p;
    for (double p = h->swx.fanout; p < max && n < MAX_N - 42; p *= h->swx.fanout) {
        out[n++] = p;
        out[n++] = p + 1;
    }
    for (int i = 0; i < 40; i++)
        out[n++] = 1 + (double)gsl_rng_uniform_int(rng, (unsigned long)max);
    for (size_t i = 0; i < n; i++)
        out[i] = fmin(fmax(out[i], 1), max);
    return sort_unique(out, n);
}

/* Sparsity: 0, 0.01 and 0.02 (at or below the 0.02 overhead the sparse
 * format does not pay: every factor is still 1), round values, 0.99, and
 * 8 random. */
static size_t sample_sparsity(gsl_rng *rng, double out[MAX_S])
{
    static const double fixed[] = {0, 0.01, 0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99};
    size_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        out[n++] = fixed[i];
    for (int i = 0; i < 8; i++)
        out[n++] = CLUSTER_MAX_SPARSITY * gsl_rng_uniform(rng);
    return sort_unique(out, n);
}

/* ---- the model's figures, from the description fields ----
 * cerebras-plan(5) TRANSFORMER ARITHMETIC, cerebras-plan(1) MODEL and
 * step.h, written out again here so that a figure cannot agree with the
 * step merely by sharing its code. */

struct shape {
    double l;           /* blocks                                        */
    double W, o;        /* block matrix weights; biases and norms       */
    double E;           /* embedding: tokens, positions, final norm     */
    double Vh;          /* logits matrix (streams, tied or not)         */
    double head_update; /* untied logits, else 0                        */
    double P;           /* parameters                                   */
    double F[3];        /* block FLOP per token: fwd, delta, wgrad      */
    double logits;      /* logits FLOP per token and pass               */
    double q;           /* MemoryX bytes per parameter                  */
    double S;           /* SRAM bytes per sequence as the file says     */
    double K;           /* one block's input of one sequence            */
    double full;        /* one block's full activations of one sequence */
    double lg;          /* one sequence's logits                        */
    double kstar;       /* k with the least SRAM: ceil(l / k) K + k full */
};

static void shape_of(const struct wl_desc *w, struct shape *x)
{
    double l = w->layers, h = w->hidden, a = w->heads, f = w->ffn, s = w->seq_len;
    double V = w->vocab;
    double k = h * w->kv_heads / a;
    double m = w->gated_ffn ? 3 : 2;
    double n = w->norm == WL_LAYERNORM ? 2 * h : h;
    x->l = l;
    x->W = h * (h + 2 * k) + h * h + m * h * f;
    x->o = (w->bias ? (h + 2 * k) + h + (m - 1) * f + h : 0) + 2 * n;
    x->E = V * h + (w->positions == WL_POS_LEARNED ? s * h : 0) + n;
    x->Vh = V * h;
    x->head_update = w->tied_embeddings ? 0 : V * h;
    x->P = l * (x->W + x->o) + x->E + x->head_update;
    x->F[0] = 2 * x->W + 4 * s * h;
    x->F[1] = 2 * x->W + 8 * s * h;
    x->F[2] = 2 * x->W;
    /* on the predicted positions only: s_p of s */
    double sp = w->predictions;
    x->logits = 2 * h * V * sp / s;
    x->q = w->weight_bytes + 2 * w->master_bytes + w->optimizer_bytes;
    x->full = (w->dropout ? 14 * s * h + 4 * s * k + 2 * m * s * f + 5 * a * s * s
                          : 12 * s * h + 4 * s * k + 2 * m * s * f + 2 * a * s * s) *
              w->act_bytes / 2;
    x->K = s * h * w->act_bytes;
    x->lg = sp * V * w->act_bytes;
    double kept = w->recompute ? x->K : x->full;
    x->S = l * kept + (w->recompute ? x->full : 0) + x->lg;
    /* every k, not a neighbourhood of the continuous optimum */
    double least = INFINITY;
    x->kstar = 1;
    for (double kk = 1; kk <= l; kk++) {
        double need = ceil(l / kk) * x->K + kk * x->full;
        if (need < least)
            least = need, x->kstar = kk;
    }
}

/* SRAM one sequence needs in a placement (step.h). */
static double sram_need(const struct shape *x, enum act_mode mode, double k)
{
    if (mode == ACT_WAFER)
        return x->l * x->full + x->lg;
    if (mode == ACT_RECOMPUTE)
        return ceil(x->l / k) * x->K + k * x->full + x->lg;
    return x->full + x->lg;
}

/* MODEL, The slowest system: J_N = 1 + jitter x Phi^-1((N - 0.375) /
 * (N + 0.25)), 1 for one system. */
static double slowest(const struct hw_desc *hw, double N)
{
    return N <= 1 ? 1 : 1 + hw->wse.jitter * gsl_cdf_ugaussian_Pinv((N - 0.375) / (N + 0.25));
}

/* MODEL, Sparsity: 1 at 0, else min(1, d + c0) and min(1, d (1 + i/w) + c0). */
static double sp_compute(const struct sp_spec *sp, double sigma)
{
    return sigma <= 0 ? 1 : fmin(1, 1 - sigma + sp->overhead);
}
static double sp_stream(const struct sp_spec *sp, double sigma, double bytes)
{
    return sigma <= 0 ? 1 : fmin(1, (1 - sigma) * (1 + sp->index_bytes / bytes) + sp->overhead);
}

/* mx.h: one server updates p parameters, phi of the state on flash. */
static double upd(const struct mx_spec *mx, double q, double phi, double p)
{
    double mem = (1 - phi) / mx->server_mem_bw_Bps + (phi > 0 ? phi / mx->server_flash_bw_Bps : 0);
    return fmax(p * mx->update_flop_per_param / mx->server_update_flops, 2 * p * q * mem);
}

/* Where the activations are and what that takes (step.h). */
struct place {
    enum act_mode mode;
    double k;              /* recompute every k blocks; offload 1; wafer 0 */
    double b;              /* sequences on the most loaded system          */
    double need, M, m, t;  /* SRAM a sequence, sequences in SRAM, m, tokens */
    double A, J, abw;      /* activation servers, sequences they hold, rate */
    int sram_ok, store_ok; /* the placement's sram and act_store verdicts    */
    int recompute, seg;    /* blocks recomputed; in segments (k > 1)         */
    double act;            /* bytes offloaded per step (out, and back)       */
};

static void place(const struct cluster *c, const struct shape *x, enum act_mode mode, double k,
                  struct place *pl)
{
    const struct hw_desc *hw = c->hw;
    double room = hw->wse.sram_bytes - 4 * hw->swx.chunk_bytes;
    *pl = (struct place){0};
    pl->mode = mode;
    pl->k = mode == ACT_RECOMPUTE ? k : mode == ACT_OFFLOAD ? 1 : 0;
    pl->b = ceil(c->global_seqs / c->systems);
    pl->need = sram_need(x, mode, k);
    pl->M = room > 0 ? floor(room / pl->need) : 0;
    pl->sram_ok = pl->M >= 1;
    pl->store_ok = 1;
    pl->recompute = mode != ACT_WAFER;
    pl->seg = mode == ACT_RECOMPUTE && k > 1;
    /* MODEL, The cluster's servers: as given, else the description's
     * count a system, whatever the placement and the batch */
    pl->A = c->act_servers > 0 ? c->act_servers : hw->act.servers_per_system;
    if (mode != ACT_OFFLOAD) {
        pl->m = pl->b > 1 && pl->M >= 1 ? ceil(pl->b / pl->M) : pl->b;
    } else {
        const struct act_spec *as = &hw->act;
        double C = x->l * x->K;
        pl->J = floor(pl->A * as->server_bytes / C);
        pl->store_ok = pl->J >= 1;
        pl->m = pl->J >= 1 ? ceil(pl->b / pl->J) : pl->b;
        pl->abw = fmin(hw->wse.io_bw_Bps, pl->A * as->server_net_Bps);
        pl->act = pl->b * C;
    }
    pl->t = c->wl->seq_len * pl->b / pl->m;
}

/* One kind of layer, per micro-batch: compute of each pass (paced by the
 * slowest system), weights in (forward, backward), gradients and
 * checkpoints out, the recomputed forward. */
struct lay {
    double n;               /* identical layers                      */
    double fwd, bwd;        /* compute, backward with any recompute   */
    double in, bwd_in, out; /* streams                                */
    double act_out;         /* checkpoint out (forward)               */
    double seg;             /* recomputed segment's forward (k > 1)   */
    double p;               /* parameters the update touches         */
};

struct bounds {
    struct place pl;
    double S, hold, nstream, nupdate; /* MemoryX servers and what each needs */
    double nupdate_hi;                /* nupdate, the ratios rounded up: a
                                         ratio that is a whole number exactly
                                         may come out one ulp above it   */
    double R, G, phi;                 /* weight and gradient rates, flash   */
    double slow;                      /* slowest-of-N factor J_N            */
    double power[TRAIN_NPOWER];
    double compute, in, out, update, exposed, overhead;
    double port;           /* offloaded: checkpoints out (forward), then weights and
                              checkpoints in (backward), layer after layer       */
    double global_compute; /* all FLOP / (N x peak x utilization)         */
    double lower, upper;
};

/* The three layers at rates R (weights) and G (gradients). */
static void layers_of(const struct cluster *c, const struct shape *x, const struct place *pl,
                      double R, double G, double slow, struct lay ly[3])
{
    const struct hw_desc *hw = c->hw;
    const struct wl_desc *w = c->wl;
    double t = pl->t, io = hw->wse.io_bw_Bps;
    double u = hw->wse.utilization * t / (t + hw->wse.util_half_tokens);
    double per = slow * t / (hw->wse.peak_flops * u); /* seconds per FLOP per token */
    double cf = sp_compute(&hw->sp, c->sparsity);
    double cw = sp_stream(&hw->sp, c->sparsity, w->weight_bytes);
    double cg = sp_stream(&hw->sp, c->sparsity, w->grad_bytes);
    double sparse = 2 * x->W * (cf - 1); /* per token and pass, the matmuls */
    double blk_w = (x->W * cw + x->o) * w->weight_bytes;
    double blk_g = (x->W * cg + x->o) * w->grad_bytes;
    double ck = pl->b / pl->m * x->K; /* one block's checkpoint, one micro-batch */
    memset(ly, 0, 3 * sizeof *ly);
    /* embedding: streamed and updated, no matmul */
    ly[0] = (struct lay){
        .n = 1, .in = x->E * w->weight_bytes / R, .out = x->E * w->grad_bytes / G, .p = x->E};
    ly[0].bwd_in = ly[0].in;
    /* blocks */
    struct lay *B = &ly[1];
    B->n = x->l;
    B->fwd = (x->F[0] + sparse) * per;
    B->bwd = (x->F[1] + sparse + x->F[2] + sparse) * per;
    if (pl->recompute && !pl->seg)
        B->bwd += B->fwd;
    if (pl->seg)
        B->seg = B->fwd;
    B->in = blk_w / R;
    B->bwd_in = B->in;
    B->out = blk_g / G;
    B->p = x->W * cf + x->o;
    if (pl->mode == ACT_OFFLOAD) {
        B->act_out = ck / pl->abw;
        B->bwd_in = fmax(B->in, fmax(ck / pl->abw, (blk_w + ck) / io));
    }
    /* logits: the vocab x hidden matrix streams tied or not */
    ly[2] = (struct lay){.n = 1,
                         .fwd = x->logits * per,
                         .bwd = 2 * x->logits * per,
                         .in = x->Vh * w->weight_bytes / R,
                         .out = x->Vh * w->grad_bytes / G,
                         .p = x->head_update};
    ly[2].bwd_in = ly[2].in;
}

/* s_step: the servers the step used, taken when it is within the
 * rounding of a whole-number ratio of the servers derived here. */
static void bounds_of(const struct cluster *c, const struct shape *x, enum act_mode mode, double k,
                      double s_step, struct bounds *B)
{
    const struct hw_desc *hw = c->hw;
    const struct mx_spec *mx = &hw->mx;
    const struct wl_desc *w = c->wl;
    double N = c->systems, G = c->global_seqs, s = w->seq_len;
    *B = (struct bounds){0};
    place(c, x, mode, k, &B->pl);
    const struct place *pl = &B->pl;
    B->slow = slowest(hw, N);

    /* MemoryX: hold the state in DRAM, feed the port; the rates with S0
     * servers (S given, or the more of those two); then each layer's update
     * within its backward */
    double io = hw->wse.io_bw_Bps, port = fmin(io, hw->swx.link_bw_Bps);
    double state = x->P * x->q;
    B->hold = fmax(1, ceil(state / mx->server_dram_bytes));
    B->nstream = ceil(port / mx->server_net_Bps);
    double S0 = c->mx_servers > 0 ? c->mx_servers : fmin(fmax(B->hold, B->nstream), HW_MAX_SERVERS);
    B->R = fmin(port, S0 * mx->server_net_Bps);
    B->G = N > 1 ? fmin(B->R, hw->swx.reduce_Bps / hw->swx.fanout) : B->R;
    B->phi = 0;
    if (c->mx_servers > 0 && state > S0 * mx->server_dram_bytes && mx->server_flash_bytes > 0)
        B->phi = fmin(state - S0 * mx->server_dram_bytes, S0 * mx->server_flash_bytes) / state;
    struct lay ly[3];
    layers_of(c, x, pl, B->R, B->G, B->slow, ly);
    B->nupdate = B->nupdate_hi = 1;
    for (int i = 0; i < 3; i++) {
        double one = upd(mx, x->q, B->phi, ly[i].p);
        double room = fmax(ly[i].bwd, fmax(ly[i].bwd_in, ly[i].out));
        if (one > 0 && room > 0) {
            B->nupdate = fmax(B->nupdate, ceil(one / room * (1 - 1e-12)));
            B->nupdate_hi = fmax(B->nupdate_hi, ceil(one / room * (1 + 1e-12)));
        }
    }
    B->S = c->mx_servers > 0 ? c->mx_servers : fmin(fmax(S0, B->nupdate), HW_MAX_SERVERS);
    double S_hi = c->mx_servers > 0 ? B->S : fmin(fmax(S0, B->nupdate_hi), HW_MAX_SERVERS);
    if (s_step >= B->S && s_step <= S_hi)
        B->S = s_step;

    /* busy times, whole step */
    double m = pl->m;
    for (int i = 0; i < 3; i++) {
        B->compute += m * ly[i].n * (ly[i].fwd + ly[i].bwd + ly[i].seg);
        B->in += m * ly[i].n * (ly[i].in + ly[i].bwd_in + (ly[i].seg > 0 ? ly[i].in : 0));
        B->out += m * ly[i].n * (ly[i].out + ly[i].act_out);
        B->update += ly[i].n * upd(mx, x->q, B->phi, ly[i].p / B->S);
    }
    /* looser: every FLOP of the step shared evenly at the file's utilization */
    double cf = sp_compute(&hw->sp, c->sparsity), sparse = 2 * x->W * (cf - 1);
    double per_token = x->l * (x->F[0] + x->F[1] + x->F[2] + 3 * sparse) + 3 * x->logits +
                       (pl->recompute ? x->l * (x->F[0] + sparse) : 0);
    B->global_compute =
        per_token * G * s * B->slow / (N * hw->wse.peak_flops * hw->wse.utilization);
    /* MODEL, Step time: a block's backward follows its forward and the
     * layers add up, so an offloading block costs at least its checkpoint
     * out plus its weights and checkpoint back in, on the system's port */
    if (pl->mode == ACT_OFFLOAD) {
        double cw = sp_stream(&hw->sp, c->sparsity, w->weight_bytes);
        double blk_w = (x->W * cw + x->o) * w->weight_bytes, ck = pl->b / m * x->K;
        B->port = m * x->l * (ck + blk_w + ck) / io;
    }

    /* Exposed latency and SwarmX: depth d, the least with k^d >= N */
    double d = 0;
    for (double reach = 1; reach < N; reach *= hw->swx.fanout)
        d++;
    double chw = fmin(hw->swx.chunk_bytes, x->E * w->weight_bytes);
    double chg = fmin(hw->swx.chunk_bytes, x->E * w->grad_bytes);
    double fill = d * (hw->swx.hop_latency_s + chw / hw->swx.link_bw_Bps) + chw / B->R;
    double drain = d * (hw->swx.hop_latency_s + chg / hw->swx.link_bw_Bps);
    double trip = fill + drain + upd(mx, x->q, B->phi, chg / w->grad_bytes);
    double first = fmax(upd(mx, x->q, B->phi, x->E / B->S), fmax(ly[0].in, ly[0].out));
    B->exposed = trip - fmin(trip, c->overlap * first);
    B->overhead = hw->wse.step_overhead_s;

    B->lower = fmax(fmax(fmax(B->compute, B->global_compute), fmax(fmax(B->in, B->out), B->update)),
                    B->port) +
               B->exposed + B->overhead;
    B->upper = B->compute + B->in + B->out + B->update + B->exposed + B->overhead;

    /* MODEL, Time, energy and cost: power = N power + S MemoryX + N A
     * activation servers + n SwarmX servers, n = lanes x (ceil(N / k) +
     * ceil(N / k^2) + ... + 1) */
    double nodes = 0;
    for (double level = N; level > 1;) {
        level = ceil(level / hw->swx.fanout);
        nodes += level;
    }
    nodes *= hw->swx.lanes;
    B->power[TRAIN_POWER_SYSTEMS] = N * hw->wse.power_W;
    B->power[TRAIN_POWER_MEMORYX] = B->S * mx->server_power_W;
    B->power[TRAIN_POWER_ACT] = N * pl->A * hw->act.server_power_W;
    B->power[TRAIN_POWER_SWARMX] = nodes * hw->swx.node_power_W;
}

/* ---- checks at one point ---- */

static void check_finite(const struct train_result *r, int priced)
{
    const struct step_result *s = &r->step;
    const struct {
        const char *name;
        double v;
    } f[] = {
        {"local_seqs", s->local_seqs},
        {"act_k", s->act_k},
        {"sram_per_seq", s->sram_per_seq},
        {"max_seqs", s->max_seqs},
        {"micro_batches", s->micro_batches},
        {"micro_tokens", s->micro_tokens},
        {"ckpt_per_seq", s->ckpt_per_seq},
        {"act_servers", s->act_servers},
        {"store_seqs", s->store_seqs},
        {"act_bw", s->act_bw},
        {"act_bytes", s->act_bytes},
        {"mx_servers", s->mx_servers},
        {"mx_hold", s->mx_hold},
        {"mx_stream", s->mx_stream},
        {"mx_update", s->mx_update},
        {"stream_bw", s->stream_bw},
        {"grad_bw", s->grad_bw},
        {"flash_fraction", s->flash_fraction},
        {"pass_s[fwd]", s->pass_s[TFM_FWD]},
        {"pass_s[delta]", s->pass_s[TFM_DELTA]},
        {"pass_s[wgrad]", s->pass_s[TFM_WGRAD]},
        {"recompute_s", s->recompute_s},
        {"busy[compute]", s->busy[STEP_COMPUTE]},
        {"busy[stream_in]", s->busy[STEP_STREAM_IN]},
        {"busy[stream_out]", s->busy[STEP_STREAM_OUT]},
        {"busy[update]", s->busy[STEP_UPDATE]},
        {"busy[latency]", s->busy[STEP_LATENCY]},
        {"critical[compute]", s->critical[STEP_COMPUTE]},
        {"critical[stream_in]", s->critical[STEP_STREAM_IN]},
        {"critical[stream_out]", s->critical[STEP_STREAM_OUT]},
        {"critical[update]", s->critical[STEP_UPDATE]},
        {"critical[latency]", s->critical[STEP_LATENCY]},
        {"busy[overhead]", s->busy[STEP_OVERHEAD]},
        {"critical[overhead]", s->critical[STEP_OVERHEAD]},
        {"slowest", s->slowest},
        {"fill_s", s->fill_s},
        {"drain_s", s->drain_s},
        {"boundary_s", s->boundary_s},
        {"first_bwd_s", s->first_bwd_s},
        {"hidden_s", s->hidden_s},
        {"step_s", s->step_s},
        {"memoryx_bytes", r->memoryx_bytes},
        {"swx_nodes", r->swx_nodes},
        {"power_part[systems]", r->power_part[TRAIN_POWER_SYSTEMS]},
        {"power_part[memoryx]", r->power_part[TRAIN_POWER_MEMORYX]},
        {"power_part[activation]", r->power_part[TRAIN_POWER_ACT]},
        {"power_part[swarmx]", r->power_part[TRAIN_POWER_SWARMX]},
        {"params", r->params},
        {"bytes_per_param", r->bytes_per_param},
        {"state_bytes", r->state_bytes},
        {"global_tokens", r->global_tokens},
        {"loss", r->loss},
        {"critical_tokens", r->critical_tokens},
        {"token_factor", r->token_factor},
        {"tokens", r->tokens},
        {"steps", r->steps},
        {"time_s", r->time_s},
        {"tokens_per_s", r->tokens_per_s},
        {"power_W", r->power_W},
        {"energy_J", r->energy_J},
        {"cost", r->cost},
        {"sram_per_seq", r->sram_per_seq},
        {"matmul_dim", r->matmul_dim},
        {"balance_tokens", r->balance_tokens},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        PROP(isfinite(f[i].v), "%s = %g is not finite", f[i].name, f[i].v);
        /* everything is a size, a time, a count or a rate */
        PROP(f[i].v >= 0 || (!priced && f[i].v == -1 && !strcmp(f[i].name, "cost")),
             "%s = %g is negative", f[i].name, f[i].v);
    }
    /* the figures a plan divides by or takes logs of are positive */
    PROP(s->step_s > 0 && r->time_s > 0 && r->tokens_per_s > 0 && r->energy_J > 0 && r->steps > 0 &&
             s->micro_tokens > 0 && s->stream_bw > 0 && s->grad_bw > 0 && s->mx_servers >= 1,
         "step %g, time %g, tokens/s %g, energy %g, steps %g, rates %g %g, servers %g not all "
         "positive",
         s->step_s, r->time_s, r->tokens_per_s, r->energy_J, r->steps, s->stream_bw, s->grad_bw,
         s->mx_servers);
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= TOL * fmax(fabs(a), fabs(b));
}

/* The placement a free choice takes: never the wafer when the file asks
 * for recompute; k is 1 or the least-SRAM k; it fits if any candidate
 * does; the wafer whenever it fits the local batch in one pass. */
static void check_choice(const struct cluster *c, const struct shape *x,
                         const struct step_result *s)
{
    int recompute_file = c->wl->recompute;
    if (c->act == ACT_AUTO)
        PROP(s->act != ACT_WAFER || !recompute_file, "the wafer taken, the file asks recompute");
    if (c->act == ACT_RECOMPUTE && c->act_k > 0)
        PROP(s->act_k == c->act_k, "recompute:%g forced, took k %g", c->act_k, s->act_k);
    if (s->act == ACT_RECOMPUTE && !(c->act == ACT_RECOMPUTE && c->act_k > 0))
        PROP(s->act_k == 1 ||
                 sram_need(x, ACT_RECOMPUTE, s->act_k) == sram_need(x, ACT_RECOMPUTE, x->kstar),
             "recompute every %g blocks needs %.17g B a sequence; every %g needs %.17g B", s->act_k,
             sram_need(x, ACT_RECOMPUTE, s->act_k), x->kstar,
             sram_need(x, ACT_RECOMPUTE, x->kstar));
    if (c->act != ACT_AUTO && !(c->act == ACT_RECOMPUTE && c->act_k == 0))
        return;
    /* the candidates of a free choice */
    struct place wafer, p;
    int any = 0;
    if (c->act == ACT_AUTO && !recompute_file) {
        place(c, x, ACT_WAFER, 1, &wafer);
        any |= wafer.sram_ok;
        if (wafer.sram_ok && wafer.m == 1)
            PROP(s->act == ACT_WAFER, "the wafer holds the local batch in one pass, took %s",
                 act_mode_name[s->act]);
    }
    place(c, x, ACT_RECOMPUTE, 1, &p);
    any |= p.sram_ok;
    place(c, x, ACT_RECOMPUTE, x->kstar, &p);
    any |= p.sram_ok;
    if (c->act == ACT_AUTO) {
        place(c, x, ACT_OFFLOAD, 1, &p);
        any |= p.sram_ok && p.store_ok;
    }
    PROP(!any || (s->sram_fits && s->act_fits), "%s does not fit, another placement would",
         act_mode_name[s->act]);
}

/* Every single-point property of the evaluated point r of c. */
static void check_point(const struct cluster *c, const struct shape *x,
                        const struct train_result *r)
{
    n_points++;
    check_finite(r, c->price >= 0);
    const struct step_result *s = &r->step;
    PROP(s->act > ACT_AUTO && s->act < ACT_NMODES, "placement %d", (int)s->act);
    if (!(s->act > ACT_AUTO && s->act < ACT_NMODES))
        return;
    check_choice(c, x, s);
    struct bounds B;
    bounds_of(c, x, s->act, s->act_k, s->mx_servers, &B);
    const struct place *pl = &B.pl;
    n_act[s->act]++;
    n_seg += pl->seg;
    n_store_full += !r->act_fits;
    n_offload_sram += s->act == ACT_OFFLOAD && !r->sram_fits;

    /* the placement, as step.h states it */
    PROP(s->local_seqs == pl->b, "local_seqs %g, want ceil(B / N) = %g", s->local_seqs, pl->b);
    PROP(close_to(s->sram_per_seq, pl->need), "sram_per_seq %.17g, want %.17g", s->sram_per_seq,
         pl->need);
    PROP(s->max_seqs == pl->M, "max_seqs %g, want %g", s->max_seqs, pl->M);
    PROP(s->micro_batches == pl->m, "micro_batches %g, want %g (%s)", s->micro_batches, pl->m,
         act_mode_name[s->act]);
    PROP(s->recompute == pl->recompute, "recompute %d, want %d", s->recompute, pl->recompute);
    PROP(s->act_servers == pl->A, "act_servers %g, want %g", s->act_servers, pl->A);
    PROP(s->store_seqs == pl->J, "store_seqs %g, want %g", s->store_seqs, pl->J);
    PROP(s->act_bw == pl->abw, "act_bw %g, want %g", s->act_bw, pl->abw);
    PROP(close_to(s->act_bytes, pl->act), "act_bytes %.17g, want %.17g", s->act_bytes, pl->act);
    PROP(close_to(s->ckpt_per_seq, x->l * x->K), "ckpt_per_seq %.17g, want %.17g", s->ckpt_per_seq,
         x->l * x->K);
    PROP(close_to(s->slowest, B.slow), "slowest %.17g, want %.17g", s->slowest, B.slow);
    PROP(close_to(s->micro_tokens, pl->t), "micro_tokens %.17g, want %.17g", s->micro_tokens,
         pl->t);

    /* MemoryX */
    PROP(s->mx_hold == B.hold, "mx_hold %g, want %g", s->mx_hold, B.hold);
    PROP(s->mx_stream == B.nstream, "mx_stream %g, want %g", s->mx_stream, B.nstream);
    PROP(s->mx_update >= B.nupdate && s->mx_update <= B.nupdate_hi, "mx_update %g, want %g",
         s->mx_update, B.nupdate);
    PROP(s->mx_servers == B.S, "mx_servers %g, want %g (hold %g, stream %g, update %g)",
         s->mx_servers, B.S, B.hold, B.nstream, B.nupdate);
    PROP(s->stream_bw == B.R, "stream_bw %g, want %g", s->stream_bw, B.R);
    PROP(s->grad_bw == B.G, "grad_bw %g, want %g", s->grad_bw, B.G);
    PROP(fabs(s->flash_fraction - B.phi) <= TOL, "flash_fraction %.17g, want %.17g",
         s->flash_fraction, B.phi);
    /* sized for the run, the update never sets the pace */
    if (c->mx_servers == 0 && B.S < HW_MAX_SERVERS)
        PROP(s->critical[STEP_UPDATE] == 0, "sized servers: the update paces %.17g s",
             s->critical[STEP_UPDATE]);

    /* busy times from the layers, and the bounds (each plus the exposed
     * latency and the fixed overhead, which no layer overlaps) */
    static const char *const busy_name[] = {"compute", "weights in", "gradients out", "update"};
    const double busy_want[] = {B.compute, B.in, B.out, B.update};
    for (int e = 0; e < 4; e++)
        PROP(close_to(s->busy[e], busy_want[e]), "busy %s %.17g s, want %.17g s", busy_name[e],
             s->busy[e], busy_want[e]);
    static const char *const what[] = {"compute",    "all FLOP / (N peak util)",
                                       "weights in", "gradients out",
                                       "update",     "offloading port"};
    double lb[] = {B.compute, B.global_compute, B.in, B.out, B.update, B.port};
    for (size_t i = 0; i < sizeof lb / sizeof lb[0]; i++)
        PROP(le(lb[i] + B.exposed + B.overhead, s->step_s),
             "step %.17g s below the %s bound %.17g s + exposed latency %.17g s + overhead "
             "%.17g s",
             s->step_s, what[i], lb[i], B.exposed, B.overhead);
    PROP(le(B.lower, s->step_s), "step %.17g s below max of the bounds + latency %.17g s",
         s->step_s, B.lower);
    PROP(le(s->step_s, B.upper), "step %.17g s above the serial sum %.17g s", s->step_s, B.upper);
    PROP(close_to(s->busy[STEP_LATENCY], B.exposed), "exposed latency %.17g, want %.17g",
         s->busy[STEP_LATENCY], B.exposed);
    PROP(s->critical[STEP_OVERHEAD] == B.overhead && s->busy[STEP_OVERHEAD] == B.overhead,
         "overhead paces %.17g s, busy %.17g s, want %.17g s", s->critical[STEP_OVERHEAD],
         s->busy[STEP_OVERHEAD], B.overhead);

    /* MODEL, Verdicts */
    const struct mx_spec *mx = &c->hw->mx;
    double state = x->P * x->q;
    double capacity = B.S * (mx->server_dram_bytes + mx->server_flash_bytes);
    PROP(close_to(r->memoryx_bytes, capacity), "memoryx_bytes %.17g, want %.17g", r->memoryx_bytes,
         capacity);
    PROP(r->memoryx_fits == (state <= capacity), "memoryx_fits %d, state %g, %g servers hold %g",
         r->memoryx_fits, state, B.S, capacity);
    PROP(r->sram_fits == pl->sram_ok, "sram_fits %d, M %g, b %g, %s", r->sram_fits, pl->M, pl->b,
         act_mode_name[s->act]);
    PROP(r->act_fits == pl->store_ok, "act_fits %d, servers hold %g", r->act_fits, pl->J);
    PROP(!!(r->warnings & TW_ACT_STORE) == !pl->store_ok, "act_store_full %#x, servers hold %g",
         r->warnings, pl->J);
    PROP(r->split_ok == (c->global_seqs >= c->systems), "split_ok %d", r->split_ok);
    PROP(r->feasible == (r->memoryx_fits && r->sram_fits && r->act_fits && r->split_ok &&
                         !(r->warnings & TW_SPARSE_LOSS) && r->gp.finishes),
         "feasible %d", r->feasible);
    PROP(!(r->warnings & TW_INFEASIBLE) == !!r->feasible, "warnings %#x, feasible %d", r->warnings,
         r->feasible);
    PROP(!!(r->warnings & TW_FLASH) == (B.phi > 0), "state_on_flash %#x, phi %g", r->warnings,
         B.phi);
    PROP(!!(r->warnings & TW_ACCUM) == (pl->m > 1), "gradient_accumulation %#x, m %g", r->warnings,
         pl->m);
    PROP(r->batch_ok == (r->global_tokens <= r->critical_tokens), "batch_ok %d", r->batch_ok);
    const struct wl_desc *w = c->wl;
    double dim = fmax(w->hidden, fmax(w->ffn, w->vocab));
    PROP(r->matmul_fits == (dim <= c->hw->wse.max_matmul_dim), "matmul_fits %d, dim %g",
         r->matmul_fits, dim);
    /* MODEL, Stream-balance point: t* = (block_params w / R) peak util / F_f */
    double tstar = (x->W + x->o) * w->weight_bytes / B.R * c->hw->wse.peak_flops *
                   c->hw->wse.utilization / x->F[0];
    PROP(close_to(r->balance_tokens, tstar), "balance_tokens %.17g, want %.17g", r->balance_tokens,
         tstar);
    PROP(r->stream_balanced == (s->micro_tokens >= r->balance_tokens), "stream_balanced %d",
         r->stream_balanced);

    /* MODEL, Critical batch and the batch penalty */
    const struct batch_spec *bs = &c->hw->batch;
    double Lc = pow(bs->loss_params / x->P, bs->loss_exponent);
    double Bcrit = bs->critical_tokens / pow(Lc, 1 / bs->critical_exponent);
    double Gtok = c->global_seqs * w->seq_len, Gref = c->ref_seqs * w->seq_len;
    double factor = c->batch_penalty ? (1 + Gtok / Bcrit) / (1 + Gref / Bcrit) : 1;
    PROP(fabs(r->critical_tokens - Bcrit) <= 1e-9 * Bcrit, "critical batch %.17g, want %.17g",
         r->critical_tokens, Bcrit);
    /* MODEL, Sparsity at equal quality: m(S) x the tokens, none when the
     * sparse loss floor is at or above the dense loss */
    const struct loss_spec *ls = &w->loss;
    double Nw = x->l * x->W, dS = 1 - c->sparsity,
           room = pow(ls->data_scale / c->tokens, ls->data_exponent);
    double delta =
        pow(Nw, -ls->param_exponent) *
        ((ls->sparse_a * pow(dS, ls->sparse_b) + ls->param_coeff) * pow(dS, -ls->param_exponent) -
         (ls->sparse_a + ls->param_coeff));
    double msp = c->sparsity <= 0 ? 1
                 : delta >= room  ? INFINITY
                                  : pow(1 - delta / room, -1 / ls->data_exponent);
    PROP(c->sparsity > 0
             ? fabs(r->sparse_factor - msp) <= 1e-9 * msp || (isinf(msp) && isinf(r->sparse_factor))
             : r->sparse_factor == 1,
         "sparse factor %.17g, want %.17g", r->sparse_factor, msp);
    PROP(!!(r->warnings & TW_SPARSE_LOSS) == !!isinf(msp), "sparse_unreachable %#x, m %g",
         r->warnings, msp);
    if (isfinite(msp))
        factor *= msp;
    PROP(fabs(r->tokens - c->tokens * factor) <= 1e-9 * r->tokens, "tokens %.17g, want %.17g",
         r->tokens, c->tokens * factor);

    /* MODEL, Time, energy and cost: the power of every part, and their sum */
    double power = 0;
    for (int i = 0; i < TRAIN_NPOWER; i++) {
        PROP(close_to(r->power_part[i], B.power[i]), "power of %s %.17g, want %.17g",
             train_power_name[i], r->power_part[i], B.power[i]);
        power += B.power[i];
    }
    PROP(close_to(r->power_W, power), "power %.17g, want the parts' %.17g", r->power_W, power);

    /* MODEL, Step time: the paced times sum to the step, none above its
     * busy time, the bottleneck the largest */
    double sum = 0;
    for (int e = 0; e < STEP_NRES; e++) {
        PROP(s->critical[e] >= 0 && le(s->critical[e], s->busy[e]),
             "%s paces %.17g s, busy %.17g s", step_res_name[e], s->critical[e], s->busy[e]);
        PROP(s->critical[e] <= s->critical[s->bottleneck], "bottleneck %s is not the largest",
             step_res_name[s->bottleneck]);
        sum += s->critical[e];
    }
    PROP(close_to(sum, s->step_s), "paced times sum to %.17g, step %.17g", sum, s->step_s);

    /* MODEL, Time, energy and cost */
    double G = c->global_seqs * c->wl->seq_len;
    PROP(close_to(r->global_tokens, G), "global_tokens %g, want %g", r->global_tokens, G);
    PROP(close_to(r->tokens_per_s * s->step_s, G), "throughput %g x step %g != %g", r->tokens_per_s,
         s->step_s, G);
    /* whole steps: the fewest that carry the tokens */
    PROP(r->steps == floor(r->steps) && r->steps * G >= r->tokens * (1 - 1e-15) &&
             (r->steps - 1) * G < r->tokens,
         "steps %g x %g for tokens %g: not the fewest whole steps", r->steps, G, r->tokens);
    PROP(close_to(r->time_ff_s, r->steps * s->step_s), "time %g != steps x step", r->time_ff_s);
    /* failures only add time (gp.h): the wall time, or the failure-free
     * one when the job cannot finish */
    PROP(r->gp.finishes ? r->time_s == r->gp.wall_s && r->time_s >= r->time_ff_s
                        : r->time_s == r->time_ff_s && (r->warnings & TW_FAILURES),
         "time %g, failure-free %g, goodput %g", r->time_s, r->time_ff_s, r->gp.goodput);
    PROP(close_to(r->energy_J, power * r->time_s), "energy %g != power x time", r->energy_J);
    if (c->price >= 0) /* the rental replaces the capital part, energy stays */
        PROP(close_to(r->cost, c->systems * r->time_s / 3600 * c->price + r->costs.energy),
             "cost %g", r->cost);
    PROP(close_to(r->params, x->P), "params %.17g, want %.17g", r->params, x->P);
    PROP(close_to(r->state_bytes, state), "state_bytes %.17g, want %.17g", r->state_bytes, state);
    PROP(close_to(r->sram_per_seq, pl->need), "train sram_per_seq %.17g, want %.17g",
         r->sram_per_seq, pl->need);
}

/* With the placement free, the step is the least of the forced ones that
 * fit (all of them when none fits); each forced point is checked too. */
static void check_against_forced(const struct cluster *c, const struct shape *x,
                                 const struct train_result *r)
{
    double best_fit = INFINITY, best_any = INFINITY;
    for (int m = ACT_WAFER; m < ACT_NMODES; m++) {
        if (m == ACT_WAFER && c->wl->recompute)
            continue;
        struct cluster f = *c;
        f.act = (enum act_mode)m;
        f.act_k = 0;
        struct train_result rf;
        train_eval(&f, &rf);
        check_point(&f, x, &rf);
        PROP((int)rf.step.act == m, "forced %s, took %s", act_mode_name[m],
             act_mode_name[rf.step.act]);
        best_any = fmin(best_any, rf.step.step_s);
        if (rf.sram_fits && rf.act_fits)
            best_fit = fmin(best_fit, rf.step.step_s);
    }
    double want = isfinite(best_fit) ? best_fit : best_any;
    PROP(r->step.step_s == want, "free placement %s: step %.17g s, the fastest %s %.17g s",
         act_mode_name[r->step.act], r->step.step_s, isfinite(best_fit) ? "that fits" : "of all",
         want);
    n_auto_compared++;
}

/* What the cross-point checks need of one point.  work: the step less
 * its exposed latency and its fixed overhead, the layers alone. */
struct cell {
    double step, work, compute, in, out, time, power_fixed;
    double m, k;
    enum act_mode act;
    int fits;
};

static void keep(struct cell *k, const struct train_result *r)
{
    k->step = r->step.step_s;
    k->work = r->step.step_s - r->step.busy[STEP_LATENCY] - r->step.busy[STEP_OVERHEAD];
    k->compute = r->step.busy[STEP_COMPUTE];
    k->in = r->step.busy[STEP_STREAM_IN];
    k->out = r->step.busy[STEP_STREAM_OUT];
    k->time = r->time_ff_s; /* the scaling laws hold without failures */
    k->power_fixed = r->power_part[TRAIN_POWER_SYSTEMS] + r->power_part[TRAIN_POWER_SWARMX];
    k->m = r->step.micro_batches;
    k->k = r->step.act_k;
    k->act = r->step.act;
    k->fits = r->memoryx_fits;
}

/* [sparsity][N] of the current MemoryX and of the next fewer servers; weak
 * and strong scaling. */
static struct cell cur[2][MAX_S][MAX_N], smaller[2][MAX_S][MAX_N];
enum { WEAK, STRONG };

static unsigned long n_pen_rise; /* weak + penalty: rises above B_crit (allowed) */

/* A hardware variant and how its clusters place activations. */
struct variant {
    const char *label, *set[3];
    size_t nset;
    enum act_mode act;
    double act_k, act_servers;
};

/* MemoryX options: sized for the run (0), then each tier's whole servers
 * from the fewest; returns the count. */
static size_t mx_options(const struct hw_desc *h, double S[MAX_MX], const char *name[MAX_MX])
{
    size_t n = 0;
    S[n] = 0;
    name[n++] = "sized";
    size_t nt = h->mx.tiers.n;
    assert_true(nt >= 1 && nt <= MAX_TIERS);
    for (size_t i = 0; i < nt; i++) {
        const struct desc_item *t = &h->mx.tiers.item[i];
        /* whole servers that make up the tier */
        S[n] = ceil(t->value / (h->mx.server_dram_bytes + h->mx.server_flash_bytes));
        name[n++] = t->name;
    }
    /* the tiers by server count, fewest first */
    for (size_t i = 2; i < n; i++)
        for (size_t j = i; j > 1 && S[j] < S[j - 1]; j--) {
            double t = S[j];
            S[j] = S[j - 1], S[j - 1] = t;
            const char *u = name[j];
            name[j] = name[j - 1], name[j - 1] = u;
        }
    return n;
}

/* The sweep over one model on one hardware variant, one overlap, every
 * MemoryX option. */
static void sweep_one(const struct hw_desc *h, const char *hwname, const struct variant *v,
                      const struct wl_desc *w, const char *model, double overlap, const double *Ns,
                      size_t nn, const double *sp, size_t ns, gsl_rng *rng)
{
    struct shape x;
    shape_of(w, &x);
    /* my reading of TRANSFORMER ARITHMETIC against the library's (which
     * test_tfm.c checks against the formulas) */
    snprintf(where_, sizeof where_, "%s", model);
    PROP(close_to(x.P, tfm_params(w)), "params %.17g, tfm_params %.17g", x.P, tfm_params(w));
    PROP(close_to(x.S, tfm_sram_per_seq(w)), "sram/seq %.17g, tfm %.17g", x.S, tfm_sram_per_seq(w));

    double mxS[MAX_MX];
    const char *mxname[MAX_MX];
    size_t nmx = mx_options(h, mxS, mxname);
    for (size_t ti = 0; ti < nmx; ti++) {
        for (size_t si = 0; si < ns; si++) {
            struct cluster base;
            cluster_init(&base, h, w);
            base.mx_servers = mxS[ti];
            base.act = v->act;
            base.act_k = v->act_k;
            base.act_servers = v->act_servers;
            base.sparsity = sp[si];
            base.overlap = overlap;
            base.overlap_set = 1;
            base.price = 100 * gsl_rng_uniform(rng);
            struct cp_error err = {0};
            assert_ok(cluster_check(&base, &err), err);
            struct cluster pen = base;
            pen.batch_penalty = 1;

            struct train_result r1 = {0}, rw, rp, rs;
            double prev_pen_time = 0;
            int prev_pen_ok = 0;
            for (size_t j = 0; j < nn; j++) {
                double N = Ns[j];
                snprintf(where_, sizeof where_,
                         "%s on %s, MemoryX %s (%g servers), N %g, sparsity %.17g, overlap %g",
                         model, hwname, mxname[ti], mxS[ti], N, sp[si], overlap);

                /* weak: the model's batch per system, as scale --weak */
                struct cluster cw = base;
                cw.systems = N;
                cw.global_seqs = w->batch * N;
                train_at(&base, N, SCALE_WEAK, &rw);
                check_point(&cw, &x, &rw);
                PROP(rw.global_tokens == w->batch * N * w->seq_len, "weak global batch %g",
                     rw.global_tokens);
                if (j == 0)
                    r1 = rw; /* Ns[0] is 1 */

                /* weak with the batch penalty */
                cw.batch_penalty = 1;
                train_at(&pen, N, SCALE_WEAK, &rp);
                check_point(&cw, &x, &rp);

                /* strong: the model's batch over N systems, as estimate -n N */
                struct cluster cs = base;
                cs.systems = N;
                train_eval(&cs, &rs);
                check_point(&cs, &x, &rs);
                if (cs.act == ACT_AUTO && ti == 0 && (si == 0 || si == ns - 1))
                    check_against_forced(&cs, &x, &rs);

                struct cell *kw = &cur[WEAK][si][j], *ks = &cur[STRONG][si][j];
                keep(kw, &rw);
                keep(ks, &rs);

                /* ---- across N ---- */
                if (j > 0) {
                    const struct cell *pw = &cur[WEAK][si][j - 1], *ps = &cur[STRONG][si][j - 1];
                    double Np = Ns[j - 1];
                    PROP(kw->power_fixed >= pw->power_fixed,
                         "systems and SwarmX power %g at N %g below %g at N %g", kw->power_fixed, N,
                         pw->power_fixed, Np);

                    /* weak scaling: each system's work is unchanged (MODEL:
                     * streams at R whatever N is, b = ceil(B N / N) = B);
                     * the tree deepens, and every compute time is J_N
                     * times as long, so each layer's max(J_N C, streams)
                     * is between its one-system time and J_N times that
                     * (equal without jitter); a free placement is the
                     * least of such */
                    double J = slowest(h, N), Jp = slowest(h, Np);
                    const struct cell *w1 = &cur[WEAK][si][0];
                    PROP(le(w1->work, kw->work) && le(kw->work, J * w1->work),
                         "weak: layers %.17g s at N, %.17g s at 1, J_N %.17g", kw->work, w1->work,
                         J);
                    if (h->wse.jitter == 0)
                        PROP(close_to(kw->work, w1->work),
                             "weak, no jitter: layers %.17g at N, %.17g at 1", kw->work, w1->work);
                    double speedup = rw.tokens_per_s / r1.tokens_per_s;
                    PROP(le(speedup, N), "weak speedup %.17g > N (tokens/s %.17g vs %.17g)",
                         speedup, rw.tokens_per_s, r1.tokens_per_s);

                    /* Time-to-train, weak, no penalty: T0 / (N G1) x step(N),
                     * and step(N) grows only by the SwarmX latency (2
                     * levels x (hop + chunk / link), microseconds, against
                     * steps of tens of milliseconds or more) and by J_N /
                     * J_Np (J grows as sqrt(ln N), far slower than N), so it
                     * must fall, but for the last step: steps are whole,
                     * so the time may rise by less than one step. */
                    PROP(le(kw->time, pw->time + rw.step.step_s),
                         "weak time-to-train %.17g s at N %g above %.17g s at N %g", kw->time, N,
                         pw->time, Np);
                    /* With the penalty the tokens grow as (1 + G / B_crit):
                     * checked while G <= B_crit (the batch verdict holds at
                     * both points); above it time ~ (1/N + G1/B_crit) x step
                     * may rise with the tree's depth, which MODEL, Scaling
                     * allows ("the time-to-train falls more slowly"). */
                    if (prev_pen_ok && rp.batch_ok)
                        PROP(le(rp.time_ff_s, prev_pen_time),
                             "weak + penalty time-to-train %.17g s at N %g above %.17g s at N "
                             "%g, G %g <= B_crit %g",
                             rp.time_ff_s, N, prev_pen_time, Np, rp.global_tokens, rp.critical_tokens);
                    else if (rp.time_ff_s > prev_pen_time)
                        n_pen_rise++;

                    /* Strong scaling: ceil(B / N) whole sequences set the
                     * pace, so the layers' time at a fixed slowest-system
                     * factor never rises with N; the factor J_N does, and
                     * a layer's max(J C, streams) / J never rises with J.
                     * So work / J_N never rises with N, and where
                     * ceil(B / N) is unchanged the work rises at most by
                     * J_N / J_Np (is unchanged without jitter); the step
                     * itself may rise by the latency of a deeper tree
                     * inside such a stretch (cerebras-plan(1), PLAN, item
                     * 2: "small rises inside each step from the SwarmX
                     * depth"). */
                    PROP(le(ks->work / J, ps->work / Jp),
                         "strong: layers / J_N %.17g s at N %g above %.17g s at N %g", ks->work / J,
                         N, ps->work / Jp, Np);
                    if (ceil(w->batch / N) == ceil(w->batch / Np)) {
                        PROP(le(ps->work, ks->work) && le(ks->work * Jp, ps->work * J),
                             "strong: same ceil(B/N), layers %.17g vs %.17g, J %.17g vs %.17g",
                             ks->work, ps->work, J, Jp);
                        if (h->wse.jitter == 0)
                            PROP(close_to(ks->work, ps->work),
                                 "strong, no jitter: same ceil(B/N), work %.17g vs %.17g", ks->work,
                                 ps->work);
                    }
                }
                prev_pen_time = rp.time_ff_s;
                prev_pen_ok = rp.batch_ok;

                /* ---- across sparsity (sp[0] is 0: dense) ---- */
                double f = sp_compute(&h->sp, sp[si]);
                for (int mode = 0; mode < 2 && si > 0; mode++) {
                    const struct cell *k = &cur[mode][si][j], *p = &cur[mode][si - 1][j],
                                      *d0 = &cur[mode][0][j];
                    const char *mn = mode == WEAK ? "weak" : "strong";
                    if (k->act == p->act && k->k == p->k && k->m == p->m) {
                        PROP(le(k->compute, p->compute),
                             "%s: compute %.17g above %.17g at sparsity %g", mn, k->compute,
                             p->compute, sp[si - 1]);
                        PROP(le(k->in, p->in), "%s: stream in %.17g above %.17g at sparsity %g", mn,
                             k->in, p->in, sp[si - 1]);
                        PROP(le(k->out, p->out), "%s: stream out %.17g above %.17g at sparsity %g",
                             mn, k->out, p->out, sp[si - 1]);
                    }
                    PROP(le(k->step, p->step), "%s: step %.17g above %.17g at sparsity %g", mn,
                         k->step, p->step, sp[si - 1]);
                    /* speedup against dense <= 1 / min(1, d + c0) */
                    PROP(le(d0->step * f, k->step), "%s: sparsity speedup %.17g above 1 / %.17g",
                         mn, d0->step / k->step, f);
                }

                /* ---- across MemoryX: more servers are never slower and
                 * hold whatever fewer hold ---- */
                for (int mode = 0; mode < 2 && ti > 1; mode++) {
                    const struct cell *k = &cur[mode][si][j], *p = &smaller[mode][si][j];
                    PROP(le(k->step, p->step), "step %.17g above %.17g on fewer servers", k->step,
                         p->step);
                    PROP(k->fits || !p->fits, "fewer servers hold the state, these not");
                }
            }
        }
        memcpy(smaller, cur, sizeof cur);
    }
}

static void test_props_sweep(void **state)
{
    (void)state;
    char models[MAX_NAMES][CAT_NAME_MAX], hws[MAX_NAMES][CAT_NAME_MAX];
    size_t nm = shipped(CAT_MODEL, models), nh = shipped(CAT_HW, hws);
    assert_true(nm >= 7 && nh >= 2);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(rng);
    gsl_rng_set(rng, SEED);
    double sp[MAX_S];
    size_t ns = sample_sparsity(rng, sp);
    assert_true(sp[0] == 0 && sp[ns - 1] == CLUSTER_MAX_SPARSITY);
    n_points = n_checks = n_fail = n_pen_rise = 0;
    memset(n_act, 0, sizeof n_act);
    n_seg = n_store_full = n_offload_sram = n_auto_compared = 0;
    /* each system as shipped, placement and servers sized per run; without
     * jitter (weak scaling exactly flat); with an SRAM too small for the
     * largest models' working set when offloaded (the sram verdict), one
     * activation server per system, too small for their checkpoints (the
     * act_store verdict), and a large jitter; and recomputing every 3
     * blocks */
    static const struct variant var[] = {
        {"", {NULL, NULL, NULL}, 0, ACT_AUTO, 0, 0},
        {" (no jitter)", {"system.jitter=0", NULL, NULL}, 1, ACT_AUTO, 0, 0},
        {" (8 GB SRAM, jitter 0.25, offload to 1 server of 183 GiB)",
         {"system.sram=8 GB", "system.jitter=0.25", "activation.server_memory=183 GiB"},
         3,
         ACT_OFFLOAD,
         0,
         1},
        {" (recompute:3)", {NULL, NULL, NULL}, 0, ACT_RECOMPUTE, 3, 0},
    };
    const size_t nvar = sizeof var / sizeof var[0];
    for (size_t i = 0; i < nvar * nh; i++) {
        const struct variant *v = &var[i % nvar];
        struct hw_desc h;
        char hwname[CAT_NAME_MAX + 64];
        snprintf(hwname, sizeof hwname, "%s%s", hws[i / nvar], v->label);
        load_hw(hws[i / nvar], v->set, v->nset, &h);
        double Ns[MAX_N];
        size_t nn = sample_systems(&h, rng, Ns);
        assert_true(Ns[0] == 1 && Ns[nn - 1] == h.wse.max_systems);
        const double overlap[NOVERLAP] = {h.mx.boundary_overlap, 0.5, 1};
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc w;
            load_model(models[k], NULL, 0, &w);
            for (int o = 0; o < NOVERLAP; o++)
                sweep_one(&h, hwname, v, &w, models[k], overlap[o], Ns, nn, sp, ns, rng);
        }
    }
    gsl_rng_free(rng);
    print_message("activations: %lu points on the wafer, %lu recomputed (%lu in segments of k > "
                  "1), %lu offloaded (%lu with the servers too small for one sequence, %lu with "
                  "SRAM too small for the working set); %lu free placements compared with the "
                  "forced ones\n",
                  n_act[ACT_WAFER], n_act[ACT_RECOMPUTE], n_seg, n_act[ACT_OFFLOAD], n_store_full,
                  n_offload_sram, n_auto_compared);
    snprintf(where_, sizeof where_, "the whole sweep");
    for (int a = ACT_WAFER; a < ACT_NMODES; a++)
        PROP(n_act[a] > 0, "no point placed its activations as %s", act_mode_name[a]);
    PROP(n_seg > 0, "no point recomputed in segments of k > 1");
    PROP(n_store_full > 0, "no point had activation servers too small for one sequence");
    PROP(n_offload_sram > 0, "no offloaded point had SRAM too small for its working set");
    PROP(n_auto_compared > 0, "no free placement compared with the forced ones");
    print_message("weak scaling with --batch-penalty above the critical batch: time-to-train "
                  "rose at %lu of the sampled steps in N (not an error)\n",
                  n_pen_rise);
    finish("sweep");
}

/* ---- capacity: monotone in the model's size ---- */

/* The shape grown one dimension at a time; each variant is at least the
 * previous one in layers, hidden, ffn and vocab, so it has more
 * parameters, more state and more activations per sequence. */
#define NGROW 7
static void grow(const struct wl_desc *w0, struct wl_desc v[NGROW])
{
    v[0] = *w0;
    for (int i = 1; i < NGROW; i++) {
        struct wl_desc *w = &v[i];
        *w = v[i - 1];
        double per_head = w->hidden / w->heads;
        switch (i) {
        case 1:
            w->layers = ceil(w->layers * 1.5);
            break;
        case 2:
            w->hidden += w->heads * ceil(per_head / 4);
            break; /* keeps heads | hidden */
        case 3:
            w->ffn = ceil(w->ffn * 1.5);
            break;
        case 4:
            w->vocab *= 2;
            break;
        case 5:
            w->layers *= 2;
            break;
        case 6:
            w->hidden += w->heads * per_head;
            break;
        }
    }
}

static void test_props_capacity(void **state)
{
    (void)state;
    char models[MAX_NAMES][CAT_NAME_MAX], hws[MAX_NAMES][CAT_NAME_MAX];
    size_t nm = shipped(CAT_MODEL, models), nh = shipped(CAT_HW, hws);
    n_points = n_checks = n_fail = 0;
    static struct wl_desc all[MAX_NAMES];
    for (size_t k = 0; k < nm; k++)
        load_model(models[k], NULL, 0, &all[k]);
    static const enum act_mode modes[] = {ACT_WAFER, ACT_RECOMPUTE, ACT_OFFLOAD};

    for (size_t i = 0; i < nh; i++) {
        struct hw_desc h;
        load_hw(hws[i], NULL, 0, &h);
        const double Ns[] = {1, h.wse.max_systems};
        const double sps[] = {0, 0.9};
        double mxS[MAX_MX];
        const char *mxname[MAX_MX];
        size_t nmx = mx_options(&h, mxS, mxname);
        double per_server = h.mx.server_dram_bytes + h.mx.server_flash_bytes;
        for (size_t k = 0; k < nm; k++) {
            struct wl_desc v[NGROW];
            grow(&all[k], v);
            for (size_t t = 1; t < nmx; t++) {
                for (size_t a = 0; a < 2; a++) {
                    for (size_t b = 0; b < 2; b++) {
                        for (size_t md = 0; md < sizeof modes / sizeof modes[0]; md++) {
                            struct train_result prev = {0};
                            double prev_small = 0;
                            for (int g = 0; g < NGROW; g++) {
                                snprintf(where_, sizeof where_,
                                         "%s grown %d on %s, tier %s, N %g, sparsity %g, %s",
                                         models[k], g, hws[i], mxname[t], Ns[a], sps[b],
                                         act_mode_name[modes[md]]);
                                struct shape x;
                                shape_of(&v[g], &x);
                                struct cluster c;
                                cluster_init(&c, &h, &v[g]);
                                c.systems = Ns[a];
                                c.sparsity = sps[b];
                                c.mx_servers = mxS[t];
                                c.act = modes[md];
                                c.act_k = 1;
                                /* no overlap: a longer first layer would
                                 * hide more of the boundary, the one figure
                                 * that can shrink as the model grows */
                                c.overlap = 0;
                                c.overlap_set = 1;
                                struct cp_error err = {0};
                                assert_ok(cluster_check(&c, &err), err);
                                struct train_result r;
                                train_eval(&c, &r);
                                check_point(&c, &x, &r);
                                /* capacity's figures: the smallest tier whose
                                 * servers hold it (none: infinite) */
                                int st = mx_smallest_tier(&h.mx, r.state_bytes);
                                double small =
                                    st < 0
                                        ? INFINITY
                                        : ceil(h.mx.tiers.item[st].value / per_server) * per_server;
                                PROP(st < 0 || small >= r.state_bytes,
                                     "smallest tier %d (%g B of servers) does not hold %g", st,
                                     small, r.state_bytes);
                                if (g > 0) {
                                    PROP(r.params > prev.params, "params %.17g not above %.17g",
                                         r.params, prev.params);
                                    PROP(r.state_bytes > prev.state_bytes, "state %g not above %g",
                                         r.state_bytes, prev.state_bytes);
                                    PROP(!r.memoryx_fits || prev.memoryx_fits,
                                         "fits (state %g) where the smaller (%g) does not",
                                         r.state_bytes, prev.state_bytes);
                                    PROP(r.sram_per_seq >= prev.sram_per_seq,
                                         "SRAM per sequence %g below %g", r.sram_per_seq,
                                         prev.sram_per_seq);
                                    PROP(r.step.max_seqs <= prev.step.max_seqs,
                                         "sequences in SRAM %g above %g", r.step.max_seqs,
                                         prev.step.max_seqs);
                                    PROP(!r.sram_fits || prev.sram_fits,
                                         "SRAM verdict not monotone");
                                    /* capacity alone: a larger model on the
                                     * same tokens reaches the dense loss at
                                     * a sparsity a smaller may not; and
                                     * failures are no capacity (gp.h) */
                                    const unsigned cap =
                                        TW_INFEASIBLE & ~TW_SPARSE_LOSS & ~TW_FAILURES;
                                    PROP((r.warnings & cap) || !(prev.warnings & cap),
                                         "feasible where smaller not");
                                    PROP(r.step.flash_fraction >= prev.step.flash_fraction,
                                         "flash share %g below %g", r.step.flash_fraction,
                                         prev.step.flash_fraction);
                                    PROP(small >= prev_small, "smallest tier %g below %g", small,
                                         prev_small);
                                    PROP(le(prev.step.step_s, r.step.step_s),
                                         "larger model faster: step %.17g s vs %.17g s",
                                         r.step.step_s, prev.step.step_s);
                                }
                                prev = r;
                                prev_small = small;
                            }
                        }
                    }
                }
            }
        }

        /* the shipped models against one another: by parameters, among
         * those with the same bytes per parameter, on each tier's servers */
        for (size_t t = 1; t < nmx; t++) {
            for (size_t p = 0; p < nm; p++)
                for (size_t q = 0; q < nm; q++) {
                    if (tfm_params(&all[p]) <= tfm_params(&all[q]) ||
                        mx_bytes_per_param(&all[p]) != mx_bytes_per_param(&all[q]))
                        continue;
                    snprintf(where_, sizeof where_, "%s vs %s on %s tier %s", models[p], models[q],
                             hws[i], mxname[t]);
                    struct cluster cp, cq;
                    struct train_result rp, rq;
                    cluster_init(&cp, &h, &all[p]);
                    cluster_init(&cq, &h, &all[q]);
                    cp.mx_servers = cq.mx_servers = mxS[t];
                    train_eval(&cp, &rp);
                    train_eval(&cq, &rq);
                    PROP(!rp.memoryx_fits || rq.memoryx_fits,
                         "the larger (%.4g params) fits, the smaller (%.4g) not", rp.params,
                         rq.params);
                    PROP(rp.state_bytes > rq.state_bytes, "state not monotone in params");
                }
        }
    }
    finish("capacity");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_props_sweep),
        cmocka_unit_test(test_props_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
