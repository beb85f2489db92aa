/* cmp_opts.c - the options of a comparison with a GPU cluster (see
 * cmp_opts.h), shared by `compare` and `report`. */
#include "cmp_opts.h"

#include <stdio.h>
#include <string.h>

#include "gscen.h"

const char *cmpo_gpu_set(const char *set)
{
    static const char *const own[] = {"gpu.", "network.", "fit."};
    if (strncmp(set, "gpu:", 4) == 0)
        return set + 4;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strncmp(set, own[i], strlen(own[i])) == 0)
            return set;
    return NULL;
}

int cmpo_check_kind(const struct cli_opts *o, const char *cmd, const char *flag, const char *name,
                    enum gpuhw_kind want)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_resolve(&o->dirs, name, CAT_HW, &e, &err) != CP_OK)
        return -1;
    enum gpuhw_kind k = gpuhw_kind_of(e.text);
    cat_entry_free(&e);
    if (k == want)
        return -1;
    if (want == GPUHW_GPU)
        return cli_error("%s '%s': a weight-streaming system; %s takes a GPU system (list hw "
                         "shows each system's model), the weight-streaming one goes to -s",
                         flag, name, flag);
    return cli_error("%s '%s': a GPU system; %s takes the weight-streaming system with -s and "
                     "the GPU system with --gpu",
                     flag, name, cmd);
}

int cmpo_load_ws(const struct cli_opts *o, const char *cmd, struct cli_opts *ws, struct scenario *s,
                 const char **gsets, size_t *ng)
{
    *ws = *o;
    ws->nsets = *ng = 0;
    for (size_t i = 0; i < o->nsets; i++) {
        const char *g = cmpo_gpu_set(o->sets[i]);
        if (g)
            gsets[(*ng)++] = g;
        else
            ws->sets[ws->nsets++] = o->sets[i];
    }
    const char *sys = o->system ? o->system : SCENARIO_DEFAULT_SYSTEM;
    int rc = cmpo_check_kind(o, cmd, "-s", sys, GPUHW_WEIGHT_STREAMING);
    return rc >= 0 ? rc : scenario_load(ws, s);
}

int cmpo_load_gpu(const struct cli_opts *o, const char *name, const char *const *sets, size_t n,
                  struct gpuhw_desc *g, struct desc_src *src, char *catname)
{
    int rc = cmpo_check_kind(o, NULL, "--gpu", name, GPUHW_GPU);
    if (rc >= 0)
        return rc;
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_resolve(&o->dirs, name, CAT_HW, &e, &err) != CP_OK)
        return cli_error("--gpu '%s': %s", name, err.msg);
    cp_status st = gpuhw_load(e.text, e.origin, sets, n, g, src, &err);
    if (catname)
        snprintf(catname, CAT_NAME_MAX, "%s", e.name);
    cat_entry_free(&e);
    return st == CP_OK ? -1 : cli_error("%s", err.msg);
}

int cmpo_gpu_price(const struct cli_opts *o, double *price)
{
    char why[256];
    *price = -1;
    if (!o->gpu_price)
        return -1;
    if (unit_parse(o->gpu_price, UNIT_COUNT, price, why, sizeof why) != 0)
        return cli_error("--gpu-price '%s': %s", o->gpu_price, why);
    if (!(*price >= 0))
        return cli_error("--gpu-price '%s': must not be negative", o->gpu_price);
    return -1;
}

/* --precision, --tp, --pp, --cp, --vp, --mbs, --fsdp into l; -1 or an
 * exit code. */
static int parse_layout(const struct cli_opts *o, struct gpu_search_spec *l)
{
    *l = gpu_search_spec_default(0);
    if (o->precision) {
        int p = 0;
        while (p < GPUHW_NPRECS && strcmp(o->precision, gpuhw_prec_name[p]) != 0)
            p++;
        if (p == GPUHW_NPRECS)
            return cli_error("--precision '%s': must be bf16, fp8 or fp4", o->precision);
        l->precision = (enum gpuhw_prec)p;
    }
    int rc;
    if ((rc = scenario_whole_opt("--tp", o->tp, 1, CMP_GPU_MAX, &l->tp)) >= 0 ||
        (rc = scenario_whole_opt("--pp", o->pp, 1, CMP_GPU_MAX, &l->pp)) >= 0 ||
        (rc = scenario_whole_opt("--cp", o->cp, 1, CMP_GPU_MAX, &l->cp)) >= 0 ||
        (rc = scenario_whole_opt("--vp", o->vp, 1, CMP_GPU_MAX, &l->vp)) >= 0)
        return rc;
    if (o->fsdp)
        l->fsdp = 1;
    return scenario_whole_opt("--mbs", o->mbs, 1, CMP_GPU_MAX, &l->mbs);
}

int cmpo_fixed_check(const struct cli_opts *o, struct gpu_search_spec *l, const struct wl_desc *w,
                     const struct gpuhw_desc *g)
{
    const struct gpu_search_spec want = *l;
    const char *const flag[] = {"--precision", "--tp", "--pp", "--mbs"};
    const char *const arg[] = {o->precision ? o->precision : "bf16", o->tp, o->pp, o->mbs};
    double *const fig[] = {NULL, &l->tp, &l->pp, &l->mbs};
    const double val[] = {0, want.tp, want.pp, want.mbs};
    struct cp_error err = {0};
    l->tp = l->pp = l->mbs = GPU_SEARCH_FREE;
    for (int i = 0; i < 4; i++) {
        if (fig[i])
            *fig[i] = val[i];
        if (gpu_search_fixed_check(g, w, l, &err) != CP_OK) {
            *l = want;
            return cli_error("%s '%s': %s", flag[i], arg[i], err.msg);
        }
    }
    /* --cp and --vp, which gpu_search_fixed_check leaves at 1 */
    int rc = gscen_fixed_check(l, w, g);
    if (rc >= 0)
        return rc;
    /* the job's figures the search lists (a batch with too many divisors) */
    static struct gpu_search_job j;
    if (gpu_search_job_init(g, w, l, &j, &err) != CP_OK)
        return cli_error("%s on %s: %s", w->name, g->name, err.msg);
    return -1;
}

int cmpo_layout(const struct cli_opts *o, struct cmp_spec *sp)
{
    int rc = parse_layout(o, &sp->layout);
    if (rc >= 0)
        return rc;
    struct wl_desc w = *sp->ws->wl;
    w.batch = sp->ws->global_seqs;
    return cmpo_fixed_check(o, &sp->layout, &w, sp->gpu);
}

const char *cmpo_layout_text(const struct gpu_layout *l, const char *sep, char *buf, size_t n)
{
    char cp[32] = "", rc[64];
    if (l->cp > 1)
        snprintf(cp, sizeof cp, " cp %.0f", l->cp);
    if (l->recompute == GPU_RC_BLOCK)
        snprintf(rc, sizeof rc, "block recompute of %.0f layers a stage", l->recompute_layers);
    else
        snprintf(rc, sizeof rc, "recompute %s", gpu_recompute_name[l->recompute]);
    snprintf(buf, n, "tp %.0f pp %.0f%s dp %.0f mbs %.0f vp %.0f%s%s%s%s%s%s", l->tp, l->pp, cp,
             l->dp, l->mbs, l->vp, l->fsdp ? sep : "", l->fsdp ? "FSDP" : "", sep,
             gpuhw_prec_name[l->precision], sep, rc);
    return buf;
}
