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

/* Close the temporary file and check that it was written whole (a full
 * disk is named); the temporary file stays, watched, for atomic_commit()
 * or atomic_abort().  A caller that prints its results after writing the
 * file calls this first, so that a file it cannot write fails the command
 * before anything is printed.  0, or nonzero after a message (the
 * temporary file is removed).  A device or FIFO is closed. */
int atomic_close(struct atomic_file *a);

/* Close (if atomic_close() has not), flush the standard output and rename
 * into place: a command whose output could not be written replaces no
 * file, so a caller prints its results before it commits.  0, or nonzero
 * after a message (the temporary file is removed).  A device or FIFO has
 * been written as the command went; only its close is checked. */
int atomic_commit(struct atomic_file *a);

/* Close (if open) and remove the temporary file. */
void atomic_abort(struct atomic_file *a);

#endif
