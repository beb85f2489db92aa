/* sweep_int.h - the state one `sweep` run shares between its files: the
 * axes parsed from the options (cmd_sweep.c), the grid of a kind of
 * system evaluated point by point (sweep_ws.c for weight-streaming
 * systems, sweep_gpu.c for GPU systems), and the rows kept and written
 * (sweep_emit.c), which do not depend on the kind.
 *
 * Both kinds run over combinations ("combos") of model x system x --set
 * axes, the last fastest; each combo loads its descriptions once and has
 * points of its own (WS: MemoryX tiers x sparsities x cluster sizes; GPU:
 * precisions x GPU counts).  Point i of the whole grid (from 0) belongs to
 * shard K of N when i mod N = K-1. */
#ifndef CP_SWEEP_INT_H
#define CP_SWEEP_INT_H

#include "../face/est.h"
#include "../face/gpu_cells.h"
#include "../grid/grid.h"
#include "../grid/grid_best.h"
#include "sweep_file.h"
#include "sweep_filter.h"
#include "sweep_faces.h"
#include "sweep_out.h"

#define SWEEP_MAX_COLS (EST_MAX_COLS + CLI_MAX_SETS)

struct sweep_axis { /* a --set with a comma list */
    char key[96];
    char **val;  /* "section.key=V" for the loader */
    char **text; /* "V", the column's cell */
    size_t n;
};

struct sweep {
    const struct cli_opts *o;
    const struct sweep_labels *lab; /* what to call each axis in a message */
    const struct sweep_face *face;  /* the kind of the systems          */
    char **model, **system, **mx;   /* axis values; mx NULL: the auto tier */
    size_t nmodel, nsystem, nmx;
    int mx_all;
    double *ns, *sp; /* sizes (GPU: counts; none: one node); sp NULL: the model's */
    size_t nn, nsp;
    enum gpuhw_prec prec[GPUHW_NPRECS]; /* GPU: the precisions, bf16 alone by default */
    size_t nprec;
    size_t layouts; /* GPU: the fastest layouts of each point written */
    struct sweep_axis axis[CLI_MAX_SETS];
    size_t naxis, nset; /* nset: product of the axes' sizes */
    const char *fixed[CLI_MAX_SETS];
    size_t nfixed;
    const char *names[SWEEP_MAX_COLS]; /* the header: nbase columns of the kind, the axes */
    size_t nbase, ncols;
    struct sweep_where where[CLI_MAX_WHERE];
    size_t nwhere;
    int best;
    size_t best_col, group[SWEEP_MAX_COLS], ngroup;
    struct grid_sched run;                  /* -j, --shard K/N as K-1 and N */
    double max_points;                      /* --max-points: per run (share) */
    size_t sel[SWEEP_MAX_COLS], nsel;       /* the columns written, in order */
    int table;                              /* a text table for people, not CSV */
    struct sweep_disp disp[SWEEP_MAX_COLS]; /* the table's columns (sel's) */
    /* The columns of the kind whose numbers need their text: those the
     * CSV writes and those --where, --best and --group-by read; NULL when
     * every one does (the table shows numbers from their values). */
    const unsigned char *want;
    unsigned char want_col[SWEEP_MAX_COLS];
};

/* Split a comma list into a malloc'd array of malloc'd strings. */
char **sweep_split(const char *arg, size_t *n);
void sweep_free_list(char **v, size_t n);

/* Options o2 for combo q: sw's options with q's model and system and the
 * --set overrides and q's value of each --set axis (whose text goes to
 * axis_text[0..naxis)). */
void sweep_combo_opts(const struct sweep *sw, size_t q, struct cli_opts *o2,
                      const char **axis_text);

struct sweep_rec { /* a row --best may keep */
    double by;
    size_t line, line_len, key, key_len; /* offsets into the job's buffer */
};

struct sweep_job { /* what one grid worker formats its rows into */
    const struct sweep *sw;
    const void *cb; /* the combo being run */
    struct sweep_buf out;
    struct sweep_rec *rec;
    size_t nrec, caprec;
    struct est_cells cells;      /* WS: a point's cells */
    int direct;                  /* WS: rows written as the cells are made (sweep_direct) */
    struct gpu_cells gc;         /* GPU: a layout's cells */
    struct gpu_search_result sr; /* GPU: a point's search */
};

/* A row of sw->nbase cells (room for SWEEP_MAX_COLS; the --set axes'
 * texts are added): formatted into the job's buffer unless --where drops
 * it.  num[c] and value[c]: cell c is the number value[c] (the table shows
 * it in its unit); plain and plain_len, when not NULL: how the CSV may
 * copy cell c, and its length (est.h's EST_PLAIN_*, sweep_buf_csv). */
void sweep_job_row(struct sweep_job *jb, const char **row, const char *const *axis_text,
                   const unsigned char *num, const double *value, const unsigned char *plain,
                   const unsigned char *plain_len);

/* Whether a weight-streaming row may be written as CSV while its cells
 * are made (est_cells.csv): the CSV of every column of the kind in order,
 * no --set axis, no --where, no --best. */
int sweep_direct(const struct sweep *sw);

/* Where rows go: standard output as CSV or as the table, or (--best) the
 * groups, written at the end. */
struct sweep_sink {
    const struct sweep *sw;
    struct grid_best *gs; /* NULL without --best */
    struct sweep_table table;
    struct sweep_progress pg;
};

/* Write (or fold into groups) what the jobs of one round computed, in
 * order, and empty their buffers; then the progress line (grid_round_fn;
 * arg is the struct sweep_sink). */
void sweep_round_emit(void *arg, void *const *ctx, unsigned n, size_t done);

/* A kind's combos: load combo q into cb (-1, or an exit code after a
 * message) and count its points into *npts; run the points of cb that sw
 * takes, its first point being point base of the whole grid, through
 * jobs (sw->run.jobs of them) into the sink. */
struct sweep_kind {
    void *cb;
    int (*load)(const struct sweep *sw, size_t q, void *cb, size_t *npts);
    void (*run)(const struct sweep *sw, const void *cb, size_t base, struct sweep_job *jobs,
                struct sweep_sink *k);
    int (*loaded)(const struct sweep *sw, const void *cb); /* after every combo loaded once */
    double points_per_combo;                               /* the fewest */
};

/* The whole sweep: the size checked, every combo loaded once, then the
 * header and every row.  The command's exit code. */
int sweep_exec(const struct sweep *sw, const struct sweep_kind *kind);

/* A kind's side of the sweep (its face's, cli/job.h): the kind in a word
 * for messages; the axes and options only it takes, and the header's
 * columns of the kind, into sw (-1, or an exit code after a message);
 * then the sweep (the command's exit code); and the table's columns:
 * the count's, the answers', and the one that says why. */
struct sweep_face {
    const char *word; /* "weight-streaming", "GPU" */
    int (*parse)(struct sweep *sw, const struct cli_opts *o);
    int (*exec)(const struct sweep *sw);
    const char *count_col;
    const char *const *answers;
    size_t nanswers;
    const char *why_col;
};

/* Weight-streaming systems (sweep_ws.c) and GPU systems (sweep_gpu.c):
 * sweep_faces.h. */

#endif
