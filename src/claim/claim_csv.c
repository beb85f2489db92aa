/* claim_csv.c - read a claims file (claim.h): RFC 4180 CSV through
 * libcsv, strict, a header row and then one claim per row.  A bad cell is
 * named origin:line: column; malformed CSV also gets the byte column
 * where libcsv stopped. */
#include "claim.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/desc.h"

enum col {
    C_ID,
    C_CLAIM,
    C_SOURCE,
    C_KIND,
    C_MODEL,
    C_SYSTEM,
    C_SYSTEMS,
    C_MEMORYX,
    C_SPARSITY,
    C_TARGET,
    C_CONDITION,
    C_NBASE, /* the columns every claims file has; then the GPU columns */
    C_GPU = C_NBASE,
    C_GPUS,
    C_PRECISION,
    C_FIGURE,
    C_DEADLINE,
    C_NCOLS
};
static const char *const col_name[C_NCOLS] = {
    "id",       "claim",  "source",    "kind", "model", "system",    "systems", "memoryx",
    "sparsity", "target", "condition", "gpu",  "gpus",  "precision", "figure",  "deadline"};

/* Dimension of the target column per kind. */
static const unit_dim target_dim[CLAIM_NKINDS] = {UNIT_TIME,  UNIT_FRACTION, UNIT_COUNT,
                                                  UNIT_COUNT, UNIT_TIME,     UNIT_COUNT,
                                                  UNIT_TIME,  UNIT_COUNT,    UNIT_FRACTION};

#define GPU_KINDS "ratio, gpu_time, gpu_count, power"
#define GPU_COLS "gpu,gpus,precision,figure,deadline"

struct parse {
    const char *origin;
    struct claim_list *out;
    size_t cap;
    int line, col, ncols; /* ncols: C_NBASE or C_NCOLS, as the header says */
    char cell[C_NCOLS][CLAIM_TEXT_MAX];
    int truncated;
    cp_status st;
    struct cp_error *err;
};

static void on_field(void *data, size_t len, void *p_)
{
    struct parse *p = p_;
    if (p->col < C_NCOLS) {
        if (len >= CLAIM_TEXT_MAX)
            p->truncated = p->col + 1;
        snprintf(p->cell[p->col], CLAIM_TEXT_MAX, "%.*s", (int)len, (const char *)data);
    }
    p->col++;
}

static cp_status row_fail(struct parse *p, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cp_status row_fail(struct parse *p, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cp_fail(p->err, CP_EINPUT, "%s:%d: %s: %s", p->origin, p->line, col_name[col], msg);
}

static cp_status word(struct parse *p, int col, char *dst)
{
    if (strlen(p->cell[col]) >= CLAIM_WORD_MAX || p->cell[col][0] == '\0')
        return row_fail(p, col, "'%s' is empty or longer than %d bytes", p->cell[col],
                        CLAIM_WORD_MAX - 1);
    snprintf(dst, CLAIM_WORD_MAX, "%s", p->cell[col]);
    return CP_OK;
}

static cp_status number(struct parse *p, int col, unit_dim d, double *v)
{
    char why[256];
    if (unit_parse(p->cell[col], d, v, why, sizeof why) != 0)
        return row_fail(p, col, "'%s': %s", p->cell[col], why);
    return CP_OK;
}

static cp_status header(struct parse *p)
{
    for (int c = 0; c < p->ncols; c++)
        if (strcmp(p->cell[c], col_name[c]) != 0)
            return row_fail(p, c, "header cell is '%s', expected '%s'", p->cell[c], col_name[c]);
    return CP_OK;
}

/* The figures each GPU kind takes (1 << figure); CLAIM_FIG_NONE alone
 * means the column stays empty. */
static unsigned kind_figures(enum claim_kind k)
{
    if (k == CLAIM_RATIO) /* cores .. memoryx */
        return ((1u << (CLAIM_FIG_MEMORYX + 1)) - 1) & ~1u;
    if (k == CLAIM_POWER)
        return 1u << CLAIM_FIG_CHIPS | 1u << CLAIM_FIG_NODES;
    return 1u << CLAIM_FIG_NONE;
}

/* The GPU columns of a row of a weight-streaming kind: empty. */
static cp_status no_gpu_cols(struct parse *p)
{
    for (int col = C_NBASE; col < p->ncols; col++)
        if (p->cell[col][0] != '\0')
            return row_fail(p, col, "'%s': only the GPU kinds (" GPU_KINDS ") take it",
                            p->cell[col]);
    return CP_OK;
}

/* gpus: empty or "auto" (0), or a whole number of GPUs. */
static cp_status gpus_col(struct parse *p, struct claim *c)
{
    const char *v = p->cell[C_GPUS];
    if (v[0] == '\0' || strcmp(v, "auto") == 0)
        return CP_OK;
    cp_status st = number(p, C_GPUS, UNIT_COUNT, &c->gpus);
    if (st == CP_OK && !(c->gpus >= 1 && c->gpus <= CLAIM_MAX_GPUS && c->gpus == floor(c->gpus)))
        return row_fail(p, C_GPUS, "'%s' is not a whole number of GPUs from 1 to %.0f (or auto)", v,
                        CLAIM_MAX_GPUS);
    return st;
}

/* precision and figure: a word of their lists, or empty. */
static cp_status choice_cols(struct parse *p, struct claim *c)
{
    const char *v = p->cell[C_PRECISION];
    int i = 0;
    while (v[0] && i < GPUHW_NPRECS && strcmp(v, gpuhw_prec_name[i]) != 0)
        i++;
    if (i == GPUHW_NPRECS)
        return row_fail(p, C_PRECISION, "'%s' is not a precision (bf16, fp8, fp4, or empty: bf16)",
                        v);
    c->precision = (enum gpuhw_prec)i;
    unsigned ok = kind_figures(c->kind);
    char list[160] = "";
    for (i = 0; i < CLAIM_NFIGURES; i++)
        if (ok >> i & 1)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                     i ? claim_figure_name[i] : "empty");
    v = p->cell[C_FIGURE];
    for (i = 0; i < CLAIM_NFIGURES && strcmp(v, claim_figure_name[i]) != 0; i++)
        ;
    if (i == CLAIM_NFIGURES || !(ok >> i & 1))
        return row_fail(p, C_FIGURE, "'%s' is not a figure of a %s claim (%s)", v,
                        claim_types[c->kind].name, list);
    c->figure = (enum claim_figure)i;
    return CP_OK;
}

/* What each GPU kind needs of model, gpus and deadline. */
static cp_status kind_rules(struct parse *p, struct claim *c)
{
    int ratio = c->kind == CLAIM_RATIO;
    if (c->sparsity > 0)
        return row_fail(p, C_SPARSITY, "'%s': the GPU claims are dense (0)", p->cell[C_SPARSITY]);
    if (ratio != (strcmp(c->model, "-") == 0))
        return row_fail(p, C_MODEL,
                        ratio ? "'%s': a ratio claim compares chips, its model is -"
                              : "'%s': only a ratio claim goes without a model",
                        c->model);
    if ((ratio || c->kind == CLAIM_GPU_COUNT) && c->gpus > 0)
        return row_fail(p, C_GPUS, "'%s': a %s claim finds its GPUs, leave it empty",
                        p->cell[C_GPUS], claim_types[c->kind].name);
    if (c->kind == CLAIM_GPU_TIME && !(c->gpus > 0))
        return row_fail(p, C_GPUS, "'%s': a gpu_time claim runs on a given number of GPUs",
                        p->cell[C_GPUS]);
    if ((c->kind == CLAIM_GPU_COUNT) != (c->deadline > 0) && c->kind != CLAIM_POWER)
        return row_fail(p, C_DEADLINE,
                        c->kind == CLAIM_GPU_COUNT
                            ? "'%s': a gpu_count claim needs the time to train within"
                            : "'%s': only gpu_count and power claims take a deadline",
                        p->cell[C_DEADLINE]);
    if (c->kind == CLAIM_POWER && c->deadline > 0 && c->gpus > 0)
        return row_fail(p, C_DEADLINE,
                        "'%s': a power claim at a deadline finds its GPUs (leave gpus empty)",
                        p->cell[C_DEADLINE]);
    return CP_OK;
}

/* The GPU columns of a row of kind c->kind. */
static cp_status gpu_cols(struct parse *p, struct claim *c)
{
    if (!claim_kind_is_gpu(c->kind))
        return no_gpu_cols(p);
    if (p->ncols < C_NCOLS)
        return row_fail(p, C_KIND,
                        "'%s' compares with GPUs: the file needs the columns " GPU_COLS
                        " after condition",
                        claim_types[c->kind].name);
    cp_status st;
    if ((st = word(p, C_GPU, c->gpu)) || (st = gpus_col(p, c)) || (st = choice_cols(p, c)))
        return st;
    if (p->cell[C_DEADLINE][0] && (st = number(p, C_DEADLINE, UNIT_TIME, &c->deadline)))
        return st;
    if (p->cell[C_DEADLINE][0] && !(c->deadline > 0))
        return row_fail(p, C_DEADLINE, "'%s' must be positive", p->cell[C_DEADLINE]);
    return kind_rules(p, c);
}

static cp_status record(struct parse *p)
{
    if (p->line == 1)
        p->ncols = p->col == C_NCOLS ? C_NCOLS : C_NBASE;
    if (p->col != p->ncols) {
        char n[32];
        snprintf(n, sizeof n, "%d", p->col);
        return cp_fail(p->err, CP_EINPUT, "%s:%d: %s fields, expected %d%s", p->origin, p->line, n,
                       p->ncols, p->line == 1 ? " (or 16 with the GPU columns " GPU_COLS ")" : "");
    }
    if (p->truncated)
        return row_fail(p, p->truncated - 1, "longer than %d bytes", CLAIM_TEXT_MAX - 1);
    char why[160];
    for (int col = 0; col < p->ncols; col++) /* every cell may be printed */
        if (desc_text_check(p->cell[col], why, sizeof why) != 0)
            return row_fail(p, col, "%s", why);
    if (p->line == 1)
        return header(p);
    struct claim c = {.line = p->line};
    cp_status st;
    int k;
    for (k = 0; k < CLAIM_NKINDS; k++)
        if (strcmp(p->cell[C_KIND], claim_types[k].name) == 0)
            break;
    if (k == CLAIM_NKINDS)
        return row_fail(p, C_KIND,
                        "'%s' is not a kind (capacity, weak_scaling, speedup, sparsity_speedup, "
                        "time_to_train, " GPU_KINDS ")",
                        p->cell[C_KIND]);
    c.kind = (enum claim_kind)k;
    if ((st = word(p, C_ID, c.id)) || (st = word(p, C_SOURCE, c.source)) ||
        (st = word(p, C_MODEL, c.model)) || (st = word(p, C_SYSTEM, c.system)) ||
        (st = word(p, C_MEMORYX, c.memoryx)) ||
        (st = number(p, C_SYSTEMS, UNIT_COUNT, &c.systems)) ||
        (st = number(p, C_SPARSITY, UNIT_FRACTION, &c.sparsity)) ||
        (st = number(p, C_TARGET, target_dim[c.kind], &c.target)))
        return st;
    if (c.systems > CLUSTER_MAX_SYSTEMS)
        return row_fail(p, C_SYSTEMS, "'%s' is more than %g systems, the largest cluster modelled",
                        p->cell[C_SYSTEMS], CLUSTER_MAX_SYSTEMS);
    if (!(c.systems >= 1) || c.systems != floor(c.systems))
        return row_fail(p, C_SYSTEMS, "'%s' is not a whole number of systems from 1 to %g",
                        p->cell[C_SYSTEMS], CLUSTER_MAX_SYSTEMS);
    if (!(c.sparsity >= 0 && c.sparsity <= CLUSTER_MAX_SPARSITY))
        return row_fail(p, C_SPARSITY, "'%s' is outside 0..%g", p->cell[C_SPARSITY],
                        CLUSTER_MAX_SPARSITY);
    if (!(c.target > 0))
        return row_fail(p, C_TARGET, "'%s' must be positive", p->cell[C_TARGET]);
    if ((st = gpu_cols(p, &c)))
        return st;
    snprintf(c.text, sizeof c.text, "%s", p->cell[C_CLAIM]);
    snprintf(c.condition, sizeof c.condition, "%s", p->cell[C_CONDITION]);
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 8;
        p->out->items = xrealloc(p->out->items, p->cap * sizeof *p->out->items);
    }
    p->out->items[p->out->n++] = c;
    return CP_OK;
}

static void on_record(int term, void *p_)
{
    struct parse *p = p_;
    (void)term;
    p->line++;
    if (p->st == CP_OK)
        p->st = record(p);
    p->col = 0;
    p->truncated = 0;
    memset(p->cell, 0, sizeof p->cell);
}

/* Where libcsv stopped: the line and column (in bytes, from 1) of byte
 * text[at], the claims column its field is in, and whether that field
 * opened with a quote. */
struct csv_where {
    int line, col, field, quoted;
    size_t open; /* offset of the quote that opened the last quoted field */
};

static struct csv_where csv_locate(const char *text, size_t at)
{
    struct csv_where w = {.line = 1, .col = 1};
    int in = 0, start = 1;
    for (size_t i = 0; i < at; i++) {
        char b = text[i];
        int eol = b == '\n' || (b == '\r' && text[i + 1] != '\n');
        w.line += eol;
        w.col = eol ? 1 : w.col + 1;
        if (in) {
            if (b == '"' && i + 1 < at && text[i + 1] == '"')
                i++, w.col++; /* "" inside a quoted field */
            else if (b == '"')
                in = 0;
        } else if (b == ',' || b == '\n' || b == '\r') {
            w.field = b == ',' ? w.field + 1 : 0;
            w.quoted = 0;
            start = 1;
        } else {
            if (start && b == '"')
                in = w.quoted = 1, w.open = i;
            start = 0;
        }
    }
    return w;
}

/* The message for a CSV libcsv refused: at byte text[at] (a quote in an
 * unquoted field, a byte after a closing quote), or, when at is len, a
 * quoted field never closed, placed at its opening quote. */
static cp_status csv_fail(struct parse *p, const char *text, size_t at, size_t len, int e)
{
    struct csv_where w = csv_locate(text, at);
    if (at == len) /* a quote never closed: point at it */
        w = csv_locate(text, w.open);
    const char *name = w.field < C_NCOLS ? col_name[w.field] : "a field past the last column";
    if (e == CSV_ENOMEM)
        return cp_fail(p->err, CP_ENOMEM, "%s: out of memory reading CSV", p->origin);
    if (e == CSV_ETOOBIG)
        return cp_fail(p->err, CP_EINPUT, "%s:%d:%d: %s: field too large", p->origin, w.line, w.col,
                       name);
    if (at == len)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: the quote that opens this field is never "
                       "closed",
                       p->origin, w.line, w.col, name);
    if (w.quoted)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: unexpected '%c' after a closing quote (a "
                       "quoted field ends with a quote followed by ',' or the end of the line)",
                       p->origin, w.line, w.col, name, text[at]);
    return cp_fail(p->err, CP_EINPUT,
                   "%s:%d:%d: %s: malformed CSV: a double quote inside an unquoted field (quote "
                   "the whole field and double the quotes inside it)",
                   p->origin, w.line, w.col, name);
}

cp_status claim_parse(const char *text, size_t len, const char *origin, struct claim_list *out,
                      struct cp_error *err)
{
    struct csv_parser csv;
    struct parse p = {.origin = origin, .out = out, .st = CP_OK, .err = err};
    *out = (struct claim_list){0};
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) { /* a UTF-8 byte-order mark */
        text += 3;
        len -= 3;
    }
    if (csv_init(&csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return cp_fail(err, CP_ENOMEM, "%s: cannot start the CSV parser", origin);
    size_t done = csv_parse(&csv, text, len, on_field, on_record, &p);
    if (done != len && p.st == CP_OK)
        p.st = csv_fail(&p, text, done, len, csv_error(&csv));
    else if (done == len && csv_fini(&csv, on_field, on_record, &p) != 0 && p.st == CP_OK)
        p.st = csv_fail(&p, text, len, len, csv_error(&csv));
    csv_free(&csv);
    if (p.st == CP_OK && out->n == 0)
        p.st =
            cp_fail(err, CP_EINPUT, "%s: no claims (a header row and one row per claim)", origin);
    if (p.st != CP_OK)
        claim_list_free(out);
    return p.st;
}

void claim_list_free(struct claim_list *l)
{
    free(l->items);
    *l = (struct claim_list){0};
}
