/* explore_key.c - what the explorer's keys do (explore.h, xp_key): move
 * between the parameters, step the selected one, type a value at the
 * prompt, switch the chart and the uncertainty band. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/param.h"
#include "explore.h"

/* Steps: coarse with Left/Right, fine with -/+. */
#define XP_SPARSITY_COARSE 0.05
#define XP_SPARSITY_FINE 0.01
#define XP_OVERLAP_COARSE 0.1
#define XP_OVERLAP_FINE 0.01
#define XP_HW_COARSE 1.25
#define XP_HW_FINE 1.02
#define XP_SEQLEN_FINE 128

/* "hw key NAME = VALUE" on the status line: the whole name, whatever the
 * width of the parameters panel. */
static void show_hwkey(struct xp_state *x)
{
    char name[96], v[64];
    xp_status(x, "hw key %s = %s", xp_label(x, XP_HWVAL, name, sizeof name),
              xp_value(x, XP_HWVAL, v, sizeof v));
}

static void step_to(struct xp_state *x, int dir, int fine);

/* Step parameter p: dir -1 or +1, fine or coarse.  A numeric step that
 * takes the model out of its range (a batch doubled to 1e308, a bandwidth
 * divided towards zero) is undone, with the reason in the status line. */
static void step(struct xp_state *x, int dir, int fine)
{
    enum xp_param p = (enum xp_param)x->sel;
    if (x->t.on) {
        char why[512], label[96];
        if (xp_tm_step(x, dir, fine, why, sizeof why) != 0)
            xp_status(x, "%s: %.400s", xp_label(x, p, label, sizeof label), why);
        else if (p == XP_HWKEY)
            show_hwkey(x);
        return;
    }
    if (p == XP_MODEL || p == XP_SYSTEM || p == XP_MEMORYX || p == XP_HWKEY) {
        step_to(x, dir, fine); /* shipped choices only */
        return;
    }
    struct cluster keep = x->s.c;
    double seq_len = x->s.wl.seq_len, hwval = param_get(&x->s.hw, x->hwkey);
    step_to(x, dir, fine);
    struct cp_error err = {0};
    if (train_check(&x->s.c, &err) != CP_OK) {
        x->s.c = keep;
        x->s.wl.seq_len = seq_len;
        *param_ptr(&x->s.hw, x->hwkey) = hwval;
        char label[96];
        xp_status(x, "%s: %.200s", xp_label(x, (enum xp_param)x->sel, label, sizeof label),
                  err.msg);
    }
}

/* The next (dir +1) or previous shipped model or system. */
static void step_choice(struct xp_state *x, int dir)
{
    const struct cat_list *l = x->sel == XP_MODEL ? &x->models : &x->systems;
    size_t n = l->n, at = x->sel == XP_MODEL ? x->model_i : x->system_i;
    size_t i = (at + n + (size_t)(dir + (int)n)) % n;
    if (x->sel == XP_MODEL)
        xp_reload(x, l->items[i].name, x->s.system);
    else
        xp_reload(x, x->s.model, l->items[i].name);
}

/* The MemoryX cycle: sized for the run, then each tier, then sized again. */
static void step_memoryx(struct xp_state *x, int dir)
{
    const struct desc_list *t = &x->s.hw.mx.tiers;
    if (t->n == 0)
        return;
    int at = -1;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->item[i].name, x->s.tier) == 0)
            at = (int)i;
    int i = at + dir;
    if (at < 0)
        i = dir > 0 ? 0 : (int)t->n - 1;
    if (i < 0 || i >= (int)t->n)
        scenario_auto_tier(&x->s);
    else
        scenario_memoryx(&x->s, t->item[i].name);
}

/* The hardware key's value times or over a factor (a whole-number key by
 * one), unless the key refuses it (said in the status line). */
static void step_hwval(struct xp_state *x, int dir, int fine)
{
    double v = param_get(&x->s.hw, x->hwkey), f = fine ? XP_HW_FINE : XP_HW_COARSE;
    double nv = dir > 0 ? v * f : v / f;
    if (hw_schema.keys[x->hwkey].flags & DESC_INTEGER)
        nv = v + dir;
    if (v == 0)
        nv = dir > 0 ? 0.01 : 0;
    char label[96], a[64];
    if (param_valid(&x->s.hw, x->hwkey, nv))
        *param_ptr(&x->s.hw, x->hwkey) = nv;
    else
        xp_status(x, "%s cannot go %s %s", xp_label(x, XP_HWVAL, label, sizeof label),
                  dir > 0 ? "above" : "below",
                  unit_format(v, hw_schema.keys[x->hwkey].dim, a, sizeof a));
    if (!x->s.c.overlap_set)
        x->s.c.overlap = x->s.hw.mx.boundary_overlap;
}

/* v stepped by one (fine) or doubled / halved down to a whole number. */
static double step_whole(double v, int dir, int fine)
{
    return fine ? v + dir : (dir > 0 ? v * 2 : floor(v / 2));
}

/* A fraction stepped by fine or coarse, kept to 1e-6 and within 0..max. */
static double step_fraction(double v, int dir, double fine, double coarse, int is_fine, double max)
{
    v += dir * (is_fine ? fine : coarse);
    return fmin(fmax(round(v * 1e6) / 1e6, 0), max);
}

static void step_to(struct xp_state *x, int dir, int fine)
{
    struct cluster *c = &x->s.c;
    switch ((enum xp_param)x->sel) {
    case XP_MODEL:
    case XP_SYSTEM:
        step_choice(x, dir);
        break;
    case XP_SYSTEMS:
        c->systems = fmin(fmax(step_whole(c->systems, dir, fine), 1), CLUSTER_MAX_SYSTEMS);
        break;
    case XP_MEMORYX:
        step_memoryx(x, dir);
        break;
    case XP_SPARSITY:
        c->sparsity = step_fraction(c->sparsity, dir, XP_SPARSITY_FINE, XP_SPARSITY_COARSE, fine,
                                    CLUSTER_MAX_SPARSITY);
        break;
    case XP_BATCH:
        c->global_seqs = fmax(step_whole(c->global_seqs, dir, fine), 1);
        break;
    case XP_SEQLEN:
        x->s.wl.seq_len = fine ? x->s.wl.seq_len + dir * XP_SEQLEN_FINE
                               : step_whole(x->s.wl.seq_len, dir, 0);
        x->s.wl.seq_len = fmax(x->s.wl.seq_len, 1);
        break;
    case XP_OVERLAP:
        c->overlap = step_fraction(c->overlap, dir, XP_OVERLAP_FINE, XP_OVERLAP_COARSE, fine, 1);
        c->overlap_set = 1;
        break;
    case XP_HWKEY: {
        size_t n = param_count(), i = 0;
        while (i < n && param_key(i) != x->hwkey)
            i++;
        x->hwkey = param_key((i + n + (size_t)(dir + (int)n)) % n);
        show_hwkey(x);
        break;
    }
    case XP_HWVAL:
        step_hwval(x, dir, fine);
        break;
    case XP_NPARAMS:
        break;
    }
}

/* The prompt's text as the hardware key's value, if the key and the model
 * take it; 1 (with why) if not. */
static int input_hwval(struct xp_state *x, const char *in, char *why, size_t n)
{
    double v;
    int bad = unit_parse(in, hw_schema.keys[x->hwkey].dim, &v, why, n) != 0;
    if (!bad && !(bad = !param_valid(&x->s.hw, x->hwkey, v))) {
        double *p = param_ptr(&x->s.hw, x->hwkey), was = *p;
        struct cp_error err = {0};
        *p = v;
        if (train_check(&x->s.c, &err) != CP_OK) {
            *p = was;
            bad = 1;
            snprintf(why, n, "%.200s", err.msg);
        }
    } else if (!why[0]) {
        snprintf(why, n, "not a valid value of this key");
    }
    return bad;
}

/* The prompt's text as a number of the scenario (systems, sparsity, batch,
 * overlap, sequence length), if the model takes it; 1 (with why) if not. */
static int input_number(struct xp_state *x, const char *in, char *why, size_t n)
{
    struct cluster *c = &x->s.c, keep = *c;
    double v;
    unit_dim d = x->sel == XP_SPARSITY || x->sel == XP_OVERLAP ? UNIT_FRACTION : UNIT_COUNT;
    int bad = unit_parse(in, d, &v, why, n) != 0;
    if (bad)
        return bad;
    if (x->sel == XP_SYSTEMS)
        c->systems = v;
    else if (x->sel == XP_SPARSITY)
        c->sparsity = v;
    else if (x->sel == XP_BATCH)
        c->global_seqs = v;
    else if (x->sel == XP_OVERLAP)
        c->overlap = v, c->overlap_set = 1;
    else if (x->sel == XP_SEQLEN)
        bad = !(v >= 1 && v == floor(v)), snprintf(why, n, "a whole number >= 1");
    if (!bad && x->sel == XP_SEQLEN)
        x->s.wl.seq_len = v;
    struct cp_error err = {0};
    if (!bad && (cluster_check(c, &err) != CP_OK || train_check(c, &err) != CP_OK)) {
        *c = keep;
        bad = 1;
        snprintf(why, n, "%.200s", err.msg);
    }
    return bad;
}

/* The prompt's text as a choice (model, system, MemoryX tier, hardware
 * key), if there is one of that name; 1 (with why) if not. */
static int input_choice(struct xp_state *x, const char *in, char *why, size_t n)
{
    int bad = 0;
    switch ((enum xp_param)x->sel) {
    case XP_MODEL:
        bad = xp_reload(x, in, x->s.system) != 0;
        snprintf(why, n, "no model '%s'", in);
        break;
    case XP_SYSTEM:
        bad = xp_reload(x, x->s.model, in) != 0;
        snprintf(why, n, "no system '%s'", in);
        break;
    case XP_MEMORYX:
        if (strcmp(in, "sized") == 0)
            scenario_auto_tier(&x->s);
        else
            bad = scenario_memoryx(&x->s, in) >= 0;
        snprintf(why, n, "not a tier, a size or 'sized'");
        break;
    default: {
        int k = param_find(in);
        bad = k < 0;
        if (!bad)
            x->hwkey = k;
        snprintf(why, n, "not a numeric hardware key (section.key, as show lists them)");
        break;
    }
    }
    return bad;
}

/* Apply the prompt's text to the selected parameter. */
static void apply_input(struct xp_state *x)
{
    char why[256] = "";
    const char *in = x->input;
    enum xp_param p = (enum xp_param)x->sel;
    int bad = x->t.on         ? xp_tm_input(x, in, why, sizeof why)
              : p == XP_HWVAL ? input_hwval(x, in, why, sizeof why)
              : p == XP_MODEL || p == XP_SYSTEM || p == XP_MEMORYX || p == XP_HWKEY
                  ? input_choice(x, in, why, sizeof why)
                  : input_number(x, in, why, sizeof why);
    char label[96];
    xp_label(x, p, label, sizeof label);
    if (bad)
        xp_status(x, "%s '%s': %s", label, in, why);
    else if (p == XP_HWKEY)
        show_hwkey(x);
    else
        xp_status(x, "%s = %s", label, in);
}

/* A key typed at the prompt: Enter applies, Escape cancels, Backspace and
 * printable characters edit. */
static void prompt_key(struct xp_state *x, int key)
{
    size_t len = strlen(x->input);
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        x->prompt = 0;
        apply_input(x);
    } else if (key == 27) {
        x->prompt = 0;
        xp_status(x, "cancelled");
    } else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len > 0) {
        x->input[len - 1] = '\0';
    } else if (key >= 32 && key < 127 && len + 1 < sizeof x->input) {
        x->input[len] = (char)key;
        x->input[len + 1] = '\0';
    }
}

/* u: the uncertainty band on or off: on the results and the charts of the
 * weight-streaming screen; on the results of the others (explore_tm.c),
 * where a description with no +- range gives the point estimate. */
static void toggle_band(struct xp_state *x)
{
    x->unc = !x->unc;
    if (!x->unc)
        xp_status(x, "uncertainty bands off");
    else if (!x->t.on)
        xp_status(x, "uncertainty bands on: %s of the draws of the hardware ranges", XP_BAND_LABEL);
    else if (xp_tm_ranged(x) > 0)
        xp_status(x,
                  "uncertainty band on: %s of the draws of the hardware ranges (results only, "
                  "not the charts)",
                  XP_BAND_LABEL);
    else
        xp_status(x,
                  "uncertainty band on: %s states no +- range: the point estimate "
                  "(--set 'KEY=VALUE+-SPREAD')",
                  x->t.j.system);
}

int xp_key(struct xp_state *x, int key)
{
    if (x->help) { /* any key closes the help */
        x->help = 0;
        return 0;
    }
    if (x->prompt) {
        prompt_key(x, key);
        return 0;
    }
    switch (key) {
    case 'q':
    case 'Q':
        return 1;
    case '?':
    case 'h':
        x->help = 1;
        break;
    case KEY_UP:
    case 'k':
        x->sel = (x->sel + XP_NPARAMS - 1) % XP_NPARAMS;
        break;
    case KEY_DOWN:
    case 'j':
        x->sel = (x->sel + 1) % XP_NPARAMS;
        break;
    case KEY_LEFT:
        step(x, -1, 0);
        break;
    case KEY_RIGHT:
        step(x, +1, 0);
        break;
    case '-':
        step(x, -1, 1);
        break;
    case '+':
    case '=':
        step(x, +1, 1);
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
        x->prompt = 1;
        x->input[0] = '\0';
        break;
    case 'c': /* time to train against sparsity: the weight-streaming model's */
        x->chart = (enum xp_chart)((x->chart + 1) % (x->t.on ? XP_CHART_SPARSITY : XP_NCHARTS));
        break;
    case 'u':
        toggle_band(x);
        break;
    default:
        break;
    }
    return 0;
}
