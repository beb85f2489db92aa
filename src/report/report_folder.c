/* report_folder.c - where a report goes (see report_folder.h): -o checked
 * before any work, a temporary folder beside it, and the rename into
 * place. */
#include "report_folder.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli/cli.h"

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* 1 if path is a folder with entries, 0 if empty, -1 if absent; -2 if it
 * is something else or unreadable (a message is printed). */
static int dir_state(const struct report_folder *f)
{
    struct stat st;
    if (stat(f->dir, &st) != 0)
        return -1;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(f->dir) : NULL;
    if (!d) {
        cli_error("report: %s exists and is not a readable folder", f->shown);
        return -2;
    }
    int entries = 0;
    for (struct dirent *e; !entries && (e = readdir(d));)
        entries = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return entries;
}

/* The folder dir is in, into buf: "." when dir has no '/'. */
static void parent_of(const char *dir, char *buf, size_t n)
{
    const char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else if (slash == dir)
        snprintf(buf, n, "/");
    else
        snprintf(buf, n, "%.*s", (int)(slash - dir), dir);
}

/* 1 if the folder dir is a mount point (or the root): a rename cannot
 * move it. */
static int mount_point(const char *dir)
{
    char parent[REPORT_PATH_MAX];
    struct stat st, pst;
    parent_of(dir, parent, sizeof parent);
    if (stat(dir, &st) != 0 || stat(parent, &pst) != 0)
        return 0;
    return st.st_dev != pst.st_dev || st.st_ino == pst.st_ino;
}

/* What stands at f->dir, judged: -1 when the report may go there (nothing,
 * an empty folder, or with force a folder holding a report and nothing
 * else); EXIT_USAGE after a message otherwise.  *state as dir_state(). */
static int judge(const struct report_folder *f, int *state)
{
    char why[512];
    *state = dir_state(f);
    if (*state == -2)
        return EXIT_USAGE;
    if (*state >= 0 && mount_point(f->dir))
        return cli_error(
            "-o '%s': a mount point, which cannot be replaced; name a folder inside it", f->shown);
    if (*state == 1 && !f->force)
        return cli_error("report: %s is not empty (--force replaces it)", f->shown);
    if (*state == 1 && !f->holds_report(f->dir, why, sizeof why))
        return cli_error("report: --force: %s is not a report folder (%s); --force replaces "
                         "only a folder that holds a report and nothing else",
                         f->shown, why);
    return -1;
}

/* 1 if the last part of the name dir is "." or "..", or dir is "/". */
static int not_a_name(const char *dir)
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    return strcmp(dir, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0;
}

int report_folder_check(struct report_folder *f, const char *output, int force,
                        report_holds_fn *holds_report)
{
    f->tmp[0] = '\0';
    f->force = force;
    f->holds_report = holds_report;
    size_t len = strlen(output);
    if (len == 0 || len + 16 >= sizeof f->shown)
        return cli_error("-o '%s': not a usable folder name", output);
    memcpy(f->shown, output, len + 1);
    while (len > 1 && f->shown[len - 1] == '/')
        f->shown[--len] = '\0';
    if (not_a_name(f->shown))
        return cli_error("-o '%s': ., .. and / cannot be replaced; name the folder itself", output);
    memcpy(f->dir, f->shown, len + 1);
    /* A symbolic link stays: the folder it names is the one replaced. */
    struct stat lst, st;
    if (lstat(f->dir, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char real[PATH_MAX];
        if (stat(f->dir, &st) != 0)
            return cli_error("-o '%s': a symbolic link to nothing; give the folder's own name",
                             f->shown);
        if (!realpath(f->dir, real) || strlen(real) + 16 >= sizeof f->dir)
            return cli_error("-o '%s': cannot resolve the link: %s", f->shown, strerror(errno));
        if (not_a_name(real))
            return cli_error("-o '%s': a link to /; name the folder itself", f->shown);
        snprintf(f->dir, sizeof f->dir, "%s", real);
    }
    int state;
    return judge(f, &state);
}

int report_folder_begin(struct report_folder *f)
{
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp-XXXXXX", f->dir);
    if (!mkdtemp(f->tmp)) {
        f->tmp[0] = '\0';
        return cli_error("report: cannot create a folder beside %s: %s", f->shown, strerror(errno));
    }
    /* mkdtemp makes it 0700; give it the mode mkdir(1) would */
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(f->tmp, 0777 & ~mask) != 0) {
        int e = errno;
        report_folder_abort(f);
        return cli_error("report: cannot set the mode of a folder beside %s: %s", f->shown,
                         strerror(e));
    }
    return -1;
}

void report_folder_abort(struct report_folder *f)
{
    if (f->tmp[0])
        remove_tree(f->tmp);
    f->tmp[0] = '\0';
}

/* Move the old folder aside into old (made here), then the new one into
 * place; the old one comes back if the new one cannot go in.  -1, or
 * EXIT_USAGE after a message with old "" (nothing left beside dir, unless
 * the old folder could not come back, which the message names). */
static int swap_in(struct report_folder *f, int state, char *old, size_t n)
{
    old[0] = '\0';
    if (state >= 0) {
        snprintf(old, n, "%s.old-XXXXXX", f->dir);
        if (!mkdtemp(old)) {
            old[0] = '\0';
            return cli_error("report: cannot move %s aside: %s", f->shown, strerror(errno));
        }
        if (rename(f->dir, old) != 0) {
            int e = errno;
            rmdir(old);
            old[0] = '\0';
            return cli_error("report: cannot move %s aside: %s", f->shown, strerror(e));
        }
    }
    if (rename(f->tmp, f->dir) == 0)
        return -1;
    int e = errno;
    if (old[0] && rename(old, f->dir) != 0)
        cli_error("report: the old %s could not be put back; it is %s", f->shown, old);
    old[0] = '\0';
    return cli_error("report: cannot put the report in place as %s: %s", f->shown, strerror(e));
}

int report_close(FILE *f, const char *path)
{
    /* A failed write leaves its bytes in the buffer (glibc), so flushing
     * again fails again, with the reason in errno. */
    errno = 0;
    int bad = fflush(f) != 0, e = errno;
    bad |= ferror(f) != 0;
    errno = 0;
    if (fclose(f) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad)
        return -1;
    return cli_error("report: error writing %s: %s", path, strerror(e ? e : EIO));
}

int report_folder_commit(struct report_folder *f, const char *said)
{
    int state, rc = judge(f, &state);
    if (rc < 0 && said)
        fputs(said, stdout);
    /* the output before the folder: a command that fails replaces nothing */
    errno = 0;
    if (rc < 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = cli_error("error writing the output: %s; %s not written",
                       strerror(errno ? errno : EIO), f->shown);
    char old[REPORT_PATH_MAX + 16] = "";
    if (rc < 0 && (rc = swap_in(f, state, old, sizeof old)) < 0)
        f->tmp[0] = '\0'; /* it is the report now */
    report_folder_abort(f);
    if (old[0])
        remove_tree(old);
    return rc;
}
