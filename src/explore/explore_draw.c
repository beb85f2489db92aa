/* explore_draw.c - drawing the explorer's screen from its state: title,
 * parameters, results, chart, status line and the help overlay.  Draws
 * on stdscr only; cmd_explore.c owns the terminal.
 *
 * The layout: the parameters panel on the left, as wide as the longest
 * hardware key name needs when the terminal has room (else a name keeps
 * its end, and the status line gives it whole); the results panel
 * takes the rest of the top, at least XP_RESULTS_MIN_W columns; the chart
 * fills the lines below.  Every text is clipped at its panel's border. */
#include "explore_draw.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../model/param.h"
#include "../desc/tfm.h"

#define XP_TOP_H 15         /* parameters and results panels, with borders */
#define XP_LEFT_MIN_W 30    /* parameters panel, with its border */
#define XP_RESULTS_MIN_W 48 /* results panel, with its border: the verdict rows */
#define XP_LABEL_W 14       /* "time to train " */
#define XP_YLABEL_W 10      /* a chart's y labels and title */

static int color_on;

void xp_draw_init(int use_color)
{
    color_on = use_color && has_colors();
    if (!color_on)
        return;
    start_color();
    use_default_colors();
    init_pair(XP_GREEN, COLOR_GREEN, -1);
    init_pair(XP_RED, COLOR_RED, -1);
    init_pair(XP_YELLOW, COLOR_YELLOW, -1);
    init_pair(XP_CYAN, COLOR_CYAN, -1);
}

static attr_t col(int pair)
{
    return color_on ? COLOR_PAIR(pair) : A_BOLD;
}

/* printf at (y, x), cut at column right (exclusive). */
static void clipf(int y, int x, int right, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void clipf(int y, int x, int right, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (right > x)
        mvaddnstr(y, x, buf, right - x);
}

/* The cursor's column. */
static int cur_x(void)
{
    int y, x;
    getyx(stdscr, y, x);
    (void)y;
    return x;
}

/* printf at the cursor on row y, cut at column right (exclusive); when
 * whole_only, nothing unless it fits whole. */
static void tail(int y, int right, int whole_only, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tail(int y, int right, int whole_only, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int at = cur_x();
    if (!whole_only || at + (int)strlen(buf) <= right)
        clipf(y, at, right, "%s", buf);
}

static void box_at(int y, int x, int h, int w, const char *title)
{
    mvaddch(y, x, ACS_ULCORNER);
    mvhline(y, x + 1, ACS_HLINE, w - 2);
    mvaddch(y, x + w - 1, ACS_URCORNER);
    mvvline(y + 1, x, ACS_VLINE, h - 2);
    mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
    mvaddch(y + h - 1, x, ACS_LLCORNER);
    mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
    mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
    clipf(y, x + 2, x + w - 2, " %s ", title);
}

/* s fitted into w columns: whole, or cut at the end; a hardware key name
 * (key set) keeps its end, where such names differ
 * ("~memory_bandwidth", "~flash_bandwidth"), after a '~'. */
static const char *fit(const char *s, int w, int key, char *buf, size_t n)
{
    int len = (int)strlen(s);
    if (len <= w || w < 2 || !key)
        snprintf(buf, n, "%.*s", w > 0 ? w : 0, s);
    else
        snprintf(buf, n, "~%s", s + len - (w - 1));
    return buf;
}

/* Width of the parameters panel: the longest hardware key name whole when
 * the terminal leaves the results panel its minimum. */
static int left_width(void)
{
    static int longest;
    if (!longest)
        for (size_t i = 0; i < param_count(); i++) {
            char name[96];
            int len = (int)strlen(param_name(param_key(i), name, sizeof name));
            longest = len > longest ? len : longest;
        }
    int want = 1 + 1 + 9 + 1 + longest + 1 + 1, room = COLS - XP_RESULTS_MIN_W;
    want = want < room ? want : room;
    return want > XP_LEFT_MIN_W ? want : XP_LEFT_MIN_W;
}

/* The warnings under the parameters, one name after another, wrapped. */
static void draw_warnings(const struct xp_state *x, int row, int last, int w)
{
    char warn[256];
    train_warn_names(x->r.warnings, warn, sizeof warn);
    attron(col(XP_YELLOW));
    int at = 2;
    for (char *name = strtok(warn, ";"); name && row <= last; name = strtok(NULL, ";")) {
        int len = (int)strlen(name);
        if (at > 2 && at + len > w - 2)
            row++, at = 2;
        if (row <= last)
            clipf(row, at, w - 1, "%s", name);
        at += len + 1;
    }
    attroff(col(XP_YELLOW));
}

/* text in rows row..last of a panel at column x0, w wide, wrapped at spaces, in
 * colour pair. */
static void draw_words(const char *text, int row, int last, int x0, int w, int pair)
{
    int width = w - 3, len = (int)strlen(text);
    attron(col(pair));
    for (int at = 0; at < len && row <= last; row++) {
        int cut = len - at <= width ? len - at : width;
        while (cut < len - at && cut > width / 2 && text[at + cut] != ' ')
            cut--;
        clipf(row, x0 + 2, x0 + w - 1, "%.*s", cut, text + at);
        at += cut;
        while (at < len && text[at] == ' ')
            at++;
    }
    attroff(col(pair));
}

/* The kind's words for the job as it runs (its choices: the layout),
 * without the workload's name the title shows ("GPT-3 175B on "). */
static const char *describe(const struct xp_state *x, char *buf, size_t n)
{
    const struct xp_tm *t = &x->t;
    size_t len = strlen(t->wl.name);
    t->j.tm.kind->describe(t->j.tm.own, t->j.label, &t->r, t->detail, buf, n);
    if (strncmp(buf, t->wl.name, len) == 0 && strncmp(buf + len, " on ", 4) == 0)
        memmove(buf, buf + len + 4, strlen(buf + len + 4) + 1);
    return buf;
}

static void draw_params(const struct xp_state *x, int y, int w)
{
    box_at(y, 0, XP_TOP_H, w, "Parameters");
    int vw = w - 14; /* value column: after " name      ", before " |" */
    for (int p = 0; p < XP_NPARAMS; p++) {
        char v[96], f[96];
        xp_value(x, (enum xp_param)p, v, sizeof v);
        int over = p == XP_SYSTEMS && !x->t.on && !x->r.systems_ok;
        if (over)
            snprintf(v + strlen(v), sizeof v - strlen(v), " > max %g", x->s.hw.wse.max_systems);
        if (p == x->sel)
            attron(A_REVERSE);
        mvprintw(y + 1 + p, 1, " %-9s ",
                 x->t.on && p == XP_SYSTEMS ? x->t.j.tm.kind->units : xp_param_name[p]);
        if (over)
            attron(col(XP_RED));
        printw("%-*s", vw, fit(v, vw, p == XP_HWKEY, f, sizeof f));
        if (over)
            attroff(col(XP_RED));
        if (p == x->sel)
            attroff(A_REVERSE);
    }
    if (x->t.on)
        draw_words(x->t.r.runs ? describe(x, (char[512]){0}, 512) : "", y + 1 + XP_NPARAMS,
                   y + XP_TOP_H - 2, 0, w, XP_CYAN);
    else
        draw_warnings(x, y + 1 + XP_NPARAMS, y + XP_TOP_H - 2, w);
}

/* "10-90% LO-HI UNIT" ("10-90% 10.96-12.41 s"), both ends in one unit when
 * they share it, else "10-90% LO UNIT-HI UNIT". */
static const char *band_text(const char *lo, const char *hi, char *buf, size_t n)
{
    const char *ul = strchr(lo, ' '), *uh = strchr(hi, ' ');
    if (ul && uh && strcmp(ul, uh) == 0)
        snprintf(buf, n, "%s %.*s-%s", XP_BAND_LABEL, (int)(ul - lo), lo, hi);
    else
        snprintf(buf, n, "%s %s-%s", XP_BAND_LABEL, lo, hi);
    return buf;
}

/* One group of verdicts: WORD then the names of those whose state is
 * want (each its name's first word: act_store is act), in colour pair;
 * returns the column after it. */
static int verdict_group(int y, int at, int right, const char *word, int pair,
                         const char *const *name, const int *state, int n, int want)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= state[i] == want;
    if (!any || at >= right)
        return at;
    attron(col(pair));
    clipf(y, at, right, "%s", word);
    for (int i = 0; i < n; i++)
        if (state[i] == want)
            clipf(y, cur_x(), right, " %.*s", (int)strcspn(name[i], "_"), name[i]);
    attroff(col(pair));
    return cur_x() + 2;
}

/* A row of verdicts: those that fail (or warn) first, then those that
 * hold: "fails sram systems  holds memoryx act split". */
static void verdict_row(int y, int at, int right, const char *const *name, const int *ok, int n,
                        int hard)
{
    int state[TM_MAX_VERDICTS];
    for (int i = 0; i < n && i < TM_MAX_VERDICTS; i++)
        state[i] = ok[i] ? 1 : 0;
    at = verdict_group(y, at, right, hard ? "fails" : "warning", hard ? XP_RED : XP_YELLOW, name,
                       state, n, 0);
    verdict_group(y, at, right, "holds", XP_GREEN, name, state, n, 1);
}

/* A bar per part of r's step (at most rows), from row y: the part's name
 * (as wide as the longest, at most 11), its share of the step (the
 * bottleneck's in cyan) and its time, in iw columns from column in. */
static void draw_parts(const struct tm_result *r, int y, int in, int iw, int rows)
{
    char a[64];
    int nw = 0;
    for (size_t k = 0; k < r->nparts; k++)
        nw = (int)strlen(r->part_name[k]) > nw ? (int)strlen(r->part_name[k]) : nw;
    nw = nw < 11 ? nw : 11;
    int bw = iw - nw - 11; /* name, bar, time */
    for (int k = 0; k < (int)r->nparts && k < rows; k++) {
        int len = r->step_s > 0 ? (int)lround(bw * r->part_s[k] / r->step_s) : 0;
        mvprintw(y + k, in, "%-*.*s ", nw, nw, r->part_name[k]);
        attron(col(k == (int)r->bottleneck ? XP_CYAN : XP_GREEN));
        for (int i = 0; i < bw; i++)
            addch(i < len ? ACS_CKBOARD : ' ');
        attroff(col(k == (int)r->bottleneck ? XP_CYAN : XP_GREEN));
        clipf(y + k, in + nw + 1 + bw, in + iw, " %9s",
              unit_format(r->part_s[k], UNIT_TIME, a, sizeof a));
    }
}

/* "step time  VALUE", then the band when it is on. */
static void step_row(const struct xp_state *x, int y, int in, int right)
{
    char a[64], b[64], c[64], d[160];
    clipf(y, in, right, "%-*s%s", XP_LABEL_W, "step time",
          unit_format(x->t.r.step_s, UNIT_TIME, a, sizeof a));
    if (x->band_ok)
        clipf(y, cur_x(), right, " %s",
              band_text(unit_format(x->band.step_s.p10, UNIT_TIME, b, sizeof b),
                        unit_format(x->band.step_s.p90, UNIT_TIME, c, sizeof c), d, sizeof d));
}

/* "time to train  DURATION", then the band when it is on. */
static void time_row(const struct xp_state *x, int row, int in, int right)
{
    const struct tm_result *r = &x->t.r;
    char a[64], b[64], c[64], d[160];
    clipf(row, in, right, "%-*s%s", XP_LABEL_W, "time to train",
          out_duration(r->time_s, a, sizeof a));
    if (x->band_ok)
        clipf(row, cur_x(), right, " %s",
              band_text(out_duration(x->band.time_s.p10, b, sizeof b),
                        out_duration(x->band.time_s.p90, c, sizeof c), d, sizeof d));
}

/* "energy  ENERGY at POWER". */
static void energy_row(const struct tm_result *r, int row, int in, int right)
{
    char a[64], b[64];
    clipf(row, in, right, "%-*s%s at %s", XP_LABEL_W, "energy",
          out_energy(r->energy_J, a, sizeof a), unit_format(r->power_W, UNIT_POWER, b, sizeof b));
    if (r->cost >= 0) /* in the prices' currency, as estimate's cost line begins */
        tail(row, right, 1, "  cost %s", cost_format(r->cost, r->currency, a, sizeof a));
}

/* The verdicts of r, fatal ones on row y ("fails ..  holds .."), the
 * others, if any, on the next ("warning ..  holds .."); returns the row
 * after them. */
static int tm_verdicts(const struct tm_result *r, int y, int at, int right)
{
    for (int fatal = 1; fatal >= 0; fatal--) {
        const char *name[TM_MAX_VERDICTS];
        int ok[TM_MAX_VERDICTS], n = 0;
        for (size_t i = 0; i < r->nverdicts && n < TM_MAX_VERDICTS; i++)
            if (r->verdict[i].fatal == fatal)
                name[n] = r->verdict[i].name, ok[n++] = r->verdict[i].holds;
        if (n > 0 || fatal)
            verdict_row(y++, at, right, name, ok, n, fatal);
    }
    return y;
}

/* The results of a job over the interface: the step and its parts, the
 * time to train, energy and cost, and the verdicts; or why it does not run. */
static void tm_results(const struct xp_state *x, int y, int x0, int w)
{
    const struct tm_result *r = &x->t.r;
    char b[64];
    int in = x0 + 2, right = x0 + w - 2, iw = right - in;
    if (!r->runs) {
        clipf(y + 1, in, right, "does not run on %g %s:", r->count, x->t.j.tm.kind->units);
        draw_words(r->why, y + 2, y + XP_TOP_H - 4, x0, w, XP_RED);
        tm_verdicts(r, y + XP_TOP_H - 3, in, right);
        return;
    }
    step_row(x, y + 1, in, right); /* then what follows where it fits whole with the band */
    tail(y + 1, right, x->band_ok, "  bottleneck %s", r->part_name[r->bottleneck]);
    if (isfinite(r->mfu))
        tail(y + 1, right, x->band_ok, "  MFU %.3g%%", 100 * r->mfu);
    draw_parts(r, y + 2, in, iw, XP_TOP_H - 7);
    int row = y + XP_TOP_H - 5;
    time_row(x, row, in, right);
    tail(row, right, x->band_ok, "  %s tokens/s", unit_format(r->tokens_per_s, UNIT_COUNT, b, 64));
    energy_row(r, row + 1, in, right);
    tm_verdicts(r, row + 2, in, right);
}

/* The weight-streaming screen's results: the interface's result, with
 * the links the weight stream runs at from the kind's detail (the
 * train_result: x->r). */
static void ws_results(const struct xp_state *x, int y, int in, int right)
{
    const struct tm_result *r = &x->t.r;
    char a[64];
    step_row(x, y + 1, in, right);
    clipf(y + 2, in, right, "%-*s%s", XP_LABEL_W, "bottleneck", r->part_name[r->bottleneck]);
    /* the links the weight stream runs at; two or more tie (item 2 of
     * issue 18: raising one alone changes nothing) */
    static const char *const link_short[STEP_NLINKS] = {"I/O", "link", "MemoryX", "reduce"};
    const char *sep = "  stream at ";
    for (int i = 0; i < STEP_NLINKS; i++)
        if (x->r.step.stream_bind & (1u << i)) {
            clipf(y + 2, cur_x(), right, "%s%s", sep, link_short[i]);
            sep = " = ";
        }
    draw_parts(r, y + 3, in, right - in, XP_TOP_H - 7);
    clipf(y + 9, in, right, "%-*s%s", XP_LABEL_W, "tokens/s",
          unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a));
    time_row(x, y + 10, in, right);
    energy_row(r, y + 11, in, right);
    tm_verdicts(r, y + 12, in, right);
}

static void draw_results(const struct xp_state *x, int y, int x0, int w)
{
    box_at(y, x0, XP_TOP_H, w, "Results");
    if (!x->t.r.feasible) { /* the verdict first, where the eye lands */
        attron(col(XP_RED) | A_REVERSE);
        clipf(y, x0 + 12, x0 + w - 2, " INFEASIBLE ");
        attroff(col(XP_RED) | A_REVERSE);
    }
    if (x->t.on)
        tm_results(x, y, x0, w);
    else
        ws_results(x, y, x0 + 2, x0 + w - 2);
}

/* Column of v in [lo, hi] over w columns, on a log scale when lg. */
static int scale(double v, double lo, double hi, int w, int lg)
{
    double f = lg ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
    if (!(f >= 0))
        f = 0;
    return (int)lround(fmin(f, 1) * (w - 1));
}

/* What a chart of x-y points shows: its axes' titles with their units. */
struct xy_axes {
    int logx, ideal;
    double mark;           /* the scenario's own x, marked */
    const char *ytitle[2]; /* two lines beside the y axis */
    const char *xtitle;    /* under the x axis, in the frame */
    const char *legend;    /* right of it */
    int ytime;             /* y labels as durations, else "N x" */
};

static void ylabel(const struct xy_axes *ax, double v, char *buf, size_t n)
{
    if (ax->ytime)
        out_duration(v, buf, n);
    else
        snprintf(buf, n, "%.4g x", v);
}

/* The y range of the points (and of their band when shown). */
static int y_range(const struct xp_state *x, const struct xy_axes *ax, double *lo, double *hi)
{
    const struct xp_curve *cv = &x->curve;
    *lo = INFINITY, *hi = 0;
    for (size_t i = 0; i < cv->n; i++) {
        double v[3] = {cv->y[i], x->band_ok ? cv->lo[i] : NAN, x->band_ok ? cv->hi[i] : NAN};
        for (int k = 0; k < 3; k++)
            if (v[k] > 0 && isfinite(v[k]))
                *lo = fmin(*lo, v[k]), *hi = fmax(*hi, v[k]);
    }
    if (cv->n == 0 || !(*hi > 0))
        return -1;
    if (ax->ideal)
        *lo = fmin(*lo, 1), *hi = fmax(*hi, cv->x[cv->n - 1]);
    if (*hi <= *lo)
        *hi = *lo * 1.01 + 1e-30;
    return 0;
}

/* The band: ':' between its low and high rows in every column, linear
 * between the points. */
static void draw_band(const struct xp_curve *cv, int y, int x0, int rows, int pw, int logx,
                      double ylo, double yhi)
{
    double xlo = cv->x[0], xhi = cv->x[cv->n - 1];
    attron(col(XP_YELLOW));
    for (size_t i = 0; i + 1 < cv->n; i++) {
        if (!isfinite(cv->lo[i]) || !isfinite(cv->lo[i + 1]))
            continue;
        int c0 = scale(cv->x[i], xlo, xhi, pw, logx), c1 = scale(cv->x[i + 1], xlo, xhi, pw, logx);
        for (int c = c0; c <= c1; c++) {
            double t = c1 > c0 ? (double)(c - c0) / (c1 - c0) : 0;
            double lo = cv->lo[i] + t * (cv->lo[i + 1] - cv->lo[i]);
            double hi = cv->hi[i] + t * (cv->hi[i + 1] - cv->hi[i]);
            int top = rows - 1 - scale(hi, ylo, yhi, rows, 1);
            int bot = rows - 1 - scale(lo, ylo, yhi, rows, 1);
            for (int r = top; r <= bot; r++)
                mvaddch(y + r, x0 + c, ':');
        }
    }
    attroff(col(XP_YELLOW));
}

static void chart_xy(const struct xp_state *x, int y, int x0, int h, int w,
                     const struct xy_axes *ax)
{
    const struct xp_curve *cv = &x->curve;
    double ylo, yhi;
    if (y_range(x, ax, &ylo, &yhi) != 0) {
        mvprintw(y + h / 2, x0 + 2, "no feasible point to draw");
        return;
    }
    double xlo = cv->x[0], xhi = cv->x[cv->n - 1];
    int lw = XP_YLABEL_W, pw = w - lw, rows = h - 1; /* y labels, plot, plot rows */
    char a[48];
    ylabel(ax, yhi, a, sizeof a);
    mvprintw(y, x0, "%9.9s", a);
    ylabel(ax, ylo, a, sizeof a);
    mvprintw(y + rows - 1, x0, "%9.9s", a);
    int t0 = (rows - 2) / 2 > 1 ? (rows - 2) / 2 : 1; /* between the labels */
    for (int i = 0; i < 2 && t0 + i <= rows - 2; i++)
        mvprintw(y + t0 + i, x0, "%-9.9s", ax->ytitle[i]);
    if (x->band_ok)
        draw_band(cv, y, x0 + lw, rows, pw, ax->logx, ylo, yhi);
    int mc = scale(ax->mark, xlo, xhi, pw, ax->logx);
    for (int r = 0; r < rows; r++)
        mvaddch(y + r, x0 + lw + mc, ACS_VLINE);
    for (int c = 0; ax->ideal && c < pw; c++) {
        double xv = ax->logx ? xlo * pow(xhi / xlo, (double)c / (pw - 1)) : xlo;
        int row = rows - 1 - scale(fmin(xv, yhi), ylo, yhi, rows, 1);
        mvaddch(y + row, x0 + lw + c, '.');
    }
    attron(col(XP_CYAN));
    for (size_t i = 0; i < cv->n; i++) {
        if (!(cv->y[i] > 0) || !isfinite(cv->y[i]))
            continue;
        int c = scale(cv->x[i], xlo, xhi, pw, ax->logx);
        int row = rows - 1 - scale(cv->y[i], ylo, yhi, rows, 1);
        mvaddch(y + row, x0 + lw + c, '*');
    }
    attroff(col(XP_CYAN));
    mvhline(y + h - 1, x0 + lw, ACS_HLINE, pw);
    mvprintw(y + h - 1, x0 + lw, "%.3g", xlo);
    snprintf(a, sizeof a, "%.4g", xhi);
    mvprintw(y + h - 1, x0 + lw + pw - (int)strlen(a), "%s", a);
    snprintf(a, sizeof a, " %.4g ", ax->mark);
    int at = x0 + lw + mc - (int)strlen(a) / 2;
    if (at > x0 + lw + 3 && at + (int)strlen(a) < x0 + w - 6)
        mvprintw(y + h - 1, at, "%s", a);
    /* the x axis title and the legend in the frame under the axis */
    clipf(y + h, x0 + lw, x0 + w, " %s ", ax->xtitle);
    int end = cur_x(), len = (int)strlen(ax->legend) + 2;
    if (x0 + w - len > end + 1)
        clipf(y + h, x0 + w - len, x0 + w, " %s ", ax->legend);
}

static void chart_breakdown(const struct xp_state *x, int y, int x0, int h, int w)
{
    static const char glyph[STEP_NRES] = {'#', '=', '-', 'u', '!', 'o'};
    const struct xp_curve *cv = &x->curve;
    int rows = h - 1;
    char a[48], b[48], c[48], band[128];
    int bandw = x->band_ok ? 25 : 0; /* the band column */
    int bw = w - 9 - 11 - bandw;
    clipf(y + h - 1, x0, x0 + w, "# compute = in - out u update ! latency o overhead");
    for (int r = 0; r < rows && r < (int)cv->n; r++) {
        size_t i = cv->n <= (size_t)rows ? (size_t)r : (size_t)r * (cv->n - 1) / (size_t)(rows - 1);
        band[0] = '\0';
        if (x->band_ok && isfinite(cv->lo[i]))
            band_text(unit_format(cv->lo[i], UNIT_TIME, b, sizeof b),
                      unit_format(cv->hi[i], UNIT_TIME, c, sizeof c), band, sizeof band);
        clipf(y + r, x0, x0 + w, "N=%-6g %10s %-*.*s", cv->x[i],
              unit_format(cv->y[i], UNIT_TIME, a, sizeof a), bandw, bandw, band);
        int done = 0;
        for (int k = 0; k < STEP_NRES; k++) {
            int len = cv->y[i] > 0 ? (int)lround(bw * cv->part[i][k] / cv->y[i]) : 0;
            for (int j = 0; j < len && done < bw; j++, done++)
                addch((chtype)glyph[k]);
        }
    }
    clipf(y + h, x0 + 9, x0 + w,
          " rows: N systems, step time; bars: share of the step by resource ");
}

/* The step time by part against N, over the interface: a row per count,
 * a bar per part (the kind's names, a glyph each). */
static void tm_breakdown(const struct xp_state *x, int y, int x0, int h, int w)
{
    static const char glyph[TM_MAX_PARTS + 1] = "#=-u!o+x%@&*";
    const struct xp_curve *cv = &x->curve;
    const struct tm_result *r = &x->t.r;
    int rows = h - 1, bw = w - 9 - 11;
    char a[48];
    mvhline(y + h - 1, x0, ' ', w);
    for (size_t k = 0; k < r->nparts && k < TM_MAX_PARTS; k++)
        clipf(y + h - 1, k ? cur_x() + 1 : x0, x0 + w, "%c %s", glyph[k], r->part_name[k]);
    for (int row = 0; row < rows && row < (int)cv->n; row++) {
        size_t i =
            cv->n <= (size_t)rows ? (size_t)row : (size_t)row * (cv->n - 1) / (size_t)(rows - 1);
        if (!isfinite(cv->y[i])) {
            clipf(y + row, x0, x0 + w, "N=%-6g %10s", cv->x[i], "-");
            continue;
        }
        clipf(y + row, x0, x0 + w, "N=%-6g %10s ", cv->x[i],
              unit_format(cv->y[i], UNIT_TIME, a, 48));
        int done = 0;
        for (size_t k = 0; k < r->nparts && k < TM_MAX_PARTS; k++) {
            int len = cv->y[i] > 0 ? (int)lround(bw * cv->part[i][k] / cv->y[i]) : 0;
            for (int j = 0; j < len && done < bw; j++, done++)
                addch((chtype)glyph[k]);
        }
    }
    clipf(y + h, x0 + 9, x0 + w,
          " rows: N %s, step time (- : does not run); bars: share of the "
          "step by part ",
          x->t.j.tm.kind->units);
}

/* The charts of a job over the interface: time to train against N, and
 * the step by part against N. */
static void tm_chart(const struct xp_state *x, int y, int h, int w)
{
    static const char *const title[] = {"time to train against N (fixed global batch)",
                                        "step time by part against N"};
    box_at(y, 0, h, w, title[x->chart == XP_CHART_BREAKDOWN]);
    clipf(y, w - 17, w - 1, " c: next chart ");
    if (x->chart == XP_CHART_BREAKDOWN) {
        tm_breakdown(x, y + 1, 2, h - 2, w - 4);
        return;
    }
    char xt[64];
    snprintf(xt, sizeof xt, "N, %s (log scale)", x->t.j.tm.kind->units);
    const struct xy_axes ax = {
        .logx = 1,
        .mark = x->t.j.tm.count,
        .ytitle = {"time to", "train"},
        .xtitle = xt,
        .legend = "* model  | this N",
        .ytime = 1,
    };
    chart_xy(x, y + 1, 2, h - 2, w - 4, &ax);
}

static void draw_chart(const struct xp_state *x, int y, int h, int w)
{
    if (x->t.on) {
        tm_chart(x, y, h, w);
        return;
    }
    box_at(y, 0, h, w, xp_chart_title[x->chart]);
    clipf(y, w - 17, w - 1, " c: next chart ");
    int iy = y + 1, ih = h - 2, ix = 2, iw = w - 4;
    if (x->chart == XP_CHART_SPEEDUP) {
        const struct xy_axes ax = {
            .logx = 1,
            .ideal = 1,
            .mark = x->s.c.systems,
            .ytitle = {"speedup", "vs 1 sys"},
            .xtitle = "N, systems (log scale)",
            .legend = x->band_ok ? "* model  . ideal  | this N  : " XP_BAND_LABEL
                                 : "* model  . ideal  | this N",
        };
        chart_xy(x, iy, ix, ih, iw, &ax);
    } else if (x->chart == XP_CHART_BREAKDOWN) {
        chart_breakdown(x, iy, ix, ih, iw);
    } else {
        const struct xy_axes ax = {
            .mark = x->s.c.sparsity,
            .ytitle = {"time to", "train"},
            .xtitle = "sparsity (share of zero weights)",
            .legend = x->band_ok ? "* model  | this  : " XP_BAND_LABEL : "* model  | this",
            .ytime = 1,
        };
        chart_xy(x, iy, ix, ih, iw, &ax);
    }
}

static void draw_help(void)
{
    static const char *const lines[] = {
        "Keys",
        "",
        "Up/Down     choose a parameter",
        "Left/Right  step it (systems and batch halve/double)",
        "- / +       fine step (systems and batch by one)",
        "Enter       type an exact value (units as in files:",
        "            64, 75%, 2 us, 12TB); Esc cancels",
        "c           next chart",
        "u           uncertainty bands (" XP_BAND_LABEL ") on/off",
        "e           export the estimate as CSV",
        "s           save the hardware as an overlay INI",
        "r           write a report folder (a new one each time;",
        "            keys typed while it works are discarded)",
        "q           quit",
        "",
        "hw key picks any numeric hardware key; hw value",
        "changes it.  Any key closes this help.",
    };
    int n = (int)(sizeof lines / sizeof lines[0]), w = 58;
    int y = (LINES - n - 2) / 2, x = (COLS - w) / 2;
    for (int r = 0; r < n + 2; r++)
        mvhline(y + r, x, ' ', w);
    box_at(y, x, n + 2, w, "help");
    for (int i = 0; i < n; i++)
        mvprintw(y + 1 + i, x + 2, "%s", lines[i]);
}

int xp_chart_columns(void)
{
    return COLS - 4 - XP_YLABEL_W;
}

void xp_draw(const struct xp_state *x)
{
    erase();
    if (COLS < XP_MIN_COLS || LINES < XP_MIN_LINES) {
        mvprintw(LINES / 2, 0, "terminal too small: need %dx%d, have %dx%d", XP_MIN_COLS,
                 XP_MIN_LINES, COLS, LINES);
        return;
    }
    attron(A_REVERSE);
    mvhline(0, 0, ' ', COLS);
    if (x->t.on)
        clipf(0, 1, COLS - 18, "cerebras-plan explore: %s on %s (%s)", x->t.wl.name, x->t.j.system,
              x->t.j.tm.kind->name);
    else
        clipf(0, 1, COLS - 18, "cerebras-plan explore: %s on %s", x->s.wl.name, x->s.hw.wse.name);
    mvprintw(0, COLS - 17, "? help   q quit");
    attroff(A_REVERSE);
    int lw = left_width();
    draw_params(x, 1, lw);
    draw_results(x, 1, lw, COLS - lw);
    draw_chart(x, 1 + XP_TOP_H, LINES - 2 - XP_TOP_H, COLS);
    char label[96];
    if (x->prompt)
        clipf(LINES - 1, 0, COLS - 1, "%s = %s",
              xp_label(x, (enum xp_param)x->sel, label, sizeof label), x->input);
    else
        clipf(LINES - 1, 0, COLS - 1, "%s", x->status);
    if (x->help)
        draw_help();
}
