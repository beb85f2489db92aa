/* emit.c - what every command writes through: a message on standard
 * error, and standard output flushed and checked. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("cerebras-plan: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

int cli_flush(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_error("error writing the output: %s", strerror(errno));
    return EXIT_OK;
}

int cli_emit(const struct cli_opts *o, const struct out_table *t)
{
    const struct out_sink *sink = o->csv ? &out_csv : &out_text;
    sink->write(stdout, t);
    return cli_flush();
}
