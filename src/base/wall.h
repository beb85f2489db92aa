/* wall.h - the wall clock the commands time their work with (simulate's
 * and cross-check's "wall" figures): one monotonic reading in seconds. */
#ifndef CP_WALL_H
#define CP_WALL_H

/* Seconds on the monotonic clock since an unspecified start; only the
 * difference of two readings means anything. */
double wall_now_s(void);

#endif
