/* sparse.c - how much of the dense work and traffic sparsity leaves. */
#include "sparse.h"

#include <math.h>

double sp_compute_factor(const struct sp_spec *sp, double sparsity)
{
    if (sparsity <= 0)
        return 1;
    return fmin(1, (1 - sparsity) + sp->overhead);
}

double sp_stream_factor(const struct sp_spec *sp, double sparsity, double value_bytes)
{
    if (sparsity <= 0)
        return 1;
    return fmin(1, (1 - sparsity) * (1 + sp->index_bytes / value_bytes) + sp->overhead);
}
