/* cmd_claims.c - `claims [FILE]`: each headline claim of the vendor's
 * documents judged by src/claim, with the verdict and reason.  The command
 * loads what each claim's type asks for (claim_types[kind].needs: the job
 * on the claim's systems or its system alone; the claim's GPU and the
 * others described), judges it (claim_judge) and writes the table
 * (src/print/claims_print.h): CSV-ready when o->csv is set, else worded
 * for people; the report's index.md shows the latter. */
#include <stdio.h>
#include <string.h>

#include "produce.h"
#include "../claim/claim.h"
#include "../print/claims_print.h"

/* What the claims load besides the scenario (static: large). */
struct loaded {
    struct cli_opts ws; /* the options without the GPU's --set keys      */
    const char *gsets[CLI_MAX_SETS];
    size_t ngsets;
    struct gpuhw_desc g;
    struct gpuhw_desc others[CLAIM_OTHERS_MAX];
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

static void split_gpu_sets(const struct cli_opts *o, struct loaded *x)
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

/* The claim's model, system and tier on its systems; -1 or an exit code. */
static int load_job(const struct cli_opts *o, const struct claim *cl, const char *origin,
                    struct scenario *s)
{
    int rc = scenario_load_names(o, cl->model, cl->system, s);
    if (rc >= 0)
        return rc;
    if (strcmp(cl->memoryx, "auto") == 0)
        scenario_auto_tier(s);
    else if ((rc = scenario_memoryx(s, cl->memoryx)) >= 0) {
        fprintf(stderr, "cerebras-plan: (in %s, line %d)\n", origin, cl->line);
        return rc;
    }
    s->c.systems = cl->systems; /* the tier is sized as the scenario has it */
    return -1;
}

/* The claim's system alone (its model "-"); -1 or an exit code. */
static int load_system(const struct cli_opts *o, const struct claim *cl, struct scenario *s)
{
    const char *wsets[CLI_MAX_SETS], *hsets[CLI_MAX_SETS];
    size_t nw, nh;
    struct cat_entry e;
    scenario_split_sets(o, wsets, &nw, hsets, &nh);
    int rc = scenario_resolve_hw(o, cl->system, &e);
    if (rc >= 0)
        return rc;
    rc = scenario_load_hw(o, &e, hsets, nh, &s->hw, &s->hw_src);
    snprintf(s->system, sizeof s->system, "%s", e.name);
    snprintf(s->model, sizeof s->model, "-");
    cat_entry_free(&e);
    return rc;
}

/* The claim's GPU and, once, every GPU described; -1 or an exit code. */
static int load_gpus(const struct cli_opts *o, struct loaded *x, const struct claim *cl,
                     const char *origin)
{
    struct cp_error err = {0};
    int in_row;
    if (claim_gpu_load(&o->dirs, cl, origin, x->gsets, x->ngsets, &x->g, &in_row, &err) != CP_OK) {
        int rc = cli_error("%s", err.msg);
        if (in_row)
            fprintf(stderr, "cerebras-plan: (in %s, line %d)\n", origin, cl->line);
        return rc;
    }
    if (x->others_loaded)
        return -1;
    if (claim_gpu_all(&o->dirs, x->gsets, x->ngsets, x->others, CLAIM_OTHERS_MAX, &x->nothers,
                      &err) != CP_OK)
        return cli_error("%s", err.msg);
    x->others_loaded = 1;
    return -1;
}

/* What claim c's type needs, loaded into s, x and in; -1 or an exit code. */
static int load(struct loaded *x, struct scenario *s, const struct claim *c, const char *origin,
                struct claim_in *in)
{
    unsigned needs = claim_types[c->kind].needs;
    int rc = needs & CLAIM_NEEDS_JOB ? load_job(&x->ws, c, origin, s) : load_system(&x->ws, c, s);
    *in = (struct claim_in){.cl = c, .hw = &s->hw, .ws = needs & CLAIM_NEEDS_JOB ? &s->c : NULL};
    if (rc >= 0 || !(needs & CLAIM_NEEDS_GPUS))
        return rc;
    if ((rc = load_gpus(&x->ws, x, c, origin)) >= 0)
        return rc;
    in->gpu = &x->g;
    in->others = x->others;
    in->nothers = x->nothers;
    return -1;
}

int claims_table(const struct cli_opts *o, const char *file, struct out_table *t, char *origin,
                 size_t origin_n)
{
    claims_table_init(t);
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
    static struct loaded x;
    memset(&x, 0, sizeof x);
    split_gpu_sets(o, &x);
    int rc = -1;
    for (size_t i = 0; i < cl.n && rc < 0; i++) {
        const struct claim *c = &cl.items[i];
        struct claim_in in;
        struct claim_result r;
        if ((rc = load(&x, &s, c, e.origin, &in)) >= 0)
            break;
        if (claim_judge(&in, &r, &err) != CP_OK) {
            rc = cli_error("%s:%d: %s", e.origin, c->line, err.msg);
            break;
        }
        claims_row(t, o->csv, c, s.model, s.system, &r);
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
    if (rc < 0 && o->csv)
        rc = cli_emit(o, &t);
    else if (rc < 0) {
        claims_write_text(origin, &t);
        rc = cli_flush();
    }
    out_free(&t);
    return rc;
}
