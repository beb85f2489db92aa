/* scenario.h - the options every model command shares, whatever the kind
 * of cluster (-m -s --batch --batch-tokens --tokens --price --set): names
 * resolved, the model loaded, the batch, tokens and prices parsed.  The
 * weight-streaming scenario (a loaded workload, hardware and struct
 * cluster) is src/face/scenario_ws.h; the GPU one src/face/gscen.h. */
#ifndef CP_SCENARIO_H
#define CP_SCENARIO_H

#include "../model/cluster.h"
#include "cli.h"

/* Defaults when -m or -s is not given: the headline job. */
#define SCENARIO_DEFAULT_MODEL "gpt3-175b"
#define SCENARIO_DEFAULT_SYSTEM "cs2"

/* Split o's --set options: model.KEY to wsets, the others to hsets. */
void scenario_split_sets(const struct cli_opts *o, const char **wsets, size_t *nw,
                         const char **hsets, size_t *nh);

/* Resolve and load the model description name with the nsets overrides
 * into w and src, its catalog name into model.  -1, or an exit code after
 * a message. */
int scenario_load_wl(const struct cli_opts *o, const char *name, const char *const *sets,
                     size_t nsets, struct wl_desc *w, struct desc_src *src,
                     char model[CAT_NAME_MAX]);

/* Resolve name as a hardware description into e (the caller frees it).
 * -1, or an exit code after a message naming what name is instead. */
int scenario_resolve_hw(const struct cli_opts *o, const char *name, struct cat_entry *e);

/* The global batch from --batch (whole sequences) or --batch-tokens
 * (rounded up to whole sequences of seq_len tokens) into *global_seqs,
 * left alone when neither is given; -1 or an exit code after a message. */
int scenario_batch(const struct cli_opts *o, double seq_len, double *global_seqs);

/* The training tokens from --tokens (a count, or chinchilla: so many per
 * parameter of params) into *tokens, left alone when not given; -1 or an
 * exit code after a message. */
int scenario_tokens(const struct cli_opts *o, double params, double *tokens);

/* A price option flag given arg: finite, not negative, into *price, left
 * alone when arg is NULL; -1 or an exit code after a message. */
int scenario_price(const char *flag, const char *arg, double *price);

/* Check that v (given as arg) is a whole number of systems
 * (1..CLUSTER_MAX_SYSTEMS); -1 or an exit code after a message. */
int scenario_whole_systems(const char *flag, const char *arg, double v);

/* Parse a whole number of systems (1..CLUSTER_MAX_SYSTEMS) for flag. */
int scenario_systems(const char *flag, const char *arg, double *out);

/* arg of flag parsed as dimension d into *out; -1 or an exit code after
 * a message. */
int scenario_parse_opt(const char *flag, const char *arg, unit_dim d, double *out);

/* A whole-number option (flag given arg) in lo..hi into *out, left alone
 * when arg is NULL; -1 or an exit code after a message. */
int scenario_whole_opt(const char *flag, const char *arg, double lo, double hi, double *out);

/* plan's targets (--deadline, --energy, --budget with --price per
 * unit-hour, and the allowances) into po; -1 or an exit code after a
 * message.  The flags and units of the targets, by enum plan_metric. */
struct plan_opts;
int plan_targets(const struct cli_opts *o, const char *unit, struct plan_opts *po);

/* --budget's currency (a symbol or code, cost_parse) against currency,
 * the one the description named name prices in (cost.currency): -1 when
 * they agree or none is named, else the exit code after a message. */
int plan_budget_currency(const struct cli_opts *o, const char *currency, const char *name);
extern const unit_dim plan_limit_dim[];
extern const char *const plan_limit_flag[];

#endif
