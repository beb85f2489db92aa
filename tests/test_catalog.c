/* test_catalog.c - finding descriptions by name (src/desc/catalog.h): the
 * built-in copies, a --data-dir style directory made in a temporary
 * directory, explicit paths, listing, and every shipped file loading clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "desc/catalog.h"
#include "desc/gpuhw.h"
#include "desc/hw.h"
#include "desc/wl.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the temporary data directory ----
 *
 *   ROOT/models/x.ini          a small valid model
 *   ROOT/models/gpt3-175b.ini  shadows the built-in one
 *   ROOT/models/bin.ini        contains a NUL byte
 *   ROOT/models/dirx.ini/      a directory where a file is expected
 *   ROOT/models/bad name.ini   not a valid name: never listed
 *   ROOT/models/notes.txt      not .ini: never listed
 *   ROOT/models/.ini           no name: never listed
 *   ROOT/hw/tiny.ini           a small valid hardware description
 *   ROOT/second/models/x.ini   a second search directory (loses to ROOT)
 *   ROOT/second/models/y.ini   found only in the second directory
 *   ROOT/neither.ini           no [model] or [system]
 *   ROOT/big.ini               larger than 1 MiB
 *   ROOT/local.ini             a model, for the "NAME.ini" form */

static char root[64];

static const char model_x[] = "[model]\n"
                              "name = X from data dir\n"
                              "layers = 3\n"
                              "hidden = 192\n"
                              "heads = 3\n"
                              "seq_len = 128\n"
                              "vocab = 1000\n"
                              "tokens = 2.385e9\n"
                              "batch = 8\n";

static const char hw_tiny[] = "[system]\n"
                              "name = Tiny\n"
                              "peak_flops = 1.5 PFLOP/s\n"
                              "sram = 1 GB\n"
                              "io_bandwidth = 10 GB/s\n"
                              "utilization = 0.5\n"
                              "power = 1 kW\n"
                              "max_matmul_dim = 1000\n"
                              "[memoryx]\n"
                              "capacity = 1 TB\n"
                              "dram = 1 TB\n"
                              "bandwidth = 10 GB/s\n"
                              "bytes_per_param = 16 B\n"
                              "update_flops = 1 TFLOP/s\n"
                              "[swarmx]\n"
                              "fanout = 2\n"
                              "link_bandwidth = 10 GB/s\n"
                              "hop_latency = 1 us\n";

static void path_of(char *buf, size_t n, const char *rel)
{
    snprintf(buf, n, "%s/%s", root, rel);
}

static int write_file(const char *rel, const char *data, size_t len)
{
    char p[PATH_MAX];
    path_of(p, sizeof p, rel);
    FILE *f = fopen(p, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

static int make_dir(const char *rel)
{
    char p[PATH_MAX];
    path_of(p, sizeof p, rel);
    return mkdir(p, 0755);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/cp-test-catalog-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    static const char *const dirs[] = {"models", "hw", "second", "second/models",
                                       "models/dirx.ini"};
    for (size_t i = 0; i < NELEM(dirs); i++)
        if (make_dir(dirs[i]) != 0)
            return -1;
    static const char shadow[] = "[model]\nname = shadowed GPT-3\nlayers = 2\nhidden = 64\n"
                                 "heads = 2\nseq_len = 64\nvocab = 100\ntokens = 1e6\nbatch = 4\n";
    static const char bin[] = "[model]\nlayers = 2\0binary\n";
    static const char second_x[] = "[model]\nname = X from second\n";
    static const char neither[] = "# a file with no sections\nkey = value\n";
    int rc = 0;
    rc |= write_file("models/x.ini", model_x, strlen(model_x));
    rc |= write_file("models/gpt3-175b.ini", shadow, strlen(shadow));
    rc |= write_file("models/bin.ini", bin, sizeof bin - 1);
    rc |= write_file("models/bad name.ini", model_x, strlen(model_x));
    rc |= write_file("models/notes.txt", model_x, strlen(model_x));
    rc |= write_file("models/.ini", model_x, strlen(model_x));
    rc |= write_file("hw/tiny.ini", hw_tiny, strlen(hw_tiny));
    rc |= write_file("second/models/x.ini", second_x, strlen(second_x));
    rc |= write_file("second/models/y.ini", model_x, strlen(model_x));
    rc |= write_file("neither.ini", neither, strlen(neither));
    rc |= write_file("local.ini", model_x, strlen(model_x));
    /* just over 1 MiB of comment lines, starting with a [model] header */
    size_t big_n = (1u << 20) + 100;
    char *big = malloc(big_n);
    if (!big)
        return -1;
    memset(big, '#', big_n);
    memcpy(big, "[model]\n", 8);
    for (size_t i = 80; i < big_n; i += 80)
        big[i] = '\n';
    rc |= write_file("big.ini", big, big_n);
    free(big);
    return rc;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static int teardown(void **state)
{
    (void)state;
    if (!root[0])
        return 0;
    return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- helpers ---- */

static void check_msg(const struct cp_error *err, cp_status st, cp_status want,
                      const char *contains, const char *file, int line)
{
    if (st != want) {
        print_error("%s:%d: status %d, want %d; message \"%s\"\n", file, line, st, want,
                    st == CP_OK ? "" : err->msg);
        _fail(file, line);
    }
    if (contains && strstr(err->msg, contains) == NULL) {
        print_error("%s:%d: message \"%s\"\n    does not contain \"%s\"\n", file, line, err->msg,
                    contains);
        _fail(file, line);
    }
}
#define assert_msg(err, st, want, contains)                                                        \
    check_msg(&(err), (st), (want), (contains), __FILE__, __LINE__)

static void data_dirs(struct cat_dirs *d)
{
    static char second[96];
    snprintf(second, sizeof second, "%s/second", root);
    d->n = 2;
    d->dir[0] = root;
    d->dir[1] = second;
}

/* ---- built-in copies ---- */

static void test_resolve_builtin(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};

    assert_ok(cat_resolve(&none, "gpt3-175b", CAT_ANY, &e, &err), err);
    assert_int_equal(e.kind, CAT_MODEL);
    assert_string_equal(e.name, "gpt3-175b");
    assert_string_equal(e.origin, "<built-in>/models/gpt3-175b.ini");
    assert_non_null(strstr(e.text, "name = GPT-3 175B"));
    cat_entry_free(&e);
    assert_null(e.text);

    assert_ok(cat_resolve(&none, "cs2", CAT_ANY, &e, &err), err);
    assert_int_equal(e.kind, CAT_HW);
    assert_string_equal(e.origin, "<built-in>/hw/cs2.ini");
    assert_int_equal(cat_kind_of(e.text), CAT_HW);
    cat_entry_free(&e);

    assert_ok(cat_resolve(&none, "cs3", CAT_HW, &e, &err), err);
    assert_string_equal(e.name, "cs3");
    cat_entry_free(&e);

    /* the wrong kind asked for: not found, naming the kind */
    cp_status st = cat_resolve(&none, "cs2", CAT_MODEL, &e, &err);
    assert_msg(err, st, CP_ENOTFOUND, "no model description named 'cs2'");
    st = cat_resolve(&none, "gpt3-175b", CAT_HW, &e, &err);
    assert_msg(err, st, CP_ENOTFOUND, "no hardware description named 'gpt3-175b'");
}

static void test_resolve_unknown_name(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    cp_status st = cat_resolve(&none, "gpt5", CAT_ANY, &e, &err);
    assert_msg(err, st, CP_ENOTFOUND,
               "no model or hardware description named 'gpt5' (try 'cerebras-plan list')");
    assert_null(e.text);
    struct cat_dirs d;
    data_dirs(&d);
    st = cat_resolve(&d, "nothing-here", CAT_ANY, &e, &err);
    assert_msg(err, st, CP_ENOTFOUND, "named 'nothing-here'");
}

static void test_resolve_invalid_name(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    static const char *const bad[] = {"", "bad name", "a;b", "x\ty", "gpt3-175b?"};
    for (size_t i = 0; i < NELEM(bad); i++) {
        char want[64];
        snprintf(want, sizeof want, "'%s' is not a valid description name", bad[i]);
        cp_status st = cat_resolve(&none, bad[i], CAT_ANY, &e, &err);
        assert_msg(err, st, CP_EINPUT, want);
    }
    char longname[CAT_NAME_MAX + 2];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    cp_status st = cat_resolve(&none, longname, CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EINPUT, "is not a valid description name");
}

/* ---- directories ---- */

static void test_data_dir_takes_precedence(void **state)
{
    (void)state;
    struct cat_dirs d;
    data_dirs(&d);
    struct cat_entry e;
    struct cp_error err = {0};
    char want[PATH_MAX];

    /* shadows the built-in */
    assert_ok(cat_resolve(&d, "gpt3-175b", CAT_ANY, &e, &err), err);
    path_of(want, sizeof want, "models/gpt3-175b.ini");
    assert_string_equal(e.origin, want);
    assert_non_null(strstr(e.text, "shadowed GPT-3"));
    cat_entry_free(&e);

    /* a name only the directory has */
    assert_ok(cat_resolve(&d, "x", CAT_MODEL, &e, &err), err);
    path_of(want, sizeof want, "models/x.ini");
    assert_string_equal(e.origin, want);
    assert_string_equal(e.name, "x");
    assert_int_equal(e.kind, CAT_MODEL);
    assert_string_equal(e.text, model_x);
    cat_entry_free(&e);

    /* the first directory wins over the second */
    assert_ok(cat_resolve(&d, "x", CAT_ANY, &e, &err), err);
    assert_null(strstr(e.text, "X from second"));
    cat_entry_free(&e);
    assert_ok(cat_resolve(&d, "y", CAT_ANY, &e, &err), err);
    path_of(want, sizeof want, "second/models/y.ini");
    assert_string_equal(e.origin, want);
    cat_entry_free(&e);

    /* hardware from the directory; built-ins still reachable */
    assert_ok(cat_resolve(&d, "tiny", CAT_ANY, &e, &err), err);
    assert_int_equal(e.kind, CAT_HW);
    cat_entry_free(&e);
    assert_ok(cat_resolve(&d, "cs3", CAT_ANY, &e, &err), err);
    assert_string_equal(e.origin, "<built-in>/hw/cs3.ini");
    cat_entry_free(&e);

    /* a missing directory in the list is skipped */
    struct cat_dirs m = {.n = 2, .dir = {"/nonexistent/cp-test", root}};
    assert_ok(cat_resolve(&m, "x", CAT_ANY, &e, &err), err);
    cat_entry_free(&e);
}

static void test_data_dir_binary_file(void **state)
{
    (void)state;
    struct cat_dirs d;
    data_dirs(&d);
    struct cat_entry e;
    struct cp_error err = {0};
    cp_status st = cat_resolve(&d, "bin", CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EINPUT, "bin.ini: binary data (a NUL byte)");
    assert_null(e.text);
}

/* A read error (here EISDIR, a directory named like a description) is
 * CP_EIO, as catalog.h promises ("CP_EIO if a file cannot be read"). */
static void test_read_error_is_eio(void **state)
{
    (void)state;
    struct cat_dirs d;
    data_dirs(&d);
    struct cat_entry e;
    struct cp_error err = {0};
    cp_status st = cat_resolve(&d, "dirx", CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EIO, "dirx.ini");
}

/* ---- explicit paths ---- */

static void test_explicit_path(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    char p[PATH_MAX];

    /* a path with '/', under any directory name */
    path_of(p, sizeof p, "hw/tiny.ini");
    assert_ok(cat_resolve(&none, p, CAT_ANY, &e, &err), err);
    assert_int_equal(e.kind, CAT_HW); /* kind from the text */
    assert_string_equal(e.name, "tiny");
    assert_string_equal(e.origin, p);
    cat_entry_free(&e);
    path_of(p, sizeof p, "second/models/y.ini");
    assert_ok(cat_resolve(&none, p, CAT_MODEL, &e, &err), err);
    assert_string_equal(e.name, "y");
    cat_entry_free(&e);

    /* the explicit path wins even when a built-in has the same base name */
    path_of(p, sizeof p, "models/gpt3-175b.ini");
    assert_ok(cat_resolve(&none, p, CAT_ANY, &e, &err), err);
    assert_non_null(strstr(e.text, "shadowed"));
    cat_entry_free(&e);

    /* a name ending in .ini, relative to the working directory */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(root), 0);
    cp_status st = cat_resolve(&none, "local.ini", CAT_ANY, &e, &err);
    struct cat_entry e2;
    struct cp_error err2 = {0};
    cp_status st2 = cat_resolve(&none, "absent.ini", CAT_ANY, &e2, &err2);
    assert_int_equal(chdir(cwd), 0);
    assert_ok(st, err);
    assert_int_equal(e.kind, CAT_MODEL);
    assert_string_equal(e.name, "local");
    assert_string_equal(e.origin, "local.ini");
    assert_string_equal(e.text, model_x);
    cat_entry_free(&e);
    assert_msg(err2, st2, CP_EIO, "absent.ini: No such file or directory");

    /* a path that does not exist: EIO naming it */
    path_of(p, sizeof p, "models/absent.ini");
    st = cat_resolve(&none, p, CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EIO, "absent.ini: No such file or directory");
}

static void test_explicit_path_wrong_kind(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    char p[PATH_MAX], want[PATH_MAX + 64];

    path_of(p, sizeof p, "neither.ini");
    cp_status st = cat_resolve(&none, p, CAT_ANY, &e, &err);
    snprintf(want, sizeof want, "%s:1: expected a [model] or [system] section", p);
    assert_msg(err, st, CP_EINPUT, want);
    assert_null(e.text);

    path_of(p, sizeof p, "hw/tiny.ini");
    st = cat_resolve(&none, p, CAT_MODEL, &e, &err);
    assert_msg(err, st, CP_EINPUT, "expected a [model] section (a model description)");
    path_of(p, sizeof p, "models/x.ini");
    st = cat_resolve(&none, p, CAT_HW, &e, &err);
    assert_msg(err, st, CP_EINPUT, "expected a [system] section (a hardware description)");
}

static void test_explicit_path_binary_and_big(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    char p[PATH_MAX];
    path_of(p, sizeof p, "models/bin.ini");
    cp_status st = cat_resolve(&none, p, CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EINPUT, "binary data (a NUL byte)");
    path_of(p, sizeof p, "big.ini");
    st = cat_resolve(&none, p, CAT_ANY, &e, &err);
    assert_msg(err, st, CP_EINPUT, "larger than 1 MiB");
    assert_null(e.text);
}

/* A missing explicit file is CP_EIO, and the error record says the same
 * status as the return value. */
static void test_err_status_matches_returned_status(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_entry e;
    struct cp_error err = {0};
    char p[PATH_MAX];
    path_of(p, sizeof p, "models/absent.ini");
    cp_status st = cat_resolve(&none, p, CAT_ANY, &e, &err);
    assert_int_equal(st, CP_EIO);
    assert_int_equal(err.status, st);
    struct cat_entry gone = {.kind = CAT_MODEL, .name = "absent"};
    path_of(gone.origin, sizeof gone.origin, "models/absent.ini");
    st = cat_open(&gone, &e, &err);
    assert_int_equal(st, CP_EIO);
    assert_int_equal(err.status, st);
}

/* ---- listing ---- */

static void test_list_builtin(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&none, CAT_ANY, &l, &err), err);
    /* models first, then hardware, each in natural order (runs of digits
     * compare as numbers: 10t, 24t, 100t; llama2-7b before llama2-70b;
     * '-' sorts before the digits, so llama-7b before llama2-7b) */
    static const char *const want[] = {
        "10t",         "24t",          "100t",        "120t",          "bert-large",
        "gpt2-small",  "gpt3-175b",    "gpt3-xl",     "gptj-6b",       "llama-7b",
        "llama2-7b",   "llama2-70b",   "llama3-8b",   "llama3-70b",    "llama3.1-8b",
        "llama3.1-70b", "llama3.1-405b", "megatron-1t", "nemotron4-15b", "nemotron4-340b",
        "a100",        "b200",         "cs2",         "cs3",           "gb200",
        "h100",        "h200"};
    const size_t nmodels = 20;
    assert_int_equal(l.n, NELEM(want));
    for (size_t i = 0; i < l.n; i++) {
        assert_string_equal(l.items[i].name, want[i]);
        assert_int_equal(l.items[i].kind, i < nmodels ? CAT_MODEL : CAT_HW);
        assert_null(l.items[i].text);
        char origin[128];
        snprintf(origin, sizeof origin, "<built-in>/%s/%s.ini", i < nmodels ? "models" : "hw",
                 want[i]);
        assert_string_equal(l.items[i].origin, origin);
    }
    cat_list_free(&l);
    assert_int_equal(l.n, 0);
    assert_null(l.items);

    assert_ok(cat_list(&none, CAT_MODEL, &l, &err), err);
    assert_int_equal(l.n, nmodels);
    cat_list_free(&l);
    assert_ok(cat_list(&none, CAT_HW, &l, &err), err);
    assert_int_equal(l.n, NELEM(want) - nmodels);
    for (size_t i = 0; i < l.n; i++)
        assert_string_equal(l.items[i].name, want[nmodels + i]);
    cat_list_free(&l);
    /* everything listed is also embedded, and so are reports/claims.csv,
     * the eight gnuplot scripts of the report (breakdown, capacity,
     * compare, crosscheck, models, scaling, sparsity, validation),
     * hw/measurements.csv, hw/gpu-measurements.csv and
     * hw/gpu-measurements-holdout.csv (data files beside the descriptions,
     * which the listing leaves out) */
    assert_int_equal(cat_nembedded, NELEM(want) + 1 + 8 + 3);
    static const char *const scripts[] = {"breakdown.gp",  "capacity.gp",  "compare.gp",
                                          "crosscheck.gp", "models.gp",    "scaling.gp",
                                          "sparsity.gp",   "validation.gp"};
    for (size_t i = 0; i < NELEM(scripts); i++) {
        struct cat_entry sc;
        assert_ok(cat_find_data(&none, "reports", scripts[i], &sc, &err), err);
        cat_entry_free(&sc);
    }
    struct cat_entry meas;
    assert_ok(cat_find_data(&none, "hw", "measurements.csv", &meas, &err), err);
    assert_string_equal(meas.origin, "<built-in>/hw/measurements.csv");
    cat_entry_free(&meas);
    assert_ok(cat_find_data(&none, "hw", "gpu-measurements.csv", &meas, &err), err);
    assert_string_equal(meas.origin, "<built-in>/hw/gpu-measurements.csv");
    cat_entry_free(&meas);
    /* ...and it is not a description that can be named */
    struct cat_entry e;
    assert_int_equal(cat_resolve(&none, "measurements.csv", CAT_HW, &e, &err), CP_ENOTFOUND);
    struct cat_entry gp;
    assert_ok(cat_find_data(&none, "reports", "scaling.gp", &gp, &err), err);
    assert_string_equal(gp.origin, "<built-in>/reports/scaling.gp");
    cat_entry_free(&gp);
}

static void test_list_with_dirs(void **state)
{
    (void)state;
    struct cat_dirs d;
    data_dirs(&d);
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&d, CAT_ANY, &l, &err), err);
    /* models: 20 built-in + bin, x, y; hw: 7 (2 weight-streaming, 5 GPU) +
     * tiny.  "bad name", ".ini",
     * notes.txt and the directory dirx.ini are skipped. */
    static const char *const want[] = {"10t",
                                       "24t",
                                       "100t",
                                       "120t",
                                       "bert-large",
                                       "bin",
                                       "gpt2-small",
                                       "gpt3-175b",
                                       "gpt3-xl",
                                       "gptj-6b",
                                       "llama-7b",
                                       "llama2-7b",
                                       "llama2-70b",
                                       "llama3-8b",
                                       "llama3-70b",
                                       "llama3.1-8b",
                                       "llama3.1-70b",
                                       "llama3.1-405b",
                                       "megatron-1t",
                                       "nemotron4-15b",
                                       "nemotron4-340b",
                                       "x",
                                       "y",
                                       "a100",
                                       "b200",
                                       "cs2",
                                       "cs3",
                                       "gb200",
                                       "h100",
                                       "h200",
                                       "tiny"};
    if (l.n != NELEM(want)) {
        for (size_t i = 0; i < l.n; i++)
            print_error("  listed %s (%s)\n", l.items[i].name, l.items[i].origin);
    }
    assert_int_equal(l.n, NELEM(want));
    char p[PATH_MAX];
    for (size_t i = 0; i < l.n; i++) {
        assert_string_equal(l.items[i].name, want[i]);
        if (strcmp(want[i], "gpt3-175b") == 0) { /* the directory's copy wins */
            path_of(p, sizeof p, "models/gpt3-175b.ini");
            assert_string_equal(l.items[i].origin, p);
        }
        if (strcmp(want[i], "x") == 0) {
            path_of(p, sizeof p, "models/x.ini");
            assert_string_equal(l.items[i].origin, p);
        }
        if (strcmp(want[i], "y") == 0) {
            path_of(p, sizeof p, "second/models/y.ini");
            assert_string_equal(l.items[i].origin, p);
        }
    }
    cat_list_free(&l);
}

static void test_open_listed(void **state)
{
    (void)state;
    struct cat_dirs d;
    data_dirs(&d);
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&d, CAT_MODEL, &l, &err), err);
    int seen_x = 0, seen_builtin = 0;
    for (size_t i = 0; i < l.n; i++) {
        struct cat_entry e;
        if (strcmp(l.items[i].name, "x") == 0) {
            assert_ok(cat_open(&l.items[i], &e, &err), err);
            assert_string_equal(e.text, model_x);
            assert_string_equal(e.origin, l.items[i].origin);
            cat_entry_free(&e);
            seen_x = 1;
        } else if (strcmp(l.items[i].name, "llama2-70b") == 0) {
            assert_ok(cat_open(&l.items[i], &e, &err), err);
            assert_non_null(strstr(e.text, "Llama 2 70B"));
            cat_entry_free(&e);
            seen_builtin = 1;
        }
    }
    assert_true(seen_x && seen_builtin);
    cat_list_free(&l);

    /* an entry that is not (or no longer) there */
    struct cat_entry gone = {
        .kind = CAT_MODEL, .name = "nope", .origin = "<built-in>/models/nope.ini"};
    struct cat_entry e;
    cp_status st = cat_open(&gone, &e, &err);
    assert_msg(err, st, CP_ENOTFOUND, "<built-in>/models/nope.ini: not built in");
    struct cat_entry file_gone = {.kind = CAT_MODEL, .name = "nope"};
    path_of(file_gone.origin, sizeof file_gone.origin, "models/nope.ini");
    st = cat_open(&file_gone, &e, &err);
    assert_msg(err, st, CP_EIO, "nope.ini: No such file or directory");
}

/* Every shipped description loads without error, with its checks. */
static void test_every_shipped_file_loads(void **state)
{
    (void)state;
    struct cat_dirs none = {0};
    struct cat_list l;
    struct cp_error err = {0};
    assert_ok(cat_list(&none, CAT_ANY, &l, &err), err);
    assert_int_equal(l.n, 27);
    for (size_t i = 0; i < l.n; i++) {
        struct cat_entry e;
        assert_ok(cat_open(&l.items[i], &e, &err), err);
        assert_int_equal(cat_kind_of(e.text), l.items[i].kind);
        struct desc_src src;
        cp_status st;
        if (l.items[i].kind == CAT_MODEL) {
            struct wl_desc w;
            st = wl_load(e.text, e.origin, NULL, 0, &w, &src, &err);
            if (st == CP_OK && w.name[0] == '\0') {
                print_error("%s: no name\n", e.origin);
                fail();
            }
        } else if (gpuhw_kind_of(e.text) == GPUHW_GPU) {
            struct gpuhw_desc g;
            st = gpuhw_load(e.text, e.origin, NULL, 0, &g, &src, &err);
        } else {
            struct hw_desc h;
            st = hw_load(e.text, e.origin, NULL, 0, &h, &src, &err);
            if (st == CP_OK && h.mx.tiers.n == 0) {
                print_error("%s: no [tiers]\n", e.origin);
                fail();
            }
        }
        if (st != CP_OK) {
            print_error("%s: %s\n", e.origin, err.msg);
            fail();
        }
        assert_string_equal(src.origin, e.origin);
        cat_entry_free(&e);
    }
    cat_list_free(&l);
}

/* ---- kind and search path ---- */

static void test_kind_of(void **state)
{
    (void)state;
    assert_int_equal(cat_kind_of("[model]\nlayers = 1\n"), CAT_MODEL);
    assert_int_equal(cat_kind_of("# comment\n\n  \t[model]\n"), CAT_MODEL);
    assert_int_equal(cat_kind_of("[system]\n"), CAT_HW);
    assert_int_equal(cat_kind_of("; x\r\n[system] ; the wafer\r\n"), CAT_HW);
    assert_int_equal(cat_kind_of("\xEF\xBB\xBF[model]\n"), CAT_MODEL); /* UTF-8 BOM */
    assert_int_equal(cat_kind_of(""), CAT_ANY);
    assert_int_equal(cat_kind_of("# [model]\n"), CAT_ANY);
    assert_int_equal(cat_kind_of("[models]\n[systems]\n"), CAT_ANY);
    assert_int_equal(cat_kind_of("[memoryx]\ncapacity = 1 TB\n"), CAT_ANY);
    assert_int_equal(cat_kind_of("key = [model]\n"), CAT_ANY);
    /* the first of the two wins */
    assert_int_equal(cat_kind_of("[system]\n[model]\n"), CAT_HW);
}

static void test_dirs_init(void **state)
{
    (void)state;
    struct cat_dirs d;
    struct cp_error err = {0};
    char env[] = "/a/b:rel/dir::/c:";
    assert_int_equal(cat_dirs_init(&d, "/data", env, "/usr/share/cerebras-plan", &err), CP_OK);
    assert_int_equal(d.n, 5);
    assert_string_equal(d.dir[0], "/data");
    assert_string_equal(d.dir[1], "/a/b");
    assert_string_equal(d.dir[2], "rel/dir");
    assert_string_equal(d.dir[3], "/c");
    assert_string_equal(d.dir[4], "/usr/share/cerebras-plan");

    assert_int_equal(cat_dirs_init(&d, NULL, NULL, "/inst", &err), CP_OK);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.dir[0], "/inst");

    char empty[] = "";
    assert_int_equal(cat_dirs_init(&d, "", empty, "", &err), CP_OK);
    assert_int_equal(d.n, 0);

    char colons[] = ":::";
    assert_int_equal(cat_dirs_init(&d, "/only", colons, NULL, &err), CP_OK);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.dir[0], "/only");

    /* exactly as many as fit: --data-dir, 62 path entries, installed */
    char fits[1024] = "";
    for (int i = 0; i < CAT_MAX_DIRS - 2; i++) {
        size_t o = strlen(fits);
        snprintf(fits + o, sizeof fits - o, "%s/p%d", i ? ":" : "", i);
    }
    char many[1024]; /* built now: cat_dirs_init splits fits in place */
    snprintf(many, sizeof many, "%s:/extra", fits);
    assert_int_equal(cat_dirs_init(&d, "/data", fits, "/inst", &err), CP_OK);
    assert_int_equal(d.n, CAT_MAX_DIRS);
    assert_string_equal(d.dir[1], "/p0");
    assert_string_equal(d.dir[CAT_MAX_DIRS - 1], "/inst");

    /* one more is an error, not a silently dropped directory */
    memset(&err, 0, sizeof err);
    assert_int_equal(cat_dirs_init(&d, "/data", many, "/inst", &err), CP_EINPUT);
    assert_non_null(strstr(err.msg, "more than 64 directories"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve_builtin),
        cmocka_unit_test(test_resolve_unknown_name),
        cmocka_unit_test(test_resolve_invalid_name),
        cmocka_unit_test(test_data_dir_takes_precedence),
        cmocka_unit_test(test_data_dir_binary_file),
        cmocka_unit_test(test_read_error_is_eio),
        cmocka_unit_test(test_explicit_path),
        cmocka_unit_test(test_explicit_path_wrong_kind),
        cmocka_unit_test(test_explicit_path_binary_and_big),
        cmocka_unit_test(test_err_status_matches_returned_status),
        cmocka_unit_test(test_list_builtin),
        cmocka_unit_test(test_list_with_dirs),
        cmocka_unit_test(test_open_listed),
        cmocka_unit_test(test_every_shipped_file_loads),
        cmocka_unit_test(test_kind_of),
        cmocka_unit_test(test_dirs_init),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
