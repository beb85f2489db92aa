/* meas_run.c - validate over files of both kinds of corpus, written once
 * against the table of kinds (meas_run.h). */
#include "meas_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"

/* Sniffed and evaluated in this order: a GPU corpus by its header, weight
 * streaming whatever else. */
const struct meas_kind *const meas_kinds[MEAS_NKINDS] = {&meas_kind_gpu, &meas_kind_ws};

const struct meas_kind *meas_kind_of(const char *text)
{
    for (size_t k = 0; k + 1 < MEAS_NKINDS; k++)
        if (meas_kinds[k]->sniff(text))
            return meas_kinds[k];
    return meas_kinds[MEAS_NKINDS - 1];
}

struct meas_run *meas_run_new(const struct meas_env *env, const char *fit)
{
    struct meas_run *v = xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->env = env;
    v->fit = fit;
    return v;
}

void meas_run_free(struct meas_run *v)
{
    for (size_t f = 0; f < v->nsets; f++)
        meas_set_free(&v->sets[f]);
    vgpu_free(&v->gpu);
    free(v->pt);
    free(v->all);
    free(v->lines);
    free(v->why);
    free(v);
}

cp_status meas_run_keys(struct meas_run *v, struct cp_error *err)
{
    struct cp_error why = {0};
    if (calib_parse_keys(v->fit ? v->fit : VALIDATE_FIT, v->keys, &v->nkeys, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "validate: --fit %s", why.msg);
    if (v->fit)
        return meas_check_scopes(v->env->dirs, "validate", v->keys, v->nkeys, err);
    return CP_OK;
}

cp_status meas_run_add(struct meas_run *v, const char *name, const char *text, struct cp_error *err)
{
    return meas_kind_of(text)->add(v, name, text, err);
}

cp_status meas_run_load(struct meas_run *v, const char *const *args, size_t nargs, int ws_only,
                        struct cp_error *err)
{
    static const char *const shipped[] = {"measurements.csv", "gpu-measurements.csv"};
    size_t nfiles = nargs ? nargs : ws_only ? 1 : 2;
    for (size_t f = 0; f < nfiles; f++) {
        struct cat_entry e;
        cp_status st = nargs ? cat_read_file(args[f], &e, err)
                             : cat_find_data(v->env->dirs, "hw", shipped[f], &e, err);
        if (st != CP_OK)
            return st;
        st = meas_run_add(v, nargs ? args[f] : e.origin, e.text, err);
        cat_entry_free(&e);
        if (st != CP_OK)
            return st;
    }
    return CP_OK;
}

cp_status meas_run_evaluate(struct meas_run *v, const struct meas_progress *pg,
                            struct cp_error *err)
{
    for (size_t k = 0; k < MEAS_NKINDS; k++)
        if (meas_kinds[k]->check && meas_kinds[k]->check(v, err) != CP_OK)
            return CP_EINPUT;
    for (size_t k = 0; k < MEAS_NKINDS; k++)
        if (meas_kinds[k]->evaluate(v, pg, err) != CP_OK)
            return CP_EINPUT;
    v->nlines = v->n + v->gpu.n;
    v->lines = xmalloc((v->nlines ? v->nlines : 1) * sizeof *v->lines);
    size_t at = 0;
    for (int kind = 0; kind < VKIND_N; kind++) /* the table's order of kinds */
        for (size_t k = 0; k < MEAS_NKINDS; k++)
            if (meas_kinds[k]->kind == (enum vkind)kind)
                at += meas_kinds[k]->lines(v, v->lines + at);
    return CP_OK;
}

const char *meas_run_how(const struct meas_run *v, enum vkind kind, char *buf, size_t n)
{
    for (size_t k = 0; k < MEAS_NKINDS; k++)
        if (meas_kinds[k]->kind == kind)
            return meas_kinds[k]->how(v, buf, n);
    return NULL;
}

void meas_run_keys_text(const struct meas_run *v, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < v->nkeys && at < n; j++) {
        char name[128];
        struct calib_key k = {.key = v->keys[j].key, .scope = v->keys[j].scope};
        int w = snprintf(buf + at, n - at, "%s%s", j ? ", " : "",
                         calib_key_name(&k, name, sizeof name));
        at += w > 0 ? (size_t)w : 0;
    }
}
