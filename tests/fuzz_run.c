/* fuzz_run.c - libFuzzer harness for the commands that run long or write
 * files, which fuzz_cli leaves out: simulate, crosscheck, sweep, calibrate
 * and report.  The input is an argument vector, split at newline and NUL
 * bytes as in fuzz_cli.c, run through the program's main (cp_main) in a
 * working directory of its own that is made afresh for every input.
 *
 * Asserted, for every input:
 *   - the exit status is one of the documented ones (0, 1, 2), never a
 *     crash, a hang, a leak or an exit();
 *   - no temporary is left behind: no name in the working directory holds
 *     ".tmp" or ".old-" (the writers build beside the target and rename)
 *     but one the command line gave;
 *   - exit status 2 wrote nothing: the directory holds exactly the input
 *     files it was given, each with the bytes it had (cerebras-plan(1),
 *     EXIT STATUS).
 *
 * Kept small, so a run takes milliseconds (limits passed before the
 * command, where the program takes its options too):
 *   sweep                 --max-points=FUZZ_POINTS
 *   simulate, crosscheck  --max-events=FUZZ_EVENTS
 *   report                --max-events=FUZZ_EVENTS: its crosscheck figure
 *                         simulates too; PATH is empty, so gnuplot is never
 *                         found and no figure is rendered
 * An input is dropped (and kept out of the corpus) when it names none of
 * these commands or more than one, or when any word
 *   - ends in ".." or holds a '/' (but K/N, --shard's value): every path
 *     is a name in the working directory, so nothing outside it is read or
 *     written (descriptions are found by name among the built-in copies);
 *   - starts with "--ma": --max-events and --max-points are the harness's;
 *   - starts with "-j" or "--j": sweep's threads;
 *   - is explore, or a --uncertainty above FUZZ_MAX_SAMPLES draws (as fuzz_cli).
 * The working directory holds, as inputs to name: m.csv (a measurement
 * file), h.ini (a system), md.ini (a model), o.ini (an overlay) and sw.ini
 * (a sweep file), copied from tests/bad-input at start-up.
 *
 * Seeds: tests/fuzz/fuzz_run/.  Built and run by `make fuzz` and
 * `make fuzz-smoke`. */
#define _XOPEN_SOURCE 700
#include <assert.h>
#include <dirent.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#include "cli/cli.h"

#ifndef FUZZ_FIXTURES
#error "FUZZ_FIXTURES: the tests/bad-input directory (the Makefile defines it)"
#endif

static char FUZZ_POINTS[] = "--max-points=64";
static char FUZZ_EVENTS[] = "--max-events=20000";
static char CALIBRATE_NONE[] = "";

int cp_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fixture {
    const char *name, *from; /* in the working directory; under FUZZ_FIXTURES */
    char *bytes;
    size_t len;
} fixtures[] = {
    {"m.csv", "calib/ok.csv", NULL, 0},   {"h.ini", "hw/ok.ini", NULL, 0},
    {"md.ini", "models/ok.ini", NULL, 0}, {"o.ini", "overlay/ok.ini", NULL, 0},
    {"sw.ini", "sweep/ok.ini", NULL, 0},
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

static char workdir[64];
static char homedir[4096]; /* libFuzzer's own: its corpus paths may be relative */

/* The whole of a file, or abort: the harness cannot run without it. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    *len = fread(buf, 1, cap, f);
    if (!feof(f) || ferror(f))
        abort(); /* a fixture is a few hundred bytes */
    fclose(f);
    return buf;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) == 0 ? 0 : -1;
}

/* At exit, the working directory goes. */
static void remove_workdir(void)
{
    if (chdir("/") == 0)
        (void)nftw(workdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    for (size_t i = 0; i < NFIXTURES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", FUZZ_FIXTURES, fixtures[i].from);
        fixtures[i].bytes = slurp(path, &fixtures[i].len);
    }
    fuzz_quiet();
    setenv("PATH", "", 1);
    if (!getcwd(homedir, sizeof homedir))
        abort();
    snprintf(workdir, sizeof workdir, "/tmp/fuzz_run.XXXXXX");
    if (!mkdtemp(workdir))
        abort();
    atexit(remove_workdir);
    return 0;
}

/* The working directory, empty but for the fixtures, and the current one. */
static void fresh_dir(void)
{
    if (chdir("/") != 0)
        abort();
    (void)nftw(workdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    if (mkdir(workdir, 0700) != 0 || chdir(workdir) != 0)
        abort();
    for (size_t i = 0; i < NFIXTURES; i++) {
        FILE *f = fopen(fixtures[i].name, "wb");
        if (!f || fwrite(fixtures[i].bytes, 1, fixtures[i].len, f) != fixtures[i].len ||
            fclose(f) != 0)
            abort();
    }
}

/* 1 if the working directory (by its path: the harness is back in its
 * own when it checks) holds just the fixtures, byte for byte. */
static int only_fixtures(void)
{
    DIR *d = opendir(workdir);
    if (!d)
        abort();
    size_t seen = 0;
    int same = 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t i = 0;
        while (i < NFIXTURES && strcmp(e->d_name, fixtures[i].name) != 0)
            i++;
        if (i == NFIXTURES) {
            same = 0;
            continue;
        }
        seen++;
        size_t len;
        char path[sizeof workdir + 256];
        snprintf(path, sizeof path, "%s/%s", workdir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            same = 0;
            continue;
        }
        fclose(f);
        char *now = slurp(path, &len);
        same &= len == fixtures[i].len && memcmp(now, fixtures[i].bytes, len) == 0;
        free(now);
    }
    closedir(d);
    return same && seen == NFIXTURES;
}

/* 1 if word ends in name: the name was given (alone, -oNAME, --trace=NAME). */
static int given(char **argv, int argc, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < argc; i++) {
        size_t w = strlen(argv[i]);
        if (w >= n && strcmp(argv[i] + w - n, name) == 0)
            return 1;
    }
    return 0;
}

/* 1 if a name in the working directory is a writer's temporary: it holds
 * ".tmp" or ".old-" and is not a name the command line gave. */
static int temporaries_left(char **argv, int argc)
{
    DIR *d = opendir(workdir);
    if (!d)
        abort();
    int left = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        left |= (strstr(e->d_name, ".tmp") != NULL || strstr(e->d_name, ".old-") != NULL) &&
                !given(argv, argc, e->d_name);
    closedir(d);
    return left;
}

/* The limit option the command word a needs, "" for calibrate, NULL if a is
 * none of the commands this harness runs. */
static char *limit_for(const char *a)
{
    static const struct {
        const char *cmd;
        char *limit;
    } run[] = {{"sweep", FUZZ_POINTS},
               {"simulate", FUZZ_EVENTS},
               {"crosscheck", FUZZ_EVENTS},
               {"report", FUZZ_EVENTS},
               {"calibrate", CALIBRATE_NONE}};
    for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
        if (strcmp(a, run[i].cmd) == 0)
            return run[i].limit;
    return NULL;
}

/* 1 if a ends in "..": the parent directory, alone or as an option's value
 * (-o.., --output=..); a range such as 1..8 ends in a digit. */
static int ends_dotdot(const char *a)
{
    size_t n = strlen(a);
    return n >= 2 && strcmp(a + n - 2, "..") == 0;
}

/* 1 if a is K/N or --shard=K/N with digits, the one '/' a word may hold. */
static int shard_spec(const char *a)
{
    if (fuzz_prefix(a, "--shard="))
        a += strlen("--shard=");
    size_t k = strspn(a, "0123456789");
    return k > 0 && a[k] == '/' && a[k + 1] != '\0' &&
           strspn(a + k + 1, "0123456789") == strlen(a + k + 1);
}

/* 1 if the word a may take part in a run (see the header). */
static int allowed(const char *a)
{
    if ((strchr(a, '/') && !shard_spec(a)) || ends_dotdot(a) || fuzz_prefix(a, "--ma") ||
        fuzz_prefix(a, "-j") || fuzz_prefix(a, "--j") || strcmp(a, "explore") == 0)
        return 0;
    return fuzz_samples_ok(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;

    char *argv[FUZZ_MAX_ARGS + 3];
    argv[0] = "cerebras-plan";
    argv[1] = NULL; /* the limit, if the command has one */
    int argc = fuzz_split(text, size, argv, 2);
    char *limit = NULL;
    int ncmd = 0;
    for (int i = 2; i < argc; i++) {
        char *l = limit_for(argv[i]);
        if (!allowed(argv[i]) || (l && ++ncmd > 1)) {
            free(text);
            return -1;
        }
        if (l)
            limit = l;
    }
    if (ncmd != 1) {
        free(text);
        return -1;
    }
    char **av = argv;
    if (limit[0] == '\0') { /* calibrate: no limit word */
        argv[1] = argv[0];
        av = argv + 1;
        argc--;
    } else {
        argv[1] = limit;
    }

    fresh_dir();
    static char *none[] = {"fuzz_run", NULL};
    optind = 0;
    (void)getopt(1, none, "");

    /* The program takes SIGALRM as a scheduler's warning to stop (a report
     * stops, a file being written is removed and the process ends of the
     * signal).  libFuzzer's -timeout watchdog ticks with SIGALRM, and a tick
     * can reach one of libFuzzer's own threads, which do not block it, so
     * the Makefile runs this target with -timeout=0 and bounds it with
     * timeout(1); an alarm from elsewhere is still held back while the
     * program runs.  The harness's limits above keep every run short. */
    sigset_t alrm, was;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_BLOCK, &alrm, &was);
    int rc = cp_main(argc, av);
    sigprocmask(SIG_SETMASK, &was, NULL);
    /* back first, so that libFuzzer writes a finding where it was told */
    if (chdir(homedir) != 0)
        abort();
    assert(rc == EXIT_OK || rc == EXIT_VERDICT || rc == EXIT_USAGE);
    assert(!temporaries_left(av, argc));
    assert(rc != EXIT_USAGE || only_fixtures());
    free(text);
    return 0;
}
