/* check.h - assertions the cmocka test programs share.  Include after
 * <cmocka.h>.  Static inline, so a program that uses only some of them gets
 * no unused-function warnings. */
#ifndef CP_TEST_CHECK_H
#define CP_TEST_CHECK_H

#include <math.h>

#include "base/status.h"

/* |got - want| / |want| <= tol (|got| <= tol when want is 0). */
static inline void check_rel(double got, double want, double tol, const char *what,
                             const char *file, int line)
{
    double rel = want == 0.0 ? fabs(got) : fabs(got - want) / fabs(want);
    if (!(rel <= tol)) {
        print_error("%s:%d: %s: got %.17g, want %.17g (relative error %.3g > %.3g)\n", file, line,
                    what, got, want, rel, tol);
        _fail(file, line);
    }
}
#define assert_rel(got, want, tol) check_rel((got), (want), (tol), #got, __FILE__, __LINE__)

/* A core call succeeded; on failure print its message. */
static inline void check_ok(cp_status st, const struct cp_error *err, const char *file, int line)
{
    if (st != CP_OK) {
        print_error("%s:%d: status %d: %s\n", file, line, st, err->msg);
        _fail(file, line);
    }
}
#define assert_ok(st, err) check_ok((st), &(err), __FILE__, __LINE__)

#endif
