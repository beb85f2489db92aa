/* scenario.c - shared scenario options: resolve, load, override, check. */
#include "scenario.h"

#include "../model/mx.h"
#include "../model/train.h"
#include "../plan/plan.h"
#include "../base/words.h"
#include "../desc/gpuhw.h"
#include "../desc/tfm.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The commands that model weight-streaming clusters only, each with the
 * reason a GPU system cannot apply, in a planner's words; cerebras-plan(1),
 * KINDS OF CLUSTER, lists the same lines and tests/cli_parity.sh checks
 * both. */
static const struct {
    const char *cmd, *why;
} ws_only[] = {
    {"capacity", "capacity sizes MemoryX, where a weight-streaming cluster keeps the weights "
                 "and optimizer state; a GPU holds them in its HBM (estimate shows the bytes "
                 "per GPU)"},
    {"simulate", "the simulator models the weight-streaming pipeline (MemoryX, SwarmX, each "
                 "system's ingress and egress), which a GPU cluster does not have"},
    {"explore", "the explorer's panels are the weight-streaming model's (MemoryX tier, "
                "sparsity, overlap); estimate, scale and sweep take GPU systems"},
};

/* The refusal of the GPU system e for o's command, in one line: the
 * command's reason when it has one, else the kind; EXIT_USAGE. */
static int refuse_gpu(const struct cli_opts *o, const struct cat_entry *e)
{
    for (size_t i = 0; o->cmd && i < sizeof ws_only / sizeof ws_only[0]; i++)
        if (strcmp(ws_only[i].cmd, o->cmd) == 0)
            return cli_error("%s: %s is a GPU system: %s", o->cmd, e->name, ws_only[i].why);
    return cli_error("%s is a GPU system (kind = gpu); this command models weight-streaming "
                     "clusters only",
                     e->origin);
}

int scenario_load_hw(const struct cli_opts *o, const struct cat_entry *e, const char *const *sets,
                     size_t nsets, struct hw_desc *hw, struct desc_src *src)
{
    struct cat_entry ov[CLI_MAX_OVERLAYS];
    struct desc_text text[CLI_MAX_OVERLAYS] = {{NULL, NULL}};
    struct cp_error err = {0};
    cp_status st = CP_OK;
    size_t n = 0;
    if (gpuhw_kind_of(e->text) == GPUHW_GPU)
        return refuse_gpu(o, e);
    for (; st == CP_OK && n < o->noverlays; n++) {
        if ((st = cat_read_file(o->overlays[n], &ov[n], &err)) != CP_OK)
            break;
        text[n] = (struct desc_text){ov[n].text, o->overlays[n]};
    }
    if (st != CP_OK)
        cli_error("--hw-overlay: %s", err.msg);
    else if ((st = hw_load_overlays(e->text, e->origin, text, n, sets, nsets, hw, src, &err)) !=
             CP_OK)
        cli_error("%s", err.msg);
    while (n > 0)
        cat_entry_free(&ov[--n]);
    return st == CP_OK ? -1 : EXIT_USAGE;
}

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

int scenario_load_names(const struct cli_opts *o, const char *model, const char *system,
                        struct scenario *s)
{
    const char *wsets[CLI_MAX_SETS], *hsets[CLI_MAX_SETS];
    size_t nw, nh;
    scenario_split_sets(o, wsets, &nw, hsets, &nh);
    int rc = scenario_load_wl(o, model, wsets, nw, &s->wl, &s->wl_src, s->model);
    struct cat_entry e;
    if (rc < 0 && (rc = scenario_resolve_hw(o, system, &e)) < 0) {
        rc = scenario_load_hw(o, &e, hsets, nh, &s->hw, &s->hw_src);
        snprintf(s->system, sizeof s->system, "%s", e.name);
        cat_entry_free(&e);
    }
    if (rc >= 0)
        return rc;
    cluster_init(&s->c, &s->hw, &s->wl);
    snprintf(s->tier, sizeof s->tier, "sized"); /* until a tier or count is given */
    return -1;
}

const char *scenario_batch_msg(const struct cli_opts *o, const struct scenario *s, int own,
                               const char *msg, char *buf, size_t n)
{
    static const char core[] = "--batch: ";
    struct cp_error e = {0};
    if (own || o->batch || strncmp(msg, core, sizeof core - 1) != 0) {
        snprintf(buf, n, "%s", msg);
        return buf;
    }
    const char *rest = msg + sizeof core - 1;
    if (o->batch_tokens)
        snprintf(buf, n, "--batch-tokens: %s", rest);
    else {
        desc_key_error(&wl_schema, &s->wl_src, "model", "batch", &e, "%s", rest);
        snprintf(buf, n, "%s", e.msg);
    }
    return buf;
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

int scenario_memoryx(struct scenario *s, const char *arg)
{
    for (size_t i = 0; i < s->hw.mx.tiers.n; i++)
        if (strcmp(s->hw.mx.tiers.item[i].name, arg) == 0) {
            s->c.mx_servers = mx_tier_servers(&s->hw.mx, s->hw.mx.tiers.item[i].value);
            snprintf(s->tier, sizeof s->tier, "%s", arg);
            return -1;
        }
    char why[256];
    double v;
    if (unit_parse(arg, UNIT_BYTES, &v, why, sizeof why) != 0 || !(v > 0)) {
        char names[512] = "";
        size_t len = 0;
        for (size_t i = 0; i < s->hw.mx.tiers.n && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                    s->hw.mx.tiers.item[i].name);
        return cli_error("--memoryx '%s': not a tier of %s (tiers: %s) nor a capacity such as "
                         "'4 TB'",
                         arg, s->system, names);
    }
    s->c.mx_servers = mx_tier_servers(&s->hw.mx, v);
    if (!(s->c.mx_servers <= HW_MAX_SERVERS))
        return cli_error("--memoryx '%s': takes %g servers, more than %g", arg, s->c.mx_servers,
                         HW_MAX_SERVERS);
    snprintf(s->tier, sizeof s->tier, "%s", arg);
    return -1;
}

int scenario_activations(struct cluster *c, const char *arg)
{
    for (int m = 0; m < ACT_NMODES; m++) {
        size_t n = strlen(act_mode_name[m]);
        if (strncmp(arg, act_mode_name[m], n) != 0)
            continue;
        if (arg[n] == '\0') {
            c->act = (enum act_mode)m;
            c->act_k = 0;
            return -1;
        }
        if (m == ACT_RECOMPUTE && arg[n] == ':') {
            char why[256];
            double k;
            if (unit_parse(arg + n + 1, UNIT_COUNT, &k, why, sizeof why) != 0)
                return cli_error("--activations '%s': %s", arg, why);
            if (!(k >= 1 && k <= c->wl->layers) || k != floor(k))
                return cli_error("--activations '%s': k must be a whole number of blocks from 1 "
                                 "to %g",
                                 arg, c->wl->layers);
            c->act = ACT_RECOMPUTE;
            c->act_k = k;
            return -1;
        }
    }
    return cli_error("--activations '%s': must be auto, wafer, recompute, recompute:K or offload",
                     arg);
}

void scenario_auto_tier(struct scenario *s)
{
    s->c.mx_servers = 0;
    snprintf(s->tier, sizeof s->tier, "sized");
}

/* Parse arg as dimension d into *out; -1 or an exit code. */
static int parse_opt(const char *flag, const char *arg, unit_dim d, double *out)
{
    char why[256];
    if (unit_parse(arg, d, out, why, sizeof why) != 0)
        return cli_error("%s '%s': %s", flag, arg, why);
    return -1;
}

/* -n, and the MemoryX and activation servers (--memoryx or
 * --memoryx-servers, --act-servers), with the tier's label; -1 or an exit
 * code after a message. */
static int load_servers(const struct cli_opts *o, struct scenario *s)
{
    struct cluster *c = &s->c;
    int rc;
    if (o->nsys && (rc = scenario_systems("-n", o->nsys, &c->systems)) >= 0)
        return rc;
    if (o->memoryx && o->mx_servers)
        return cli_error("--memoryx and --memoryx-servers both set the MemoryX servers; give one");
    if (o->memoryx && (rc = scenario_memoryx(s, o->memoryx)) >= 0)
        return rc;
    if ((rc = scenario_whole_opt("--memoryx-servers", o->mx_servers, 1, HW_MAX_SERVERS,
                                 &c->mx_servers)) >= 0 ||
        (rc = scenario_whole_opt("--act-servers", o->act_servers, 1, HW_MAX_SERVERS,
                                 &c->act_servers)) >= 0)
        return rc;
    if (o->mx_servers)
        snprintf(s->tier, sizeof s->tier, "%g server%s", c->mx_servers,
                 c->mx_servers == 1 ? "" : "s");
    return -1;
}

int scenario_batch(const struct cli_opts *o, double seq_len, double *global_seqs)
{
    int rc;
    if (o->batch) {
        if ((rc = parse_opt("--batch", o->batch, UNIT_COUNT, global_seqs)) >= 0)
            return rc;
        if (!(*global_seqs >= 1) || *global_seqs != floor(*global_seqs))
            return cli_error("--batch '%s': must be a whole number of sequences, at least 1",
                             o->batch);
    }
    if (o->batch_tokens) {
        double t;
        if (o->batch)
            return cli_error("--batch and --batch-tokens both set the global batch; give one");
        if ((rc = parse_opt("--batch-tokens", o->batch_tokens, UNIT_COUNT, &t)) >= 0)
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
    else if ((rc = parse_opt("--tokens", o->tokens, UNIT_COUNT, tokens)) >= 0)
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
    if ((rc = parse_opt(flag, arg, UNIT_COUNT, price)) >= 0)
        return rc;
    if (!(*price >= 0) || !isfinite(*price))
        return cli_error("%s '%s': must be a finite price, not negative", flag, arg);
    return -1;
}

int scenario_refuse_gpu_opts(const struct cli_opts *o, const char *cmd)
{
    const struct {
        const char *flag, *value;
    } g[] = {{"--tp", o->tp},
             {"--pp", o->pp},
             {"--cp", o->cp},
             {"--vp", o->vp},
             {"--mbs", o->mbs},
             {"--fsdp", o->fsdp ? "" : NULL},
             {"--precision", o->precision}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
        if (g[i].value)
            return cli_error("%s: %s applies to GPU systems; %s is a weight-streaming system", cmd,
                             g[i].flag, o->system ? o->system : SCENARIO_DEFAULT_SYSTEM);
    return -1;
}

int scenario_load(const struct cli_opts *o, struct scenario *s)
{
    int rc = scenario_load_names(o, o->model ? o->model : SCENARIO_DEFAULT_MODEL,
                                 o->system ? o->system : SCENARIO_DEFAULT_SYSTEM, s);
    if (rc >= 0 || (rc = load_servers(o, s)) >= 0)
        return rc;
    struct cluster *c = &s->c;
    if (o->activations && (rc = scenario_activations(c, o->activations)) >= 0)
        return rc;
    if (o->sparsity &&
        (rc = parse_opt("--sparsity", o->sparsity, UNIT_FRACTION, &c->sparsity)) >= 0)
        return rc;
    if ((rc = scenario_batch(o, s->wl.seq_len, &c->global_seqs)) >= 0 ||
        (rc = scenario_tokens(o, tfm_params(&s->wl), &c->tokens)) >= 0)
        return rc;
    if (o->overlap && (rc = parse_opt("--overlap", o->overlap, UNIT_FRACTION, &c->overlap)) >= 0)
        return rc;
    c->overlap_set = o->overlap != NULL;
    if ((rc = scenario_price("--price", o->price, &c->price)) >= 0)
        return rc;
    c->batch_penalty = o->batch_penalty;
    struct cp_error err = {0};
    if (cluster_check(c, &err) != CP_OK || train_check(c, &err) != CP_OK)
        return cli_error("%s", err.msg);
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
        if (unit_parse(arg[m], plan_limit_dim[m], &po->limit[m], why, sizeof why) != 0)
            return cli_error("%s '%s': %s", plan_limit_flag[m], arg[m], why);
        if (!(po->limit[m] > 0))
            return cli_error("%s '%s': must be greater than zero", plan_limit_flag[m], arg[m]);
        any = 1;
    }
    if (!any)
        return cli_error("plan: give a target: --deadline TIME, --energy ENERGY or --budget "
                         "AMOUNT (with --price)");
    if (o->budget && !o->price)
        return cli_error("--budget '%s': needs --price, the cost of one %s-hour", o->budget, unit);
    po->allow_sparsity = o->allow_sparsity;
    po->allow_batch = o->allow_batch;
    return -1;
}
