/* claim.h - the vendor's headline claims as scenarios (reports/claims.csv)
 * and their verdicts under the analytic model: the claims' one room.
 *
 * Each kind of claim is an entry of claim_types (claim.c): its name, what
 * its judge is given (the job on the claim's weight-streaming systems, or
 * the system alone; the claim's GPU and the others described) and its
 * judge.  claim_judge() judges any claim through that table, so a command
 * loads what the entry asks for and never asks which kind a claim is.
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
 * model (claim_gpu.h says how):
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

#include "../desc/catalog.h"
#include "../desc/gpuhw.h"
#include "../model/cluster.h"

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
    CLAIM_RATIO, /* the kinds from here on compare with GPUs (claim_gpu.h) */
    CLAIM_GPU_TIME,
    CLAIM_GPU_COUNT,
    CLAIM_POWER,
    CLAIM_NKINDS
};

/* Whether kind compares with GPUs (its judge is given the claim's GPU and
 * the rows of its kind take the GPU columns): claim_types[kind].needs has
 * CLAIM_NEEDS_GPUS. */
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
 * (CMP_GPU_MAX in src/plan/cmp.h; claim_gpu.c checks they agree). */
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

/* Parse a claims file's text (NUL-terminated, len its length; RFC 4180,
 * strict, through src/desc/csvtab).  Errors name origin:N: column, N the
 * row's number.  The caller frees with claim_list_free(). */
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

/* What a claim's judge is given: what claim_types[cl->kind].needs asks
 * for, loaded by the caller; the rest NULL. */
struct claim_in {
    const struct claim *cl;
    const struct hw_desc *hw; /* the claim's weight-streaming system     */
    /* The job on the claim's systems and tier (workload, batch, tokens),
     * with cl->systems set; NULL unless the type needs CLAIM_NEEDS_JOB. */
    const struct cluster *ws;
    const struct gpuhw_desc *gpu; /* the claim's GPU (CLAIM_NEEDS_GPUS) */
    /* Every GPU description of the search path (CLAIM_NEEDS_GPUS): a ratio
     * claim that falls short names those that meet it; a gpu_time claim
     * gives their times too. */
    const struct gpuhw_desc *others;
    size_t nothers;
};

/* Most other GPU descriptions a claim is given. */
#define CLAIM_OTHERS_MAX 16

/* The claim's GPU (cl->gpu, a GPU system on the search path d, with the
 * nsets --set assignments for GPU descriptions) into g (claim_load.c).
 * A name that resolves to nothing or to a weight-streaming system is an
 * error naming origin:line and the gpu column; an error of the
 * description itself is gpuhw_load's, with *in_row set so that the caller
 * says origin and line after it. */
cp_status claim_gpu_load(const struct cat_dirs *d, const struct claim *cl, const char *origin,
                         const char *const *sets, size_t nsets, struct gpuhw_desc *g, int *in_row,
                         struct cp_error *err);

/* Every GPU description on the search path d (at most max) into out[0 ..
 * *n), with the nsets --set assignments.  Errors: the catalog's or a
 * description's. */
cp_status claim_gpu_all(const struct cat_dirs *d, const char *const *sets, size_t nsets,
                        struct gpuhw_desc *out, size_t max, size_t *n, struct cp_error *err);

/* What a type of claim needs loaded: the job on the claim's model,
 * systems and tier (else its system alone); the claim's GPU and every
 * other GPU described. */
enum { CLAIM_NEEDS_JOB = 1, CLAIM_NEEDS_GPUS = 2 };

struct claim_type {
    const char *name; /* the kind cell's word: "capacity", ... */
    unsigned needs;   /* CLAIM_NEEDS_* */
    /* An empty gpus cell means as many GPUs as the job needs ("auto" in
     * the table), not none. */
    int gpus_auto;
    /* Judge in->cl into r (zeroed): the verdict, the claim's figure in
     * r->predicted (SI: bytes, a fraction, a speedup or ratio, a count of
     * GPUs, seconds) and the reason with its numbers.  CP_EINPUT when a
     * figure the claim needs is not given in a description (err names the
     * key). */
    cp_status (*judge)(const struct claim_in *in, struct claim_result *r, struct cp_error *err);
};

/* The types of claim, indexed by enum claim_kind (claim_types.c); a
 * kind's name is claim_types[kind].name. */
extern const struct claim_type claim_types[CLAIM_NKINDS];

/* Judge in->cl by its type's judge (claim_types) into r.  CP_OK with the
 * verdict; else an error in err, as the type's judge says. */
cp_status claim_judge(const struct claim_in *in, struct claim_result *r, struct cp_error *err);

#endif
