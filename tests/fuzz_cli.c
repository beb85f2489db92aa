/* fuzz_cli.c - libFuzzer harness for the command line (src/cli/main.c:
 * find_command, parse_options with getopt_long, and the commands behind
 * them): the input is an argument vector, split at newline and NUL bytes
 * (at most FUZZ_MAX_ARGS words), run through the program's main (compiled as
 * cp_main with -Dmain=cp_main, see the Makefile).
 *
 * Asserted: the exit status is one of the documented ones (cerebras-plan(1),
 * EXIT STATUS; EXIT_OK, EXIT_VERDICT, EXIT_USAGE in src/cli/cli.h); never a
 * crash, a hang, a leak or an exit().  Nothing in src/cli calls exit() on
 * these paths (explore's atexit handler and report's _exit in a forked
 * child are on excluded commands).
 *
 * Excluded, so a run cannot write files, wait for a terminal or take long
 * (the input is dropped, and kept out of the corpus, when any word is one
 * of these, whether command, option value or argument):
 *   report, calibrate, sweep   write files or directories (-o, --force)
 *   explore                    needs a terminal, runs until a key is pressed
 *   simulate, crosscheck       event-by-event simulation: seconds per run
 *   -o..., --ou...             -o/--output and its abbreviations
 *   --tr...                    --trace FILE (simulate)
 *   --u...                     --uncertainty: allowed only as --u...=N with
 *                              N at most FUZZ_MAX_SAMPLES (the default is 1000
 *                              draws, a count may follow as a separate
 *                              word), and not with scale (N draws a row, up
 *                              to 100000 rows: 100000 rows alone take 4 s)
 *   ...max_systems...          --set system.max_systems=N: plan scans every
 *                              N from 1 to it (src/plan/plan.c, scan()); N
 *                              is at most 1e6, but with --batch as large
 *                              that scan takes about 10 s under ASan
 * and, on GPUs (a word names a GPU system, a100 h100 h200 b200 gb200, or
 * holds "gpu" (--gpu, gpu:KEY, gpu.KEY), or is compare), each GPU count a
 * run evaluates is a layout search (about 1 ms, 10 under the sanitizers):
 *   --de...                    --deadline: plan and compare search GPU
 *                              counts upward, every one to 1,048,576 when
 *                              the deadline is out of reach (1 s, 7 s
 *                              under the sanitizers)
 *   a figure above FUZZ_GPU_MAX_FIGURE, in any word but the value of
 *                              --tokens, --price, --gpu-price (--to...,
 *                              --pr..., --gpu-p..., alone or with =) and a
 *                              --set of a key outside [model]: a search
 *                              lists the divisors of the heads, layers,
 *                              sequence and batch, and of the GPU count
 *                              (issue 30, item 3: hours at 1e12)
 *   a range (a word holding "..") with a figure above FUZZ_GPU_MAX_RANGE:
 *                              scale searches every count of it (4096
 *                              counts take 5 s, 40 under the sanitizers)
 * Figures are read with strtod() wherever a digit starts a number in a
 * word, with a unit prefix after it ("1e12", "0x1p40", "1 T", "1M").
 * `help report` and the like are dropped with them; their help text is a
 * constant.  Everything else is allowed: list, show, help, estimate, scale,
 * capacity, claims, plan, sensitivity, compare, validate (FILE arguments
 * name files of the source tree, such as the GPU corpora, or the built-in
 * corpora are read), options before any command,
 * --set, --hw-overlay and --data-dir (files are only read; the search path
 * is the built-in copies and --data-dir: CEREBRAS_PLAN_PATH is unset and
 * CEREBRAS_PLAN_DATADIR is ""), file arguments.
 *
 * stdout and stderr go to /dev/null (the streams, not the descriptors, so
 * libFuzzer's and the sanitizers' reports still show) and stdin reads
 * /dev/null.  getopt is reset before each run: parse_options() sets optind
 * to 1, which keeps glibc's position inside a short-option cluster left by
 * the previous run, so the harness sets optind = 0 and lets getopt
 * reinitialise first.
 *
 * fuzz_gcli (tests/fuzz_gcli.c) is this harness with FUZZ_GPU_ONLY: it
 * keeps only GPU runs and validate, and drops claims (seconds a run under
 * the sanitizers: every claim, GPU ones included), so that its slow
 * inputs (compare and validate take 0.3 to 1 s) have a budget of their
 * own and fuzz_cli keeps its pace on the rest.
 *
 * Seeds: tests/fuzz/fuzz_cli/ and tests/fuzz/fuzz_gcli/ (one argument a
 * line; the latter the GPU systems, compare and validate, with issue 30's
 * inputs).  Built and run by `make fuzz` and `make fuzz-smoke`. */
#include <assert.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#include "cli/cli.h"

int cp_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_quiet();
    return 0;
}

/* fuzz_gcli.c defines it as 1 (see the header). */
#ifndef FUZZ_GPU_ONLY
#define FUZZ_GPU_ONLY 0
#endif

/* The bounds on a GPU run's figures (see the header). */
#define FUZZ_GPU_MAX_FIGURE 65536.0
#define FUZZ_GPU_MAX_RANGE 64.0

/* 1 if the word a makes the run one on GPUs (see the header). */
static int gpu_word(const char *a)
{
    static const char *const names[] = {"a100", "h100", "h200", "b200", "gpu"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strstr(a, names[i]))
            return 1;
    return strcmp(a, "compare") == 0;
}

/* The largest |figure| in a: strtod() at each digit that starts a
 * number, times the unit prefix after it (k M G T P E: "1 T" is 1e12),
 * the scan going on after what it read ("1..8": 1 and 8); 0 if none,
 * infinity for a NaN. */
static double largest_figure(const char *a)
{
    double most = 0;
    for (const char *p = a; *p;) {
        if (*p < '0' || *p > '9') {
            p++;
            continue;
        }
        char *end;
        double v = fabs(strtod(p, &end));
        const char *u = end + strspn(end, " ");
        const char *prefix = *u ? strchr("kMGTPE", *u) : NULL;
        if (prefix)
            v *= pow(1e3, (double)(prefix - "kMGTPE" + 1));
        most = isnan(v) ? INFINITY : v > most ? v : most;
        p = end > p ? end : p + 1;
    }
    return most;
}

/* 1 if word a, after the word before (NULL for the first), is the value
 * of an option whose figure may be any size on GPUs (see the header). */
static int free_figure(const char *a, const char *before)
{
    static const char *const opts[] = {"--to", "--pr", "--gpu-p"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if ((fuzz_prefix(a, opts[i]) && strchr(a, '=')) ||
            (before && fuzz_prefix(before, opts[i]) && !strchr(before, '=')))
            return 1;
    return before && (strcmp(before, "--set") == 0 || strcmp(before, "--se") == 0) &&
           !fuzz_prefix(a, "model.");
}

/* 1 if any of the words makes the run one on GPUs. */
static int gpu_run(char **argv, int argc)
{
    for (int i = 1; i < argc; i++)
        if (gpu_word(argv[i]))
            return 1;
    return 0;
}

/* 1 if a GPU run of these words stays short (see the header); with
 * FUZZ_GPU_ONLY, 1 only for a GPU run or a validate, and never a claims. */
static int gpu_run_ok(char **argv, int argc)
{
    int gpu = gpu_run(argv, argc);
    if (FUZZ_GPU_ONLY) {
        int validate = 0, claims = 0;
        for (int i = 1; i < argc; i++) {
            validate |= strcmp(argv[i], "validate") == 0;
            claims |= strcmp(argv[i], "claims") == 0;
        }
        if ((!gpu && !validate) || claims)
            return 0;
    }
    for (int i = 1; gpu && i < argc; i++) {
        const char *before = i > 1 ? argv[i - 1] : NULL;
        double most = largest_figure(argv[i]);
        if (fuzz_prefix(argv[i], "--de") ||
            (most > FUZZ_GPU_MAX_FIGURE && !free_figure(argv[i], before)) ||
            (strstr(argv[i], "..") && most > FUZZ_GPU_MAX_RANGE))
            return 0;
    }
    return 1;
}

/* 1 if the word a may take part in a run (see the header); *scale is
 * set once "scale" has been seen. */
static int allowed(const char *a, int *scale)
{
    static const char *const cmds[] = {"report",  "calibrate", "sweep",
                                       "explore", "simulate",  "crosscheck"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(a, cmds[i]) == 0)
            return 0;
    if (fuzz_prefix(a, "-o") || fuzz_prefix(a, "--ou") || fuzz_prefix(a, "--tr") ||
        strstr(a, "max_systems"))
        return 0;
    if (strcmp(a, "scale") == 0)
        *scale = 1;
    return fuzz_samples_ok(a) && !(*scale && fuzz_prefix(a, "--u"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;

    char *argv[FUZZ_MAX_ARGS + 2];
    argv[0] = "cerebras-plan";
    int argc = fuzz_split(text, size, argv, 1);
    /* twice, so that "--u=5 scale" is refused as "scale --u=5" is */
    int scale = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < argc; i++)
            if (!allowed(argv[i], &scale)) {
                free(text);
                return -1;
            }
    if (!gpu_run_ok(argv, argc)) {
        free(text);
        return -1;
    }

    static char *none[] = {"fuzz_cli", NULL};
    optind = 0;
    (void)getopt(1, none, "");

    int rc = cp_main(argc, argv);
    assert(rc == EXIT_OK || rc == EXIT_VERDICT || rc == EXIT_USAGE);
    free(text);
    return 0;
}
