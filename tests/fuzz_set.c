/* fuzz_set.c - libFuzzer harness for the overrides applied on top of a
 * shipped description: the --set "section.key=value" parser (desc_set), the
 * "+-" / "±" range syntax of values ("2 us +- 50%", "1 TB/s +- 100 GB/s")
 * and the --hw-overlay loader (hw_load_overlay, desc_overlay).
 *
 * Input: the first byte picks the base, hw/cs2.ini (even) or hw/cs3.ini
 * (odd), as built into the program, without its comment lines (five times
 * as many runs a second).  The rest is --set strings, one a line
 * (at most CLI_MAX_SETS = 64), then optionally a line "%%" and an overlay
 * text after it.  As the program does, a set starting with "model." goes to
 * the model (models/gpt3-175b.ini), any other to the hardware.
 *
 * Asserted: hw_load_overlay() and wl_load() return CP_OK or CP_EINPUT, with
 * a message on CP_EINPUT; never a crash, a hang or a leak.  On CP_OK the
 * hardware passes hw_inconsistency(); every number is finite and valid for
 * its key (positive, or zero where allowed; at most 1 for a fraction; whole
 * where required); a range (desc_src.spread) is finite, absent on
 * whole-number keys, and both its ends are valid too (desc.h); every key
 * formats (as `show` does); every line points into the file, overlay or
 * --set it came from; and one uncertainty draw (unc_job_draw of the
 * weight-streaming job on the hardware, the consumer of the ranges) gives
 * CP_OK or CP_EINPUT.
 *
 * Seeds: tests/fuzz/fuzz_set/.  Built and run by `make fuzz` and
 * `make fuzz-smoke`. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "fuzz.h"

#include "model/ws_tm.h"
#include "plan/unc.h"
#include "desc/catalog.h"
#include "desc/hw.h"
#include "desc/tfm.h"
#include "desc/wl.h"

#define MAX_SETS 64 /* CLI_MAX_SETS */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *base_hw[2], *base_model;
static gsl_rng *rng;

/* The built-in copy of kind/name without its comment lines (kept for the
 * whole run). */
static const char *embedded(const char *kind, const char *name)
{
    for (size_t i = 0; i < cat_nembedded; i++) {
        if (strcmp(cat_embedded[i].kind, kind) != 0 || strcmp(cat_embedded[i].name, name) != 0)
            continue;
        const char *p = cat_embedded[i].text;
        char *out = malloc(strlen(p) + 1), *q = out;
        if (!out)
            abort();
        while (*p) {
            size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
            if (p[strspn(p, " \t")] != '#')
                q = (char *)memcpy(q, p, n) + n;
            p += n;
        }
        *q = '\0';
        return out;
    }
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    base_hw[0] = embedded("hw", "cs2");
    base_hw[1] = embedded("hw", "cs3");
    base_model = embedded("models", "gpt3-175b");
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    struct cp_error err = {0};
    struct hw_desc hw;
    struct wl_desc wl;
    if (!rng || hw_load(base_hw[0], "cs2", NULL, 0, &hw, NULL, &err) != CP_OK ||
        hw_load(base_hw[1], "cs3", NULL, 0, &hw, NULL, &err) != CP_OK ||
        wl_load(base_model, "gpt3-175b", NULL, 0, &wl, NULL, &err) != CP_OK)
        abort();
    return 0;
}

/* v (with its range spread) is a value key k accepts, as desc_value.c checks. */
static int valid(const struct desc_key *k, double v)
{
    if (!isfinite(v) || v < 0 || (v == 0 && !(k->flags & DESC_ZERO_OK)))
        return 0;
    if ((k->flags & DESC_AT_MOST_1) && v > 1)
        return 0;
    return !(k->flags & DESC_INTEGER) || (v == floor(v) && v <= 0x1p53);
}

static void check_loaded(const struct desc_schema *s, const void *target,
                         const struct desc_src *src, int overlay)
{
    for (size_t i = 0; i < s->nkeys; i++) {
        const struct desc_key *k = &s->keys[i];
        char buf[128];
        desc_format(k, target, buf, sizeof buf);
        assert(memchr(buf, '\0', sizeof buf));
        assert(src->line[i] >= -1);
        assert(!src->in_overlay[i] || (overlay && src->line[i] > 0));
        double sp = src->spread[i];
        assert(isfinite(sp) && sp >= 0);
        if (k->type != DESC_NUM && k->type != DESC_NUM_OR_WORD) {
            assert(sp == 0);
            continue;
        }
        if (k->type == DESC_NUM_OR_WORD && *(const int *)((const char *)target + k->word_off))
            continue;
        double v = *(const double *)((const char *)target + k->off);
        assert(valid(k, v));
        if (sp > 0) {
            assert(!(k->flags & DESC_INTEGER));
            assert(valid(k, v - sp) && valid(k, v + sp));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *hw_text = base_hw[data[0] & 1];
    char *text = fuzz_text(data + 1, size - 1);
    if (!text)
        return 0;

    /* Split off the sets, a line each, up to a "%%" line. */
    const char *hsets[MAX_SETS], *wsets[MAX_SETS], *overlay = NULL;
    size_t nh = 0, nw = 0;
    for (char *p = text; *p && nh + nw < MAX_SETS;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (strcmp(p, "%%") == 0) {
            overlay = nl ? nl + 1 : "";
            break;
        }
        if (strncmp(p, "model.", 6) == 0)
            wsets[nw++] = p;
        else
            hsets[nh++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }

    struct cp_error err = {0};
    struct hw_desc hw;
    struct desc_src src;
    cp_status st = hw_load_overlay(hw_text, "<built-in>/hw/cs.ini", overlay, "fuzz-overlay.ini",
                                   hsets, nh, &hw, &src, &err);
    fuzz_check(st, &err);
    if (st == CP_OK) {
        const char *sec, *name;
        assert(hw_inconsistency(&hw, &sec, &name) == NULL);
        check_loaded(&hw_schema, &hw, &src, overlay != NULL);
        for (size_t i = 0; i < hw.mx.tiers.n; i++)
            assert(isfinite(hw.mx.tiers.item[i].value) && hw.mx.tiers.item[i].value > 0);
        struct cluster c = {.hw = &hw};
        const struct tm_job j = {&tm_ws, &c, 1};
        void *buf = malloc(tm_ws.clone_size), *drawn;
        assert(buf);
        gsl_rng_set(rng, 1);
        fuzz_check(unc_job_draw(&j, &src, rng, buf, &drawn, &err), &err);
        free(buf);
    }

    struct wl_desc wl;
    struct desc_src wsrc;
    st = wl_load(base_model, "<built-in>/models/gpt3-175b.ini", wsets, nw, &wl, &wsrc, &err);
    fuzz_check(st, &err);
    if (st == CP_OK) {
        check_loaded(&wl_schema, &wl, &wsrc, 0);
        (void)tfm_train_flops(&wl);
    }
    free(text);
    return 0;
}
