/* cmd_compare.c - `compare`: one training job on a weight-streaming
 * cluster (-s) and on a GPU cluster (--gpu), side by side for a buyer.
 * Loads both descriptions and the options, runs the comparison of
 * src/plan/cmp.h and prints it as a table of quantities against the two
 * clusters, or as CSV (src/print/cmp_print.c). */
#include <stdio.h>
#include <string.h>

#include "../face/cmp_opts.h"
#include "../print/cmp_print.h"
#include "progress.h"


/* The --gpu description with its --set keys; -1 or an exit code. */
static int load_gpu(const struct cli_opts *o, const char *const *sets, size_t n,
                    struct gpuhw_desc *g, struct desc_src *src)
{
    if (!o->gpu)
        return cli_error("compare: --gpu is required: the GPU system to compare with (such as "
                         "h100; list hw shows each system's model)");
    return cmpo_load_gpu(o, o->gpu, sets, n, g, src, NULL);
}

/* The mode (--deadline or -n), the GPU price and the layout into sp;
 * -1 or an exit code. */
static int parse_spec(const struct cli_opts *o, struct cmp_cli *x)
{
    struct cmp_spec *sp = &x->spec;
    char why[256];
    if (!o->deadline == !o->nsys)
        return cli_error("compare: give one of --deadline TIME (the fewest of each that meet "
                         "it) or -n N (N systems, and the GPUs as fast)");
    sp->mode = o->deadline ? CMP_DEADLINE : CMP_SYSTEMS;
    if (o->deadline) {
        if (unit_parse(o->deadline, UNIT_TIME, &sp->deadline_s, why, sizeof why) != 0)
            return cli_error("--deadline '%s': %s", o->deadline, why);
        if (!(sp->deadline_s > 0))
            return cli_error("--deadline '%s': must be greater than zero", o->deadline);
    }
    int rc = cmpo_gpu_price(o, &sp->gpu_price);
    if (rc >= 0)
        return rc;
    sp->ws = &x->s.c;
    sp->gpu = &x->g;
    return cmpo_layout(o, sp);
}

/* Options of the groups compare takes that it does not use. */
static int refuse(const struct cli_opts *o)
{
    const struct {
        int given;
        const char *flag, *why;
    } no[] = {
        {o->energy != NULL, "--energy", "compare meets a deadline"},
        {o->budget != NULL, "--budget", "compare meets a deadline"},
        {o->allow_sparsity, "--allow-sparsity", "the GPU model trains dense weights"},
        {o->allow_batch, "--allow-batch", "both sides train at the same batch"},
        {o->sparsity != NULL, "--sparsity", "the GPU model trains dense weights"},
        {o->verbose, "--verbose", "compare has no solver steps to show"},
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (no[i].given)
            return cli_error("compare: %s does not apply (%s)", no[i].flag, no[i].why);
    return -1;
}

/* --confidence (each side moved to the count that meets the deadline in
 * the share asked), then the bands of both sides at their answers. */
static cp_status draws(struct cmp_cli *x, struct cp_error *err)
{
    const struct unc_opt *u = &x->uo;
    x->w_point = x->r.ws.systems;
    x->g_point = x->r.g.s.units;
    cp_status st = CP_OK;
    if (u->confidence > 0) {
        const struct pscan_conf pw = {&x->s.hw_src, u->samples, u->seed, u->confidence};
        const struct pscan_conf pg = {&x->g_src, u->samples, u->seed + 1, u->confidence};
        st = cmp_confident(&x->spec, &x->r, &pw, &pg, &x->wc, &x->gc, err);
    }
    if (st == CP_OK && u->on)
        st = cmp_bands(&x->spec, &x->r, &x->s.hw_src, &x->g_src, u->samples, u->seed, &x->b, err);
    return st;
}

int cmd_compare(struct cli_opts *o)
{
    static struct cmp_cli x;
    static struct cli_opts ws;
    const char *gsets[CLI_MAX_SETS];
    size_t ng;
    int rc;
    if ((rc = refuse(o)) >= 0 || (rc = cmpo_load_ws(o, "compare", &ws, &x.s, gsets, &ng)) >= 0 ||
        (rc = load_gpu(o, gsets, ng, &x.g, &x.g_src)) >= 0 || (rc = parse_spec(o, &x)) >= 0 ||
        (rc = unc_opt_parse_plan(o, &x.uo)) >= 0)
        return rc;
    if (x.uo.confidence > 0 && x.spec.mode != CMP_DEADLINE)
        return cli_error("compare: --confidence needs --deadline (with -n the systems are given)");
    struct cp_error err = {0};
    struct progress pg;
    progress_start(&pg, "compare: GPU counts searched");
    x.spec.progress = progress_show;
    x.spec.progress_user = &pg;
    cp_status st = cmp_run(&x.spec, &x.r, &err);
    progress_end(&pg);
    if (st == CP_OK)
        st = draws(&x, &err);
    if (st != CP_OK)
        return cli_error("%s", err.msg);
    if (cmp_print(o, &x) != 0)
        return cli_flush();
    rc = cli_flush();
    return rc == EXIT_OK && !(x.r.ws_ok && x.r.gpu_ok) ? EXIT_VERDICT : rc;
}
