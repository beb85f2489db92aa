/* atomic.c - temporary file + rename. */
#include "atomic.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* While a temporary file is open, an interrupt removes it before the
 * process dies of the signal, so not even the temporary name is left.  One
 * file is open at a time; its name is copied where the handler can read it. */
/* Every signal whose default ends the process and that a terminal, a batch
 * scheduler or a file-size limit sends: HUP (terminal closed), ALRM, USR1
 * and USR2 (schedulers' warnings), PIPE, XCPU and XFSZ (ulimit -t, -f). */
static const int caught[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGALRM,
                             SIGUSR1, SIGUSR2, SIGPIPE, SIGXCPU, SIGXFSZ};
#define NCAUGHT (sizeof caught / sizeof caught[0])
static struct sigaction was[NCAUGHT];
static char pending[sizeof((struct atomic_file *)0)->tmp];
static volatile sig_atomic_t have_pending;

static void on_signal(int sig)
{
    if (have_pending)
        unlink(pending);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch(const char *tmp)
{
    memcpy(pending, tmp, sizeof pending);
    have_pending = 1;
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &sa, &was[i]);
}

static void unwatch(void)
{
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &was[i], NULL);
    have_pending = 0;
}

int atomic_open(struct atomic_file *a, const char *path)
{
    a->f = NULL;
    a->direct = 0;
    a->tmp[0] = '\0';
    if (strlen(path) >= sizeof a->path)
        return cli_error("%s: file name too long", path) != 0;
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    /* refused now, not after the work */
    if (exists && S_ISDIR(st.st_mode))
        return cli_error("%s: could not be written: %s", path, strerror(EISDIR)) != 0;
    if (exists && S_ISSOCK(st.st_mode))
        return cli_error("%s: is a socket, not a file to write", path) != 0;
    if (!exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        return cli_error("%s: a symbolic link to a file that does not exist; give the target's "
                         "own name",
                         path) != 0;
    /* A device or a FIFO is written through, never replaced by a file:
     * what it is stays what it is (there is nothing to rename). */
    if (exists && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode))) {
        snprintf(a->path, sizeof a->path, "%s", path);
        a->f = fopen(path, "w");
        if (!a->f)
            return cli_error("%s: %s", path, strerror(errno)) != 0;
        a->direct = 1;
        return 0;
    }
    /* A symbolic link: the temporary file goes beside its target and is
     * renamed over the target, so the link stays and the target is written. */
    char real[PATH_MAX];
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!realpath(path, real) || strlen(real) >= sizeof a->path)
            return cli_error("%s: cannot resolve the link: %s", path, strerror(errno)) != 0;
        path = real;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        a->tmp[0] = '\0';
        return cli_error("%s: cannot create a file here: %s", path, strerror(errno)) != 0;
    }
    /* mkstemp makes the file private; give it the mode a plain open would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        a->tmp[0] = '\0';
        return cli_error("%s: %s", path, strerror(e)) != 0;
    }
    watch(a->tmp);
    return 0;
}

void atomic_abort(struct atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    a->f = NULL;
    if (a->direct || !a->tmp[0])
        return;
    unlink(a->tmp);
    a->tmp[0] = '\0';
    unwatch();
}

int atomic_close(struct atomic_file *a)
{
    if (!a->f)
        return !a->direct && !a->tmp[0]; /* closed before; removed if it failed */
    /* flushed first, so that a full disk gives its reason; an error of an
     * earlier write that the flush does not repeat is reported without */
    errno = 0;
    int bad = fflush(a->f) != 0, e = errno;
    bad |= ferror(a->f) != 0;
    if (fclose(a->f) != 0 && !bad)
        bad = 1, e = errno;
    a->f = NULL;
    if (!bad)
        return 0;
    atomic_abort(a);
    if (e)
        return cli_error("%s: could not be written: %s", a->path, strerror(e)) != 0;
    return cli_error("%s: could not be written", a->path) != 0;
}

int atomic_commit(struct atomic_file *a)
{
    if (atomic_close(a) != 0)
        return 1;
    if (a->direct)
        return 0;
    /* The command's output before its file: when the output cannot be
     * written the command fails, and a failed command replaces nothing. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        atomic_abort(a);
        return cli_error("error writing the output: %s; %s not written", strerror(e ? e : EIO),
                         a->path) != 0;
    }
    if (rename(a->tmp, a->path) != 0) {
        int e = errno;
        atomic_abort(a);
        return cli_error("%s: could not be written: %s", a->path, strerror(e)) != 0;
    }
    a->tmp[0] = '\0';
    unwatch();
    return 0;
}
