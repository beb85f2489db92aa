/* cap_print.c - what `capacity` prints (cap_print.h). */
#include "cap_print.h"

#include <math.h>

#include "../model/mx.h"

static const char *const header[] = {
    "system",      "tier", "servers",        "capacity_bytes", "dram_bytes",
    "state_bytes", "fits", "flash_fraction", "max_params",     "smallest",
};

void cap_table_init(struct out_table *t)
{
    out_init(t, sizeof header / sizeof header[0], header);
}

int cap_tier_rows(struct out_table *t, int csv, const char *system, const struct mx_spec *mx,
                  const struct wl_desc *wl, double state, const char **smallest)
{
    int best = mx_smallest_tier(mx, state), fits = 0;
    for (size_t i = 0; i < mx->tiers.n; i++) {
        double servers = mx_tier_servers(mx, mx->tiers.item[i].value);
        double cap = mx_capacity(mx, servers);
        char b[6][48];
        int ok = state <= cap;
        fits += ok;
        out_row(
            t, (const char *[]){
                   system,
                   mx->tiers.item[i].name,
                   out_num(csv, servers, UNIT_COUNT, b[5], sizeof b[5]),
                   out_num(csv, cap, UNIT_BYTES, b[0], sizeof b[0]),
                   out_num(csv, servers * mx->server_dram_bytes, UNIT_BYTES, b[1], sizeof b[1]),
                   out_num(csv, state, UNIT_BYTES, b[2], sizeof b[2]),
                   csv ? (ok ? "1" : "0") : (ok ? "holds" : "fails"),
                   out_num(csv, mx_flash_fraction(mx, servers, state), UNIT_FRACTION, b[3],
                           sizeof b[3]),
                   out_num(csv, floor(cap / mx_bytes_per_param(wl)), UNIT_COUNT, b[4], sizeof b[4]),
                   (int)i == best ? (csv ? "1" : "<- smallest") : (csv ? "0" : ""),
               });
    }
    *smallest = best >= 0 ? mx->tiers.item[best].name : NULL;
    return fits;
}

void cap_breakdown(FILE *f, const struct wl_desc *wl, double params)
{
    char a[64], b[64];
    fprintf(f, "%s: %s parameters\n\n", wl->name, unit_format(params, UNIT_COUNT, a, sizeof a));
    static const char *const hdr[] = {"part", "bytes/param", "total"};
    struct out_table t;
    out_init(&t, 3, hdr);
    for (int p = 0; p < MX_NPARTS; p++) {
        double per = mx_part_bytes(wl, (enum mx_part)p);
        out_row(&t, (const char *[]){mx_part_name[p], unit_format(per, UNIT_BYTES, a, sizeof a),
                                     unit_format(per * params, UNIT_BYTES, b, sizeof b)});
    }
    double per = mx_bytes_per_param(wl);
    out_row(&t, (const char *[]){"total", unit_format(per, UNIT_BYTES, a, sizeof a),
                                 unit_format(per * params, UNIT_BYTES, b, sizeof b)});
    out_text.write(f, &t);
    out_free(&t);
    fprintf(f, "\n");
}

void cap_servers_needed(const char *system, const struct mx_spec *mx, double state, char *buf,
                        size_t n, size_t *len)
{
    if (*len >= n)
        return;
    double k = mx_servers_to_hold(mx, state);
    char b[32], d[32];
    *len += (size_t)snprintf(buf + *len, n - *len, "%s%s %g x %s DRAM (%s)", *len ? "; " : "",
                             system, k, unit_format(mx->server_dram_bytes, UNIT_BYTES, b, sizeof b),
                             unit_format(k * mx->server_dram_bytes, UNIT_BYTES, d, sizeof d));
}
