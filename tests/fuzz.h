/* fuzz.h - what the libFuzzer harnesses (tests/fuzz_*.c) share: the input
 * as a NUL-terminated string, and the check every loader call must pass. */
#ifndef CP_FUZZ_H
#define CP_FUZZ_H

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

/* A malloc'd copy of data[0..size) with a NUL after it, or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

/* CP_OK, or CP_EINPUT with a message: never another status, never silent. */
static inline void fuzz_check(cp_status st, const struct cp_error *err)
{
    assert(st == CP_OK || st == CP_EINPUT);
    assert(st == CP_OK || err->msg[0] != '\0');
}

#endif
