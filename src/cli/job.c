/* job.c - the faces of the kinds, and the commands that reach them.  See
 * job.h. */
#include "job.h"

#include <stddef.h>

#include "../gpu/gpu_tm.h"
#include "../model/ws_tm.h"
#include "gscen.h"
#include "scenario.h"

static int ws_load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    static struct scenario s;
    int rc = scenario_refuse_gpu_opts(o, cmd);
    if (rc >= 0 || (rc = unc_opt_parse(o, &j->uo)) >= 0 || (rc = scenario_load(o, &s)) >= 0)
        return rc;
    j->tm = (struct tm_job){&tm_ws, &s.c, s.c.systems};
    j->model = s.model;
    j->system = s.system;
    j->hw_src = &s.hw_src;
    j->label = s.tier;
    j->scen = &s;
    return -1;
}

static int gpu_load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    static struct gscen s;
    static struct gpu_tm_job g;
    j->uo = (struct unc_opt){0};
    int rc = gscen_load(o, cmd, &s);
    if (rc >= 0)
        return rc;
    g = (struct gpu_tm_job){&s.g, &s.wl, s.spec, s.tokens, s.price};
    j->tm = (struct tm_job){&tm_gpu, &g, s.spec.gpus};
    j->model = s.model;
    j->system = s.system;
    j->hw_src = &s.g_src;
    j->label = NULL;
    j->scen = &s;
    return -1;
}

/* One line per kind; the first is the default system's. */
static const struct face faces[] = {
    {&tm_ws, ws_load, ws_estimate, ws_scale, ws_plan, ws_list_row, ws_title, ws_show,
     &sweep_ws_face},
    {&tm_gpu, gpu_load, gpu_estimate, gpu_scale, gpu_plan, gpu_list_row, gpu_title, gpu_show,
     &sweep_gpu_face},
};

int job_load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    j->face = job_face(o);
    return j->face->load(o, cmd, j);
}

const struct face *job_face_of(const char *text)
{
    const struct tm_kind *k = tm_kind_of(text);
    for (size_t i = 0; i < sizeof faces / sizeof faces[0]; i++)
        if (faces[i].kind == k)
            return &faces[i];
    return &faces[0];
}

const struct face *job_face(const struct cli_opts *o)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_resolve(&o->dirs, o->system ? o->system : SCENARIO_DEFAULT_SYSTEM, CAT_HW, &e, &err) !=
        CP_OK)
        return &faces[0];
    const struct face *f = job_face_of(e.text);
    cat_entry_free(&e);
    return f;
}

int cmd_estimate(struct cli_opts *o)
{
    static struct job j;
    int rc = job_load(o, "estimate", &j);
    return rc >= 0 ? rc : j.face->estimate(o, &j);
}

int cmd_scale(struct cli_opts *o)
{
    if (o->weak && o->strong)
        return cli_error("scale: --weak and --strong exclude each other");
    if (o->nsys)
        return cli_error("scale: give the cluster sizes with --systems, not -n");
    if (o->price)
        return cli_error("scale: --price does not apply: scale compares speeds; for the cost of "
                         "each size use sweep --systems LIST --price P");
    static struct job j;
    int rc = job_load(o, "scale", &j);
    return rc >= 0 ? rc : j.face->scale(o, &j);
}

int cmd_plan(struct cli_opts *o)
{
    if (o->nsys)
        return cli_error("plan: -n does not apply (plan chooses the number of systems)");
    return job_face(o)->plan(o);
}
