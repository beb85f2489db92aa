/* claim_gpu.c - the claims that compare with GPUs, judged (claim_gpu.h):
 * chip figures from the two descriptions, jobs through compare's core. */
#include "claim_gpu.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/finite.h"
#include "../base/units.h"
#include "../base/xalloc.h"
#include "../plan/cmp.h"

_Static_assert((long)CLAIM_MAX_GPUS == (long)CMP_GPU_MAX, "claim.h's bound on GPUs is compare's");

/* ---- words and numbers ---- */

/* A ratio for people: "53.3x", "6269x", "29722x". */
static char *ratio_text(double x, char *buf, size_t n)
{
    snprintf(buf, n, x < 99.95 ? "%.3gx" : "%.0fx", x);
    return buf;
}

/* A fraction as a percentage: "0.75%", "33.3%", "1910%". */
static char *pct(double f, char *buf, size_t n)
{
    snprintf(buf, n, f < 0.0995 ? "%.2g%%" : f < 9.995 ? "%.3g%%" : "%.0f%%", 100 * f);
    return buf;
}

static char *dur(double s, char *buf, size_t n)
{
    return unit_format_duration(s, buf, n);
}

/* Append to buf (n bytes) what fmt says; a reason cut short is acceptable. */
static void add(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

/* "tp 8 pp 4 dp 32 mbs 1 vp 2, selective recompute" or "..., no
 * recompute" (cp when above 1,
 * ", FSDP" with FSDP) */
static char *layout_text(const struct gpu_layout *l, char *buf, size_t n)
{
    char cp[32] = "";
    if (l->cp > 1)
        snprintf(cp, sizeof cp, " cp %g", l->cp);
    char rc[64];
    snprintf(buf, n, "tp %g pp %g dp %g%s mbs %g vp %g, %s%s", l->tp, l->pp, l->dp, cp, l->mbs,
             l->vp, gpu_recompute_text(l, rc, sizeof rc), l->fsdp ? ", FSDP" : "");
    return buf;
}

/* ---- ratio ---- */

/* One side's figure of a ratio: its value (SI; mm2 for an area), its
 * dimension and the key it comes from. */
struct fig {
    double v;
    unit_dim dim;
    const char *key;
};

/* "46225 mm2", "900000 cores", "21 PB/s" */
static char *fig_text(const struct fig *f, enum claim_figure which, char *buf, size_t n)
{
    unit_format(f->v, f->dim, buf, n);
    if (which == CLAIM_FIG_DIE_AREA)
        add(buf, n, " mm2");
    else if (which == CLAIM_FIG_CORES)
        add(buf, n, " cores");
    return buf;
}

/* The bytes of the claim's MemoryX tier: a tier of hw by name, or a size. */
static cp_status tier_bytes(const struct claim_in *in, double *v, struct cp_error *err)
{
    const struct desc_list *t = &in->hw->mx.tiers;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->item[i].name, in->cl->memoryx) == 0) {
            *v = t->item[i].value;
            return CP_OK;
        }
    char why[160];
    if (unit_parse(in->cl->memoryx, UNIT_BYTES, v, why, sizeof why) == 0 && *v > 0)
        return CP_OK;
    return cp_fail(err, CP_EINPUT,
                   "memoryx '%s': a memoryx ratio needs a tier of %s or a size (e.g. 55 TB)",
                   in->cl->memoryx, in->hw->wse.name);
}

/* The weight-streaming side of a ratio claim. */
static cp_status ws_fig(const struct claim_in *in, struct fig *f, struct cp_error *err)
{
    const struct hw_desc *hw = in->hw;
    switch (in->cl->figure) {
    case CLAIM_FIG_CORES:
        *f = (struct fig){hw->chip.cores, UNIT_COUNT, "[chip] cores"};
        break;
    case CLAIM_FIG_ON_CHIP_MEMORY:
        *f = (struct fig){hw->wse.sram_bytes, UNIT_BYTES, "[system] sram"};
        break;
    case CLAIM_FIG_MEMORY_BANDWIDTH:
        *f = (struct fig){hw->chip.mem_bw_Bps, UNIT_BYTE_RATE, "[chip] memory_bandwidth"};
        break;
    case CLAIM_FIG_FABRIC_BANDWIDTH:
        *f = (struct fig){hw->chip.fabric_Bps, UNIT_BYTE_RATE, "[chip] fabric_bandwidth"};
        break;
    case CLAIM_FIG_DIE_AREA:
        *f = (struct fig){hw->chip.die_area_mm2, UNIT_COUNT, "[chip] die_area_mm2"};
        break;
    default:
        *f = (struct fig){0, UNIT_BYTES, "memoryx"};
        return tier_bytes(in, &f->v, err);
    }
    if (!(f->v > 0))
        return cp_fail(err, CP_EINPUT, "%s: %s is not given; a %s ratio needs it", hw->wse.name,
                       f->key, claim_figure_name[in->cl->figure]);
    return CP_OK;
}

/* The GPU side of a ratio claim: 0 when g does not give it. */
static struct fig gpu_fig(const struct gpuhw_desc *g, enum claim_figure which)
{
    switch (which) {
    case CLAIM_FIG_CORES:
        return (struct fig){g->chip.cores, UNIT_COUNT, "[gpu] cores"};
    case CLAIM_FIG_ON_CHIP_MEMORY:
        return (struct fig){g->chip.l2_bytes, UNIT_BYTES, "[gpu] l2_cache"};
    case CLAIM_FIG_MEMORY_BANDWIDTH:
        return (struct fig){g->chip.hbm_Bps, UNIT_BYTE_RATE, "[gpu] hbm_bandwidth"};
    case CLAIM_FIG_FABRIC_BANDWIDTH: /* NVLink, both directions */
        return (struct fig){2 * g->net.nvlink_Bps, UNIT_BYTE_RATE,
                            "[network] nvlink_bandwidth, both directions"};
    case CLAIM_FIG_DIE_AREA:
        return (struct fig){g->chip.die_area_mm2, UNIT_COUNT, "[gpu] die_area_mm2"};
    default:
        return (struct fig){g->chip.hbm_bytes, UNIT_BYTES, "[gpu] hbm"};
    }
}

/* The ratio: a quotient, or for memoryx the whole GPUs the tier takes. */
static double ratio_of(enum claim_figure which, double ws, double gpu)
{
    return which == CLAIM_FIG_MEMORYX ? ceil(ws / gpu) : ws / gpu;
}

static int ratio_holds(double x, double target)
{
    return x >= target * (1 - CLAIM_GPU_TOL);
}

/* The other GPUs against which the claim's ratio holds, into buf. */
static int ratio_others(const struct claim_in *in, double ws, char *buf, size_t n)
{
    enum claim_figure which = in->cl->figure;
    int found = 0;
    for (size_t i = 0; i < in->nothers; i++) {
        const struct gpuhw_desc *o = &in->others[i];
        struct fig f = gpu_fig(o, which);
        if (!(f.v > 0) || strcmp(o->name, in->gpu->name) == 0)
            continue;
        double x = ratio_of(which, ws, f.v);
        if (!isfinite(x) || !ratio_holds(x, in->cl->target))
            continue;
        char a[48], b[32];
        add(buf, n, "%s %s (%s, %s)", found++ ? "," : "; holds against", o->name,
            fig_text(&f, which, a, sizeof a), ratio_text(x, b, sizeof b));
    }
    return found;
}

cp_status claim_gpu_ratio(const struct claim_in *in, struct claim_result *o, struct cp_error *err)
{
    const struct claim *cl = in->cl;
    struct fig w, g = gpu_fig(in->gpu, cl->figure);
    if (ws_fig(in, &w, err) != CP_OK)
        return CP_EINPUT;
    if (!(g.v > 0))
        return cp_fail(err, CP_EINPUT, "%s: %s is not given; a %s ratio needs it", in->gpu->name,
                       g.key, claim_figure_name[cl->figure]);
    double x = ratio_of(cl->figure, w.v, g.v);
    /* the finiteness gate (base/finite.h): 44 GB over an L2 of 1e-300 B */
    char keys[2 * DESC_TEXT_MAX + 64];
    snprintf(keys, sizeof keys, "%s's %s or %s's %s", in->gpu->name, g.key, in->hw->wse.name,
             w.key);
    char name[3][64];
    snprintf(name[0], sizeof name[0], "%s ratio", claim_figure_name[cl->figure]);
    snprintf(name[1], sizeof name[1], "GPU figure the %s claim needs",
             claim_figure_name[cl->figure]);
    snprintf(name[2], sizeof name[2], "wafer figure the %s claim needs",
             claim_figure_name[cl->figure]);
    const struct finite_fig fig[] = {{"GPU figure", g.v, keys},
                                     {name[0], x, keys},
                                     {name[1], w.v / cl->target, keys},
                                     {name[2], g.v * cl->target, keys}};
    if (finite_check(fig, sizeof fig / sizeof fig[0], "", err) != CP_OK)
        return CP_EINPUT;
    char a[48], b[48], t[32], need[48];
    o->predicted = x;
    fig_text(&w, cl->figure, a, sizeof a);
    fig_text(&g, cl->figure, b, sizeof b);
    if (cl->figure == CLAIM_FIG_MEMORYX)
        snprintf(o->reason, sizeof o->reason,
                 "the %s tier of %s (%s) over %s's %s (%s): %.2f, so %.0f GPUs hold it",
                 cl->memoryx, in->hw->wse.name, a, in->gpu->name, b, g.key, w.v / g.v, x);
    else
        snprintf(o->reason, sizeof o->reason, "%s's %s (%s) over %s's %s (%s): %s",
                 in->hw->wse.name, a, w.key, in->gpu->name, b, g.key, ratio_text(x, t, sizeof t));
    if (ratio_holds(x, cl->target)) {
        o->verdict = CLAIM_HOLDS;
        add(o->reason, sizeof o->reason, ", at least %.0f%% of the %.4g claimed",
            100 * (1 - CLAIM_GPU_TOL), cl->target);
        return CP_OK;
    }
    struct fig f = g, h = w;
    f.v = w.v / cl->target;
    h.v = g.v * cl->target;
    add(o->reason, sizeof o->reason,
        ", %.1f%% short of the %.4g claimed, which needs a GPU figure of at most %s or a "
        "wafer figure of %s",
        100 * (1 - x / cl->target), cl->target, fig_text(&f, cl->figure, need, sizeof need),
        fig_text(&h, cl->figure, a, sizeof a));
    o->verdict =
        ratio_others(in, w.v, o->reason, sizeof o->reason) ? CLAIM_CONDITIONAL : CLAIM_FAILS;
    if (o->verdict == CLAIM_FAILS)
        add(o->reason, sizeof o->reason, ", which no GPU described has");
    return CP_OK;
}

/* ---- jobs on GPUs ---- */

/* A comparison spec for the claim's job on GPU g. */
static struct cmp_spec spec_of(const struct claim_in *in, const struct gpuhw_desc *g,
                               enum cmp_mode mode, double deadline_s)
{
    struct cmp_spec s = {
        .mode = mode, .deadline_s = deadline_s, .ws = in->ws, .gpu = g, .gpu_price = -1};
    s.layout = gpu_search_spec_default(0);
    s.layout.precision = in->cl->precision;
    return s;
}

/* "1024 A100 SXM4 80GB (DGX A100) at bf16 (tp 8 pp 4 dp 32 mbs 1 vp 2,
 * none recompute) take 34.9 d" */
static void run_text(const struct gpuhw_desc *g, const struct cmp_gpu *c, char *buf, size_t n)
{
    char l[160], t[48];
    snprintf(buf, n, "%g %s at %s (%s) take %s", c->s.units, g->name,
             gpuhw_prec_name[c->layout.precision], layout_text(&c->layout, l, sizeof l),
             dur(c->s.time_s, t, sizeof t));
}

/* FLOP/s one GPU of c sustains on the model's FLOP (no recompute). */
static double sustained(const struct cmp_gpu *c)
{
    return c->res.model_flops / (c->res.step_s * c->s.units);
}

/* The times of the other GPUs at the claim's count, appended to buf. */
static void gpu_time_others(const struct claim_in *in, char *buf, size_t n)
{
    int found = 0;
    for (size_t i = 0; i < in->nothers; i++) {
        const struct gpuhw_desc *g = &in->others[i];
        struct cmp_spec s = spec_of(in, g, CMP_SYSTEMS, 0);
        struct cmp_gpu c;
        struct cp_error e = {0};
        char t[48];
        if (strcmp(g->name, in->gpu->name) == 0 || cmp_gpu_at(&s, in->cl->gpus, &c, &e) != CP_OK)
            continue;
        add(buf, n, "%s %s %s", found++ ? "," : "; on as many", g->name,
            dur(c.s.time_s, t, sizeof t));
    }
}

cp_status claim_gpu_time(const struct claim_in *in, struct claim_result *o, struct cp_error *err)
{
    const struct claim *cl = in->cl;
    const struct gpuhw_desc *g = in->gpu;
    struct cmp_spec s = spec_of(in, g, CMP_SYSTEMS, 0);
    struct cmp_gpu c;
    struct cp_error why = {0};
    if (cmp_check(&s, err) != CP_OK)
        return CP_EINPUT;
    if (cmp_gpu_at(&s, cl->gpus, &c, &why) != CP_OK) {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "no layout of %g %s runs the job: %.900s", cl->gpus,
                 g->name, why.msg);
        return CP_OK;
    }
    double peak = g->chip.peak_flops[cl->precision], rate = sustained(&c);
    char run[256], lim[48], a[48], b[48];
    o->predicted = c.s.time_s;
    run_text(g, &c, run, sizeof run);
    snprintf(o->reason, sizeof o->reason, "%s, each GPU sustaining %s (%s of its peak)", run,
             unit_format(rate, UNIT_FLOP_RATE, a, sizeof a), pct(rate / peak, b, sizeof b));
    dur(cl->target, lim, sizeof lim);
    if (c.s.time_s >= cl->target * (1 - CLAIM_GPU_TOL)) {
        o->verdict = CLAIM_HOLDS;
        add(o->reason, sizeof o->reason, ": at least the %s claimed", lim);
    } else {
        double need = rate * c.s.time_s / cl->target;
        o->verdict = CLAIM_CONDITIONAL;
        add(o->reason, sizeof o->reason,
            "; %s takes GPUs that sustain at most %s each (%s of this GPU's peak, %.3gx slower "
            "than the model's)",
            lim, unit_format(need, UNIT_FLOP_RATE, a, sizeof a), pct(need / peak, b, sizeof b),
            cl->target / c.s.time_s);
    }
    gpu_time_others(in, o->reason, sizeof o->reason);
    return CP_OK;
}

/* The first count from n up (in steps of the GPU's count step, to 2 n and
 * CMP_GPU_MAX) some layout of which runs the job, into c; 0 if none. */
static int first_run_from(const struct cmp_spec *s, double n, double to, struct cmp_gpu *c)
{
    return cmp_gpu_first(s, n, to, c);
}

/* The weight-streaming side of a comparison: "15 CS-3 (WSE-3) in 364.7 d"
 * or why it has none. */
static void ws_text(const struct cmp_result *r, char *buf, size_t n)
{
    char t[48];
    if (r->ws_ok)
        snprintf(buf, n, "%g %s in %s", r->ws.systems, r->ws.hw->wse.name,
                 dur(r->w.time_s, t, sizeof t));
    else
        snprintf(buf, n, "no %s cluster (%.120s)", r->ws.hw->wse.name, r->ws_why);
}

/* The fewest GPUs on which the job fits and the fewest that meet the
 * claim's deadline (r, from cmp_run). */
static void count_text(const struct claim_in *in, const struct cmp_gpu *fit,
                       const struct cmp_result *r, char *buf, size_t n)
{
    const struct gpuhw_desc *g = in->gpu;
    char run[256], lim[48], t[48], w[256];
    run_text(g, fit, run, sizeof run);
    dur(in->cl->deadline, lim, sizeof lim);
    ws_text(r, w, sizeof w);
    snprintf(buf, n, "it fits on no fewer than %g GPUs (%g nodes): %s; ", fit->s.units,
             fit->s.nodes, run);
    if (r->gpu_ok)
        add(buf, n, "within %s it takes %g (%s; the same job: %s)", lim, r->g.s.units,
            dur(r->g.s.time_s, t, sizeof t), w);
    else
        add(buf, n, "no count up to %.0f trains it within %s (the fastest, %g, takes %s)",
            r->scan.last, lim, r->g.s.units, dur(r->g.s.time_s, t, sizeof t));
}

/* The verdict of a gpu_count claim from the fewest that fit and the
 * fewest within the deadline, with the time on the target's GPUs. */
static void count_verdict(const struct claim_in *in, const struct cmp_gpu *fit,
                          const struct cmp_result *r, struct claim_result *o)
{
    const struct claim *cl = in->cl;
    struct cmp_spec s = spec_of(in, in->gpu, CMP_SYSTEMS, 0);
    double need = r->gpu_ok ? r->g.s.units : INFINITY;
    struct cmp_gpu at;
    char t[48];
    o->predicted = r->gpu_ok ? need : r->g.s.units;
    if (ratio_holds(fit->s.units, cl->target)) {
        o->verdict = CLAIM_HOLDS;
        add(o->reason, sizeof o->reason, ": the model needs them to hold it at all");
        return;
    }
    o->verdict = ratio_holds(need, cl->target) ? CLAIM_CONDITIONAL : CLAIM_FAILS;
    add(o->reason, sizeof o->reason, "; %.4g GPUs are needed %s", cl->target,
        o->verdict == CLAIM_CONDITIONAL ? "only to train within that time"
                                        : "neither to hold it nor to train within that time");
    if (first_run_from(&s, cl->target, 2 * cl->target, &at))
        add(o->reason, sizeof o->reason, "%s %s, what %g (the fewest from %.4g up that run) take",
            o->verdict == CLAIM_CONDITIONAL ? "; about" : ", only to train within about",
            dur(at.s.time_s, t, sizeof t), at.s.units, cl->target);
}

cp_status claim_gpu_count(const struct claim_in *in, struct claim_result *o, struct cp_error *err)
{
    const struct claim *cl = in->cl;
    struct cmp_spec s = spec_of(in, in->gpu, CMP_DEADLINE, cl->deadline);
    struct cmp_gpu fit;
    if (cmp_check(&s, err) != CP_OK)
        return CP_EINPUT;
    if (!first_run_from(&s, 1, CMP_GPU_MAX, &fit)) {
        o->verdict = CLAIM_HOLDS;
        o->predicted = CMP_GPU_MAX;
        snprintf(o->reason, sizeof o->reason, "no count of %s up to %.0f runs the job",
                 in->gpu->name, CMP_GPU_MAX);
        return CP_OK;
    }
    struct cmp_result *r = xmalloc(sizeof *r);
    cp_status st = cmp_run(&s, r, err);
    if (st == CP_OK) {
        count_text(in, &fit, r, o->reason, sizeof o->reason);
        count_verdict(in, &fit, r, o);
    }
    free(r);
    return st;
}

/* ---- power ---- */

/* One side's power as the figure counts it: chips, the systems alone and
 * the GPUs' boards; nodes, all the model counts and whole GPU nodes. */
static double ws_power(const struct cmp_result *r, enum claim_figure which)
{
    return which == CLAIM_FIG_CHIPS ? r->ws.systems * r->ws.hw->wse.power_W : r->w.power_W;
}

static double gpu_power(const struct gpuhw_desc *g, const struct cmp_side *s,
                        enum claim_figure which)
{
    return which == CLAIM_FIG_CHIPS ? s->units * g->chip.power_W : s->power_W;
}

/* GPUs whose power (as which counts it) is ws_W / target: whole nodes
 * when nodes are counted. */
static double gpus_for_power(const struct gpuhw_desc *g, double ws_W, double target,
                             enum claim_figure which)
{
    double w = ws_W / target;
    if (which == CLAIM_FIG_CHIPS)
        return ceil(w / g->chip.power_W);
    return ceil(w / g->net.node_power_W) * g->net.gpus_per_node;
}

/* "CS-3 (WSE-3) 22 systems, 29.71 d, 659 kW (chips 506 kW)" */
static void power_side(const char *name, double units, const char *what, double time_s,
                       double nodes_W, double chips_W, char *buf, size_t n)
{
    char t[48], a[32], b[32];
    snprintf(buf, n, "%s %g %s, %s, %s (chips %s)", name, units, what, dur(time_s, t, sizeof t),
             unit_format(nodes_W, UNIT_POWER, a, sizeof a),
             unit_format(chips_W, UNIT_POWER, b, sizeof b));
}

/* The comparison of r (equal job) and of lit (the claim's GPUs; NULL
 * when not given) in words, into buf. */
static void power_text(const struct claim_in *in, const struct cmp_result *r,
                       const struct cmp_gpu *lit, char *buf, size_t n)
{
    const struct gpuhw_desc *g = in->gpu;
    char w[192], c[192], d[48], e[32], f[32];
    power_side(r->ws.hw->wse.name, r->ws.systems, r->ws.systems == 1 ? "system" : "systems",
               r->w.time_s, ws_power(r, CLAIM_FIG_NODES), ws_power(r, CLAIM_FIG_CHIPS), w,
               sizeof w);
    power_side(g->name, r->g.s.units, "GPUs", r->g.s.time_s, gpu_power(g, &r->g.s, CLAIM_FIG_NODES),
               gpu_power(g, &r->g.s, CLAIM_FIG_CHIPS), c, sizeof c);
    if (in->cl->deadline > 0)
        snprintf(buf, n, "the fewest of each within %s", dur(in->cl->deadline, d, sizeof d));
    else
        snprintf(buf, n, "the fewest GPUs at least as fast");
    add(buf, n, ": %s; %s: power %s (chips %s), energy %s", w, c,
        pct(ws_power(r, CLAIM_FIG_NODES) / gpu_power(g, &r->g.s, CLAIM_FIG_NODES), d, sizeof d),
        pct(ws_power(r, CLAIM_FIG_CHIPS) / gpu_power(g, &r->g.s, CLAIM_FIG_CHIPS), e, sizeof e),
        pct(r->w.energy_J / r->g.s.energy_J, f, sizeof f));
    if (!lit)
        return;
    power_side(g->name, lit->s.units, "GPUs", lit->s.time_s, gpu_power(g, &lit->s, CLAIM_FIG_NODES),
               gpu_power(g, &lit->s, CLAIM_FIG_CHIPS), c, sizeof c);
    add(buf, n, "; against %s: power %s (chips %s), finishing %.3gx sooner", c,
        pct(ws_power(r, CLAIM_FIG_NODES) / gpu_power(g, &lit->s, CLAIM_FIG_NODES), d, sizeof d),
        pct(ws_power(r, CLAIM_FIG_CHIPS) / gpu_power(g, &lit->s, CLAIM_FIG_CHIPS), e, sizeof e),
        r->w.time_s / lit->s.time_s);
}

/* The finiteness gate (base/finite.h) on the figures power_text and
 * power_verdict print: the GPUs' power and its ratios, as chips (gpu.power)
 * and as nodes (system.node_power). */
static cp_status power_check(const struct claim_in *in, const struct cmp_result *r,
                             const struct cmp_gpu *lit, struct cp_error *err)
{
    const struct gpuhw_desc *g = in->gpu;
    const char *chips = "[gpu] power", *nodes = "[system] node_power";
    const struct cmp_side *side[2] = {&r->g.s, lit ? &lit->s : &r->g.s};
    struct finite_fig f[10];
    size_t n = 0;
    for (int i = 0; i < 2; i++) {
        double gc = gpu_power(g, side[i], CLAIM_FIG_CHIPS),
               gn = gpu_power(g, side[i], CLAIM_FIG_NODES);
        f[n++] = (struct finite_fig){"power of the GPUs' chips", gc, chips};
        f[n++] =
            (struct finite_fig){"chips' power ratio", ws_power(r, CLAIM_FIG_CHIPS) / gc, chips};
        f[n++] = (struct finite_fig){"power of the GPU nodes", gn, nodes};
        f[n++] =
            (struct finite_fig){"nodes' power ratio", ws_power(r, CLAIM_FIG_NODES) / gn, nodes};
    }
    const enum claim_figure fig[2] = {CLAIM_FIG_CHIPS, CLAIM_FIG_NODES};
    for (int k = 0; k < 2; k++)
        f[n++] = (struct finite_fig){"GPUs of the claimed power",
                                     gpus_for_power(g, ws_power(r, fig[k]), in->cl->target, fig[k]),
                                     k ? nodes : chips};
    char at[DESC_TEXT_MAX + 8];
    snprintf(at, sizeof at, " on %s", g->name);
    return finite_check(f, n, at, err);
}

/* The verdict: the first of (equal job, the claim's figure), (equal job,
 * the other figure), (the claim's GPUs, either figure) whose ratio
 * holds. */
static void power_verdict(const struct claim_in *in, const struct cmp_result *r,
                          const struct cmp_gpu *lit, struct claim_result *o)
{
    const struct claim *cl = in->cl;
    enum claim_figure f = cl->figure,
                      other = f == CLAIM_FIG_CHIPS ? CLAIM_FIG_NODES : CLAIM_FIG_CHIPS;
    double lim = cl->target * (1 + CLAIM_GPU_TOL);
    const struct cmp_side *eq = &r->g.s;
    char p[32];
    o->predicted = ws_power(r, f) / gpu_power(in->gpu, lit ? &lit->s : eq, f);
    o->verdict = CLAIM_CONDITIONAL;
    if (r->gpu_ok && ws_power(r, f) / gpu_power(in->gpu, eq, f) <= lim) {
        o->verdict = CLAIM_HOLDS;
        add(o->reason, sizeof o->reason, "; %s holds for the same job",
            pct(cl->target, p, sizeof p));
    } else if (r->gpu_ok && ws_power(r, other) / gpu_power(in->gpu, eq, other) <= lim) {
        add(o->reason, sizeof o->reason, "; %s holds for the same job only counting %s",
            pct(cl->target, p, sizeof p), claim_figure_name[other]);
    } else if (lit && ws_power(r, f) / gpu_power(in->gpu, &lit->s, f) <= lim) {
        add(o->reason, sizeof o->reason, "; %s holds only against the %g GPUs given",
            pct(cl->target, p, sizeof p), lit->s.units);
    } else if (lit && ws_power(r, other) / gpu_power(in->gpu, &lit->s, other) <= lim) {
        add(o->reason, sizeof o->reason, "; %s holds only against the %g GPUs given, counting %s",
            pct(cl->target, p, sizeof p), lit->s.units, claim_figure_name[other]);
    } else {
        o->verdict = CLAIM_FAILS;
    }
    double need = gpus_for_power(in->gpu, ws_power(r, f), cl->target, f);
    add(o->reason, sizeof o->reason, "; %s (%s) is the power of %.0f GPUs",
        pct(cl->target, p, sizeof p), claim_figure_name[f], need);
}

cp_status claim_gpu_power(const struct claim_in *in, struct claim_result *o, struct cp_error *err)
{
    const struct claim *cl = in->cl;
    struct cmp_spec s =
        spec_of(in, in->gpu, cl->deadline > 0 ? CMP_DEADLINE : CMP_SYSTEMS, cl->deadline);
    struct cmp_gpu lit;
    if (cmp_check(&s, err) != CP_OK)
        return CP_EINPUT;
    struct cmp_result *r = xmalloc(sizeof *r);
    cp_status st = cmp_run(&s, r, err);
    int has_lit = cl->gpus > 0 && first_run_from(&s, cl->gpus, 2 * cl->gpus, &lit);
    if (st != CP_OK) {
        free(r);
        return st;
    }
    o->verdict = CLAIM_FAILS;
    if (!r->ws_ok)
        snprintf(o->reason, sizeof o->reason, "no weight-streaming side: %.900s", r->ws_why);
    else if (!r->gpu_ran)
        snprintf(o->reason, sizeof o->reason, "no GPU side: %.900s", r->gpu_why);
    else if (power_check(in, r, has_lit ? &lit : NULL, err) != CP_OK)
        st = CP_EINPUT;
    else {
        power_text(in, r, has_lit ? &lit : NULL, o->reason, sizeof o->reason);
        power_verdict(in, r, has_lit ? &lit : NULL, o);
    }
    free(r);
    return st;
}
