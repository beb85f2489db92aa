/* report_compare.c - the report's comparison with a GPU cluster (see
 * report_compare.h): compare.csv and its paragraph of index.md. */
#include "report_compare.h"

#include <math.h>
#include <string.h>

#include "../grid/grid.h"

int report_cmp_load(const struct cli_opts *o, const char *const *sets, size_t n,
                    const struct scenario *s, struct report_cmp *x)
{
    memset(x, 0, sizeof *x);
    x->given = o->gpu;
    const char *name = o->gpu ? o->gpu : REPORT_DEFAULT_GPU;
    int rc = cmpo_load_gpu(o, name, sets, n, &x->g, &x->src, x->gpu);
    if (rc >= 0)
        return rc;
    /* the resolved copy beside the system's, named apart from it */
    snprintf(x->file, sizeof x->file, "hw/%s%s.ini", x->gpu,
             strcmp(x->gpu, s->system) == 0 ? "-gpu" : "");
    x->spec.mode = CMP_SYSTEMS;
    x->spec.ws = &s->c;
    x->spec.gpu = &x->g;
    if ((rc = cmpo_gpu_price(o, &x->spec.gpu_price)) >= 0)
        return rc;
    if ((rc = cmpo_layout(o, &x->spec)) >= 0)
        return rc;
    /* refused up front, as compare refuses it: a layout that divides
     * nothing, figures the model cannot represent (the finiteness gate) */
    struct cp_error err = {0};
    if (cmp_check(&x->spec, &err) != CP_OK)
        return cli_error("report: %s", err.msg);
    return -1;
}

static const char *const header[] = {"kind",        "units",           "nodes",        "power_W",
                                     "step_time_s", "time_to_train_s", "tokens_per_s", "energy_J",
                                     "cost",        "feasible",        "system",       "layout",
                                     "steps"};
#define NCOLS (sizeof header / sizeof header[0])

/* One row's figures, SI units; cost < 0 for none. */
struct cmp_row {
    const char *kind, *system, *layout;
    double units, nodes, power_W, step_s, time_s, tokens_per_s, energy_J, cost;
    int feasible;
    double steps; /* whole steps: time_s is these x step_s with failures */
};

static void put_row(struct out_table *t, const struct cmp_row *r)
{
    const double v[] = {r->units,  r->nodes,        r->power_W,  r->step_s,
                        r->time_s, r->tokens_per_s, r->energy_J, r->cost};
    char b[8][48];
    const char *cell[NCOLS];
    cell[0] = r->kind;
    for (size_t i = 0; i < 8; i++)
        cell[1 + i] = i == 7 && r->cost < 0 ? "" : unit_format_exact(v[i], b[i], sizeof b[i]);
    cell[9] = r->feasible ? "1" : "0";
    cell[10] = r->system;
    cell[11] = r->layout;
    char st[48];
    cell[12] = unit_format_exact(r->steps, st, sizeof st);
    out_row(t, cell);
}

/* The weight-streaming rows: 1, 2, 4, ... and the maximum, at the
 * scenario's global batch. */
static void ws_rows(const struct scenario *s, struct report_cmp *x, struct out_table *t)
{
    double max = s->hw.wse.max_systems, all_power = 0;
    for (double n = 1; n < max && x->nws + 1 < REPORT_CMP_ROWS; n *= 2)
        x->ws_n[x->nws++] = n;
    x->ws_n[x->nws++] = max;
    struct grid g = {.base = &s->c, .ns = x->ws_n, .nn = x->nws, .mode = SCALE_STRONG};
    for (size_t i = 0; i < x->nws; i++) {
        struct cluster c;
        struct train_result r;
        grid_eval(&g, i, &c, &r);
        char act[64], lay[256];
        snprintf(lay, sizeof lay,
                 "MemoryX %g servers; activations %s; %g activation servers a system; %g "
                 "SwarmX nodes",
                 r.step.mx_servers, step_act_label(&r.step, act, sizeof act), r.step.act_servers,
                 r.swx_nodes);
        struct cmp_row row = {"weight-streaming", s->system,  lay,           c.systems,
                              c.systems,          r.power_W,  r.step.step_s, r.time_s,
                              r.tokens_per_s,     r.energy_J, r.cost,        r.feasible,
                              r.steps};
        put_row(t, &row);
        all_power = fmax(all_power, r.power_W);
        if (r.feasible) {
            x->ws_feasible++;
            x->power_W = fmax(x->power_W, r.power_W);
        }
    }
    if (!x->ws_feasible)
        x->power_W = all_power;
}

/* The GPU rows: S, 2 S, 4 S, ... until the nodes draw x->power_W. */
static void gpu_rows(struct report_cmp *x, struct out_table *t)
{
    const struct gpu_net *net = &x->g.net;
    double step = cmp_count_step(&x->g);
    for (double n = step; n <= CMP_GPU_MAX && x->ngpus < REPORT_CMP_ROWS; n *= 2) {
        size_t k = x->ngpus++;
        struct cmp_gpu g;
        struct cp_error err = {0};
        x->gpus[k] = n;
        if (cmp_gpu_at(&x->spec, n, &g, &err) == CP_OK) {
            char lay[256];
            cmpo_layout_text(&g.layout, "; ", lay, sizeof lay);
            struct cmp_row row = {"gpu",        x->gpu,     lay,
                                  g.s.units,    g.s.nodes,  g.s.power_W,
                                  g.s.step_s,   g.s.time_s, g.s.tokens_per_s,
                                  g.s.energy_J, g.s.cost,   1,
                                  g.s.steps};
            put_row(t, &row);
            x->ran[k] = 1;
            x->nran++;
        } else {
            snprintf(x->why, sizeof x->why, "%.1023s", err.msg);
        }
        if (ceil(n / net->gpus_per_node) * net->node_power_W >= x->power_W)
            break;
    }
}

int report_cmp_table(const struct scenario *s, struct report_cmp *x, struct out_table *t)
{
    out_init(t, NCOLS, header);
    x->nws = x->ws_feasible = x->ngpus = x->nran = 0;
    x->power_W = 0;
    x->why[0] = '\0';
    ws_rows(s, x, t);
    gpu_rows(x, t);
    return -1;
}

/* "8, 16 and 32": the counts with ran[i] == want. */
static void count_list(const struct report_cmp *x, int want, char *buf, size_t n)
{
    size_t len = 0, k = 0, total = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < x->ngpus; i++)
        total += x->ran[i] == want;
    for (size_t i = 0; i < x->ngpus && len < n; i++) {
        if (x->ran[i] != want)
            continue;
        k++;
        const char *sep = k == 1 ? "" : k == total ? " and " : ", ";
        len += (size_t)snprintf(buf + len, n - len, "%s%.0f", sep, x->gpus[i]);
    }
}

/* The GPU clusters: which GPU, which counts and layouts, which counts were
 * left out. */
static void index_gpu(FILE *f, const struct report_cmp *x)
{
    const struct gpu_search_spec *l = &x->spec.layout;
    char fixed[160] = "", list[512], pw[64], wp[64];
    const char *const flag[] = {"tp", "pp", "cp", "vp", "mbs"};
    const double val[] = {l->tp, l->pp, l->cp, l->vp, l->mbs}, *c = x->gpus;
    for (int i = 0; i < 5; i++)
        if (val[i] != GPU_SEARCH_FREE)
            snprintf(fixed + strlen(fixed), sizeof fixed - strlen(fixed), ", %s fixed at %g",
                     flag[i], val[i]);
    if (l->fsdp == 1)
        snprintf(fixed + strlen(fixed), sizeof fixed - strlen(fixed), ", FSDP on");
    if (x->ngpus > 2)
        snprintf(list, sizeof list, "%.0f, %.0f, ... %.0f", c[0], c[1], c[x->ngpus - 1]);
    else
        snprintf(list, sizeof list, x->ngpus == 2 ? "%.0f and %.0f" : "%.0f", c[0], c[1]);
    fprintf(f,
            "%s clusters of %s GPUs, doubling up to the first count whose nodes draw at least "
            "the largest %s cluster's %s (at most %.0f GPUs), in whole nodes of %g GPUs at %s "
            "each (`system.node_power`, the vendor's maximum), each count in its fastest layout "
            "(tp, pp, cp, dp, micro-batch, interleaving, FSDP or not, the least recompute that "
            "fits) at %s%s.  "
            "The GPU system is `%s`%s.  ",
            x->g.name, list, x->ws_feasible ? "feasible weight-streaming" : "weight-streaming",
            unit_format(x->power_W, UNIT_POWER, wp, sizeof wp), CMP_GPU_MAX, x->g.net.gpus_per_node,
            unit_format(x->g.net.node_power_W, UNIT_POWER, pw, sizeof pw),
            gpuhw_prec_name[l->precision], fixed, x->gpu,
            x->given ? " (--gpu)" : ", the default when --gpu is not given");
    if (x->nran == x->ngpus) {
        fprintf(f, "Every GPU count searched runs a layout.");
    } else {
        count_list(x, 0, list, sizeof list);
        fprintf(f,
                "GPU counts that run no layout are left out of the table and the figure: %s "
                "(the largest of them: %s).",
                list, x->why);
    }
}

void report_cmp_index(FILE *f, const struct scenario *s, const struct report_cmp *x)
{
    fprintf(f,
            "  Here: %s clusters of N = 1, 2, 4, ... %g systems (%zu sizes, %zu feasible) at the "
            "report's global batch of %g sequences and its %g billion training tokens.  ",
            s->hw.wse.name, s->hw.wse.max_systems, x->nws, x->ws_feasible, s->c.global_seqs,
            s->c.tokens / 1e9);
    index_gpu(f, x);
    fprintf(f,
            "  Whose power is counted: the %s systems at `system.power` with their MemoryX "
            "servers, activation servers and SwarmX nodes; the GPU nodes whole, at their "
            "maximum wall power, not a measured training draw; neither side counts network "
            "switches, storage or cooling.  The time-to-train is the expected wall time, "
            "the whole steps (column steps) times the step time with what failures, "
            "checkpoints and restarts take; the cost column is the full cost in the "
            "descriptions' currency (each part's capital over that time, or the rental "
            "--price per system-hour or --gpu-price per GPU-hour, and the energy at its "
            "price and PUE), empty when nothing is priced.",
            s->hw.wse.name);
}
