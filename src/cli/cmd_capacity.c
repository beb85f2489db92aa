/* cmd_capacity.c - `capacity`: MemoryX bytes per parameter, the model's
 * total, and which tiers of one or every system hold it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "produce.h"
#include "../model/mx.h"
#include "../desc/tfm.h"
#include "../face/est.h"

static const char *const header[] = {
    "system",      "tier", "servers",        "capacity_bytes", "dram_bytes",
    "state_bytes", "fits", "flash_fraction", "max_params",     "smallest",
};

/* Rows for one system's tiers; returns how many tiers hold the model. */
static int tiers(struct out_table *t, const struct cli_opts *o, const struct scenario *s,
                 double state, const char **smallest_out)
{
    const struct mx_spec *mx = &s->hw.mx;
    int best = mx_smallest_tier(mx, state), fits = 0;
    for (size_t i = 0; i < mx->tiers.n; i++) {
        double servers = mx_tier_servers(&s->hw.mx, mx->tiers.item[i].value);
        double cap = mx_capacity(mx, servers);
        char b[6][48];
        int ok = state <= cap;
        fits += ok;
        out_row(t,
                (const char *[]){
                    s->system,
                    mx->tiers.item[i].name,
                    out_num(o->csv, servers, UNIT_COUNT, b[5], sizeof b[5]),
                    out_num(o->csv, cap, UNIT_BYTES, b[0], sizeof b[0]),
                    out_num(o->csv, servers * mx->server_dram_bytes, UNIT_BYTES, b[1], sizeof b[1]),
                    out_num(o->csv, state, UNIT_BYTES, b[2], sizeof b[2]),
                    o->csv ? (ok ? "1" : "0") : (ok ? "holds" : "fails"),
                    out_num(o->csv, mx_flash_fraction(mx, servers, state), UNIT_FRACTION, b[3],
                            sizeof b[3]),
                    out_num(o->csv, floor(cap / mx_bytes_per_param(&s->wl)), UNIT_COUNT, b[4],
                            sizeof b[4]),
                    (int)i == best ? (o->csv ? "1" : "<- smallest") : (o->csv ? "0" : ""),
                });
    }
    *smallest_out = best >= 0 ? mx->tiers.item[best].name : NULL;
    return fits;
}

static void breakdown(const struct scenario *s, double params)
{
    char a[64], b[64];
    printf("%s: %s parameters\n\n", s->wl.name, unit_format(params, UNIT_COUNT, a, sizeof a));
    static const char *const hdr[] = {"part", "bytes/param", "total"};
    struct out_table t;
    out_init(&t, 3, hdr);
    for (int p = 0; p < MX_NPARTS; p++) {
        double per = mx_part_bytes(&s->wl, (enum mx_part)p);
        out_row(&t, (const char *[]){mx_part_name[p], unit_format(per, UNIT_BYTES, a, sizeof a),
                                     unit_format(per * params, UNIT_BYTES, b, sizeof b)});
    }
    double per = mx_bytes_per_param(&s->wl);
    out_row(&t, (const char *[]){"total", unit_format(per, UNIT_BYTES, a, sizeof a),
                                 unit_format(per * params, UNIT_BYTES, b, sizeof b)});
    out_text.write(stdout, &t);
    out_free(&t);
    printf("\n");
}

/* "cs3 1786 x 1.211 TB DRAM (2.163 PB)", the fewest servers whose DRAM
 * holds state, appended to buf (n bytes, *len used). */
static void servers_needed(const struct scenario *s, double state, char *buf, size_t n, size_t *len)
{
    if (*len >= n)
        return;
    double k = mx_servers_to_hold(&s->hw.mx, state);
    char b[32], d[32];
    *len += (size_t)snprintf(buf + *len, n - *len, "%s%s %g x %s DRAM (%s)", *len ? "; " : "",
                             s->system, k,
                             unit_format(s->hw.mx.server_dram_bytes, UNIT_BYTES, b, sizeof b),
                             unit_format(k * s->hw.mx.server_dram_bytes, UNIT_BYTES, d, sizeof d));
}

/* capacity_table(), and in servers (n bytes) the servers each system's
 * server_memory takes to hold the state. */
static int capacity_rows(const struct cli_opts *o, struct out_table *t, int *fits, char *where,
                         char *vendor, char *servers, size_t n)
{
    out_init(t, sizeof header / sizeof header[0], header);
    /* Every hardware description when -s is not given. */
    struct cat_list systems = {0};
    struct cp_error err = {0};
    if (!o->system && cat_list(&o->dirs, CAT_HW, &systems, &err) != CP_OK)
        return cli_error("%s", err.msg);
    size_t nsys = o->system ? 1 : systems.n;
    static struct scenario s;
    int rc = -1;
    size_t wlen = 0, vlen = 0, slen = 0, shown = 0;
    *fits = 0;
    where[0] = vendor[0] = servers[0] = '\0';
    for (size_t i = 0; i < nsys && rc < 0; i++) {
        if (!o->system && scenario_listed_gpu(&systems.items[i]))
            continue; /* GPUs hold no MemoryX tiers */
        const char *sys = o->system ? o->system : systems.items[i].name;
        if ((rc = scenario_load_names(o, o->model ? o->model : SCENARIO_DEFAULT_MODEL, sys, &s)) >=
            0)
            break;
        if (!o->system)
            snprintf(s.system, sizeof s.system, "%s", systems.items[i].name);
        double params = tfm_params(&s.wl);
        if (!shown++ && !o->csv)
            breakdown(&s, params);
        const char *smallest;
        double state = params * mx_bytes_per_param(&s.wl);
        *fits += tiers(t, o, &s, state, &smallest);
        servers_needed(&s, state, servers, n, &slen);
        if (vlen < n)
            vlen += (size_t)snprintf(vendor + vlen, n - vlen, "%s%s %g B/param", vlen ? ", " : "",
                                     s.system, s.hw.mx.bytes_per_param);
        if (smallest && wlen < n)
            wlen += (size_t)snprintf(where + wlen, n - wlen, "%s%s tier %s", wlen ? "; " : "",
                                     s.system, smallest);
    }
    cat_list_free(&systems);
    return rc;
}

int capacity_table(const struct cli_opts *o, struct out_table *t, int *fits, char *where,
                   char *vendor, size_t n)
{
    static char servers[1024];
    return capacity_rows(o, t, fits, where, vendor, servers,
                         n < sizeof servers ? n : sizeof servers);
}

int cmd_capacity(struct cli_opts *o)
{
    if (o->nsys || o->sparsity || o->batch || o->tokens || o->overlap || o->price || o->memoryx ||
        o->mx_servers || o->act_servers || o->activations || o->batch_tokens || o->batch_penalty)
        return cli_error("capacity: only -m, -s, --set, --hw-overlay, --csv and --data-dir apply");
    struct out_table t;
    int fits;
    char where[1024], vendor[1024], servers[1024];
    int rc = capacity_rows(o, &t, &fits, where, vendor, servers, sizeof where);
    if (rc < 0) {
        rc = cli_emit(o, &t);
        if (!o->csv && rc == EXIT_OK) {
            printf("\nsmallest tier that holds it: %s\n", fits ? where : "none");
            printf("MemoryX servers that hold it: %s\n", servers);
            printf("(vendor sizing for comparison: %s)\n", vendor);
            rc = cli_flush();
        }
    }
    out_free(&t);
    if (rc == EXIT_OK && fits == 0)
        rc = EXIT_VERDICT;
    return rc;
}
