/* fuzz_desc.c - libFuzzer harness for the description loader: any bytes,
 * loaded as a hardware and as a model description, with and without an
 * override, must give CP_OK or CP_EINPUT with a message; never a crash, a
 * hang or a leak.  Built and run by `make fuzz`. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec/hw.h"
#include "spec/tfm.h"
#include "spec/wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(cp_status st, const struct cp_error *err)
{
    assert(st == CP_OK || st == CP_EINPUT);
    assert(st == CP_OK || err->msg[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct cp_error err = {0};
    struct hw_desc hw;
    struct wl_desc wl;
    const char *sets[] = {"model.hidden=64", "system.power=1 kW"};
    check(hw_load(text, "fuzz.ini", NULL, 0, &hw, NULL, &err), &err);
    cp_status st = wl_load(text, "fuzz.ini", NULL, 0, &wl, NULL, &err);
    check(st, &err);
    if (st == CP_OK)
        (void)tfm_train_flops(&wl);
    check(wl_load(text, "fuzz.ini", sets, 1, &wl, NULL, &err), &err);
    check(hw_load(text, "fuzz.ini", sets + 1, 1, &hw, NULL, &err), &err);
    free(text);
    return 0;
}
