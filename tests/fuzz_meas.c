/* fuzz_meas.c - libFuzzer harness for the calibration CSV reader
 * (meas_parse, src/desc/meas.c): any bytes, read as a measurements file,
 * must give CP_OK or CP_EINPUT; never a crash, a hang or a leak.
 *
 * On CP_EINPUT the message is not empty, names the origin ("fuzz.csv:")
 * and the list is empty.  On CP_OK every row keeps the promises of
 * meas.h: at least one row, each with a line, NUL-terminated names (model
 * and system not empty), a known quantity, systems a whole number >= 1,
 * 0 <= sparsity < 1, batch 0 or a whole number >= 1, and a finite value
 * above 0.
 *
 * Seeds: tests/fuzz/fuzz_meas/ (the files of hw/calibration/ and small
 * hand-written ones).  Built and run by `make fuzz` and `make fuzz-smoke`. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#include "desc/meas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int whole(double v)
{
    return v >= 1 && v == floor(v) && v <= 0x1p53;
}

static void check_row(const struct meas_row *r)
{
    assert(r->line >= 1);
    assert(memchr(r->model, '\0', sizeof r->model) && r->model[0] != '\0');
    assert(memchr(r->system, '\0', sizeof r->system) && r->system[0] != '\0');
    assert(memchr(r->memoryx, '\0', sizeof r->memoryx));
    assert(r->quantity >= 0 && r->quantity < MEAS_NQUANTITIES);
    assert(whole(r->systems));
    assert(r->sparsity >= 0 && r->sparsity < 1);
    assert(r->batch == 0 || whole(r->batch));
    assert(isfinite(r->value) && r->value > 0);
    for (int c = 0; c < MEAS_NCOLS; c++)
        assert(r->at[c].line >= 0 && r->at[c].col >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    struct cp_error err = {0};
    struct meas_list l;
    cp_status st = meas_parse(text, "fuzz.csv", &l, &err);
    assert(st == CP_OK || st == CP_EINPUT);
    if (st == CP_OK) {
        assert(l.n >= 1 && l.rows);
        for (size_t i = 0; i < l.n; i++)
            check_row(&l.rows[i]);
    } else {
        assert(err.msg[0] != '\0');
        assert(strncmp(err.msg, "fuzz.csv:", 9) == 0);
        assert(l.n == 0 && l.rows == NULL);
    }
    meas_list_free(&l);
    free(text);
    return 0;
}
