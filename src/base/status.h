/* status.h - status codes and the error record every core function fills in.
 *
 * Core functions never print and never exit: they return a cp_status and, on
 * failure, leave a one-line message in a struct cp_error that the front end
 * prints.  User errors (bad file, bad flag) are CP_EINPUT; broken invariants
 * are assertions, not statuses. */
#ifndef CP_STATUS_H
#define CP_STATUS_H

#include <stddef.h>

typedef enum {
    CP_OK = 0,
    CP_EINPUT,    /* a description file, --set or argument is wrong   */
    CP_ENOTFOUND, /* a name matched no file in any data source        */
    CP_EIO,       /* a file could not be read                         */
    CP_ENOMEM,    /* an allocation failed                             */
} cp_status;

#define CP_ERROR_MAX 4608 /* room for a path of PATH_MAX and a reason */

struct cp_error {
    cp_status status;
    char msg[CP_ERROR_MAX];
};

/* Fill err (if non-NULL) with a printf-style message; returns status so a
 * caller can write `return cp_fail(err, CP_EINPUT, "...")`. */
cp_status cp_fail(struct cp_error *err, cp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
