/* cmp.h - one training job on a weight-streaming cluster and on a GPU
 * cluster, side by side, for a buyer: the cluster each needs to meet a
 * deadline (or the GPUs that match N systems), with time-to-train, power,
 * energy and cost, and the time each takes at the weight-streaming
 * cluster's power.
 *
 * The job is the same on both sides: the workload, its global batch in
 * sequences and its training tokens, so both run the same number of whole
 * steps (train.h: steps = ceil(tokens / (batch x seq_len))) and the
 * time-to-train is steps x step time on both.
 *
 * Weight streaming: the model and planner as they are (train.h, plan.h).
 * At a deadline the cluster is plan_solve()'s, the fewest systems that
 * meet it; with N systems, the cluster evaluated at N.  Power is
 * train_result.power_W: the systems, MemoryX servers, activation servers
 * and SwarmX nodes; cost is the cluster's price per system-hour x systems
 * x hours (train.h).
 *
 * GPUs: a count of GPUs runs the fastest layout gpu_search() finds (the
 * caller's precision, fixed tp/pp/mbs and recompute rule; free figures
 * searched), and the time-to-train is the job's steps x its step time.
 * Counts are searched in steps of S, the largest power of two dividing the
 * GPUs per node (8 for an 8-GPU node: whole nodes; 8 for a 72-GPU NVL72
 * rack, whose 72 = 8 x 9 no job with power-of-two figures divides), from S
 * to CMP_GPU_MAX; a count runs in ceil(count / gpus_per_node) nodes, each
 * counted whole at its maximum wall power (system.node_power: the vendor's
 * maximum, not a measured training draw), and a GPU price is charged for
 * every GPU of those nodes.  Nothing of the network beyond the nodes
 * (switches, storage) is counted.
 *  - Fewest GPUs for a time (the planner's scan, pscan.h, over the GPU
 *    kind of the interface): every count S, 2 S, ... is searched upward
 *    and the first whose time meets the target is the answer: the step
 *    time is not monotone in the count (a count's layouts depend on its
 *    divisors, and many counts run no layout: dp must divide the batch),
 *    so no bisection.  The job's divisors are listed once for the scan,
 *    and the counts that some tp pp cp dp divides marked once
 *    (gpu_search_counts, time linear in the bound): the others are passed
 *    over without a search, and when no count of the scan divides, it
 *    stops at once naming the figures.  A search takes well under a
 *    millisecond for a job with few divisors, so the whole range to
 *    CMP_GPU_MAX about a second; a job whose figures have hundreds of
 *    divisors (720720 layers and sequences) searches many layouts at
 *    each count: 15-30 s.  The
 *    answer is the fewest among the counts searched, every one below it
 *    included.
 *  - At equal power: every count S, 2 S, ... whose nodes draw at most the
 *    weight-streaming cluster's power is searched and the fastest taken
 *    (the same scan, with no limit). */
#ifndef CP_CMP_H
#define CP_CMP_H

#include "../gpu/gpu_search.h"
#include "../gpu/gpu_tm.h"
#include "plan.h"
#include "pscan.h"
#include "unc.h"

/* The largest GPU count searched: 2^20 = 1,048,576 GPUs.  A search bound,
 * not a machine's limit; assumed far enough: about a hundred times the
 * largest measured run of hw/gpu-measurements.csv (MLPerf Training v3.1,
 * 10,752 H100). */
#define CMP_GPU_MAX 1048576.0

enum cmp_mode {
    CMP_DEADLINE, /* both sides: the fewest that meet deadline_s           */
    CMP_SYSTEMS,  /* the cluster's systems; the fewest GPUs as fast        */
};

struct cmp_spec {
    enum cmp_mode mode;
    double deadline_s;        /* CMP_DEADLINE, > 0                           */
    const struct cluster *ws; /* the job and the weight-streaming cluster
                                 (cluster_check()ed); its systems are used
                                 with CMP_SYSTEMS; its price per
                                 system-hour, < 0 for none               */
    const struct gpuhw_desc *gpu;
    /* The GPU layouts searched: precision, fixed tp/pp/mbs, recompute rule,
     * cp, options (gpu_search.h); gpus, batch and keep are set here. */
    struct gpu_search_spec layout;
    double gpu_price; /* per GPU-hour, < 0 for none                      */
    /* cmp_gpu_fewest's other limits besides its target time (plan on a
     * GPU system): energy, J, and cost, in the price's currency; 0 for
     * none.  A budget alone asks the fastest count within it. */
    double energy_J, budget;
    /* The largest count the GPU scans search, at most CMP_GPU_MAX (0 for
     * CMP_GPU_MAX): plan's is the most GPUs its other commands take. */
    double max_gpus;
    /* Called (when not NULL) before each count n of a scan up to max; a
     * front end shows its progress with it (progress_show of
     * src/cli/progress.h fits). */
    void (*progress)(void *user, size_t n, size_t max);
    void *progress_user;
};

/* One side's figures, SI units. */
struct cmp_side {
    double units; /* systems, or GPUs                              */
    double nodes; /* GPU nodes powered (weight streaming: systems) */
    double step_s, steps, time_s, tokens_per_s;
    double mfu; /* model FLOPs utilisation (tm.h), a fraction        */
    double power_W, energy_J, cost; /* cost < 0 without a price          */
    double goodput; /* failure-free over expected wall time (tm.h, gp.h)  */
};

/* A GPU cluster: its figures and the layout that gives them. */
struct cmp_gpu {
    struct cmp_side s;
    struct gpu_layout layout;
    struct gpu_result res;
};

/* What a scan of GPU counts did. */
struct cmp_scan {
    double step, max; /* counts step, 2 step, ... max were allowed      */
    double last;      /* the last count searched                       */
    double counts;    /* counts searched                               */
    double runs;      /* of them, counts some layout runs and fits     */
    double layouts;   /* layouts evaluated in all                      */
    /* The least memory per GPU a layout of a count that ran none needed
     * (INFINITY when no such count), the usable memory, bytes, and that
     * count's refusal (gpu_search's message). */
    double least_mem, capacity;
    char refusal[512];
};

struct cmp_result {
    /* Weight streaming: the cluster planned (CMP_DEADLINE: the plan's
     * best, the best achievable when unreached) or given. */
    int ws_ok; /* feasible, and meets the deadline with CMP_DEADLINE */
    struct cluster ws;
    struct train_result wr;
    struct cmp_side w;
    struct plan_result plan; /* CMP_DEADLINE only                        */
    char ws_why[512];        /* !ws_ok: why, with the numbers            */
    /* GPUs: the fewest that meet target_s (the deadline, or the
     * weight-streaming time with CMP_SYSTEMS); the fastest found when
     * none does. */
    double target_s; /* 0 when there is nothing to match              */
    int gpu_ok;
    struct cmp_gpu g;
    int gpu_ran;          /* g holds a count some layout runs          */
    int has_below;        /* a smaller count that runs, searched       */
    struct cmp_gpu below; /* the largest such: it misses target_s      */
    struct cmp_scan scan;
    char gpu_why[1024]; /* !gpu_ran: why no count ran                   */
    /* At equal power: the fastest GPU count whose nodes draw at most
     * eq_power_W, the weight-streaming cluster's power. */
    double eq_power_W; /* 0 when the weight-streaming side has none     */
    int eq_ok;
    struct cmp_gpu eq;
    struct cmp_scan eq_scan;
    char eq_why[1024]; /* !eq_ok: why                                   */
};

/* The GPU count step S of g: the largest power of two dividing
 * gpus_per_node. */
double cmp_count_step(const struct gpuhw_desc *g);

/* Whether the spec can be run: a deadline > 0 with CMP_DEADLINE, a price
 * not negative or NaN, and a layout gpu_check() accepts with its fixed
 * figures (1 for the free ones): a precision the GPU lacks, a tp that does
 * not divide the heads, is refused with gpu_check's message.  CP_OK or
 * CP_EINPUT. */
cp_status cmp_check(const struct cmp_spec *s, struct cp_error *err);

/* The GPU side at gpus GPUs for the job of s->ws: the fastest layout and
 * its figures into g.  CP_OK, or CP_EINPUT with gpu_search's refusal (no
 * layout divides, or none fits, naming the bytes per GPU). */
cp_status cmp_gpu_at(const struct cmp_spec *s, double gpus, struct cmp_gpu *g,
                     struct cp_error *err);

/* The first count from `from` up (in steps of the count step, to `to`
 * and the scan's bound) some layout of which runs the job of s->ws, into
 * g: 1, or 0 when none does or s is refused.  The job's divisors and the
 * counts that divide are listed once, as cmp_gpu_fewest's are. */
int cmp_gpu_first(const struct cmp_spec *s, double from, double to, struct cmp_gpu *g);

/* The GPU side alone (s->gpu, s->layout and s->gpu_price; s->ws is not
 * read): the fewest GPUs that run w, at its batch, for steps whole steps
 * within r->target_s (0: no time limit), s->energy_J and s->budget (0:
 * none), scanned as above, into r->gpu_ok, g, gpu_ran, below, has_below,
 * scan and, when no count ran, gpu_why (the caller zeroes r and sets
 * target_s; the layout spec as cmp_check() would pass it).  With a budget
 * alone the whole scan is searched and g is the fastest count within it
 * (no below).  When no count meets every limit g is the nearest: the
 * fastest with a time limit alone, else the least of the largest ratio of
 * a figure to its limit. */
void cmp_gpu_fewest(const struct cmp_spec *s, const struct wl_desc *w, double steps,
                    struct cmp_result *r);

/* --confidence on the GPU side: the fewest GPUs (in steps of the count
 * step, counts some layout divides, up to the scan's bound) whose draws
 * meet the limits r->target_s, s->energy_J and s->budget in a share of at
 * least pc->p (pscan_confident, from `from`, the point answer), each
 * draw's count run in its own fastest layout, for the job w at its batch
 * and steps whole steps; src the GPU description's ranges.  On CP_OK res
 * is filled and, when res->count > 0, g holds that count's point
 * figures. */
cp_status cmp_gpu_confident(const struct cmp_spec *s, const struct wl_desc *w, double steps,
                            double from, const struct cmp_result *r, const struct pscan_conf *pc,
                            struct pscan_conf_result *res, struct cmp_gpu *g, struct cp_error *err);

/* Bands of a comparison (src/plan/unc.h): samples draws of each side's
 * hardware description and model error, the weight-streaming side's
 * seeded with seed and the GPU side's with seed + 1, so that the two sides'
 * draws are independent (the constants of the two models share nothing);
 * draw i of one side is paired with draw i of the other for the ratios,
 * which is then a draw of the ratio.  Each side at its answer's count
 * (each GPU draw in its own fastest layout). */
struct cmp_side_band {
    int on;       /* the side has an answer that runs, and was drawn */
    size_t ranged;
    double model_error;
    const char *model_error_key; /* the kind's (tm.h), NULL: none */
    double share; /* of its draws meeting the deadline (CMP_DEADLINE), else NAN */
    struct unc_band step_s, time_s, energy_J;
};

struct cmp_bands {
    size_t samples;
    unsigned long seed;
    struct cmp_side_band w, g;
    int paired;       /* both sides drawn: the ratios below are set    */
    struct unc_band ratio_time, ratio_energy; /* GPU / weight streaming */
    double gpu_faster; /* share of paired draws where the GPU side trains sooner */
};

/* r's bands into b, the weight-streaming description's ranges in ws_src
 * and the GPU's in gpu_src.  CP_OK, or an error of the draws (err). */
cp_status cmp_bands(const struct cmp_spec *s, const struct cmp_result *r,
                    const struct desc_src *ws_src, const struct desc_src *gpu_src, size_t samples,
                    unsigned long seed, struct cmp_bands *b, struct cp_error *err);

/* --confidence with a deadline: each side moved to the fewest units whose
 * draws meet the deadline in a share of at least pc_ws->p (its plan's
 * sparsity and batch kept; each GPU draw in its own fastest layout), the
 * equal-power search redone at the weight-streaming side's new power.  A
 * side none of whose counts reaches the share is no answer (ws_ok or
 * gpu_ok 0, with why).  pc_ws and pc_gpu differ in their ranges only;
 * ws_conf and gpu_conf receive each side's search. */
cp_status cmp_confident(const struct cmp_spec *s, struct cmp_result *r,
                        const struct pscan_conf *pc_ws, const struct pscan_conf *pc_gpu,
                        struct pscan_conf_result *ws_conf, struct pscan_conf_result *gpu_conf,
                        struct cp_error *err);

/* Each side's answer as its kind's job (tm.h), so that a front end can
 * evaluate, describe and rank both sides through the interface alone:
 * side[0] the weight-streaming cluster r->ws at its systems, side[1] the
 * GPU job (the job's steps in the layout search's spec at s's price) at
 * r->g's count.  j points into itself (build it in place, do not copy
 * it) and into s and r, and is valid while they are; side[1] only when
 * r->gpu_ran. */
struct cmp_jobs {
    struct tm_job side[2];
    struct wl_desc w; /* the GPU job's workload at the job's batch */
    struct gpu_tm_job g;
};
void cmp_jobs_of(const struct cmp_spec *s, const struct cmp_result *r, struct cmp_jobs *j);

/* Compare under s (cmp_check()ed here first).  CP_OK with r filled, the
 * answers found or not (ws_ok, gpu_ok, eq_ok with their reasons);
 * CP_EINPUT when s is wrong.  r is large (three train results in the
 * plan): the caller allocates it. */
cp_status cmp_run(const struct cmp_spec *s, struct cmp_result *r, struct cp_error *err);

#endif
