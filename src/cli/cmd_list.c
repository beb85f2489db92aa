/* cmd_list.c - `list [models|hw]`: the descriptions that can be named, with
 * their key figures. */
#include <stdio.h>
#include <string.h>

#include "../desc/tfm.h"
#include "../desc/wl.h"
#include "cli.h"
#include "job.h"

static const char *const all_header[] = {"kind", "name", "title", "source"};
static const char *const model_header[] = {"name",   "title",   "params", "layers",
                                           "hidden", "seq_len", "tokens", "source"};
static const char *const hw_header[] = {"name",  "title", "model",        "peak_flops",
                                        "sram",  "hbm",   "io_bandwidth", "memoryx_server_memory",
                                        "source"};

static cp_status model_row(struct out_table *t, int csv, const struct cat_entry *e,
                           struct cp_error *err)
{
    struct wl_desc w;
    cp_status st = wl_load(e->text, e->origin, NULL, 0, &w, NULL, err);
    if (st != CP_OK)
        return st;
    char p[32], l[32], h[32], s[32], tk[32];
    out_row(t, (const char *[]){e->name, w.name, out_num(csv, tfm_params(&w), UNIT_COUNT, p, 32),
                                out_num(csv, w.layers, UNIT_COUNT, l, 32),
                                out_num(csv, w.hidden, UNIT_COUNT, h, 32),
                                out_num(csv, w.seq_len, UNIT_COUNT, s, 32),
                                out_num(csv, tfm_tokens(&w), UNIT_COUNT, tk, 32), e->origin});
    return CP_OK;
}

/* Title of a description for the kind-less listing ("" if it has none). */
static cp_status any_row(struct out_table *t, const struct cat_entry *e, struct cp_error *err)
{
    const char *kind = e->kind == CAT_MODEL ? "model" : "hw";
    cp_status st;
    if (e->kind == CAT_MODEL) {
        struct wl_desc w;
        if ((st = wl_load(e->text, e->origin, NULL, 0, &w, NULL, err)) == CP_OK)
            out_row(t, (const char *[]){kind, e->name, w.name, e->origin});
    } else {
        char title[DESC_TEXT_MAX];
        if ((st = job_face_of(e->text)->title(e, title, sizeof title, err)) == CP_OK)
            out_row(t, (const char *[]){kind, e->name, title, e->origin});
    }
    return st;
}

static cp_status list_row(struct out_table *t, enum cat_kind kind, int csv,
                          const struct cat_entry *e, struct cp_error *err)
{
    if (kind == CAT_MODEL)
        return model_row(t, csv, e, err);
    if (kind == CAT_HW)
        return job_face_of(e->text)->list_row(t, csv, e, err);
    return any_row(t, e, err);
}

static int parse_kind(const struct cli_opts *o, enum cat_kind *k)
{
    *k = CAT_ANY;
    if (o->nargs == 0)
        return 0;
    if (strcmp(o->args[0], "models") == 0 || strcmp(o->args[0], "model") == 0)
        *k = CAT_MODEL;
    else if (strcmp(o->args[0], "hw") == 0 || strcmp(o->args[0], "hardware") == 0)
        *k = CAT_HW;
    else
        return cli_error("list: unknown kind '%s' (expected models or hw)", o->args[0]);
    return 0;
}

int cmd_list(struct cli_opts *o)
{
    enum cat_kind kind;
    if (parse_kind(o, &kind) != 0)
        return EXIT_USAGE;
    struct cp_error err = {0};
    struct cat_list l;
    cat_list(&o->dirs, kind, &l, &err);

    struct out_table t;
    out_init(&t,
             kind == CAT_ANY     ? 4
             : kind == CAT_MODEL ? 8
                                 : 9,
             kind == CAT_ANY     ? all_header
             : kind == CAT_MODEL ? model_header
                                 : hw_header);
    int rc = EXIT_OK;
    for (size_t i = 0; i < l.n; i++) {
        struct cat_entry e;
        cp_status st = cat_open(&l.items[i], &e, &err);
        if (st == CP_OK)
            st = list_row(&t, kind, o->csv, &e, &err);
        if (st != CP_OK)
            rc = cli_error("%s", err.msg);
        cat_entry_free(&e);
    }
    int wrc = cli_emit(o, &t);
    out_free(&t);
    cat_list_free(&l);
    return rc != EXIT_OK ? rc : wrc;
}
