/* report_record.c - the command line and the resolved descriptions a
 * report folder records (see report_record.h).  The command line is
 * rebuilt from struct cli_opts rather than copied from argv, so that the
 * explorer, which fills the options itself, records the same way. */
#include "report_record.h"
#include "report_folder.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/dtoa.h"
#include "../desc/hw.h"
#include "../desc/wl.h"
#include "../face/cmp_opts.h"
#include "../cli/out.h"

/* Characters a POSIX shell leaves alone in a word. */
#define SHELL_SAFE "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"

struct line {
    char *buf;
    size_t n, len;
};

static void add_raw(struct line *l, const char *text, size_t k)
{
    if (l->len + 1 >= l->n)
        return;
    if (k > l->n - l->len - 1)
        k = l->n - l->len - 1;
    memcpy(l->buf + l->len, text, k);
    l->len += k;
    l->buf[l->len] = '\0';
}

/* " word", single-quoted when the shell would change it. */
static void add_word(struct line *l, const char *w)
{
    add_raw(l, " ", 1);
    size_t k = strlen(w);
    if (k > 0 && strspn(w, SHELL_SAFE) == k) {
        add_raw(l, w, k);
        return;
    }
    add_raw(l, "'", 1);
    for (; *w; w++)
        if (*w == '\'')
            add_raw(l, "'\\''", 4);
        else
            add_raw(l, w, 1);
    add_raw(l, "'", 1);
}

static void add_opt(struct line *l, const char *flag, const char *value)
{
    if (!value)
        return;
    add_word(l, flag);
    add_word(l, value);
}

/* The scenario options after -m, -s and -n, in the order help lists them. */
static void add_scenario(struct line *l, const struct cli_opts *o)
{
    const struct {
        const char *flag, *value;
    } opt[] = {
        {"--memoryx", o->memoryx},           {"--memoryx-servers", o->mx_servers},
        {"--act-servers", o->act_servers},   {"--activations", o->activations},
        {"--sparsity", o->sparsity},         {"--batch", o->batch},
        {"--batch-tokens", o->batch_tokens}, {"--tokens", o->tokens},
        {"--overlap", o->overlap},           {"--price", o->price},
    };
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
        add_opt(l, opt[i].flag, opt[i].value);
    if (o->batch_penalty)
        add_word(l, "--batch-penalty");
}

/* The GPU options: gpu, the GPU as given or its recorded file (NULL: not
 * given), --gpu-price and the layout's figures; then the decision's
 * --deadline and --confidence. */
static void add_gpu(struct line *l, const struct cli_opts *o, const char *gpu)
{
    const struct {
        const char *flag, *value;
    } opt[] = {
        {"--gpu", gpu},
        {"--gpu-price", o->gpu_price},
        {"--precision", o->precision},
        {"--tp", o->tp},
        {"--pp", o->pp},
        {"--cp", o->cp},
        {"--vp", o->vp},
        {"--mbs", o->mbs},
    };
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
        add_opt(l, opt[i].flag, opt[i].value);
    if (o->fsdp)
        add_word(l, "--fsdp");
    add_opt(l, "--deadline", o->deadline);
    add_opt(l, "--confidence", o->confidence);
}

void report_desc_paths(const struct scenario *s, char *hw, char *model, size_t n)
{
    snprintf(hw, n, "hw/%s.ini", s->system);
    snprintf(model, n, "models/%s.ini", s->model);
}

char *report_cmdline(const struct cli_opts *o, const struct scenario *s, enum report_cmd which,
                     const char *out, const char *gpu_file, char *buf, size_t n)
{
    struct line l = {buf, n, 0};
    if (n)
        buf[0] = '\0';
    add_raw(&l, "cerebras-plan report", strlen("cerebras-plan report"));
    if (which == REPORT_CMD_FILES) {
        char hw[CAT_NAME_MAX + 16], model[CAT_NAME_MAX + 16], ns[DTOA_BUF];
        report_desc_paths(s, hw, model, sizeof hw);
        add_opt(&l, "-m", model);
        add_opt(&l, "-s", hw);
        add_opt(&l, "-n", unit_format_exact(s->c.systems, ns, sizeof ns));
        add_scenario(&l, o);
        add_gpu(&l, o, gpu_file);
        add_opt(&l, "-o", out);
        return buf;
    }
    add_opt(&l, "-m", o->model);
    add_opt(&l, "-s", o->system);
    add_opt(&l, "-n", o->nsys);
    add_scenario(&l, o);
    add_gpu(&l, o, o->gpu);
    for (size_t i = 0; i < o->nsets; i++)
        add_opt(&l, "--set", o->sets[i]);
    for (size_t i = 0; i < o->noverlays; i++)
        add_opt(&l, "--hw-overlay", o->overlays[i]);
    add_opt(&l, "--data-dir", o->data_dir);
    add_opt(&l, "-o", o->output);
    add_opt(&l, "--format", o->format);
    add_opt(&l, "--max-events", o->max_events);
    if (o->force)
        add_word(&l, "--force");
    return buf;
}

/* ---- the description files ---- */

/* The description an override is for. */
enum set_for { SET_HW, SET_MODEL, SET_GPU };

/* The overrides of one description in a comment. */
static void sets_comment(FILE *f, const struct cli_opts *o, enum set_for which)
{
    for (size_t i = 0; i < o->nsets; i++) {
        enum set_for is = cmpo_gpu_set(o->sets[i])                ? SET_GPU
                          : strncmp(o->sets[i], "model.", 6) == 0 ? SET_MODEL
                                                                  : SET_HW;
        if (is != which)
            continue;
        char line[512];
        snprintf(line, sizeof line, "then --set %s", o->sets[i]);
        out_desc_comment(f, line);
    }
}

static void put_num(FILE *f, double v, unit_dim d)
{
    char b[DTOA_BUF];
    const char *u = unit_base_symbol(d);
    fprintf(f, "%s%s%s", unit_format_exact(v, b, sizeof b), *u ? " " : "", u);
}

/* Every key of schema sc from target, by section, and the list section. */
static void put_keys(FILE *f, const struct desc_schema *sc, const void *target,
                     const struct desc_src *src)
{
    const char *section = NULL;
    for (size_t i = 0; i < sc->nkeys; i++) {
        const struct desc_key *k = &sc->keys[i];
        const char *field = (const char *)target + k->off;
        if (k->type == DESC_TEXT && field[0] == '\0')
            continue;
        if (!section || strcmp(section, k->section) != 0) {
            fprintf(f, "%s[%s]\n", section ? "\n" : "", k->section);
            section = k->section;
        }
        if (src && src->line[i] < 0)
            fputs("# from --set\n", f);
        else if (src && src->line[i] > 0 && src->in_overlay[i] && src->noverlays > 1)
            fprintf(f, "# from overlay %d, line %d\n", src->in_overlay[i], src->line[i]);
        else if (src && src->line[i] > 0 && src->in_overlay[i])
            fprintf(f, "# from the overlay, line %d\n", src->line[i]);
        fprintf(f, "%s = ", k->name);
        int word =
            k->type == DESC_NUM_OR_WORD && *(const int *)((const char *)target + k->word_off);
        if (k->type == DESC_NUM || (k->type == DESC_NUM_OR_WORD && !word)) {
            put_num(f, *(const double *)field, k->dim);
            if (src && src->spread[i] > 0) {
                fputs(" +- ", f);
                put_num(f, src->spread[i], k->dim);
            }
        } else {
            char b[DESC_TEXT_MAX + 32];
            fputs(desc_format(k, target, b, sizeof b), f);
        }
        fputc('\n', f);
    }
    if (!sc->list_section)
        return;
    const struct desc_list *list = (const void *)((const char *)target + sc->list_off);
    if (list->n)
        fprintf(f, "\n[%s]\n", sc->list_section);
    for (size_t i = 0; i < list->n; i++) {
        fprintf(f, "%s = ", list->item[i].name);
        put_num(f, list->item[i].value, sc->list_dim);
        fputc('\n', f);
    }
}

static FILE *open_in(const char *dir, const char *rel, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    if (!f)
        cli_error("report: %s: %s", path, strerror(errno));
    return f;
}

static int write_hw(const char *dir, const char *rel, const struct cli_opts *o,
                    const struct scenario *s)
{
    char path[DESC_ORIGIN_MAX + 128], line[DESC_ORIGIN_MAX + 64];
    FILE *f = open_in(dir, rel, path, sizeof path);
    if (!f)
        return EXIT_USAGE;
    fprintf(f,
            "# %s as the report resolved it: every key at its value, exact, in SI\n"
            "# base units (format: cerebras-plan(5)).  Read from\n",
            s->hw.wse.name);
    out_desc_comment(f, s->hw_src.origin);
    for (int i = 0; i < s->hw_src.noverlays; i++) {
        if (s->hw_src.noverlays > 1)
            snprintf(line, sizeof line, "with overlay %d, %s", i + 1,
                     desc_overlay_name(&s->hw_src, i));
        else
            snprintf(line, sizeof line, "with the overlay %s", desc_overlay_name(&s->hw_src, i));
        out_desc_comment(f, line);
    }
    sets_comment(f, o, SET_HW);
    fputc('\n', f);
    put_keys(f, &hw_schema, &s->hw, &s->hw_src);
    return report_close(f, path);
}

static int write_model(const char *dir, const char *rel, const struct cli_opts *o,
                       const struct scenario *s)
{
    char path[DESC_ORIGIN_MAX + 128];
    FILE *f = open_in(dir, rel, path, sizeof path);
    if (!f)
        return EXIT_USAGE;
    struct cat_entry e;
    struct cp_error err = {0};
    const char *arg = o->model ? o->model : SCENARIO_DEFAULT_MODEL;
    fprintf(f,
            "# %s as the report resolved it: every key at its value, exact (format:\n"
            "# cerebras-plan(5)).  Read from\n",
            s->wl.name);
    if (cat_resolve(&o->dirs, arg, CAT_MODEL, &e, &err) == CP_OK) {
        out_desc_comment(f, e.origin);
        cat_entry_free(&e);
    } else {
        out_desc_comment(f, arg);
    }
    sets_comment(f, o, SET_MODEL);
    fputc('\n', f);
    put_keys(f, &wl_schema, &s->wl, NULL);
    return report_close(f, path);
}

int report_write_descs(const char *dir, const struct cli_opts *o, const struct scenario *s)
{
    char hw[CAT_NAME_MAX + 16], model[CAT_NAME_MAX + 16], sub[DESC_ORIGIN_MAX + 16];
    report_desc_paths(s, hw, model, sizeof hw);
    const char *subs[] = {"hw", "models"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(sub, sizeof sub, "%s/%s", dir, subs[i]);
        if (mkdir(sub, 0777) != 0)
            return cli_error("report: cannot create %s: %s", sub, strerror(errno));
    }
    int rc = write_hw(dir, hw, o, s);
    return rc < 0 ? write_model(dir, model, o, s) : rc;
}

int report_write_gpu(const char *dir, const char *rel, const struct cli_opts *o,
                     const struct gpuhw_desc *g, const struct desc_src *src)
{
    char path[DESC_ORIGIN_MAX + 128];
    FILE *f = open_in(dir, rel, path, sizeof path);
    if (!f)
        return EXIT_USAGE;
    fprintf(f,
            "# %s as the report resolved it: every key at its value, exact, in SI\n"
            "# base units (format: cerebras-plan(5)).  Read from\n",
            g->name);
    out_desc_comment(f, src->origin);
    sets_comment(f, o, SET_GPU);
    fputc('\n', f);
    put_keys(f, &gpuhw_schema, g, src);
    return report_close(f, path);
}
