/* ws_face.c - the weight-streaming face (cli/job.h): a command's job
 * from the options (struct scenario, the cluster), the rows of `list hw`
 * and `show` (key figures, title, keys with the MemoryX tiers), and the
 * face gathering the parts of ws_*.c. */
#include <stdio.h>

#include "../model/ws_tm.h"
#include "../sweep/sweep_faces.h"
#include "ws.h"
#include "scale.h"
#include "scenario_ws.h"
#include "../desc/hw.h"

static cp_status list_row(struct out_table *t, int csv, const struct cat_entry *e,
                          struct cp_error *err)
{
    struct hw_desc hw;
    cp_status st = hw_load(e->text, e->origin, NULL, 0, &hw, NULL, err);
    if (st != CP_OK)
        return st;
    char f[32], m[32], b[32], c[32];
    out_row(t,
            (const char *[]){e->name, hw.wse.name, "weight-streaming",
                             out_num(csv, hw.wse.peak_flops, UNIT_FLOP_RATE, f, 32),
                             out_num(csv, hw.wse.sram_bytes, UNIT_BYTES, m, 32), "-",
                             out_num(csv, hw.wse.io_bw_Bps, UNIT_BYTE_RATE, b, 32),
                             out_num(csv, hw.mx.server_dram_bytes, UNIT_BYTES, c, 32), e->origin});
    return CP_OK;
}

static cp_status title(const struct cat_entry *e, char *buf, size_t n, struct cp_error *err)
{
    struct hw_desc hw;
    cp_status st = hw_load(e->text, e->origin, NULL, 0, &hw, NULL, err);
    if (st == CP_OK)
        snprintf(buf, n, "%s", hw.wse.name);
    return st;
}

static int show(const struct cli_opts *o, const struct cat_entry *e, const struct show_sink *sink)
{
    static struct hw_desc hw;
    static struct desc_src src;
    if (scenario_load_hw(o, e, o->sets, o->nsets, &hw, &src) >= 0)
        return EXIT_USAGE;
    sink->keys(sink->user, &hw_schema, &hw, &src, 1);
    for (size_t i = 0; i < hw.mx.tiers.n; i++) {
        char q[64];
        snprintf(q, sizeof q, "tiers.%s", hw.mx.tiers.item[i].name);
        sink->num(sink->user, q, hw.mx.tiers.item[i].value, UNIT_BYTES, "tier");
    }
    return -1;
}

static int load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    static struct scenario s;
    int rc = scenario_refuse_gpu_opts(o, cmd);
    if (rc >= 0 || (rc = unc_opt_parse(o, &j->uo)) >= 0 || (rc = scenario_load(o, &s)) >= 0)
        return rc;
    j->tm = (struct tm_job){&tm_ws, &s.c, s.c.systems};
    j->model = s.model;
    j->system = s.system;
    j->hw_src = &s.hw_src;
    j->label = s.tier;
    j->scen = &s;
    return -1;
}

const struct face face_ws = {
    .kind = &tm_ws,
    .load = load,
    .estimate = ws_estimate,
    .scale_side = &ws_scale_side,
    .plan = ws_plan,
    .list_row = list_row,
    .title = title,
    .show = show,
    .sweep = &sweep_ws_face,
    .memoryx_tiers = 1,
};
