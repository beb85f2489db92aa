/* status.c - filling the error record. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

cp_status cp_fail(struct cp_error *err, cp_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}
