/* meas.c - the calibration CSV reader (see meas.h): the table reader
 * (csvtab.h) with this corpus's columns and words, and each record turned
 * into a row.  Comment and blank lines between records are skipped, a lone
 * CR ends a line, and every error names the byte column where it is. */
#include "meas.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "csvtab.h"
#include "hw.h"

const char *const meas_quantity_name[MEAS_NQUANTITIES] = {"step_time_s", "tokens_per_s", "speedup",
                                                          "samples_per_s"};
const char *const meas_quantity_unit[MEAS_NQUANTITIES] = {"s", "tokens/s", "x", "samples/s"};
const char *const meas_col_name[MEAS_NCOLS] = {"model",    "system", "systems", "quantity", "value",
                                               "sparsity", "batch",  "memoryx", "source",   "id",
                                               "software", "unit",   "notes"};

/* Columns every file must name. */
#define MEAS_NREQUIRED (MEAS_VALUE + 1)

struct mparse {
    struct meas_list *out;
    size_t cap;
    struct csvtab *t; /* the reader, while a record is read */
};

#define CELL(p, c) csvtab_cell((p)->t, c)

static cp_status fail_at(const struct csvtab *t, struct csvtab_pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cp_status fail_at(const struct csvtab *t, struct csvtab_pos at, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (at.col > 0)
        return cp_fail(t->err, CP_EINPUT, "%s:%d:%d: %s", t->origin, at.line, at.col, msg);
    return cp_fail(t->err, CP_EINPUT, "%s:%d: %s", t->origin, at.line, msg);
}

/* The words of this corpus for what the reader finds wrong.  Long
 * because it is one case per kind of fault, each its message. */
static cp_status fault(void *ctx, const struct csvtab *t, const struct csvtab_fault *f)
{
    char cols[512], opt[256];
    (void)ctx;
    switch (f->kind) {
    case CSVTAB_CSV:
        if (f->csv_error == CSV_ENOMEM)
            return cp_fail(t->err, CP_ENOMEM, "%s: out of memory reading CSV", t->origin);
        if (f->csv_error == CSV_ETOOBIG)
            return fail_at(t, f->start, "field too large");
        if (f->quoted)
            return fail_at(t, f->at,
                           "unexpected '%c' after a closing quote (a quoted field ends with "
                           "a quote followed by ',' or the end of the line)",
                           f->byte);
        return fail_at(t, f->at,
                       "a double quote inside an unquoted field (quote the whole field "
                       "and double the quotes inside it)");
    case CSVTAB_UNCLOSED:
        return fail_at(t, f->start,
                       "quote not closed: the field that opens here runs to the end of "
                       "the file");
    case CSVTAB_NAME_TEXT:
        return fail_at(t, f->at, "header: %s", f->why);
    case CSVTAB_UNKNOWN:
    case CSVTAB_HEADER_WIDE: /* not reached: a name past the columns repeats one */
        return fail_at(t, f->at, "unknown column '%.64s' (columns: %s)", f->text,
                       csvtab_name_list(meas_col_name, MEAS_NCOLS, " and ", cols, sizeof cols));
    case CSVTAB_TWICE:
        return fail_at(t, f->at, "column '%s' named twice (first at column %d)", f->text,
                       f->first.col);
    case CSVTAB_MISSING:
        return fail_at(t, f->at, "header: missing column '%s' (%s are required)",
                       meas_col_name[f->col],
                       csvtab_name_list(meas_col_name, MEAS_NREQUIRED, " and ", cols, sizeof cols));
    case CSVTAB_WIDE:
        return fail_at(t, f->at, "too many fields: the header on line %d names %d columns",
                       t->header_line, t->nhdr);
    case CSVTAB_SHORT:
        return fail_at(t, f->at, "%d field%s, but the header on line %d names %d columns",
                       f->nfield, f->nfield == 1 ? "" : "s", t->header_line, t->nhdr);
    case CSVTAB_ROWS:
        return fail_at(t, f->at, "more than %d measurements", MEAS_MAX_ROWS);
    case CSVTAB_NO_HEADER:
        return fail_at(t, f->at, "no header row (expected one naming the columns %s and any of %s)",
                       csvtab_name_list(meas_col_name, MEAS_NREQUIRED, ", ", cols, sizeof cols),
                       csvtab_name_list(meas_col_name + MEAS_NREQUIRED, MEAS_NCOLS - MEAS_NREQUIRED,
                                        ", ", opt, sizeof opt));
    case CSVTAB_NO_ROWS:
        return fail_at(t, f->at, "no measurements after the header (one row per measured point)");
    }
    return cp_fail(t->err, CP_EINPUT, "%s: unreadable", t->origin);
}

/* ---- one measurement ---- */

/* ---- one measurement ---- */

static cp_status cell_fail(struct mparse *p, int c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cp_status cell_fail(struct mparse *p, int c, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail_at(p->t, p->t->at[c], "%s: %s", meas_col_name[c], msg);
}

static cp_status text_cell(struct mparse *p, int c, int required, char *dst)
{
    if (p->t->too_long[c])
        return cell_fail(p, c, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (required && CELL(p, c)[0] == '\0')
        return cell_fail(p, c, "empty; a name is required");
    memcpy(dst, CELL(p, c), MEAS_TEXT_MAX);
    return CP_OK;
}

/* Parse cell c as dimension d into *v; an empty optional cell leaves *v. */
static cp_status num_cell(struct mparse *p, int c, unit_dim d, int required, double *v)
{
    char why[256];
    if (p->t->too_long[c])
        return cell_fail(p, c, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (!required && CELL(p, c)[0] == '\0')
        return CP_OK;
    if (unit_parse(CELL(p, c), d, v, why, sizeof why) != 0)
        return cell_fail(p, c, "%s", why);
    return CP_OK;
}

static cp_status whole_cell(struct mparse *p, int c, int required, const char *what, double *v)
{
    if (num_cell(p, c, UNIT_COUNT, required, v) != CP_OK)
        return CP_EINPUT;
    if (CELL(p, c)[0] && *v > DESC_WHOLE_MAX)
        return cell_fail(
            p, c, "'%s' is too large for a whole number of %s (at most 2^53, about 9.007e15)",
            CELL(p, c), what);
    if (CELL(p, c)[0] && (!(*v >= 1) || *v != floor(*v)))
        return cell_fail(p, c, "'%s' is not a whole number of %s, at least 1", CELL(p, c), what);
    return CP_OK;
}

/* The measured value, in the dimension of its quantity.  A step time may
 * be a bare number of seconds. */
static cp_status value_cell(struct mparse *p, struct meas_row *r)
{
    const char *v = CELL(p, MEAS_VALUE);
    char why[256], buf[MEAS_TEXT_MAX + 4];
    if (p->t->too_long[MEAS_VALUE])
        return cell_fail(p, MEAS_VALUE, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    unit_dim d = r->quantity == MEAS_STEP_TIME ? UNIT_TIME : UNIT_COUNT;
    if (unit_parse(v, d, &r->value, why, sizeof why) != 0) {
        snprintf(buf, sizeof buf, "%s s", v);
        char why2[256];
        if (d != UNIT_TIME || unit_parse(buf, d, &r->value, why2, sizeof why2) != 0)
            return cell_fail(p, MEAS_VALUE, "%s", why);
    }
    if (!(r->value > 0))
        return cell_fail(p, MEAS_VALUE, "'%s' must be greater than zero", v);
    return CP_OK;
}

static cp_status quantity_cell(struct mparse *p, struct meas_row *r)
{
    const char *q = CELL(p, MEAS_QUANTITY);
    char names[256];
    for (int i = 0; i < MEAS_NQUANTITIES; i++)
        if (strcmp(q, meas_quantity_name[i]) == 0) {
            r->quantity = (enum meas_quantity)i;
            return CP_OK;
        }
    return cell_fail(
        p, MEAS_QUANTITY, "'%.64s' is not a quantity (%s)", q,
        csvtab_name_list(meas_quantity_name, MEAS_NQUANTITIES, " or ", names, sizeof names));
}

/* The unit cell, if not empty, names the unit of the row's quantity. */
static cp_status unit_cell(struct mparse *p, const struct meas_row *r)
{
    const char *u = CELL(p, MEAS_UNIT), *want = meas_quantity_unit[r->quantity];
    if (p->t->too_long[MEAS_UNIT])
        return cell_fail(p, MEAS_UNIT, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (u[0] == '\0' || strcmp(u, want) == 0)
        return CP_OK;
    return cell_fail(p, MEAS_UNIT, "'%.64s' is not the unit of %s, which is '%s'", u,
                     meas_quantity_name[r->quantity], want);
}

/* ---- ids ---- */

/* ---- ids and text ---- */

/* When the file has ids, the row's is not empty and not seen before. */
static cp_status id_cell(struct mparse *p, struct meas_row *r)
{
    if (!p->t->has[MEAS_ID])
        return CP_OK;
    if (p->t->too_long[MEAS_ID])
        return cell_fail(p, MEAS_ID, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (CELL(p, MEAS_ID)[0] == '\0')
        return cell_fail(p, MEAS_ID,
                         "empty; every measurement needs an id when the file has an "
                         "id column");
    int line = csvtab_id_line(p->t, CELL(p, MEAS_ID));
    if (line)
        return cell_fail(p, MEAS_ID, "'%.64s' is already the id of the measurement on line %d",
                         CELL(p, MEAS_ID), line);
    memcpy(r->id, CELL(p, MEAS_ID), MEAS_TEXT_MAX);
    return CP_OK;
}

/* The source is free text kept as given (lines, any bytes, cut to fit):
 * only a control character that would act on a terminal is refused (a
 * line end, LF or CR LF, and a tab are not). */
static int source_check(const char *s, char *why, size_t n)
{
    for (const char *c = s; *c; c++)
        if (((unsigned char)*c < ' ' && *c != '\n' && *c != '\t' &&
             !(c[0] == '\r' && c[1] == '\n')) ||
            *c == 0x7f)
            return snprintf(why, n,
                            "control character 0x%02X at byte %zu (text is printed as it is; "
                            "remove it)",
                            (unsigned char)*c, (size_t)(c - s) + 1),
                   -1;
    return 0;
}

/* Every cell that may be printed (all but the notes) is text
 * (desc_text_check), the source as source_check says. */
static cp_status cells_check(struct mparse *p)
{
    char why[160];
    for (int c = 0; c < MEAS_NCOLS; c++)
        if (c != MEAS_NOTES && (c == MEAS_SOURCE ? source_check(CELL(p, c), why, sizeof why)
                                                 : desc_text_check(CELL(p, c), why, sizeof why)))
            return cell_fail(p, c, "%s", why);
    return CP_OK;
}

static cp_status row_parse(struct mparse *p, struct meas_row *r)
{
    for (int c = 0; c < MEAS_NCOLS; c++)
        r->at[c] = (struct meas_pos){p->t->at[c].line, p->t->at[c].col};
    if (cells_check(p) != CP_OK)
        return CP_EINPUT;
    if (id_cell(p, r) || text_cell(p, MEAS_MODEL, 1, r->model) ||
        text_cell(p, MEAS_SYSTEM, 1, r->system) || text_cell(p, MEAS_MEMORYX, 0, r->memoryx) ||
        text_cell(p, MEAS_SOFTWARE, 0, r->software) ||
        whole_cell(p, MEAS_SYSTEMS, 1, "systems", &r->systems) || quantity_cell(p, r) ||
        unit_cell(p, r) || value_cell(p, r) ||
        num_cell(p, MEAS_SPARSITY, UNIT_FRACTION, 0, &r->sparsity) ||
        whole_cell(p, MEAS_BATCH, 0, "sequences", &r->batch))
        return CP_EINPUT;
    /* the source is kept as far as it fits (on_field cut it) */
    memcpy(r->source, CELL(p, MEAS_SOURCE), MEAS_TEXT_MAX);
    if (!(r->sparsity >= 0 && r->sparsity <= HW_MAX_SPARSITY))
        return cell_fail(p, MEAS_SPARSITY, "'%s' is outside 0 to %g", CELL(p, MEAS_SPARSITY),
                         HW_MAX_SPARSITY);
    return CP_OK;
}

/* A record read: its row, kept. */
static cp_status on_row(void *ctx, struct csvtab *t)
{
    struct mparse *p = ctx;
    p->t = t;
    struct meas_row r = {.line = t->rec.line};
    if (row_parse(p, &r) != CP_OK)
        return CP_EINPUT;
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        p->out->rows = xrealloc(p->out->rows, p->cap * sizeof *p->out->rows);
    }
    p->out->rows[p->out->n++] = r;
    if (t->has[MEAS_ID])
        csvtab_id_keep(t, r.id, r.line);
    return CP_OK;
}

static const struct csvtab_spec meas_table = {
    .col = meas_col_name,
    .ncols = MEAS_NCOLS,
    .nrequired = MEAS_NREQUIRED,
    .cell_max = MEAS_TEXT_MAX,
    .max_bytes = MEAS_MAX_BYTES,
    .max_rows = MEAS_MAX_ROWS,
    .flags = CSVTAB_COMMENTS | CSVTAB_CR_LINES | CSVTAB_UTF8_CUT | CSVTAB_NAMES_EARLY,
    .name_check = desc_text_check,
    .fault = fault,
    .row = on_row,
};

cp_status meas_parse(const char *text, const char *origin, struct meas_list *out,
                     struct cp_error *err)
{
    *out = (struct meas_list){0};
    struct mparse p = {.out = out};
    cp_status st = csvtab_read(&meas_table, text, origin, &p, err);
    if (st != CP_OK)
        meas_list_free(out);
    return st;
}

void meas_list_free(struct meas_list *l)
{
    free(l->rows);
    *l = (struct meas_list){0};
}
