/* report_folder.h - where a report goes: the folder named by -o checked
 * before any work, the report built in a temporary folder beside it, and
 * put in place only when complete and when the command's output was
 * written, an old report moved aside and removed only once the new one is
 * in.  Whatever fails, nothing is left beside the folder. */
#ifndef CP_REPORT_FOLDER_H
#define CP_REPORT_FOLDER_H

#include <stddef.h>
#include <stdio.h>

/* The longest folder name -o takes (PATH_MAX on Linux). */
#define REPORT_PATH_MAX 4096
/* Room for what a run's own folders beside it add to the name:
 * ".tmp-PID-XXXXXX" (the one being built), ".old-PID-XXXXXX" (the old
 * report moved aside). */
#define REPORT_SUFFIX_MAX 40

/* 1 if the folder dir holds a report and nothing else, else 0 with the
 * reason (what else it holds, or what it lacks) in why. */
typedef int report_holds_fn(const char *dir, char *why, size_t n);

struct report_folder {
    char shown[REPORT_PATH_MAX];                   /* as -o named it, trailing '/' cut */
    char dir[REPORT_PATH_MAX];                     /* where it goes: a symbolic link's target */
    char tmp[REPORT_PATH_MAX + REPORT_SUFFIX_MAX]; /* being built; "" when none */
    int force;
    report_holds_fn *holds_report;
};

/* Check the folder output (as -o gives it) before any work: a
 * name without control characters (a line break would break index.md and
 * the scripts), to rename onto (not ".", ".." or "/", nor a mount point), a
 * symbolic link resolved to the folder it names (a link to nothing
 * refused), something absent, an empty folder, or a non-empty one when
 * force and holds_report() says it holds a report.  -1, or EXIT_USAGE after
 * a message naming the path. */
int report_folder_check(struct report_folder *f, const char *output, int force,
                        report_holds_fn *holds_report);

/* Create the temporary folder beside f->dir (mode 0777 less the umask),
 * named f->dir ".tmp-PID-XXXXXX" after this process.  First the folders a
 * run killed outright (SIGKILL, a crash, a power cut) left beside f->dir
 * are dealt with: a DIR.tmp-PID-XXXXXX of this user's whose process PID no
 * longer runs is removed, with a line on the standard error; any other
 * (a running PID, another user's, the old DIR.tmp-XXXXXX form, a moved-aside
 * DIR.old-PID-XXXXXX, which may hold the only copy of the old report) is
 * named there and left.  -1, or EXIT_USAGE after a message. */
int report_folder_begin(struct report_folder *f);

/* Check again what stands at f->dir (it may have changed while the report
 * was built), print said on the standard output and flush it, and only
 * then move the temporary folder into place, replacing the old folder.
 * -1, or EXIT_USAGE after a message, with the temporary folder removed and
 * the old folder as it was. */
int report_folder_commit(struct report_folder *f, const char *said);

/* Remove the temporary folder, if any. */
void report_folder_abort(struct report_folder *f);

/* Close f, a file of the report written as path: -1, or 2 after "report:
 * error writing PATH: REASON" (e.g. "No space left on device"). */
int report_close(FILE *f, const char *path);

#endif
