/* job.c - the faces of the kinds, and the commands that reach them.  See
 * job.h. */
#include "job.h"

#include <stddef.h>

#include "scenario.h"
#include "../face/scale.h"

/* One line per kind; the first is the default system's. */
static const struct face *const faces[] = {&face_ws, &face_gpu};

int job_load(const struct cli_opts *o, const char *cmd, struct job *j)
{
    j->face = job_face(o);
    return j->face->load(o, cmd, j);
}

const struct face *job_face_of(const char *text)
{
    const struct tm_kind *k = tm_kind_of(text);
    for (size_t i = 0; i < sizeof faces / sizeof faces[0]; i++)
        if (faces[i]->kind == k)
            return faces[i];
    return faces[0];
}

const struct face *job_listed_face(const struct cat_entry *item)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_open(item, &e, &err) != CP_OK)
        return NULL;
    const struct face *f = job_face_of(e.text);
    cat_entry_free(&e);
    return f;
}

const struct face *job_default_face(void)
{
    return faces[0];
}

const struct face *job_face(const struct cli_opts *o)
{
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_resolve(&o->dirs, o->system ? o->system : SCENARIO_DEFAULT_SYSTEM, CAT_HW, &e, &err) !=
        CP_OK)
        return faces[0];
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
    return rc >= 0 ? rc : scale_run(o, &j);
}

int cmd_plan(struct cli_opts *o)
{
    if (o->nsys)
        return cli_error("plan: -n does not apply (plan chooses the number of systems)");
    return job_face(o)->plan(o);
}
