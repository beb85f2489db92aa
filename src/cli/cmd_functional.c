/* cmd_functional.c - `simulate --functional` (placeholder until fsim lands). */
#include "cli.h"

int cmd_simulate_functional(struct cli_opts *o);
int cmd_simulate_functional(struct cli_opts *o)
{
    (void)o;
    return cli_error("simulate --functional: not built yet");
}
