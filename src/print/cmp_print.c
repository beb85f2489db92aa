/* cmp_print.c - how `compare` prints its answer: the job and how each
 * side was searched, a table of quantities against the two clusters (or
 * CSV), what the power and cost count, and why a side has no answer. */
#include "cmp_print.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum qty { Q_COUNT, Q_TIME, Q_RATE, Q_POWER, Q_ENERGY, Q_COST, Q_SHARE };
static const char *const qty_unit[] = {"count", "s", "tokens/s", "W", "J", "currency", "fraction"};

struct tab {
    struct out_table t;
    int csv;
};

/* v of kind q as a cell; word follows a count for people (a cost: its
 * currency).  "-" (text) or "" (CSV) for NaN. */
static const char *cell(int csv, enum qty q, const char *word, double v, char *buf, size_t n)
{
    if (isnan(v))
        return csv ? "" : "-";
    if (csv)
        return unit_format_exact(v, buf, n);
    char num[64];
    switch (q) {
    case Q_TIME:
        return out_duration(v, buf, n);
    case Q_ENERGY:
        return out_energy(v, buf, n);
    case Q_POWER:
        return unit_format(v, UNIT_POWER, buf, n);
    case Q_RATE:
        snprintf(buf, n, "%s tokens/s", unit_format(v, UNIT_COUNT, num, sizeof num));
        return buf;
    case Q_COST: /* word: the side's currency */
        return cost_format(v, word, buf, n);
    case Q_SHARE:
        snprintf(buf, n, "%.1f %%", 100 * v);
        return buf;
    default:
        snprintf(buf, n, "%.0f%s%s", v, *word ? " " : "", word);
        return buf;
    }
}

/* A row: the quantity (text label, CSV name), the two sides' values (NaN:
 * none) with a word after counts (weight streaming, GPU), and the ratio
 * GPU / weight streaming when both are positive. */
static void row(struct tab *t, const char *label, const char *name, enum qty q, double ws,
                double gpu, const char *ws_word, const char *gpu_word)
{
    char a[96], b[96], c[48];
    const char *ratio = t->csv ? "" : "-";
    if (ws > 0 && gpu > 0) {
        snprintf(c, sizeof c, t->csv ? "%.17g" : "%.3g", gpu / ws);
        ratio = c;
    }
    const char *ca = cell(t->csv, q, ws_word, ws, a, sizeof a);
    const char *cb = cell(t->csv, q, gpu_word, gpu, b, sizeof b);
    if (t->csv)
        out_row(&t->t, (const char *[]){name, qty_unit[q], ca, cb, ratio});
    else
        out_row(&t->t, (const char *[]){label, ca, cb, ratio});
}

/* A row of text cells (the layouts). */
static void text_row(struct tab *t, const char *label, const char *name, const char *ws,
                     const char *gpu)
{
    if (t->csv)
        out_row(&t->t, (const char *[]){name, "", ws, gpu, ""});
    else
        out_row(&t->t, (const char *[]){label, ws, gpu, "-"});
}

/* "MemoryX 12 servers, activations offload" */
static const char *ws_text(const struct cmp_result *r, char *buf, size_t n)
{
    char act[64];
    snprintf(buf, n, "MemoryX %.0f servers, activations %s", r->wr.step.mx_servers,
             step_act_label(&r->wr.step, act, sizeof act));
    return buf;
}

/* x when have, else NaN (a cell with no value). */
static double opt(int have, double x)
{
    return have ? x : NAN;
}

/* Each side's cluster at the target: weight streaming while its result
 * is feasible, the GPUs while some count ran. */
static void rows_main(struct tab *t, const struct cmp_cli *x, int priced)
{
    const struct cmp_result *r = &x->r;
    const struct cmp_side *w = &r->w, *g = &r->g.s;
    int hw = r->wr.feasible, hg = r->gpu_ran;
    char a[256], b[256];
    row(t, "cluster", "units", Q_COUNT, opt(hw, w->units), opt(hg, g->units),
        w->units == 1 ? "system" : "systems", g->units == 1 ? "GPU" : "GPUs");
    row(t, "nodes", "nodes", Q_COUNT, NAN, opt(hg, g->nodes), "", g->nodes == 1 ? "node" : "nodes");
    text_row(t, "layout", "layout", hw ? ws_text(r, a, sizeof a) : "-",
             hg ? cmpo_layout_text(&r->g.layout, ", ", b, sizeof b) : "-");
    row(t, "step time", "step_time", Q_TIME, opt(hw, w->step_s), opt(hg, g->step_s), "", "");
    row(t, "time-to-train", "time_to_train", Q_TIME, opt(hw, w->time_s), opt(hg, g->time_s), "",
        "");
    row(t, "throughput", "tokens_per_s", Q_RATE, opt(hw, w->tokens_per_s), opt(hg, g->tokens_per_s),
        "", "");
    row(t, "MFU", "mfu", Q_SHARE, opt(hw, w->mfu), opt(hg, g->mfu), "", "");
    row(t, "goodput", "goodput", Q_SHARE, opt(hw, w->goodput), opt(hg, g->goodput), "", "");
    row(t, "power", "power", Q_POWER, opt(hw, w->power_W), opt(hg, g->power_W), "", "");
    row(t, "energy", "energy", Q_ENERGY, opt(hw, w->energy_J), opt(hg, g->energy_J), "", "");
    if (priced)
        row(t, "cost", "cost", Q_COST, opt(hw && w->cost >= 0, w->cost),
            opt(hg && g->cost >= 0, g->cost), x->s.hw.site.currency, x->g.site.currency);
}

/* One fewer (the plan's N - 1; the largest smaller GPU count that runs):
 * each misses the target. */
static void rows_fewer(struct tab *t, const struct cmp_cli *x)
{
    const struct cmp_result *r = &x->r;
    int hw = x->spec.mode == CMP_DEADLINE && r->ws_ok && r->plan.has_below;
    int hg = r->gpu_ok && r->has_below;
    if (!hw && !hg)
        return;
    row(t, "fewer: cluster", "fewer_units", Q_COUNT, opt(hw, r->plan.below.systems),
        opt(hg, r->below.s.units), "systems", "GPUs");
    row(t, "fewer: time-to-train", "fewer_time_to_train", Q_TIME, opt(hw, r->plan.rb.time_s),
        opt(hg, r->below.s.time_s), "", "");
}

/* Both at the weight-streaming cluster's power. */
static void rows_equal(struct tab *t, const struct cmp_cli *x)
{
    const struct cmp_result *r = &x->r;
    if (!(r->eq_power_W > 0))
        return;
    const struct cmp_side *w = &r->w, *g = &r->eq.s;
    int hg = r->eq_ok;
    row(t, "equal power: power", "equal_power", Q_POWER, w->power_W, opt(hg, g->power_W), "", "");
    row(t, "equal power: cluster", "equal_power_units", Q_COUNT, w->units, opt(hg, g->units),
        w->units == 1 ? "system" : "systems", g->units == 1 ? "GPU" : "GPUs");
    row(t, "equal power: time-to-train", "equal_power_time_to_train", Q_TIME, w->time_s,
        opt(hg, g->time_s), "", "");
}

/* ---- the bands (cmp.h cmp_bands) ---- */

/* v of side s's band at percentile k (0: P10, 1: P50, 2: P90); NaN when
 * the side was not drawn. */
static double pick(const struct cmp_side_band *s, const struct unc_band *b, int k)
{
    return !s->on ? NAN : k == 0 ? b->p10 : k == 1 ? b->p50 : b->p90;
}

static double pick_ratio(const struct cmp_bands *b, const struct unc_band *r, int k)
{
    return !b->paired ? NAN : k == 0 ? r->p10 : k == 1 ? r->p50 : r->p90;
}

/* The three quantities of the bands: each side's band and the paired
 * ratio's, with the name for people and for CSV. */
struct band_field {
    const char *label, *name;
    enum qty q;
    const struct unc_band *w, *g, *r;
};

static void band_fields(const struct cmp_bands *b, struct band_field f[3])
{
    f[0] = (struct band_field){"step time", "step_time", Q_TIME, &b->w.step_s, &b->g.step_s,
                               &b->ratio_time};
    f[1] = (struct band_field){"time-to-train", "time_to_train", Q_TIME, &b->w.time_s,
                               &b->g.time_s, &b->ratio_time};
    f[2] = (struct band_field){"energy", "energy", Q_ENERGY, &b->w.energy_J, &b->g.energy_J,
                               &b->ratio_energy};
}

/* CSV rows: step time, time-to-train and energy at P10, P50, P90 of each
 * side, with the paired draws' ratio at the same percentile (not the
 * ratio of the percentiles); the share of each side's draws meeting the
 * deadline; the share of paired draws where the GPU side trains sooner. */
static void rows_bands_csv(struct tab *t, const struct cmp_cli *x)
{
    static const char *const pname[] = {"p10", "p50", "p90"};
    const struct cmp_bands *b = &x->b;
    struct band_field f[3];
    band_fields(b, f);
    char a[64], c[64], d[64], name[64];
    for (size_t i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "%s_%s", f[i].name, pname[k]);
            double rv = pick_ratio(b, f[i].r, k);
            out_row(&t->t, (const char *[]){name, qty_unit[f[i].q],
                                            cell(1, f[i].q, "", pick(&b->w, f[i].w, k), a, 64),
                                            cell(1, f[i].q, "", pick(&b->g, f[i].g, k), c, 64),
                                            cell(1, Q_COUNT, "", rv, d, 64)});
        }
    if (x->spec.mode == CMP_DEADLINE)
        out_row(&t->t, (const char *[]){"deadline_share", "fraction",
                                        cell(1, Q_COUNT, "", b->w.on ? b->w.share : NAN, a, 64),
                                        cell(1, Q_COUNT, "", b->g.on ? b->g.share : NAN, c, 64),
                                        ""});
    if (b->paired)
        out_row(&t->t, (const char *[]){"gpu_sooner_share", "fraction", "", "",
                                        cell(1, Q_COUNT, "", b->gpu_faster, d, 64)});
}

/* "P50 [P10, P90]" of b for a side (NaN-free; "-" when not drawn). */
static const char *band_cell(const struct cmp_side_band *s, const struct unc_band *b, enum qty q,
                             char *buf, size_t n)
{
    if (!s->on)
        return "-";
    return unc_opt_band(b, q == Q_ENERGY ? UNIT_ENERGY : UNIT_TIME, q == Q_TIME, buf, n);
}

/* "21 ranged keys and system.model_error +- 11.3 %" of a side's draws
 * into buf. */
static const char *drawn_what(const struct cmp_side_band *s, char *buf, size_t n)
{
    if (!s->on)
        snprintf(buf, n, "not drawn");
    else
        snprintf(buf, n, "%zu ranged keys and %s +- %.3g %%", s->ranged,
                 s->model_error_key ? s->model_error_key : "no model error",
                 100 * s->model_error);
    return buf;
}

/* The text block of the bands: the draws, a table of P50 [P10, P90] of
 * each side and of the paired ratio, the deadline's share of each side
 * and how often the GPU side trains sooner. */
static int print_bands(const struct cmp_cli *x)
{
    const struct cmp_bands *b = &x->b;
    if (!x->uo.on || !(b->w.on || b->g.on))
        return 0;
    char a[160], c[160], d[160];
    printf("\nuncertainty: %zu draws of each side, independent of each other (seed %lu for "
           "weight streaming: %s; seed %lu for GPUs: %s); P50 [P10, P90], the ratio's from "
           "the paired draws\n",
           b->samples, b->seed, drawn_what(&b->w, a, sizeof a), b->seed + 1,
           drawn_what(&b->g, c, sizeof c));
    const char *hdr[] = {"quantity", x->s.hw.wse.name, x->g.name, "GPU / WS"};
    struct out_table t;
    out_init(&t, 4, hdr);
    struct band_field f[3];
    band_fields(b, f);
    for (size_t i = 0; i < 3; i++) {
        char e[160] = "-";
        if (b->paired)
            snprintf(e, sizeof e, "%.3g [%.3g, %.3g]", f[i].r->p50, f[i].r->p10, f[i].r->p90);
        out_row(&t, (const char *[]){f[i].label, band_cell(&b->w, f[i].w, f[i].q, a, sizeof a),
                                     band_cell(&b->g, f[i].g, f[i].q, c, sizeof c), e});
    }
    if (x->spec.mode == CMP_DEADLINE) {
        snprintf(a, sizeof a, b->w.on ? "%.1f %% of draws" : "-", 100 * b->w.share);
        snprintf(c, sizeof c, b->g.on ? "%.1f %% of draws" : "-", 100 * b->g.share);
        out_row(&t, (const char *[]){"meets the deadline", a, c, "-"});
    }
    int rc = out_text.write(stdout, &t);
    out_free(&t);
    if (b->paired)
        printf("the GPU cluster trains sooner in %.1f %% of the paired draws\n",
               100 * b->gpu_faster);
    if (x->uo.confidence > 0) {
        snprintf(d, sizeof d, "%g", x->uo.confidence);
        printf("confidence %s: %g system%s (the point answer %g, in %.1f %% of draws) and %.0f "
               "GPUs (the point answer %.0f, in %.1f %%), each the fewest whose draws meet the "
               "deadline in a share of at least %s\n",
               d, x->wc.count, x->wc.count == 1 ? "" : "s", x->w_point,
               100 * x->wc.from_share, x->gc.count, x->g_point, 100 * x->gc.from_share, d);
    }
    return rc;
}

static int emit_table(const struct cli_opts *o, const struct cmp_cli *x)
{
    static const char *const csv_hdr[] = {"quantity", "unit", "weight_streaming", "gpu",
                                          "gpu_over_weight_streaming"};
    const char *text_hdr[] = {"quantity", x->s.hw.wse.name, x->g.name, "GPU / WS"};
    struct tab t = {.csv = o->csv};
    int priced = x->s.c.price >= 0 || x->spec.gpu_price >= 0 || x->r.w.cost >= 0 ||
                 x->r.g.s.cost >= 0; /* --price, or the [cost] keys (cost.h) */
    out_init(&t.t, o->csv ? 5 : 4, o->csv ? csv_hdr : text_hdr);
    rows_main(&t, x, priced);
    rows_fewer(&t, x);
    rows_equal(&t, x);
    if (o->csv && x->uo.on)
        rows_bands_csv(&t, x);
    int rc = (o->csv ? &out_csv : &out_text)->write(stdout, &t.t);
    out_free(&t.t);
    return rc;
}

/* The job, and how each side was searched. */
static void print_head(const struct cmp_cli *x)
{
    const struct cmp_result *r = &x->r;
    const struct cmp_scan *sc = &r->scan;
    const struct cluster *c = &x->s.c;
    char a[64], b[64];
    printf("compare: %s, %s token%s in %.0f step%s of %g sequence%s x %g tokens; ",
           x->s.wl.name, unit_format(r->wr.tokens, UNIT_COUNT, a, sizeof a),
           r->wr.tokens == 1 ? "" : "s", r->wr.steps, r->wr.steps == 1 ? "" : "s",
           c->global_seqs, c->global_seqs == 1 ? "" : "s", x->s.wl.seq_len);
    if (x->spec.mode == CMP_DEADLINE)
        printf("deadline %s\n", out_duration(x->spec.deadline_s, b, sizeof b));
    else
        printf("%g system%s, and the GPUs as fast\n", c->systems, c->systems == 1 ? "" : "s");
    printf("weight streaming: %s, MemoryX %s; ", x->s.hw.wse.name, x->s.tier);
    if (x->spec.mode == CMP_DEADLINE)
        printf("the fewest systems that meet it, every N of 1..%g evaluated (as plan does)\n",
               r->plan.max_systems);
    else
        printf("the systems given\n");
    printf("GPUs: %s at %s, each count run in its fastest layout (tp, pp, cp, dp, micro-batch, "
           "interleaving, FSDP or not, the least recompute that fits); ",
           x->g.name, gpuhw_prec_name[x->spec.layout.precision]);
    if (sc->counts > 0)
        printf(
            "every count of %.0f to %.0f GPUs in steps of %.0f searched upward, %.0f counts, %.0f "
            "of them run a layout (%.0f layouts evaluated)\n\n",
            sc->step, sc->last, sc->step, sc->counts, sc->runs, sc->layouts);
    else
        printf("not searched\n\n");
}

/* What the power, the cost and equal power count. */
static void print_notes(const struct cmp_cli *x)
{
    const struct cmp_result *r = &x->r;
    const struct gpu_net *n = &x->g.net;
    char a[64], b[64];
    printf("\npower: %s systems (system.power %s each) with their MemoryX, activation servers and "
           "SwarmX nodes; %s in whole nodes of %g GPUs at system.node_power %s each, the "
           "vendor's maximum; neither side counts network switches, storage or cooling\n",
           x->s.hw.wse.name, unit_format(x->s.hw.wse.power_W, UNIT_POWER, a, sizeof a), x->g.name,
           n->gpus_per_node, unit_format(n->node_power_W, UNIT_POWER, b, sizeof b));
    printf("cost (%s; %s): each side's bill of materials at its [cost] capital prices spread over "
           "cost.years for the wall time, or --price per system-hour / --gpu-price per GPU-hour "
           "in its place, plus energy x cost.pue x cost.energy_price (cerebras-plan(1), Cost)\n",
           x->s.hw.site.currency[0] ? x->s.hw.site.currency : "no currency",
           x->g.site.currency[0] ? x->g.site.currency : "no currency");
    printf("goodput: the times include what failures take (cerebras-plan(1), Goodput)\n");
    if (r->eq_power_W > 0 && r->eq_scan.counts > 0)
        printf(
            "equal power: every GPU count of %.0f to %.0f (in steps of %.0f) whose nodes draw at "
            "most %s searched, the fastest taken\n",
            r->eq_scan.step, r->eq_scan.max, r->eq_scan.step,
            unit_format(r->eq_power_W, UNIT_POWER, a, sizeof a));
}

/* Why a side has no answer, on f (stdout with the table, stderr with
 * --csv). */
static void print_why(FILE *f, const struct cmp_cli *x)
{
    const struct cmp_result *r = &x->r;
    char a[64], b[64];
    if (!r->ws_ok)
        fprintf(f, "unreachable (weight streaming): %s\n", r->ws_why);
    if (!r->gpu_ok && r->gpu_ran)
        fprintf(
            f,
            "unreachable (GPUs): no count of %.0f to %.0f GPUs meets %s; the fastest, %.0f GPUs, "
            "takes %s\n",
            r->scan.step, r->scan.last, out_duration(r->target_s, a, sizeof a), r->g.s.units,
            out_duration(r->g.s.time_s, b, sizeof b));
    else if (!r->gpu_ok)
        fprintf(f, "unreachable (GPUs): %s\n", r->gpu_why);
    if (r->eq_power_W > 0 && !r->eq_ok)
        fprintf(f, "no answer at equal power: %s\n", r->eq_why);
}

int cmp_print(const struct cli_opts *o, const struct cmp_cli *x)
{
    if (!o->csv)
        print_head(x);
    if (emit_table(o, x) != 0)
        return -1;
    if (!o->csv && print_bands(x) != 0)
        return -1;
    if (!o->csv)
        print_notes(x);
    print_why(o->csv ? stderr : stdout, x);
    return 0;
}
