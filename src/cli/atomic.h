/* atomic.h - output files written whole or not at all: written to a
 * temporary file beside the target and renamed over it when complete, so an
 * error or an interrupt never leaves a half-written file under the name. */
#ifndef CP_ATOMIC_H
#define CP_ATOMIC_H

#include <stdio.h>

struct atomic_file {
    FILE *f;
    char path[4096], tmp[4096 + 16];
    int direct; /* a device or FIFO: written through, no temporary file */
};

/* Open a temporary file beside path for writing (beside a symbolic link's
 * target, which the rename then replaces, keeping the link); a device or
 * FIFO is opened and written directly.  A directory, a socket or a link to
 * nothing is refused.  0, or nonzero after a message naming path. */
int atomic_open(struct atomic_file *a, const char *path);

/* Close and rename into place.  0, or nonzero after a message (the
 * temporary file is removed). */
int atomic_commit(struct atomic_file *a);

/* Close and remove the temporary file. */
void atomic_abort(struct atomic_file *a);

#endif
