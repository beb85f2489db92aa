/* desc_int.h - what the files of the description loader share (not part
 * of the API; see desc.h): desc.c runs the parse, desc_lines.c reads and
 * checks lines, desc_list.c keeps the list section's entries,
 * desc_value.c looks up keys and converts values, desc_text.c checks
 * text.  Each uses only those after it in that list (tests/cli_layout.sh
 * allows no circle between files). */
#ifndef CP_DESC_INT_H
#define CP_DESC_INT_H

#include <stddef.h>

#include "../base/status.h"
#include "desc.h"

/* desc_lines.c */

/* Where desc_read_line() is in the text, and the number of the line it
 * returned last (1 for the first; 0 before any). */
struct desc_reader {
    const char *p;
    int line;
};

/* libinih's ini_reader over a struct desc_reader (stream): the next line
 * into str (at most num - 1 bytes, with its '\n'), or NULL at the end. */
char *desc_read_line(char *str, int num, void *stream);

/* Before inih sees text named origin: 0, or -1 with err filled for a line
 * longer than DESC_LINE_MAX, a control character outside a value or a
 * section header the schema lacks. */
int desc_check_lines(const struct desc_schema *s, const char *text, const char *origin,
                     struct cp_error *err);

/* desc_list.c */

/* The schema's list in target. */
struct desc_list *desc_list_of(const struct desc_schema *s, void *target);

/* Index of the entry called name in l, or -1. */
int desc_list_index(const struct desc_list *l, const char *name);

/* Set entry name of the schema's list section to value (replacing an
 * entry of that name); on failure -1, and why says what is wrong. */
int desc_list_store(const struct desc_schema *s, void *target, const char *name, const char *value,
                    char *why, size_t n);

/* desc_value.c */

/* 1 if section is one of the schema's (its list section included). */
int desc_known_section(const struct desc_schema *s, const char *section);

/* "[system] [memoryx] [swarmx]": the schema's sections, for hints. */
void desc_list_sections(const struct desc_schema *s, char *buf, size_t n);

/* "a, b, c": the keys of section, for hints. */
void desc_list_keys(const struct desc_schema *s, const char *section, char *buf, size_t n);

/* Cut trailing white space off s, in place. */
void desc_trim_end(char *s);

/* 0 and the index of v in choices ("a|b|c") in *out, or -1. */
int desc_parse_choice(const char *v, const char *choices, int *out);

/* Convert value for key k into target and its range into *spread (0 for
 * none); on failure -1, and why says what is wrong. */
int desc_store(const struct desc_key *k, const char *value, void *target, double *spread, char *why,
               size_t n);

/* desc_text.c */

/* desc_text_check(), with the offset of the byte at fault in *at. */
int desc_text_check_at(const char *s, size_t *at, char *why, size_t n);

#endif
