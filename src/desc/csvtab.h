/* csvtab.h - one reader for the project's CSV tables (the measurement
 * corpora of both kinds of cluster, meas.h and gmeas.h; any table with a
 * header row naming its columns): RFC 4180 read strictly with libcsv, a
 * header row naming columns from a table, then one record per row; or
 * (CSVTAB_ORDERED, the claims file, claim.h) the columns by position in
 * the table's order, the header checked by its owner.
 *
 * The reader owns the machinery: the size bound, the byte-order mark,
 * comment lines (when asked), the line and byte column of every cell, the
 * header matched against the column table, the cells of each record by
 * column (cut to a bound), the count of fields and rows, and a set of ids
 * for "already the id of ... on line N".  The table's owner gives the
 * words: what each kind of fault says (fault()), and what a record becomes
 * (row()).  The reader does no I/O and never exits. */
#ifndef CP_CSVTAB_H
#define CP_CSVTAB_H

#include <stddef.h>

#include "../base/status.h"

/* Where a byte or cell is: 1-based line and byte column; line 0 when the
 * file has no such column. */
struct csvtab_pos {
    int line, col;
};

enum csvtab_fault_kind {
    CSVTAB_CSV,         /* libcsv refused the byte at `at` (csv_error: its code;
                           byte, quoted: the field opened with a quote;
                           start: where that field starts)                  */
    CSVTAB_UNCLOSED,    /* a quote still open at the end (start: its field) */
    CSVTAB_NAME_TEXT,   /* a header name the spec's name_check refused (why) */
    CSVTAB_UNKNOWN,     /* a header name not in the table (text), or too long */
    CSVTAB_TWICE,       /* column col named twice (first: where first named) */
    CSVTAB_MISSING,     /* required column col not named                     */
    CSVTAB_HEADER_WIDE, /* the header has more fields than the table columns */
    CSVTAB_WIDE,        /* a record has more fields than the header          */
    CSVTAB_SHORT,       /* a record has fewer (nfield), ending at `at`       */
    CSVTAB_ROWS,        /* more than max_rows records                        */
    CSVTAB_NO_HEADER,   /* no header row                                     */
    CSVTAB_NO_ROWS      /* a header and no record after it                   */
};

struct csvtab_fault {
    enum csvtab_fault_kind kind;
    struct csvtab_pos at;    /* the byte, field or header where it is     */
    struct csvtab_pos start; /* CSVTAB_CSV, CSVTAB_UNCLOSED: the field's start */
    int rec_line;            /* line where the record starts              */
    int col;                 /* CSVTAB_TWICE, CSVTAB_MISSING: the column   */
    int nfield;              /* CSVTAB_SHORT: fields the record has        */
    const char *text;        /* the header name, or ""                     */
    const char *why;         /* CSVTAB_NAME_TEXT: name_check's reason      */
    struct csvtab_pos first; /* CSVTAB_TWICE: where the column was named   */
    char byte;               /* CSVTAB_CSV: the byte refused               */
    int quoted, csv_error;   /* CSVTAB_CSV                                 */
};

/* Ways of reading (csvtab_spec.flags). */
enum {
    CSVTAB_COMMENTS = 1,    /* lines blank or starting with '#' between records
                               are skipped                                     */
    CSVTAB_CR_LINES = 2,    /* a lone CR ends a line (else only LF counts)      */
    CSVTAB_UTF8_CUT = 4,    /* a cell cut to fit is cut at a UTF-8 character    */
    CSVTAB_NAMES_EARLY = 8, /* each header name is checked as it is read (else
                               once the header row ends)                      */
    CSVTAB_ORDERED = 16     /* the columns by position, in the table's order:
                               the header row goes to row() (have_header 0)
                               for its owner to check, names unmatched, and a
                               record with another count of fields than it is
                               CSVTAB_SHORT or CSVTAB_WIDE (nfield its count),
                               found when the record ends                     */
};

struct csvtab;

/* A table: its columns (the first nrequired must be named), bounds, flags,
 * and the owner's callbacks, each given the owner's ctx.  fault() turns a
 * fault into an error in t->err (cp_fail) and returns its status; row() reads
 * the record's cells (csvtab_cell ...) and returns CP_OK or an error it has
 * set. */
struct csvtab_spec {
    const char *const *col;
    int ncols, nrequired;
    size_t cell_max;  /* bytes kept of a cell, with its NUL; longer: too_long */
    size_t max_bytes; /* longest input text                                  */
    size_t max_rows;  /* most records after the header                       */
    unsigned flags;
    int (*name_check)(const char *name, char *why, size_t n); /* NULL: none */
    cp_status (*fault)(void *ctx, const struct csvtab *t, const struct csvtab_fault *f);
    cp_status (*row)(void *ctx, struct csvtab *t);
};

/* The reader's state, as the callbacks see it. */
struct csvtab {
    const struct csvtab_spec *spec;
    const char *origin; /* the name messages use            */
    struct cp_error *err;
    void *ctx;
    cp_status st;
    int header_line; /* where the header row starts      */
    int nhdr;        /* fields of the header             */
    int *hdr;        /* field index -> column            */
    int *has;        /* has[c]: the header names column c */
    struct csvtab_pos *hdr_at;
    struct csvtab_pos rec; /* where the record starts (its first field) */
    int nrec;              /* records so far, the header the first: the number
                              of the one being read (blank lines not counted) */
    struct csvtab_pos *at; /* each column's cell in this record; line 0: none */
    int *too_long;         /* the column's cell was cut        */
    char *cells;           /* ncols cells of cell_max bytes    */
    size_t nrows;          /* records read so far              */
    /* the machinery's own */
    struct csvtab_pos pos, start;
    int need_start, quoted, at_record_start, have_header, rec_set;
    int nfield; /* fields so far in this record: at a fault, the index of the
                   field it is in */
    struct csvtab_id *ids;
    size_t nids, id_slots;
    int *id_slot;
};

/* Read text (NUL-terminated) named origin with spec, calling spec->row
 * once per record.  CP_OK with at least one record; else the status of
 * the first fault (spec->fault's words), or CP_EINPUT "origin: larger than
 * N bytes", or CP_ENOMEM when libcsv cannot start. */
cp_status csvtab_read(const struct csvtab_spec *spec, const char *text, const char *origin,
                      void *ctx, struct cp_error *err);

/* Column c's cell of the record (or, in the header, field c), "" if none. */
static inline const char *csvtab_cell(const struct csvtab *t, int c)
{
    return t->cells + (size_t)c * t->spec->cell_max;
}

/* The line of the earlier record whose id is id, else 0; and keep id as
 * that of the record on line (the owner calls it once the record is read). */
int csvtab_id_line(const struct csvtab *t, const char *id);
void csvtab_id_keep(struct csvtab *t, const char *id, int line);

/* names[0..n) as "a, b and c" (conj "and") in buf, cut to fit; buf. */
const char *csvtab_name_list(const char *const *names, int n, const char *conj, char *buf,
                             size_t size);

#endif
