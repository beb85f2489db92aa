/* catalog.h - finding hardware and model descriptions by name.
 *
 * A name resolves, in order, to: an explicit path (an argument containing '/'
 * or ending in ".ini"); DIR/models/NAME.ini or DIR/hw/NAME.ini in the
 * --data-dir; in each directory of $CEREBRAS_PLAN_PATH (colon-separated); in
 * the installed data directory; then the copies built into the binary.  The
 * front end passes the directories in (the core reads no environment). */
#ifndef CP_CATALOG_H
#define CP_CATALOG_H

#include <stddef.h>

#include "../base/status.h"

enum cat_kind { CAT_MODEL, CAT_HW, CAT_ANY };

#define CAT_MAX_DIRS 64
#define CAT_NAME_MAX 64
#define CAT_ORIGIN_MAX 4096

struct cat_dirs {
    const char *dir[CAT_MAX_DIRS]; /* searched in this order */
    size_t n;
};

struct cat_entry {
    enum cat_kind kind;          /* CAT_MODEL or CAT_HW            */
    char name[CAT_NAME_MAX];     /* file name without .ini         */
    char origin[CAT_ORIGIN_MAX]; /* path, or "<built-in>/hw/x.ini" */
    char *text;                  /* NUL-terminated; owned          */
};

/* Build the search list from --data-dir (may be NULL), $CEREBRAS_PLAN_PATH
 * (may be NULL; split at ':' in place, empty entries skipped) and the
 * installed directory (may be NULL or "").  CP_EINPUT if there are more than
 * CAT_MAX_DIRS directories in all. */
cp_status cat_dirs_init(struct cat_dirs *d, const char *data_dir, char *env_path,
                        const char *installed, struct cp_error *err);

/* Resolve arg to a description of kind want (CAT_ANY: model first, then
 * hardware) and read it (a UTF-8 byte-order mark at its start dropped, and
 * the double quotes around a value that is wholly quoted, as by
 * cat_open()).  CP_ENOTFOUND if nothing matches, CP_EIO if a file
 * cannot be read, CP_EINPUT if an explicit file is neither kind.  On success
 * the caller frees out with cat_entry_free(). */
cp_status cat_resolve(const struct cat_dirs *d, const char *arg, enum cat_kind want,
                      struct cat_entry *out, struct cp_error *err);
void cat_entry_free(struct cat_entry *e);

/* Every name of kind want reachable through d (first source wins), sorted by
 * kind then name.  text is NULL in listed entries; the caller frees the array
 * with cat_list_free(). */
struct cat_list {
    size_t n;
    struct cat_entry *items;
};
cp_status cat_list(const struct cat_dirs *d, enum cat_kind want, struct cat_list *out,
                   struct cp_error *err);
void cat_list_free(struct cat_list *l);

/* Read the text of an entry cat_list() returned, from exactly its origin. */
cp_status cat_open(const struct cat_entry *item, struct cat_entry *out, struct cp_error *err);

/* Kind of a description text by its sections ([model] or [system]), or
 * CAT_ANY if it has neither. */
enum cat_kind cat_kind_of(const char *text);

/* Read any regular file at path (kind CAT_ANY); CP_EIO if it is missing
 * or unreadable. */
cp_status cat_read_file(const char *path, struct cat_entry *out, struct cp_error *err);

/* A data file other than a description (e.g. "reports", "claims.csv"):
 * DIR/subdir/file in each search directory, then the built-in copy.  The
 * entry's kind is CAT_ANY. */
cp_status cat_find_data(const struct cat_dirs *d, const char *subdir, const char *file,
                        struct cat_entry *out, struct cp_error *err);

/* Files compiled into the binary (generated from hw/ and models/). */
struct cat_embedded {
    const char *kind; /* "hw" or "models" */
    const char *name;
    const char *text;
};
extern const struct cat_embedded cat_embedded[];
extern const size_t cat_nembedded;

#endif
