/* claim_ws.h - the judges of the claims about weight-streaming clusters
 * alone (the kinds capacity, weak_scaling, speedup, sparsity_speedup and
 * time_to_train of claim.h), entries of claim_types.  Each is given the
 * job on the claim's systems and tier (in->ws) and runs it with the
 * claim's systems and sparsity through the training-model interface
 * (tm.h), quoting the kind's detail (the train_result) in the reasons;
 * weak scaling alone calls train_at directly (at the job's own count
 * the interface runs train_eval, and train_at's weak batch, batch / n x
 * n, may differ from it in the last bit).  No I/O; they do not fail. */
#ifndef CP_CLAIM_WS_H
#define CP_CLAIM_WS_H

#include "claim.h"

cp_status claim_ws_capacity(const struct claim_in *in, struct claim_result *r,
                            struct cp_error *err);
/* weak_scaling and speedup */
cp_status claim_ws_scaling(const struct claim_in *in, struct claim_result *r, struct cp_error *err);
cp_status claim_ws_sparsity(const struct claim_in *in, struct claim_result *r,
                            struct cp_error *err);
cp_status claim_ws_time(const struct claim_in *in, struct claim_result *r, struct cp_error *err);

#endif
