/* progress.c - the progress line of progress.h. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

void progress_start(struct progress *p, const char *what)
{
    memset(p, 0, sizeof *p);
    p->on = isatty(STDERR_FILENO);
    p->what = what;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    p->last = p->t0;
}

void progress_show(void *arg, size_t done, size_t total)
{
    struct progress *p = arg;
    if (!p->on)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (since(&p->t0, &now) < PROGRESS_DELAY_S || since(&p->last, &now) < PROGRESS_EVERY_S)
        return;
    p->last = now;
    p->shown = 1;
    double dt = since(&p->t0, &now), rate = dt > 0 ? (double)done / dt : 0;
    fprintf(stderr, "\r\033[K%s: %zu/%zu, %.0f s left", p->what, done, total,
            rate > 0 ? (double)(total - done) / rate : 0.0);
}

void progress_end(struct progress *p)
{
    if (p->shown) {
        fflush(stdout);
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}
