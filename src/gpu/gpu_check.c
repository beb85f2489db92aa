/* gpu_check.c - whether a layout can run a job on a GPU system (gpu.h):
 * each refusal names the figure that does not divide or fit. */
#include <math.h>

#include "gpu_int.h"

static int whole(double v)
{
    return v >= 1 && v == floor(v) && v <= 0x1p53;
}

/* a divides b, both whole */
static int divides(double a, double b)
{
    return fmod(b, a) == 0;
}

static cp_status counts_check(const struct gpu_layout *l, struct cp_error *err)
{
    static const struct {
        const char *name;
        size_t off;
    } fig[] = {
        {"tp", offsetof(struct gpu_layout, tp)},   {"pp", offsetof(struct gpu_layout, pp)},
        {"dp", offsetof(struct gpu_layout, dp)},   {"cp", offsetof(struct gpu_layout, cp)},
        {"mbs", offsetof(struct gpu_layout, mbs)}, {"vp", offsetof(struct gpu_layout, vp)},
    };
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
        double v = *(const double *)((const char *)l + fig[i].off);
        if (!whole(v))
            return cp_fail(err, CP_EINPUT, "%s = %g is not a whole number, at least 1", fig[i].name,
                           v);
    }
    return CP_OK;
}

/* A tp wider than the NVLink domain is allowed: its group runs at the
 * scale-out rate (gpu.h). */
static cp_status tp_check(const struct wl_desc *w, double tp, struct cp_error *err)
{
    if (!divides(tp, w->heads))
        return cp_fail(err, CP_EINPUT, "tp = %.0f does not divide the %.0f attention heads", tp,
                       w->heads);
    if (!divides(tp, w->kv_heads) && !divides(w->kv_heads, tp))
        return cp_fail(err, CP_EINPUT,
                       "tp = %.0f and the %.0f key/value heads do not divide one another", tp,
                       w->kv_heads);
    return CP_OK;
}

static cp_status pp_check(const struct wl_desc *w, const struct gpu_layout *l, struct cp_error *err)
{
    if (l->pp > w->layers)
        return cp_fail(err, CP_EINPUT, "pp = %.0f stages exceed the %.0f layers", l->pp,
                       w->layers);
    if (l->vp > 1 && l->pp == 1)
        return cp_fail(err, CP_EINPUT, "vp = %.0f interleaves a pipeline, but pp = 1", l->vp);
    if (!divides(l->vp, gpu_stage_layers(w, l)))
        return cp_fail(err, CP_EINPUT, "vp = %.0f does not divide the %.0f layers of a stage",
                       l->vp, gpu_stage_layers(w, l));
    return CP_OK;
}

/* Block recompute of a whole number of a stage's layers, 0 to all. */
static cp_status recompute_check(const struct wl_desc *w, const struct gpu_layout *l,
                                 struct cp_error *err)
{
    if ((int)l->recompute < 0 || (int)l->recompute >= GPU_NRECOMPUTES)
        return cp_fail(err, CP_EINPUT, "recompute = %d is not one of none, selective, full, block",
                       (int)l->recompute);
    double k = l->recompute_layers, stage = gpu_stage_layers(w, l);
    if (l->recompute == GPU_RC_BLOCK && !(k >= 0 && k <= stage && k == floor(k)))
        return cp_fail(err, CP_EINPUT,
                       "recompute_layers = %g is not a whole number from 0 to the %.0f layers "
                       "of a stage",
                       k, stage);
    return CP_OK;
}

cp_status gpu_check(const struct gpuhw_desc *g, const struct wl_desc *w, const struct gpu_layout *l,
                    struct cp_error *err)
{
    if (counts_check(l, err) != CP_OK || tp_check(w, l->tp, err) != CP_OK ||
        pp_check(w, l, err) != CP_OK || recompute_check(w, l, err) != CP_OK)
        return CP_EINPUT;
    /* ring attention splits each sequence into 2 cp chunks (Megatron's
     * load balancing) */
    if (l->cp > 1 && !divides(2 * l->cp, w->seq_len))
        return cp_fail(err, CP_EINPUT,
                       "cp = %.0f: 2 cp does not divide the sequence of %.0f tokens (ring "
                       "attention splits it into 2 cp chunks)",
                       l->cp, w->seq_len);
    if (!divides(l->dp * l->mbs, w->batch))
        return cp_fail(err, CP_EINPUT,
                       "dp x mbs = %.0f x %.0f does not divide the global batch of %.0f "
                       "sequences",
                       l->dp, l->mbs, w->batch);
    /* Megatron's interleaved schedule runs only with at least pp
     * micro-batches (it fills the pipeline with the first chunk of pp of
     * them); the bubble (pp-1)/(m vp) of gpu.h holds only there. */
    double m = w->batch / (l->dp * l->mbs);
    if (l->vp > 1 && m < l->pp)
        return cp_fail(err, CP_EINPUT,
                       "vp = %.0f interleaving needs at least pp = %.0f micro-batches; the "
                       "global batch of %.0f over dp x mbs = %.0f x %.0f gives %.0f",
                       l->vp, l->pp, w->batch, l->dp, l->mbs, m);
    if (!(g->chip.peak_flops[l->precision] > 0))
        return cp_fail(err, CP_EINPUT, "%s has no %s tensor cores (gpu.peak_%s = 0)", g->name,
                       gpuhw_prec_name[l->precision], gpuhw_prec_name[l->precision]);
    return CP_OK;
}
