/* gmeas.c - the GPU measurement corpus reader (see gmeas.h).
 *
 * The table reader (csvtab.h) reads the text with this corpus's columns
 * and words: no comment lines, a line ends at LF, and an error names the
 * line where its record starts (a quoted field may run over several
 * lines).  Each record becomes a row: text kept, numbers parsed ("unknown" kept as NaN
 * where allowed), the GPU, precision and recompute normalised, the
 * optional columns (cp, vp, the software switches) read or defaulted, and
 * the measured quantity converted to a step time and cluster tokens/s by
 * the convention table below, which says for each quantity and source how
 * the source counted. */
#include "gmeas.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/units.h"
#include "../base/xalloc.h"
#include "csvtab.h"
#include "desc.h"
#include "wl.h"

const char *const gmeas_gpu_name[GMEAS_NGPUS] = {"a100", "h100", "h200", "b200", "gb200"};
const char *const gmeas_precision_name[GMEAS_NPRECISIONS] = {"bf16", "fp8", "fp4"};
const char *const gmeas_recompute_name[GMEAS_NRECOMPUTES] = {"none", "selective", "full",
                                                             "unknown"};
const char *const gmeas_quantity_name[GMEAS_NQUANTITIES] = {
    "achieved_tflops_per_gpu", "tokens_per_s_per_gpu", "step_time_median"};

/* clang-format off */
/* The columns every file has (C_ID ... C_NOTES), then the optional ones
 * (C_CP ... C_DISTOPT): a file may leave those out, and an empty cell
 * takes the default. */
enum gm_col {
    C_ID, C_SOURCE, C_DATE, C_STATUS, C_GPU, C_GPUS, C_MODEL, C_PARAMS, C_LAYERS, C_HIDDEN,
    C_HEADS, C_KV_HEADS, C_FFN, C_SEQ_LEN, C_VOCAB, C_BATCH, C_MICRO_BATCH, C_TP, C_PP, C_DP,
    C_PRECISION, C_RECOMPUTE, C_QUANTITY, C_VALUE, C_UNIT, C_NOTES, C_NREQUIRED,
    C_CP = C_NREQUIRED, C_VP, C_FSDP, C_FP8_PARAMS, C_OPTPREC, C_SEQPAR, C_FLASH, C_TPOVERLAP,
    C_DISTOPT, C_NCOLS
};
static const char *const col_name[C_NCOLS] = {
    "id", "source", "date", "status", "gpu", "gpus", "model", "params", "layers", "hidden",
    "heads", "kv_heads", "ffn", "seq_len", "vocab", "global_batch_seqs", "micro_batch", "tp",
    "pp", "dp", "precision", "recompute", "quantity", "value", "unit", "notes",
    "cp", "vp", "fsdp", "fp8_params", "optimizer_precision", "sequence_parallel",
    "flash_attention", "tp_overlap", "distributed_optimizer"};
/* clang-format on */

/* The longest cell read; longer ones are cut (the notes, the source) or
 * refused (anything kept whole). */
#define GM_CELL_MAX 1024

/* ---- the conventions ---- */

enum gm_flops { GM_NO_FLOPS, GM_NARAYANAN, GM_MCORE, GM_KORTHIKANTI };

struct gm_conv {
    enum gmeas_quantity quantity;
    const char *source_has; /* the source column contains this ("": any)  */
    const char *unit;       /* the unit column must say this              */
    double to_si;           /* value * to_si: FLOP/s, tokens/s or seconds */
    enum gm_flops flops;    /* how the source counts FLOP per step        */
    const char *name;       /* for gmeas_row.convention                   */
};

/* First match wins. */
static const struct gm_conv conv[] = {
    /* NAR-T1 notes: "TFLOP/s = 96*B*s*l*h^2*(1+s/(6h)+V/(16*l*h))/time
     * (paper eq.3, includes recompute, i.e. hardware FLOPs)", per GPU. */
    {GMEAS_TFLOPS_PER_GPU, "Narayanan", "TFLOP/s/GPU", 1e12, GM_NARAYANAN,
     "Narayanan eq. 3 hardware FLOP (with the recomputed forward) / (gpus * FLOP/s per GPU)"},
    /* MCR-H100 notes: "MFU = TFLOP/s / 989", i.e. model FLOPs per GPU; the
     * count is Megatron-Core r0.8.0's num_floating_point_operations
     * (training.py): 12*B*s*l*h^2*((1+kv/heads+s/h)+ffn/h+V/(2*l*h)), no
     * recompute; "ffn not stated (param count consistent with 4h)" and "GPT
     * MHA likely" fill ffn = 4h and kv_heads = heads when unknown. */
    {GMEAS_TFLOPS_PER_GPU, "Megatron-Core", "TFLOP/s/GPU", 1e12, GM_MCORE,
     "Megatron-Core model FLOP (no recompute) / (gpus * FLOP/s per GPU)"},
    /* Korthikanti et al. 2022 give model FLOPs utilization: their
     * appendix A eq. 7 counts model FLOPs per iteration (no recompute), and
     * sec. 6.3 divides them by the iteration time and the accelerator's
     * peak.  A KOR22 row states the MFU times the A100's 312 TFLOP/s (the
     * peak that turns the paper's Table 5 iteration times into its MFU
     * column), i.e. achieved model FLOP/s per GPU. */
    {GMEAS_TFLOPS_PER_GPU, "Korthikanti", "TFLOP/s/GPU", 1e12, GM_KORTHIKANTI,
     "Korthikanti eq. 7 model FLOP (no recompute) / (gpus * FLOP/s per GPU)"},
    /* NM24 rows publish tokens/s per GPU (their "model TFLOP/s/GPU" in the
     * notes changed formula between releases and is not used): cluster
     * tokens/s = gpus * value; step = global batch tokens / that. */
    {GMEAS_TOKENS_PER_GPU, "", "tokens/s/GPU", 1, GM_NO_FLOPS,
     "global batch tokens / (gpus * tokens/s per GPU)"},
    /* Korthikanti et al. 2022, Table 5 and sec. 6.3: "end-to-end
     * iteration time" in seconds, one optimizer step, as printed (the
     * paper does not say over how many iterations it is taken). */
    {GMEAS_STEP_TIME, "Korthikanti", "s/step", 1, GM_NO_FLOPS,
     "iteration time as published (end to end)"},
    /* MLPerf rows: "median logged train_step_time" in seconds per step; the
     * notes' tokens/s/GPU is global batch tokens / step / gpus. */
    {GMEAS_STEP_TIME, "", "s/step", 1, GM_NO_FLOPS, "step time as logged"},
};
#define GM_NCONV (sizeof conv / sizeof conv[0])

/* FLOP per step, Narayanan et al. 2021 eq. 3 (forward, backward and the
 * recomputed forward: 4 x 24 = 96; the logit layer, not recomputed,
 * 6*B*s*h*V). */
static double flop_narayanan(const struct gmeas_row *r)
{
    double B = r->batch_seqs, s = r->seq_len, l = r->layers, h = r->hidden, V = r->vocab;
    return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

/* FLOP per step, Megatron-Core r0.8.0 num_floating_point_operations (3 x
 * forward; dense GPT MLP, so no gated factor). */
static double flop_mcore(const struct gmeas_row *r)
{
    double B = r->batch_seqs, s = r->seq_len, l = r->layers, h = r->hidden, V = r->vocab;
    double ffn = isnan(r->ffn) ? 4 * h : r->ffn;
    double kv = isnan(r->kv_heads) ? r->heads : r->kv_heads;
    return 12 * B * s * l * h * h * ((1 + kv / r->heads + s / h) + ffn / h + V / (2 * l * h));
}

/* FLOP per step, Korthikanti et al. 2022 appendix A eq. 7 (model FLOPs:
 * forward and backward, 72 = 3 x 24; the logit layer 6*B*s*h*V; no
 * recompute, whatever the run recomputed). */
static double flop_korthikanti(const struct gmeas_row *r)
{
    double B = r->batch_seqs, s = r->seq_len, l = r->layers, h = r->hidden, V = r->vocab;
    return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
}

/* ---- the parser ---- */

struct gparse {
    struct gmeas_list *out;
    size_t cap;
    struct csvtab *t; /* the reader, while a record is read */
};

#define CELL(p, c) csvtab_cell((p)->t, c)

/* Report an input error at a line of the file (fmt a literal). */
#define fail_line(t, line, fmt, ...)                                                               \
    cp_fail((t)->err, CP_EINPUT, "%s:%d: " fmt, (t)->origin, line, __VA_ARGS__)

#define cell_fail(p, c, fmt, ...)                                                                  \
    fail_line((p)->t, (p)->t->rec.line, "%s: " fmt, col_name[c], __VA_ARGS__)

/* The words of this corpus for what the reader finds wrong, each at the
 * line where its record starts. */
static cp_status fault(void *ctx, const struct csvtab *t, const struct csvtab_fault *f)
{
    (void)ctx;
    switch (f->kind) {
    case CSVTAB_CSV:
        return fail_line(t, f->at.line,
                         "malformed CSV: %s (a quoted field ends with a quote "
                         "followed by ',' or the end of the line)",
                         csv_strerror(f->csv_error));
    case CSVTAB_UNCLOSED:
        return fail_line(t, f->rec_line, "malformed CSV: %s",
                         "a quote opened in the record on this line is not closed by the end of "
                         "the file");
    case CSVTAB_NAME_TEXT: /* not asked for: a name with control bytes is unknown */
    case CSVTAB_UNKNOWN:
        return fail_line(t, f->rec_line, "header: unknown column '%.64s'", f->text);
    case CSVTAB_TWICE:
        return fail_line(t, f->rec_line, "header: column '%s' named twice", col_name[f->col]);
    case CSVTAB_MISSING:
        return fail_line(t, f->rec_line, "header: missing column '%s'", col_name[f->col]);
    case CSVTAB_HEADER_WIDE:
        return fail_line(t, f->rec_line,
                         "header: too many fields: there are %d columns (%d of them optional), "
                         "each named at most once",
                         C_NCOLS, C_NCOLS - C_NREQUIRED);
    case CSVTAB_WIDE:
        return fail_line(t, f->rec_line, "too many fields: the header on line %d names %d columns",
                         t->header_line, t->nhdr);
    case CSVTAB_SHORT:
        return fail_line(t, f->rec_line, "%d field%s, but the header on line %d names %d columns",
                         f->nfield, f->nfield == 1 ? "" : "s", t->header_line, t->nhdr);
    case CSVTAB_ROWS:
        return fail_line(t, f->rec_line, "more than %d runs", GMEAS_MAX_ROWS);
    case CSVTAB_NO_HEADER:
        return fail_line(t, 1, "%s",
                         "no header row (expected one naming the columns id, source, ... notes)");
    case CSVTAB_NO_ROWS:
        return fail_line(t, f->rec_line, "%s",
                         "no runs after the header (one row per measured run)");
    }
    return fail_line(t, f->rec_line, "%s", "unreadable");
}

/* ---- one row: text ---- */

static cp_status text_cell(struct gparse *p, int c, char *dst)
{
    if (p->t->too_long[c] || strlen(CELL(p, c)) >= GMEAS_TEXT_MAX)
        return cell_fail(p, c, "longer than %d bytes", GMEAS_TEXT_MAX - 1);
    if (CELL(p, c)[0] == '\0')
        return cell_fail(p, c, "%s", "empty");
    memcpy(dst, CELL(p, c), GMEAS_TEXT_MAX);
    return CP_OK;
}

/* Every cell but the notes may be printed: text without control bytes. */
static cp_status cells_check(struct gparse *p)
{
    char why[160];
    for (int c = 0; c < C_NCOLS; c++)
        if (c != C_NOTES && desc_text_check(CELL(p, c), why, sizeof why) != 0)
            return cell_fail(p, c, "%s", why);
    return CP_OK;
}

/* The first of names[0..n) that the text holds (case ignored; GB200 is
 * tried before B200), else -1.  At the start only, when prefix. */
static int word_find(const char *text, const char *const *names, const int *order, int n,
                     int prefix)
{
    for (int i = 0; i < n; i++) {
        const char *w = names[order[i]];
        if (prefix ? strncasecmp(text, w, strlen(w)) == 0 : strcasestr(text, w) != NULL)
            return order[i];
    }
    return -1;
}

static cp_status kinds_parse(struct gparse *p, struct gmeas_row *r)
{
    static const int gpu_order[] = {GMEAS_GB200, GMEAS_B200, GMEAS_H200, GMEAS_H100, GMEAS_A100};
    static const char *const prec_word[] = {"bf16", "fp16", "fp8", "fp4", "nvfp4", "mxfp4"};
    static const int prec_kind[] = {GMEAS_P16, GMEAS_P16, GMEAS_FP8,
                                    GMEAS_FP4, GMEAS_FP4, GMEAS_FP4};
    static const int prec_order[] = {0, 1, 2, 3, 4, 5}, rc_order[] = {0, 1, 2, 3};
    int g = word_find(CELL(p, C_GPU), gmeas_gpu_name, gpu_order, GMEAS_NGPUS, 0);
    if (g < 0)
        return cell_fail(p, C_GPU,
                         "'%.64s' names no GPU this program knows (a100, h100, h200, "
                         "b200 or gb200)",
                         CELL(p, C_GPU));
    int w = word_find(CELL(p, C_PRECISION), prec_word, prec_order, 6, 1);
    if (w < 0)
        return cell_fail(p, C_PRECISION, "'%.64s' does not start with BF16, FP16, FP8 or FP4",
                         CELL(p, C_PRECISION));
    int rc = word_find(CELL(p, C_RECOMPUTE), gmeas_recompute_name, rc_order, GMEAS_NRECOMPUTES, 1);
    if (rc < 0)
        return cell_fail(p, C_RECOMPUTE,
                         "'%.64s' does not start with none, selective, full or unknown",
                         CELL(p, C_RECOMPUTE));
    r->gpu = (enum gmeas_gpu)g;
    r->precision = (enum gmeas_precision)prec_kind[w];
    r->recompute = (enum gmeas_recompute)rc;
    return CP_OK;
}

/* ---- one row: numbers ---- */

/* The numeric columns, where they go, and whether "unknown" is allowed. */
static const struct num_col {
    enum gm_col col;
    size_t off;
    int unknown_ok, whole;
} num_cols[] = {
    {C_GPUS, offsetof(struct gmeas_row, gpus), 0, 1},
    {C_PARAMS, offsetof(struct gmeas_row, params), 1, 0},
    {C_LAYERS, offsetof(struct gmeas_row, layers), 0, 1},
    {C_HIDDEN, offsetof(struct gmeas_row, hidden), 0, 1},
    {C_HEADS, offsetof(struct gmeas_row, heads), 0, 1},
    {C_KV_HEADS, offsetof(struct gmeas_row, kv_heads), 1, 1},
    {C_FFN, offsetof(struct gmeas_row, ffn), 1, 1},
    {C_SEQ_LEN, offsetof(struct gmeas_row, seq_len), 0, 1},
    {C_VOCAB, offsetof(struct gmeas_row, vocab), 1, 1},
    {C_BATCH, offsetof(struct gmeas_row, batch_seqs), 0, 1},
    {C_MICRO_BATCH, offsetof(struct gmeas_row, micro_batch), 1, 1},
    {C_TP, offsetof(struct gmeas_row, tp), 0, 1},
    {C_PP, offsetof(struct gmeas_row, pp), 0, 1},
    {C_DP, offsetof(struct gmeas_row, dp), 0, 1},
};
#define GM_NNUM (sizeof num_cols / sizeof num_cols[0])

static cp_status num_cell(struct gparse *p, const struct num_col *nc, double *v)
{
    const char *s = CELL(p, nc->col);
    char why[256];
    if (nc->unknown_ok && strcmp(s, "unknown") == 0) {
        *v = NAN;
        return CP_OK;
    }
    if (unit_parse(s, UNIT_COUNT, v, why, sizeof why) != 0)
        return cell_fail(p, nc->col, "'%.64s': %s%s", s, why,
                         nc->unknown_ok ? " (or \"unknown\")" : "");
    if (!(*v > 0) || (nc->whole && (*v < 1 || *v != floor(*v) || *v > 0x1p53)))
        return cell_fail(p, nc->col, "'%.64s' is not %s", s,
                         nc->whole ? "a whole number, at least 1" : "greater than zero");
    return CP_OK;
}

static cp_status shape_parse(struct gparse *p, struct gmeas_row *r)
{
    for (size_t i = 0; i < GM_NNUM; i++)
        if (num_cell(p, &num_cols[i], (double *)((char *)r + num_cols[i].off)) != CP_OK)
            return CP_EINPUT;
    double ways = r->tp * r->pp * r->dp;
    if (CELL(p, C_CP)[0] != '\0') {
        /* given: it must be what the layout leaves */
        const struct num_col cc = {C_CP, 0, 0, 1};
        if (num_cell(p, &cc, &r->cp) != CP_OK)
            return CP_EINPUT;
        if (r->cp * ways != r->gpus)
            return cell_fail(p, C_CP, "'%.64s' is not gpus / (tp x pp x dp) = %.0f / %.0f = %g",
                             CELL(p, C_CP), r->gpus, ways, r->gpus / ways);
    } else {
        r->cp = r->gpus / ways;
        if (r->cp != floor(r->cp))
            return cell_fail(p, C_GPUS, "%.0f GPUs are not a whole number of tp x pp x dp = %.0f",
                             r->gpus, ways);
    }
    if (fmod(r->batch_seqs, r->dp) != 0)
        return cell_fail(p, C_BATCH, "%.0f sequences do not divide among dp = %.0f", r->batch_seqs,
                         r->dp);
    return CP_OK;
}

/* ---- one row: the measurement ---- */

static cp_status conv_find(struct gparse *p, struct gmeas_row *r, const struct gm_conv **out)
{
    int q;
    for (q = 0; q < GMEAS_NQUANTITIES; q++)
        if (strcmp(CELL(p, C_QUANTITY), gmeas_quantity_name[q]) == 0)
            break;
    if (q == GMEAS_NQUANTITIES)
        return cell_fail(p, C_QUANTITY, "'%.64s' is not a quantity (%s, %s or %s)",
                         CELL(p, C_QUANTITY), gmeas_quantity_name[0], gmeas_quantity_name[1],
                         gmeas_quantity_name[2]);
    r->quantity = (enum gmeas_quantity)q;
    for (size_t i = 0; i < GM_NCONV; i++)
        if (conv[i].quantity == r->quantity && strstr(CELL(p, C_SOURCE), conv[i].source_has)) {
            *out = &conv[i];
            return CP_OK;
        }
    return cell_fail(p, C_QUANTITY,
                     "%s from this source: no known way it counts FLOP (sources naming "
                     "Narayanan, Megatron-Core or Korthikanti)",
                     gmeas_quantity_name[q]);
}

/* The convention's FLOP per step; vocab must be known for it. */
static cp_status flop_count(struct gparse *p, const struct gm_conv *cv, struct gmeas_row *r)
{
    r->flop_per_step = NAN;
    if (cv->flops == GM_NO_FLOPS)
        return CP_OK;
    if (isnan(r->vocab))
        return cell_fail(p, C_VOCAB, "unknown, but %s counts FLOP with it",
                         gmeas_quantity_name[r->quantity]);
    r->flop_per_step = cv->flops == GM_NARAYANAN ? flop_narayanan(r)
                       : cv->flops == GM_MCORE   ? flop_mcore(r)
                                                 : flop_korthikanti(r);
    return CP_OK;
}

static cp_status measure_parse(struct gparse *p, struct gmeas_row *r)
{
    const struct gm_conv *cv = NULL;
    const struct num_col vc = {C_VALUE, 0, 0, 0};
    if (conv_find(p, r, &cv) != CP_OK)
        return CP_EINPUT;
    if (strcmp(CELL(p, C_UNIT), cv->unit) != 0)
        return cell_fail(p, C_UNIT, "'%.64s' is not the unit of %s, which is '%s'", CELL(p, C_UNIT),
                         gmeas_quantity_name[r->quantity], cv->unit);
    if (num_cell(p, &vc, &r->value) != CP_OK || flop_count(p, cv, r) != CP_OK)
        return CP_EINPUT;
    r->value *= cv->to_si;
    r->convention = cv->name;
    double tokens_per_step = r->batch_seqs * r->seq_len;
    if (r->quantity == GMEAS_TFLOPS_PER_GPU)
        r->step_time_s = r->flop_per_step / (r->gpus * r->value);
    else if (r->quantity == GMEAS_TOKENS_PER_GPU)
        r->step_time_s = tokens_per_step / (r->gpus * r->value);
    else
        r->step_time_s = r->value;
    r->tokens_per_s = tokens_per_step / r->step_time_s;
    if (!isfinite(r->step_time_s) || !isfinite(r->tokens_per_s) || !(r->tokens_per_s > 0))
        return cell_fail(p, C_VALUE, "'%.64s' gives a step time of %g s", CELL(p, C_VALUE),
                         r->step_time_s);
    return CP_OK;
}

static cp_status id_check(struct gparse *p, const struct gmeas_row *r)
{
    int line = csvtab_id_line(p->t, r->id);
    if (line)
        return cell_fail(p, C_ID, "'%.64s' is already the id of the run on line %d", r->id, line);
    return CP_OK;
}

/* The notes' "VP=N" (virtual pipeline stages, i.e. interleaved chunks per
 * GPU), else NaN: a figure of the run the columns do not hold. */
static double notes_vp(const char *notes)
{
    const char *at = strstr(notes, "VP=");
    char *end;
    double v = at ? strtod(at + 3, &end) : NAN;
    return at && end != at + 3 && v >= 1 && v == floor(v) ? v : NAN;
}

/* The vp column, else the notes' "VP=N"; both given, they must agree. */
static cp_status vp_parse(struct gparse *p, struct gmeas_row *r)
{
    double in_notes = notes_vp(CELL(p, C_NOTES));
    const struct num_col vc = {C_VP, 0, 0, 1};
    r->vp = in_notes;
    if (CELL(p, C_VP)[0] == '\0')
        return CP_OK;
    if (num_cell(p, &vc, &r->vp) != CP_OK)
        return CP_EINPUT;
    if (!isnan(in_notes) && in_notes != r->vp)
        return cell_fail(p, C_VP, "'%.64s' disagrees with the notes, which say VP=%.0f",
                         CELL(p, C_VP), in_notes);
    return CP_OK;
}

/* A switch cell: 1 on, 0 off, -1 empty (not given). */
static cp_status switch_cell(struct gparse *p, int c, int *out)
{
    static const char *const on[] = {"on", "true", "yes", "1"};
    static const char *const off[] = {"off", "false", "no", "0"};
    const char *s = CELL(p, c);
    *out = -1;
    if (*s == '\0')
        return CP_OK;
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        if (strcasecmp(s, on[i]) == 0)
            return *out = 1, CP_OK;
        if (strcasecmp(s, off[i]) == 0)
            return *out = 0, CP_OK;
    }
    return cell_fail(p, c,
                     "'%.64s' is not on, off, true, false, yes, no, 1 or 0 (or empty: not "
                     "given)",
                     s);
}

/* The optional software columns: the switches and the optimizer state's
 * type (an enum wl_optprec), -1 where empty. */
static cp_status software_parse(struct gparse *p, struct gmeas_row *r)
{
    static const struct {
        enum gm_col col;
        size_t off;
    } sw[] = {
        {C_FSDP, offsetof(struct gmeas_row, fsdp)},
        {C_FP8_PARAMS, offsetof(struct gmeas_row, fp8_params)},
        {C_SEQPAR, offsetof(struct gmeas_row, sequence_parallel)},
        {C_FLASH, offsetof(struct gmeas_row, flash_attention)},
        {C_TPOVERLAP, offsetof(struct gmeas_row, tp_overlap)},
        {C_DISTOPT, offsetof(struct gmeas_row, distributed_optimizer)},
    };
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++)
        if (switch_cell(p, sw[i].col, (int *)((char *)r + sw[i].off)) != CP_OK)
            return CP_EINPUT;
    const char *s = CELL(p, C_OPTPREC);
    if (*s == '\0')
        r->optimizer_precision = -1;
    else if (strcasecmp(s, "fp32") == 0)
        r->optimizer_precision = WL_OPT_FP32;
    else if (strcasecmp(s, "bf16") == 0)
        r->optimizer_precision = WL_OPT_BF16;
    else
        return cell_fail(p, C_OPTPREC, "'%.64s' is not fp32 or bf16 (or empty: not given)", s);
    return CP_OK;
}

static cp_status row_parse(struct gparse *p, struct gmeas_row *r)
{
    if (cells_check(p) || text_cell(p, C_ID, r->id) || id_check(p, r) ||
        text_cell(p, C_DATE, r->date) || text_cell(p, C_STATUS, r->status) ||
        text_cell(p, C_GPU, r->gpu_text) || text_cell(p, C_MODEL, r->model) || kinds_parse(p, r) ||
        shape_parse(p, r) || vp_parse(p, r) || software_parse(p, r) || measure_parse(p, r))
        return CP_EINPUT;
    /* the source is kept as far as it fits, cut at a UTF-8 character */
    size_t n = strlen(CELL(p, C_SOURCE));
    if (n >= GMEAS_TEXT_MAX) {
        n = GMEAS_TEXT_MAX - 1;
        while (n > 0 && ((unsigned char)CELL(p, C_SOURCE)[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(r->source, CELL(p, C_SOURCE), n);
    r->source[n] = '\0';
    return CP_OK;
}

/* ---- the table ---- */

/* A record read: its row, kept. */
static cp_status on_row(void *ctx, struct csvtab *t)
{
    struct gparse *p = ctx;
    p->t = t;
    struct gmeas_row r = {.line = t->rec.line};
    if (row_parse(p, &r) != CP_OK)
        return CP_EINPUT;
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->out->rows = xrealloc(p->out->rows, p->cap * sizeof *p->out->rows);
    }
    p->out->rows[p->out->n++] = r;
    csvtab_id_keep(t, r.id, r.line);
    return CP_OK;
}

static const struct csvtab_spec gmeas_table = {
    .col = col_name,
    .ncols = C_NCOLS,
    .nrequired = C_NREQUIRED,
    .cell_max = GM_CELL_MAX,
    .max_bytes = GMEAS_MAX_BYTES,
    .max_rows = GMEAS_MAX_ROWS,
    .flags = 0,
    .fault = fault,
    .row = on_row,
};

cp_status gmeas_parse(const char *text, const char *origin, struct gmeas_list *out,
                      struct cp_error *err)
{
    *out = (struct gmeas_list){0};
    struct gparse p = {.out = out};
    cp_status st = csvtab_read(&gmeas_table, text, origin, &p, err);
    if (st != CP_OK)
        gmeas_list_free(out);
    return st;
}

void gmeas_list_free(struct gmeas_list *l)
{
    free(l->rows);
    *l = (struct gmeas_list){0};
}
