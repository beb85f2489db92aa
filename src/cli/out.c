/* out.c - aligned text and RFC 4180 CSV sinks (see out.h). */
#include "out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/desc.h"

void out_init(struct out_table *t, size_t ncols, const char *const *header)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->header = header;
}

void out_row(struct out_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 32;
        t->cells = xrealloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
    }
    for (size_t c = 0; c < t->ncols; c++)
        t->cells[t->nrows * t->ncols + c] = xstrdup(cells[c] ? cells[c] : "");
    t->nrows++;
}

void out_free(struct out_table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void out_widen(struct out_table *t, size_t ncols, const char *const *header)
{
    size_t old = t->ncols;
    char **cells = xmalloc((t->cap ? t->cap : 1) * ncols * sizeof *cells);
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < ncols; c++)
            cells[r * ncols + c] = c < old ? t->cells[r * old + c] : xstrdup("");
    free(t->cells);
    t->cells = cells;
    t->ncols = ncols;
    t->header = header;
}

void out_set(struct out_table *t, size_t r, size_t c, const char *text)
{
    free(t->cells[r * t->ncols + c]);
    t->cells[r * t->ncols + c] = xstrdup(text);
}

static const char *cell(const struct out_table *t, size_t r, size_t c)
{
    return t->cells[r * t->ncols + c];
}

static int text_write(FILE *f, const struct out_table *t)
{
    size_t *w = xmalloc((t->ncols ? t->ncols : 1) * sizeof *w);
    for (size_t c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->header[c]);
        for (size_t r = 0; r < t->nrows; r++)
            if (strlen(cell(t, r, c)) > w[c])
                w[c] = strlen(cell(t, r, c));
    }
    for (size_t r = 0; r <= t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = r == 0 ? t->header[c] : cell(t, r - 1, c);
            if (c + 1 == t->ncols)
                fprintf(f, "%s\n", s);
            else
                fprintf(f, "%-*s  ", (int)w[c], s);
        }
    }
    free(w);
    return ferror(f) ? -1 : 0;
}

/* s is a decimal number: [+-]digits[.digits][(e|E)[+-]digits], at least
 * one digit before the exponent. */
static int is_number(const char *s)
{
    size_t digits = 0;
    s += *s == '+' || *s == '-';
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (digits == 0)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s += s[1] == '+' || s[1] == '-' ? 2 : 1;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

int out_csv_guard(const char *s)
{
    if (*s == '\0' || strchr("=+-@\t\r", *s) == NULL)
        return 0;
    return strcmp(s, "-") != 0 && !is_number(s);
}

static int csv_field(FILE *f, const char *s)
{
    int guard = out_csv_guard(s);
    if (strpbrk(s, ",\"\r\n") == NULL) {
        if (guard)
            fputc('\'', f);
        return fputs(s, f) < 0 ? -1 : 0;
    }
    fputc('"', f);
    if (guard)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    return fputc('"', f) == EOF ? -1 : 0;
}

static int csv_write(FILE *f, const struct out_table *t)
{
    for (size_t r = 0; r <= t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            csv_field(f, r == 0 ? t->header[c] : cell(t, r - 1, c));
        }
        fputs("\r\n", f);
    }
    return ferror(f) ? -1 : 0;
}

const char *out_num(int csv, double v, unit_dim d, char *buf, size_t n)
{
    return csv ? unit_format_exact(v, buf, n) : unit_format(v, d, buf, n);
}

const char *out_duration(double s, char *buf, size_t n)
{
    return unit_format_duration(s, buf, n);
}

const char *out_energy(double joules, char *buf, size_t n)
{
    return unit_format_energy(joules, buf, n);
}

const struct out_sink out_text = {"text", text_write};
const struct out_sink out_csv = {"csv", csv_write};

void out_desc_comment(FILE *f, const char *text)
{
    const size_t room = DESC_LINE_MAX - 2;
    for (size_t len = strlen(text); len > 0;) {
        size_t n = len;
        if (n > room) {
            for (n = room; n > 0 && text[n] != ' ';)
                n--;
            for (n = n ? n : room; n > 1 && ((unsigned char)text[n] & 0xC0) == 0x80;)
                n--;
        }
        fputs("# ", f);
        for (size_t i = 0; i < n; i++)
            fputc((unsigned char)text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i], f);
        fputc('\n', f);
        for (text += n, len -= n; *text == ' '; text++, len--)
            ;
    }
}
