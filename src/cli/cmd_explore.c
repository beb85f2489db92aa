/* cmd_explore.c - `explore`: the interactive explorer.  The only file that
 * starts and ends curses: it checks the terminal, runs the key loop and
 * restores the screen on every way out, a crash included.  State and keys
 * are explore.c, drawing explore_draw.c. */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../plan/param.h"
#include "explore_draw.h"

/* Bench hook (make bench): draw this many frames to the terminal given by
 * TERM on stdout, print explore_frame_ms on stderr and exit. */
#define XP_FRAMES_ENV "CEREBRAS_PLAN_EXPLORE_FRAMES"

static volatile sig_atomic_t curses_on;

static void restore(void)
{
    if (curses_on) {
        curses_on = 0;
        endwin();
    }
}

/* A crash: give the terminal back, then die of the same signal. */
static void on_crash(int sig)
{
    restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* `r`: run the report command on the scenario as it stands, outside
 * curses, then come back. */
static void run_report(struct xp_state *x)
{
    static char nsys[32], sparsity[32], batch[32], overlap[32], dir[256];
    static char sets[CLI_MAX_SETS][128];
    struct cli_opts ro = *x->o;
    const struct cluster *c = &x->s.c;
    snprintf(nsys, sizeof nsys, "%.17g", c->systems);
    snprintf(sparsity, sizeof sparsity, "%.17g", c->sparsity);
    snprintf(batch, sizeof batch, "%.17g", c->global_seqs);
    snprintf(overlap, sizeof overlap, "%.17g", c->overlap);
    snprintf(dir, sizeof dir, "explore-report-%s-%s", x->s.model, x->s.system);
    ro.model = x->s.model, ro.system = x->s.system, ro.nsys = nsys, ro.memoryx = x->s.tier;
    ro.sparsity = sparsity, ro.batch = batch, ro.overlap = c->overlap_set ? overlap : NULL;
    ro.output = dir, ro.force = 1, ro.format = NULL;
    /* the hardware as it stands, key by key, and the sequence length */
    for (size_t i = 0; i < param_count() && ro.nsets + 1 < CLI_MAX_SETS; i++) {
        int k = param_key(i);
        snprintf(sets[i], sizeof sets[i], "%s.%s=%.17g %s", hw_schema.keys[k].section,
                 hw_schema.keys[k].name, param_get(&x->s.hw, k),
                 unit_base_symbol(hw_schema.keys[k].dim));
        ro.sets[ro.nsets++] = sets[i];
    }
    snprintf(sets[CLI_MAX_SETS - 1], sizeof sets[0], "model.seq_len=%.17g", x->s.wl.seq_len);
    ro.sets[ro.nsets++] = sets[CLI_MAX_SETS - 1];
    def_prog_mode();
    endwin();
    printf("writing the report to %s ...\n", dir);
    int rc = cmd_report(&ro);
    reset_prog_mode();
    refresh();
    snprintf(x->status, sizeof x->status, rc == 0 ? "report written to %s/" : "report failed: %s",
             dir);
}

static int bench_frames(struct xp_state *x, long frames)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < frames; i++) {
        x->chart_cols = xp_chart_columns();
        x->s.c.systems = i % 2 ? x->s.hw.wse.max_systems : x->s.hw.wse.max_systems / 2;
        xp_recompute(x);
        xp_draw(x);
        refresh();
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    restore();
    double ms = 1e3 * ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fprintf(stderr, "explore_frame_ms %.3g ms\n", ms / (double)frames);
    return EXIT_OK;
}

int cmd_explore(struct cli_opts *o)
{
    const char *fe = getenv(XP_FRAMES_ENV);
    long frames = fe ? atol(fe) : 0;
    if (frames <= 0 && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
        return cli_error("explore: needs a terminal on stdin and stdout (it is interactive; "
                         "estimate and scale print tables)");
    static struct xp_state x;
    int rc = xp_init(&x, o);
    if (rc >= 0) {
        xp_free(&x);
        return rc;
    }
    const char *term = getenv("TERM");
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        xp_free(&x);
        return cli_error("explore: cannot drive the terminal type '%s' (set TERM to a known "
                         "type, e.g. TERM=xterm-256color)",
                         term ? term : "");
    }
    set_term(scr);
    curses_on = 1;
    atexit(restore);
    static const int crash[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
        signal(crash[i], on_crash);
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    const char *nc = getenv("NO_COLOR");
    xp_draw_init(!(nc && *nc));
    if (frames > 0) {
        rc = bench_frames(&x, frames);
    } else {
        for (;;) {
            x.chart_cols = xp_chart_columns();
            xp_recompute(&x);
            xp_draw(&x);
            refresh();
            int ch = getch();
            if (ch == ERR && !isatty(STDIN_FILENO))
                break; /* the terminal went away: nothing more will come */
            if (ch == ERR || ch == KEY_RESIZE)
                continue;
            if (ch == 'r' && !x.help && !x.prompt)
                run_report(&x);
            else if (xp_key(&x, ch))
                break;
        }
        rc = EXIT_OK;
    }
    restore();
    delscreen(scr);
    xp_free(&x);
    return rc;
}
