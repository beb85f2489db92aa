/* scenario_ws.c - the weight-streaming scenario: the options every model
 * command shares (src/cli/scenario.c) turned into a loaded workload,
 * hardware (with its overlays and --set) and struct cluster, with the
 * options of the weight-streaming kind (-n, --memoryx, --memoryx-servers,
 * --act-servers, --activations, --sparsity, --overlap, --price,
 * --batch-penalty).  See scenario_ws.h. */
#include "scenario_ws.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../desc/gpuhw.h"
#include "../desc/tfm.h"
#include "../model/mx.h"
#include "../model/train.h"

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
        (rc = scenario_parse_opt("--sparsity", o->sparsity, UNIT_FRACTION, &c->sparsity)) >= 0)
        return rc;
    if ((rc = scenario_batch(o, s->wl.seq_len, &c->global_seqs)) >= 0 ||
        (rc = scenario_tokens(o, tfm_params(&s->wl), &c->tokens)) >= 0)
        return rc;
    if (o->overlap && (rc = scenario_parse_opt("--overlap", o->overlap, UNIT_FRACTION, &c->overlap)) >= 0)
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
