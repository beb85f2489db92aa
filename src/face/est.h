/* est.h - the columns of one estimate, shared by every command that prints
 * estimates as CSV (estimate, and later plan, sweep, report). */
#ifndef CP_EST_H
#define CP_EST_H

#include <limits.h>

#include "../model/train.h"
#include "../cli/out.h"
#include "scenario_ws.h"

extern const char *const est_header[];
extern const size_t est_ncols;

#define EST_MAX_COLS 80
#define EST_CELL_BYTES 40 /* room for a number's text, with its NUL (>= DTOA_BUF) */

/* The cells of one row, formatted (CSV: exact SI numbers, the shortest
 * text that reads back as the same double).  Reuse one struct for a run
 * of rows: a number equal to the previous row's in its column keeps its
 * text.  Zero it (or its have[]) before the first row.  want, when not
 * NULL (est_ncols flags, the same for every row of the struct), names the
 * numbers whose text is wanted: another number's value and have[] are set
 * and its cell is left empty, unformatted. */
struct est_cells {
    const unsigned char *want;
    const char *cell[EST_MAX_COLS];         /* est_ncols pointers, into buf or static */
    char buf[EST_MAX_COLS][EST_CELL_BYTES]; /* a number's cell points here */
    double prev[EST_MAX_COLS];
    unsigned char have[EST_MAX_COLS];
    /* How a CSV writer may copy cell c (EST_PLAIN_*): a number in its
     * buffer, or text that needs no quotes nor a leading quote; len[c] is
     * its strlen then. */
    unsigned char plain[EST_MAX_COLS];
    unsigned char len[EST_MAX_COLS];
    char warn[256];
    char act[32];      /* the placement label */
    char bind[2][128]; /* links binding the weight and gradient streams */
    /* The keys the texts of warn, act and bind were made from, plus one
     * (0: none made yet), so that an unchanged key keeps its text. */
    unsigned long long text_key[4];
    double act_k; /* the placement label's act_k (text_key[2] its mode) */
    size_t text_len[4];
    unsigned char text_plain[4];
    /* When set (by the caller, with EST_CSV_ROOM bytes there): each
     * cell's CSV text and a comma are also written here as the cell is
     * made, csv moving past them; a cell that would need a scan (quotes)
     * sets csv to NULL, the cells then made as always. */
    char *csv;
    size_t k;
    /* When set (by the caller): the texts behind the scenario's model and
     * system and behind tier stay as they are while their addresses do, so
     * that each is scanned once (s_text[] the addresses scanned, NULL for
     * none; the caller sets them to NULL when a text changes in place). */
    int texts_kept;
    const char *s_text[3];
    size_t s_len[3];
    unsigned char s_plain[3];
};

/* Room est_cells.csv must have: every cell at its longest copy. */
#define EST_CSV_ROOM (EST_MAX_COLS * (UCHAR_MAX + 2))

/* est_cells.plain[c]: scan the text (it may need quotes); a number whose
 * text is in a buffer of EST_CELL_BYTES (all of it readable); text known
 * to be written as it is. */
enum { EST_PLAIN_NO, EST_PLAIN_NUM, EST_PLAIN_TEXT };

/* Format the row for s evaluated as r into w, naming the MemoryX tier
 * tier (s->tier for one estimate).  The cells point into w and s. */
void est_cells(struct est_cells *w, const struct scenario *s, const char *tier,
               const struct cluster *c, const struct train_result *r);

/* Append one row for s evaluated as r (CSV: exact SI numbers). */
void est_row(struct out_table *t, const struct scenario *s, const struct cluster *c,
             const struct train_result *r);

/* The estimate for people: configuration, step-time breakdown by
 * resource, latency, training time, energy, cost, then the verdicts. */
void est_print(const struct scenario *s, const struct train_result *r);

/* "holds" / "fails" */
const char *est_verdict(int ok);

#endif
