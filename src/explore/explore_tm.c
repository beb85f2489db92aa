/* explore_tm.c - the explorer on a kind of cluster reached only through
 * the training-model interface (src/tm/tm.h; explore.h, struct xp_tm):
 * the GPU systems today, any kind added to the interface tomorrow.
 *
 * Its knobs are what a user gives on the command line (-m -s -n --batch,
 * --set model.seq_len and --set for the kind's parameters): a change
 * builds those options again and loads the job from them (job_load, as
 * every command does), then evaluates it (tm_eval).  A change the loader
 * refuses leaves the job as it was, with the loader's reason on the status
 * line.  The knobs of the weight-streaming model (MemoryX tier, sparsity,
 * overlap) do not apply here and say why.  The uncertainty band (u) is the
 * results' only (step time and time to train: unc_job_run of the job, as
 * estimate --uncertainty gives it); the charts draw none, as each draw
 * runs the kind's model again at every count of the curve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/dtoa.h"
#include "../base/xalloc.h"
#include "../face/scenario_ws.h"
#include "explore.h"

/* Steps of a parameter's value: coarse with Left/Right, fine with -/+. */
#define XP_TM_COARSE 1.25
#define XP_TM_FINE 1.02
#define XP_TM_SEQLEN_FINE 128

void xp_last_message(FILE *f, char *buf, size_t n)
{
    char line[512];
    buf[0] = '\0';
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "cerebras-plan: ", 15) == 0)
            snprintf(buf, n, "%s", line + 15);
    }
}

/* Run load(x, o) with stderr in a temporary file (curses keeps the
 * screen); its last message into why.  Returns what load returns. */
static int quietly(int (*load)(struct xp_state *, const struct cli_opts *), struct xp_state *x,
                   const struct cli_opts *o, char *why, size_t n)
{
    FILE *log = tmpfile();
    int err = log ? dup(STDERR_FILENO) : -1;
    if (err < 0 || (fflush(stderr), dup2(fileno(log), STDERR_FILENO) < 0)) {
        if (err >= 0)
            close(err);
        if (log)
            fclose(log);
        snprintf(why, n, "cannot capture the loader's messages");
        return EXIT_USAGE;
    }
    int rc = load(x, o);
    fflush(stderr);
    dup2(err, STDERR_FILENO);
    close(err);
    xp_last_message(log, why, n);
    fclose(log);
    return rc;
}

/* Load o into x->t: the job, and its workload (for the batch in
 * sequences and the sequence length).  -1, or an exit code after a
 * message. */
static int load(struct xp_state *x, const struct cli_opts *o)
{
    struct xp_tm *t = &x->t;
    int rc = job_load(o, "explore", &t->j);
    if (rc >= 0)
        return rc;
    const char *wsets[CLI_MAX_SETS], *hsets[CLI_MAX_SETS];
    size_t nw = 0, nh = 0;
    static struct desc_src src;
    char name[CAT_NAME_MAX];
    scenario_split_sets(o, wsets, &nw, hsets, &nh);
    return scenario_load_wl(o, o->model ? o->model : SCENARIO_DEFAULT_MODEL, wsets, nw, &t->wl,
                            &src, name);
}

int xp_put_set(struct cli_opts *o, char *slot, size_t size, const char *name, const char *value)
{
    size_t len = strlen(name), i = 0;
    snprintf(slot, size, "%s=%s", name, value);
    while (i < o->nsets && !(strncmp(o->sets[i], name, len) == 0 && o->sets[i][len] == '='))
        i++;
    if (i == CLI_MAX_SETS)
        return -1;
    o->sets[i] = slot;
    o->nsets += i == o->nsets;
    return 0;
}

/* xp_put_set with a->sets[k] for the text; -1 past the last slot. */
static int put_set(struct cli_opts *o, struct xp_tm_args *a, size_t k, const char *name,
                   const char *value)
{
    return k < CLI_MAX_SETS ? xp_put_set(o, a->sets[k], sizeof a->sets[k], name, value) : -1;
}

/* v as a --set value that reads back exactly: the shortest decimal in the
 * SI base unit of d. */
static const char *exact(double v, unit_dim d, char *buf, size_t n)
{
    char num[DTOA_BUF + 8];
    const char *sym = unit_base_symbol(d);
    snprintf(buf, n, "%s%s%s", unit_format_exact(v, num, sizeof num), *sym ? " " : "", sym);
    return buf;
}

/* The options of knobs k over the explorer's own (--set, --data-dir, the
 * kind's options as given) into o, their text in a.  -1 when the --set
 * do not fit. */
static int options(const struct xp_state *x, const struct xp_knobs *k, struct cli_opts *o,
                   struct xp_tm_args *a)
{
    const struct tm_kind *kind = x->t.j.tm.kind;
    *o = *x->o;
    snprintf(a->model, sizeof a->model, "%s", k->model);
    snprintf(a->system, sizeof a->system, "%s", k->system);
    o->model = a->model;
    o->system = a->system;
    o->nsys = unit_format_exact(k->count, a->num[0], sizeof a->num[0]);
    if (k->batch > 0) {
        o->batch = unit_format_exact(k->batch, a->num[1], sizeof a->num[1]);
        o->batch_tokens = NULL;
    }
    size_t s = 0;
    char name[96], v[64];
    for (size_t i = 0; i < kind->nparams() && i < DESC_MAX_KEYS; i++)
        if (k->hw_set[i] && put_set(o, a, s++, kind->param_name(i, name, sizeof name),
                                    exact(k->hw[i], kind->param_dim(i), v, sizeof v)) != 0)
            return -1;
    if (k->seq_len > 0 &&
        put_set(o, a, s, "model.seq_len", unit_format_exact(k->seq_len, v, sizeof v)) != 0)
        return -1;
    return 0;
}

/* The job of the knobs k, evaluated: 0; or -1 with the reason in why and
 * x as it was (the knobs before loaded again: the job's storage is the
 * loader's, one job at a time). */
static int apply(struct xp_state *x, const struct xp_knobs *k, char *why, size_t n)
{
    struct xp_tm *t = &x->t;
    struct cli_opts o;
    if (options(x, k, &o, &t->args) != 0) {
        snprintf(why, n, "more than %d --set overrides", CLI_MAX_SETS);
        return -1;
    }
    const struct face *other = job_face(&o);
    if (other != t->j.face) { /* a name that does not resolve has the default's face */
        struct cat_entry e;
        struct cp_error err = {0};
        if (cat_resolve(&o.dirs, k->system, CAT_HW, &e, &err) != CP_OK) {
            snprintf(why, n, "%s", err.msg);
            return -1;
        }
        cat_entry_free(&e);
        snprintf(why, n, "%s is a %s system: explore it with -s %s", k->system, other->kind->name,
                 k->system);
        return -1;
    }
    int rc = quietly(load, x, &o, why, n);
    if (rc < 0) {
        t->k = *k;
        t->o = o;
        t->fresh = 0;
        /* the detail's kept listing is of the job before (tm.h) */
        memset(t->detail, 0, t->j.tm.kind->detail_size);
        return 0;
    }
    char again[256] = "";
    if (options(x, &t->k, &o, &t->args) != 0 || quietly(load, x, &o, again, sizeof again) >= 0)
        snprintf(why + strlen(why), n - strlen(why), " (and the job before: %s)", again);
    return -1;
}

/* The first parameter the kind ranks (sensitivity's), else the first. */
static size_t first_param(const struct tm_kind *k)
{
    for (size_t i = 0; i < k->nparams(); i++)
        if (!k->param_skip_why(i))
            return i;
    return 0;
}

int xp_tm_init(struct xp_state *x)
{
    struct xp_tm *t = &x->t;
    t->on = 1;
    int rc = load(x, x->o);
    if (rc >= 0)
        return rc;
    t->detail = xmalloc(t->j.tm.kind->detail_size);
    memset(t->detail, 0, t->j.tm.kind->detail_size);
    snprintf(t->k.model, sizeof t->k.model, "%s", t->j.model);
    snprintf(t->k.system, sizeof t->k.system, "%s", t->j.system);
    t->k.count = t->j.tm.count;
    t->o = *x->o;
    t->param = first_param(t->j.tm.kind);
    return -1;
}

void xp_tm_free(struct xp_state *x)
{
    free(x->t.detail);
    x->t.detail = NULL;
}

/* The counts of the curve: 1, 2, 4, ... up to four times the job's count
 * (at least 8), and the count itself among them.  Returns how many. */
static size_t counts(double count, double *ns)
{
    double max = fmax(4 * count, 8);
    size_t n = 0;
    for (double N = 1; n + 1 < XP_CURVE_MAX && N <= max; N *= 2) {
        if (count < N && (n == 0 || ns[n - 1] < count))
            ns[n++] = count;
        ns[n++] = N;
    }
    return n;
}

/* The time to train (or the step time and its parts, on the breakdown
 * chart) at the counts of the curve, at the job's global batch. */
static void curve(struct xp_state *x)
{
    struct xp_tm *t = &x->t;
    struct xp_curve *cv = &x->curve;
    double ns[XP_CURVE_MAX];
    cv->n = counts(t->j.tm.count, ns);
    for (size_t c = 0; c < cv->n; c++) {
        struct tm_result r;
        struct cp_error err = {0};
        if (tm_eval(&t->j.tm, ns[c], TM_STRONG, &r, t->detail, &err) != CP_OK)
            r.runs = 0;
        cv->x[c] = ns[c];
        cv->y[c] = !r.runs ? NAN : x->chart == XP_CHART_BREAKDOWN ? r.step_s : r.time_s;
        for (size_t i = 0; i < TM_MAX_PARTS; i++)
            cv->part[c][i] = r.runs && i < r.nparts ? r.part_s[i] : 0;
        cv->lo[c] = cv->hi[c] = NAN;
    }
}

int xp_tm_recompute(struct xp_state *x, char *why, size_t n)
{
    struct xp_tm *t = &x->t;
    struct cp_error err = {0};
    /* the band does not depend on the chart: a new chart keeps it (each
     * draw runs the layout search again), unless it failed */
    int band_stale = !t->fresh || t->unc != x->unc || (x->unc && !x->band_ok);
    if (t->fresh && t->chart == x->chart && !band_stale)
        return 0;
    if (tm_eval(&t->j.tm, 0, TM_STRONG, &t->r, t->detail, &err) != CP_OK) {
        t->r.runs = 0;
        snprintf(t->r.why, sizeof t->r.why, "%s", err.msg);
    }
    if (band_stale)
        x->band_ok = 0;
    if (band_stale && x->unc && t->r.runs) { /* one that does not run says why on the screen */
        x->band_ok = unc_job_run(&t->j.tm, t->j.hw_src, 0, TM_STRONG, XP_UNC_SAMPLES,
                                 UNC_DEFAULT_SEED, &x->band, NULL, &err) == CP_OK;
        if (!x->band_ok)
            snprintf(why, n, "uncertainty: %s", err.msg);
    }
    struct tm_result keep = t->r;
    curve(x);
    /* the detail is the job's own again (the curve lent it to others) */
    tm_eval(&t->j.tm, 0, TM_STRONG, &t->r, t->detail, &err);
    t->r = keep;
    t->fresh = 1;
    t->chart = x->chart;
    t->unc = x->unc;
    return x->unc && t->r.runs && !x->band_ok;
}

size_t xp_tm_ranged(const struct xp_state *x)
{
    const struct tm_kind *k = x->t.j.tm.kind;
    size_t n = 0;
    for (size_t i = 0; i < k->nparams(); i++)
        n += x->t.j.hw_src->spread[k->param_index(i)] > 0;
    return n + (unc_model_error(&x->t.j.tm) > 0); /* the model's own error, drawn too */
}

/* The batch in sequences the job runs. */
static double batch_seqs(const struct xp_tm *t)
{
    return t->r.global_tokens / t->wl.seq_len;
}

const char *xp_tm_value(const struct xp_state *x, enum xp_param p, char *buf, size_t n)
{
    const struct xp_tm *t = &x->t;
    const struct tm_kind *k = t->j.tm.kind;
    switch (p) {
    case XP_MODEL:
        snprintf(buf, n, "%s", t->j.model);
        break;
    case XP_SYSTEM:
        snprintf(buf, n, "%s", t->j.system);
        break;
    case XP_SYSTEMS:
        snprintf(buf, n, "%g", t->j.tm.count);
        break;
    case XP_BATCH:
        snprintf(buf, n, "%g seqs", batch_seqs(t));
        break;
    case XP_SEQLEN:
        snprintf(buf, n, "%g", t->wl.seq_len);
        break;
    case XP_HWKEY:
        k->param_name(t->param, buf, n);
        break;
    case XP_HWVAL:
        unit_format(k->param_get(t->j.tm.own, t->param), k->param_dim(t->param), buf, n);
        break;
    default: /* the weight-streaming model's knobs */
        snprintf(buf, n, "-");
        break;
    }
    return buf;
}

const char *xp_tm_param_label(const struct xp_state *x, char *buf, size_t n)
{
    return x->t.j.tm.kind->param_name(x->t.param, buf, n);
}

/* Why parameter p is not a knob of this kind; NULL when it is. */
static const char *not_here(const struct xp_state *x, enum xp_param p, char *buf, size_t n)
{
    if (p != XP_MEMORYX && p != XP_SPARSITY && p != XP_OVERLAP)
        return NULL;
    snprintf(buf, n, "does not apply to %s (%s): a knob of the weight-streaming model",
             x->t.j.system, x->t.j.tm.kind->name);
    return buf;
}

/* The next (dir +1) or previous name of list l after name, among those
 * whose kind is the job's. */
static const char *next_name(const struct xp_state *x, const struct cat_list *l, const char *name,
                             int dir)
{
    long n = (long)l->n, at = 0;
    for (long i = 0; i < n; i++)
        if (strcmp(l->items[i].name, name) == 0)
            at = i;
    for (long s = 1; s <= n; s++) {
        long i = ((at + dir * s) % n + n) % n;
        if (l == &x->models || job_listed_face(&l->items[i]) == x->t.j.face)
            return l->items[i].name;
    }
    return name;
}

/* The knobs k with parameter p stepped: dir -1 or +1, fine or coarse. */
static void step_knob(struct xp_state *x, struct xp_knobs *k, enum xp_param p, int dir, int fine)
{
    const struct xp_tm *t = &x->t;
    const struct tm_kind *kind = t->j.tm.kind;
    double v;
    switch (p) {
    case XP_MODEL:
        memmove(k->model, next_name(x, &x->models, k->model, dir), sizeof k->model);
        break;
    case XP_SYSTEM: /* the next system's hardware as it is loaded */
        memmove(k->system, next_name(x, &x->systems, k->system, dir), sizeof k->system);
        memset(k->hw_set, 0, sizeof k->hw_set);
        break;
    case XP_SYSTEMS:
        k->count = fmax(fine ? k->count + dir : dir > 0 ? 2 * k->count : floor(k->count / 2), 1);
        break;
    case XP_BATCH:
        v = batch_seqs(t);
        k->batch = fmax(fine ? v + dir : dir > 0 ? 2 * v : floor(v / 2), 1);
        break;
    case XP_SEQLEN:
        v = t->wl.seq_len;
        k->seq_len = fmax(fine ? v + dir * XP_TM_SEQLEN_FINE : dir > 0 ? 2 * v : floor(v / 2), 1);
        break;
    case XP_HWVAL:
        v = kind->param_get(t->j.tm.own, t->param);
        k->hw[t->param] = kind->param_whole(t->param) ? v + dir
                          : v == 0                    ? (dir > 0 ? 0.01 : 0)
                          : dir > 0                   ? v * (fine ? XP_TM_FINE : XP_TM_COARSE)
                                                      : v / (fine ? XP_TM_FINE : XP_TM_COARSE);
        k->hw_set[t->param] = 1;
        break;
    default:
        break;
    }
}

/* The kind's parameter after (dir +1) or before the one shown. */
static void step_param(struct xp_state *x, int dir)
{
    size_t n = x->t.j.tm.kind->nparams();
    x->t.param = (x->t.param + n + (size_t)(dir + (int)n)) % n;
}

int xp_tm_step(struct xp_state *x, int dir, int fine, char *why, size_t n)
{
    enum xp_param p = (enum xp_param)x->sel;
    char v[64];
    if (not_here(x, p, why, n))
        return 1;
    if (p == XP_HWKEY) {
        step_param(x, dir);
        return 0;
    }
    struct xp_knobs k = x->t.k;
    step_knob(x, &k, p, dir, fine);
    if (p == XP_HWVAL && !x->t.j.tm.kind->param_valid(x->t.j.tm.own, x->t.param, k.hw[x->t.param]))
        return snprintf(why, n, "cannot go %s %s", dir > 0 ? "above" : "below",
                        xp_tm_value(x, XP_HWVAL, v, sizeof v)),
               1;
    return apply(x, &k, why, n) != 0;
}

/* The prompt's text as parameter p's value into k; 1 (with why) when it
 * is not one. */
static int parse_knob(struct xp_state *x, struct xp_knobs *k, enum xp_param p, const char *in,
                      char *why, size_t n)
{
    const struct tm_kind *kind = x->t.j.tm.kind;
    double v;
    if (p == XP_MODEL || p == XP_SYSTEM) {
        snprintf(p == XP_MODEL ? k->model : k->system, sizeof k->model, "%s", in);
        if (p == XP_SYSTEM)
            memset(k->hw_set, 0, sizeof k->hw_set);
        return 0;
    }
    unit_dim d = p == XP_HWVAL ? kind->param_dim(x->t.param) : UNIT_COUNT;
    if (unit_parse(in, d, &v, why, n) != 0)
        return 1;
    if (p == XP_SYSTEMS)
        k->count = v;
    else if (p == XP_BATCH)
        k->batch = v;
    else if (p == XP_SEQLEN)
        k->seq_len = v;
    else if (!kind->param_valid(x->t.j.tm.own, x->t.param, v))
        return snprintf(why, n, "not a valid value of this key"), 1;
    else
        k->hw[x->t.param] = v, k->hw_set[x->t.param] = 1;
    return 0;
}

int xp_tm_input(struct xp_state *x, const char *in, char *why, size_t n)
{
    enum xp_param p = (enum xp_param)x->sel;
    if (not_here(x, p, why, n))
        return 1;
    if (p == XP_HWKEY) {
        const struct tm_kind *kind = x->t.j.tm.kind;
        char name[96];
        for (size_t i = 0; i < kind->nparams(); i++)
            if (strcmp(kind->param_name(i, name, sizeof name), in) == 0) {
                x->t.param = i;
                return 0;
            }
        snprintf(why, n, "not a numeric hardware key of %s (section.key, as show lists them)",
                 x->t.j.system);
        return 1;
    }
    struct xp_knobs k = x->t.k;
    if (parse_knob(x, &k, p, in, why, n) != 0)
        return 1;
    return apply(x, &k, why, n) != 0;
}
