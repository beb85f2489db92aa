/* report_models.h - models.csv, the table of the report's size figure:
 * every model description on its fastest cluster of the report's system. */
#ifndef CP_REPORT_MODELS_H
#define CP_REPORT_MODELS_H

#include "../face/scenario_ws.h"

/* The size figure's second panel trains every model on one token budget,
 * GPT-3's (Brown et al. 2020), so that the models compare at equal work per
 * token rather than at their own token counts. */
#define REPORT_FIXED_TOKENS 300e9

/* One row per model description (cat_list), smallest first: the columns of
 * estimate --csv at the model's own tokens on the N from 1 to the
 * generation's max_systems that trains it fastest among the feasible ones
 * (the smallest such N; the servers sized for the run), then the fixed_
 * columns (fixed_tokens ... fixed_feasible) at REPORT_FIXED_TOKENS.  Each
 * model is taken as found, without o's --set, on base's hardware as
 * resolved; base's own model (by name) is base's workload.  t is
 * initialised here; the caller frees it.  -1 or an exit code after a
 * message. */
int report_models_table(const struct cli_opts *o, const struct scenario *base, struct out_table *t);

#endif
