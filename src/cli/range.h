/* range.h - lists and ranges of numbers on the command line:
 *   "1,2,4,8"   a list
 *   "A..B"      every whole number from A to B
 *   "A..BxF"    A, A*F, A*F^2, ... up to B (F > 1)
 * Items of a list may themselves be ranges ("1..4,16,64..256x4"). */
#ifndef CP_RANGE_H
#define CP_RANGE_H

#include <stddef.h>

/* Most values one range may produce. */
#define RANGE_MAX 100000

/* Parse arg; on success *vals (malloc'd, caller frees) holds *n values in
 * order and -1 is returned; else an exit code after a message naming flag.
 * what: NULL, or the things counted ("systems"): the values must then be
 * whole, and a geometric range whose factor makes a fraction of a whole
 * start is refused naming the factor (the caller checks the rest). */
int range_parse(const char *flag, const char *arg, const char *what, double **vals, size_t *n);

#endif
