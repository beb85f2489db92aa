/* meas.h - measured points for calibration: a CSV file (RFC 4180, read
 * strictly with libcsv) with a header row naming its columns in any order,
 * then one row per measurement.  Format: cerebras-plan(5), CALIBRATION
 * FILES.
 *
 * Columns: model, system, systems, quantity and value are required;
 * sparsity (default 0), batch (global, sequences; default the model's),
 * memoryx (tier name or capacity; default the smallest tier that holds the
 * model), id (a name for the row, unique and not empty when the column is
 * there), software (the release that ran it), unit (the quantity's unit,
 * checked against it), source (where it was published; kept, cut to fit)
 * and notes (free text, not read) are optional.  Lines that are empty,
 * blank or start with '#' (between records) are comments.
 *
 * The reader does no I/O and never exits: it turns text into rows of
 * strings and SI numbers, each cell with its line and byte column, and
 * reports the first error as "origin:line:column: message" (or
 * "origin:line: message" when no column applies).  It is bounded (input
 * size, rows, cell length) and safe on any bytes. */
#ifndef CP_MEAS_H
#define CP_MEAS_H

#include <stddef.h>

#include "../base/status.h"

enum meas_quantity {
    MEAS_STEP_TIME,     /* step_time_s: seconds per training step            */
    MEAS_TOKENS_PER_S,  /* tokens_per_s: training tokens per second           */
    MEAS_SPEEDUP,       /* speedup: tokens/s on N systems over one system
                           running batch / N sequences (weak scaling)         */
    MEAS_SAMPLES_PER_S, /* samples_per_s: training sequences per second      */
    MEAS_NQUANTITIES
};
extern const char *const meas_quantity_name[MEAS_NQUANTITIES];
/* The unit a file's unit column must give for each quantity ("s",
 * "tokens/s", "x", "samples/s"). */
extern const char *const meas_quantity_unit[MEAS_NQUANTITIES];

enum meas_col {
    MEAS_MODEL,
    MEAS_SYSTEM,
    MEAS_SYSTEMS,
    MEAS_QUANTITY,
    MEAS_VALUE,
    MEAS_SPARSITY,
    MEAS_BATCH,
    MEAS_MEMORYX,
    MEAS_SOURCE,
    MEAS_ID,
    MEAS_SOFTWARE,
    MEAS_UNIT,
    MEAS_NOTES,
    MEAS_NCOLS
};
extern const char *const meas_col_name[MEAS_NCOLS];

#define MEAS_TEXT_MAX 256        /* longest cell kept, with its NUL     */
#define MEAS_MAX_ROWS 10000      /* measurements in one file            */
#define MEAS_MAX_BYTES (1 << 20) /* longest input text                  */

/* Where a cell is: 1-based line and byte column (of the field's first
 * byte); line 0 when the file has no such column. */
struct meas_pos {
    int line, col;
};

struct meas_row {
    int line;                       /* line where the record starts         */
    struct meas_pos at[MEAS_NCOLS]; /* each cell, for messages             */
    char model[MEAS_TEXT_MAX];      /* a name or path, as for -m            */
    char system[MEAS_TEXT_MAX];     /* as for -s                            */
    char memoryx[MEAS_TEXT_MAX];    /* as for --memoryx; "" for the default */
    char id[MEAS_TEXT_MAX];         /* "" when the file has no id column    */
    char software[MEAS_TEXT_MAX];   /* the release that ran it, or ""       */
    char source[MEAS_TEXT_MAX];     /* where published, or ""; a longer
                                       cell is cut at a UTF-8 character     */
    double systems;                 /* N, whole, >= 1                       */
    double sparsity;                /* fraction, 0 <= s < 1                 */
    double batch;                   /* global sequences, whole; 0: default  */
    enum meas_quantity quantity;
    double value; /* SI base units (seconds, tokens/s, a ratio, sequences/s); > 0 */
};

struct meas_list {
    size_t n;
    struct meas_row *rows; /* owned; free with meas_list_free() */
};

/* Parse text (NUL-terminated) named origin into out.  CP_OK with at least
 * one row; CP_EINPUT with err naming origin, line and column (malformed
 * CSV, an unknown, repeated or missing column, a field too many or too
 * few, a bad number, an unknown quantity, a unit that is not the
 * quantity's, an empty or repeated id, no rows, a file too large);
 * CP_ENOMEM if the parser cannot start.  On failure out is empty. */
cp_status meas_parse(const char *text, const char *origin, struct meas_list *out,
                     struct cp_error *err);

void meas_list_free(struct meas_list *l);

#endif
