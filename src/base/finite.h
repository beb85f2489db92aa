/* finite.h - the finiteness gate every model shares: a model lists the
 * figures it computed, each with the inputs it comes from, and the gate
 * names the first that is not a finite number.  Inputs can each pass their
 * own range checks and still overflow together (a FLOP/s near zero, a
 * batch of 1e300, a price of 1e306); the weight-streaming model
 * (train_check) and the GPU model (gpu_range_check) refuse them through
 * this one gate, with one message. */
#ifndef CP_FINITE_H
#define CP_FINITE_H

#include <stddef.h>

#include "status.h"

/* One figure of a model's result. */
struct finite_fig {
    const char *name;   /* "step time", "energy", ...                     */
    double value;       /* SI units; the gate only asks whether finite    */
    const char *inputs; /* the keys and flags it comes from, for the hint */
};

/* The index of the first figure of f[0..n) that is not a finite number,
 * or n when all are. */
size_t finite_first(const struct finite_fig *f, size_t n);

/* CP_OK when every figure of f[0..n) is a finite number; else CP_EINPUT
 * with "the inputs are outside the range the model can represent: the
 * NAME is not a finite number AT (look for a value near zero or far too
 * large in INPUTS)".  at is a phrase such as " at 8 GPUs", or "". */
cp_status finite_check(const struct finite_fig *f, size_t n, const char *at, struct cp_error *err);

#endif
