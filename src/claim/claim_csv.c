/* claim_csv.c - read a claims file (claim.h) through the one CSV reader
 * (src/desc/csvtab.h), its columns in a fixed order: a header row of the
 * 11 columns every claims file has, or of those and the 5 GPU columns,
 * then one claim per row.  A bad cell is named origin:N: column, N the
 * row's number (the header is 1); malformed CSV is named by the line and
 * byte column where the reader stopped. */
#include "claim.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/csvtab.h"
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
    int line, ncols; /* line: the row's number; ncols: C_NBASE or C_NCOLS, as the header says */
    const struct csvtab *t;
    struct cp_error *err;
};

/* Column col's cell of the row being read. */
static const char *cell(const struct parse *p, int col)
{
    return csvtab_cell(p->t, col);
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
    if (strlen(cell(p, col)) >= CLAIM_WORD_MAX || cell(p, col)[0] == '\0')
        return row_fail(p, col, "'%s' is empty or longer than %d bytes", cell(p, col),
                        CLAIM_WORD_MAX - 1);
    snprintf(dst, CLAIM_WORD_MAX, "%s", cell(p, col));
    return CP_OK;
}

static cp_status number(struct parse *p, int col, unit_dim d, double *v)
{
    char why[256];
    if (unit_parse(cell(p, col), d, v, why, sizeof why) != 0)
        return row_fail(p, col, "'%s': %s", cell(p, col), why);
    return CP_OK;
}

static cp_status header(struct parse *p)
{
    for (int c = 0; c < p->ncols; c++)
        if (strcmp(cell(p, c), col_name[c]) != 0)
            return row_fail(p, c, "header cell is '%s', expected '%s'", cell(p, c), col_name[c]);
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
        if (cell(p, col)[0] != '\0')
            return row_fail(p, col, "'%s': only the GPU kinds (" GPU_KINDS ") take it",
                            cell(p, col));
    return CP_OK;
}

/* gpus: empty or "auto" (0), or a whole number of GPUs. */
static cp_status gpus_col(struct parse *p, struct claim *c)
{
    const char *v = cell(p, C_GPUS);
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
    const char *v = cell(p, C_PRECISION);
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
    v = cell(p, C_FIGURE);
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
        return row_fail(p, C_SPARSITY, "'%s': the GPU claims are dense (0)", cell(p, C_SPARSITY));
    if (ratio != (strcmp(c->model, "-") == 0))
        return row_fail(p, C_MODEL,
                        ratio ? "'%s': a ratio claim compares chips, its model is -"
                              : "'%s': only a ratio claim goes without a model",
                        c->model);
    if ((ratio || c->kind == CLAIM_GPU_COUNT) && c->gpus > 0)
        return row_fail(p, C_GPUS, "'%s': a %s claim finds its GPUs, leave it empty",
                        cell(p, C_GPUS), claim_types[c->kind].name);
    if (c->kind == CLAIM_GPU_TIME && !(c->gpus > 0))
        return row_fail(p, C_GPUS, "'%s': a gpu_time claim runs on a given number of GPUs",
                        cell(p, C_GPUS));
    if ((c->kind == CLAIM_GPU_COUNT) != (c->deadline > 0) && c->kind != CLAIM_POWER)
        return row_fail(p, C_DEADLINE,
                        c->kind == CLAIM_GPU_COUNT
                            ? "'%s': a gpu_count claim needs the time to train within"
                            : "'%s': only gpu_count and power claims take a deadline",
                        cell(p, C_DEADLINE));
    if (c->kind == CLAIM_POWER && c->deadline > 0 && c->gpus > 0)
        return row_fail(p, C_DEADLINE,
                        "'%s': a power claim at a deadline finds its GPUs (leave gpus empty)",
                        cell(p, C_DEADLINE));
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
    if (cell(p, C_DEADLINE)[0] && (st = number(p, C_DEADLINE, UNIT_TIME, &c->deadline)))
        return st;
    if (cell(p, C_DEADLINE)[0] && !(c->deadline > 0))
        return row_fail(p, C_DEADLINE, "'%s' must be positive", cell(p, C_DEADLINE));
    return kind_rules(p, c);
}

/* "origin:N: F fields, expected M": a row of another count of fields than
 * the header's, or a header of neither count. */
static cp_status count_fail(const struct parse *p, int nfield)
{
    return cp_fail(p->err, CP_EINPUT, "%s:%d: %d fields, expected %d%s", p->origin, p->line, nfield,
                   p->ncols, p->line == 1 ? " (or 16 with the GPU columns " GPU_COLS ")" : "");
}

/* The header (row 1) or a claim: its cells each text that may be printed
 * and not cut (the last cut column named), then the header's names or the
 * claim read. */
static cp_status record(struct parse *p)
{
    const struct csvtab *t = p->t;
    if (!t->have_header) {
        p->ncols = t->nfield == C_NCOLS ? C_NCOLS : C_NBASE;
        if (t->nfield != p->ncols)
            return count_fail(p, t->nfield);
    }
    for (int col = p->ncols - 1; col >= 0; col--)
        if (t->too_long[col])
            return row_fail(p, col, "longer than %d bytes", CLAIM_TEXT_MAX - 1);
    char why[160];
    for (int col = 0; col < p->ncols; col++) /* every cell may be printed */
        if (desc_text_check(cell(p, col), why, sizeof why) != 0)
            return row_fail(p, col, "%s", why);
    if (!t->have_header)
        return header(p);
    struct claim c = {.line = p->line};
    cp_status st;
    int k;
    for (k = 0; k < CLAIM_NKINDS; k++)
        if (strcmp(cell(p, C_KIND), claim_types[k].name) == 0)
            break;
    if (k == CLAIM_NKINDS)
        return row_fail(p, C_KIND,
                        "'%s' is not a kind (capacity, weak_scaling, speedup, sparsity_speedup, "
                        "time_to_train, " GPU_KINDS ")",
                        cell(p, C_KIND));
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
                        cell(p, C_SYSTEMS), CLUSTER_MAX_SYSTEMS);
    if (!(c.systems >= 1) || c.systems != floor(c.systems))
        return row_fail(p, C_SYSTEMS, "'%s' is not a whole number of systems from 1 to %g",
                        cell(p, C_SYSTEMS), CLUSTER_MAX_SYSTEMS);
    if (!(c.sparsity >= 0 && c.sparsity <= CLUSTER_MAX_SPARSITY))
        return row_fail(p, C_SPARSITY, "'%s' is outside 0..%g", cell(p, C_SPARSITY),
                        CLUSTER_MAX_SPARSITY);
    if (!(c.target > 0))
        return row_fail(p, C_TARGET, "'%s' must be positive", cell(p, C_TARGET));
    if ((st = gpu_cols(p, &c)))
        return st;
    snprintf(c.text, sizeof c.text, "%s", cell(p, C_CLAIM));
    snprintf(c.condition, sizeof c.condition, "%s", cell(p, C_CONDITION));
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 8;
        p->out->items = xrealloc(p->out->items, p->cap * sizeof *p->out->items);
    }
    p->out->items[p->out->n++] = c;
    return CP_OK;
}

static cp_status on_row(void *ctx, struct csvtab *t)
{
    struct parse *p = ctx;
    p->t = t;
    p->line = t->nrec;
    return record(p);
}

/* The claims column of the field the reader stopped in. */
static const char *field_name(const struct csvtab *t)
{
    return t->nfield < C_NCOLS ? col_name[t->nfield] : "a field past the last column";
}

/* CSV the reader refused: at the byte (a quote in an unquoted field, a
 * byte after a closing quote), or a quoted field never closed, placed at
 * its opening quote. */
static cp_status csv_fail(const struct parse *p, const struct csvtab *t,
                          const struct csvtab_fault *f)
{
    const char *name = field_name(t);
    if (f->kind == CSVTAB_UNCLOSED)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: the quote that opens this field is never "
                       "closed",
                       p->origin, f->start.line, f->start.col, name);
    if (f->csv_error == CSV_ENOMEM)
        return cp_fail(p->err, CP_ENOMEM, "%s: out of memory reading CSV", p->origin);
    if (f->csv_error == CSV_ETOOBIG)
        return cp_fail(p->err, CP_EINPUT, "%s:%d:%d: %s: field too large", p->origin, f->at.line,
                       f->at.col, name);
    if (f->quoted)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: unexpected '%c' after a closing quote (a "
                       "quoted field ends with a quote followed by ',' or the end of the line)",
                       p->origin, f->at.line, f->at.col, name, f->byte);
    return cp_fail(p->err, CP_EINPUT,
                   "%s:%d:%d: %s: malformed CSV: a double quote inside an unquoted field (quote "
                   "the whole field and double the quotes inside it)",
                   p->origin, f->at.line, f->at.col, name);
}

static cp_status on_fault(void *ctx, const struct csvtab *t, const struct csvtab_fault *f)
{
    struct parse *p = ctx;
    p->line = t->nrec;
    switch (f->kind) {
    case CSVTAB_CSV:
    case CSVTAB_UNCLOSED:
        return csv_fail(p, t, f);
    case CSVTAB_SHORT:
    case CSVTAB_WIDE:
        return count_fail(p, f->nfield);
    default: /* no header, no rows (the header's names are record()'s) */
        return cp_fail(p->err, CP_EINPUT, "%s: no claims (a header row and one row per claim)",
                       p->origin);
    }
}

cp_status claim_parse(const char *text, size_t len, const char *origin, struct claim_list *out,
                      struct cp_error *err)
{
    const struct csvtab_spec spec = {.col = col_name,
                                     .ncols = C_NCOLS,
                                     .nrequired = C_NBASE,
                                     .cell_max = CLAIM_TEXT_MAX,
                                     .max_bytes = len,
                                     .max_rows = SIZE_MAX,
                                     .flags = CSVTAB_ORDERED | CSVTAB_CR_LINES,
                                     .fault = on_fault,
                                     .row = on_row};
    struct parse p = {.origin = origin, .out = out, .err = err};
    *out = (struct claim_list){0};
    cp_status st = csvtab_read(&spec, text, origin, &p, err);
    if (st != CP_OK)
        claim_list_free(out);
    return st;
}

void claim_list_free(struct claim_list *l)
{
    free(l->items);
    *l = (struct claim_list){0};
}
