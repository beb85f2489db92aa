/* claims_print.c - `claims`'s rows and text blocks (claims_print.h): a
 * claim's figure in the words of its kind, its verdict, reason and
 * condition. */
#include "claims_print.h"

#include <stdio.h>

static const char *const header[] = {"id",        "claim",   "source",    "kind",    "model",
                                     "system",    "systems", "predicted", "verdict", "reason",
                                     "condition", "gpu",     "gpus"};

void claims_table_init(struct out_table *t)
{
    out_init(t, sizeof header / sizeof header[0], header);
}

/* ---- a claim's figure for people, by its kind ---- */

typedef const char *(*fig_text)(const struct claim *cl, double v, char *buf, size_t n);

static const char *bytes(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    return unit_format(v, UNIT_BYTES, buf, n);
}

static const char *percent(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    return claim_format_percent(v, buf, n);
}

static const char *speedup(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    return claim_format_speedup(v, buf, n);
}

static const char *gpus(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    snprintf(buf, n, "%.0f GPUs", v);
    return buf;
}

/* A ratio: "53.3x", "6269x"; for memoryx the GPUs that hold the tier. */
static const char *ratio(const struct claim *cl, double v, char *buf, size_t n)
{
    if (cl->figure == CLAIM_FIG_MEMORYX)
        return gpus(cl, v, buf, n);
    if (v < 99.95)
        return claim_format_speedup(v, buf, n);
    snprintf(buf, n, "%.0fx", v);
    return buf;
}

static const char *power(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    snprintf(buf, n, "%.3g%%", 100 * v);
    return buf;
}

static const char *duration(const struct claim *cl, double v, char *buf, size_t n)
{
    (void)cl;
    return out_duration(v, buf, n);
}

/* The words of each kind's figure: a capacity in bytes, an efficiency or
 * power as a percentage, a speedup or ratio as "6.70x", a count of GPUs,
 * a time as a duration. */
static const fig_text fig_words[CLAIM_NKINDS] = {
    [CLAIM_CAPACITY] = bytes,           [CLAIM_WEAK_SCALING] = percent,   [CLAIM_SPEEDUP] = speedup,
    [CLAIM_SPARSITY_SPEEDUP] = speedup, [CLAIM_TIME_TO_TRAIN] = duration, [CLAIM_RATIO] = ratio,
    [CLAIM_GPU_TIME] = duration,        [CLAIM_GPU_COUNT] = gpus,         [CLAIM_POWER] = power,
};

void claims_row(struct out_table *t, int csv, const struct claim *c, const char *model,
                const char *system, const struct claim_result *r)
{
    char sys[32], pred[64], ngpus[32] = "";
    snprintf(sys, sizeof sys, "%g", c->systems);
    if (c->gpus > 0)
        snprintf(ngpus, sizeof ngpus, "%g", c->gpus);
    else if (claim_types[c->kind].gpus_auto)
        snprintf(ngpus, sizeof ngpus, "auto");
    const char *p = csv ? unit_format_exact(r->predicted, pred, sizeof pred)
                        : fig_words[c->kind](c, r->predicted, pred, sizeof pred);
    out_row(t, (const char *[]){
                   c->id, c->text, c->source, claim_types[c->kind].name, model, system, sys, p,
                   csv ? claim_verdict_name[r->verdict] : claim_verdict_text[r->verdict], r->reason,
                   c->condition, c->gpu, ngpus});
}

void claims_write_text(const char *origin, const struct out_table *t)
{
    printf("Headline claims (%s) under the analytic model\n", origin);
    for (size_t i = 0; i < t->nrows; i++) {
        const char *const *row = (const char *const *)&t->cells[i * t->ncols];
        printf("\n[%s] %s (%s)\n  verdict:   %s\n  predicted: %s\n  why:       %s\n"
               "  condition: %s\n",
               row[0], row[1], row[2], row[8], row[7], row[9], row[10]);
    }
}
