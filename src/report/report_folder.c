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
#include <signal.h>
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

/* 1 if s holds a control character (C0 or DEL). */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < ' ' || *s == 0x7f)
            return 1;
    return 0;
}

/* The refusal of a folder name with a control character, shown as '?'. */
static int control_refused(const char *output)
{
    char shown[REPORT_PATH_MAX];
    size_t i = 0;
    for (; output[i] && i + 1 < sizeof shown; i++)
        shown[i] = (unsigned char)output[i] < ' ' || output[i] == 0x7f ? '?' : output[i];
    shown[i] = '\0';
    return cli_error("-o '%s': a folder name with a control character (a line break, a tab; "
                     "shown as ?) would break index.md and the gnuplot scripts; choose another",
                     shown);
}

int report_folder_check(struct report_folder *f, const char *output, int force,
                        report_holds_fn *holds_report)
{
    f->tmp[0] = '\0';
    f->force = force;
    f->holds_report = holds_report;
    size_t len = strlen(output);
    if (len == 0 || len + REPORT_SUFFIX_MAX >= sizeof f->shown)
        return cli_error("-o '%s': not a usable folder name", output);
    if (has_control(output))
        return control_refused(output);
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
        if (!realpath(f->dir, real) || strlen(real) + REPORT_SUFFIX_MAX >= sizeof f->dir)
            return cli_error("-o '%s': cannot resolve the link: %s", f->shown, strerror(errno));
        if (not_a_name(real))
            return cli_error("-o '%s': a link to /; name the folder itself", f->shown);
        snprintf(f->dir, sizeof f->dir, "%s", real);
    }
    int state;
    return judge(f, &state);
}

/* 1 if s is six letters and digits, as mkdtemp() fills XXXXXX. */
static int mkdtemp_tail(const char *s)
{
    return strspn(s, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == 6 &&
           s[6] == '\0';
}

/* The process that made name, a folder beside the folder base: its PID
 * for base.tmp-PID-XXXXXX or base.old-PID-XXXXXX (*old set for the
 * latter), -1 for the form without a PID (base.tmp-XXXXXX, written before
 * the PID was added), 0 for any other name. */
static long left_by(const char *name, const char *base, int *old)
{
    size_t n = strlen(base);
    if (strncmp(name, base, n) != 0)
        return 0;
    name += n;
    *old = strncmp(name, ".old-", 5) == 0;
    if (!*old && strncmp(name, ".tmp-", 5) != 0)
        return 0;
    name += 5;
    char *end;
    errno = 0;
    long pid = strtol(name, &end, 10);
    if (end > name && *name != '-' && *name != '+' && *end == '-' && pid > 0 && pid <= INT_MAX &&
        errno == 0 && mkdtemp_tail(end + 1))
        return pid;
    return !*old && mkdtemp_tail(name) ? -1 : 0;
}

/* One folder beside f->dir left by pid (left_by()): removed when it is
 * this user's .tmp- folder and pid no longer runs, else named. */
static void tidy_one(const struct report_folder *f, const char *path, long pid, int old)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    int dead = pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
    if (!old && dead && st.st_uid == geteuid()) {
        remove_tree(path);
        cli_error("report: removed %s, the temporary folder of a run (process %ld) that ended "
                  "before it finished",
                  path, pid);
    } else if (old) {
        cli_error("report: %s holds the report that a run (process %ld) moved aside to replace "
                  "%s and did not remove%s; left as it is",
                  path, pid, f->shown, dead ? "" : " (that process still runs)");
    } else {
        cli_error("report: %s is a temporary folder beside %s of %s; left as it is (remove it "
                  "when no report is being written there)",
                  path, f->shown,
                  pid < 0 ? "an earlier version, left by a run that did not finish"
                  : st.st_uid != geteuid()
                      ? "another user"
                      : "a run that still runs (another report to the same folder?)");
    }
}

/* Deal with the folders runs killed outright left beside f->dir. */
static void tidy_left(const struct report_folder *f)
{
    char parent[REPORT_PATH_MAX];
    parent_of(f->dir, parent, sizeof parent);
    const char *base = strrchr(f->dir, '/');
    base = base ? base + 1 : f->dir;
    DIR *d = opendir(parent);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        int old;
        long pid = left_by(e->d_name, base, &old);
        char path[REPORT_PATH_MAX + REPORT_SUFFIX_MAX + 2];
        if (pid != 0 && snprintf(path, sizeof path, "%s/%s", parent, e->d_name) < (int)sizeof path)
            tidy_one(f, strcmp(parent, ".") == 0 ? e->d_name : path, pid, old);
    }
    closedir(d);
}

int report_folder_begin(struct report_folder *f)
{
    tidy_left(f);
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp-%ld-XXXXXX", f->dir, (long)getpid());
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
        snprintf(old, n, "%s.old-%ld-XXXXXX", f->dir, (long)getpid());
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
    char old[REPORT_PATH_MAX + REPORT_SUFFIX_MAX] = "";
    if (rc < 0 && (rc = swap_in(f, state, old, sizeof old)) < 0)
        f->tmp[0] = '\0'; /* it is the report now */
    report_folder_abort(f);
    if (old[0])
        remove_tree(old);
    return rc;
}
