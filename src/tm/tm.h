/* tm.h - one training model over every kind of cluster.
 *
 * A job (a workload, its global batch and training tokens, a cluster
 * description and the options of its kind) is evaluated at a count of
 * units (systems or GPUs) into one struct tm_result, whichever the kind:
 * the step time with its parts, time-to-train (with the time failures
 * take: gp.h), goodput, throughput, MFU, the bill of materials, power by
 * part, energy, cost (cost.h) and the verdicts.  What only one kind has (the
 * placement and servers of a weight-streaming cluster; the GPU layout and
 * its runners-up) is the kind's detail, a block of detail_size bytes the
 * caller lends to tm_eval and the kind's front end may print.
 *
 * A kind is a const struct tm_kind (in the style of GSL's gsl_rng_type):
 * its names, whether a hardware description is its own, and its eval.
 * The kinds are listed once, in tm_kinds (kinds.c); a kind's model lives
 * in its own room (src/model for weight streaming: ws_tm.h; src/gpu for
 * GPUs: gpu_tm.h), and nothing above this interface asks which kind a job
 * is.
 *
 * Scaling.  eval at a count other than the job's own keeps the job's
 * global batch (TM_STRONG) or its sequences per unit (TM_WEAK: the global
 * batch grows with the count, each kind rounding it to whole sequences as
 * its model does).  TM_WEAK charges the batch penalty at every count, the
 * job's own too (desc/batch.h: the extra tokens a batch needs against the
 * critical batch), so a weak row's time-to-train is never below what the
 * critical batch allows; TM_STRONG charges it when the job asks
 * (--batch-penalty).
 *
 * Pure arithmetic, no I/O; SI units (seconds, W, J, tokens). */
#ifndef CP_TM_H
#define CP_TM_H

#include <stddef.h>

#include "../base/status.h"
#include "../base/units.h"
#include "cost.h"
#include "gp.h"

/* Most step parts, power parts and verdicts a kind reports. */
#define TM_MAX_PARTS 12
#define TM_MAX_POWER 6
#define TM_MAX_VERDICTS 12

enum tm_scaling { TM_STRONG, TM_WEAK };

/* One verdict: its name (a word: "memoryx", "memory"), whether it holds,
 * and whether the configuration is infeasible when it does not (else it
 * is a warning). */
struct tm_verdict {
    const char *name;
    int holds, fatal;
};

struct tm_result {
    double count;  /* units evaluated: systems or GPUs                    */
    int runs;      /* a configuration of the job exists at count          */
    int bad_input; /* it does not, because of a figure the user gave (a
                      fixed layout that divides nothing): exit 2, not 1   */
    int feasible;  /* runs and every fatal verdict holds                  */
    char why[CP_ERROR_MAX]; /* when it does not run: the kind's reason   */
    double global_tokens;   /* per step (also when it does not run)       */
    double step_s;
    size_t nparts;                /* of part_name, part_s                 */
    const char *const *part_name; /* the kind's names of the step's parts */
    double part_s[TM_MAX_PARTS];  /* each part's share of step_s, seconds */
    size_t bottleneck;            /* index of the largest part            */
    double tokens;                /* training tokens (with any batch penalty) */
    double critical_tokens;       /* the critical batch, tokens (desc/batch.h) */
    int batch_penalty;            /* tokens charge the batch penalty      */
    double steps, time_s, tokens_per_s;
    double mfu; /* model FLOPs utilisation; NAN where the kind has none yet */
    size_t npower;
    const char *const *power_name;
    double power_part_W[TM_MAX_POWER];
    double power_W, energy_J;
    double cost; /* in the price's currency; < 0 when no price was given */
    /* Failures and cost, the same for every kind: time_s above is the
     * expected wall time under failures (gp.h) when the job finishes,
     * else time_ff_s with the fatal verdict "failures"; energy and cost
     * are over time_s.  The bill of materials is the kind's parts (cost.h),
     * the lines cost and goodput read. */
    double time_ff_s;  /* steps x step time, without failures             */
    double ckpt_bytes; /* one checkpoint                                  */
    struct gp_result gp;
    size_t nbom;
    struct bom_line bom[COST_MAX_LINES];
    struct cost_result costs;
    char currency[COST_CURRENCY_MAX]; /* the prices' ("": none given)   */
    size_t nverdicts;
    struct tm_verdict verdict[TM_MAX_VERDICTS];
};

struct tm_kind {
    const char *name;        /* "weight-streaming", "gpu"                 */
    const char *unit, *units; /* "system", "systems"; "GPU", "GPUs"        */
    /* Whether the hardware description text (INI) is of this kind. */
    int (*is_mine)(const char *hw_text);
    size_t detail_size; /* bytes of the kind's own result                 */
    /* Evaluate job (the kind's own job type) at count under mode into r
     * and detail (detail_size bytes, the caller's; its content is the
     * kind's).  CP_OK when r is filled, a run or a reasoned refusal
     * (r->runs 0); else an error in err. */
    cp_status (*eval)(const void *job, double count, enum tm_scaling mode, struct tm_result *r,
                      void *detail, struct cp_error *err);
    /* The numeric keys of the kind's hardware description as parameters
     * of its model (sensitivity, uncertainty, calibration), in the
     * description schema's order: how many; the i-th's "section.key" into
     * buf (returns buf); its index in the kind's description schema (for
     * the struct desc_src of the loaded file: its origin and +- range);
     * the unit of its value; its value in job's description (SI); whether
     * it is a whole number; whether v is a value it may take there (its
     * own rules and those spanning keys); the reason it is not ranked by
     * sensitivity (NULL: it is; one short phrase, the same pointer for
     * keys left out for the same reason); and job evaluated as eval does
     * with key i at v (the job itself unchanged). */
    size_t (*nparams)(void);
    const char *(*param_name)(size_t i, char *buf, size_t n);
    int (*param_index)(size_t i);
    unit_dim (*param_dim)(size_t i);
    double (*param_get)(const void *job, size_t i);
    int (*param_whole)(size_t i);
    int (*param_valid)(const void *job, size_t i, double v);
    const char *(*param_skip_why)(size_t i);
    /* The "section.key" of the parameters not ranked, in the order the
     * kind names them (those of one reason together); NULL-terminated. */
    const char *const *skipped;
    /* The "section.key" of the parameter that holds the half-width of the
     * model's own relative error on the step time beyond its constants
     * (from its validation residuals; the model itself does not read it:
     * --uncertainty multiplies each draw's step time, time-to-train and
     * energy by a factor drawn uniform in 1 +- it, src/plan/unc.h); NULL
     * when the kind states none.  The kind lists it in skipped. */
    const char *model_error_key;
    cp_status (*param_eval)(const void *job, size_t i, double v, double count,
                            enum tm_scaling mode, struct tm_result *r, void *detail,
                            struct cp_error *err);
    /* A copy of job whose description is its own (uncertainty draws
     * keys into it one by one): clone_size bytes; clone makes it in buf
     * and returns it (a job of the kind, evaluated by eval); param_set
     * puts key i at v in a clone's description (and what follows the
     * key unless the user gave it, as loading does); param_valid on a
     * clone checks v against the clone's description as drawn so far. */
    size_t clone_size;
    void *(*clone)(const void *job, void *buf);
    void (*param_set)(void *clone, size_t i, double v);
    /* The first figure of r (with detail) that is not a finite number,
     * by name; NULL when every one is (kinds whose eval refuses such a
     * result themselves return NULL). */
    const char *(*nonfinite)(const struct tm_result *r, const void *detail);
    /* The configuration r (of job, with detail) is, in words for a
     * header, into buf: the workload, the count and the system, then the
     * kind's choices ("GPT-3 175B on 192 x CS-2, MemoryX sized (12
     * servers, 3.5 TB), sparsity 0"; "GPT-3 175B on 1024 x H100 ..., tp 8
     * pp 8 dp 16 ..., bf16").  label is the kind's words for an option as
     * the user gave it that its job does not keep (weight streaming: the
     * MemoryX tier; NULL: derived from the job).  Returns buf. */
    const char *(*describe)(const void *job, const char *label, const struct tm_result *r,
                            const void *detail, char *buf, size_t n);
    /* What makes r (runs, not feasible) infeasible, in the kind's words,
     * into buf ("" when nothing does).  Returns buf. */
    const char *(*infeasible_why)(const struct tm_result *r, const void *detail, char *buf,
                                  size_t n);
};

/* A job: its kind, the kind's own job (struct cluster, struct gpu_tm_job)
 * and the count it names. */
struct tm_job {
    const struct tm_kind *kind;
    const void *own;
    double count;
};

/* Every kind, NULL-terminated (kinds.c). */
extern const struct tm_kind *const tm_kinds[];

/* The kind whose description hw_text is; NULL when none claims it. */
const struct tm_kind *tm_kind_of(const char *hw_text);

/* j->kind's eval of j at count (j->count when count <= 0). */
cp_status tm_eval(const struct tm_job *j, double count, enum tm_scaling mode,
                  struct tm_result *r, void *detail, struct cp_error *err);

/* j->kind's param_eval of j with parameter i at v, at count (j->count
 * when count <= 0). */
cp_status tm_param_eval(const struct tm_job *j, size_t i, double v, double count,
                        enum tm_scaling mode, struct tm_result *r, void *detail,
                        struct cp_error *err);

/* The fields every kind fills the same way: r zeroed, count, MFU NAN,
 * cost -1.  Kinds call it first. */
void tm_result_init(struct tm_result *r, double count);

/* The failures, bill of materials and cost of r as the kind worked them
 * out (copied), and, when the job never finishes, the fatal verdict
 * "failures" that fails. */
void tm_result_failures(struct tm_result *r, const struct gp_result *gp, double time_ff_s,
                        double ckpt_bytes, const struct bom_line *bom, size_t nbom,
                        const struct cost_result *costs, const char *currency);

/* Append a verdict to r (up to TM_MAX_VERDICTS; more are dropped). */
void tm_verdict_add(struct tm_result *r, const char *name, int holds, int fatal);

/* r->feasible from r->runs and its fatal verdicts.  The bottleneck is
 * the kind's model's own pick (its rule for ties), set by the kind. */
void tm_result_close(struct tm_result *r);

#endif
