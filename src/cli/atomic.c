/* atomic.c - temporary file + rename. */
#include "atomic.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* While a temporary file is open, an interrupt removes it before the
 * process dies of the signal, so not even the temporary name is left.  One
 * file is open at a time; its name is copied where the handler can read it. */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
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
    if (strlen(path) >= sizeof a->path)
        return cli_error("%s: file name too long", path) != 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) /* refused now, not after the work */
        return cli_error("%s: could not be written: %s", path, strerror(EISDIR)) != 0;
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0)
        return cli_error("%s: cannot create a file here: %s", path, strerror(errno)) != 0;
    /* mkstemp makes the file private; give it the mode a plain open would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
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
    unlink(a->tmp);
    unwatch();
}

int atomic_commit(struct atomic_file *a)
{
    int bad = ferror(a->f);
    if (fclose(a->f) != 0)
        bad = 1;
    a->f = NULL;
    if (bad || rename(a->tmp, a->path) != 0) {
        int e = errno;
        unlink(a->tmp);
        unwatch();
        return cli_error("%s: could not be written: %s", a->path, strerror(e)) != 0;
    }
    unwatch();
    return 0;
}
