/* fuzz_gpuhw.c - libFuzzer harness for GPU system descriptions and the
 * GPU model on them: any bytes, loaded as a GPU description (gpuhw_load,
 * src/desc/gpuhw.c), with and without an override, must give CP_OK or
 * CP_EINPUT with a message; never a crash, a hang or a leak.  A
 * description that loads then runs what `validate` and `estimate` run on
 * it: published runs of the built-in GPU corpus through the model
 * (gpu_run_eval, src/gpu/gpu_run.c), and the layout search
 * (gpu_search, src/gpu/gpu_search.c) of a small workload on a few GPU
 * counts.
 *
 * Asserted: gpuhw_kind_of() reads any text; a loaded description is of
 * kind GPU, named, with finite figures, a 16-bit peak above 0 and at
 * least one GPU a node; gpu_run_eval, the finiteness gate
 * (gpu_range_check) and gpu_search give CP_OK or CP_EINPUT with a
 * message; a search that succeeds keeps 1 to keep layouts, fastest first,
 * each one dividing the job (gpu_check) and fitting in memory, and, when
 * the gate passed, with finite figures (gpu_figures_check).
 *
 * Kept short: the override is one of FUZZ_SETS (picked by the input's
 * length: the tiny and huge figures of issue 30, item 4, among them), the
 * runs are the first of each kind in the corpus (FUZZ_RUNS at most), the
 * workloads are built-in models of 12 and 32 layers, and the GPU counts
 * are 1, 8 and 64 (FUZZ_GPUS): a search lists the divisors of the heads,
 * layers, sequence and batch, all small here, whatever the description
 * says.  Every search keeps the default spec's layouts (all free, least
 * recompute).
 *
 * Seeds: tests/fuzz/fuzz_gpuhw/ (the shipped GPU descriptions without
 * their comments, and variants of issue 30).  Built and run by
 * `make fuzz` and `make fuzz-smoke`. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#include "desc/catalog.h"
#include "desc/gmeas.h"
#include "desc/gpuhw.h"
#include "desc/wl.h"
#include "gpu/gpu.h"
#include "gpu/gpu_run.h"
#include "gpu/gpu_search.h"

#define FUZZ_RUNS 6

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const FUZZ_SETS[] = {
    "fit.matmul_efficiency=0.5",    "gpu.peak_bf16=1e-300 FLOP/s",   "system.node_power=1e308 W",
    "network.link_latency=1e308 s", "fit.comm_efficiency=5e-324",    "gpu.hbm_bandwidth=1e-300 B/s",
    "network.nvlink_domain=72",     "system.gpus_per_node=4",        "fit.step_overhead=1e308 s",
    "gpu.l2_cache=1e-300 B",        "fit.elementwise_bytes=1e308 B", "gpu.hbm=1 GB",
};
#define NSETS (sizeof FUZZ_SETS / sizeof FUZZ_SETS[0])

static const double FUZZ_GPUS[] = {1, 8, 64}; /* for the 12-layer model   */
#define FUZZ_GQA_GPUS 16                      /* for the 32-layer GQA one */
#define NGPUS (sizeof FUZZ_GPUS / sizeof FUZZ_GPUS[0])

static struct gmeas_list corpus;
static const struct gmeas_row *runs[FUZZ_RUNS];
static size_t nruns;
static struct wl_desc workloads[2];

/* The built-in file of kind and name, or abort. */
static const char *builtin(const char *kind, const char *name)
{
    for (size_t i = 0; i < cat_nembedded; i++)
        if (strcmp(cat_embedded[i].kind, kind) == 0 && strcmp(cat_embedded[i].name, name) == 0)
            return cat_embedded[i].text;
    abort();
}

/* The first run of each (quantity, precision, gpu) seen, FUZZ_RUNS at most. */
static void pick_runs(void)
{
    for (size_t i = 0; i < corpus.n && nruns < FUZZ_RUNS; i++) {
        const struct gmeas_row *r = &corpus.rows[i];
        size_t j = 0;
        while (j < nruns && !(runs[j]->quantity == r->quantity &&
                              runs[j]->precision == r->precision && runs[j]->gpu == r->gpu))
            j++;
        if (j == nruns)
            runs[nruns++] = r;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    struct cp_error err = {0};
    if (gmeas_parse(builtin("hw", "gpu-measurements.csv"), "gpu-measurements.csv", &corpus, &err) !=
        CP_OK)
        abort();
    pick_runs();
    const char *models[] = {"gpt2-small", "llama3-8b"};
    for (size_t i = 0; i < 2; i++)
        if (wl_load(builtin("models", models[i]), models[i], NULL, 0, &workloads[i], NULL, &err) !=
            CP_OK)
            abort();
    return 0;
}

static void check_desc(const struct gpuhw_desc *g)
{
    assert(g->kind == GPUHW_GPU);
    assert(memchr(g->name, '\0', sizeof g->name));
    const double fig[] = {g->chip.hbm_bytes,      g->chip.hbm_Bps,      g->chip.power_W,
                          g->chip.sm_count,       g->net.gpus_per_node, g->net.node_power_W,
                          g->net.nvlink_Bps,      g->net.nvlink_domain, g->net.scaleout_Bps,
                          g->net.link_latency_s,  g->fit.matmul_eff,    g->fit.comm_eff,
                          g->fit.step_overhead_s, g->fit.hbm_usable};
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
        assert(isfinite(fig[i]));
    for (int p = 0; p < GPUHW_NPRECS; p++)
        assert(isfinite(g->chip.peak_flops[p]) && g->chip.peak_flops[p] >= 0);
    assert(g->chip.peak_flops[GPUHW_BF16] > 0);
    assert(g->net.gpus_per_node >= 1);
}

/* The finiteness gate (gpu_range_check, as the commands run it before a
 * search: on gpus GPUs, at most gpus, one step's tokens, no price), then
 * the search; when the gate passed, every kept layout's figures are
 * finite (gpu_figures_check): the gate's probes bound what the search
 * can reach. */
static void check_search(const struct gpuhw_desc *g, const struct wl_desc *w, double gpus)
{
    struct cp_error err = {0};
    cp_status gate = gpu_range_check(g, w, gpus, gpus, w->batch * w->seq_len, NAN, &err);
    fuzz_check(gate, &err);
    struct gpu_search_spec s = gpu_search_spec_default(gpus);
    struct gpu_search_result r;
    err.msg[0] = '\0';
    cp_status st = gpu_search(g, w, &s, &r, &err);
    fuzz_check(st, &err);
    if (st != CP_OK)
        return;
    assert(r.n >= 1 && r.n <= s.keep && r.divided >= (double)r.n);
    for (size_t i = 0; i < r.n; i++) {
        const struct gpu_search_hit *h = &r.hit[i];
        assert(i == 0 || !(h->result.step_s < r.hit[i - 1].result.step_s));
        assert(h->result.fits);
        assert(gpu_check(g, w, &h->layout, &err) == CP_OK);
        assert(gate != CP_OK || gpu_figures_check(&h->result, NULL, "", &err) == CP_OK);
    }
}

/* What validate and estimate run on a loaded description. */
static void check_model(const struct gpuhw_desc *g)
{
    for (size_t i = 0; i < nruns; i++) {
        struct gpu_result res;
        struct cp_error err = {0};
        fuzz_check(gpu_run_eval(g, runs[i], &res, &err), &err);
    }
    for (size_t n = 0; n < NGPUS; n++)
        check_search(g, &workloads[0], FUZZ_GPUS[n]);
    check_search(g, &workloads[1], FUZZ_GQA_GPUS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    enum gpuhw_kind kind = gpuhw_kind_of(text);
    assert(kind == GPUHW_GPU || kind == GPUHW_WEIGHT_STREAMING);
    struct cp_error err = {0};
    struct gpuhw_desc g;
    cp_status st = gpuhw_load(text, "fuzz.ini", NULL, 0, &g, NULL, &err);
    fuzz_check(st, &err);
    if (st == CP_OK) {
        check_desc(&g);
        check_model(&g);
    }
    const char *set = FUZZ_SETS[size % NSETS];
    err.msg[0] = '\0';
    st = gpuhw_load(text, "fuzz.ini", &set, 1, &g, NULL, &err);
    fuzz_check(st, &err);
    if (st == CP_OK) {
        check_desc(&g);
        check_model(&g);
    }
    free(text);
    return 0;
}
