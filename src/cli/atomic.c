/* atomic.c - temporary file + rename. */
#include "atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int atomic_open(struct atomic_file *a, const char *path)
{
    a->f = NULL;
    if (strlen(path) >= sizeof a->path)
        return cli_error("%s: file name too long", path) != 0;
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0)
        return cli_error("%s: cannot create a file here: %s", path, strerror(errno)) != 0;
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        return cli_error("%s: %s", path, strerror(e)) != 0;
    }
    return 0;
}

void atomic_abort(struct atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    a->f = NULL;
    unlink(a->tmp);
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
        return cli_error("%s: could not be written: %s", a->path, strerror(e)) != 0;
    }
    return 0;
}
