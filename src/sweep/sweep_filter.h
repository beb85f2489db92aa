/* sweep_filter.h - what a sweep keeps: the --columns it writes and the
 * --where filters on a row's cells (the --best row of each --group-by
 * group: grid_best.h).
 * Rows are the formatted cells of est_cells() (weight streaming) or of
 * gpu_cells() (GPU systems) plus the --set axis values; columns are named
 * by the CSV header of the whole row. */
#ifndef CP_SWEEP_FILTER_H
#define CP_SWEEP_FILTER_H

#include <stddef.h>

/* Index of column name among names[0..ncols); -1 if there is none. */
int sweep_col(const char *name, const char *const *names, size_t ncols);

/* For a message on unknown column name: "did you mean X?" naming the
 * columns close to it (words_suggest), or where the names are.  Written
 * into buf (n bytes); returns buf. */
const char *sweep_col_hint(const char *name, const char *const *names, size_t ncols, char *buf,
                           size_t n);

/* Parse --columns' comma list (blanks around a name ignored) into sel, the
 * indices of the columns to write in the order given (a column may be
 * named twice); at most max.  -1 on success, else an exit code after a
 * message naming flag, the unknown name and a near column. */
int sweep_columns_parse(const char *flag, const char *arg, const char *const *names, size_t ncols,
                        size_t *sel, size_t max, size_t *nsel);

/* Whether column col holds text (names, verdict words, --set values as
 * given) rather than numbers; nbase is the first --set column. */
int sweep_col_is_text(const char *const *names, size_t col, size_t nbase);

enum sweep_op { SWEEP_LE, SWEEP_LT, SWEEP_GE, SWEEP_GT, SWEEP_EQ };

struct sweep_where {
    size_t col;
    enum sweep_op op;
    double v;         /* the value, for numeric columns */
    const char *text; /* the value as given (points into the argument) */
};

/* Parse "COL<=V" (or < >= > =) against the columns (nbase: the first
 * --set column); -1 on success, else an exit code after a message naming
 * flag ("--where", or a sweep file's "FILE:LINE: where"). */
int sweep_where_parse(const char *flag, const char *arg, const char *const *names, size_t ncols,
                      size_t nbase, struct sweep_where *w);

/* Whether the row's cells satisfy w.  Cell c < nnum with num[c] set is
 * the number value[c], its text the shortest that reads back as it, so it
 * is compared without reading the text; other cells are read from their
 * text.  An empty numeric cell (cost without --price) satisfies nothing. */
int sweep_where_holds(const struct sweep_where *w, const char *const *cells,
                      const unsigned char *num, const double *value, size_t nnum);

#endif
