/* gscen.h - the scenario options on a GPU system: -m and -s (a description
 * with kind = gpu), -n GPUs, --tp --pp --cp --vp --mbs --fsdp --precision
 * (the search's fixed figures; --fsdp fixes FSDP on), --batch or
 * --batch-tokens, --tokens, --batch-penalty, --price (per GPU-hour), --set
 * (model.KEY to the
 * workload, the rest to the GPU description), turned into a workload, a
 * GPU description and a layout search spec.  The options that describe a
 * weight-streaming cluster (--memoryx, --sparsity, ...) are refused by
 * name. */
#ifndef CP_GSCEN_H
#define CP_GSCEN_H

#include "../desc/gpuhw.h"
#include "../gpu/gpu_search.h"
#include "../cli/cli.h"

/* Most GPUs a run may name: a million, past any cluster built (the
 * largest published training runs used tens of thousands). */
#define GSCEN_MAX_GPUS 1e6

struct gscen {
    char model[CAT_NAME_MAX], system[CAT_NAME_MAX];
    struct wl_desc wl;
    struct desc_src wl_src;
    struct gpuhw_desc g;
    struct desc_src g_src;
    struct gpu_search_spec spec; /* gpus, batch, precision, fixed figures  */
    double tokens;               /* training tokens at the reference batch */
    double ref_batch;            /* the model's batch, sequences: the one
                                    the token count is for               */
    int batch_penalty;           /* --batch-penalty                       */
    double price;                /* per GPU-hour; NAN when not given       */
};

/* Load and check everything for command cmd (for messages).  -1 on
 * success, else an exit code after the message. */
int gscen_load(const struct cli_opts *o, const char *cmd, struct gscen *s);

/* The fixed --cp and --vp of p against workload w on g, apart from the
 * GPU count: a --cp that does not divide the sequence, a --vp that a
 * fixed --pp cannot interleave (pp 1, or vp not dividing a stage's
 * layers), refused naming the flag.  -1, or EXIT_USAGE after a message. */
int gscen_fixed_check(const struct gpu_search_spec *p, const struct wl_desc *w,
                      const struct gpuhw_desc *g);

/* Nodes the GPUs fill (whole nodes), their power at the vendor's
 * maximum, and the GPU-hours of a run of time_s. */
double gscen_nodes(const struct gscen *s);
double gscen_power_W(const struct gscen *s);

/* The tokens a run of s at a global batch of batch sequences trains:
 * s's tokens, with the batch penalty when s asks for it (gpu.h,
 * gpu_train_tokens); *critical the critical batch, tokens.  The whole
 * steps of batch sequences that train them.  The GPUs charged for gpus
 * GPUs of g: every GPU of the whole nodes they fill. */
double gscen_tokens(const struct gscen *s, double batch, double *critical);
double gscen_steps(const struct gscen *s, double batch);
double gscen_charged_gpus(const struct gpuhw_desc *g, double gpus);

#endif
