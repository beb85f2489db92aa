/* claim_types.c - the types of claim (claim.h): for each kind, what its
 * judge is given and the judge (claim_ws.c for the kinds about
 * weight-streaming clusters alone, claim_gpu.c for those that compare
 * with GPUs); claim_judge() judges any claim through it. */
#include "claim.h"

#include "claim_gpu.h"
#include "claim_ws.h"

#define JOB_GPUS (CLAIM_NEEDS_JOB | CLAIM_NEEDS_GPUS)

const struct claim_type claim_types[CLAIM_NKINDS] = {
    [CLAIM_CAPACITY] = {"capacity", CLAIM_NEEDS_JOB, 0, claim_ws_capacity},
    [CLAIM_WEAK_SCALING] = {"weak_scaling", CLAIM_NEEDS_JOB, 0, claim_ws_scaling},
    [CLAIM_SPEEDUP] = {"speedup", CLAIM_NEEDS_JOB, 0, claim_ws_scaling},
    [CLAIM_SPARSITY_SPEEDUP] = {"sparsity_speedup", CLAIM_NEEDS_JOB, 0, claim_ws_sparsity},
    [CLAIM_TIME_TO_TRAIN] = {"time_to_train", CLAIM_NEEDS_JOB, 0, claim_ws_time},
    [CLAIM_RATIO] = {"ratio", CLAIM_NEEDS_GPUS, 0, claim_gpu_ratio},
    [CLAIM_GPU_TIME] = {"gpu_time", JOB_GPUS, 1, claim_gpu_time},
    [CLAIM_GPU_COUNT] = {"gpu_count", JOB_GPUS, 1, claim_gpu_count},
    [CLAIM_POWER] = {"power", JOB_GPUS, 1, claim_gpu_power},
};

int claim_kind_is_gpu(enum claim_kind kind)
{
    return kind < CLAIM_NKINDS && (claim_types[kind].needs & CLAIM_NEEDS_GPUS);
}

cp_status claim_judge(const struct claim_in *in, struct claim_result *r, struct cp_error *err)
{
    *r = (struct claim_result){0};
    return claim_types[in->cl->kind].judge(in, r, err);
}
