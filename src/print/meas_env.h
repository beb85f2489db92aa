/* meas_env.h - the front end's side of the measurement room (src/meas):
 * a model and a system loaded by name as -m and -s would load them (with
 * the options' overlays and --set), warnings to stderr, and errors the
 * room returns reported. */
#ifndef CP_MEAS_ENV_H
#define CP_MEAS_ENV_H

#include "../cli/cli.h"
#include "../meas/meas_ws.h"

/* env for the options o (which must outlive it). */
void meas_env_init(struct meas_env *env, struct cli_opts *o);

/* Report err (unless the front end has already: an empty message);
 * EXIT_USAGE. */
int meas_env_fail(const struct cp_error *err);

/* Print "cerebras-plan: MSG" to stderr (a meas_env warn, arg unused). */
void meas_env_warn(void *arg, const char *msg);

#endif
