/* sparse.h - unstructured weight sparsity as the system executes it.
 *
 * At sparsity 0 the dense format is used and every factor is exactly 1.
 * Above 0, with density d = 1 - sparsity and the hardware's fixed overhead
 * c (a fraction of the dense work that remains):
 *   compute and update  x min(1, d + c)
 *   streamed bytes      x min(1, d x (1 + index_bytes / value_bytes) + c)
 * (the min: a format larger than dense is never chosen).  Only the weights
 * of the blocks' matmuls are sparse; embeddings, logits, norms and biases
 * stay dense, and attention's activation-by-activation matmuls are not
 * touched.  Speedup is therefore 1 at 0 and stays below 1 / d. */
#ifndef CP_SPARSE_H
#define CP_SPARSE_H

#include "../spec/hw.h"

double sp_compute_factor(const struct sp_spec *sp, double sparsity);
double sp_stream_factor(const struct sp_spec *sp, double sparsity, double value_bytes);

#endif
