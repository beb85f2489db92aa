/* cap_print.h - what `capacity` prints (and the report reuses): the
 * MemoryX bytes per parameter of a model, and which tiers of a
 * weight-streaming system hold its state (src/model/mx.h). */
#ifndef CP_CAP_PRINT_H
#define CP_CAP_PRINT_H

#include <stdio.h>

#include "../cli/out.h"
#include "../desc/hw.h"
#include "../desc/wl.h"

/* t initialised with capacity's columns (the caller frees it). */
void cap_table_init(struct out_table *t);

/* One row of t per MemoryX tier of mx on system (its name), for state
 * bytes of wl's state, CSV-ready when csv is set.  Returns how many tiers
 * hold it; *smallest gets the smallest that does (NULL: none). */
int cap_tier_rows(struct out_table *t, int csv, const char *system, const struct mx_spec *mx,
                  const struct wl_desc *wl, double state, const char **smallest);

/* The per-part breakdown of wl's bytes per parameter for params
 * parameters, to f. */
void cap_breakdown(FILE *f, const struct wl_desc *wl, double params);

/* "cs3 1786 x 1.211 TB DRAM (2.163 PB)": the fewest servers of mx on
 * system whose DRAM holds state, appended to buf (n bytes, *len used;
 * "; " between entries). */
void cap_servers_needed(const char *system, const struct mx_spec *mx, double state, char *buf,
                        size_t n, size_t *len);

#endif
