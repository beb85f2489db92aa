/* cmd_plan.c - `plan` (being written). */
#include "cli.h"

int cmd_plan(struct cli_opts *o)
{
    (void)o;
    return cli_error("plan: not implemented yet");
}
