/* cmd_claims.c - `claims [FILE]`: each headline claim of the vendor's
 * documents run as a scenario, with the model's verdict and reason; the
 * claims that compare with GPUs are judged by src/plan/gclaim.h.  The
 * table is CSV-ready (exact SI figures, verdict names) when o->csv is set,
 * else worded for people (units, percentages, "6.70x", verdicts in words);
 * the report's index.md shows the latter. */
#include <stdio.h>
#include <string.h>

#include "produce.h"
#include "../model/claim.h"
#include "../plan/gclaim.h"
#include "../face/est.h"

static const char *const header[] = {"id",        "claim",   "source",    "kind",    "model",
                                     "system",    "systems", "predicted", "verdict", "reason",
                                     "condition", "gpu",     "gpus"};

/* What the GPU claims load besides the scenario (static: large). */
struct gclaims {
    struct cli_opts ws; /* the options without the GPU's --set keys      */
    const char *gsets[CLI_MAX_SETS];
    size_t ngsets;
    struct gpuhw_desc g;
    struct gpuhw_desc others[GCLAIM_OTHERS_MAX];
    size_t nothers;
    int others_loaded;
};

/* Whether --set s is for the GPU descriptions: "gpu:section.key=value",
 * or a key of a section only GPU descriptions have (as compare takes
 * them); else it goes to the model or the weight-streaming system.
 * Returns the assignment for the GPU, or NULL. */
static const char *gpu_set(const char *s)
{
    static const char *const own[] = {"gpu.", "network.", "fit."};
    if (strncmp(s, "gpu:", 4) == 0)
        return s + 4;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strncmp(s, own[i], strlen(own[i])) == 0)
            return s;
    return NULL;
}

static void split_gpu_sets(const struct cli_opts *o, struct gclaims *x)
{
    x->ws = *o;
    x->ws.nsets = x->ngsets = 0;
    for (size_t i = 0; i < o->nsets; i++) {
        const char *g = gpu_set(o->sets[i]);
        if (g)
            x->gsets[x->ngsets++] = g;
        else
            x->ws.sets[x->ws.nsets++] = o->sets[i];
    }
}

/* The GPU description e (a GPU system) into g; -1 or an exit code. */
static int load_gpu_entry(const struct gclaims *x, const struct cat_entry *e, struct gpuhw_desc *g)
{
    struct cp_error err = {0};
    if (gpuhw_kind_of(e->text) != GPUHW_GPU)
        return cli_error("%s: a weight-streaming system, where a GPU system is expected",
                         e->origin);
    if (gpuhw_load(e->text, e->origin, x->gsets, x->ngsets, g, NULL, &err) != CP_OK)
        return cli_error("%s", err.msg);
    return -1;
}

/* The claim's GPU by name; -1 or an exit code. */
static int load_gpu(const struct cli_opts *o, struct gclaims *x, const struct claim *c,
                    const char *origin)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_resolve(&o->dirs, c->gpu, CAT_HW, &e, &err) != CP_OK)
        return cli_error("%s:%d: gpu '%s': %s", origin, c->line, c->gpu, err.msg);
    if (gpuhw_kind_of(e.text) != GPUHW_GPU) {
        cat_entry_free(&e);
        return cli_error("%s:%d: gpu '%s': a weight-streaming system; the gpu column takes a GPU "
                         "system (list hw shows each system's model)",
                         origin, c->line, c->gpu);
    }
    int rc = load_gpu_entry(x, &e, &x->g);
    cat_entry_free(&e);
    if (rc >= 0)
        fprintf(stderr, "cerebras-plan: (in %s, line %d)\n", origin, c->line);
    return rc;
}

/* Every GPU description of the search path (at most GCLAIM_OTHERS_MAX),
 * once; -1 or an exit code. */
static int load_others(const struct cli_opts *o, struct gclaims *x)
{
    struct cat_list l;
    struct cp_error err = {0};
    if (x->others_loaded)
        return -1;
    if (cat_list(&o->dirs, CAT_HW, &l, &err) != CP_OK)
        return cli_error("%s", err.msg);
    int rc = -1;
    for (size_t i = 0; i < l.n && rc < 0 && x->nothers < GCLAIM_OTHERS_MAX; i++) {
        struct cat_entry e;
        if (cat_open(&l.items[i], &e, &err) != CP_OK) {
            rc = cli_error("%s", err.msg);
            break;
        }
        if (gpuhw_kind_of(e.text) == GPUHW_GPU &&
            (rc = load_gpu_entry(x, &e, &x->others[x->nothers])) < 0)
            x->nothers++;
        cat_entry_free(&e);
    }
    cat_list_free(&l);
    x->others_loaded = rc < 0;
    return rc;
}

/* The claim's model, system and tier; -1 or an exit code. */
static int setup(const struct cli_opts *o, const struct claim *cl, const char *origin,
                 struct scenario *s)
{
    int rc = scenario_load_names(o, cl->model, cl->system, s);
    if (rc >= 0)
        return rc;
    if (strcmp(cl->memoryx, "auto") == 0) {
        scenario_auto_tier(s);
        return -1;
    }
    if ((rc = scenario_memoryx(s, cl->memoryx)) >= 0)
        fprintf(stderr, "cerebras-plan: (in %s, line %d)\n", origin, cl->line);
    return rc;
}

/* A ratio for people: "53.3x", "6269x". */
static const char *ratio_text(double x, char *buf, size_t n)
{
    if (x < 99.95)
        return claim_format_speedup(x, buf, n);
    snprintf(buf, n, "%.0fx", x);
    return buf;
}

/* The claim's figure: exact SI for CSV; for people a capacity in bytes, an
 * efficiency or power as a percentage, a speedup or ratio as "6.70x", a
 * count of GPUs, a time as a duration. */
static const char *predicted(int csv, const struct claim *cl, const struct claim_result *r,
                             char *buf, size_t n)
{
    if (csv)
        return unit_format_exact(r->predicted, buf, n);
    switch (cl->kind) {
    case CLAIM_CAPACITY:
        return unit_format(r->predicted, UNIT_BYTES, buf, n);
    case CLAIM_WEAK_SCALING:
        return claim_format_percent(r->predicted, buf, n);
    case CLAIM_SPEEDUP:
    case CLAIM_SPARSITY_SPEEDUP:
        return claim_format_speedup(r->predicted, buf, n);
    case CLAIM_RATIO:
    case CLAIM_GPU_COUNT:
        if (cl->kind == CLAIM_RATIO && cl->figure != CLAIM_FIG_MEMORYX)
            return ratio_text(r->predicted, buf, n);
        snprintf(buf, n, "%.0f GPUs", r->predicted); /* memoryx: the GPUs that hold it */
        return buf;
    case CLAIM_POWER:
        snprintf(buf, n, "%.3g%%", 100 * r->predicted);
        return buf;
    default:
        return out_duration(r->predicted, buf, n);
    }
}

/* A GPU claim judged into r: its system (and job, unless a ratio), its
 * GPU, the other GPUs; -1 or an exit code. */
static int judge_gpu(const struct cli_opts *o, struct gclaims *x, struct scenario *s,
                     const struct claim *c, const char *origin, struct claim_result *r)
{
    struct gclaim_in in = {.cl = c, .hw = &s->hw, .gpu = &x->g};
    struct cat_entry e;
    int rc;
    if (c->kind == CLAIM_RATIO) {
        const char *wsets[CLI_MAX_SETS], *hsets[CLI_MAX_SETS];
        size_t nw, nh;
        scenario_split_sets(&x->ws, wsets, &nw, hsets, &nh);
        if ((rc = scenario_resolve_hw(&x->ws, c->system, &e)) >= 0)
            return rc;
        rc = scenario_load_hw(&x->ws, &e, hsets, nh, &s->hw, &s->hw_src);
        snprintf(s->system, sizeof s->system, "%s", e.name);
        snprintf(s->model, sizeof s->model, "-");
        cat_entry_free(&e);
    } else {
        rc = setup(&x->ws, c, origin, s);
        s->c.systems = c->systems;
        in.ws = &s->c;
    }
    if (rc >= 0 || (rc = load_gpu(o, x, c, origin)) >= 0 || (rc = load_others(o, x)) >= 0)
        return rc;
    in.others = x->others;
    in.nothers = x->nothers;
    struct cp_error err = {0};
    if (gclaim_eval(&in, r, &err) != CP_OK)
        return cli_error("%s:%d: %s", origin, c->line, err.msg);
    return -1;
}

int claims_table(const struct cli_opts *o, const char *file, struct out_table *t, char *origin,
                 size_t origin_n)
{
    out_init(t, sizeof header / sizeof header[0], header);
    struct cp_error err = {0};
    struct cat_entry e;
    cp_status st;
    if (file)
        st = cat_read_file(file, &e, &err);
    else
        st = cat_find_data(&o->dirs, "reports", "claims.csv", &e, &err);
    if (st != CP_OK)
        return cli_error("%s", err.msg);
    struct claim_list cl;
    if (claim_parse(e.text, strlen(e.text), e.origin, &cl, &err) != CP_OK) {
        cat_entry_free(&e);
        return cli_error("%s", err.msg);
    }
    static struct scenario s;
    static struct gclaims x;
    memset(&x, 0, sizeof x);
    split_gpu_sets(o, &x);
    int rc = -1;
    for (size_t i = 0; i < cl.n && rc < 0; i++) {
        const struct claim *c = &cl.items[i];
        struct claim_result r;
        if (claim_kind_is_gpu(c->kind)) {
            if ((rc = judge_gpu(o, &x, &s, c, e.origin, &r)) >= 0)
                break;
        } else {
            if ((rc = setup(&x.ws, c, e.origin, &s)) >= 0)
                break;
            claim_eval(c, &s.c, &r);
        }
        char sys[32], pred[64], gpus[32] = "";
        snprintf(sys, sizeof sys, "%g", c->systems);
        if (c->gpus > 0)
            snprintf(gpus, sizeof gpus, "%g", c->gpus);
        else if (claim_kind_is_gpu(c->kind) && c->kind != CLAIM_RATIO)
            snprintf(gpus, sizeof gpus, "auto");
        out_row(t, (const char *[]){c->id, c->text, c->source, claim_kind_name[c->kind], s.model,
                                    s.system, sys, predicted(o->csv, c, &r, pred, sizeof pred),
                                    o->csv ? claim_verdict_name[r.verdict]
                                           : claim_verdict_text[r.verdict],
                                    r.reason, c->condition, c->gpu, gpus});
    }
    snprintf(origin, origin_n, "%s", e.origin);
    claim_list_free(&cl);
    cat_entry_free(&e);
    return rc;
}

int cmd_claims(struct cli_opts *o)
{
    struct out_table t;
    char origin[CAT_ORIGIN_MAX];
    int rc = claims_table(o, o->nargs ? o->args[0] : NULL, &t, origin, sizeof origin);
    if (rc >= 0) {
        out_free(&t);
        return rc;
    }
    if (o->csv) {
        rc = cli_emit(o, &t);
    } else {
        printf("Headline claims (%s) under the analytic model\n", origin);
        for (size_t i = 0; i < t.nrows; i++) {
            const char *const *row = (const char *const *)&t.cells[i * t.ncols];
            printf("\n[%s] %s (%s)\n  verdict:   %s\n  predicted: %s\n  why:       %s\n"
                   "  condition: %s\n",
                   row[0], row[1], row[2], row[8], row[7], row[9], row[10]);
        }
        rc = cli_flush();
    }
    out_free(&t);
    return rc;
}
