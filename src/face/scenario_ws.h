/* scenario_ws.h - the weight-streaming scenario: the options every model
 * command shares (-m -s -n --memoryx --sparsity --batch --tokens --overlap
 * --price --batch-penalty --set) turned into a loaded workload, hardware
 * and struct cluster (scenario_ws.c).  A GPU system named here is refused
 * in one line saying why (cerebras-plan(1), KINDS OF CLUSTER). */
#ifndef CP_SCENARIO_WS_H
#define CP_SCENARIO_WS_H

#include "../cli/scenario.h"

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

/* A core message msg that calls the global batch "--batch" (sim.c,
 * cluster.c), with that name made where the batch came from: --batch or
 * --batch-tokens when given, else the model's key (--set model.batch or
 * FILE:LINE: model.batch).  own: the batch is the caller's own (crosscheck's
 * grid), msg stays as it is.  Into buf (n bytes); returns buf. */
const char *scenario_batch_msg(const struct cli_opts *o, const struct scenario *s, int own,
                               const char *msg, char *buf, size_t n);

#endif
