/* sweep_file.h - a sweep file: the axes of `sweep` in an INI file with one
 * section, [sweep], one axis per key (the options' names and value
 * syntax; section.key for a --set axis, of a weight-streaming or a GPU
 * description).  The command line's options
 * override the file's. */
#ifndef CP_SWEEP_FILE_H
#define CP_SWEEP_FILE_H

#include "../cli/cli.h"

/* What to name a value in a message: the option ("--sparsity"), or for a
 * value from the file "FILE:LINE: sparsity". */
struct sweep_labels {
    const char *model, *system, *systems, *sparsity, *memoryx, *best, *group_by, *precision,
        *layouts;
    const char *where[CLI_MAX_WHERE];
    int file_scenario; /* the file gave memoryx or a section.key axis */
    const char *path;  /* the file, or NULL */
};

/* Labels for the command line's options alone. */
void sweep_labels_init(struct sweep_labels *lab, const struct cli_opts *o);

/* Read path's [sweep] into the options o's command line left unset, and
 * name them in lab; -1, or an exit code after a "FILE:LINE: key: ..."
 * message.  The strings live until sweep_file_free(). */
int sweep_file_load(const char *path, struct cli_opts *o, struct sweep_labels *lab);
void sweep_file_free(void);

#endif
