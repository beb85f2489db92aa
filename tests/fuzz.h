/* fuzz.h - what the libFuzzer harnesses (tests/fuzz_*.c) share: the input
 * as a NUL-terminated string, and the check every loader call must pass. */
#ifndef CP_FUZZ_H
#define CP_FUZZ_H

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
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

/* What a harness does before its first input: the standard streams to
 * /dev/null (the commands print), and the built-in data only (no
 * CEREBRAS_PLAN_PATH, an empty CEREBRAS_PLAN_DATADIR). */
static inline void fuzz_quiet(void)
{
    FILE *out = fopen("/dev/null", "w"), *err = fopen("/dev/null", "w");
    FILE *in = fopen("/dev/null", "r");
    if (!out || !err || !in)
        abort();
    stdout = out;
    stderr = err;
    stdin = in;
    unsetenv("CEREBRAS_PLAN_PATH");
    setenv("CEREBRAS_PLAN_DATADIR", "", 1);
}

/* CP_OK, or CP_EINPUT with a message: never another status, never silent. */
static inline void fuzz_check(cp_status st, const struct cp_error *err)
{
    assert(st == CP_OK || st == CP_EINPUT);
    assert(st == CP_OK || err->msg[0] != '\0');
}

/* The command-line harnesses (fuzz_cli.c, fuzz_run.c): the most words an
 * input becomes, and the most --uncertainty draws a run may ask for. */
#define FUZZ_MAX_ARGS 48
#define FUZZ_MAX_SAMPLES 99

static inline int fuzz_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* 1 unless a is --u... (--uncertainty) with other than "=N", N at most
 * FUZZ_MAX_SAMPLES: the default of 1000 draws, or a count in the next word,
 * makes a run take seconds. */
static inline int fuzz_samples_ok(const char *a)
{
    if (!fuzz_prefix(a, "--u"))
        return 1;
    const char *eq = strchr(a, '=');
    return eq && eq[1] != '\0' && strspn(eq + 1, "0123456789") == strlen(eq + 1) &&
           strlen(eq + 1) <= 2 && atoi(eq + 1) <= FUZZ_MAX_SAMPLES;
}

/* Split text[0..size) in place at newline and NUL bytes into argv[argc..],
 * at most FUZZ_MAX_ARGS words (no empty word after a final separator), and
 * end argv with NULL; argv has room for argc + FUZZ_MAX_ARGS + 1 entries.
 * Returns the new argc. */
static inline int fuzz_split(char *text, size_t size, char **argv, int argc)
{
    int last = argc + FUZZ_MAX_ARGS;
    for (size_t i = 0, start = 0; i <= size && argc < last; i++) {
        if (i < size && text[i] != '\n' && text[i] != '\0')
            continue;
        if (i == size && start == size)
            break;
        text[i] = '\0';
        argv[argc++] = text + start;
        start = i + 1;
    }
    argv[argc] = NULL;
    return argc;
}

#endif
