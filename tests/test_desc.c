/* test_desc.c - the description loader (src/desc/desc.h) through hw_load()
 * and wl_load(): every error kind names origin:line: section.key with the
 * exact line, and the success paths (defaults, derived defaults, --set,
 * chinchilla, tiers) fill the structs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc/desc.h"
#include "desc/hw.h"
#include "desc/wl.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- fixtures: valid descriptions, one key per line (line numbers are
 * what the error tests check) ---- */

static const char hw_ok[] = "[system]\n"                             /*  1 */
                            "name = Test WSE\n"                      /*  2 */
                            "peak_flops = 7.385 PFLOP/s\n"           /*  3 */
                            "sram = 40.25 GB\n"                      /*  4 */
                            "io_bandwidth = 1.2 Tb/s\n"              /*  5 */
                            "utilization = 45.5 %\n"                 /*  6 */
                            "power = 23.5 kW\n"                      /*  7 */
                            "max_matmul_dim = 100000\n"              /*  8 */
                            "[memoryx]\n"                            /*  9 */
                            "server_memory = 1128 GiB\n"             /* 10 */
                            "server_flash = 3.75 TiB\n"              /* 11 */
                            "server_network = 12.5 GB/s\n"           /* 12 */
                            "bytes_per_param = 20.5 B\n"             /* 13 */
                            "server_update_flops = 1.125 TFLOP/s\n"  /* 14 */
                            "[swarmx]\n"                             /* 15 */
                            "fanout = 3\n"                           /* 16 */
                            "link_bandwidth = 1.2 Tb/s\n"            /* 17 */
                            "hop_latency = 2.385 us\n"               /* 18 */
                            "[system]\n"                             /* 19 */
                            "util_half_tokens = 2048\n"              /* 20 */
                            "[memoryx]\n"                            /* 21 */
                            "update_flop_per_param = 12 FLOP\n"      /* 22 */
                            "server_memory_bandwidth = 238.5 GB/s\n" /* 23 */
                            "server_flash_bandwidth = 5.5 GB/s\n"    /* 24 */
                            "boundary_overlap = 0\n"                 /* 25 */
                            "server_power = 1.25 kW\n"               /* 26 */
                            "[swarmx]\n"                             /* 27 */
                            "chunk = 1 MB\n"                         /* 28 */
                            "node_power = 1 kW\n"                    /* 29 */
                            "reduce_bandwidth = 450 GB/s\n"          /* 30 */
                            "[activation]\n"                         /* 31 */
                            "server_memory = 183 GiB\n"              /* 32 */
                            "server_network = 23.85 GB/s\n"          /* 33 */
                            "server_power = 0.5 kW\n"                /* 34 */
                            "[sparsity]\n"                           /* 35 */
                            "index_bytes = 0.5 B\n"                  /* 36 */
                            "overhead = 0.02\n"                      /* 37 */
                            "[batch]\n"                              /* 38 */
                            "critical_tokens = 2e8\n"                /* 39 */
                            "critical_exponent = 0.21\n"             /* 40 */
                            "loss_params = 8.8e13\n"                 /* 41 */
                            "loss_exponent = 0.076\n"                /* 42 */
                            "[system]\n"                             /* 43 */
                            "max_systems = 192\n"                    /* 44 */
                            "[tiers]\n"                              /* 45 */
                            "small = 1.5 TB\n"                       /* 46 */
                            "big = 2.4 PB\n";                        /* 47 */

static const char wl_ok[] = "[model]\n"         /* 1 */
                            "name = Test GPT\n" /* 2 */
                            "layers = 24\n"     /* 3 */
                            "hidden = 2048\n"   /* 4 */
                            "heads = 16\n"      /* 5 */
                            "seq_len = 2048\n"  /* 6 */
                            "vocab = 50257\n"   /* 7 */
                            "tokens = 300e9\n"  /* 8 */
                            "batch = 512\n";    /* 9 */

#define ORIGIN "t.ini"

/* base with line n (1-based) replaced by repl ("" deletes the line's text but
 * keeps the line, so numbering is unchanged; repl may hold several lines).
 * n == 0 prepends repl; n past the end appends it.  Caller frees. */
static char *edit(const char *base, int n, const char *repl)
{
    size_t cap = strlen(base) + strlen(repl) + 4;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    int line = 1;
    const char *p = base;
    if (n == 0)
        snprintf(out, cap, "%s\n", repl);
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t o = strlen(out);
        if (line == n)
            snprintf(out + o, cap - o, "%s\n", repl);
        else
            snprintf(out + o, cap - o, "%.*s\n", (int)len, p);
        p += len + (nl ? 1 : 0);
        line++;
    }
    if (n >= line) {
        size_t o = strlen(out);
        snprintf(out + o, cap - o, "%s\n", repl);
    }
    return out;
}

static void check_msg(const struct cp_error *err, cp_status st, const char *prefix,
                      const char *contains, const char *file, int line)
{
    if (st != CP_EINPUT) {
        print_error("%s:%d: status %d, want CP_EINPUT (%d); message \"%s\"\n", file, line, st,
                    CP_EINPUT, st == CP_OK ? "" : err->msg);
        _fail(file, line);
    }
    if (err->status != CP_EINPUT) {
        print_error("%s:%d: err.status %d, want CP_EINPUT\n", file, line, err->status);
        _fail(file, line);
    }
    if (strncmp(err->msg, prefix, strlen(prefix)) != 0) {
        print_error("%s:%d: message \"%s\"\n    does not start with \"%s\"\n", file, line, err->msg,
                    prefix);
        _fail(file, line);
    }
    if (contains && strstr(err->msg, contains) == NULL) {
        print_error("%s:%d: message \"%s\"\n    does not contain \"%s\"\n", file, line, err->msg,
                    contains);
        _fail(file, line);
    }
}
#define assert_msg(err, st, prefix, contains)                                                      \
    check_msg(&(err), (st), (prefix), (contains), __FILE__, __LINE__)

/* Equal to within rounding: values that went through a unit conversion. */
#define assert_close(got, want) check_rel((got), (want), 1e-15, #got, __FILE__, __LINE__)

/* Load wl_ok with line n replaced by repl; expect an error starting with
 * prefix and containing contains. */
static void wl_expect(int n, const char *repl, const char *prefix, const char *contains,
                      const char *file, int line)
{
    char *text = edit(wl_ok, n, repl);
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    cp_status st = wl_load(text, ORIGIN, NULL, 0, &w, &src, &err);
    free(text); /* before a failing check jumps out */
    check_msg(&err, st, prefix, contains, file, line);
}
#define WL_EXPECT(n, repl, prefix, contains)                                                       \
    wl_expect((n), (repl), (prefix), (contains), __FILE__, __LINE__)

static void hw_expect(int n, const char *repl, const char *prefix, const char *contains,
                      const char *file, int line)
{
    char *text = edit(hw_ok, n, repl);
    struct hw_desc h;
    struct desc_src src;
    struct cp_error err = {0};
    cp_status st = hw_load(text, ORIGIN, NULL, 0, &h, &src, &err);
    free(text); /* before a failing check jumps out */
    check_msg(&err, st, prefix, contains, file, line);
}
#define HW_EXPECT(n, repl, prefix, contains)                                                       \
    hw_expect((n), (repl), (prefix), (contains), __FILE__, __LINE__)

/* ---- success ---- */

static void test_edit_helper(void **state)
{
    (void)state;
    char *t = edit("a\nb\nc\n", 2, "X\nY");
    assert_string_equal(t, "a\nX\nY\nc\n");
    free(t);
    t = edit("a\nb\n", 0, "Z");
    assert_string_equal(t, "Z\na\nb\n");
    free(t);
    t = edit("a\nb\n", 3, "Z");
    assert_string_equal(t, "a\nb\nZ\n");
    free(t);
}

static void test_hw_ok_values(void **state)
{
    (void)state;
    struct hw_desc h;
    memset(&h, 0x5a, sizeof h); /* defaults must overwrite everything */
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(hw_load(hw_ok, ORIGIN, NULL, 0, &h, &src, &err), err);
    assert_string_equal(h.wse.name, "Test WSE");
    /* the optional keys the file leaves out: no step overhead, no jitter */
    assert_true(h.wse.step_overhead_s == 0);
    assert_true(h.wse.jitter == 0);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "step_overhead")], 0);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "jitter")], 0);
    assert_close(h.wse.peak_flops, 7.385e15);
    assert_close(h.wse.sram_bytes, 40.25e9);
    assert_close(h.wse.io_bw_Bps, 150e9);
    assert_close(h.wse.utilization, 0.455);
    assert_close(h.wse.power_W, 23.5e3);
    assert_close(h.wse.max_matmul_dim, 100000);
    /* MemoryX and activation servers: per-server figures */
    assert_close(h.mx.server_dram_bytes, 1128 * 1073741824.0);
    assert_close(h.mx.server_flash_bytes, 3.75 * 1099511627776.0);
    assert_close(h.mx.server_net_Bps, 12.5e9);
    assert_close(h.mx.server_mem_bw_Bps, 238.5e9);
    assert_close(h.mx.server_flash_bw_Bps, 5.5e9);
    assert_close(h.mx.server_update_flops, 1.125e12);
    assert_close(h.mx.server_power_W, 1250);
    assert_close(h.mx.bytes_per_param, 20.5);
    assert_close(h.mx.update_flop_per_param, 12);
    assert_close(h.act.server_bytes, 183 * 1073741824.0);
    assert_close(h.act.server_net_Bps, 23.85e9);
    assert_close(h.act.server_power_W, 500);
    assert_close(h.swx.reduce_Bps, 450e9);
    assert_close(h.swx.fanout, 3);
    assert_close(h.swx.link_bw_Bps, 150e9);
    assert_close(h.swx.hop_latency_s, 2.385e-6);
    /* the [tiers] list, in file order */
    assert_int_equal(h.mx.tiers.n, 2);
    assert_string_equal(h.mx.tiers.item[0].name, "small");
    assert_close(h.mx.tiers.item[0].value, 1.5e12);
    assert_string_equal(h.mx.tiers.item[1].name, "big");
    assert_close(h.mx.tiers.item[1].value, 2.4e15);
    /* origins and lines */
    assert_string_equal(src.origin, ORIGIN);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "name")], 2);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "peak_flops")], 3);
    assert_int_equal(src.line[desc_find(&hw_schema, "memoryx", "server_memory")], 10);
    assert_int_equal(src.line[desc_find(&hw_schema, "memoryx", "server_flash_bandwidth")], 24);
    assert_int_equal(src.line[desc_find(&hw_schema, "swarmx", "reduce_bandwidth")], 30);
    /* the same key name in two sections is two keys */
    assert_int_equal(src.line[desc_find(&hw_schema, "activation", "server_memory")], 32);
    assert_int_equal(src.line[desc_find(&hw_schema, "swarmx", "hop_latency")], 18);
}

/* system.step_overhead (a time) and system.jitter (a fraction, at most 1),
 * each optional, 0 allowed. */
static void test_hw_optional_system_keys(void **state)
{
    (void)state;
    char *text = edit(hw_ok, 44, "max_systems = 192\nstep_overhead = 94.45 ms\njitter = 3.395 %");
    struct hw_desc h;
    struct desc_src src;
    struct cp_error err = {0};
    cp_status st = hw_load(text, ORIGIN, NULL, 0, &h, &src, &err);
    free(text);
    assert_ok(st, err);
    assert_close(h.wse.step_overhead_s, 94.45e-3);
    assert_close(h.wse.jitter, 0.03395);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "step_overhead")], 45);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "jitter")], 46);

    /* zero is allowed for each; units as for any time or fraction */
    const char *zero[] = {"system.step_overhead=0 s", "system.jitter=0"};
    assert_ok(hw_load(hw_ok, ORIGIN, zero, 2, &h, &src, &err), err);
    assert_true(h.wse.step_overhead_s == 0 && h.wse.jitter == 0);
    const char *sets[] = {"system.step_overhead=2.385 s", "system.jitter=1"};
    assert_ok(hw_load(hw_ok, ORIGIN, sets, 2, &h, &src, &err), err);
    assert_close(h.wse.step_overhead_s, 2.385);
    assert_close(h.wse.jitter, 1);

    HW_EXPECT(44, "max_systems = 192\njitter = 1.5",
              "t.ini:45: system.jitter: is a fraction and must be at most 1", NULL);
    HW_EXPECT(44, "max_systems = 192\nstep_overhead = -1 ms",
              "t.ini:45: system.step_overhead: must not be negative", NULL);
    HW_EXPECT(44, "max_systems = 192\nstep_overhead = 5 GB",
              "t.ini:45: system.step_overhead:", NULL);
    /* the old single-box keys are gone, with the new ones named */
    HW_EXPECT(44, "max_systems = 192\nact_store = 2.36 TB",
              "t.ini:45: system.act_store: unknown key", NULL);
    HW_EXPECT(10, "capacity = 4.5 TB", "t.ini:10: memoryx.capacity: unknown key", "server_memory");
}

/* memoryx.server_flash is optional (0: no flash); above 0 it needs
 * server_flash_bandwidth, which is then reported on its own line or, when
 * missing, at its section.  activation.* and swarmx.reduce_bandwidth are
 * required. */
static void test_hw_server_keys(void **state)
{
    (void)state;
    struct hw_desc h;
    struct desc_src src;
    struct cp_error err = {0};
    /* no flash at all: neither key */
    char *text = edit(hw_ok, 11, "# no flash");
    char *t2 = edit(text, 24, "# nor its bandwidth");
    free(text);
    cp_status st = hw_load(t2, ORIGIN, NULL, 0, &h, &src, &err);
    free(t2);
    assert_ok(st, err);
    assert_true(h.mx.server_flash_bytes == 0);
    assert_int_equal(src.line[desc_find(&hw_schema, "memoryx", "server_flash")], 0);
    /* flash of 0 B is no flash, and needs no bandwidth */
    text = edit(hw_ok, 24, "# no flash bandwidth");
    const char *f0[] = {"memoryx.server_flash=0 B"};
    st = hw_load(text, ORIGIN, f0, 1, &h, &src, &err);
    free(text);
    assert_ok(st, err);
    assert_true(h.mx.server_flash_bytes == 0);
    /* flash without its bandwidth: a default, so no line */
    HW_EXPECT(24, "# no flash bandwidth", "t.ini: memoryx.server_flash_bandwidth (default):",
              "must be given (and positive) when server_flash is above 0");
    const char *fl[] = {"memoryx.server_flash=1 TB"};
    text = edit(hw_ok, 24, "");
    st = hw_load(text, ORIGIN, fl, 1, &h, &src, &err);
    free(text);
    assert_msg(err, st, "", "memoryx.server_flash_bandwidth (default): must be given");
    /* 0 with flash to reach: refused on its line, by the key's own rule or
     * the cross-key one */
    HW_EXPECT(24, "server_flash_bandwidth = 0 GB/s",
              "t.ini:24: memoryx.server_flash_bandwidth: ", NULL);
    /* per-server figures are sizes and rates, not totals of a unit */
    HW_EXPECT(12, "server_network = 12.5 GB",
              "t.ini:12: memoryx.server_network: unit 'GB' is a size", NULL);
    HW_EXPECT(10, "server_memory = 0 B",
              "t.ini:10: memoryx.server_memory: must be greater than zero", NULL);
    HW_EXPECT(32, "server_memory = 0 B",
              "t.ini:32: activation.server_memory: must be greater than zero", NULL);
    HW_EXPECT(30, "# no reduce", "t.ini:15: swarmx.reduce_bandwidth: missing required key", NULL);
    HW_EXPECT(33, "", "t.ini:31: activation.server_network: missing required key", NULL);
    /* power of a server may be 0 (not counted) but not negative */
    const char *p0[] = {"activation.server_power=0 W", "memoryx.server_power=0 W"};
    assert_ok(hw_load(hw_ok, ORIGIN, p0, 2, &h, &src, &err), err);
    assert_true(h.act.server_power_W == 0 && h.mx.server_power_W == 0);
    HW_EXPECT(34, "server_power = -1 kW", "t.ini:34: activation.server_power: must not be negative",
              NULL);
}

static void test_hw_tiers_optional(void **state)
{
    (void)state;
    /* cut the [tiers] section (its header and both entries) */
    char buf[sizeof hw_ok];
    const char *cut = strstr(hw_ok, "[tiers]");
    snprintf(buf, sizeof buf, "%.*s", (int)(cut - hw_ok), hw_ok);
    struct hw_desc h;
    h.mx.tiers.n = 99;
    struct cp_error err = {0};
    assert_ok(hw_load(buf, ORIGIN, NULL, 0, &h, NULL, &err), err);
    assert_int_equal(h.mx.tiers.n, 0);
    assert_string_equal(h.wse.name, "Test WSE");
}

static void test_wl_defaults(void **state)
{
    (void)state;
    struct wl_desc w;
    memset(&w, 0x5a, sizeof w); /* defaults must overwrite everything */
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(wl_ok, ORIGIN, NULL, 0, &w, &src, &err), err);
    assert_string_equal(w.name, "Test GPT");
    assert_close(w.layers, 24);
    assert_close(w.hidden, 2048);
    assert_close(w.heads, 16);
    assert_close(w.seq_len, 2048);
    assert_close(w.vocab, 50257);
    assert_close(w.tokens, 300e9);
    assert_int_equal(w.tokens_chinchilla, 0);
    assert_close(w.batch, 512);
    /* derived defaults */
    assert_close(w.ffn, 4 * 2048);
    assert_close(w.kv_heads, 16);
    assert_close(w.predictions, 2048); /* every position: seq_len */
    /* schema defaults */
    assert_int_equal(w.gated_ffn, 0);
    assert_int_equal(w.bias, 1);
    assert_int_equal(w.tied_embeddings, 1);
    assert_int_equal(w.norm, WL_LAYERNORM);
    assert_int_equal(w.positions, WL_POS_LEARNED);
    assert_int_equal(w.recompute, 0);
    assert_close(w.weight_bytes, 2);
    assert_close(w.grad_bytes, 2);
    assert_close(w.master_bytes, 4);
    assert_close(w.optimizer_bytes, 8);
    assert_close(w.act_bytes, 2);
    /* lines: given keys carry theirs, defaults 0 */
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "layers")], 3);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "batch")], 9);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "ffn")], 0);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "kv_heads")], 0);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "bias")], 0);
}

static void test_wl_all_keys(void **state)
{
    (void)state;
    static const char text[] = "; a full description with every key\n"
                               "[model]\n"
                               "name = Full\n"
                               "layers = 80\n"
                               "hidden = 8192\n"
                               "heads = 64\n"
                               "kv_heads = 8\n"
                               "ffn = 28.672 k\n"
                               "gated_ffn = yes\n"
                               "seq_len = 4096\n"
                               "vocab = 32000 ; inline comment\n"
                               "tokens = 2.385e12\n"
                               "batch = 1024\n"
                               "bias = off\n"
                               "tied_embeddings = 0\n"
                               "norm = rmsnorm\n"
                               "positions = rotary\n"
                               "recompute = on\n"
                               "weight_bytes = 1 B\n"
                               "grad_bytes = 16 b\n"
                               "master_bytes = 0 B\n"
                               "optimizer_bytes = 2.385 B\n"
                               "act_bytes = 4 B\n";
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, &src, &err), err);
    assert_close(w.kv_heads, 8);
    assert_close(w.ffn, 28672);
    assert_int_equal(w.gated_ffn, 1);
    assert_close(w.vocab, 32000);
    assert_close(w.tokens, 2.385e12);
    assert_int_equal(w.bias, 0);
    assert_int_equal(w.tied_embeddings, 0);
    assert_int_equal(w.norm, WL_RMSNORM);
    assert_int_equal(w.positions, WL_POS_ROTARY);
    assert_int_equal(w.recompute, WL_RC_FULL);
    assert_close(w.weight_bytes, 1);
    assert_close(w.grad_bytes, 2);
    assert_close(w.master_bytes, 0); /* zero allowed for master_bytes */
    assert_close(w.optimizer_bytes, 2.385);
    assert_close(w.act_bytes, 4);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "act_bytes")], 23);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "kv_heads")], 7);
}

static void test_bool_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *v;
        int want;
    } c[] = {{"true", WL_RC_FULL},  {"yes", WL_RC_FULL}, {"1", WL_RC_FULL},
             {"on", WL_RC_FULL},    {"false", WL_RC_NONE}, {"no", WL_RC_NONE},
             {"0", WL_RC_NONE},     {"off", WL_RC_NONE},   {"none", WL_RC_NONE},
             {"full", WL_RC_FULL},  {"selective", WL_RC_SELECTIVE}};
    for (size_t i = 0; i < NELEM(c); i++) {
        char line[64];
        snprintf(line, sizeof line, "recompute = %s", c[i].v);
        char *text = edit(wl_ok, 10, line);
        struct wl_desc w;
        struct cp_error err = {0};
        assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
        assert_int_equal(w.recompute, c[i].want);
        free(text);
    }
}

static void test_tokens_chinchilla(void **state)
{
    (void)state;
    char *text = edit(wl_ok, 8, "tokens = chinchilla");
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, &src, &err), err);
    assert_int_equal(w.tokens_chinchilla, 1);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "tokens")], 8);
    char buf[64];
    const struct desc_key *k = &wl_schema.keys[desc_find(&wl_schema, "model", "tokens")];
    assert_string_equal(desc_format(k, &w, buf, sizeof buf), "chinchilla");

    /* a number given with --set turns chinchilla off again */
    const char *sets[] = {"model.tokens=2.385e12"};
    assert_ok(wl_load(text, ORIGIN, sets, 1, &w, &src, &err), err);
    assert_int_equal(w.tokens_chinchilla, 0);
    assert_close(w.tokens, 2.385e12);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "tokens")], -1);
    free(text);

    /* and --set can choose chinchilla over a file's number */
    const char *sets2[] = {"model.tokens=chinchilla"};
    assert_ok(wl_load(wl_ok, ORIGIN, sets2, 1, &w, &src, &err), err);
    assert_int_equal(w.tokens_chinchilla, 1);
}

static void test_set_overrides(void **state)
{
    (void)state;
    const char *sets[] = {
        "model.layers=32",           "model.hidden= 2.56 k", /* blanks after '=' skipped */
        "model.norm=rmsnorm",        "model.gated_ffn=true", "model.name=Overridden",
        "model.optimizer_bytes=0 B", "model.layers=36", /* later wins */
    };
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(wl_ok, ORIGIN, sets, NELEM(sets), &w, &src, &err), err);
    assert_close(w.layers, 36);
    assert_close(w.hidden, 2560);
    assert_close(w.ffn, 4 * 2560); /* derived after --set */
    assert_int_equal(w.norm, WL_RMSNORM);
    assert_int_equal(w.gated_ffn, 1);
    assert_string_equal(w.name, "Overridden");
    assert_close(w.optimizer_bytes, 0);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "layers")], -1);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "hidden")], -1);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "norm")], -1);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "heads")], 5);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "ffn")], 0);

    /* hardware too */
    const char *hsets[] = {"system.io_bandwidth=2.385 Tb/s", "swarmx.fanout=8"};
    struct hw_desc h;
    assert_ok(hw_load(hw_ok, ORIGIN, hsets, 2, &h, &src, &err), err);
    assert_close(h.wse.io_bw_Bps, 2.385e12 / 8);
    assert_close(h.swx.fanout, 8);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "io_bandwidth")], -1);
    assert_int_equal(src.line[desc_find(&hw_schema, "swarmx", "fanout")], -1);
    assert_int_equal(src.line[desc_find(&hw_schema, "system", "sram")], 4);
}

static void test_desc_set_direct(void **state)
{
    (void)state;
    struct wl_desc w;
    struct cp_error err = {0};
    assert_ok(wl_load(wl_ok, ORIGIN, NULL, 0, &w, NULL, &err), err);
    /* src may be NULL */
    assert_ok(desc_set(&wl_schema, "model.seq_len=4.096 k", &w, NULL, &err), err);
    assert_close(w.seq_len, 4096);
    /* a failed --set leaves the field alone */
    assert_int_equal(desc_set(&wl_schema, "model.seq_len=-1", &w, NULL, &err), CP_EINPUT);
    assert_close(w.seq_len, 4096);
}

static void test_desc_find(void **state)
{
    (void)state;
    assert_int_equal(desc_find(&wl_schema, "model", "name"), 0);
    assert_true(desc_find(&wl_schema, "model", "act_bytes") > 0);
    assert_int_equal(desc_find(&wl_schema, "model", "nope"), -1);
    assert_int_equal(desc_find(&wl_schema, "system", "layers"), -1);
    assert_int_equal(desc_find(&hw_schema, "swarmx", "fanout") >= 0, 1);
    assert_int_equal(desc_find(&hw_schema, "tiers", "4TB"), -1);
    assert_true(wl_schema.nkeys <= DESC_MAX_KEYS);
    assert_true(hw_schema.nkeys <= DESC_MAX_KEYS);
}

static void test_desc_format(void **state)
{
    (void)state;
    struct hw_desc h;
    struct wl_desc w;
    struct cp_error err = {0};
    assert_ok(hw_load(hw_ok, ORIGIN, NULL, 0, &h, NULL, &err), err);
    char *text = edit(wl_ok, 10, "norm = rmsnorm\npositions = rotary\nbias = false");
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    free(text);
    char buf[64];
#define FMT(schema, tgt, sec, key)                                                                 \
    desc_format(&(schema).keys[desc_find(&(schema), sec, key)], (tgt), buf, sizeof buf)
    assert_string_equal(FMT(hw_schema, &h, "system", "peak_flops"), "7.385 PFLOP/s");
    assert_string_equal(FMT(hw_schema, &h, "system", "name"), "Test WSE");
    assert_string_equal(FMT(hw_schema, &h, "system", "utilization"), "0.455");
    assert_string_equal(FMT(hw_schema, &h, "swarmx", "hop_latency"), "2.385 us");
    assert_string_equal(FMT(hw_schema, &h, "memoryx", "server_network"), "12.5 GB/s");
    assert_string_equal(FMT(hw_schema, &h, "activation", "server_memory"), "196.5 GB");
    assert_string_equal(FMT(wl_schema, &w, "model", "norm"), "rmsnorm");
    assert_string_equal(FMT(wl_schema, &w, "model", "positions"), "rotary");
    assert_string_equal(FMT(wl_schema, &w, "model", "bias"), "false");
    assert_string_equal(FMT(wl_schema, &w, "model", "tied_embeddings"), "true");
    assert_string_equal(FMT(wl_schema, &w, "model", "layers"), "24");
    assert_string_equal(FMT(wl_schema, &w, "model", "batch"), "512");
#undef FMT
}

static void test_key_error_default_and_set(void **state)
{
    (void)state;
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    const char *sets[] = {"model.batch=256"};
    assert_ok(wl_load(wl_ok, ORIGIN, sets, 1, &w, &src, &err), err);
    /* a key from the file: origin:line */
    cp_status st = desc_key_error(&wl_schema, &src, "model", "hidden", &err, "x %d", 42);
    assert_msg(err, st, "t.ini:4: model.hidden: x 42", NULL);
    /* a defaulted key */
    st = desc_key_error(&wl_schema, &src, "model", "ffn", &err, "too big");
    assert_msg(err, st, "t.ini: model.ffn (default): too big", NULL);
    /* a --set key */
    st = desc_key_error(&wl_schema, &src, "model", "batch", &err, "odd");
    assert_msg(err, st, "--set model.batch: odd", NULL);
}

static void test_line_limit_boundary(void **state)
{
    (void)state;
    /* 197 characters (inih's 200-byte buffer less "\r\n\0") is the longest
     * accepted line. */
    char line[300];
    memset(line, 'x', sizeof line);
    line[0] = '#';
    line[197] = '\0';
    char *text = edit(wl_ok, 10, line);
    struct wl_desc w;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    free(text);
    /* a key line padded to 197 characters still parses */
    snprintf(line, sizeof line, "batch = 512%186s", "");
    assert_int_equal(strlen(line), 197);
    text = edit(wl_ok, 9, line);
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    assert_close(w.batch, 512);
    free(text);
}

static void test_crlf_and_no_final_newline(void **state)
{
    (void)state;
    static const char text[] = "[model]\r\nlayers = 24\r\nhidden = 2048\r\nheads = 16\r\n"
                               "seq_len = 2048\r\nvocab = 50257\r\ntokens = 300e9\r\nbatch = 512";
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, &src, &err), err);
    assert_close(w.batch, 512);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "batch")], 8);
}

static void test_null_src_and_err(void **state)
{
    (void)state;
    struct wl_desc w;
    /* no src, no err: still a status */
    assert_int_equal(wl_load("[model]\nlayers = -1\n", ORIGIN, NULL, 0, &w, NULL, NULL), CP_EINPUT);
    struct hw_desc h;
    assert_int_equal(hw_load("[system]\n", ORIGIN, NULL, 0, &h, NULL, NULL), CP_EINPUT);
}

static void test_set_tiers(void **state)
{
    (void)state;
    const char *sets[] = {"tiers.huge=1.2 PB", "tiers.small=2.385 TB"};
    struct hw_desc h;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(hw_load(hw_ok, ORIGIN, sets, 2, &h, &src, &err), err);
    assert_int_equal(h.mx.tiers.n, 3);
    assert_string_equal(h.mx.tiers.item[0].name, "small"); /* replaced in place */
    assert_close(h.mx.tiers.item[0].value, 2.385e12);
    assert_string_equal(h.mx.tiers.item[2].name, "huge"); /* appended */
    assert_close(h.mx.tiers.item[2].value, 1.2e15);
    static const struct {
        const char *set, *prefix;
    } bad[] = {
        {"tiers.zero=0 TB", "--set tiers.zero: must be greater than zero"},
        {"tiers.neg=-1 TB", "--set tiers.neg: must be greater than zero"},
        {"tiers.rate=1 TB/s", "--set tiers.rate: unit 'TB/s' is a bandwidth"},
        {"tiers.bare=4", "--set tiers.bare: missing unit"},
        {"tiers.abcdefghijklmnopqrstuvwxyz0123456=1 TB",
         "--set tiers.abcdefghijklmnopqrstuvwxyz0123456: name longer than 31 bytes (33 here"},
        /* a size is exact: a range is refused as such, not as an unknown unit */
        {"tiers.x=1 TB +- 10%", "--set tiers.x: an entry of [tiers] takes no +- range"},
        {"tiers.x=1 TB \xc2\xb1 1 TB", "--set tiers.x: an entry of [tiers] takes no +- range"},
    };
    for (size_t i = 0; i < NELEM(bad); i++) {
        cp_status st = hw_load(hw_ok, ORIGIN, &bad[i].set, 1, &h, &src, &err);
        assert_msg(err, st, bad[i].prefix, NULL);
    }
    /* a model has no list section */
    struct wl_desc w;
    const char *ws[] = {"tiers.x=1 TB"};
    cp_status st = wl_load(wl_ok, ORIGIN, ws, 1, &w, NULL, &err);
    assert_msg(err, st, "--set tiers.x: no such key in a model description", NULL);
    /* the 17th entry by --set is refused */
    char more[1024] = "";
    for (int i = 0; i < 14; i++) {
        size_t o = strlen(more);
        snprintf(more + o, sizeof more - o, "%st%d = %d TB", i ? "\n" : "", i, i + 1);
    }
    char *text = edit(hw_ok, 48, more); /* 16 tiers */
    const char *s17[] = {"tiers.small=3 TB", "tiers.one_more=9 TB"};
    st = hw_load(text, ORIGIN, s17, 2, &h, NULL, &err);
    assert_msg(err, st, "--set tiers.one_more: more than 16 entries", NULL);
    free(text);
}

static void test_bom(void **state)
{
    (void)state;
    char text[sizeof wl_ok + 3];
    snprintf(text, sizeof text, "\xEF\xBB\xBF%s", wl_ok);
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, &src, &err), err);
    assert_close(w.layers, 24);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "layers")], 3);
}

static void test_crlf_line_limit(void **state)
{
    (void)state;
    /* the '\r' of a CRLF line does not count toward the 197 */
    char line[300];
    memset(line, 'y', sizeof line);
    line[0] = '#';
    line[197] = '\r';
    line[198] = '\0';
    char *text = edit(wl_ok, 10, line);
    struct wl_desc w;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    free(text);
    line[197] = 'y';
    line[198] = '\r';
    line[199] = '\0';
    text = edit(wl_ok, 10, line);
    cp_status st = wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err);
    assert_msg(err, st, "t.ini:10: line longer than 197 characters", NULL);
    free(text);
}

static void test_desc_load_set_direct(void **state)
{
    (void)state;
    struct wl_desc w;
    struct desc_src src;
    struct cp_error err = {0};
    const char *sets[] = {"model.layers=48", "model.recompute=full"};
    assert_ok(desc_load_set(&wl_schema, wl_ok, ORIGIN, sets, 2, &w, &src, &err), err);
    assert_close(w.layers, 48);
    assert_int_equal(w.recompute, WL_RC_FULL);
    /* derived defaults are wl_load's, not the loader's */
    assert_close(w.ffn, 0);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "layers")], -1);
    assert_int_equal(src.line[desc_find(&wl_schema, "model", "hidden")], 4);
    /* plain desc_load, then a failing override */
    assert_ok(desc_load(&wl_schema, wl_ok, ORIGIN, &w, &src, &err), err);
    const char *bad[] = {"model.layers=1", "model.nope=2", "model.layers=3"};
    cp_status st = desc_load_set(&wl_schema, wl_ok, ORIGIN, bad, 3, &w, &src, &err);
    assert_msg(err, st, "--set model.nope: no such key", NULL);
    assert_close(w.layers, 1); /* applied in order, stopped at the failure */
}

/* ---- errors: every kind, exact line ---- */

static void test_err_unknown_unit(void **state)
{
    (void)state;
    HW_EXPECT(3, "peak_flops = 7.5 PFLOPS", "t.ini:3: system.peak_flops: unknown unit 'PFLOPS'",
              "write FLOP/s");
    HW_EXPECT(12, "server_network = 12.5 GBps",
              "t.ini:12: memoryx.server_network: unknown unit 'GBps'", NULL);
    WL_EXPECT(10, "act_bytes = 2 bytes", "t.ini:10: model.act_bytes: unknown unit 'bytes'", NULL);
}

static void test_err_wrong_dimension(void **state)
{
    (void)state;
    HW_EXPECT(4, "sram = 40 GB/s", "t.ini:4: system.sram: unit 'GB/s' is a bandwidth",
              "but a size is expected");
    HW_EXPECT(18, "hop_latency = 2.385 GB", "t.ini:18: swarmx.hop_latency: unit 'GB' is a size",
              "a time is expected");
    HW_EXPECT(6, "utilization = 45 GB", "t.ini:6: system.utilization: unit 'GB' is a size", NULL);
    WL_EXPECT(3, "layers = 24 GB", "t.ini:3: model.layers: unit 'GB' is a size",
              "a count is expected");
    HW_EXPECT(47, "big = 2.4 PB/s", "t.ini:47: tiers.big: unit 'PB/s' is a bandwidth", NULL);
}

static void test_err_missing_unit(void **state)
{
    (void)state;
    HW_EXPECT(7, "power = 23000", "t.ini:7: system.power: missing unit", "e.g. 23 kW");
    HW_EXPECT(46, "small = 1.5e12", "t.ini:46: tiers.small: missing unit", NULL);
}

static void test_err_missing_required(void **state)
{
    (void)state;
    /* reported at the header of the key's section */
    HW_EXPECT(13, "# bytes_per_param removed",
              "t.ini:9: memoryx.bytes_per_param: missing required key",
              "(add 'bytes_per_param = 40 GB' under [memoryx]: bytes MemoryX stores");
    HW_EXPECT(3, "", "t.ini:1: system.peak_flops: missing required key",
              "add 'peak_flops = 7.5 PFLOP/s' under [system]: dense");
    HW_EXPECT(18, "  # no hop_latency", "t.ini:15: swarmx.hop_latency: missing required key",
              "add 'hop_latency = 1.5 us' under [swarmx]");
    WL_EXPECT(5, "# no heads", "t.ini:1: model.heads: missing required key",
              "add 'heads = ...' under [model]: attention heads");
    WL_EXPECT(8, "# no tokens", "t.ini:1: model.tokens: missing required key",
              "add 'tokens = ...' under [model]");
    /* the header found is the real one, not a look-alike in a comment or
     * another section's name */
    struct wl_desc w;
    struct cp_error err = {0};
    cp_status st =
        wl_load("# [model]\n; [model]\n[model]\nlayers = 24\n", ORIGIN, NULL, 0, &w, NULL, &err);
    assert_msg(err, st, "t.ini:3: model.hidden: missing required key", NULL);
    /* a whole section missing: reported at the end of the file */
    char buf[sizeof hw_ok];
    const char *cut = strstr(hw_ok, "[batch]"), *rest = strstr(hw_ok, "[system]\nmax_systems");
    snprintf(buf, sizeof buf, "%.*s%s", (int)(cut - hw_ok), hw_ok, rest);
    struct hw_desc h;
    st = hw_load(buf, ORIGIN, NULL, 0, &h, NULL, &err);
    assert_msg(err, st, "t.ini:42: batch.critical_tokens: missing required key",
               "under [batch], a section this file lacks: B*");
    st = wl_load("# only a comment\n\n", "c.ini", NULL, 0, &w, NULL, &err);
    assert_msg(err, st, "c.ini:2: model.layers: missing required key",
               "under [model], a section this file lacks");
}

static void test_err_unknown_key(void **state)
{
    (void)state;
    WL_EXPECT(10, "depth = 24", "t.ini:10: model.depth: unknown key",
              "(keys of [model]: name, layers, hidden, heads,");
    HW_EXPECT(8, "max_matmul = 100000", "t.ini:8: system.max_matmul: unknown key",
              "max_matmul_dim");
    HW_EXPECT(14, "server_update_flops = 1 TFLOP/s\nfanout = 2",
              "t.ini:15: memoryx.fanout: unknown key",
              "keys of [memoryx]: server_memory, server_flash");
}

static void test_err_unknown_section(void **state)
{
    (void)state;
    /* reported at the header line, before any key is read */
    WL_EXPECT(10, "[optimizer]\nlr = 3e-4",
              "t.ini:10: [optimizer]: unknown section in a model file (known: [model])", NULL);
    HW_EXPECT(15, "[swarm]",
              "t.ini:15: [swarm]: unknown section in a hardware file "
              "(known: [system] [chip] [memoryx] [activation] [swarmx] [sparsity] [batch] [reliability] [cost] [tiers])",
              NULL);
    /* a model section in a hardware file */
    HW_EXPECT(46, "[model]\nlayers = 3", "t.ini:46: [model]: unknown section in a hardware", NULL);
    /* an unknown section with no keys is still reported */
    WL_EXPECT(10, "  [extra]", "t.ini:10: [extra]: unknown section in a model file", NULL);
    /* names are exact: case and inner blanks matter */
    WL_EXPECT(1, "[Model]", "t.ini:1: [Model]: unknown section", NULL);
    WL_EXPECT(1, "[ model ]", "t.ini:1: [ model ]: unknown section", NULL);
    /* a known header repeated is fine */
    char *text = edit(wl_ok, 10, "[model]\nffn = 5000");
    struct wl_desc w;
    struct cp_error err = {0};
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    assert_close(w.ffn, 5000);
    free(text);
}

static void test_err_duplicate_key(void **state)
{
    (void)state;
    WL_EXPECT(10, "layers = 25", "t.ini:10: model.layers: duplicate key (first given on line 3)",
              NULL);
    /* a second [model] header does not reset the check */
    WL_EXPECT(10, "[model]\nvocab = 50257",
              "t.ini:11: model.vocab: duplicate key (first given on line 7)", NULL);
    HW_EXPECT(48, "small = 3 TB", "t.ini:48: tiers.small: duplicate key", NULL);
}

static void test_err_negative(void **state)
{
    (void)state;
    WL_EXPECT(3, "layers = -24", "t.ini:3: model.layers: must not be negative", NULL);
    HW_EXPECT(7, "power = -23.5 kW", "t.ini:7: system.power: must not be negative", NULL);
    WL_EXPECT(10, "master_bytes = -4 B", "t.ini:10: model.master_bytes: must not be negative",
              NULL);
    HW_EXPECT(46, "small = -1.5 TB", "t.ini:46: tiers.small: must be greater than zero", NULL);
}

static void test_err_zero(void **state)
{
    (void)state;
    WL_EXPECT(7, "vocab = 0", "t.ini:7: model.vocab: must be greater than zero", NULL);
    HW_EXPECT(4, "sram = 0 GB", "t.ini:4: system.sram: must be greater than zero", NULL);
    HW_EXPECT(6, "utilization = 0 %", "t.ini:6: system.utilization: must be greater than zero",
              NULL);
    WL_EXPECT(10, "ffn = 0", "t.ini:10: model.ffn: must be greater than zero", NULL);
    WL_EXPECT(10, "act_bytes = 0 B", "t.ini:10: model.act_bytes: must be greater than zero", NULL);
    HW_EXPECT(47, "big = 0 PB", "t.ini:47: tiers.big: must be greater than zero", NULL);
}

static void test_err_nan_inf(void **state)
{
    (void)state;
    WL_EXPECT(4, "hidden = nan", "t.ini:4: model.hidden: 'nan' is not a number", NULL);
    WL_EXPECT(4, "hidden = NaN", "t.ini:4: model.hidden: 'NaN' is not a number", NULL);
    WL_EXPECT(4, "hidden = inf", "t.ini:4: model.hidden: 'inf' is not a number", NULL);
    HW_EXPECT(3, "peak_flops = -inf PFLOP/s", "t.ini:3: system.peak_flops: '-inf PFLOP/s' is not",
              NULL);
    WL_EXPECT(8, "tokens = 1e999", "t.ini:8: model.tokens: '1e999' is out of range (above", NULL);
    /* too small reads as 0: said so, not "must be greater than zero" */
    WL_EXPECT(8, "tokens = 1e-400", "t.ini:8: model.tokens: '1e-400' is out of range (below", NULL);
    /* a zero written as zero is still a zero */
    WL_EXPECT(8, "tokens = 0e-400", "t.ini:8: model.tokens: must be greater than zero", NULL);
    HW_EXPECT(10, "server_memory = 1e300 EB",
              "t.ini:10: memoryx.server_memory: '1e300 EB' is out of range", NULL);
}

static void test_err_not_integer(void **state)
{
    (void)state;
    WL_EXPECT(3, "layers = 24.5", "t.ini:3: model.layers: must be a whole number", NULL);
    WL_EXPECT(5, "heads = 2.385", "t.ini:5: model.heads: must be a whole number", NULL);
    WL_EXPECT(9, "batch = 2.385e-3 k", "t.ini:9: model.batch: must be a whole number", NULL);
    /* past 2^53 the value is too large, not "not whole" */
    WL_EXPECT(3, "layers = 1e16", "t.ini:3: model.layers: 1e+16 is too large for a whole number",
              NULL);
    WL_EXPECT(3, "layers = 1e308", "t.ini:3: model.layers: 1e+308 is too large for a whole number",
              NULL);
    HW_EXPECT(16, "fanout = 2.5", "t.ini:16: swarmx.fanout: must be a whole number", NULL);
    HW_EXPECT(8, "max_matmul_dim = 100.0005 k", "t.ini:8: system.max_matmul_dim: must be a whole",
              NULL);
}

static void test_err_fraction_above_one(void **state)
{
    (void)state;
    HW_EXPECT(6, "utilization = 1.2",
              "t.ini:6: system.utilization: is a fraction and must be "
              "at most 1 (or 100 %)",
              NULL);
    HW_EXPECT(6, "utilization = 120 %", "t.ini:6: system.utilization: is a fraction", NULL);
    HW_EXPECT(6, "utilization = 2.385 k", "t.ini:6: system.utilization: is a fraction", NULL);
    /* exactly 1 is fine */
    char *text = edit(hw_ok, 6, "utilization = 100 %");
    struct hw_desc h;
    struct cp_error err = {0};
    assert_ok(hw_load(text, ORIGIN, NULL, 0, &h, NULL, &err), err);
    assert_close(h.wse.utilization, 1.0);
    free(text);
}

static void test_err_key_outside_section(void **state)
{
    (void)state;
    WL_EXPECT(0, "layers = 24", "t.ini:1: layers: key outside any section",
              "put it under [section]");
    struct wl_desc w;
    struct cp_error err = {0};
    cp_status st = wl_load("# comment\n\nname = x\n[model]\n", ORIGIN, NULL, 0, &w, NULL, &err);
    assert_msg(err, st, "t.ini:3: name: key outside any section", NULL);
}

static void test_err_syntax(void **state)
{
    (void)state;
    WL_EXPECT(5, "heads 16",
              "t.ini:5: syntax error: expected '[section]', 'key = value' or a "
              "comment",
              NULL);
    WL_EXPECT(9, "[model", "t.ini:9: syntax error", NULL);
    HW_EXPECT(47, "big 2.4 PB", "t.ini:47: syntax error", NULL);
    /* inih takes "= 5" as an empty key name: still an error on its line */
    WL_EXPECT(10, "= 5", "t.ini:10: model.: empty key name", NULL);
    /* inih's continuation lines are turned off: an indented line is an error */
    WL_EXPECT(10, "  more text", "t.ini:10: syntax error", NULL);
}

/* inih keeps parsing after a syntax error; the first error in the file is
 * the one reported.  A broken section header is the common case: every key
 * after "[model" lands outside any section, but line 1 is reported. */
static void test_err_first_error_wins_after_syntax_error(void **state)
{
    (void)state;
    WL_EXPECT(1, "[model", "t.ini:1: syntax error", NULL);
    HW_EXPECT(15, "swarmx]", "t.ini:15: syntax error", NULL);
    WL_EXPECT(5, "heads 16\n[model]\nheads = 16\nbatch = 512\n[model]\ndepth = 1",
              "t.ini:5: syntax error", NULL);
}

static void test_err_long_line(void **state)
{
    (void)state;
    char line[300];
    memset(line, 'x', sizeof line);
    line[0] = '#';
    line[198] = '\0';
    WL_EXPECT(4, line, "t.ini:4: line longer than 197 characters (split the comment)", NULL);
    /* checked before parsing: an error later in the file does not mask it,
     * and it is found on the last line without a newline too */
    char text[400];
    snprintf(text, sizeof text, "[model]\nbogus\n%s", line);
    struct wl_desc w;
    struct cp_error err = {0};
    cp_status st = wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err);
    assert_msg(err, st, "t.ini:3: line longer than 197 characters", NULL);
}

static void test_err_bad_boolean(void **state)
{
    (void)state;
    WL_EXPECT(10, "gated_ffn = maybe",
              "t.ini:10: model.gated_ffn: 'maybe' is not a boolean (use true or false)", NULL);
    WL_EXPECT(10, "bias = True", "t.ini:10: model.bias: 'True' is not a boolean", NULL);
    WL_EXPECT(10, "recompute = 2", "t.ini:10: model.recompute: '2' is not one of none|full|selective",
              NULL);
}

static void test_err_bad_choice(void **state)
{
    (void)state;
    WL_EXPECT(10, "norm = batchnorm",
              "t.ini:10: model.norm: 'batchnorm' is not one of layernorm|rmsnorm", NULL);
    WL_EXPECT(10, "positions = alibi",
              "t.ini:10: model.positions: 'alibi' is not one of learned|rotary", NULL);
    WL_EXPECT(10, "norm = layer", "t.ini:10: model.norm: 'layer' is not one of", NULL);
    WL_EXPECT(10, "norm = rmsnorm|", "t.ini:10: model.norm: 'rmsnorm|' is not one of", NULL);
}

static void test_err_empty_value(void **state)
{
    (void)state;
    WL_EXPECT(3, "layers =", "t.ini:3: model.layers: empty value (number of transformer blocks)",
              NULL);
    HW_EXPECT(2, "name = ", "t.ini:2: system.name: empty value", NULL);
}

static void test_err_text_too_long(void **state)
{
    (void)state;
    char line[128];
    snprintf(line, sizeof line, "name = %064d", 7);
    WL_EXPECT(2, line, "t.ini:2: model.name: text longer than 63 bytes (64 here", NULL);
    /* the limit is in bytes: 40 two-byte characters are 80 bytes, and the
     * message says so rather than "63 characters" of a 40-character name */
    snprintf(line, sizeof line, "name = ");
    for (int i = 0; i < 40; i++)
        strcat(line, "\xc3\xa9");
    WL_EXPECT(2, line, "t.ini:2: model.name: text longer than 63 bytes (80 here", NULL);
    /* 31 two-byte characters, 62 bytes, fit */
    snprintf(line, sizeof line, "name = ");
    for (int i = 0; i < 31; i++)
        strcat(line, "\xc3\xa9");
    char *text = edit(wl_ok, 2, line);
    struct wl_desc w;
    struct cp_error err = {0};
    cp_status st = wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err);
    free(text);
    assert_ok(st, err);
    assert_int_equal(strlen(w.name), 62);
}

static void test_err_tiers(void **state)
{
    (void)state;
    char line[64];
    snprintf(line, sizeof line, "%032d = 1 TB", 1);
    HW_EXPECT(46, line, "t.ini:46: tiers.", "name longer than 31 bytes (32 here");
    /* a range on a tier is refused as such (not "unknown unit 'TB +- 10%'") */
    HW_EXPECT(46, "x = 1 TB +- 10%", "t.ini:46: tiers.x: an entry of [tiers] takes no +- range",
              NULL);
    /* 16 entries fit, the 17th does not */
    char more[1024] = "";
    for (int i = 0; i < 15; i++) {
        size_t o = strlen(more);
        snprintf(more + o, sizeof more - o, "%st%d = %d.5 TB", i ? "\n" : "", i, i + 1);
    }
    char *text = edit(hw_ok, 48, more); /* 2 + 15 = 17 tiers */
    struct hw_desc h;
    struct cp_error err = {0};
    cp_status st = hw_load(text, ORIGIN, NULL, 0, &h, NULL, &err);
    assert_msg(err, st, "t.ini:62: tiers.t14: more than 16 entries", NULL);
    free(text);
    char *less = strrchr(more, '\n');
    *less = '\0';
    text = edit(hw_ok, 48, more); /* 16 tiers */
    assert_ok(hw_load(text, ORIGIN, NULL, 0, &h, NULL, &err), err);
    assert_int_equal(h.mx.tiers.n, 16);
    assert_string_equal(h.mx.tiers.item[15].name, "t13");
    assert_close(h.mx.tiers.item[15].value, 14.5e12);
    free(text);
}

/* ---- overlays (--hw-overlay, repeatable) ---- */

/* Two overlays apply in order: the later wins key by key, the earlier's
 * other keys stay; each key's origin names its overlay; a bad key in the
 * second names the second; more than DESC_OVERLAY_MAX is refused. */
static void test_overlays_in_order(void **state)
{
    (void)state;
    const struct desc_text ov[] = {
        {"[swarmx]\nhop_latency = 3.25 us\n[system]\nutilization = 0.4125\n", "a.ini"},
        {"# second\n[swarmx]\nhop_latency = 5.75 us\n[tiers]\nsmall = 2.5 TB\n", "b.ini"},
    };
    const char *sets[] = {"system.power=19.5 kW"};
    struct hw_desc h;
    static struct desc_src src;
    struct cp_error err = {0};
    char where[DESC_ORIGIN_MAX + 16];
    assert_ok(hw_load_overlays(hw_ok, ORIGIN, ov, 2, sets, 1, &h, &src, &err), err);
    assert_close(h.swx.hop_latency_s, 5.75e-6);
    assert_close(h.wse.utilization, 0.4125);
    assert_close(h.wse.power_W, 19.5e3);
    assert_close(h.mx.tiers.item[0].value, 2.5e12);
    assert_int_equal(src.noverlays, 2);
    int hop = desc_find(&hw_schema, "swarmx", "hop_latency");
    int util = desc_find(&hw_schema, "system", "utilization");
    int power = desc_find(&hw_schema, "system", "power");
    assert_int_equal(src.in_overlay[hop], 2);
    assert_int_equal(src.in_overlay[util], 1);
    assert_string_equal(desc_where(&src, hop, where, sizeof where), "b.ini:3");
    assert_string_equal(desc_where(&src, util, where, sizeof where), "a.ini:4");
    assert_string_equal(desc_where(&src, power, where, sizeof where), "--set");
    /* the other order: the other hop */
    const struct desc_text rev[] = {ov[1], ov[0]};
    assert_ok(hw_load_overlays(hw_ok, ORIGIN, rev, 2, NULL, 0, &h, &src, &err), err);
    assert_close(h.swx.hop_latency_s, 3.25e-6);
    /* a bad key in the second overlay names the second */
    const struct desc_text bad[] = {ov[0], {"[system]\n\nsram = -1 GB\n", "c.ini"}};
    cp_status st = hw_load_overlays(hw_ok, ORIGIN, bad, 2, NULL, 0, &h, &src, &err);
    assert_msg(err, st, "c.ini:3: system.sram: must not be negative", NULL);
    /* DESC_OVERLAY_MAX apply, one more does not */
    struct desc_text many[DESC_OVERLAY_MAX + 1];
    for (size_t i = 0; i < NELEM(many); i++)
        many[i] = ov[i % 2];
    assert_ok(hw_load_overlays(hw_ok, ORIGIN, many, DESC_OVERLAY_MAX, NULL, 0, &h, &src, &err),
              err);
    st = hw_load_overlays(hw_ok, ORIGIN, many, NELEM(many), NULL, 0, &h, &src, &err);
    assert_msg(err, st, "a.ini: more than 8 overlays", NULL);
    /* the names share DESC_ORIGIN_MAX bytes: each overlay's name as
     * applied, and a name that would not fit refused, not cut */
    static char name[3][DESC_ORIGIN_MAX / 2];
    for (int i = 0; i < 3; i++) {
        memset(name[i], 'a' + i, sizeof name[i] - 2);
        name[i][sizeof name[i] - 2] = '\0';
    }
    const struct desc_text longs[] = {{ov[0].text, name[0]}, {ov[1].text, name[1]},
                                      {ov[1].text, name[2]}};
    assert_ok(hw_load_overlays(hw_ok, ORIGIN, longs, 2, NULL, 0, &h, &src, &err), err);
    assert_string_equal(desc_overlay_name(&src, 0), name[0]);
    assert_string_equal(desc_overlay_name(&src, 1), name[1]);
    st = hw_load_overlays(hw_ok, ORIGIN, longs, 3, NULL, 0, &h, &src, &err);
    assert_msg(err, st, "cccc", "file names take more than 4096 bytes together");
    assert_ok(hw_load_overlays(hw_ok, ORIGIN, many, 3, NULL, 0, &h, &src, &err), err);
    assert_string_equal(desc_overlay_name(&src, 0), "a.ini");
    assert_string_equal(desc_overlay_name(&src, 1), "b.ini");
    assert_string_equal(desc_overlay_name(&src, 2), "a.ini");
}

/* ---- names, labels and text ---- */

/* desc_text_check(s) refuses s with a reason starting with prefix. */
static void text_bad(const char *s, const char *prefix, const char *file, int line)
{
    char why[160];
    if (desc_text_check(s, why, sizeof why) != -1 || strncmp(why, prefix, strlen(prefix)) != 0) {
        print_error("%s:%d: \"%s\" does not start with \"%s\"\n", file, line, why, prefix);
        _fail(file, line);
    }
}
#define TEXT_BAD(s, prefix) text_bad((s), (prefix), __FILE__, __LINE__)

/* hw_ok (hw) or wl_ok with the one override set: an error starting with
 * prefix, or success when prefix is NULL. */
static void set_expect(int hw, const char *set, const char *prefix, const char *file, int line)
{
    struct hw_desc h;
    struct wl_desc w;
    struct cp_error err = {0};
    cp_status st = hw ? hw_load(hw_ok, ORIGIN, &set, 1, &h, NULL, &err)
                      : wl_load(wl_ok, ORIGIN, &set, 1, &w, NULL, &err);
    if (prefix)
        check_msg(&err, st, prefix, NULL, file, line);
    else
        check_ok(st, &err, file, line);
}
#define SET_EXPECT(hw, set, prefix) set_expect((hw), (set), (prefix), __FILE__, __LINE__)

static void test_text_check(void **state)
{
    (void)state;
    char why[160];
    static const char *const good[] = {
        "",
        "Test WSE",
        "caf\xc3\xa9 \xc2\xb5s",
        "\xe6\x97\xa5\xe6\x9c\xac",
        "\xf0\x9f\x99\x82",
        "\xc2\xa0nbsp",
        "\xef\xbf\xbd",
    };
    for (size_t i = 0; i < NELEM(good); i++)
        assert_int_equal(desc_text_check(good[i], why, sizeof why), 0);
    TEXT_BAD("Red \x1b[31m", "control character 0x1B at byte 5");
    TEXT_BAD("bell\x07", "control character 0x07 at byte 5");
    TEXT_BAD("a\tb", "control character 0x09 at byte 2");
    TEXT_BAD("\n", "control character 0x0A at byte 1");
    TEXT_BAD("del\x7f", "control character 0x7F at byte 4");
    TEXT_BAD("ok\xc2\x9b", "control character U+009B at byte 3");
    TEXT_BAD("caf\xe9", "byte 4 (0xE9) is not UTF-8 text");
    TEXT_BAD("\xc0\xaf", "byte 1 (0xC0) is not UTF-8 text");         /* overlong '/' */
    TEXT_BAD("x\xed\xa0\x80", "byte 2 (0xED) is not UTF-8 text");    /* a surrogate */
    TEXT_BAD("\xf4\x90\x80\x80", "byte 1 (0xF4) is not UTF-8 text"); /* above U+10FFFF */
    TEXT_BAD("\xe2\x82", "byte 1 (0xE2) is not UTF-8 text");         /* cut short */
    TEXT_BAD("\x80", "byte 1 (0x80) is not UTF-8 text");
}

/* Control characters: in a value, named by its key; elsewhere on a line
 * (key, header, comment, a bare CR), named by the line. */
static void test_err_control(void **state)
{
    (void)state;
    HW_EXPECT(2, "name = Test \x1b[31mWSE",
              "t.ini:2: system.name: control character 0x1B at byte 6", NULL);
    WL_EXPECT(2, "name = GPT\x07", "t.ini:2: model.name: control character 0x07 at byte 4", NULL);
    WL_EXPECT(2, "name = caf\xe9", "t.ini:2: model.name: byte 4 (0xE9) is not UTF-8 text", NULL);
    HW_EXPECT(3, "peak_flops = 7.5\x1b PFLOP/s", "t.ini:3: system.peak_flops: control character",
              NULL);
    HW_EXPECT(46, "sm\x1b=1.5 TB", "t.ini:46: control character 0x1B at byte 3", "plain text");
    HW_EXPECT(45, "[tie\x07rs]", "t.ini:45: control character 0x07 at byte 5", NULL);
    WL_EXPECT(0, "# a \x07 bell", "t.ini:1: control character 0x07 at byte 5", NULL);
    WL_EXPECT(3, "layers = 24\rhidden = 2048",
              "t.ini:3: model.layers: control character 0x0D at byte 3", NULL);
    WL_EXPECT(1, "[model]\rname = x", "t.ini:1: control character 0x0D at byte 8",
              "CR-only line ends");
    /* a tab is a blank between key and value, and CR LF ends a line */
    struct wl_desc w;
    struct cp_error err = {0};
    char *text = edit(wl_ok, 3, "layers\t=\t24\r");
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    free(text);
    /* --set: in the value, named by the key; before '=', by --set alone */
    SET_EXPECT(0, "model.name=a\x1b[31m", "--set model.name: control character 0x1B at byte 2");
    SET_EXPECT(0, "model.na\x07me=x", "--set: control character 0x07 at byte 9");
}

/* A tier's name: not empty, not a size other than the tier's own, not a
 * word --memoryx, claims or sweep read otherwise. */
static void test_err_tier_names(void **state)
{
    (void)state;
    HW_EXPECT(46, "8 TB = 1.5 TB",
              "t.ini:46: tiers.8 TB: the name reads as 8 TB but the entry is 1.5 TB", NULL);
    HW_EXPECT(46, "2.4PB = 2.4 TB", "t.ini:46: tiers.2.4PB: the name reads as 2.4 PB", NULL);
    HW_EXPECT(46, "auto = 1.5 TB", "t.ini:46: tiers.auto: 'auto' is not a name an entry may take",
              "auto, sized, all");
    HW_EXPECT(47, "sized = 2.4 PB", "t.ini:47: tiers.sized: 'sized' is not a name", NULL);
    HW_EXPECT(47, "all = 2.4 PB", "t.ini:47: tiers.all: 'all' is not a name", NULL);
    HW_EXPECT(46, "x\xe9 = 1.5 TB", "t.ini:46: tiers.x\xe9: byte 2 (0xE9) is not UTF-8 text", NULL);
    /* a name that reads as the size it holds, or as no size, is a name */
    struct hw_desc h;
    struct cp_error err = {0};
    char *text = edit(hw_ok, 46, "1.5 TB = 1500 GB\n4TB = 4 TB\nAuto = 1 TB\n8 = 8 TB");
    assert_ok(hw_load(text, ORIGIN, NULL, 0, &h, NULL, &err), err);
    assert_int_equal(h.mx.tiers.n, 5);
    assert_string_equal(h.mx.tiers.item[0].name, "1.5 TB");
    free(text);
    SET_EXPECT(1, "tiers.=1 TB", "--set tiers.: empty name");
    SET_EXPECT(1, "tiers. =1 TB", "--set tiers.: empty name");
    SET_EXPECT(1, "tiers.8TB=1 TB",
               "--set tiers.8TB: the name reads as 8 TB but the entry is 1 TB");
    SET_EXPECT(1, "tiers.small=3 TB", NULL); /* no size: any */
    SET_EXPECT(1, "tiers.all=3 TB", "--set tiers.all: 'all' is not a name");
    SET_EXPECT(1, "tiers.x=1\x07 TB", "--set tiers.x: control character 0x07 at byte 2");
}

static void test_err_set_syntax(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "modellayers=5", "model.layers", "layers=5", "model=x.y", "", "=."};
    for (size_t i = 0; i < NELEM(bad); i++) {
        struct wl_desc w;
        struct cp_error err = {0};
        char want[128];
        snprintf(want, sizeof want, "--set %s: expected section.key=value", bad[i]);
        cp_status st = wl_load(wl_ok, ORIGIN, &bad[i], 1, &w, NULL, &err);
        assert_msg(err, st, want, NULL);
    }
    /* section or key longer than the internal buffers */
    char big[200];
    snprintf(big, sizeof big, "%070d.layers=3", 0);
    struct wl_desc w;
    struct cp_error err = {0};
    const char *sets[] = {big};
    cp_status st = wl_load(wl_ok, ORIGIN, sets, 1, &w, NULL, &err);
    assert_msg(err, st, "--set 0000", "expected section.key=value");
}

static void test_err_set_unknown_key(void **state)
{
    (void)state;
    struct wl_desc w;
    struct hw_desc h;
    struct cp_error err = {0};
    const char *s1[] = {"model.depth=24"};
    cp_status st = wl_load(wl_ok, ORIGIN, s1, 1, &w, NULL, &err);
    assert_msg(err, st, "--set model.depth: no such key in a model description", NULL);
    const char *s2[] = {"system.sram=40 GB"};
    st = wl_load(wl_ok, ORIGIN, s2, 1, &w, NULL, &err);
    assert_msg(err, st, "--set system.sram: no such key in a model description", NULL);
    const char *s3[] = {"model.layers=3"};
    st = hw_load(hw_ok, ORIGIN, s3, 1, &h, NULL, &err);
    assert_msg(err, st, "--set model.layers: no such key in a hardware description", NULL);
    /* a blank before the section is named, not taken for another section */
    const char *s4[] = {" model.layers=3"};
    st = wl_load(wl_ok, ORIGIN, s4, 1, &w, NULL, &err);
    assert_msg(err, st, "--set ' model.layers=3': a blank in the section name ' model'", NULL);
    st = hw_load(hw_ok, ORIGIN, s4, 1, &h, NULL, &err);
    assert_msg(err, st, "--set ' model.layers=3': a blank in the section name ' model'", NULL);
}

static void test_err_set_bad_value(void **state)
{
    (void)state;
    static const struct {
        const char *set, *prefix;
    } wc[] = {
        {"model.layers=-3", "--set model.layers: must not be negative"},
        {"model.layers=2.385", "--set model.layers: must be a whole number"},
        {"model.vocab=0", "--set model.vocab: must be greater than zero"},
        {"model.hidden=nan", "--set model.hidden: 'nan' is not a number"},
        {"model.hidden=", "--set model.hidden: '' is not a number"},
        {"model.act_bytes=2", "--set model.act_bytes: missing unit"},
        {"model.bias=maybe", "--set model.bias: 'maybe' is not a boolean"},
        {"model.norm=groupnorm", "--set model.norm: 'groupnorm' is not one of layernorm|rmsnorm"},
        {"model.tokens=lots", "--set model.tokens: 'lots' is not a number"},
    };
    for (size_t i = 0; i < NELEM(wc); i++) {
        struct wl_desc w;
        struct cp_error err = {0};
        cp_status st = wl_load(wl_ok, ORIGIN, &wc[i].set, 1, &w, NULL, &err);
        assert_msg(err, st, wc[i].prefix, NULL);
    }
    static const struct {
        const char *set, *prefix;
    } hc[] = {
        {"system.utilization=1.2", "--set system.utilization: is a fraction"},
        {"system.io_bandwidth=150 GB", "--set system.io_bandwidth: unit 'GB' is a size"},
        {"system.peak_flops=7.5 PFLOPS", "--set system.peak_flops: unknown unit 'PFLOPS'"},
        /* the hint is of the key's kind, and says case matters when it does */
        {"system.power=23 KW",
         "--set system.power: unknown unit 'KW' (units are case-sensitive: write kW, e.g. 23 kW)"},
        {"swarmx.hop_latency=inf us", "--set swarmx.hop_latency: 'inf us' is not a number"},
    };
    for (size_t i = 0; i < NELEM(hc); i++) {
        struct hw_desc h;
        struct cp_error err = {0};
        cp_status st = hw_load(hw_ok, ORIGIN, &hc[i].set, 1, &h, NULL, &err);
        assert_msg(err, st, hc[i].prefix, NULL);
    }
}

static void test_err_heads_divide_hidden(void **state)
{
    (void)state;
    WL_EXPECT(5, "heads = 15", "t.ini:5: model.heads: 15 heads do not divide hidden 2048", NULL);
    struct wl_desc w;
    struct cp_error err = {0};
    const char *sets[] = {"model.heads=24"};
    cp_status st = wl_load(wl_ok, ORIGIN, sets, 1, &w, NULL, &err);
    assert_msg(err, st, "--set model.heads: 24 heads do not divide hidden 2048", NULL);
    /* hidden changed by --set, heads from the file: blamed on heads' line */
    const char *sets2[] = {"model.hidden=2001"};
    st = wl_load(wl_ok, ORIGIN, sets2, 1, &w, NULL, &err);
    assert_msg(err, st, "t.ini:5: model.heads: 16 heads do not divide hidden 2001", NULL);
}

static void test_err_kv_heads_divide_heads(void **state)
{
    (void)state;
    WL_EXPECT(10, "kv_heads = 3",
              "t.ini:10: model.kv_heads: 3 key/value heads do not divide 16 heads", NULL);
    WL_EXPECT(10, "kv_heads = 32",
              "t.ini:10: model.kv_heads: 32 key/value heads do not divide 16 heads", NULL);
    struct wl_desc w;
    struct cp_error err = {0};
    const char *sets[] = {"model.kv_heads=5"};
    cp_status st = wl_load(wl_ok, ORIGIN, sets, 1, &w, NULL, &err);
    assert_msg(err, st, "--set model.kv_heads: 5 key/value heads do not divide 16 heads", NULL);
    /* divisors are fine */
    char *text = edit(wl_ok, 10, "kv_heads = 4");
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    assert_close(w.kv_heads, 4);
    free(text);
}

static void test_err_predictions_exceed_seq_len(void **state)
{
    (void)state;
    WL_EXPECT(10, "predictions = 2049",
              "t.ini:10: model.predictions: 2049 predicted positions exceed seq_len 2048", NULL);
    WL_EXPECT(10, "predictions = 0", "t.ini:10: model.predictions: must be greater than zero",
              NULL);
    WL_EXPECT(10, "predictions = 2.5", "t.ini:10: model.predictions: must be a whole number", NULL);
    struct wl_desc w;
    struct cp_error err = {0};
    const char *sets[] = {"model.predictions=4096"};
    cp_status st = wl_load(wl_ok, ORIGIN, sets, 1, &w, NULL, &err);
    assert_msg(err, st, "--set model.predictions: 4096 predicted positions exceed seq_len 2048",
               NULL);
    /* seq_len shortened by --set below the file's predictions: blamed on
     * the predictions line */
    char *text = edit(wl_ok, 10, "predictions = 307");
    const char *sets2[] = {"model.seq_len=256"};
    st = wl_load(text, ORIGIN, sets2, 1, &w, NULL, &err);
    assert_msg(err, st, "t.ini:10: model.predictions: 307 predicted positions exceed seq_len 256",
               NULL);
    /* up to seq_len is fine */
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    assert_close(w.predictions, 307);
    free(text);
    text = edit(wl_ok, 10, "predictions = 2048");
    assert_ok(wl_load(text, ORIGIN, NULL, 0, &w, NULL, &err), err);
    assert_close(w.predictions, 2048);
    free(text);
}

static void test_err_fanout_one(void **state)
{
    (void)state;
    HW_EXPECT(16, "fanout = 1",
              "t.ini:16: swarmx.fanout: a tree needs at least 2 children per node", NULL);
    struct hw_desc h;
    struct cp_error err = {0};
    const char *sets[] = {"swarmx.fanout=1"};
    cp_status st = hw_load(hw_ok, ORIGIN, sets, 1, &h, NULL, &err);
    assert_msg(err, st, "--set swarmx.fanout: a tree needs at least 2 children per node", NULL);
    const char *sets2[] = {"swarmx.fanout=2"};
    assert_ok(hw_load(hw_ok, ORIGIN, sets2, 1, &h, NULL, &err), err);
}

static void test_err_first_of_several(void **state)
{
    (void)state;
    /* two handler errors: the first line wins */
    WL_EXPECT(3, "layers = -1\nhidden = -2", "t.ini:3: model.layers: must not be negative", NULL);
    /* a load error stops --set from running */
    struct wl_desc w;
    struct cp_error err = {0};
    char *text = edit(wl_ok, 3, "layers = -1");
    const char *sets[] = {"model.nope=1"};
    cp_status st = wl_load(text, ORIGIN, sets, 1, &w, NULL, &err);
    assert_msg(err, st, "t.ini:3: model.layers: must not be negative", NULL);
    free(text);
}

/* The kind word is the first kind key of [system], whole; a text without
 * one is given the caller's answer for absent. */
static void test_kind_is(void **state)
{
    (void)state;
    static const struct {
        const char *text, *word;
        int absent, want;
    } c[] = {
        {"[system]\nkind = gpu\n", "gpu", 0, 1},
        {"# c\n [system]\n  kind : gpu # a GPU\n", "gpu", 0, 1},
        {"[system]\nkind=gpu", "gpu", 0, 1},
        {"[system]\nkind = gpus\n", "gpu", 0, 0},
        {"[gpu]\nkind = gpu\n", "gpu", 0, 0},
        {"[system]\nkind = gpu\n", "weight-streaming", 1, 0},
        {"[system]\nkind = weight-streaming;x\n", "weight-streaming", 1, 1},
        {"[system]\nkind = tpu\nkind = gpu\n", "gpu", 0, 0},
        {"[system]\nkind = tpu\n", "weight-streaming", 1, 0},
        {"[system]\nname = x\n[tiers]\nkind = gpu\n", "weight-streaming", 1, 1},
        {"[system]\nname = x\n", "gpu", 0, 0},
        {"", "weight-streaming", 1, 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        assert_int_equal(desc_kind_is(c[i].text, c[i].word, c[i].absent), c[i].want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_helper),
        cmocka_unit_test(test_hw_ok_values),
        cmocka_unit_test(test_hw_optional_system_keys),
        cmocka_unit_test(test_hw_server_keys),
        cmocka_unit_test(test_hw_tiers_optional),
        cmocka_unit_test(test_wl_defaults),
        cmocka_unit_test(test_wl_all_keys),
        cmocka_unit_test(test_bool_spellings),
        cmocka_unit_test(test_tokens_chinchilla),
        cmocka_unit_test(test_set_overrides),
        cmocka_unit_test(test_desc_set_direct),
        cmocka_unit_test(test_desc_find),
        cmocka_unit_test(test_desc_format),
        cmocka_unit_test(test_key_error_default_and_set),
        cmocka_unit_test(test_line_limit_boundary),
        cmocka_unit_test(test_crlf_and_no_final_newline),
        cmocka_unit_test(test_null_src_and_err),
        cmocka_unit_test(test_set_tiers),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_crlf_line_limit),
        cmocka_unit_test(test_desc_load_set_direct),
        cmocka_unit_test(test_err_unknown_unit),
        cmocka_unit_test(test_err_wrong_dimension),
        cmocka_unit_test(test_err_missing_unit),
        cmocka_unit_test(test_err_missing_required),
        cmocka_unit_test(test_err_unknown_key),
        cmocka_unit_test(test_err_unknown_section),
        cmocka_unit_test(test_err_duplicate_key),
        cmocka_unit_test(test_err_negative),
        cmocka_unit_test(test_err_zero),
        cmocka_unit_test(test_err_nan_inf),
        cmocka_unit_test(test_err_not_integer),
        cmocka_unit_test(test_err_fraction_above_one),
        cmocka_unit_test(test_err_key_outside_section),
        cmocka_unit_test(test_err_syntax),
        cmocka_unit_test(test_err_first_error_wins_after_syntax_error),
        cmocka_unit_test(test_err_long_line),
        cmocka_unit_test(test_err_bad_boolean),
        cmocka_unit_test(test_err_bad_choice),
        cmocka_unit_test(test_err_empty_value),
        cmocka_unit_test(test_err_text_too_long),
        cmocka_unit_test(test_err_tiers),
        cmocka_unit_test(test_overlays_in_order),
        cmocka_unit_test(test_text_check),
        cmocka_unit_test(test_err_control),
        cmocka_unit_test(test_err_tier_names),
        cmocka_unit_test(test_err_set_syntax),
        cmocka_unit_test(test_err_set_unknown_key),
        cmocka_unit_test(test_err_set_bad_value),
        cmocka_unit_test(test_err_heads_divide_hidden),
        cmocka_unit_test(test_err_kv_heads_divide_heads),
        cmocka_unit_test(test_err_predictions_exceed_seq_len),
        cmocka_unit_test(test_err_fanout_one),
        cmocka_unit_test(test_err_first_of_several),
        cmocka_unit_test(test_kind_is),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
