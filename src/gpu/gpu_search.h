/* gpu_search.h - the layout search of the GPU training model: every way of
 * running a job on N GPUs that divides (gpu_check) and fits in memory,
 * each evaluated with gpu_eval, and the fastest few kept.
 *
 * The space.  tp runs over the divisors of the attention heads that also
 * suit the key/value heads and divide the NVLink domain (a fixed tp need
 * not: its traffic then runs at the scale-out rate); pp over the divisors
 * of the layers and of the layers + 2 (Megatron's uneven split, gpu.h; a
 * fixed pp may be any count up to the layers); cp over the divisors of
 * the sequence s with 2 cp dividing s (ring attention's load-balanced
 * chunks; 1 unless allowed); tp pp cp must divide N, and dp = N / (tp pp
 * cp); mbs runs over the divisors of the local batch (global batch / dp),
 * so dp mbs divides the global batch; vp over the divisors of a stage's
 * layers (1 when pp = 1, and only with at least pp micro-batches); FSDP
 * off and on (on only with dp > 1).  For each such layout the recompute
 * settings are tried in the order none, selective (skipped when none did
 * not fit and flash attention is on: the same memory), block of k = vp, 2
 * vp, ... (fewer than a stage's layers; frameworks count block recompute
 * per model chunk, so a stage recomputes a multiple of vp), full: either
 * only the first that fits (the least recompute; what a user would run)
 * or each that fits.  Any of tp, pp, cp, vp, mbs, FSDP and the recompute
 * setting can be fixed instead.  Every layout runs the workload's software
 * switches (wl.h: sequence_parallel, flash_attention, tp_overlap,
 * distributed_optimizer, fp8_params).  Block recompute's memory falls as k
 * grows and is full recompute's at k = a stage's layers, so the block
 * settings are not all tried: when full does not fit none of them does,
 * and the least k that fits is found by bisection (tests/test_gpu_search.c
 * checks the result against trying them all).  Every setting's memory
 * grows with the micro-batch, so once no layout of one micro-batch fits,
 * those of the larger ones are counted as dividing without computing it.
 *
 * Pure arithmetic, no allocation (the kept layouts are a fixed array of
 * the result), no I/O. */
#ifndef CP_GPU_SEARCH_H
#define CP_GPU_SEARCH_H

#include "gpu.h"

/* Most layouts a search keeps: the best and its runners-up. */
#define GPU_SEARCH_KEEP_MAX 16
/* Most divisors the search lists of one figure (the layers, the layers +
 * 2, a fixed pp's stage, the global batch and the GPU count; the heads and
 * the sequence are asked, not listed); a figure with more is refused,
 * naming it.  Every whole number below 1e8 has fewer than 800. */
#define GPU_SEARCH_DIVISORS_MAX 1024
/* A fixed figure of 0 (tp, pp, cp, vp, mbs) leaves it free. */
#define GPU_SEARCH_FREE 0
/* fsdp of GPU_SEARCH_ANY_FSDP tries the layouts with and without FSDP. */
#define GPU_SEARCH_ANY_FSDP (-1)
/* recompute of GPU_SEARCH_ANY_RC leaves the recompute setting free. */
#define GPU_SEARCH_ANY_RC (-1)

struct gpu_search_spec {
    double gpus;               /* N, the GPUs the job runs on                */
    double batch;              /* global batch, sequences (0: the workload's) */
    enum gpuhw_prec precision; /* of the matmuls                             */
    double tp, pp, mbs;        /* fixed figures, or GPU_SEARCH_FREE          */
    double cp, vp;             /* fixed figures, or GPU_SEARCH_FREE          */
    int fsdp;                  /* 0 off, 1 on, GPU_SEARCH_ANY_FSDP: both     */
    int recompute;             /* an enum gpu_recompute, or GPU_SEARCH_ANY_RC;
                                  a fixed block tries k = vp, 2 vp, ...      */
    int each_recompute;        /* 1: every recompute setting that fits;
                                  0: only the least one                     */
    int allow_cp;              /* context parallelism searched (else cp = 1
                                  unless fixed)                              */
    size_t keep;               /* layouts kept, 1 to GPU_SEARCH_KEEP_MAX     */
    /* overlap_grad of every layout (gpu_layout_default's by default); the
     * other switches come from the workload (gpu_layout_switches) */
    struct gpu_layout options;
};

/* A spec with the defaults: batch the workload's, bf16, everything free
 * (context parallelism and FSDP both searched), the least recompute, 6
 * kept (best + 5), the options of gpu_layout_default. */
struct gpu_search_spec gpu_search_spec_default(double gpus);

struct gpu_search_hit {
    struct gpu_layout layout;
    struct gpu_result result;
};

struct gpu_search_result {
    struct gpu_search_hit hit[GPU_SEARCH_KEEP_MAX]; /* fastest first        */
    size_t n;                                       /* hits kept, <= keep   */
    double divided;   /* layouts (tp pp cp dp mbs vp) that divide             */
    double tried;     /* recompute settings whose memory was computed, or
                         known short: once no layout of a micro-batch fits,
                         those of larger ones count one each, uncomputed  */
    double evaluated; /* layouts run through gpu_eval: those that fit        */
    /* The least memory per GPU of the settings tried and the usable
     * memory, bytes: what a refusal names.  When nothing fits it is the
     * least of every setting (those skipped need more). */
    double least_mem, capacity;
    struct gpu_layout least_layout; /* the layout of least_mem              */
};

/* One job's figures that searches at many GPU counts share, listed once
 * by gpu_search_job_init: the divisors of the layers, of the layers + 2
 * (the uneven split), of a fixed pp's stage and of the global batch (the
 * heads, the sequence and the GPU count need no list: a search runs over
 * the divisors of its count and asks each whether it divides the
 * figure).  Large (about 40 kB): the caller allocates it. */
struct gpu_search_job {
    const struct gpuhw_desc *g;
    struct wl_desc w;         /* at the spec's global batch          */
    struct gpu_search_spec s; /* the spec (its gpus is not read)     */
    double div_layers[GPU_SEARCH_DIVISORS_MAX], div_layers2[GPU_SEARCH_DIVISORS_MAX];
    double div_fixed[GPU_SEARCH_DIVISORS_MAX], div_batch[GPU_SEARCH_DIVISORS_MAX];
    size_t n_layers, n_layers2, n_fixed, n_batch;
};

/* Check spec s (all but its GPU count) against w on g and list the job's
 * divisors into j.  CP_OK, or CP_EINPUT naming the figure (one with more
 * than GPU_SEARCH_DIVISORS_MAX divisors among them).  g must outlive j. */
cp_status gpu_search_job_init(const struct gpuhw_desc *g, const struct wl_desc *w,
                              const struct gpu_search_spec *s, struct gpu_search_job *j,
                              struct cp_error *err);

/* gpu_search of job j at gpus GPUs (whole, 1 to 1e12, with at most
 * GPU_SEARCH_DIVISORS_MAX divisors): the same result and errors. */
cp_status gpu_search_at(const struct gpu_search_job *j, double gpus, struct gpu_search_result *r,
                        struct cp_error *err);

/* Mark can[n] 1 for each GPU count n from 1 to max (whole, at most 1e8;
 * can holds max + 1 bytes, the caller's) that some tp pp cp dp of job j
 * divides, 0 for the others: tp pp cp dp = n with each in its range of
 * the search (above) and dp dividing the global batch (over a fixed mbs;
 * more than 1 with FSDP fixed on).  A count marked may still run no
 * layout (a fixed vp, or none fits); a count left out runs none.  Time
 * linear in max.  Returns the counts marked; when none of them is a
 * multiple of step (whole, >= 1) and why is not NULL, why (n bytes) says
 * why, naming the figures (with step a power of two: the largest power
 * of two each of tp, pp, cp and dp can take). */
double gpu_search_counts(const struct gpu_search_job *j, double max, double step,
                         unsigned char *can, char *why, size_t n);

/* Whether the counts of job j up to max can hold step, a power of two:
 * 0, with why (n bytes) naming for each of tp, pp, cp and dp the largest
 * power of two its figure allows, when their product falls short of it
 * (then no multiple of step runs a layout); else 1.  Time the square
 * root of the figures, at most max. */
int gpu_search_step_possible(const struct gpu_search_job *j, double step, double max, char *why,
                             size_t n);

/* The fixed figures of spec s (1 for the free ones) against w on g,
 * whatever the GPU count: gpu_check's refusal (a tp that does not divide
 * the heads, a pp above the layers, a precision the GPU lacks), or
 * CP_OK. */
cp_status gpu_search_fixed_check(const struct gpuhw_desc *g, const struct wl_desc *w,
                                 const struct gpu_search_spec *s, struct cp_error *err);

/* Search the layouts of workload w on system g under spec s.  CP_OK with
 * r->n >= 1; CP_EINPUT with err naming the reason when the spec is wrong,
 * when no layout divides, or when none fits (the message gives the least
 * bytes per GPU any layout needs and the bytes usable).  r is filled in
 * either case (the counts, least_mem). */
cp_status gpu_search(const struct gpuhw_desc *g, const struct wl_desc *w,
                     const struct gpu_search_spec *s, struct gpu_search_result *r,
                     struct cp_error *err);

#endif
