/* wall.c - the monotonic wall clock (wall.h). */
#include "wall.h"

#include <time.h>

double wall_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
