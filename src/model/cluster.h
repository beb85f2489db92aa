/* cluster.h - the configuration the analytic model evaluates: a workload on
 * N systems of one generation with a MemoryX tier, a sparsity, a global
 * batch and the options that change how training is charged. */
#ifndef CP_CLUSTER_H
#define CP_CLUSTER_H

#include "../desc/hw.h"
#include "../desc/wl.h"

/* Largest sparsity the model accepts (see HW_MAX_SPARSITY). */
#define CLUSTER_MAX_SPARSITY HW_MAX_SPARSITY
/* Largest cluster the model accepts (see HW_MAX_SYSTEMS). */
#define CLUSTER_MAX_SYSTEMS HW_MAX_SYSTEMS

/* Where the activations the backward pass needs are kept (cerebras-plan(1),
 * MODEL): chosen per run (ACT_AUTO: the fastest that fits) or forced. */
enum act_mode { ACT_AUTO, ACT_WAFER, ACT_RECOMPUTE, ACT_OFFLOAD, ACT_NMODES };
extern const char *const act_mode_name[ACT_NMODES];

struct cluster {
    const struct hw_desc *hw;
    const struct wl_desc *wl;
    double systems;       /* N, whole number >= 1                          */
    double mx_servers;    /* MemoryX servers; 0: sized for the run (step.h) */
    double act_servers;   /* activation servers per system; 0: the hardware's
                             activation.servers_per_system              */
    enum act_mode act;    /* activation placement; ACT_AUTO: fastest that fits */
    double act_k;         /* ACT_RECOMPUTE: checkpoint every k blocks; 0: best */
    double sparsity;      /* fraction of block weights that are zero       */
    double overlap;       /* share of a layer's update still to run when its
                             next forward may start (0..1)                 */
    int overlap_set;      /* overlap was given; else it is hw's boundary_overlap */
    double global_seqs;   /* global batch, sequences per step              */
    double tokens;        /* training tokens at the reference batch        */
    double ref_seqs;      /* batch the token count was set for (the model's) */
    int batch_penalty;    /* charge the extra tokens of a larger batch     */
    double price;         /* per system-hour; < 0 when not given           */
};

/* Defaults: one system, MemoryX sized for the run, the hardware's
 * activation servers, the hardware's overlap, no
 * sparsity, the workload's batch and tokens, no penalty, no price. */
void cluster_init(struct cluster *c, const struct hw_desc *hw, const struct wl_desc *wl);

/* CP_EINPUT with a message naming the option if a field is out of range. */
cp_status cluster_check(const struct cluster *c, struct cp_error *err);

#endif
