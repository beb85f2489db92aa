/* xalloc.c - allocation that cannot return NULL. */
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static void (*cleanup_fn)(void);

void xalloc_set_cleanup(void (*fn)(void))
{
    cleanup_fn = fn;
}

static void *check(void *p)
{
    if (!p) {
        if (cleanup_fn)
            cleanup_fn();
        abort();
    }
    return p;
}

void *xmalloc(size_t n)
{
    return check(malloc(n ? n : 1));
}

void *xrealloc(void *p, size_t n)
{
    return check(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}
