/* progress.h - a progress line on standard error for work that may take
 * seconds (validate's refits): shown only when standard error is a
 * terminal, first after PROGRESS_DELAY_S, redrawn at most every
 * PROGRESS_EVERY_S, erased at the end.  (sweep keeps its own, with its
 * table, in src/sweep.) */
#ifndef CP_PROGRESS_H
#define CP_PROGRESS_H

#include <stddef.h>
#include <time.h>

#define PROGRESS_DELAY_S 1.0
#define PROGRESS_EVERY_S 0.25

struct progress {
    int on, shown;
    const char *what; /* "validate: weight-streaming refits" */
    struct timespec t0, last;
};

void progress_start(struct progress *p, const char *what);

/* done of total finished (a gpu_fit_progress_fn: p is a struct progress *). */
void progress_show(void *p, size_t done, size_t total);

/* Erase the line if it was shown. */
void progress_end(struct progress *p);

#endif
