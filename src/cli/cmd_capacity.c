/* cmd_capacity.c - `capacity`: MemoryX bytes per parameter, the model's
 * total, and which tiers of one or every system hold it.  This file
 * reads the options and loads the systems; the rows and lines are
 * src/print/cap_print.c's. */
#include <stdio.h>

#include "produce.h"
#include "../model/mx.h"
#include "../desc/tfm.h"
#include "../face/est.h"
#include "../print/cap_print.h"
#include "job.h"

/* Whether the listed description item is of a kind that keeps its state
 * in MemoryX tiers (the face's memoryx_tiers): capacity sizes those, and
 * "every system" without -s is every description of such kinds.  A system
 * of another kind named with -s gets its kind's refusal from the scenario
 * (cerebras-plan(1), KINDS OF CLUSTER).  A description that cannot be
 * opened is kept: its load names the error. */
static int listed_tiered(const struct cat_entry *item)
{
    const struct face *f = job_listed_face(item);
    return !f || f->memoryx_tiers;
}

/* capacity_table(), and in servers (n bytes) the servers each system's
 * server_memory takes to hold the state. */
static int capacity_rows(const struct cli_opts *o, struct out_table *t, int *fits, char *where,
                         char *vendor, char *servers, size_t n, struct wl_desc *first)
{
    cap_table_init(t);
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
        if (!o->system && !listed_tiered(&systems.items[i]))
            continue;
        const char *sys = o->system ? o->system : systems.items[i].name;
        if ((rc = scenario_load_names(o, o->model ? o->model : SCENARIO_DEFAULT_MODEL, sys, &s)) >=
            0)
            break;
        if (!o->system)
            snprintf(s.system, sizeof s.system, "%s", systems.items[i].name);
        double params = tfm_params(&s.wl);
        if (!shown++ && first)
            *first = s.wl; /* its breakdown is printed once every system loaded */
        const char *smallest;
        double state = params * mx_bytes_per_param(&s.wl);
        *fits += cap_tier_rows(t, o->csv, s.system, &s.hw.mx, &s.wl, state, &smallest);
        cap_servers_needed(s.system, &s.hw.mx, state, servers, n, &slen);
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
                         n < sizeof servers ? n : sizeof servers, NULL);
}

int cmd_capacity(struct cli_opts *o)
{
    if (o->nsys || o->sparsity || o->batch || o->tokens || o->overlap || o->price || o->memoryx ||
        o->mx_servers || o->act_servers || o->activations || o->batch_tokens || o->batch_penalty)
        return cli_error("capacity: only -m, -s, --set, --hw-overlay, --csv and --data-dir apply");
    struct out_table t;
    int fits;
    char where[1024], vendor[1024], servers[1024];
    static struct wl_desc first;
    first.name[0] = '\0';
    int rc = capacity_rows(o, &t, &fits, where, vendor, servers, sizeof where, &first);
    if (rc < 0) {
        if (!o->csv && first.name[0])
            cap_breakdown(stdout, &first, tfm_params(&first));
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
