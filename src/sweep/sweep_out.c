/* sweep_out.c - a sweep's CSV lines, its text table for people and its
 * progress line (see sweep_out.h). */
#include "sweep_out.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../base/units.h"
#include "../face/est.h"
#include "../cli/out.h"

/* Bytes a cell may take on the fast path: a number's whole cell buffer,
 * or text copied while it is scanned, and its comma. */
#define CSV_FAST 16
#define CSV_CELL_ROOM (CSV_FAST > EST_CELL_BYTES ? CSV_FAST + 1 : EST_CELL_BYTES + 1)

/* Bytes that end text a CSV cell holds as it is: NUL, and those that need
 * quotes. */
static const unsigned char csv_stop[256] = {[0] = 1, [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1};
/* First bytes of text a spreadsheet may take for a formula (out_csv_guard
 * decides). */
static const unsigned char csv_lead[256] = {['='] = 1, ['+'] = 1, ['-'] = 1, ['@'] = 1,
                                            ['\t'] = 1, ['\r'] = 1};

/* Text that needs quotes or a leading quote (out_csv_guard), or longer
 * than CSV_FAST, at p (room reserved for the rest of the row after it);
 * returns the end of what it wrote, its comma included. */
static char *csv_slow(struct sweep_buf *b, char *p, const char *s, size_t rest)
{
    size_t len = strcspn(s, ",\"\r\n");
    int special = s[len] != '\0', guard = out_csv_guard(s);
    if (special)
        len += strlen(s + len);
    b->n = (size_t)(p - b->p);
    sweep_buf_room(b, 2 * len + 4 + rest * CSV_CELL_ROOM + 2);
    p = b->p + b->n;
    if (!special) {
        if (guard)
            *p++ = '\'';
        memcpy(p, s, len);
        p += len;
    } else {
        *p++ = '"';
        if (guard)
            *p++ = '\'';
        for (; *s; s++) {
            if (*s == '"')
                *p++ = '"';
            *p++ = *s;
        }
        *p++ = '"';
    }
    *p++ = ',';
    return p;
}

/* Make room for len more bytes at p, and rest * CSV_CELL_ROOM + 2 after
 * them; returns where p now is. */
static char *csv_room(struct sweep_buf *b, char *p, size_t len, size_t rest)
{
    b->n = (size_t)(p - b->p);
    sweep_buf_room(b, len + rest * CSV_CELL_ROOM + 2);
    return b->p + b->n;
}

void sweep_buf_csv(struct sweep_buf *b, const char *const *cells, const unsigned char *plain,
                   const unsigned char *plain_len, size_t nplain, const size_t *sel, size_t nsel)
{
    /* Room for every cell on its fast path: no check per cell.  Each cell
     * is followed by a comma; the last comma becomes the CRLF. */
    sweep_buf_room(b, nsel * CSV_CELL_ROOM + 2);
    char *p = b->p + b->n;
    for (size_t i = 0; i < nsel; i++) {
        size_t c = sel[i];
        const char *s = cells[c];
        if (c < nplain && plain[c] == EST_PLAIN_NUM) {
            /* a number's text lives in a cell buffer of EST_CELL_BYTES:
             * copy the whole buffer (a fixed size the compiler inlines)
             * and keep its length */
            memcpy(p, s, EST_CELL_BYTES);
            p += plain_len[c];
            *p++ = ',';
            continue;
        }
        if (c < nplain && plain[c] == EST_PLAIN_TEXT) { /* text as it is, its length known */
            size_t len = plain_len[c];
            if (len >= CSV_CELL_ROOM)
                p = csv_room(b, p, len + 1, nsel - 1 - i);
            memcpy(p, s, len);
            p += len;
            *p++ = ',';
            continue;
        }
        char *q = p, *lim = p + CSV_FAST;
        while (q < lim && !csv_stop[(unsigned char)*s])
            *q++ = *s++;
        if (*s == '\0' && !csv_lead[(unsigned char)*cells[c]]) {
            p = q;
            *p++ = ',';
        } else {
            p = csv_slow(b, p, cells[c], nsel - 1 - i);
        }
    }
    if (nsel)
        p--;
    memcpy(p, "\r\n", 2);
    b->n = (size_t)(p + 2 - b->p);
}

/* ---- the table ---- */

/* The unit a column is shown in, by the end of its name (the first match
 * wins), and the end of the name the header drops for it; "" for a number
 * in a unit of its own (tokens/s, the --price currency), shown as is. */
static const struct {
    const char *suffix, *strip, *unit;
} rules[] = {
    {"time_to_train_s", "_s", "d"},
    {"exposed_latency_s", "_s", "ms"},
    {"overhead_s", "_s", "ms"},
    {"fill_s", "_s", "ms"},
    {"drain_s", "_s", "ms"},
    {"boundary_s", "_s", "ms"},
    {"hidden_s", "_s", "ms"},
    {"_per_s", "", ""},
    {"cost", "", ""},
    {"_s", "_s", "s"},
    {"offload_bytes", "_bytes", "GB"},
    {"_bytes", "_bytes", "TB"},
    {"_B", "_B", "GB"}, /* memory per GPU */
    {"_W", "_W", "MW"},
    {"_J", "_J", "MWh"},
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

void sweep_disp_init(struct sweep_disp *d, const char *name, int text)
{
    memset(d, 0, sizeof *d);
    snprintf(d->head, sizeof d->head, "%s", name);
    d->right = !text;
    for (size_t i = 0; !text && i < sizeof rules / sizeof rules[0]; i++) {
        if (!ends_with(name, rules[i].suffix))
            continue;
        unit_dim dim;
        if (!*rules[i].unit) /* a number of its own unit: no prefix */
            d->factor = 1;
        if (!*rules[i].unit || unit_classify(rules[i].unit, &dim, &d->factor) != 0)
            return;
        snprintf(d->head, sizeof d->head, "%.*s[%s]", (int)(strlen(name) - strlen(rules[i].strip)),
                 name, rules[i].unit);
        return;
    }
}

const char *sweep_disp_num(const struct sweep_disp *d, double v, char *buf, size_t n)
{
    if (d->factor == 0)
        return unit_format(v, UNIT_COUNT, buf, n);
    double x = v / d->factor;
    if (fabs(x) >= 1000 && fabs(x) < 1e9)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%.4g", x);
    return buf;
}

void sweep_buf_table(struct sweep_buf *b, const char *const *cells, const unsigned char *num,
                     const double *value, size_t nnum, const size_t *sel,
                     const struct sweep_disp *disp, size_t nsel)
{
    for (size_t i = 0; i < nsel; i++) {
        size_t c = sel[i];
        char text[64];
        const char *s = cells[c];
        if (c < nnum && num[c])
            s = sweep_disp_num(&disp[i], value[c], text, sizeof text);
        size_t len = strlen(s);
        sweep_buf_room(b, len + 1);
        if (i)
            b->p[b->n++] = SWEEP_TABLE_SEP;
        for (size_t k = 0; k < len; k++)
            b->p[b->n++] = (unsigned char)s[k] < ' ' ? ' ' : s[k];
    }
    sweep_buf_put(b, "\n", 1);
}

void sweep_table_init(struct sweep_table *t, FILE *f, const struct sweep_disp *disp, size_t ncols)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    t->disp = disp;
    t->ncols = ncols;
    t->width = xmalloc((ncols ? ncols : 1) * sizeof *t->width);
    for (size_t c = 0; c < ncols; c++)
        t->width[c] = strlen(disp[c].head);
}

/* Lay out one row of cells (len bytes, no '\n') padded to the widths, two
 * blanks apart, and write it.  The last column, when text, is not padded. */
static void write_row(struct sweep_table *t, const char *cells, size_t len)
{
    struct sweep_buf *l = &t->line;
    l->n = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        const char *end = memchr(cells, SWEEP_TABLE_SEP, len);
        size_t n = end ? (size_t)(end - cells) : len;
        size_t pad = t->width[c] > n ? t->width[c] - n : 0;
        if (!t->disp[c].right && c + 1 == t->ncols)
            pad = 0;
        sweep_buf_room(l, n + pad + 3);
        if (c)
            sweep_buf_put(l, "  ", 2);
        memset(l->p + l->n, ' ', n + pad);
        memcpy(l->p + l->n + (t->disp[c].right ? pad : 0), cells, n);
        l->n += n + pad;
        cells += end ? n + 1 : n;
        len -= end ? n + 1 : n;
    }
    while (l->n && l->p[l->n - 1] == ' ')
        l->n--;
    sweep_buf_put(l, "\n", 1);
    if (t->on_write)
        t->on_write(t->arg);
    fwrite(l->p, 1, l->n, t->f);
}

/* Each column as wide as its widest held cell, then the header and the
 * held rows. */
static void open_table(struct sweep_table *t)
{
    const char *h = t->held.p;
    for (size_t i = 0; i < t->held.n;) {
        size_t end = i + strcspn(h + i, "\n");
        for (size_t c = 0; c < t->ncols && i <= end; c++) {
            size_t n = strcspn(h + i, "\x1f\n");
            if (n > t->width[c])
                t->width[c] = n;
            i += n + 1;
        }
        i = end + 1;
    }
    struct sweep_buf head = {0};
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            sweep_buf_put(&head, (char[]){SWEEP_TABLE_SEP}, 1);
        sweep_buf_put(&head, t->disp[c].head, strlen(t->disp[c].head));
    }
    write_row(t, head.p ? head.p : "", head.n);
    free(head.p);
    for (size_t i = 0; i < t->held.n;) {
        size_t n = strcspn(h + i, "\n");
        write_row(t, h + i, n);
        i += n + 1;
    }
    t->held.n = 0;
    t->open = 1;
}

void sweep_table_add(struct sweep_table *t, const char *lines, size_t len)
{
    if (t->open) {
        for (size_t i = 0; i < len;) {
            const char *nl = memchr(lines + i, '\n', len - i);
            size_t n = nl ? (size_t)(nl - (lines + i)) : len - i;
            write_row(t, lines + i, n);
            i += n + 1;
        }
        return;
    }
    sweep_buf_put(&t->held, lines, len);
    for (size_t i = 0; i < len; i++)
        t->rows += lines[i] == '\n';
    if (t->rows >= SWEEP_TABLE_HOLD)
        open_table(t);
}

void sweep_table_end(struct sweep_table *t)
{
    if (!t->open)
        open_table(t);
    free(t->width);
    free(t->held.p);
    free(t->line.p);
    memset(t, 0, sizeof *t);
}

/* ---- progress ---- */

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

void sweep_progress_start(struct sweep_progress *pg, size_t total)
{
    memset(pg, 0, sizeof *pg);
    pg->on = isatty(STDERR_FILENO);
    pg->out_tty = isatty(STDOUT_FILENO);
    pg->total = total;
    clock_gettime(CLOCK_MONOTONIC, &pg->t0);
    pg->last = pg->t0;
}

void sweep_progress_show(struct sweep_progress *pg)
{
    if (!pg->on)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (pg->shown && since(&pg->last, &now) < 0.25)
        return;
    if (!pg->shown && since(&pg->t0, &now) < 0.25)
        return;
    pg->last = now;
    pg->shown = 1;
    double dt = since(&pg->t0, &now), rate = dt > 0 ? (double)pg->done / dt : 0;
    fprintf(stderr, "\r\033[Ksweep: %zu/%zu points, %.3g points/s, %.0f s left", pg->done,
            pg->total, rate, rate > 0 ? (double)(pg->total - pg->done) / rate : 0.0);
}

void sweep_progress_before_out(void *arg)
{
    struct sweep_progress *pg = arg;
    if (pg->out_tty)
        sweep_progress_end(pg);
}

void sweep_progress_end(struct sweep_progress *pg)
{
    if (pg->shown) {
        fflush(stdout);
        fputs("\r\033[K", stderr);
        pg->shown = 0;
    }
}
