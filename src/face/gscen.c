/* gscen.c - the scenario options on a GPU system.  See gscen.h. */
#include "gscen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../desc/tfm.h"
#include "../cli/scenario.h"

/* The options that describe a weight-streaming cluster only. */
static int refuse_ws_options(const struct cli_opts *o, const char *cmd, const char *system)
{
#define MX "MemoryX holds a weight-streaming cluster's weights; a GPU holds them in HBM"
#define ACT                                                                                        \
    "activation servers and their placement are a wafer's; the GPU search picks the recompute"
    const struct {
        const char *flag, *value, *why;
    } ws[] = {
        {"--memoryx", o->memoryx, MX},
        {"--memoryx-servers", o->mx_servers, MX},
        {"--act-servers", o->act_servers, ACT},
        {"--activations", o->activations, ACT},
        {"--sparsity", o->sparsity, "the GPU model runs dense matmuls"},
        {"--overlap", o->overlap, "it is the overlap of MemoryX's weight update"},
        {"--hw-overlay", o->noverlays ? "" : NULL,
         "overlays hold weight-streaming hardware keys, as calibrate writes them"},
    };
#undef MX
#undef ACT
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        if (ws[i].value)
            return cli_error("%s: %s applies to weight-streaming systems (%s); %s is a GPU system "
                             "(kind = gpu)",
                             cmd, ws[i].flag, ws[i].why, system);
    return -1;
}

/* --precision: a name of gpuhw_prec_name the GPU has a peak for. */
static int load_precision(const struct cli_opts *o, struct gscen *s)
{
    if (!o->precision)
        return -1;
    for (int p = 0; p < GPUHW_NPRECS; p++)
        if (strcmp(o->precision, gpuhw_prec_name[p]) == 0) {
            if (!(s->g.chip.peak_flops[p] > 0))
                return cli_error("--precision %s: %s has no %s tensor rate (gpu.peak_%s is 0)",
                                 o->precision, s->system, o->precision, o->precision);
            s->spec.precision = (enum gpuhw_prec)p;
            return -1;
        }
    return cli_error("--precision '%s': must be bf16, fp8 or fp4", o->precision);
}

/* The workload's recompute, fixed in the search only when --set gives it
 * (a model file's recompute is the weight-streaming model's setting; on
 * GPUs the search takes the least that fits). */
static void load_recompute(const struct cli_opts *o, struct gscen *s)
{
    static const int to_gpu[] = {[WL_RC_NONE] = GPU_RC_NONE,
                                 [WL_RC_FULL] = GPU_RC_FULL,
                                 [WL_RC_SELECTIVE] = GPU_RC_SELECTIVE};
    for (size_t i = 0; i < o->nsets; i++)
        if (strncmp(o->sets[i], "model.recompute=", 16) == 0)
            s->spec.recompute = to_gpu[s->wl.recompute];
}

/* -n and the fixed figures; -1 or an exit code. */
static int load_figures(const struct cli_opts *o, struct gscen *s)
{
    int rc;
    double n = s->g.net.gpus_per_node; /* one node unless -n */
    if ((rc = scenario_whole_opt("-n", o->nsys, 1, GSCEN_MAX_GPUS, &n)) >= 0 ||
        (rc = scenario_whole_opt("--tp", o->tp, 1, GSCEN_MAX_GPUS, &s->spec.tp)) >= 0 ||
        (rc = scenario_whole_opt("--pp", o->pp, 1, GSCEN_MAX_GPUS, &s->spec.pp)) >= 0 ||
        (rc = scenario_whole_opt("--cp", o->cp, 1, GSCEN_MAX_GPUS, &s->spec.cp)) >= 0 ||
        (rc = scenario_whole_opt("--vp", o->vp, 1, GSCEN_MAX_GPUS, &s->spec.vp)) >= 0 ||
        (rc = scenario_whole_opt("--mbs", o->mbs, 1, 1e9, &s->spec.mbs)) >= 0)
        return rc;
    if (o->fsdp)
        s->spec.fsdp = 1;
    s->spec.gpus = n;
    return -1;
}

/* The layout of p's fixed figures, 1 for the free ones (vp 1 unless pp is
 * fixed: a free pp may be one vp divides). */
static struct gpu_layout fixed_layout(const struct gpu_search_spec *p)
{
    struct gpu_layout t = p->options;
    t.tp = t.pp = t.dp = t.cp = t.mbs = t.vp = 1;
    t.precision = p->precision;
    t.recompute = GPU_RC_NONE;
    t.recompute_layers = 0;
    t.fsdp = 0; /* FSDP depends on dp, not known here */
    return t;
}

int gscen_fixed_check(const struct gpu_search_spec *p, const struct wl_desc *w,
                      const struct gpuhw_desc *g)
{
    struct gpu_layout t = fixed_layout(p);
    struct cp_error err = {0};
    if (p->cp != GPU_SEARCH_FREE) {
        t.cp = p->cp;
        if (gpu_check(g, w, &t, &err) != CP_OK)
            return cli_error("--cp %g on %s: %s", p->cp, w->name, err.msg);
    }
    if (p->vp == GPU_SEARCH_FREE || p->pp == GPU_SEARCH_FREE)
        return -1;
    t.pp = p->pp;
    if (gpu_check(g, w, &t, &err) != CP_OK)
        return -1; /* --pp's own refusal, named where it is checked */
    t.vp = p->vp;
    if (gpu_check(g, w, &t, &err) != CP_OK)
        return cli_error("--vp %g with --pp %g on %s: %s", p->vp, p->pp, w->name, err.msg);
    return -1;
}

static int load_descriptions(const struct cli_opts *o, struct gscen *s)
{
    const char *wsets[CLI_MAX_SETS], *hsets[CLI_MAX_SETS];
    size_t nw, nh;
    scenario_split_sets(o, wsets, &nw, hsets, &nh);
    int rc = scenario_load_wl(o, o->model ? o->model : SCENARIO_DEFAULT_MODEL, wsets, nw, &s->wl,
                              &s->wl_src, s->model);
    struct cat_entry e;
    if (rc >= 0 || (rc = scenario_resolve_hw(o, o->system, &e)) >= 0)
        return rc;
    struct cp_error err = {0};
    if (gpuhw_load(e.text, e.origin, hsets, nh, &s->g, &s->g_src, &err) != CP_OK)
        rc = cli_error("%s", err.msg);
    snprintf(s->system, sizeof s->system, "%s", e.name);
    cat_entry_free(&e);
    return rc;
}

int gscen_load(const struct cli_opts *o, const char *cmd, struct gscen *s)
{
    int rc;
    memset(s, 0, sizeof *s);
    s->spec = gpu_search_spec_default(1);
    s->price = NAN;
    if ((rc = refuse_ws_options(o, cmd, o->system)) >= 0 || (rc = load_descriptions(o, s)) >= 0 ||
        (rc = load_figures(o, s)) >= 0 || (rc = load_precision(o, s)) >= 0)
        return rc;
    load_recompute(o, s);
    s->spec.batch = s->ref_batch = s->wl.batch;
    s->batch_penalty = o->batch_penalty;
    s->tokens = tfm_tokens(&s->wl);
    if ((rc = scenario_batch(o, s->wl.seq_len, &s->spec.batch)) >= 0 ||
        (rc = scenario_tokens(o, tfm_params(&s->wl), &s->tokens)) >= 0 ||
        (rc = scenario_price("--price", o->price, &s->price)) >= 0)
        return rc;
    s->wl.batch = s->spec.batch;
    struct cp_error err = {0};
    if (gpu_range_check(&s->g, &s->wl, s->spec.gpus, GSCEN_MAX_GPUS, s->tokens, s->price, &err) !=
        CP_OK)
        return cli_error("%s", err.msg);
    return -1;
}

double gscen_nodes(const struct gscen *s)
{
    return ceil(s->spec.gpus / s->g.net.gpus_per_node);
}

double gscen_power_W(const struct gscen *s)
{
    return gscen_nodes(s) * s->g.net.node_power_W;
}

double gscen_tokens(const struct gscen *s, double batch, double *critical)
{
    double seq = s->wl.seq_len;
    return gpu_train_tokens(&s->g, &s->wl, s->tokens, batch * seq, s->ref_batch * seq,
                            s->batch_penalty, critical);
}

double gscen_steps(const struct gscen *s, double batch)
{
    double critical;
    return gpu_train_steps(gscen_tokens(s, batch, &critical), batch, s->wl.seq_len);
}

double gscen_charged_gpus(const struct gpuhw_desc *g, double gpus)
{
    return ceil(gpus / g->net.gpus_per_node) * g->net.gpus_per_node;
}
