/* report_compare.h - the report's comparison with a GPU cluster: the same
 * job (the scenario's model, global batch and training tokens) on
 * weight-streaming clusters of 1 system to the generation's largest and on
 * GPU clusters of whole nodes, time-to-train against power, as the table
 * compare.csv that reports/compare.gp draws, and its paragraph of
 * index.md.  The GPU side runs through src/plan/cmp.h (cmp_gpu_at: each
 * count in its fastest layout), as `compare` does. */
#ifndef CP_REPORT_COMPARE_H
#define CP_REPORT_COMPARE_H

#include <stdio.h>

#include "../face/cmp_opts.h"

struct report_unc_res;
struct report_decide_res;

/* The GPU system when --gpu is not given. */
#define REPORT_DEFAULT_GPU "h100"
/* Most rows of either side: the doublings from 1 to 2^20 and one more. */
#define REPORT_CMP_ROWS 24

struct report_cmp {
    const char *given;            /* --gpu as given; NULL: the default  */
    char gpu[CAT_NAME_MAX];       /* the GPU's catalog name             */
    char file[CAT_NAME_MAX + 16]; /* "hw/GPU.ini": the resolved copy    */
    struct gpuhw_desc g;          /* as resolved, --set applied         */
    struct desc_src src;          /* its keys' origins                  */
    struct cmp_spec spec;         /* the job, the GPU, layout and price */
    /* What compare.csv holds (report_cmp_table fills these). */
    double ws_n[REPORT_CMP_ROWS]; /* weight-streaming cluster sizes     */
    size_t nws, ws_feasible;      /* rows, of them feasible             */
    double power_W;               /* the largest feasible one's power   */
    double gpus[REPORT_CMP_ROWS]; /* GPU counts searched                */
    int ran[REPORT_CMP_ROWS];     /* 1 when the count runs (has a row)  */
    size_t ngpus, nran;
    char why[1024]; /* the largest count that runs none: why */
    /* The bands (report_unc.h), set by report_unc_table; NULL before. */
    const struct report_unc_res *unc;
    /* The decision (report_decide.h): --deadline (0: none) and
     * --confidence (0: none), then its result, NULL before. */
    double deadline_s, confidence;
    const struct report_decide_res *dec;
};

/* Load the GPU of --gpu (default REPORT_DEFAULT_GPU) with the n --set keys
 * sets meant for it, --gpu-price and the layout options, for the job of
 * the scenario s (loaded and checked; it must outlive x's use).  -1 or an
 * exit code after a message naming the flag. */
int report_cmp_load(const struct cli_opts *o, const char *const *sets, size_t n,
                    const struct scenario *s, struct report_cmp *x);

/* compare.csv into t (initialised here): the weight-streaming rows at N =
 * 1, 2, 4, ... and the generation's maximum, then the GPU rows at the
 * counts S, 2 S, 4 S, ... (S the count step of cmp.h) up to the first
 * whose nodes draw at least the largest feasible weight-streaming
 * cluster's power, or CMP_GPU_MAX; counts that run no layout are left out
 * and recorded in x.  Returns -1. */
int report_cmp_table(const struct scenario *s, struct report_cmp *x, struct out_table *t);

/* The figure's paragraph of index.md after its general text: the clusters
 * shown, the counts left out and why, whose power is counted. */
void report_cmp_index(FILE *f, const struct scenario *s, const struct report_cmp *x);

#endif
