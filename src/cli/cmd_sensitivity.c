/* cmd_sensitivity.c - `sensitivity` (being written). */
#include "cli.h"

int cmd_sensitivity(struct cli_opts *o)
{
    (void)o;
    return cli_error("sensitivity: not implemented yet");
}
