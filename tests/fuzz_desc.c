/* fuzz_desc.c - libFuzzer harness for the description loader: any bytes,
 * loaded as a hardware and as a model description, with and without an
 * override, must give CP_OK or CP_EINPUT with a message; never a crash, a
 * hang or a leak.
 *
 * The unit parser is also called directly, on the value of each of the
 * first 64 lines (the text after its first '=', else the whole line), line
 * i as dimension i mod UNIT_NDIMS (all nine of them would take half the
 * time of a run): it
 * returns 0 with a finite value or -1 with a reason, unit_format() of the
 * value is not empty, and unit_format_exact() of it with the dimension's
 * base unit reads back as exactly the same double.
 *
 * Seeds: tests/fuzz/fuzz_desc/ (the shipped descriptions without their
 * comments).  Built and run by `make fuzz` and `make fuzz-smoke`. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#include "base/units.h"
#include "desc/hw.h"
#include "desc/tfm.h"
#include "desc/wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* unit_parse() of text as dimension d, and its value back through
 * unit_format() and unit_format_exact(). */
static void check_units(const char *text, unit_dim d)
{
    char why[256] = "", buf[128], back[160];
    double v = NAN, w = NAN;
    int rc = unit_parse(text, d, &v, why, sizeof why);
    assert(rc == 0 || rc == -1);
    if (rc != 0) {
        assert(why[0] != '\0');
        return;
    }
    assert(isfinite(v));
    unit_format(v, d, buf, sizeof buf);
    assert(buf[0] != '\0');
    snprintf(back, sizeof back, "%s %s", unit_format_exact(v, buf, sizeof buf),
             unit_base_symbol(d));
    rc = unit_parse(back, d, &w, why, sizeof why);
    assert(rc == 0 && w == v);
}

/* check_units() on the value of each line of text (at most 64 lines). */
static void check_lines(const char *text)
{
    char line[1024];
    const char *p = text;
    for (int i = 0; i < 64 && *p; i++) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        char *eq = strchr(line, '=');
        check_units(eq ? eq + 1 : line, (unit_dim)(i % UNIT_NDIMS));
        p += n + (p[n] == '\n');
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    struct cp_error err = {0};
    struct hw_desc hw;
    struct wl_desc wl;
    const char *sets[] = {"model.hidden=64", "system.power=1 kW"};
    fuzz_check(hw_load(text, "fuzz.ini", NULL, 0, &hw, NULL, &err), &err);
    cp_status st = wl_load(text, "fuzz.ini", NULL, 0, &wl, NULL, &err);
    fuzz_check(st, &err);
    if (st == CP_OK)
        (void)tfm_train_flops(&wl);
    fuzz_check(wl_load(text, "fuzz.ini", sets, 1, &wl, NULL, &err), &err);
    fuzz_check(hw_load(text, "fuzz.ini", sets + 1, 1, &hw, NULL, &err), &err);
    check_lines(text);
    free(text);
    return 0;
}
