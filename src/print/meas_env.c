/* meas_env.c - the front end's side of the measurement room (see
 * meas_env.h). */
#include "meas_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../face/scenario_ws.h"

/* The model and system by name, as scenario_load_names loads them; its
 * error is printed there, so err's message stays empty. */
static cp_status load(void *arg, const char *model, const char *system, struct meas_scen *s,
                      struct cp_error *err)
{
    struct scenario *sc = xmalloc(sizeof *sc);
    memset(sc, 0, sizeof *sc);
    int rc = scenario_load_names(arg, model, system, sc);
    if (rc < 0) {
        memcpy(s->model, sc->model, sizeof s->model);
        memcpy(s->system, sc->system, sizeof s->system);
        s->wl = sc->wl;
        s->hw = sc->hw;
        s->hw_src = sc->hw_src;
    }
    free(sc);
    if (rc < 0)
        return CP_OK;
    err->msg[0] = '\0';
    return CP_EINPUT;
}

void meas_env_warn(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "cerebras-plan: %s\n", msg);
}

void meas_env_init(struct meas_env *env, struct cli_opts *o)
{
    *env = (struct meas_env){.dirs = &o->dirs, .load = load, .warn = meas_env_warn, .arg = o};
}

int meas_env_fail(const struct cp_error *err)
{
    if (err->msg[0] == '\0')
        return EXIT_USAGE;
    return cli_error("%s", err->msg);
}
