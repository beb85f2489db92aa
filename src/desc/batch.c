/* batch.c - the critical batch and the tokens a batch needs.  See
 * batch.h. */
#include "batch.h"

#include <math.h>

double batch_loss(const struct batch_spec *b, double params)
{
    return pow(b->loss_params / params, b->loss_exponent);
}

double batch_critical_tokens(const struct batch_spec *b, double loss)
{
    return b->critical_tokens / pow(loss, 1 / b->critical_exponent);
}

double batch_token_factor(double tokens, double ref_tokens, double critical)
{
    return (1 + tokens / critical) / (1 + ref_tokens / critical);
}
