/* csvtab.c - the CSV table reader (see csvtab.h).
 *
 * libcsv does not say where a field is, so the text is fed to it one byte
 * at a time while this file keeps the line and column of each byte: a
 * field's position is that of its first byte, and an error is placed at
 * the byte libcsv refused (or, for a quote never closed, at the field that
 * opened it).  Comment and blank lines, when the table has them, are
 * skipped here, before libcsv sees them, and only between records, so a
 * quoted field may still hold a line that starts with '#'.
 *
 * Ids are checked for repeats through a small open-addressing hash table,
 * so a file of many rows costs no more than one pass. */
#include "csvtab.h"

#include <csv.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../base/xalloc.h"

/* A UTF-8 continuation byte is 10xxxxxx: its top two bits (the mask) are
 * 10 (the bits); a character has at most three of them. */
#define UTF8_CONT_MASK 0xc0
#define UTF8_CONT_BITS 0x80
#define UTF8_MAX_CONT 3

struct csvtab_id {
    char *id;
    int line;
};

const char *csvtab_name_list(const char *const *names, int n, const char *conj, char *buf,
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

/* Report fault f (kind k at at) through the owner's words. */
static void fault(struct csvtab *t, struct csvtab_fault f)
{
    if (!f.text)
        f.text = "";
    if (!f.rec_line)
        f.rec_line = t->rec.line;
    t->st = t->spec->fault(t->ctx, t, &f);
}

static char *cell_at(struct csvtab *t, int c)
{
    return t->cells + (size_t)c * t->spec->cell_max;
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
static int *id_find(const struct csvtab *t, const char *id)
{
    size_t i = id_hash(id) & (t->id_slots - 1);
    while (t->id_slot[i] && strcmp(t->ids[t->id_slot[i] - 1].id, id) != 0)
        i = (i + 1) & (t->id_slots - 1);
    return &t->id_slot[i];
}

int csvtab_id_line(const struct csvtab *t, const char *id)
{
    if (!t->id_slot)
        return 0;
    const int *slot = id_find(t, id);
    return *slot ? t->ids[*slot - 1].line : 0;
}

void csvtab_id_keep(struct csvtab *t, const char *id, int line)
{
    if (!t->id_slot) { /* a power of two above twice the most rows */
        for (t->id_slots = 16; t->id_slots <= 2 * t->spec->max_rows;)
            t->id_slots *= 2;
        t->id_slot = xmalloc(t->id_slots * sizeof *t->id_slot);
        memset(t->id_slot, 0, t->id_slots * sizeof *t->id_slot);
        t->ids = xmalloc((t->spec->max_rows + 1) * sizeof *t->ids);
    }
    if (t->nids > t->spec->max_rows)
        return;
    int *slot = id_find(t, id);
    if (*slot)
        return;
    t->ids[t->nids] = (struct csvtab_id){xstrdup(id), line};
    *slot = (int)++t->nids;
}

/* ---- the header ---- */

/* Header name i (at at) checked: text, known, once (a field past the
 * table's columns can only repeat one).  0 or -1 (t->st set). */
static int name_check(struct csvtab *t, int i, const char *name, int too_long, struct csvtab_pos at)
{
    const struct csvtab_spec *s = t->spec;
    char why[160];
    if (s->name_check && s->name_check(name, why, sizeof why) != 0)
        return fault(t, (struct csvtab_fault){CSVTAB_NAME_TEXT, .at = at, .text = name, .why = why,
                                              .rec_line = t->header_line}),
               -1;
    int c;
    for (c = 0; c < s->ncols && (too_long || strcmp(name, s->col[c]) != 0); c++)
        ;
    if (c == s->ncols)
        return fault(t, (struct csvtab_fault){CSVTAB_UNKNOWN, .at = at, .text = name,
                                              .rec_line = t->header_line}),
               -1;
    for (int j = 0; j < i && j < s->ncols; j++)
        if (t->hdr[j] == c)
            return fault(t,
                         (struct csvtab_fault){CSVTAB_TWICE, .at = at, .text = name, .col = c,
                                               .first = t->hdr_at[j], .rec_line = t->header_line}),
                   -1;
    if (i < s->ncols)
        t->hdr[i] = c;
    return 0;
}

static void header_field(struct csvtab *t, int i, const char *s, size_t len, struct csvtab_pos at)
{
    size_t max = t->spec->cell_max;
    int n = t->spec->ncols, early = t->spec->flags & CSVTAB_NAMES_EARLY;
    if (i == 0)
        t->header_line = at.line;
    char *cell = cell_at(t, i < n ? i : n); /* past the columns: the spare cell */
    int too_long = len >= max;
    snprintf(cell, max, "%.*s", (int)(len < max ? len : max - 1), s);
    if (i < n) {
        t->too_long[i] = too_long;
        t->hdr_at[i] = at;
    }
    if (early && name_check(t, i, cell, too_long, at) != 0)
        return;
    if (i >= n)
        fault(t, (struct csvtab_fault){CSVTAB_HEADER_WIDE, .at = at});
}

static void header_end(struct csvtab *t)
{
    const struct csvtab_spec *s = t->spec;
    if (!(s->flags & CSVTAB_NAMES_EARLY))
        for (int i = 0; i < t->nfield; i++)
            if (name_check(t, i, cell_at(t, i), t->too_long[i], t->hdr_at[i]) != 0)
                return;
    for (int i = 0; i < t->nfield; i++)
        t->has[t->hdr[i]] = 1;
    for (int c = 0; c < s->nrequired; c++)
        if (!t->has[c]) {
            fault(t, (struct csvtab_fault){CSVTAB_MISSING, .at = {t->header_line, 0}, .col = c,
                                           .rec_line = t->header_line});
            return;
        }
    t->nhdr = t->nfield;
    t->have_header = 1;
}

/* ---- records ---- */

static void record_end(struct csvtab *t)
{
    if (t->nfield < t->nhdr) {
        fault(t, (struct csvtab_fault){CSVTAB_SHORT, .at = t->pos, .nfield = t->nfield});
        return;
    }
    if (t->nrows == t->spec->max_rows) {
        fault(t, (struct csvtab_fault){CSVTAB_ROWS, .at = t->rec});
        return;
    }
    if ((t->st = t->spec->row(t->ctx, t)) == CP_OK)
        t->nrows++;
}

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

/* Fields are stored by position in the header, by column after it (by
 * position throughout when ordered). */
static void on_field(void *data, size_t len, void *t_)
{
    struct csvtab *t = t_;
    struct csvtab_pos at = t->need_start ? t->pos : t->start;
    t->need_start = 1;
    if (t->st != CP_OK)
        return;
    const char *s = data ? (const char *)data : "";
    if (!data)
        len = 0;
    int i = t->nfield++, ordered = t->spec->flags & CSVTAB_ORDERED;
    if (!t->have_header && !ordered) {
        header_field(t, i, s, len, at);
        return;
    }
    if (i >= (t->have_header ? t->nhdr : t->spec->ncols)) {
        if (!ordered) /* ordered: counted, and the count judged at the end */
            fault(t, (struct csvtab_fault){CSVTAB_WIDE, .at = at});
        return;
    }
    int c = ordered ? i : t->hdr[i];
    size_t max = t->spec->cell_max;
    t->at[c] = at;
    t->too_long[c] = len >= max;
    size_t keep = !t->too_long[c]                    ? len
                  : t->spec->flags & CSVTAB_UTF8_CUT ? utf8_cut(s, max - 1)
                                                     : max - 1;
    memcpy(cell_at(t, c), s, keep);
    cell_at(t, c)[keep] = '\0';
}

/* An ordered table's record ended: the header handed to its owner, or a
 * record of the header's count of fields read. */
static void ordered_end(struct csvtab *t)
{
    if (t->have_header) {
        if (t->nfield != t->nhdr)
            fault(t, (struct csvtab_fault){t->nfield < t->nhdr ? CSVTAB_SHORT : CSVTAB_WIDE,
                                           .at = t->pos, .nfield = t->nfield});
        else
            record_end(t);
        return;
    }
    t->header_line = t->rec.line;
    if ((t->st = t->spec->row(t->ctx, t)) != CP_OK)
        return;
    t->nhdr = t->nfield < t->spec->ncols ? t->nfield : t->spec->ncols;
    for (int i = 0; i < t->nhdr; i++)
        t->hdr[i] = i, t->has[i] = 1;
    t->have_header = 1;
}

static void on_record(int term, void *t_)
{
    struct csvtab *t = t_;
    (void)term;
    t->at_record_start = 1;
    t->need_start = 1;
    t->rec_set = 0;
    t->nrec++;
    if (t->st == CP_OK) {
        if (t->spec->flags & CSVTAB_ORDERED)
            ordered_end(t);
        else if (!t->have_header)
            header_end(t);
        else
            record_end(t);
    }
    int n = t->spec->ncols;
    t->nfield = 0;
    memset(t->too_long, 0, (size_t)n * sizeof *t->too_long);
    memset(t->at, 0, (size_t)n * sizeof *t->at);
    memset(t->cells, 0, (size_t)n * t->spec->cell_max);
}

/* ---- feeding ---- */

/* Feed the byte at text[i] to libcsv and advance the position.  0, or -1
 * when libcsv refused it or a callback failed (t->st set). */
static int feed(struct csvtab *t, struct csv_parser *csv, const char *text, size_t i)
{
    char b = text[i];
    int eol = b == '\n' || b == '\r';
    if (t->need_start && !eol && b != ' ' && b != '\t') {
        if (!t->rec_set) /* the record's first field */
            t->rec = t->pos, t->rec_set = 1;
        t->start = t->pos;
        t->quoted = b == '"';
        t->need_start = 0;
    }
    if (!eol)
        t->at_record_start = 0;
    if (csv_parse(csv, &text[i], 1, on_field, on_record, t) != 1) {
        if (t->st == CP_OK)
            fault(t, (struct csvtab_fault){CSVTAB_CSV, .at = t->pos, .start = t->start, .byte = b,
                                           .quoted = t->quoted, .csv_error = csv_error(csv)});
        return -1;
    }
    if (b == '\n' || (b == '\r' && text[i + 1] != '\n' && t->spec->flags & CSVTAB_CR_LINES)) {
        t->pos.line++;
        t->pos.col = 1;
    } else {
        t->pos.col++;
    }
    return t->st == CP_OK ? 0 : -1;
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
static void feed_all(struct csvtab *t, struct csv_parser *csv, const char *text, size_t i,
                     size_t len)
{
    while (i < len) {
        if (t->spec->flags & CSVTAB_COMMENTS && t->pos.col == 1 && t->at_record_start) {
            size_t with_end, n = line_len(text + i, &with_end);
            if (comment_line(text + i, n)) {
                i += with_end;
                t->pos.line++;
                continue;
            }
        }
        if (feed(t, csv, text, i++) != 0)
            return;
    }
    if (csv_fini(csv, on_field, on_record, t) != 0 && t->st == CP_OK)
        fault(t, (struct csvtab_fault){CSVTAB_UNCLOSED, .at = t->start, .start = t->start});
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = xmalloc(n * size);
    memset(p, 0, n * size);
    return p;
}

static void tab_free(struct csvtab *t)
{
    for (size_t i = 0; i < t->nids; i++)
        free(t->ids[i].id);
    free(t->ids);
    free(t->id_slot);
    free(t->hdr);
    free(t->has);
    free(t->hdr_at);
    free(t->at);
    free(t->too_long);
    free(t->cells);
}

cp_status csvtab_read(const struct csvtab_spec *spec, const char *text, const char *origin,
                      void *ctx, struct cp_error *err)
{
    size_t len = strnlen(text, spec->max_bytes + 1);
    if (len > spec->max_bytes)
        return cp_fail(err, CP_EINPUT, "%s: larger than %zu bytes", origin, spec->max_bytes);
    size_t n = (size_t)spec->ncols;
    struct csvtab t = {.spec = spec,
                       .origin = origin,
                       .err = err,
                       .ctx = ctx,
                       .st = CP_OK,
                       .pos = {1, 1},
                       .need_start = 1,
                       .at_record_start = 1};
    t.hdr = xcalloc(n, sizeof *t.hdr);
    t.has = xcalloc(n, sizeof *t.has);
    t.hdr_at = xcalloc(n, sizeof *t.hdr_at);
    t.at = xcalloc(n, sizeof *t.at);
    t.too_long = xcalloc(n, sizeof *t.too_long);
    t.cells = xcalloc(n + 1, spec->cell_max); /* and a spare, for a header too wide */
    struct csv_parser csv;
    if (csv_init(&csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        tab_free(&t);
        return cp_fail(err, CP_ENOMEM, "%s: cannot start the CSV parser", origin);
    }
    size_t i = strncmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* a UTF-8 byte-order mark */
    feed_all(&t, &csv, text, i, len);
    csv_free(&csv);
    if (t.st == CP_OK && !t.have_header)
        fault(&t, (struct csvtab_fault){CSVTAB_NO_HEADER, .at = {1, 0}, .rec_line = 1});
    else if (t.st == CP_OK && t.nrows == 0)
        fault(&t, (struct csvtab_fault){CSVTAB_NO_ROWS, .at = {t.header_line, 0},
                                        .rec_line = t.header_line});
    tab_free(&t);
    return t.st;
}
