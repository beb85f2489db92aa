/* meas.c - the calibration CSV reader (see meas.h).
 *
 * libcsv does not say where a field is, so the text is fed to it one byte
 * at a time while this file keeps the line and column of each byte: a
 * field's position is that of its first byte, and an error is placed at
 * the byte libcsv refused (or, for a quote never closed, at the field that
 * opened it).  Comment and blank lines are skipped here, before libcsv sees
 * them, and only between records, so a quoted field may still hold a line
 * that starts with '#'.
 *
 * Ids are checked for repeats through a small open-addressing hash table of
 * row numbers, so a file of many rows costs no more than one pass. */
#include "meas.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "hw.h"

const char *const meas_quantity_name[MEAS_NQUANTITIES] = {"step_time_s", "tokens_per_s", "speedup",
                                                          "samples_per_s"};
const char *const meas_quantity_unit[MEAS_NQUANTITIES] = {"s", "tokens/s", "x", "samples/s"};
const char *const meas_col_name[MEAS_NCOLS] = {"model",    "system", "systems", "quantity", "value",
                                               "sparsity", "batch",  "memoryx", "source",   "id",
                                               "software", "unit",   "notes"};

/* Columns every file must name. */
#define MEAS_NREQUIRED (MEAS_VALUE + 1)

/* Slots of the id table: a power of two above twice the most rows, so a
 * probe rarely runs long. */
#define MEAS_ID_SLOTS (1 << 15)
_Static_assert(MEAS_ID_SLOTS > 2 * MEAS_MAX_ROWS, "the id table must stay under half full");

/* A UTF-8 continuation byte is 10xxxxxx: its top two bits (the mask) are
 * 10 (the bits); a character has at most three of them. */
#define UTF8_CONT_MASK 0xc0
#define UTF8_CONT_BITS 0x80
#define UTF8_MAX_CONT 3

struct mparse {
    const char *origin;
    struct meas_list *out;
    size_t cap;
    cp_status st;
    struct cp_error *err;
    struct meas_pos pos;   /* the byte being fed                        */
    struct meas_pos start; /* first byte of the field being read        */
    int need_start;        /* the next byte fed starts a field          */
    int quoted;            /* the field being read opened with a quote  */
    int at_record_start;   /* libcsv is between records                 */
    /* the header */
    int have_header, header_line, nhdr;
    int hdr[MEAS_NCOLS]; /* field index -> column                   */
    int has[MEAS_NCOLS]; /* the header names column c               */
    struct meas_pos hdr_at[MEAS_NCOLS];
    int *id_slot; /* row index + 1 per slot, 0 if free; when has[MEAS_ID] */
    /* the record being read */
    int nfield;
    int too_long[MEAS_NCOLS];
    struct meas_pos at[MEAS_NCOLS];
    char cell[MEAS_NCOLS][MEAS_TEXT_MAX];
};

static cp_status fail_at(struct mparse *p, struct meas_pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cp_status fail_at(struct mparse *p, struct meas_pos at, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (at.col > 0)
        p->st = cp_fail(p->err, CP_EINPUT, "%s:%d:%d: %s", p->origin, at.line, at.col, msg);
    else
        p->st = cp_fail(p->err, CP_EINPUT, "%s:%d: %s", p->origin, at.line, msg);
    return p->st;
}

/* names[0..n) as "a, b and c" (conj "and") in buf, cut to fit. */
static const char *name_list(const char *const *names, int n, const char *conj, char *buf,
                             size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        const char *sep = i == 0 ? "" : i < n - 1 ? ", " : conj;
        int k = snprintf(buf + used, size - used, "%s%s", sep, names[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

/* ---- header ---- */

static void header_field(struct mparse *p, const char *name, struct meas_pos at)
{
    char cols[512], why[160];
    if (desc_text_check(name, why, sizeof why) != 0) {
        fail_at(p, at, "header: %s", why);
        return;
    }
    int c;
    for (c = 0; c < MEAS_NCOLS; c++)
        if (strcmp(name, meas_col_name[c]) == 0)
            break;
    if (c == MEAS_NCOLS) {
        fail_at(p, at, "unknown column '%.64s' (columns: %s)", name,
                name_list(meas_col_name, MEAS_NCOLS, " and ", cols, sizeof cols));
        return;
    }
    for (int i = 0; i < p->nhdr; i++)
        if (p->hdr[i] == c) {
            fail_at(p, at, "column '%s' named twice (first at column %d)", name, p->hdr_at[i].col);
            return;
        }
    p->hdr_at[p->nhdr] = at;
    p->hdr[p->nhdr++] = c;
}

static void header_end(struct mparse *p)
{
    char cols[512];
    for (int i = 0; i < p->nhdr; i++)
        p->has[p->hdr[i]] = 1;
    for (int c = 0; c < MEAS_NREQUIRED; c++)
        if (!p->has[c]) {
            fail_at(p, (struct meas_pos){p->header_line, 0},
                    "header: missing column '%s' (%s are required)", meas_col_name[c],
                    name_list(meas_col_name, MEAS_NREQUIRED, " and ", cols, sizeof cols));
            return;
        }
    if (p->has[MEAS_ID]) {
        p->id_slot = xmalloc(MEAS_ID_SLOTS * sizeof *p->id_slot);
        memset(p->id_slot, 0, MEAS_ID_SLOTS * sizeof *p->id_slot);
    }
    p->have_header = 1;
}

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
    return fail_at(p, p->at[c], "%s: %s", meas_col_name[c], msg);
}

static cp_status text_cell(struct mparse *p, int c, int required, char *dst)
{
    if (p->too_long[c])
        return cell_fail(p, c, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (required && p->cell[c][0] == '\0')
        return cell_fail(p, c, "empty; a name is required");
    memcpy(dst, p->cell[c], MEAS_TEXT_MAX);
    return CP_OK;
}

/* Parse cell c as dimension d into *v; an empty optional cell leaves *v. */
static cp_status num_cell(struct mparse *p, int c, unit_dim d, int required, double *v)
{
    char why[256];
    if (p->too_long[c])
        return cell_fail(p, c, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (!required && p->cell[c][0] == '\0')
        return CP_OK;
    if (unit_parse(p->cell[c], d, v, why, sizeof why) != 0)
        return cell_fail(p, c, "%s", why);
    return CP_OK;
}

static cp_status whole_cell(struct mparse *p, int c, int required, const char *what, double *v)
{
    if (num_cell(p, c, UNIT_COUNT, required, v) != CP_OK)
        return p->st;
    if (p->cell[c][0] && *v > DESC_WHOLE_MAX)
        return cell_fail(
            p, c, "'%s' is too large for a whole number of %s (at most 2^53, about 9.007e15)",
            p->cell[c], what);
    if (p->cell[c][0] && (!(*v >= 1) || *v != floor(*v)))
        return cell_fail(p, c, "'%s' is not a whole number of %s, at least 1", p->cell[c], what);
    return CP_OK;
}

/* The measured value, in the dimension of its quantity.  A step time may
 * be a bare number of seconds. */
static cp_status value_cell(struct mparse *p, struct meas_row *r)
{
    const char *v = p->cell[MEAS_VALUE];
    char why[256], buf[MEAS_TEXT_MAX + 4];
    if (p->too_long[MEAS_VALUE])
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
    const char *q = p->cell[MEAS_QUANTITY];
    char names[256];
    for (int i = 0; i < MEAS_NQUANTITIES; i++)
        if (strcmp(q, meas_quantity_name[i]) == 0) {
            r->quantity = (enum meas_quantity)i;
            return CP_OK;
        }
    return cell_fail(p, MEAS_QUANTITY, "'%.64s' is not a quantity (%s)", q,
                     name_list(meas_quantity_name, MEAS_NQUANTITIES, " or ", names, sizeof names));
}

/* The unit cell, if not empty, names the unit of the row's quantity. */
static cp_status unit_cell(struct mparse *p, const struct meas_row *r)
{
    const char *u = p->cell[MEAS_UNIT], *want = meas_quantity_unit[r->quantity];
    if (p->too_long[MEAS_UNIT])
        return cell_fail(p, MEAS_UNIT, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (u[0] == '\0' || strcmp(u, want) == 0)
        return CP_OK;
    return cell_fail(p, MEAS_UNIT, "'%.64s' is not the unit of %s, which is '%s'", u,
                     meas_quantity_name[r->quantity], want);
}

/* ---- ids ---- */

/* FNV-1a, 32 bits: offset basis and prime. */
#define FNV_BASIS 2166136261u
#define FNV_PRIME 16777619u

static unsigned id_hash(const char *s)
{
    unsigned h = FNV_BASIS;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return h;
}

/* The slot that holds id, or the free slot where it would go. */
static int *id_find(const struct mparse *p, const char *id)
{
    unsigned i = id_hash(id) & (MEAS_ID_SLOTS - 1);
    while (p->id_slot[i] && strcmp(p->out->rows[p->id_slot[i] - 1].id, id) != 0)
        i = (i + 1) & (MEAS_ID_SLOTS - 1);
    return &p->id_slot[i];
}

/* When the file has ids, the row's is not empty and not seen before. */
static cp_status id_cell(struct mparse *p, struct meas_row *r)
{
    if (!p->has[MEAS_ID])
        return CP_OK;
    if (p->too_long[MEAS_ID])
        return cell_fail(p, MEAS_ID, "longer than %d bytes", MEAS_TEXT_MAX - 1);
    if (p->cell[MEAS_ID][0] == '\0')
        return cell_fail(p, MEAS_ID,
                         "empty; every measurement needs an id when the file has an "
                         "id column");
    const int *slot = id_find(p, p->cell[MEAS_ID]);
    if (*slot)
        return cell_fail(p, MEAS_ID, "'%.64s' is already the id of the measurement on line %d",
                         p->cell[MEAS_ID], p->out->rows[*slot - 1].line);
    memcpy(r->id, p->cell[MEAS_ID], MEAS_TEXT_MAX);
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
        if (c != MEAS_NOTES && (c == MEAS_SOURCE ? source_check(p->cell[c], why, sizeof why)
                                                 : desc_text_check(p->cell[c], why, sizeof why)))
            return cell_fail(p, c, "%s", why);
    return CP_OK;
}

static cp_status row_parse(struct mparse *p, struct meas_row *r)
{
    memcpy(r->at, p->at, sizeof r->at);
    if (cells_check(p) != CP_OK)
        return p->st;
    if (id_cell(p, r) || text_cell(p, MEAS_MODEL, 1, r->model) ||
        text_cell(p, MEAS_SYSTEM, 1, r->system) || text_cell(p, MEAS_MEMORYX, 0, r->memoryx) ||
        text_cell(p, MEAS_SOFTWARE, 0, r->software) ||
        whole_cell(p, MEAS_SYSTEMS, 1, "systems", &r->systems) || quantity_cell(p, r) ||
        unit_cell(p, r) || value_cell(p, r) ||
        num_cell(p, MEAS_SPARSITY, UNIT_FRACTION, 0, &r->sparsity) ||
        whole_cell(p, MEAS_BATCH, 0, "sequences", &r->batch))
        return p->st;
    /* the source is kept as far as it fits (on_field cut it) */
    memcpy(r->source, p->cell[MEAS_SOURCE], MEAS_TEXT_MAX);
    if (!(r->sparsity >= 0 && r->sparsity <= HW_MAX_SPARSITY))
        return cell_fail(p, MEAS_SPARSITY, "'%s' is outside 0 to %g", p->cell[MEAS_SPARSITY],
                         HW_MAX_SPARSITY);
    return CP_OK;
}

static void record_end(struct mparse *p)
{
    if (p->nfield < p->nhdr) {
        fail_at(p, p->pos, "%d field%s, but the header on line %d names %d columns", p->nfield,
                p->nfield == 1 ? "" : "s", p->header_line, p->nhdr);
        return;
    }
    if (p->out->n == MEAS_MAX_ROWS) {
        fail_at(p, p->at[p->hdr[0]], "more than %d measurements", MEAS_MAX_ROWS);
        return;
    }
    struct meas_row r = {.line = p->at[p->hdr[0]].line};
    if (row_parse(p, &r) != CP_OK)
        return;
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        p->out->rows = xrealloc(p->out->rows, p->cap * sizeof *p->out->rows);
    }
    p->out->rows[p->out->n++] = r;
    if (p->id_slot)
        *id_find(p, r.id) = (int)p->out->n;
}

/* ---- libcsv callbacks ---- */

/* How many of the first n bytes of s (which has more) to keep so the cut
 * does not split a UTF-8 character: s[n] continuing a character moves the
 * cut back to that character's first byte. */
static size_t utf8_cut(const char *s, size_t n)
{
    size_t k = n;
    while (k > 0 && n - k < UTF8_MAX_CONT &&
           ((unsigned char)s[k] & UTF8_CONT_MASK) == UTF8_CONT_BITS)
        k--;
    if (((unsigned char)s[k] & UTF8_CONT_MASK) == UTF8_CONT_BITS)
        return n; /* not UTF-8 after all: cut where the room ends */
    return k;
}

static void on_field(void *data, size_t len, void *p_)
{
    struct mparse *p = p_;
    struct meas_pos at = p->need_start ? p->pos : p->start;
    p->need_start = 1;
    if (p->st != CP_OK)
        return;
    const char *s = data ? (const char *)data : "";
    if (!data)
        len = 0;
    int i = p->nfield++;
    if (!p->have_header) {
        if (i == 0)
            p->header_line = at.line;
        char name[MEAS_TEXT_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(len < MEAS_TEXT_MAX ? len : MEAS_TEXT_MAX), s);
        header_field(p, name, at);
        return;
    }
    if (i >= p->nhdr) {
        fail_at(p, at, "too many fields: the header on line %d names %d columns", p->header_line,
                p->nhdr);
        return;
    }
    int c = p->hdr[i];
    p->at[c] = at;
    p->too_long[c] = len >= MEAS_TEXT_MAX;
    size_t keep = p->too_long[c] ? utf8_cut(s, MEAS_TEXT_MAX - 1) : len;
    memcpy(p->cell[c], s, keep);
    p->cell[c][keep] = '\0';
}

static void on_record(int term, void *p_)
{
    struct mparse *p = p_;
    (void)term;
    p->at_record_start = 1;
    p->need_start = 1;
    if (p->st == CP_OK) {
        if (!p->have_header)
            header_end(p);
        else
            record_end(p);
    }
    p->nfield = 0;
    memset(p->too_long, 0, sizeof p->too_long);
    memset(p->at, 0, sizeof p->at);
    memset(p->cell, 0, sizeof p->cell);
}

/* ---- feeding ---- */

/* Feed the byte at text[i] to libcsv and advance the position.  0, or -1
 * when libcsv refused it or a callback failed (p->st set). */
static int feed(struct mparse *p, struct csv_parser *csv, const char *text, size_t i)
{
    char b = text[i];
    int eol = b == '\n' || b == '\r';
    if (p->need_start && !eol && b != ' ' && b != '\t') {
        p->start = p->pos;
        p->quoted = b == '"';
        p->need_start = 0;
    }
    if (!eol)
        p->at_record_start = 0;
    if (csv_parse(csv, &text[i], 1, on_field, on_record, p) != 1) {
        int e = csv_error(csv);
        if (e == CSV_ENOMEM)
            p->st = cp_fail(p->err, CP_ENOMEM, "%s: out of memory reading CSV", p->origin);
        else if (e == CSV_ETOOBIG)
            fail_at(p, p->start, "field too large");
        else if (p->quoted)
            fail_at(p, p->pos,
                    "unexpected '%c' after a closing quote (a quoted field ends with "
                    "a quote followed by ',' or the end of the line)",
                    b);
        else
            fail_at(p, p->pos,
                    "a double quote inside an unquoted field (quote the whole field "
                    "and double the quotes inside it)");
        return -1;
    }
    if (b == '\n' || (b == '\r' && text[i + 1] != '\n')) {
        p->pos.line++;
        p->pos.col = 1;
    } else {
        p->pos.col++;
    }
    return p->st == CP_OK ? 0 : -1;
}

/* Length of the line at s; its length with the terminator (LF, CR LF or
 * CR) in *with_end. */
static size_t line_len(const char *s, size_t *with_end)
{
    size_t n = strcspn(s, "\r\n"), e = n;
    if (s[e] == '\r')
        e++;
    if (s[e] == '\n')
        e++;
    *with_end = e;
    return n;
}

/* Nothing but spaces and tabs, or '#' as the first other byte. */
static int comment_line(const char *s, size_t n)
{
    size_t i = strspn(s, " \t");
    return i >= n || s[i] == '#';
}

/* Feed text[i..len) to libcsv, skipping comment lines between records. */
static void feed_all(struct mparse *p, struct csv_parser *csv, const char *text, size_t i,
                     size_t len)
{
    while (i < len) {
        if (p->pos.col == 1 && p->at_record_start) {
            size_t with_end, n = line_len(text + i, &with_end);
            if (comment_line(text + i, n)) {
                i += with_end;
                p->pos.line++;
                continue;
            }
        }
        if (feed(p, csv, text, i++) != 0)
            return;
    }
    if (csv_fini(csv, on_field, on_record, p) != 0 && p->st == CP_OK)
        fail_at(p, p->start,
                "quote not closed: the field that opens here runs to the end of "
                "the file");
}

cp_status meas_parse(const char *text, const char *origin, struct meas_list *out,
                     struct cp_error *err)
{
    *out = (struct meas_list){0};
    size_t len = strnlen(text, (size_t)MEAS_MAX_BYTES + 1);
    if (len > MEAS_MAX_BYTES)
        return cp_fail(err, CP_EINPUT, "%s: larger than %d bytes", origin, MEAS_MAX_BYTES);
    struct mparse p = {.origin = origin,
                       .out = out,
                       .st = CP_OK,
                       .err = err,
                       .pos = {1, 1},
                       .need_start = 1,
                       .at_record_start = 1};
    struct csv_parser csv;
    if (csv_init(&csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return cp_fail(err, CP_ENOMEM, "%s: cannot start the CSV parser", origin);
    size_t i = strncmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* a UTF-8 byte-order mark */
    feed_all(&p, &csv, text, i, len);
    csv_free(&csv);
    free(p.id_slot);
    char req[256], opt[256];
    if (p.st == CP_OK && !p.have_header)
        fail_at(&p, (struct meas_pos){1, 0},
                "no header row (expected one naming the columns %s and any of %s)",
                name_list(meas_col_name, MEAS_NREQUIRED, ", ", req, sizeof req),
                name_list(meas_col_name + MEAS_NREQUIRED, MEAS_NCOLS - MEAS_NREQUIRED, ", ", opt,
                          sizeof opt));
    else if (p.st == CP_OK && out->n == 0)
        fail_at(&p, (struct meas_pos){p.header_line, 0},
                "no measurements after the header (one row per measured point)");
    if (p.st != CP_OK)
        meas_list_free(out);
    return p.st;
}

void meas_list_free(struct meas_list *l)
{
    free(l->rows);
    *l = (struct meas_list){0};
}
