/* param.h - the numeric keys of a hardware description as parameters of
 * the analytic model: find them, read and write them in a struct hw_desc,
 * and evaluate a cluster on a changed copy of its hardware.  Calibration,
 * uncertainty and sensitivity all work through this. */
#ifndef CP_PARAM_H
#define CP_PARAM_H

#include <stddef.h>

#include "train.h"

/* Index into hw_schema of the DESC_NUM key "section.key", or -1 (also for
 * a key that is not a number or is in [chip]). */
int param_find(const char *name);

/* Number of DESC_NUM keys in hw_schema outside [chip] (HW_CHIP_SECTION:
 * figures the model does not use), and the schema index of the i-th. */
size_t param_count(void);
int param_key(size_t i);

/* "section.key" of schema index key, into buf.  Returns buf. */
const char *param_name(int key, char *buf, size_t n);

/* The field of schema index key in hw. */
double *param_ptr(struct hw_desc *hw, int key);
double param_get(const struct hw_desc *hw, int key);

/* 1 if key may take value v in hw: the key's own rules (positive, a
 * fraction at most 1, a whole number) and the rules spanning keys. */
int param_valid(const struct hw_desc *hw, int key, double v);

/* base evaluated on hardware hw instead of base->hw: the same workload,
 * systems, tier, sparsity and batch.  The overlap follows hw's
 * memoryx.boundary_overlap unless base->overlap_set. */
void param_eval(const struct cluster *base, const struct hw_desc *hw, struct train_result *r);

#endif
