/* explore_draw.c - drawing the explorer's screen from its state: title,
 * parameters, results, chart, status line and the help overlay.  Draws
 * on stdscr only; cmd_explore.c owns the terminal. */
#include "explore_draw.h"

#include <curses.h>
#include <math.h>
#include <string.h>

#include "../spec/tfm.h"

#define XP_LEFT_W 34 /* parameters panel, with its border */
#define XP_TOP_H 14  /* parameters and results panels, with borders */

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
    mvprintw(y, x + 2, " %s ", title);
}

static void draw_params(const struct xp_state *x, int y, int w)
{
    box_at(y, 0, XP_TOP_H, w, "Parameters");
    for (int p = 0; p < XP_NPARAMS; p++) {
        char v[96];
        xp_value(x, (enum xp_param)p, v, sizeof v);
        if (p == x->sel)
            attron(A_REVERSE);
        mvprintw(y + 1 + p, 1, " %-9s %-*.*s", xp_param_name[p], w - 13, w - 13, v);
        if (p == x->sel)
            attroff(A_REVERSE);
    }
    /* warnings under the parameters */
    char warn[256];
    train_warn_names(x->r.warnings, warn, sizeof warn);
    /* one warning after another, wrapped at the names over two lines */
    attron(col(XP_YELLOW));
    int row = y + 1 + XP_NPARAMS, at = 2;
    for (char *name = strtok(warn, ";"); name && row < y + XP_TOP_H - 1; name = strtok(NULL, ";")) {
        int len = (int)strlen(name);
        if (at > 2 && at + len > w - 2)
            row++, at = 2;
        if (row < y + XP_TOP_H - 1)
            mvprintw(row, at, "%.*s", w - 2 - at, name);
        at += len + 1;
    }
    attroff(col(XP_YELLOW));
}

static void verdict(int y, int x, const char *name, int ok, int hard)
{
    mvprintw(y, x, "%s ", name);
    attron(col(ok ? XP_GREEN : hard ? XP_RED : XP_YELLOW));
    printw("%s", ok ? "holds" : hard ? "fails" : "warning");
    attroff(col(ok ? XP_GREEN : hard ? XP_RED : XP_YELLOW));
}

static void draw_results(const struct xp_state *x, int y, int x0, int w)
{
    box_at(y, x0, XP_TOP_H, w, "Results");
    const struct train_result *r = &x->r;
    const struct step_result *st = &r->step;
    char a[64], b[64], c[64];
    int in = x0 + 2, iw = w - 4;
    mvprintw(y + 1, in, "step time      %s", unit_format(st->step_s, UNIT_TIME, a, sizeof a));
    if (x->band_ok)
        printw("  [%s, %s]", unit_format(x->band.step_s.p05, UNIT_TIME, b, sizeof b),
               unit_format(x->band.step_s.p95, UNIT_TIME, c, sizeof c));
    mvprintw(y + 2, in, "bottleneck     %s", step_res_name[st->bottleneck]);
    int bw = iw - 24; /* bar width */
    for (int k = 0; k < STEP_NRES; k++) {
        int len = st->step_s > 0 ? (int)lround(bw * st->critical[k] / st->step_s) : 0;
        mvprintw(y + 3 + k, in, "%-10.10s ", k == STEP_LATENCY ? "latency" : step_res_name[k]);
        attron(col(k == (int)st->bottleneck ? XP_CYAN : XP_GREEN));
        for (int i = 0; i < bw; i++)
            addch(i < len ? ACS_CKBOARD : ' ');
        attroff(col(k == (int)st->bottleneck ? XP_CYAN : XP_GREEN));
        printw(" %10s", unit_format(st->critical[k], UNIT_TIME, a, sizeof a));
    }
    mvprintw(y + 8, in, "tokens/s       %s", unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a));
    mvprintw(y + 9, in, "time to train  %s", out_duration(r->time_s, a, sizeof a));
    if (x->band_ok)
        printw("  [5%%, 95%%]: [%s, %s]", out_duration(x->band.time_s.p05, b, sizeof b),
               out_duration(x->band.time_s.p95, c, sizeof c));
    mvprintw(y + 10, in, "energy         %.4g MWh at %s", r->energy_J / 3.6e9,
             unit_format(r->power_W, UNIT_POWER, a, sizeof a));
    verdict(y + 11, in, "memoryx", r->memoryx_fits, 1);
    verdict(y + 11, in + 15, "sram", r->sram_fits, 1);
    verdict(y + 11, in + 27, "split", r->split_ok, 1);
    verdict(y + 12, in, "matmul", r->matmul_fits, 0);
    verdict(y + 12, in + 15, "batch", r->batch_ok, 0);
    verdict(y + 12, in + 30, "stream", r->stream_balanced, 0);
}

/* Column of v in [lo, hi] over w columns, on a log scale when lg. */
static int scale(double v, double lo, double hi, int w, int lg)
{
    double f = lg ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
    if (!(f >= 0))
        f = 0;
    return (int)lround(fmin(f, 1) * (w - 1));
}

static void chart_xy(const struct xp_state *x, int y, int x0, int h, int w, int logx, double mark,
                     int ideal)
{
    const struct xp_curve *cv = &x->curve;
    double ylo = INFINITY, yhi = 0;
    for (size_t i = 0; i < cv->n; i++)
        if (cv->y[i] > 0 && isfinite(cv->y[i]))
            ylo = fmin(ylo, cv->y[i]), yhi = fmax(yhi, cv->y[i]);
    if (cv->n == 0 || !(yhi > 0)) {
        mvprintw(y + h / 2, x0 + 2, "no feasible point to draw");
        return;
    }
    double xlo = cv->x[0], xhi = cv->x[cv->n - 1];
    if (ideal)
        ylo = fmin(ylo, 1), yhi = fmax(yhi, xhi);
    if (yhi <= ylo)
        yhi = ylo * 1.01 + 1e-30;
    int lw = 10, pw = w - lw; /* y labels, plot */
    char a[48];
    mvprintw(y, x0, "%9.9s",
             x->chart == XP_CHART_SPARSITY ? out_duration(yhi, a, sizeof a)
                                           : (snprintf(a, sizeof a, "%.4g", yhi), a));
    mvprintw(y + h - 2, x0, "%9.9s",
             x->chart == XP_CHART_SPARSITY ? out_duration(ylo, a, sizeof a)
                                           : (snprintf(a, sizeof a, "%.4g", ylo), a));
    int mc = scale(mark, xlo, xhi, pw, logx);
    for (int r = 0; r < h - 1; r++)
        mvaddch(y + r, x0 + lw + mc, ACS_VLINE);
    if (ideal)
        for (int c = 0; c < pw; c++) {
            double xv = logx ? xlo * pow(xhi / xlo, (double)c / (pw - 1)) : xlo;
            int row = h - 2 - scale(fmin(xv, yhi), ylo, yhi, h - 1, 1);
            mvaddch(y + row, x0 + lw + c, '.');
        }
    attron(col(XP_CYAN));
    for (size_t i = 0; i < cv->n; i++) {
        if (!(cv->y[i] > 0) || !isfinite(cv->y[i]))
            continue;
        int c = scale(cv->x[i], xlo, xhi, pw, logx);
        int row = h - 2 - scale(cv->y[i], ylo, yhi, h - 1, 1);
        mvaddch(y + row, x0 + lw + c, '*');
    }
    attroff(col(XP_CYAN));
    mvhline(y + h - 1, x0 + lw, ACS_HLINE, pw);
    snprintf(a, sizeof a, "%.3g", xlo);
    mvprintw(y + h - 1, x0 + lw, "%s", a);
    snprintf(a, sizeof a, "%.4g", xhi);
    mvprintw(y + h - 1, x0 + lw + pw - (int)strlen(a), "%s", a);
    snprintf(a, sizeof a, " %.4g ", mark);
    int at = x0 + lw + mc - (int)strlen(a) / 2;
    if (at > x0 + lw + 3 && at + (int)strlen(a) < x0 + w - 6)
        mvprintw(y + h - 1, at, "%s", a);
}

static void chart_breakdown(const struct xp_state *x, int y, int x0, int h, int w)
{
    static const char glyph[STEP_NRES] = {'#', '=', '-', 'u', '!', 'o'};
    const struct xp_curve *cv = &x->curve;
    int rows = h - 1, bw = w - 24;
    mvprintw(y + h - 1, x0, "# compute = in - out u update ! latency o overhead");
    for (int r = 0; r < rows && r < (int)cv->n; r++) {
        size_t i = cv->n <= (size_t)rows ? (size_t)r : (size_t)r * (cv->n - 1) / (size_t)(rows - 1);
        char a[48];
        mvprintw(y + r, x0, "N=%-6g %10s ", cv->x[i],
                 unit_format(cv->y[i], UNIT_TIME, a, sizeof a));
        int done = 0;
        for (int k = 0; k < STEP_NRES; k++) {
            int len = cv->y[i] > 0 ? (int)lround(bw * cv->part[i][k] / cv->y[i]) : 0;
            for (int j = 0; j < len && done < bw; j++, done++)
                addch((chtype)glyph[k]);
        }
    }
}

static void draw_chart(const struct xp_state *x, int y, int h, int w)
{
    char title[128];
    snprintf(title, sizeof title, "%s  (c: next chart)", xp_chart_title[x->chart]);
    box_at(y, 0, h, w, title);
    int iy = y + 1, ih = h - 2, ix = 2, iw = w - 4;
    if (x->chart == XP_CHART_SPEEDUP)
        chart_xy(x, iy, ix, ih, iw, 1, x->s.c.systems, 1);
    else if (x->chart == XP_CHART_BREAKDOWN)
        chart_breakdown(x, iy, ix, ih, iw);
    else
        chart_xy(x, iy, ix, ih, iw, 0, x->s.c.sparsity, 0);
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
        "u           uncertainty bands on/off",
        "e           export the estimate as CSV",
        "s           save the hardware as an overlay INI",
        "r           write a report folder",
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
    return COLS - 4 - 10;
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
    mvprintw(0, 1, "cerebras-plan explore: %s on %s", x->s.wl.name, x->s.hw.wse.name);
    mvprintw(0, COLS - 18, "? help   q quit");
    attroff(A_REVERSE);
    draw_params(x, 1, XP_LEFT_W);
    draw_results(x, 1, XP_LEFT_W, COLS - XP_LEFT_W);
    draw_chart(x, 1 + XP_TOP_H, LINES - 2 - XP_TOP_H, COLS);
    if (x->prompt)
        mvprintw(LINES - 1, 0, "%s = %s", xp_param_name[x->sel], x->input);
    else
        mvprintw(LINES - 1, 0, "%-.*s", COLS - 1, x->status);
    if (x->help)
        draw_help();
}
