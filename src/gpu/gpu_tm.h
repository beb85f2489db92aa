/* gpu_tm.h - the GPU kind of the training-model interface (tm.h).  A job
 * is a workload and a GPU description with the layout search's spec (its
 * global batch, precision and fixed figures), the training tokens and a
 * price per GPU-hour.  Its eval at N GPUs runs the layout search
 * (gpu_search.h) at N and the fastest layout to the end of training
 * (gpu_train_eval): weak scaling keeps the sequences per GPU of the job's
 * own count, the global batch round(batch x N / count) and at least 1,
 * and charges the batch penalty (desc/batch.h: the tokens of a batch
 * against the critical batch, as weight streaming does); strong keeps the
 * job's batch and charges the penalty when the job asks.  The verdict
 * "batch" (a warning) says whether the global batch is within the
 * critical batch.  A count that no layout divides or fits
 * is a result that does not run, with the search's reason.  The detail is
 * a struct gpu_tm_detail: the search's kept layouts, the best one's run,
 * and the job's divisors, listed once for every count at the same batch. */
#ifndef CP_GPU_TM_H
#define CP_GPU_TM_H

#include "../tm/tm.h"
#include "gpu_search.h"

struct gpu_tm_job {
    const struct gpuhw_desc *g;
    const struct wl_desc *wl;
    struct gpu_search_spec spec; /* spec.gpus: the job's own count       */
    double tokens;               /* training tokens                       */
    double price;                /* per GPU-hour; NAN or < 0: none        */
    double ref_batch;  /* sequences the token count is for (0: wl->batch)  */
    int batch_penalty; /* charge a batch's tokens against the critical
                          batch (desc/batch.h); TM_WEAK always does         */
};

struct gpu_tm_detail {
    struct gpu_search_result sr; /* sr.hit[0]: the layout run           */
    struct gpu_train run;        /* of sr.hit[0] (runs only)            */
    /* The divisors of the job last listed: for the same g, wl and spec
     * (but its count) they are reused.  A zeroed detail has none. */
    struct gpu_search_job listing;
    const struct gpu_tm_job *listed_for;
    struct gpu_search_spec listed_spec;
    cp_status listed;
    struct cp_error why;
};

extern const struct tm_kind tm_gpu;

/* "TP 8 x PP 8 (VP 12) x DP 16, CP 1, micro-batch 1, recompute none", and
 * ", FSDP" when l shards its weights over dp, into buf.  Returns buf. */
const char *gpu_tm_layout_text(const struct gpu_layout *l, char *buf, size_t n);

#endif
