/* cluster.c - defaults and range checks of a cluster configuration. */
#include "cluster.h"

#include <math.h>

#include "../spec/tfm.h"

void cluster_init(struct cluster *c, const struct hw_desc *hw, const struct wl_desc *wl)
{
    c->hw = hw;
    c->wl = wl;
    c->systems = 1;
    c->memoryx_bytes = hw->mx.capacity_bytes;
    c->sparsity = 0;
    c->overlap = hw->mx.boundary_overlap;
    c->overlap_set = 0;
    c->global_seqs = wl->batch;
    c->tokens = tfm_tokens(wl);
    c->ref_seqs = wl->batch;
    c->batch_penalty = 0;
    c->price = -1;
}

cp_status cluster_check(const struct cluster *c, struct cp_error *err)
{
    if (!(c->systems >= 1 && c->systems <= CLUSTER_MAX_SYSTEMS) || c->systems != floor(c->systems))
        return cp_fail(err, CP_EINPUT, "--systems: %g is not a whole number from 1 to %g",
                       c->systems, CLUSTER_MAX_SYSTEMS);
    if (!(c->sparsity >= 0 && c->sparsity <= CLUSTER_MAX_SPARSITY))
        return cp_fail(err, CP_EINPUT, "--sparsity: %g is outside 0..%g", c->sparsity,
                       CLUSTER_MAX_SPARSITY);
    if (!(c->overlap >= 0 && c->overlap <= 1))
        return cp_fail(err, CP_EINPUT, "--overlap: %g is outside 0..1", c->overlap);
    if (!(c->memoryx_bytes > 0 && isfinite(c->memoryx_bytes)))
        return cp_fail(err, CP_EINPUT, "--memoryx: capacity must be positive");
    if (!(c->global_seqs >= 1 && isfinite(c->global_seqs)) ||
        c->global_seqs != floor(c->global_seqs))
        return cp_fail(err, CP_EINPUT, "--batch: %g is not a whole number of sequences >= 1",
                       c->global_seqs);
    if (!(c->tokens > 0 && isfinite(c->tokens)))
        return cp_fail(err, CP_EINPUT, "--tokens: must be positive");
    if (!(c->ref_seqs >= 1 && isfinite(c->ref_seqs)))
        return cp_fail(err, CP_EINPUT, "reference batch must be at least one sequence");
    if (!isfinite(c->price))
        return cp_fail(err, CP_EINPUT, "--price: must be a finite number");
    return CP_OK;
}
