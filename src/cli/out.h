/* out.h - tabular output sinks: aligned text for people, RFC 4180 CSV for
 * programs.  A sink is a const struct of function pointers; a command fills
 * a struct out_table (header + rows of strings) and hands it to a sink. */
#ifndef CP_OUT_H
#define CP_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "../base/units.h"

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

/* Whether the CSV cell s must be written with a leading single quote so a
 * spreadsheet takes it as text, not a formula (OWASP, "CSV Injection"):
 * text starting with '=', '+', '-', '@', a tab or a carriage return.  A
 * number ("-1.5", "+2e-05": an optional sign, digits with an optional
 * point, an optional exponent) and the placeholder "-" stay as they are.
 * Every CSV writer (out_csv, sweep_buf_csv) asks this of every cell. */
int out_csv_guard(const char *s);

void out_init(struct out_table *t, size_t ncols, const char *const *header);
/* Append a row of ncols strings (copied). */
void out_row(struct out_table *t, const char *const *cells);
void out_free(struct out_table *t);

/* text as "# " comment lines a description reader takes back: each at most
 * DESC_LINE_MAX bytes, broken at a blank (or else between two UTF-8
 * characters), control bytes shown as '?' (a name taken from a file name
 * may hold any byte but '/'). */
void out_desc_comment(FILE *f, const char *text);

/* Give t ncols columns (at least its current count) named by header; the
 * new cells of existing rows are empty until out_set() fills them. */
void out_widen(struct out_table *t, size_t ncols, const char *const *header);
/* Replace the cell at row r, column c with a copy of text. */
void out_set(struct out_table *t, size_t r, size_t c, const char *text);

/* A number as a sink wants it: exact SI base value for CSV (csv != 0),
 * scaled with a prefix and unit for people.  Returns buf. */
const char *out_num(int csv, double v, unit_dim d, char *buf, size_t n);

/* A duration for people: four digits in ns, us, ms, s, min, h or d
 * (unit_format) below 2 years, then years of 365.25 d.  Returns buf. */
const char *out_duration(double s, char *buf, size_t n);

/* Energy for people: joules as Wh, kWh, MWh, GWh or TWh, four digits
 * ("19.18 GWh").  Returns buf. */
const char *out_energy(double joules, char *buf, size_t n);

#endif
