/* gmeas.h - the GPU measurement corpus: published training runs on GPU
 * clusters (hw/gpu-measurements.csv), read strictly with libcsv and
 * normalised so a GPU model can be checked against them.
 *
 * The file has a header row naming its columns (any order, each at most
 * once).  Every file has id, source, date, status, gpu, gpus, model,
 * params, layers, hidden, heads, kv_heads, ffn, seq_len, vocab,
 * global_batch_seqs, micro_batch, tp, pp, dp, precision, recompute,
 * quantity, value, unit and notes; a file may add the optional columns cp,
 * vp, fsdp, fp8_params, optimizer_precision, sequence_parallel,
 * flash_attention, tp_overlap and distributed_optimizer, where an empty cell
 * (or a column left out) means the source does not say:
 *   cp, vp       whole, at least 1.  cp, when given, must be gpus / (tp pp
 *                dp); else it is that quotient.  vp, when given, overrides
 *                a "VP=N" in the notes, and must agree with it when both
 *                are there; else it is the notes' figure, or NaN.
 *   fsdp, fp8_params, sequence_parallel, flash_attention, tp_overlap,
 *   distributed_optimizer
 *                on, off, true, false, yes, no, 1 or 0 (any case): 1 or 0.
 *   optimizer_precision
 *                fp32 or bf16 (any case): an enum wl_optprec.
 * One row per measured run.  Sources count differently (Narayanan et al.
 * 2021 count the recomputed forward pass, Megatron-Core and Korthikanti et
 * al. 2022 count model FLOPs, NeMo publishes tokens/s, MLPerf logs step
 * times), so each row's measured quantity is turned into a step time and
 * cluster tokens/s with the formula its notes give: the conventions are one
 * table in gmeas.c.
 *
 * The reader does no I/O and never exits; the first error is reported as
 * "origin:line: column: message" (the line where the record starts), or
 * "origin:line: message" when no column applies. */
#ifndef CP_GMEAS_H
#define CP_GMEAS_H

#include <stddef.h>

#include "../base/status.h"

/* The GPU of a run, from the gpu text ("H100-SXM5-80GB (DGX-H100)"). */
enum gmeas_gpu { GMEAS_A100, GMEAS_H100, GMEAS_H200, GMEAS_B200, GMEAS_GB200, GMEAS_NGPUS };
extern const char *const gmeas_gpu_name[GMEAS_NGPUS]; /* "a100" ... "gb200" */

/* Tensor precision: bf16 and fp16 both read as 16-bit (one tensor-core
 * rate), named "bf16" as the --precision option will be. */
enum gmeas_precision { GMEAS_P16, GMEAS_FP8, GMEAS_FP4, GMEAS_NPRECISIONS };
extern const char *const gmeas_precision_name[GMEAS_NPRECISIONS]; /* bf16 fp8 fp4 */

/* Activation recomputation (Korthikanti et al. 2022), from the first word
 * of the recompute text. */
enum gmeas_recompute {
    GMEAS_RC_NONE,
    GMEAS_RC_SELECTIVE,
    GMEAS_RC_FULL,
    GMEAS_RC_UNKNOWN,
    GMEAS_NRECOMPUTES
};
extern const char *const gmeas_recompute_name[GMEAS_NRECOMPUTES];

/* What a row measured (the quantity column). */
enum gmeas_quantity {
    GMEAS_TFLOPS_PER_GPU, /* achieved_tflops_per_gpu: FLOP/s per GPU, counted
                             as the source counts it                        */
    GMEAS_TOKENS_PER_GPU, /* tokens_per_s_per_gpu: training tokens/s per GPU */
    GMEAS_STEP_TIME,      /* step_time_median: seconds per optimizer step    */
    GMEAS_NQUANTITIES
};
extern const char *const gmeas_quantity_name[GMEAS_NQUANTITIES];

#define GMEAS_TEXT_MAX                                                                             \
    256 /* longest text kept, with its NUL; a                                                      \
           longer source is cut, other text refused */
#define GMEAS_MAX_ROWS                                                                             \
    4096                          /* runs in one file: ids are checked for                         \
                                     repeats pairwise, so keep this modest    */
#define GMEAS_MAX_BYTES (1 << 20) /* longest input text                     */

struct gmeas_row {
    int line;                      /* line where the record starts          */
    char id[GMEAS_TEXT_MAX];       /* unique, not empty                      */
    char source[GMEAS_TEXT_MAX];   /* where published, cut to fit            */
    char date[GMEAS_TEXT_MAX];     /* as given ("2021-04")                   */
    char status[GMEAS_TEXT_MAX];   /* as given ("measured")                  */
    char gpu_text[GMEAS_TEXT_MAX]; /* as given                               */
    char model[GMEAS_TEXT_MAX];    /* as given ("GPT 1.7B ...")              */
    enum gmeas_gpu gpu;
    enum gmeas_precision precision;
    enum gmeas_recompute recompute;
    enum gmeas_quantity quantity;
    /* The run's shape.  Counts are whole and >= 1; NaN where the file says
     * "unknown" (allowed for params, kv_heads, ffn, vocab, micro_batch). */
    double gpus, params, layers, hidden, heads, kv_heads, ffn, seq_len, vocab;
    double batch_seqs;  /* global batch, sequences                          */
    double micro_batch; /* sequences                                        */
    double tp, pp, dp;
    double cp; /* context parallelism: the cp column, else gpus / (tp *
                  pp * dp); whole, and the two agree                       */
    double vp; /* interleaved pipeline chunks per GPU: the vp column, else
                  "VP=N" in the notes (NeMo, MLPerf); NaN when neither says */
    /* How the run's software ran it, from the optional columns (fsdp,
     * fp8_params, optimizer_precision, sequence_parallel, flash_attention,
     * tp_overlap, distributed_optimizer): 1 on, 0 off, -1 where the file
     * has no such column or the cell is empty (the source's recipe, or the
     * model's default, decides).  optimizer_precision: -1, or an enum
     * wl_optprec (0 fp32, 1 bf16). */
    int fsdp, fp8_params, optimizer_precision;
    int sequence_parallel, flash_attention, tp_overlap, distributed_optimizer;
    /* The measurement and what it converts to (SI units). */
    double value;           /* as published, in SI: FLOP/s per GPU, tokens/s
                               per GPU or seconds                            */
    const char *convention; /* static text: the conversion used              */
    double flop_per_step;   /* the source's FLOP count per step; NaN when the
                               conversion needs none                         */
    double step_time_s;     /* seconds per optimizer step                    */
    double tokens_per_s;    /* training tokens per second, whole cluster     */
};

struct gmeas_list {
    size_t n;
    struct gmeas_row *rows; /* owned; free with gmeas_list_free() */
};

/* Parse text (NUL-terminated) named origin into out.  CP_OK with at least
 * one row; CP_EINPUT with err naming origin, line and column (malformed
 * CSV, an unknown, repeated or missing column, a field too many or too
 * few, a bad or negative number, "unknown" where the conversion needs the
 * figure, an unknown GPU, precision, recompute or quantity, a unit that is
 * not the quantity's, a layout that does not divide, a cp other than gpus /
 * (tp pp dp), a vp that disagrees with the notes, a switch or
 * optimizer_precision word not known, a repeated id, no rows, a file too
 * large); CP_ENOMEM if the parser cannot start.  On failure out is
 * empty. */
cp_status gmeas_parse(const char *text, const char *origin, struct gmeas_list *out,
                      struct cp_error *err);

void gmeas_list_free(struct gmeas_list *l);

#endif
