/* xalloc.h - allocation that cannot return NULL.
 *
 * Out of memory is not a user error this program can recover from: the
 * x-functions run the registered cleanup hook (the explorer uses it to restore
 * the terminal) and abort. */
#ifndef CP_XALLOC_H
#define CP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Register a function to run before an out-of-memory abort (NULL clears). */
void xalloc_set_cleanup(void (*fn)(void));

#endif
