/* gpu_train.c - a training run on GPUs to its end (gpu.h): the whole
 * steps, time, power, energy, GPU-hours and cost of a layout's step, and
 * the finiteness gate (base/finite.h) over them and the step's figures,
 * before a search (gpu_range_check) and after it (gpu_figures_check). */
#include <math.h>
#include <stdio.h>

#include "../base/finite.h"
#include "../base/units.h"
#include "../desc/tfm.h"
#include "gpu_int.h"

/* Where the step's figures come from, for the gate's hint. */
#define STEP_KEYS "the [gpu], [network] and [fit] keys"
#define LINK_KEYS                                                                                  \
    "network.nvlink_bandwidth, network.scaleout_bandwidth, network.link_latency or "               \
    "fit.comm_efficiency"

/* The keys each part of the step comes from (gpu.h states the model). */
static const char *const part_keys[GPU_NPARTS] = {
    [GPU_MATMUL] = "gpu.peak_bf16 (or the precision's peak), fit.matmul_efficiency, "
                   "fit.attention_efficiency, fit.lowp_efficiency or fit.fp4_efficiency",
    [GPU_ELEMENTWISE] = "gpu.hbm_bandwidth, fit.elementwise_bytes, fit.score_bytes or "
                        "fit.score_dropout_bytes",
    [GPU_TP_COMM] = LINK_KEYS,
    [GPU_PP_COMM] = LINK_KEYS,
    [GPU_BUBBLE] = STEP_KEYS,
    [GPU_DP_COMM] = LINK_KEYS,
    [GPU_OPTIMIZER] = "gpu.hbm_bandwidth or fit.optimizer_bytes",
    [GPU_OVERHEAD] = "fit.kernels_per_layer, fit.kernel_overhead or fit.step_overhead",
};

double gpu_train_tokens(const struct gpuhw_desc *g, const struct wl_desc *w, double tokens,
                        double batch_tokens, double ref_tokens, int penalty, double *critical)
{
    *critical = batch_critical_tokens(&g->batch, batch_loss(&g->batch, tfm_params(w)));
    return penalty ? tokens * batch_token_factor(batch_tokens, ref_tokens, *critical) : tokens;
}

double gpu_train_steps(double tokens, double batch, double seq_len)
{
    return ceil(tokens / (batch * seq_len));
}

double gpu_state_bytes(const struct wl_desc *w)
{
    return tfm_params(w) * (w->weight_bytes + w->master_bytes + w->optimizer_bytes);
}

double gpu_switches(double n, double k)
{
    if (!(k >= 4) || !(n > 0))
        return 0;
    if (n <= k)
        return 1;
    double levels = 1;
    while (2 * pow(k / 2, levels) < n)
        levels++;
    return ceil((2 * levels - 1) * n / k);
}

void gpu_train_eval(const struct gpuhw_desc *g, double gpus, double steps, double price,
                    double state_bytes, const struct gpu_result *r, struct gpu_train *t)
{
    t->steps = steps;
    t->time_ff_s = steps * r->step_s;
    t->nodes = ceil(gpus / g->net.gpus_per_node);
    t->power_W = t->nodes * g->net.node_power_W;
    double ports = t->nodes * g->net.gpus_per_node; /* one port a GPU of the nodes */
    t->nbom = GPU_NBOM;
    t->bom[0] = (struct bom_line){"nodes", t->nodes, g->net.node_power_W, g->rel.node_mtbf_s,
                                  g->price.node};
    /* switches: their power is not counted (system.node_power is the nodes') */
    t->bom[1] = (struct bom_line){"switches", gpu_switches(ports, g->price.switch_ports), 0, 0,
                                  g->price.switch_price};
    t->ckpt_bytes = state_bytes;
    double bw = site_ckpt_Bps(&g->site, t->nodes * g->rel.node_ckpt_Bps);
    double io_s = bw > 0 ? state_bytes / bw : 0;
    gp_eval(t->time_ff_s, cost_failure_rate(t->bom, t->nbom), io_s, io_s + g->site.restart_s,
            &t->gp);
    t->time_s = t->gp.finishes ? t->gp.wall_s : t->time_ff_s;
    t->energy_J = t->power_W * t->time_s;
    t->gpu_hours = ports * t->time_s / UNIT_HOUR_S;
    cost_eval(t->bom, t->nbom, t->time_s, t->energy_J, &g->site, ports, price, &t->costs);
    t->cost = t->costs.total;
}

/* The parts as the gate names them (gpu_part_name's order). */
static const char *const part_name[GPU_NPARTS] = {
    "matmul time", "elementwise time", "tp-comm time",   "pp-comm time",
    "bubble time", "dp-comm time",     "optimizer time", "overhead time"};

/* Room for every figure of a step and a run. */
enum { GPU_NFIGS = GPU_NPARTS + 24 };

/* Room for the inputs of a figure of the run. */
enum { RUN_KEYS_MAX = 320 };

/* The figures of r and t (t may be NULL) with their inputs into f, the
 * bubble after the parts it comes from; their count.  The figures of the
 * run name the keys of the step's largest part, in keys. */
static size_t figures(const struct gpu_result *r, const struct gpu_train *t, struct finite_fig *f,
                      char keys[3][RUN_KEYS_MAX])
{
    size_t n = 0;
    for (int p = 0; p < GPU_NPARTS; p++)
        if (p != GPU_BUBBLE)
            f[n++] = (struct finite_fig){part_name[p], r->part_s[p], part_keys[p]};
    f[n++] = (struct finite_fig){part_name[GPU_BUBBLE], r->part_s[GPU_BUBBLE], STEP_KEYS};
    const struct finite_fig step[] = {
        {"step time", r->step_s, STEP_KEYS},
        {"micro-batch time", r->micro_s, STEP_KEYS},
        {"tokens per second", r->tokens_per_s, STEP_KEYS},
        {"MFU", r->mfu, STEP_KEYS},
        {"micro-batches", r->micro_batches, "--batch"},
        {"bubble", r->bubble, "--batch"},
        {"model FLOP", r->model_flops, "the model keys"},
        {"weight memory", r->mem_weights, "the model keys"},
        {"gradient memory", r->mem_grads, "the model keys"},
        {"optimizer memory", r->mem_optimizer, "the model keys"},
        {"activation memory", r->mem_act, "the model keys"},
        {"memory per GPU", r->mem_total, "the model keys"},
        {"usable memory", r->mem_capacity, "gpu.hbm or fit.hbm_usable"},
        {"parameters of a stage", r->stage_params, "the model keys"},
    };
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++)
        f[n++] = step[i];
    if (!t)
        return n;
    /* the step's largest part says which keys made the run too long */
    static const char *const first[3] = {"", "system.node_power, ", "--price (--gpu-price), "};
    for (int i = 0; i < 3; i++)
        snprintf(keys[i], RUN_KEYS_MAX, "%s--tokens or the keys of the step's largest part, %s: %s",
                 first[i], gpu_part_name[r->bottleneck], part_keys[r->bottleneck]);
    const struct finite_fig run[] = {
        {"number of steps", t->steps, "--tokens (model.tokens) or --batch"},
        {"time to train", t->time_s, keys[0]},
        {"power", t->power_W, "system.node_power"},
        {"energy", t->energy_J, keys[1]},
        {"GPU-hours", t->gpu_hours, keys[0]},
        {"cost", t->cost, keys[2]},
        {"checkpoint time", t->gp.ckpt_s,
         "reliability.node_checkpoint_bandwidth or reliability.storage_bandwidth"},
    };
    for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
        f[n++] = run[i];
    return n;
}

cp_status gpu_figures_check(const struct gpu_result *r, const struct gpu_train *t, const char *at,
                            struct cp_error *err)
{
    struct finite_fig f[GPU_NFIGS];
    char keys[3][RUN_KEYS_MAX];
    return finite_check(f, figures(r, t, f, keys), at, err);
}

/* The probe layouts of n GPUs: each puts one kind of traffic at the
 * largest a search may give it (dp and FSDP over all n GPUs; tp over at
 * most the heads, pp the layers, cp half the sequence, dp over the rest),
 * with one sequence a micro-batch (the most micro-batches); into l, their
 * count.  A probe wider than any layout could be would refuse a run for a
 * figure no layout reaches, and blame the wrong keys. */
static size_t probes(const struct wl_desc *w, double n, const struct gpu_layout *base,
                     struct gpu_layout *l)
{
    size_t k = 0;
    double tp = fmin(n, w->heads), pp = fmin(n, w->layers), cp = fmax(1, fmin(n, w->seq_len / 2));
    l[k] = *base, l[k].dp = n, k++;
    l[k] = *base, l[k].dp = n, l[k].fsdp = n > 1, k++;
    l[k] = *base, l[k].tp = tp, l[k].dp = n / tp, k++;
    l[k] = *base, l[k].pp = pp, l[k].dp = n / pp, k++;
    l[k] = *base, l[k].cp = cp, l[k].dp = n / cp, k++;
    return k;
}

/* The probes of gpus GPUs in precision p into r and t; the gate's status. */
static cp_status probe(const struct gpuhw_desc *g, const struct wl_desc *w, enum gpuhw_prec p,
                       double gpus, double steps, double price, const char *at,
                       struct cp_error *err)
{
    struct gpu_layout base = gpu_layout_default(1, 1, 1, 1), l[5];
    gpu_layout_switches(&base, w);
    base.precision = p;
    size_t np = probes(w, gpus, &base, l);
    for (size_t j = 0; j < 2 * np; j++) {
        struct gpu_layout x = l[j / 2];
        x.recompute = j % 2 ? GPU_RC_FULL : GPU_RC_NONE; /* most passes, most memory */
        struct gpu_result r;
        struct gpu_train t;
        gpu_eval(g, w, &x, &r);
        gpu_train_eval(g, gpus, steps, price, gpu_state_bytes(w), &r, &t);
        if (gpu_figures_check(&r, &t, at, err) != CP_OK)
            return CP_EINPUT;
    }
    return CP_OK;
}

cp_status gpu_range_check(const struct gpuhw_desc *g, const struct wl_desc *w, double gpus,
                          double max_gpus, double tokens, double price, struct cp_error *err)
{
    const double ns[] = {gpus, 1, max_gpus};
    double steps = gpu_train_steps(tokens, w->batch, w->seq_len);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        char at[64] = "";
        if (i == 0) /* the ends a scan may reach are not named: nobody asked for them */
            snprintf(at, sizeof at, " at %.0f GPU%s", ns[i], ns[i] == 1 ? "" : "s");
        for (int p = 0; p < GPUHW_NPRECS; p++)
            if (g->chip.peak_flops[p] > 0 &&
                probe(g, w, (enum gpuhw_prec)p, ns[i], steps, price, at, err) != CP_OK)
                return CP_EINPUT;
    }
    return CP_OK;
}
