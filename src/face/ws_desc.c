/* ws_desc.c - the weight-streaming face of `list hw` and `show`: a
 * system's row of key figures, its title, and its keys with the MemoryX
 * tiers. */
#include <stdio.h>

#include "../cli/job.h"
#include "../cli/scenario.h"
#include "../desc/hw.h"

cp_status ws_list_row(struct out_table *t, int csv, const struct cat_entry *e, struct cp_error *err)
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

cp_status ws_title(const struct cat_entry *e, char *buf, size_t n, struct cp_error *err)
{
    struct hw_desc hw;
    cp_status st = hw_load(e->text, e->origin, NULL, 0, &hw, NULL, err);
    if (st == CP_OK)
        snprintf(buf, n, "%s", hw.wse.name);
    return st;
}

int ws_show(const struct cli_opts *o, const struct cat_entry *e, const struct show_sink *sink)
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
