/* sweep_out.h - what a sweep writes: each row as a CSV line for programs
 * (exact SI numbers, as estimate --csv writes them) or as a line of an
 * aligned text table for people (each column in a unit named in its
 * header, e.g. time_to_train[d]), and the progress line on standard
 * error.  Rows are formatted into a sweep_buf by the sweep's threads and
 * written in order by its main thread. */
#ifndef CP_SWEEP_OUT_H
#define CP_SWEEP_OUT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../base/xalloc.h"

/* A growing byte buffer. */
struct sweep_buf {
    char *p;
    size_t n, cap;
};

/* Room for n more bytes. */
static inline void sweep_buf_room(struct sweep_buf *b, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
}

static inline void sweep_buf_put(struct sweep_buf *b, const char *s, size_t n)
{
    sweep_buf_room(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

/* Append the CSV line (RFC 4180, CRLF; quoting, and a leading quote where
 * out_csv_guard asks, as the CSV sink does) of the cells sel[0..nsel).
 * Column c < nplain with plain[c] set (est.h's EST_PLAIN_*) is copied
 * without a scan: a number's text of plain_len[c] bytes read from a
 * buffer of EST_CELL_BYTES, copied whole; or text of plain_len[c] bytes
 * that needs no quotes. */
void sweep_buf_csv(struct sweep_buf *b, const char *const *cells, const unsigned char *plain,
                   const unsigned char *plain_len, size_t nplain, const size_t *sel, size_t nsel);

/* How a table column shows: its header, and for a number the unit it is
 * shown in (factor: SI base units per shown unit; 0 for a count or a
 * fraction, written as unit_format() writes a count). */
struct sweep_disp {
    char head[64];
    double factor;
    int right; /* numbers are right-aligned, text left */
};

/* The display of the column named name (a CSV header name): a time of
 * the whole run in days, a step's latency terms in ms and its other times
 * in s, power in MW, energy in MWh, the state in TB, a step's activations
 * and a GPU's memory (_B) in GB, tokens/s and cost as they are; text (text
 * set) as it is. */
void sweep_disp_init(struct sweep_disp *d, const char *name, int text);

/* v (SI) as d shows it, into buf (n bytes): in the column's unit with four
 * significant digits (whole from 1000 to 1e9).  Returns buf. */
const char *sweep_disp_num(const struct sweep_disp *d, double v, char *buf, size_t n);

/* Rows of the table are lines of cells apart by SWEEP_TABLE_SEP, each
 * ended by '\n'.  The first SWEEP_TABLE_HOLD rows are held to size the
 * columns, then written under the header; later rows are written as they
 * come with those widths (a wider cell pushes the rest of its row). */
#define SWEEP_TABLE_SEP '\x1f'
#define SWEEP_TABLE_HOLD 1000

/* Append the table line of the cells sel[0..nsel) shown as disp[0..nsel):
 * column c < nnum with num[c] set is the number value[c]; other cells are
 * text, control characters blanked. */
void sweep_buf_table(struct sweep_buf *b, const char *const *cells, const unsigned char *num,
                     const double *value, size_t nnum, const size_t *sel,
                     const struct sweep_disp *disp, size_t nsel);

struct sweep_table {
    FILE *f;
    const struct sweep_disp *disp;
    size_t ncols;
    size_t *width;
    struct sweep_buf held, line; /* the held rows; a row being laid out */
    size_t rows;                 /* rows held */
    int open;                    /* the header is written */
    void (*on_write)(void *arg); /* if set, called before each line is written */
    void *arg;
};

/* A table of ncols columns shown as disp[0..ncols) (kept, not copied). */
void sweep_table_init(struct sweep_table *t, FILE *f, const struct sweep_disp *disp, size_t ncols);
/* Add the rows in lines[0..len) (whole lines). */
void sweep_table_add(struct sweep_table *t, const char *lines, size_t len);
/* Write what is held (the header alone when no row came) and free t. */
void sweep_table_end(struct sweep_table *t);

/* "sweep: 2048/102400 points, 4.9e+05 points/s, 0 s left" on standard
 * error at most every 0.25 s when it is a terminal; erased before
 * anything is written to a terminal's standard output, and at the end. */
struct sweep_progress {
    int on, shown, out_tty;
    size_t done, total;
    struct timespec t0, last;
};

void sweep_progress_start(struct sweep_progress *pg, size_t total);
/* Draw the line for pg->done points, unless drawn less than 0.25 s ago. */
void sweep_progress_show(struct sweep_progress *pg);
/* Before writing to standard output (pg is a struct sweep_progress *):
 * erase the line if it is shown and standard output is a terminal. */
void sweep_progress_before_out(void *pg);
/* Erase the line if it is shown. */
void sweep_progress_end(struct sweep_progress *pg);

#endif
