/* cmd_calibrate.c - `calibrate` (being written). */
#include "cli.h"

int cmd_calibrate(struct cli_opts *o)
{
    (void)o;
    return cli_error("calibrate: not implemented yet");
}
