/* fuzz_gmeas.c - libFuzzer harness for the GPU measurement corpus and the
 * GPU model behind `validate`: any bytes, read as a GPU corpus
 * (gmeas_parse, src/desc/gmeas.c), must give CP_OK or CP_EINPUT; never a
 * crash, a hang or a leak.  Each parsed row then runs through the GPU
 * model as validate runs it (gpu_run_eval, src/gpu/gpu_run.c: the row's
 * workload, its layout with the least recompute that fits, gpu_check,
 * gpu_eval) on the built-in description of its GPU, and a small corpus is
 * fitted (gpu_fit_run) and left out a source at a time
 * (gpu_fit_leave_source_out, src/gpu/gpu_fit.c).
 *
 * Asserted.  On CP_EINPUT the message is not empty and names the origin
 * ("fuzz.csv:"), and the list is empty.  On CP_OK every row keeps the
 * promises of gmeas.h: a line, an id not empty, names NUL-terminated, the
 * enums in range, the counts whole, at least 1 and at most 2^53 (NaN only
 * where "unknown" is allowed), cp = gpus / (tp pp dp), dp dividing the
 * batch, the switches -1, 0 or 1, a finite value above 0, and a finite
 * step time and throughput above 0.  gpu_run_eval, gpu_fit_run and
 * gpu_fit_leave_source_out give CP_OK or CP_EINPUT with a message; a
 * left-out row without a figure says why.
 *
 * A short input (at most FUZZ_FIT_ROWS + 1 lines) is also run through
 * the command, `validate FILE` (src/cli/cmd_validate.c, src/meas/meas_gpu.c,
 * through the program's main, compiled as cp_main as for fuzz_cli), from a
 * file in a directory of its own: whichever kind its header says, the
 * exit status is 0, 1 or 2, never a crash, a hang or a leak.  stdout and
 * stderr go to /dev/null (the streams); the built-in copies are the only
 * descriptions found.
 *
 * Kept short.  The model of one row is arithmetic without loops over its
 * figures (the least block recompute is bisected), so every parsed row is
 * evaluated, however large its figures.  The fit runs up to
 * GPU_FIT_MAX_ITER simplex steps over its rows, and leave-out one fit per
 * source, so they run only on a corpus of at most FUZZ_FIT_ROWS rows.
 *
 * Seeds: tests/fuzz/fuzz_gmeas/ (rows of hw/gpu-measurements.csv and
 * hw/gpu-measurements-holdout.csv with their text cut short, the corpora
 * of issue 30, and ws-*.csv: rows of hw/measurements.csv and issue 30's
 * one-row corpus, for validate).  Built and run by `make fuzz` and
 * `make fuzz-smoke`. */
#define _XOPEN_SOURCE 700
#include <assert.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "fuzz.h"

#include "desc/catalog.h"
#include "desc/gmeas.h"
#include "desc/gpuhw.h"
#include "gpu/gpu_fit.h"
#include "gpu/gpu_run.h"
#include "cli/cli.h"

/* The most rows a corpus may have for the fit and the leave-out to run. */
#define FUZZ_FIT_ROWS 4

int cp_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gpuhw_desc gpus[GMEAS_NGPUS];
static char workdir[64], csv_path[96];

/* The built-in description hw/NAME.ini, loaded into g, or abort. */
static void load_builtin(const char *name, struct gpuhw_desc *g)
{
    for (size_t i = 0; i < cat_nembedded; i++) {
        const struct cat_embedded *e = &cat_embedded[i];
        if (strcmp(e->kind, "hw") != 0 || strcmp(e->name, name) != 0)
            continue;
        struct cp_error err = {0};
        if (gpuhw_load(e->text, name, NULL, 0, g, NULL, &err) != CP_OK)
            abort();
        return;
    }
    abort();
}

/* At exit, the working directory goes. */
static void remove_workdir(void)
{
    (void)unlink(csv_path);
    (void)rmdir(workdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    gsl_set_error_handler_off(); /* as main() does: GSL errors are statuses */
    for (int k = 0; k < GMEAS_NGPUS; k++)
        load_builtin(gmeas_gpu_name[k], &gpus[k]);
    fuzz_quiet();
    snprintf(workdir, sizeof workdir, "/tmp/fuzz_gmeas.XXXXXX");
    if (!mkdtemp(workdir))
        abort();
    snprintf(csv_path, sizeof csv_path, "%s/fuzz.csv", workdir);
    atexit(remove_workdir);
    return 0;
}

/* `validate FILE` on text[0..size), written to csv_path. */
static void check_validate(const char *text, size_t size)
{
    FILE *f = fopen(csv_path, "wb");
    if (!f || fwrite(text, 1, size, f) != size || fclose(f) != 0)
        abort();
    char *argv[] = {"cerebras-plan", "validate", csv_path, NULL};
    static char *none[] = {"fuzz_gmeas", NULL};
    optind = 0; /* as fuzz_cli.c: getopt starts afresh */
    (void)getopt(1, none, "");
    int rc = cp_main(3, argv);
    assert(rc == EXIT_OK || rc == EXIT_VERDICT || rc == EXIT_USAGE);
}

/* A whole count, 1 to 2^53 (as gmeas.c reads one). */
static int whole(double v)
{
    return v >= 1 && v == floor(v) && v <= 0x1p53;
}

static int whole_or_unknown(double v)
{
    return isnan(v) || whole(v);
}

static int is_switch(int v)
{
    return v == -1 || v == 0 || v == 1;
}

static void check_text(const char *s, size_t size)
{
    assert(memchr(s, '\0', size));
}

static void check_row(const struct gmeas_row *r)
{
    assert(r->line >= 1);
    check_text(r->id, sizeof r->id);
    assert(r->id[0] != '\0');
    check_text(r->source, sizeof r->source);
    check_text(r->gpu_text, sizeof r->gpu_text);
    check_text(r->model, sizeof r->model);
    assert(r->gpu >= 0 && r->gpu < GMEAS_NGPUS);
    assert(r->precision >= 0 && r->precision < GMEAS_NPRECISIONS);
    assert(r->recompute >= 0 && r->recompute < GMEAS_NRECOMPUTES);
    assert(r->quantity >= 0 && r->quantity < GMEAS_NQUANTITIES);
    const double counts[] = {r->gpus,       r->layers, r->hidden, r->heads, r->seq_len,
                             r->batch_seqs, r->tp,     r->pp,     r->dp,    r->cp};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        assert(whole(counts[i]));
    assert(whole_or_unknown(r->kv_heads) && whole_or_unknown(r->ffn));
    assert(whole_or_unknown(r->vocab) && whole_or_unknown(r->micro_batch));
    assert(whole_or_unknown(r->vp));
    assert(isnan(r->params) || r->params > 0);
    assert(r->cp * r->tp * r->pp * r->dp == r->gpus);
    assert(fmod(r->batch_seqs, r->dp) == 0);
    assert(is_switch(r->fsdp) && is_switch(r->fp8_params) && is_switch(r->optimizer_precision));
    assert(is_switch(r->sequence_parallel) && is_switch(r->flash_attention));
    assert(is_switch(r->tp_overlap) && is_switch(r->distributed_optimizer));
    assert(isfinite(r->value) && r->value > 0);
    assert(r->convention && r->convention[0] != '\0');
    assert(isfinite(r->step_time_s) && r->step_time_s > 0);
    assert(isfinite(r->tokens_per_s) && r->tokens_per_s > 0);
}

/* The fit on the rows the model could evaluate (use), and leave-out. */
static void check_fit(const struct gmeas_list *l, const unsigned char *use)
{
    struct gpu_fit_data d = {.rows = l->rows, .n = l->n};
    for (int k = 0; k < GMEAS_NGPUS; k++)
        d.gpu[k] = &gpus[k];
    struct cp_error err = {0};
    struct gpu_fit_result res;
    cp_status st = gpu_fit_run(&d, use, &res, &err);
    fuzz_check(st, &err);
    if (st == CP_OK)
        assert(res.rows >= 1 && res.rows <= l->n);
    struct gpu_fit_loso out[FUZZ_FIT_ROWS];
    err.msg[0] = '\0';
    st = gpu_fit_leave_source_out(&d, out, &err);
    fuzz_check(st, &err);
    for (size_t i = 0; st == CP_OK && i < l->n; i++)
        assert(!isnan(out[i].step_s) || out[i].why[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    if (lines <= FUZZ_FIT_ROWS + 1)
        check_validate(text, size);
    struct cp_error err = {0};
    struct gmeas_list l;
    cp_status st = gmeas_parse(text, "fuzz.csv", &l, &err);
    fuzz_check(st, &err);
    if (st != CP_OK) {
        assert(strncmp(err.msg, "fuzz.csv:", 9) == 0);
        assert(l.n == 0 && l.rows == NULL);
        free(text);
        return 0;
    }
    assert(l.n >= 1 && l.n <= GMEAS_MAX_ROWS && l.rows);
    unsigned char use[FUZZ_FIT_ROWS];
    for (size_t i = 0; i < l.n; i++) {
        const struct gmeas_row *r = &l.rows[i];
        check_row(r);
        struct gpu_result res;
        err.msg[0] = '\0';
        st = gpu_run_eval(&gpus[r->gpu], r, &res, &err);
        fuzz_check(st, &err);
        if (i < FUZZ_FIT_ROWS)
            use[i] = st == CP_OK;
    }
    if (l.n <= FUZZ_FIT_ROWS)
        check_fit(&l, use);
    gmeas_list_free(&l);
    free(text);
    return 0;
}
