/* gpu_desc.c - the GPU face of `list hw` and `show`: a GPU system's row of
 * key figures (the weight-streaming columns "-"), its title, and its
 * keys. */
#include <stdio.h>

#include "../cli/job.h"
#include "../desc/gpuhw.h"

/* Peak per GPU at 16 bits and its HBM. */
cp_status gpu_list_row(struct out_table *t, int csv, const struct cat_entry *e,
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

cp_status gpu_title(const struct cat_entry *e, char *buf, size_t n, struct cp_error *err)
{
    struct gpuhw_desc g;
    cp_status st = gpuhw_load(e->text, e->origin, NULL, 0, &g, NULL, err);
    if (st == CP_OK)
        snprintf(buf, n, "%s", g.name);
    return st;
}

int gpu_show(const struct cli_opts *o, const struct cat_entry *e, const struct show_sink *sink)
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
