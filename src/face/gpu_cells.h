/* gpu_cells.h - the cells of one row about a layout on a GPU system: what
 * estimate --csv writes for each layout it keeps and sweep for each point
 * of a GPU grid.  Numbers as exact SI text (the shortest that reads back as
 * the same double) and as the numbers themselves, for a table that shows
 * them in other units. */
#ifndef CP_GPU_CELLS_H
#define CP_GPU_CELLS_H

#include "est.h"
#include "gscen.h"

/* The columns, in estimate --csv's order (gpu_col_name). */
enum gpu_col {
    GC_RANK,
    GC_MODEL,
    GC_SYSTEM,
    GC_GPUS,
    GC_NODES,
    GC_PRECISION,
    GC_TP,
    GC_PP,
    GC_VP,
    GC_DP,
    GC_CP,
    GC_FSDP,
    GC_MBS,
    GC_RECOMPUTE,
    GC_RECOMPUTE_LAYERS,
    GC_BATCH,
    GC_MICRO_BATCHES,
    GC_STEP,
    GC_TOKENS_PER_S,
    GC_TIME_TO_TRAIN,
    GC_MFU,
    GC_BUBBLE,
    GC_BOTTLENECK,
    GC_MEM,
    GC_MEM_USABLE,
    GC_POWER,
    GC_ENERGY,
    GC_COST,
    GC_TRAIN_TOKENS, /* training tokens, with any batch penalty */
    GC_CRITICAL,     /* the critical batch, tokens              */
    GC_BATCH_OK,     /* the global batch within it: 1 or 0      */
    GC_NCOLS
};
extern const char *const gpu_col_name[GC_NCOLS];

struct gpu_cells {
    const char *cell[GC_NCOLS];         /* into buf, s or static text */
    char buf[GC_NCOLS][EST_CELL_BYTES]; /* a number's text */
    double value[GC_NCOLS];             /* a number (num set) */
    unsigned char num[GC_NCOLS];        /* the cell is a number */
};

/* The point's own cells: model and system (of s), the GPUs, nodes and
 * global batch of p, precision, the power of the nodes, and the batch
 * against the critical batch (the tokens it trains, the critical batch,
 * batch_ok); the layout's cells empty.  mem and usable (bytes, NAN: empty) are the memory per GPU
 * and the usable memory. */
void gpu_cells_point(struct gpu_cells *w, const struct gscen *s, const struct gpu_search_spec *p,
                     enum gpuhw_prec precision, double mem, double usable);

/* The row of layout h, kept at rank (from 1), of s run as p. */
void gpu_cells_hit(struct gpu_cells *w, const struct gscen *s, const struct gpu_search_spec *p,
                   size_t rank, const struct gpu_search_hit *h);

#endif
