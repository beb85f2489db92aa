/* scenario.c - the options every model command shares, whatever the kind
 * of cluster: names resolved, the model loaded, --set split, the batch,
 * tokens, prices, whole numbers and plan's targets.  The weight-streaming
 * scenario built on them is src/face/scenario_ws.c. */
#include "scenario.h"

#include "../plan/plan.h"
#include "../tm/cost.h"
#include "../base/words.h"
#include "../desc/tfm.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Resolve name as a description of kind (a message saying what it is
 * when it is the other kind).  -1, or an exit code after a message. */
static int resolve(const struct cli_opts *o, const char *name, enum cat_kind kind,
                   struct cat_entry *e)
{
    struct cp_error err = {0};
    cp_status st = cat_resolve(&o->dirs, name, kind, e, &err);
    if (st == CP_ENOTFOUND) {
        /* the other kind, for a message that says what the name is */
        struct cp_error other = {0};
        if (cat_resolve(&o->dirs, name, CAT_ANY, e, &other) != CP_OK)
            return cli_error("%s", err.msg);
    } else if (st != CP_OK) {
        return cli_error("%s", err.msg);
    }
    if (e->kind != kind) {
        cli_error("%s is a %s description, not a %s", e->origin,
                  e->kind == CAT_MODEL ? "model" : "hardware",
                  kind == CAT_MODEL ? "model (-m)" : "system (-s)");
        cat_entry_free(e);
        return EXIT_USAGE;
    }
    return -1;
}

int scenario_load_wl(const struct cli_opts *o, const char *name, const char *const *sets,
                     size_t nsets, struct wl_desc *w, struct desc_src *src,
                     char model[CAT_NAME_MAX])
{
    struct cat_entry e;
    struct cp_error err = {0};
    int rc = resolve(o, name, CAT_MODEL, &e);
    if (rc >= 0)
        return rc;
    if (wl_load(e.text, e.origin, sets, nsets, w, src, &err) != CP_OK)
        rc = cli_error("%s", err.msg);
    snprintf(model, CAT_NAME_MAX, "%s", e.name);
    cat_entry_free(&e);
    return rc;
}

int scenario_resolve_hw(const struct cli_opts *o, const char *name, struct cat_entry *e)
{
    return resolve(o, name, CAT_HW, e);
}

void scenario_split_sets(const struct cli_opts *o, const char **wsets, size_t *nw,
                         const char **hsets, size_t *nh)
{
    /* --set model.KEY goes to the workload, every other section to the
     * hardware (whose loader names an unknown section). */
    *nw = *nh = 0;
    for (size_t i = 0; i < o->nsets; i++) {
        if (strncmp(o->sets[i], "model.", 6) == 0)
            wsets[(*nw)++] = o->sets[i];
        else
            hsets[(*nh)++] = o->sets[i];
    }
}

int scenario_whole_systems(const char *flag, const char *arg, double v)
{
    if (!(v >= 1 && v <= CLUSTER_MAX_SYSTEMS) || v != floor(v))
        return cli_error("%s '%s': must be a whole number of systems from 1 to %g (not %.15g)",
                         flag, arg, CLUSTER_MAX_SYSTEMS, v);
    return -1;
}

int scenario_systems(const char *flag, const char *arg, double *out)
{
    char why[256];
    if (unit_parse(arg, UNIT_COUNT, out, why, sizeof why) != 0)
        return cli_error("%s '%s': %s", flag, arg, why);
    return scenario_whole_systems(flag, arg, *out);
}

int scenario_parse_opt(const char *flag, const char *arg, unit_dim d, double *out)
{
    char why[256];
    if (unit_parse(arg, d, out, why, sizeof why) != 0)
        return cli_error("%s '%s': %s", flag, arg, why);
    return -1;
}

int scenario_batch(const struct cli_opts *o, double seq_len, double *global_seqs)
{
    int rc;
    if (o->batch) {
        if ((rc = scenario_parse_opt("--batch", o->batch, UNIT_COUNT, global_seqs)) >= 0)
            return rc;
        if (!(*global_seqs >= 1) || *global_seqs != floor(*global_seqs))
            return cli_error("--batch '%s': must be a whole number of sequences, at least 1",
                             o->batch);
    }
    if (o->batch_tokens) {
        double t;
        if (o->batch)
            return cli_error("--batch and --batch-tokens both set the global batch; give one");
        if ((rc = scenario_parse_opt("--batch-tokens", o->batch_tokens, UNIT_COUNT, &t)) >= 0)
            return rc;
        if (!(t >= seq_len) || !isfinite(t))
            return cli_error("--batch-tokens '%s': must be at least one sequence (%g tokens)",
                             o->batch_tokens, seq_len);
        /* whole sequences: the batch rounds up to the next one */
        *global_seqs = ceil(t / seq_len);
    }
    return -1;
}

int scenario_tokens(const struct cli_opts *o, double params, double *tokens)
{
    int rc;
    if (!o->tokens)
        return -1;
    char close[64];
    const char *const words[] = {"chinchilla"};
    if (isalpha((unsigned char)o->tokens[0]) && strcmp(o->tokens, "chinchilla") != 0) {
        int near = words_suggest(o->tokens, words, 1, close, sizeof close) > 0;
        return cli_error("--tokens '%s': a number of tokens (e.g. 3e11) or chinchilla%s%s%s",
                         o->tokens, near ? "; did you mean " : "", close, near ? "?" : "");
    }
    if (strcmp(o->tokens, "chinchilla") == 0)
        *tokens = WL_CHINCHILLA_TOKENS_PER_PARAM * params;
    else if ((rc = scenario_parse_opt("--tokens", o->tokens, UNIT_COUNT, tokens)) >= 0)
        return rc;
    /* a count of tokens, exact in a double: past 2^53 a step count is no
     * longer whole (the largest runs train on about 1e13) */
    if (!(*tokens >= 1) || *tokens != floor(*tokens) || *tokens > 0x1p53)
        return cli_error("--tokens '%s': must be a whole number of tokens from 1 to 2^53 (about "
                         "9.007e15)",
                         o->tokens);
    return -1;
}

int scenario_price(const char *flag, const char *arg, double *price)
{
    int rc;
    if (!arg)
        return -1;
    if ((rc = scenario_parse_opt(flag, arg, UNIT_COUNT, price)) >= 0)
        return rc;
    if (!(*price >= 0) || !isfinite(*price))
        return cli_error("%s '%s': must be a finite price, not negative", flag, arg);
    return -1;
}

int scenario_whole_opt(const char *flag, const char *arg, double lo, double hi, double *out)
{
    if (!arg)
        return -1;
    char why[256];
    double v;
    if (unit_parse(arg, UNIT_COUNT, &v, why, sizeof why) != 0)
        return cli_error("%s '%s': %s", flag, arg, why);
    if (!(v >= lo && v <= hi) || v != floor(v))
        return cli_error("%s '%s': must be a whole number from %g to %g", flag, arg, lo, hi);
    *out = v;
    return -1;
}

int plan_budget_currency(const struct cli_opts *o, const char *currency, const char *name)
{
    double v;
    char cur[COST_CURRENCY_MAX], why[256];
    if (!o->budget || cost_parse(o->budget, &v, cur, sizeof cur, why, sizeof why) != 0 ||
        cost_currency_is(cur, currency))
        return -1;
    return cli_error("--budget '%s': the amount is in %s, but %s prices in %s", o->budget, cur,
                     name, currency[0] ? currency : "no currency");
}

const unit_dim plan_limit_dim[PLAN_NMETRICS] = {UNIT_TIME, UNIT_ENERGY, UNIT_COUNT};
const char *const plan_limit_flag[PLAN_NMETRICS] = {"--deadline", "--energy", "--budget"};

int plan_targets(const struct cli_opts *o, const char *unit, struct plan_opts *po)
{
    const char *arg[PLAN_NMETRICS] = {o->deadline, o->energy, o->budget};
    int any = 0;
    for (int m = 0; m < PLAN_NMETRICS; m++) {
        po->limit[m] = 0;
        if (!arg[m])
            continue;
        char why[256];
        char cur[COST_CURRENCY_MAX];
        if (m == PLAN_COST ? cost_parse(arg[m], &po->limit[m], cur, sizeof cur, why, sizeof why) != 0
                           : unit_parse(arg[m], plan_limit_dim[m], &po->limit[m], why, sizeof why) != 0)
            return cli_error("%s '%s': %s", plan_limit_flag[m], arg[m], why);
        if (!(po->limit[m] > 0))
            return cli_error("%s '%s': must be greater than zero", plan_limit_flag[m], arg[m]);
        any = 1;
    }
    if (!any)
        return cli_error("plan: give a target: --deadline TIME, --energy ENERGY or --budget "
                         "AMOUNT");
    (void)unit;
    po->allow_sparsity = o->allow_sparsity;
    po->allow_batch = o->allow_batch;
    return -1;
}
