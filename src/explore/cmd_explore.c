/* cmd_explore.c - `explore`: the interactive explorer.  The only file that
 * starts and ends curses: it checks the terminal, runs the key loop and
 * restores the screen on every way out, a crash included; and the files
 * the explorer writes: e (the estimate as CSV), s (the hardware as an
 * overlay) and r (the report command run on the scenario as it stands,
 * without leaving the screen).  State is explore.c, the other keys
 * explore_key.c, drawing explore_draw.c. */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base/dtoa.h"
#include "../model/param.h"
#include "../desc/tfm.h"
#include "../cli/atomic.h"
#include "../face/est.h"
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

/* Put a in place as path (abort it when bad) and say so on the status
 * line: "DONE PATH", or why not. */
static void finish_file(struct xp_state *x, struct atomic_file *a, int bad, const char *path,
                        const char *done)
{
    if (bad) {
        atomic_abort(a);
        xp_status(x, "error writing %s", path);
    } else if (atomic_commit(a) == 0) {
        xp_status(x, "%s %s", done, path);
    } else {
        xp_status(x, "cannot write %s", path);
    }
}

/* e: the estimate as the CSV of estimate --csv. */
static void export_csv(struct xp_state *x)
{
    char path[256];
    snprintf(path, sizeof path, "explore-%s-%s-%g.csv", x->s.model, x->s.system, x->s.c.systems);
    struct atomic_file a;
    if (atomic_open(&a, path) != 0) {
        xp_status(x, "cannot write %s", path);
        return;
    }
    struct out_table t;
    out_init(&t, est_ncols, est_header);
    est_row(&t, &x->s, &x->s.c, &x->r);
    int bad = out_csv.write(a.f, &t) != 0;
    out_free(&t);
    finish_file(x, &a, bad, path, "exported");
}

/* v as "NUMBER UNIT" that reads back (unit_parse) as exactly v: in the
 * unit unit_format picks with the fewest digits that do ("2 us", "150
 * GB/s"), else the shortest decimal that does in the SI base unit of d
 * ("0.4", "1.2e-07 s").  Returns buf. */
static const char *exact_text(double v, unit_dim d, char *buf, size_t n)
{
    char shown[64], mant[48], num[DTOA_BUF + 8], why[64];
    const char *u = strchr(unit_format(v, d, shown, sizeof shown), ' ');
    unit_dim ud;
    double f = 1, back;
    if (!u || unit_classify(u + 1, &ud, &f) != 0 || ud != d)
        u = NULL, f = 1;
    const char *sym = u ? u + 1 : unit_base_symbol(d);
    /* v / f rounded to 1, 2, ... digits: the first that reads back */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(mant, sizeof mant, "%.*e", digits - 1, v / f);
        snprintf(buf, n, "%s%s%s", unit_format_exact(strtod(mant, NULL), num, sizeof num),
                 *sym ? " " : "", sym);
        if (unit_parse(buf, d, &back, why, sizeof why) == 0 && back == v)
            return buf;
    }
    sym = unit_base_symbol(d);
    snprintf(buf, n, "%s%s%s", unit_format_exact(v, num, sizeof num), *sym ? " " : "", sym);
    return buf;
}

/* The range sp of a key at v as the overlay writes it: exact_text's text,
 * or a percentage of v when that is shorter and reads back as sp (the
 * loader takes "P%" as P / 100 x |v|, cerebras-plan(5)). */
static const char *spread_text(double v, double sp, unit_dim d, char *buf, size_t n)
{
    char mant[48], pct[DTOA_BUF + 8];
    exact_text(sp, d, buf, n);
    for (int digits = 1; digits <= 6 && v != 0; digits++) {
        snprintf(mant, sizeof mant, "%.*e", digits - 1, sp / fabs(v) * 100);
        double p = strtod(mant, NULL);
        if (p / 100 * fabs(v) == sp) {
            unit_format_exact(p, pct, sizeof pct);
            if (strlen(pct) + 1 < strlen(buf))
                snprintf(buf, n, "%s%%", pct);
            break;
        }
    }
    return buf;
}

/* A comment of an overlay, formatted (out_desc_comment writes it so that
 * the overlay reader takes every line back). */
static void overlay_comment(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void overlay_comment(FILE *f, const char *fmt, ...)
{
    char line[DESC_LINE_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    out_desc_comment(f, line);
}

/* Every numeric hardware key at its current value, exact and short
 * (exact_text: "2 us", "150 GB/s"); the scenario itself (not hardware) as
 * comments, each line within what the overlay reader takes. */
static void save_overlay(struct xp_state *x)
{
    char path[256];
    snprintf(path, sizeof path, "explore-%s.ini", x->s.system);
    struct atomic_file a;
    if (atomic_open(&a, path) != 0) {
        xp_status(x, "cannot write %s", path);
        return;
    }
    const struct cluster *c = &x->s.c;
    char e[4][96];
    overlay_comment(a.f, "Hardware overlay saved by cerebras-plan explore (apply with "
                         "--hw-overlay).");
    overlay_comment(a.f, "Scenario (not hardware, so not applied):");
    overlay_comment(a.f, "  -m %s -s %s", x->s.model, x->s.system);
    overlay_comment(a.f, "  -n %g%s%s", c->systems, c->mx_servers > 0 ? " --memoryx " : "",
                    c->mx_servers > 0 ? x->s.tier : "");
    overlay_comment(a.f, "  --sparsity %s --batch %g --overlap %s --set model.seq_len=%g",
                    unit_format_exact(c->sparsity, e[0], sizeof e[0]), c->global_seqs,
                    unit_format_exact(c->overlap, e[1], sizeof e[1]), x->s.wl.seq_len);
    const char *section = "";
    for (size_t i = 0; i < param_count(); i++) {
        const struct desc_key *k = &hw_schema.keys[param_key(i)];
        if (strcmp(section, k->section) != 0)
            fprintf(a.f, "[%s]\n", section = k->section);
        double v = param_get(&x->s.hw, param_key(i));
        double sp = x->s.hw_src.spread[param_key(i)];
        fprintf(a.f, "%s = %s", k->name, exact_text(v, k->dim, e[2], sizeof e[2]));
        if (sp > 0 && param_valid(&x->s.hw, param_key(i), v - sp))
            fprintf(a.f, " +- %s", spread_text(v, sp, k->dim, e[3], sizeof e[3]));
        fputc('\n', a.f);
    }
    finish_file(x, &a, ferror(a.f), path, "saved");
}

/* The options of `report` that reproduce the explorer's scenario, as a
 * user would give them on the command line. */
struct report_args {
    struct cli_opts o;
    char dir[256];
    char num[8][48]; /* the numbers of -n --sparsity --batch ... as text */
    char act[48];
    char sets[CLI_MAX_SETS][160];
};

/* The numbers of the scenario as options: fields left NULL are the
 * defaults the loaders give. */
static void report_numbers(const struct xp_state *x, struct report_args *rep)
{
    const struct cluster *c = &x->s.c;
    struct cli_opts *o = &rep->o;
    o->nsys = unit_format_exact(c->systems, rep->num[0], sizeof rep->num[0]);
    o->sparsity =
        c->sparsity > 0 ? unit_format_exact(c->sparsity, rep->num[1], sizeof rep->num[1]) : NULL;
    o->batch = c->global_seqs != x->s.wl.batch
                   ? unit_format_exact(c->global_seqs, rep->num[2], sizeof rep->num[2])
                   : NULL;
    o->batch_tokens = NULL;
    o->overlap =
        c->overlap_set ? unit_format_exact(c->overlap, rep->num[3], sizeof rep->num[3]) : NULL;
    int chinchilla = x->o->tokens && strcmp(x->o->tokens, "chinchilla") == 0 &&
                     c->tokens == WL_CHINCHILLA_TOKENS_PER_PARAM * tfm_params(&x->s.wl);
    o->tokens = chinchilla ? "chinchilla" : NULL;
    if (!chinchilla && c->tokens != tfm_tokens(&x->s.wl))
        o->tokens = unit_format_exact(c->tokens, rep->num[4], sizeof rep->num[4]);
    o->price = c->price >= 0 ? unit_format_exact(c->price, rep->num[5], sizeof rep->num[5]) : NULL;
    o->batch_penalty = c->batch_penalty;
    /* MemoryX: sized, a tier or capacity by name, or a count of servers */
    o->memoryx = o->mx_servers = NULL;
    if (c->mx_servers > 0 && strstr(x->s.tier, "server"))
        o->mx_servers = unit_format_exact(c->mx_servers, rep->num[6], sizeof rep->num[6]);
    else if (c->mx_servers > 0)
        o->memoryx = x->s.tier;
    o->act_servers = c->act_servers > 0
                         ? unit_format_exact(c->act_servers, rep->num[7], sizeof rep->num[7])
                         : NULL;
    o->activations = NULL;
    if (c->act != ACT_AUTO) {
        snprintf(rep->act, sizeof rep->act, c->act_k > 0 ? "%s:%g" : "%s", act_mode_name[c->act],
                 c->act_k);
        o->activations = rep->act;
    }
}

/* xp_put_set with rep->sets[k] for the text; -1 past the last slot. */
static int put_set(struct report_args *rep, size_t k, const char *name, const char *value)
{
    return k < CLI_MAX_SETS ? xp_put_set(&rep->o, rep->sets[k], sizeof rep->sets[k], name, value)
                            : -1;
}

/* A --set for each hardware key and the sequence length that differ from
 * what was loaded.  -1 when they do not fit. */
static int report_sets(const struct xp_state *x, struct report_args *rep)
{
    char name[96], v[64];
    size_t k = 0;
    for (size_t i = 0; i < param_count(); i++) {
        int key = param_key(i);
        double now = param_get(&x->s.hw, key);
        if (now != param_get(&x->loaded_hw, key) &&
            put_set(rep, k++, param_name(key, name, sizeof name),
                    exact_text(now, hw_schema.keys[key].dim, v, sizeof v)) != 0)
            return -1;
    }
    if (x->s.wl.seq_len != x->loaded_seq_len &&
        put_set(rep, k, "model.seq_len", unit_format_exact(x->s.wl.seq_len, v, sizeof v)) != 0)
        return -1;
    return 0;
}

/* Fill rep: the explorer's own options (--hw-overlay, --set, --data-dir)
 * with the scenario as it stands: -m -s -n --memoryx (or
 * --memoryx-servers) --sparsity --batch --overlap --tokens --price
 * --batch-penalty --act-servers --activations, and one --set, exact with its
 * unit, for each hardware key and for the sequence length the explorer
 * changed; -o the first of explore-report-MODEL-SYSTEM-N, then -2, -3 ...
 * that does not exist (never --force).  0, or -1 with the reason on the
 * status line. */
static int report_opts(struct xp_state *x, struct report_args *rep)
{
    const struct cluster *c = &x->s.c;
    rep->o = *x->o;
    rep->o.model = x->s.model;
    rep->o.system = x->s.system;
    rep->o.force = 0;
    rep->o.format = NULL;
    rep->o.csv = 0;
    report_numbers(x, rep);
    if (report_sets(x, rep) != 0) {
        xp_status(x, "report: more than %d --set overrides", CLI_MAX_SETS);
        return -1;
    }
    struct stat st;
    for (int i = 1; i < 1000; i++) {
        snprintf(rep->dir, sizeof rep->dir,
                 i == 1 ? "explore-report-%s-%s-%g" : "explore-report-%s-%s-%g-%d", x->s.model,
                 x->s.system, c->systems, i);
        if (lstat(rep->dir, &st) != 0 && errno == ENOENT) {
            rep->o.output = rep->dir;
            return 0;
        }
    }
    xp_status(x, "report: explore-report-%s-%s-%g-2 to -999 all exist; remove some", x->s.model,
              x->s.system, c->systems);
    return -1;
}

/* 1 if the options of rep load the scenario the explorer shows: the
 * columns of estimate --csv agree cell for cell.  Messages of the loaders
 * go to stderr. */
static int same_scenario(const struct xp_state *x, const struct report_args *rep)
{
    static struct scenario s;
    static struct est_cells a, b;
    struct train_result r;
    if (scenario_load(&rep->o, &s) >= 0)
        return 0;
    train_eval(&s.c, &r);
    memset(a.have, 0, sizeof a.have);
    memset(b.have, 0, sizeof b.have);
    est_cells(&a, &x->s, x->s.tier, &x->s.c, &x->r);
    est_cells(&b, &s, s.tier, &s.c, &r);
    for (size_t i = 0; i < est_ncols; i++)
        if (strcmp(a.cell[i], b.cell[i]) != 0) {
            cli_error("report: the options would give %s %s, the explorer shows %s", est_header[i],
                      b.cell[i], a.cell[i]);
            return 0;
        }
    return 1;
}

/* Keys typed while the report was written: read and dropped (a key meant
 * for the screen as it was must not act on the one that follows).
 * Returns how many. */
static int drop_typeahead(void)
{
    int n = 0, ch;
    nodelay(stdscr, TRUE);
    while ((ch = getch()) != ERR)
        n += ch != KEY_RESIZE;
    nodelay(stdscr, FALSE);
    flushinp();
    return n;
}

/* Run f on rep with stdout and stderr in the file log: the screen stays
 * as it is (curses keeps the terminal, so typed keys are not echoed). */
static int captured(int (*f)(const struct xp_state *, struct report_args *),
                    const struct xp_state *x, struct report_args *rep, FILE *log)
{
    fflush(stdout);
    fflush(stderr);
    int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
    if (out < 0 || err < 0 || dup2(fileno(log), STDOUT_FILENO) < 0 ||
        dup2(fileno(log), STDERR_FILENO) < 0) {
        if (out >= 0)
            close(out);
        if (err >= 0)
            close(err);
        return -1;
    }
    int rc = f(x, rep);
    fflush(stdout);
    fflush(stderr);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    close(out);
    close(err);
    return rc;
}

static int write_report(const struct xp_state *x, struct report_args *rep)
{
    return same_scenario(x, rep) ? cmd_report(&rep->o) : EXIT_USAGE;
}

/* `r`: the report command on the scenario as it stands, into a folder of
 * its own, with the screen kept and a status line while it works. */
static void run_report(struct xp_state *x)
{
    static struct report_args rep;
    if (report_opts(x, &rep) != 0)
        return;
    xp_status(x, "writing %s/ ... (keys typed meanwhile are dropped)", rep.dir);
    xp_draw(x);
    refresh();
    FILE *log = tmpfile();
    int rc = log ? captured(write_report, x, &rep, log) : -1;
    char msg[512] = "cannot capture the report's messages";
    if (log) {
        xp_last_message(log, msg, sizeof msg);
        fclose(log);
    }
    int dropped = drop_typeahead();
    char tail[64] = "";
    if (dropped)
        snprintf(tail, sizeof tail, " (%d key%s typed meanwhile dropped)", dropped,
                 dropped == 1 ? "" : "s");
    if (rc == EXIT_OK) /* with a warning (gnuplot missing) when there was one */
        xp_status(x, "report written to %s/%s%s%.300s", rep.dir, tail, msg[0] ? "; " : "", msg);
    else
        xp_status(x, "report failed: %.400s%s", msg[0] ? msg : "no message", tail);
}

/* e over the interface: the kind's estimate --csv of the job's options,
 * its stdout in the file. */
static void export_tm(struct xp_state *x)
{
    const struct xp_tm *t = &x->t;
    char path[256];
    snprintf(path, sizeof path, "explore-%s-%s-%g.csv", t->j.model, t->j.system, t->j.tm.count);
    struct atomic_file a;
    if (atomic_open(&a, path) != 0) {
        xp_status(x, "cannot write %s", path);
        return;
    }
    struct cli_opts o = t->o;
    o.csv = 1;
    fflush(stdout);
    int out = dup(STDOUT_FILENO), rc = EXIT_USAGE;
    if (out >= 0 && dup2(fileno(a.f), STDOUT_FILENO) >= 0) {
        FILE *log = tmpfile();
        int err = log ? dup(STDERR_FILENO) : -1;
        if (err >= 0 && dup2(fileno(log), STDERR_FILENO) >= 0) {
            rc = t->j.face->estimate(&o, &t->j);
            fflush(stdout);
            fflush(stderr);
            dup2(err, STDERR_FILENO);
        }
        if (err >= 0)
            close(err);
        if (log)
            fclose(log);
        dup2(out, STDOUT_FILENO);
    }
    if (out >= 0)
        close(out);
    finish_file(x, &a, (rc != EXIT_OK && rc != EXIT_VERDICT) || ferror(a.f), path, "exported");
}

/* e, s and r over the interface: the estimate; the overlay and the report
 * are the weight-streaming model's (they say why). */
static void write_tm(struct xp_state *x, int ch)
{
    if (ch == 'e')
        export_tm(x);
    else if (ch == 's')
        xp_status(x,
                  "s: no overlay of %s: --hw-overlay applies to weight-streaming hardware "
                  "(give --set on the command line)",
                  x->t.j.system);
    else
        xp_status(x,
                  "r: a report from the explorer is of a weight-streaming scenario; run "
                  "report -m %s --gpu %s",
                  x->t.j.model, x->t.j.system);
}

/* e, s and r: write a file of the scenario.  1 if ch was one of them. */
static int write_file(struct xp_state *x, int ch)
{
    if (x->t.on && (ch == 'e' || ch == 's' || ch == 'r'))
        write_tm(x, ch);
    else if (ch == 'e')
        export_csv(x);
    else if (ch == 's')
        save_overlay(x);
    else if (ch == 'r')
        run_report(x);
    return ch == 'e' || ch == 's' || ch == 'r';
}

static int bench_frames(struct xp_state *x, long frames)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < frames; i++) {
        x->chart_cols = xp_chart_columns();
        if (!x->t.on)
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
            if (x.help || x.prompt || !write_file(&x, ch)) {
                if (xp_key(&x, ch))
                    break;
            }
        }
        rc = EXIT_OK;
    }
    restore();
    delscreen(scr);
    xp_free(&x);
    return rc;
}
