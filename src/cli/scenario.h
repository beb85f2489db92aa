/* scenario.h - the options every model command shares (-m -s -n --memoryx
 * --sparsity --batch --tokens --overlap --price --batch-penalty --set),
 * turned into a loaded workload, hardware and struct cluster. */
#ifndef CP_SCENARIO_H
#define CP_SCENARIO_H

#include "../model/cluster.h"
#include "cli.h"

/* Defaults when -m or -s is not given: the headline job. */
#define SCENARIO_DEFAULT_MODEL "gpt3-175b"
#define SCENARIO_DEFAULT_SYSTEM "cs2"

struct scenario {
    char model[CAT_NAME_MAX], system[CAT_NAME_MAX];
    char tier[DESC_NAME_MAX]; /* tier name, capacity or count as given; "sized" */
    struct wl_desc wl;
    struct hw_desc hw;
    struct desc_src hw_src; /* origins and +- ranges of the hardware keys */
    struct desc_src wl_src; /* origins of the model's keys */
    struct cluster c;
};

/* The GPU layout options (--tp --pp --cp --vp --mbs --fsdp --precision)
 * refused for command cmd on a weight-streaming system; -1 when none is
 * given. */
int scenario_refuse_gpu_opts(const struct cli_opts *o, const char *cmd);

/* Load and check everything.  Returns -1 on success, else an exit code
 * after printing the message. */
int scenario_load(const struct cli_opts *o, struct scenario *s);

/* The hardware description e with o's --hw-overlay files (read and
 * applied in order: a later one wins, key by key) and then the nsets
 * overrides sets, into hw and src.  -1, or an exit code after the message. */
int scenario_load_hw(const struct cli_opts *o, const struct cat_entry *e, const char *const *sets,
                     size_t nsets, struct hw_desc *hw, struct desc_src *src);

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

/* Load only model and system from the given names (for claims). */
int scenario_load_names(const struct cli_opts *o, const char *model, const char *system,
                        struct scenario *s);

/* Parse a --memoryx value against hw's tiers (a tier name, or a capacity
 * with a byte unit) into the servers that make it up (s->c.mx_servers) and
 * s->tier.  Without it the servers are sized for the run.  -1 or exit code. */
int scenario_memoryx(struct scenario *s, const char *arg);

/* MemoryX servers sized for the run (the default without --memoryx). */
void scenario_auto_tier(struct scenario *s);

/* Parse an --activations value (auto, wafer, recompute, recompute:K,
 * offload) into c->act and c->act_k.  -1 or an exit code. */
int scenario_activations(struct cluster *c, const char *arg);

/* Check that v (given as arg) is a whole number of systems
 * (1..CLUSTER_MAX_SYSTEMS); -1 or an exit code after a message. */
int scenario_whole_systems(const char *flag, const char *arg, double v);

/* Parse a whole number of systems (1..CLUSTER_MAX_SYSTEMS) for flag. */
int scenario_systems(const char *flag, const char *arg, double *out);

/* A whole-number option (flag given arg) in lo..hi into *out, left alone
 * when arg is NULL; -1 or an exit code after a message. */
int scenario_whole_opt(const char *flag, const char *arg, double lo, double hi, double *out);

/* A core message msg that calls the global batch "--batch" (sim.c,
 * cluster.c), with that name made where the batch came from: --batch or
 * --batch-tokens when given, else the model's key (--set model.batch or
 * FILE:LINE: model.batch).  own: the batch is the caller's own (crosscheck's
 * grid), msg stays as it is.  Into buf (n bytes); returns buf. */
const char *scenario_batch_msg(const struct cli_opts *o, const struct scenario *s, int own,
                               const char *msg, char *buf, size_t n);

/* plan's targets (--deadline, --energy, --budget with --price per
 * unit-hour, and the allowances) into po; -1 or an exit code after a
 * message.  The flags and units of the targets, by enum plan_metric. */
struct plan_opts;
int plan_targets(const struct cli_opts *o, const char *unit, struct plan_opts *po);
extern const unit_dim plan_limit_dim[];
extern const char *const plan_limit_flag[];

#endif
