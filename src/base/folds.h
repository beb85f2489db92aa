/* folds.h - how a leave-out check groups what it leaves out, for both
 * kinds (validate's weight-streaming runs, the GPU fit's sources): each
 * group alone up to CP_LEAVE_OUT_MAX groups (leave-one-out), past that
 * group g in fold g % CP_FOLDS (K-fold cross-validation), so a check
 * makes at most CP_LEAVE_OUT_MAX refits whatever the corpus. */
#ifndef CP_FOLDS_H
#define CP_FOLDS_H

#include <stddef.h>

#define CP_LEAVE_OUT_MAX 32
#define CP_FOLDS 10

/* The folds of groups groups. */
static inline size_t cp_folds(size_t groups)
{
    return groups <= CP_LEAVE_OUT_MAX ? groups : CP_FOLDS;
}

/* The fold of group g (0 to groups - 1). */
static inline size_t cp_fold_of(size_t g, size_t groups)
{
    return g % cp_folds(groups);
}

#endif
