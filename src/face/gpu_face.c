/* gpu_face.c - the GPU face (cli/job.h): a command's job from the options
 * (struct gscen, the layout search's spec), the rows of `list hw` and
 * `show` (key figures with the weight-streaming columns "-", title, keys),
 * and the face gathering the parts of gpu_*.c. */
#include <stdio.h>

#include "gscen.h"
#include "../gpu/gpu_tm.h"
#include "gpu.h"
#include "scale.h"
#include "../sweep/sweep_faces.h"
#include "../desc/gpuhw.h"

/* Peak per GPU at 16 bits and its HBM. */
static cp_status list_row(struct out_table *t, int csv, const struct cat_entry *e,
                          struct cp_error *err)
{
    struct gpuhw_desc g;
    cp_status st = gpuhw_load(e->text, e->origin, NULL, 0, &g, NULL, err);
    if (st != CP_OK)
        return st;
    char f[32], m[32];
    out_row(t, (const char *[]){e->name, g.name, "gpu",
                                out_num(csv, g.chip.peak_flops[GPUHW_BF16], UNIT_FLOP_RATE, f, 32),
                                "-", out_num(csv, g.chip.hbm_bytes, UNIT_BYTES, m, 32), "-", "-",
                                e->origin});
    return CP_OK;
}

static cp_status title(const struct cat_entry *e, char *buf, size_t n, struct cp_error *err)
{
    struct gpuhw_desc g;
    cp_status st = gpuhw_load(e->text, e->origin, NULL, 0, &g, NULL, err);
    if (st == CP_OK)
        snprintf(buf, n, "%s", g.name);
    return st;
}

static int show(const struct cli_opts *o, const struct cat_entry *e, const struct show_sink *sink)
{
    static struct gpuhw_desc g;
    static struct desc_src src;
    struct cp_error err = {0};
    if (o->noverlays)
        return cli_error("--hw-overlay: %s is a GPU system; overlays apply to weight-streaming "
                         "hardware",
                         o->args[0]);
    if (gpuhw_load(e->text, e->origin, o->sets, o->nsets, &g, &src, &err) != CP_OK)
        return cli_error("%s", err.msg);
    sink->keys(sink->user, &gpuhw_schema, &g, &src, 1);
    return -1;
}

static int load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    static struct gscen s;
    static struct gpu_tm_job g;
    int rc = unc_opt_parse(o, &j->uo);
    if (rc >= 0 || (rc = gscen_load(o, cmd, &s)) >= 0)
        return rc;
    g = (struct gpu_tm_job){&s.g, &s.wl, s.spec, s.tokens, s.price, s.ref_batch, s.batch_penalty};
    j->tm = (struct tm_job){&tm_gpu, &g, s.spec.gpus};
    j->model = s.model;
    j->system = s.system;
    j->hw_src = &s.g_src;
    j->label = NULL;
    j->scen = &s;
    return -1;
}

const struct face face_gpu = {
    .kind = &tm_gpu,
    .load = load,
    .estimate = gpu_estimate,
    .scale_side = &gpu_scale_side,
    .plan = gpu_plan,
    .list_row = list_row,
    .title = title,
    .show = show,
    .sweep = &sweep_gpu_face,
    .memoryx_tiers = 0,
};
