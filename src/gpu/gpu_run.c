/* gpu_run.c - a published GPU run as a job: the recipe table (what each
 * source's software ran that the corpus does not say) and the reading of
 * a row into a workload and a layout.  See gpu_run.h. */
#include "gpu_run.h"

#include "gpu_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../desc/tfm.h"

/* The first year of the modern stack (run_is_legacy). */
#define LEGACY_BEFORE 2023

/* What a source's software ran, by source and recipe: the first entry
 * whose id and model prefixes match the row's (the empty prefix matches
 * all).  Dropout rates of 0 are off: PyTorch's dropout then returns its
 * input and keeps no mask.  master and moments are the optimizer's bytes
 * per parameter (the master copy and Adam's two moments), sharded over dp
 * where the layout shards the optimizer. */
static const struct gpu_recipe {
    const char *id, *model;
    double hidden_dropout, attention_dropout;
    double master, moments; /* bytes per parameter */
} recipes[] = {
    /* Korthikanti et al. 2022 ran Megatron-LM with its defaults (dropout
     * 0.1 and 0.1) and fp32 master weights and moments. */
    {"KOR", "", 0.1, 0.1, 4, 8},
    /* Narayanan et al. 2021 name no rates: Megatron-LM's defaults
     * (--hidden-dropout 0.1, --attention-dropout 0.1), GPT-3's setting;
     * mixed precision with fp32 master weights and moments. */
    {"NAR", "", 0.1, 0.1, 4, 8},
    /* The Megatron-Core r0.8.0 weak-scaling table gives none: Megatron's
     * defaults, 0.1 and 0.1; its distributed optimizer keeps fp32 master
     * weights and moments. */
    {"MCR", "", 0.1, 0.1, 4, 8},
    /* NeMo 24.07, NeMo-Framework-Launcher conf/training: GPT-3 175B's
     * performance recipe is the MLPerf-derived one (NM24-04's note;
     * gpt3/175b_mlperf.yaml: hidden_dropout and attention_dropout 0.0). */
    {"NM24", "GPT3-175B", 0.0, 0.0, 4, 8},
    /* gpt3/5b.yaml: 0.1 and 0.1; gpt3/20b.yaml: hidden_dropout 0.1, no
     * attention_dropout, so NeMo's default 0.1. */
    {"NM24", "GPT3", 0.1, 0.1, 4, 8},
    /* llama/llama2_7b.yaml: hidden_dropout, attention_dropout and
     * ffn_dropout 0.0; assumed the same in the 13B, 70B and Llama 3
     * recipes of the family (not read). */
    {"NM24", "LLAMA", 0.0, 0.0, 4, 8},
    /* nemotron/nemotron_340b.yaml (NeMo-Framework-Launcher, both the
     * distributed_fused_adam and the mcore_distributed_optim versions):
     * dropouts 0.0 and optim.dtype: bf16, the optimizer state's type
     * (Apex DistributedFusedAdam's dtype argument): a bf16 parameter shard
     * and two bf16 moments, 2 + 4 bytes. */
    {"NM24", "Nemotron-340B", 0.0, 0.0, 2, 4},
    /* nemotron/nemotron_22b.yaml: 0.0, 0.0 (and ffn_dropout 0.0),
     * distributed_fused_adam without a dtype (fp32 state); assumed the same
     * in nemotron_8b.yaml (not read). */
    {"NM24", "Nemotron", 0.0, 0.0, 4, 8},
    /* MLPerf Training v3.1 GPT-3: the closed division runs the reference's
     * model, whose mlcommons/training large_language_model/megatron-lm/
     * run_gpt3.sh passes --attention-dropout 0.0 --hidden-dropout 0.0. */
    {"MLP", "", 0.0, 0.0, 4, 8},
    /* Any other source: today's large-model recipes (all the 2024 ones
     * above) train without dropout, with fp32 master weights and moments. */
    {"", "", 0.0, 0.0, 4, 8},
};

static const struct gpu_recipe *recipe_of(const struct gmeas_row *r)
{
    size_t n = sizeof recipes / sizeof recipes[0];
    for (size_t i = 0; i < n - 1; i++)
        if (strncmp(r->id, recipes[i].id, strlen(recipes[i].id)) == 0 &&
            strncmp(r->model, recipes[i].model, strlen(recipes[i].model)) == 0)
            return &recipes[i];
    return &recipes[n - 1];
}

/* The year of a row's date ("2021-04": 2021), 0 when it does not start
 * with one. */
static int row_year(const struct gmeas_row *r)
{
    char *end;
    long y = strtol(r->date, &end, 10);
    return end == r->date + 4 && y > 1900 ? (int)y : 0;
}

/* Runs published before 2023 ran the Megatron-LM (or Megatron-DeepSpeed)
 * of their day: before sequence parallelism and selective recompute were
 * released (Korthikanti et al. 2022, Megatron-LM v3.0 of mid-2022), flash
 * attention (Dao et al. 2022, in Megatron-LM from 2023), the distributed
 * optimizer (late 2022) and the overlap of the gradient reduction and of
 * the tensor-parallel traffic (Megatron-Core, 2023): their gradients were
 * all-reduced after the backward pass.  Narayanan et al. 2021 and Korthikanti et al. 2022 are
 * such runs; a row's columns may say otherwise (Korthikanti's runs with
 * sequence parallelism). */
static int run_is_legacy(const struct gmeas_row *r)
{
    int y = row_year(r);
    return (y > 0 && y < LEGACY_BEFORE) || strstr(r->source, "Narayanan") != NULL ||
           strstr(r->source, "Korthikanti") != NULL;
}

/* The software switches of the row's stack into w, then the row's own
 * columns where it gives them. */
static void run_switches(const struct gmeas_row *r, struct wl_desc *w)
{
    int legacy = run_is_legacy(r);
    w->distributed_optimizer = w->sequence_parallel = w->flash_attention = !legacy;
    w->tp_overlap = !legacy;
    w->fp8_params = 0;
    const struct {
        int v, *to;
    } col[] = {
        {r->sequence_parallel, &w->sequence_parallel},
        {r->flash_attention, &w->flash_attention},
        {r->tp_overlap, &w->tp_overlap},
        {r->distributed_optimizer, &w->distributed_optimizer},
        {r->fp8_params, &w->fp8_params},
    };
    for (size_t i = 0; i < sizeof col / sizeof col[0]; i++)
        if (col[i].v >= 0)
            *col[i].to = col[i].v;
    if (r->optimizer_precision >= 0) {
        int bf16 = r->optimizer_precision == WL_OPT_BF16;
        w->master_bytes = bf16 ? 2 : 4;
        w->optimizer_bytes = bf16 ? 4 : 8;
    }
}

/* The corpus does not say whether the FFN is gated: the count whose
 * parameters come nearer the published figure is taken (Llama 2 7B: 6.7e9
 * gated, 5.3e9 not).  Gated models are Llama-style (no biases, RMSNorm,
 * rotary); the others GPT-style.  Untied embeddings (the Megatron-Core
 * notes say so; the rest are near enough). */
void gpu_run_workload(const struct gmeas_row *r, struct wl_desc *w)
{
    const struct gpu_recipe *rc = recipe_of(r);
    *w = (struct wl_desc){.layers = r->layers,
                          .hidden = r->hidden,
                          .heads = r->heads,
                          .kv_heads = isnan(r->kv_heads) ? r->heads : r->kv_heads,
                          .ffn = isnan(r->ffn) ? 4 * r->hidden : r->ffn,
                          .seq_len = r->seq_len,
                          .vocab = isnan(r->vocab) ? GPU_RUN_VOCAB_GPT3 : r->vocab,
                          .predictions = r->seq_len,
                          .batch = r->batch_seqs,
                          .bias = 1,
                          .dropout = rc->hidden_dropout > 0,
                          .attention_dropout = rc->attention_dropout > 0,
                          .weight_bytes = 2,
                          .grad_bytes = 2,
                          .master_bytes = rc->master,
                          .optimizer_bytes = rc->moments,
                          .act_bytes = 2};
    double plain = tfm_params(w);
    w->gated_ffn = 1;
    double gated = tfm_params(w);
    w->gated_ffn = !isnan(r->params) && fabs(gated - r->params) < fabs(plain - r->params);
    run_switches(r, w);
    if (w->gated_ffn) {
        w->bias = 0;
        w->norm = WL_RMSNORM;
        w->positions = WL_POS_ROTARY;
    }
}

/* The least recompute whose memory fits among those a framework can run,
 * in this order: none, selective, then block recompute of k = vp, 2 vp,
 * ... of a stage's L / pp layers, and full when no such k < L / pp fits.
 * NeMo's activations_checkpoint_num_layers and Megatron-Core's
 * recompute_num_layers count layers per model chunk, and a stage holds vp
 * chunks, so a stage recomputes a multiple of vp (with one layer per
 * chunk, only none or full). */
static void least_recompute(const struct gpuhw_desc *g, const struct wl_desc *w,
                            struct gpu_layout *l)
{
    struct gpu_result res;
    for (l->recompute = GPU_RC_NONE; l->recompute < GPU_RC_FULL; l->recompute++) {
        gpu_memory(g, w, l, &res);
        if (res.fits)
            return;
    }
    /* block of j vp layers, j = 1 .. n: memory falls as j grows, so the
     * least j that fits is found by bisection (n + 1: none fits) */
    double n = gpu_stage_layers(w, l) / l->vp - 1, lo = 1, hi = n + 1;
    l->recompute = GPU_RC_BLOCK;
    while (lo < hi) {
        double mid = floor((lo + hi) / 2);
        l->recompute_layers = mid * l->vp;
        gpu_memory(g, w, l, &res);
        if (res.fits)
            hi = mid;
        else
            lo = mid + 1;
    }
    l->recompute_layers = lo * l->vp;
    if (lo > n) {
        l->recompute = GPU_RC_FULL;
        l->recompute_layers = 0;
    }
}

/* Where the corpus says "unknown": micro-batch 1 (Narayanan et al. used 1
 * for their large runs, and Megatron-Core's benchmark scripts default to
 * it); interleaving one layer per chunk (vp = layers / pp), as in most
 * runs that publish it (MLPerf VP=12 with 12 layers per GPU; NeMo Llama 2
 * 13B and 70B, Nemotron 22B and 340B; Narayanan et al. 2021 sec. 5.1 use
 * the interleaved schedule without giving v); the least recompute. */
struct gpu_layout gpu_run_layout(const struct gpuhw_desc *g, const struct wl_desc *w,
                                 const struct gmeas_row *r)
{
    struct gpu_layout l = gpu_layout_default(r->tp, r->pp, r->dp, 1);
    gpu_layout_switches(&l, w);
    l.overlap_grad = w->tp_overlap; /* the same stack overlaps both */
    l.fsdp = r->fsdp > 0;
    l.cp = r->cp;
    if (!isnan(r->micro_batch))
        l.mbs = r->micro_batch;
    int interleave = r->pp > 1 && w->batch / (r->dp * l.mbs) >= r->pp;
    l.vp = !isnan(r->vp) ? r->vp : interleave ? gpu_stage_layers(w, &l) : 1;
    l.precision = (enum gpuhw_prec)r->precision;
    if (r->recompute != GMEAS_RC_UNKNOWN)
        l.recompute = (enum gpu_recompute)r->recompute;
    else
        least_recompute(g, w, &l);
    return l;
}

cp_status gpu_run_eval(const struct gpuhw_desc *g, const struct gmeas_row *r,
                       struct gpu_result *res, struct cp_error *err)
{
    struct wl_desc w;
    gpu_run_workload(r, &w);
    struct gpu_layout l = gpu_run_layout(g, &w, r);
    cp_status st = gpu_check(g, &w, &l, err);
    if (st != CP_OK)
        return st;
    gpu_eval(g, &w, &l, res);
    return CP_OK;
}
