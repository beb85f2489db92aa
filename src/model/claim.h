/* claim.h - the vendor's headline claims as scenarios (reports/claims.csv)
 * and their verdicts under the analytic model.
 *
 * A claims file is RFC 4180 CSV with a header row naming the columns
 * id,claim,source,kind,model,system,systems,memoryx,sparsity,target,condition.
 * kind says how the claim is checked and what target means:
 *   capacity          the model's state fits the servers of the tier
 *                     (fails if not); target: the longest training on
 *                     `systems`, with MemoryX sized for the run, that
 *                     still counts as training it (conditional if it is
 *                     infeasible there, or longer, when the reason says
 *                     how many systems the target needs)
 *   weak_scaling      weak-scaling efficiency at `systems` >= target; the
 *                     model's batch is the global batch at `systems`, so
 *                     each system keeps batch / systems sequences
 *   speedup           a measured weak-scaling speedup at `systems`: the
 *                     model must predict it within CLAIM_MEASURED_TOL
 *   sparsity_speedup  speedup at `sparsity` against dense >= target
 *   time_to_train     time-to-train on `systems` <= target (a duration)
 * A claims file may go on with five more columns for the claims that
 * compare with GPUs, gpu,gpus,precision,figure,deadline (empty for the
 * kinds above), and four more kinds, judged outside the weight-streaming
 * model (src/plan/gclaim.h says how):
 *   ratio             a figure of `system`'s chip over the same figure of
 *                     the GPU's (figure: cores, on_chip_memory,
 *                     memory_bandwidth, fabric_bandwidth, die_area), or
 *                     the GPUs whose HBM holds the `memoryx` tier (figure
 *                     memoryx) >= target; model is "-"
 *   gpu_time          time-to-train of the model on `gpus` GPUs >= target
 *                     (a duration: the claim says GPUs take that long)
 *   gpu_count         the GPUs the model needs >= target (a count): to fit
 *                     at all, or to train within `deadline`
 *   power             power of `systems` (or of the systems a `deadline`
 *                     needs) over that of the GPUs (`gpus`, or as many as
 *                     the same job needs) <= target (a fraction); figure
 *                     says whose power: chips or nodes
 * Verdicts: holds; holds only under stated conditions (the reason names
 * them); does not hold. */
#ifndef CP_CLAIM_H
#define CP_CLAIM_H

#include <stddef.h>

#include "../desc/gpuhw.h"
#include "cluster.h"

/* Relative band within which a prediction reproduces a measurement.
 * Assumed: 5%, the agreement the vendor's own "near-linear" wording
 * tolerates (15.3x of 16 is 4.4% short). */
#define CLAIM_MEASURED_TOL 0.05

/* A second token budget at which a capacity claim's training is timed, so
 * that models of every size compare on one budget beside their own
 * (compute-optimal) token count: GPT-3's 300 B training tokens (Brown et
 * al. 2020, section 2.2). */
#define CLAIM_REF_TOKENS 300e9

enum claim_kind {
    CLAIM_CAPACITY,
    CLAIM_WEAK_SCALING,
    CLAIM_SPEEDUP,
    CLAIM_SPARSITY_SPEEDUP,
    CLAIM_TIME_TO_TRAIN,
    CLAIM_RATIO, /* the kinds from here on compare with GPUs (gclaim.h) */
    CLAIM_GPU_TIME,
    CLAIM_GPU_COUNT,
    CLAIM_POWER,
    CLAIM_NKINDS
};
extern const char *const claim_kind_name[CLAIM_NKINDS];

/* Whether kind compares with GPUs: judged by gclaim_eval() (src/plan), not
 * claim_eval(). */
int claim_kind_is_gpu(enum claim_kind kind);

/* What a GPU claim compares (the figure column): a chip figure or the
 * MemoryX tier of a ratio claim, whose power a power claim counts. */
enum claim_figure {
    CLAIM_FIG_NONE, /* empty: the kinds that take none */
    CLAIM_FIG_CORES,
    CLAIM_FIG_ON_CHIP_MEMORY,
    CLAIM_FIG_MEMORY_BANDWIDTH,
    CLAIM_FIG_FABRIC_BANDWIDTH,
    CLAIM_FIG_DIE_AREA,
    CLAIM_FIG_MEMORYX,
    CLAIM_FIG_CHIPS, /* power: the systems alone against the GPUs' boards */
    CLAIM_FIG_NODES, /* power: all the model counts against whole nodes   */
    CLAIM_NFIGURES
};
extern const char *const claim_figure_name[CLAIM_NFIGURES]; /* "", "cores", ... */

/* Most GPUs a claim may name: 2^20, the largest count `compare` searches
 * (CMP_GPU_MAX in src/plan/cmp.h; gclaim.c checks they agree). */
#define CLAIM_MAX_GPUS 1048576.0

#define CLAIM_TEXT_MAX 256
#define CLAIM_WORD_MAX 64

struct claim {
    int line; /* in the claims file */
    char id[CLAIM_WORD_MAX], text[CLAIM_TEXT_MAX], source[CLAIM_WORD_MAX];
    enum claim_kind kind;
    char model[CLAIM_WORD_MAX], system[CLAIM_WORD_MAX], memoryx[CLAIM_WORD_MAX];
    double systems, sparsity, target; /* target in SI units for its kind */
    char condition[CLAIM_TEXT_MAX];
    /* GPU claims (empty or 0 for the others) */
    char gpu[CLAIM_WORD_MAX]; /* the GPU system                            */
    double gpus;              /* GPUs; 0: as many as the claim's job needs */
    enum gpuhw_prec precision;
    enum claim_figure figure;
    double deadline; /* s; 0: none */
};

struct claim_list {
    size_t n;
    struct claim *items;
};

/* Parse a claims file's text (libcsv, strict).  Errors name
 * origin:line: column.  The caller frees with claim_list_free(). */
cp_status claim_parse(const char *text, size_t len, const char *origin, struct claim_list *out,
                      struct cp_error *err);
void claim_list_free(struct claim_list *l);

enum claim_verdict { CLAIM_HOLDS, CLAIM_CONDITIONAL, CLAIM_FAILS };
extern const char *const claim_verdict_name[3]; /* "holds", "conditional", "does not hold" */
/* The verdicts in words for people: "holds", "holds only under stated
 * conditions", "does not hold". */
extern const char *const claim_verdict_text[3];

/* A speedup for people, three significant digits and an x: "6.70x",
 * "15.2x", "152x" (whole from 100x up).  Returns buf (n bytes). */
char *claim_format_speedup(double x, char *buf, size_t n);

/* A fraction (0.9234) as a percentage with one decimal: "92.3%".
 * Returns buf (n bytes). */
char *claim_format_percent(double f, char *buf, size_t n);

struct claim_result {
    enum claim_verdict verdict;
    double predicted; /* the model's figure for the claim's quantity */
    char reason[1024];
};

/* Evaluate cl on c (workload, hardware, tier and sparsity already set from
 * the claim; systems and sparsity are taken from cl). */
void claim_eval(const struct claim *cl, const struct cluster *c, struct claim_result *r);

#endif
