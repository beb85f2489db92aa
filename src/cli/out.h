/* out.h - tabular output sinks: aligned text for people, RFC 4180 CSV for
 * programs.  A sink is a const struct of function pointers; a command fills
 * a struct out_table (header + rows of strings) and hands it to a sink. */
#ifndef CP_OUT_H
#define CP_OUT_H

#include <stddef.h>
#include <stdio.h>

struct out_table {
    size_t ncols, nrows, cap;
    char **cells; /* nrows x ncols, row-major, owned */
    const char *const *header;
};

struct out_sink {
    const char *name;
    /* Write t to f; returns 0, or -1 on a write error. */
    int (*write)(FILE *f, const struct out_table *t);
};

extern const struct out_sink out_text; /* aligned columns, header row first */
extern const struct out_sink out_csv;  /* RFC 4180: CRLF, quoting as needed  */

void out_init(struct out_table *t, size_t ncols, const char *const *header);
/* Append a row of ncols strings (copied). */
void out_row(struct out_table *t, const char *const *cells);
/* Append a row from printf-style cells separated by '\t' in fmt output. */
void out_rowf(struct out_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_free(struct out_table *t);

/* Write one CSV field with RFC 4180 quoting. */
int out_csv_field(FILE *f, const char *s);

#endif
