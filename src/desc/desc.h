/* desc.h - loading a description file (INI text) against a schema.
 *
 * A schema is a table of keys: section, name, type, dimension, flags and the
 * offset of the field it fills in a caller's struct.  desc_load() parses the
 * text with libinih, converts every value to SI base units (units.h), checks
 * it (unknown section or key, duplicate key, wrong unit, negative, zero, NaN,
 * infinite, not an integer, a fraction above 1), then checks that every
 * required key was given.  Errors name origin:line: section.key and carry a
 * hint.  desc_set() applies one "section.key=value" override (--set) with the
 * same parsing and checks.
 *
 * An optional "list section" accepts any key name with values of one
 * dimension (hardware files use it for the MemoryX capacity tiers).
 *
 * A number may carry an uncertainty range: "2 us +- 50%" (relative) or
 * "2 us +- 1 us" (absolute, same dimension; "±" works too).  The range is
 * symmetric, must stay inside the key's valid values, and is not allowed on
 * whole-number keys.  The value is the centre; the half-width goes to
 * desc_src.spread.  desc_overlay() applies a partial file of the same
 * format on top of a loaded description (several, in order).
 *
 * Text is printed as it is, so every value and list name must be UTF-8
 * without control characters (desc_text_check()), and a control character
 * anywhere else on a line (key, header, comment) is an error too. */
#ifndef CP_DESC_H
#define CP_DESC_H

#include <stddef.h>

#include "../base/status.h"
#include "../base/units.h"

enum desc_type {
    DESC_NUM,         /* double, in SI base units of .dim                     */
    DESC_NUM_OR_WORD, /* double, or the word in .choices (sets int at word_off) */
    DESC_BOOL,        /* int: true/false, yes/no, 1/0                          */
    DESC_CHOICE,      /* int: index into "a|b|c" in .choices                   */
    DESC_TEXT,        /* char[DESC_TEXT_MAX]                                   */
};

enum desc_flag {
    DESC_REQUIRED = 1u << 0,
    DESC_INTEGER = 1u << 1,   /* value must be a whole number              */
    DESC_ZERO_OK = 1u << 2,   /* zero is meaningful (else it is an error)  */
    DESC_AT_MOST_1 = 1u << 3, /* a fraction: value must be <= 1            */
};

#define DESC_TEXT_MAX 64 /* bytes of a text value, with its NUL */
/* The largest whole number a key takes: 2^53, above which a double no
 * longer holds every whole number, so "whole" could not be checked. */
#define DESC_WHOLE_MAX 0x1p53
#define DESC_MAX_KEYS 64
#define DESC_LIST_MAX 16
#define DESC_NAME_MAX 32 /* bytes of a list entry's name, with its NUL */
#define DESC_ORIGIN_MAX 4096
/* The longest line a description may have, in bytes: libinih's line buffer
 * (INI_MAX_LINE, 200 in the Debian build) less "\r\n\0".  A writer of
 * description text (an overlay, a report's copy) keeps every line to it. */
#define DESC_LINE_MAX 197

/* A "key = value" line (or ':') whose value is wholly in double quotes,
 * then only blanks or an inline comment (" ;"), e.g. kind = "gpu": blank
 * out the two quotes in place, so that inih, which trims blanks, reads the
 * value without them and every column stays where it was.  Other lines
 * are left as they are.  line ends at '\0', '\r' or '\n'. */
void desc_unquote_line(char *line);
/* Overlays applied to one description (--hw-overlay, repeatable): a
 * calibration, a saved explorer state and a few variants.  Their file
 * names share DESC_ORIGIN_MAX bytes in every struct desc_src: a room each
 * would make the struct four times as large, in every scenario. */
#define DESC_OVERLAY_MAX 8

struct desc_key {
    const char *section, *name;
    enum desc_type type;
    unit_dim dim;
    unsigned flags;
    size_t off;          /* field in the target struct                       */
    double def;          /* default of an optional DESC_NUM (SI units)       */
    const char *choices; /* DESC_CHOICE "a|b"; DESC_NUM_OR_WORD the word     */
    size_t word_off;     /* DESC_NUM_OR_WORD: int set to 1 when word given   */
    const char *help;    /* what the key means, for messages and `show`      */
};

struct desc_list {
    size_t n;
    struct desc_item {
        char name[DESC_NAME_MAX];
        double value; /* SI base units */
    } item[DESC_LIST_MAX];
};

struct desc_schema {
    const char *kind; /* "hardware", "model" */
    const struct desc_key *keys;
    size_t nkeys;
    const char *list_section; /* NULL if none                    */
    unit_dim list_dim;
    size_t list_off;        /* struct desc_list in the target    */
    const char *list_words; /* "a|b": names an entry may not take */
};

/* A description's text and the name its messages give it. */
struct desc_text {
    const char *text, *origin;
};

/* Where each key's value came from, for later checks and for `show`. */
struct desc_src {
    char origin[DESC_ORIGIN_MAX];                     /* file name, or "<built-in>/hw/cs2.ini"   */
    /* the overlays' names, in the order applied, one after another with
     * their NULs; overlay_at[i] where name i starts (desc_overlay_name) */
    char overlay_names[DESC_ORIGIN_MAX];
    unsigned short overlay_at[DESC_OVERLAY_MAX];
    int noverlays;
    int line[DESC_MAX_KEYS];       /* 0: default; -1: --set; else the line    */
    int in_overlay[DESC_MAX_KEYS]; /* 0: line[] is origin's; K: overlays[K-1]'s */
    double spread[DESC_MAX_KEYS];  /* half-width of the range, SI; 0: none     */
};

/* Parse text (NUL-terminated INI) named origin into target, which the
 * schema's offsets describe.  Defaults are applied first.  Returns CP_OK or
 * CP_EINPUT with err filled; src (may be NULL) receives origins and lines. */
cp_status desc_load(const struct desc_schema *s, const char *text, const char *origin, void *target,
                    struct desc_src *src, struct cp_error *err);

/* The file name of overlay i (0 <= i < src->noverlays), as applied. */
const char *desc_overlay_name(const struct desc_src *src, int i);

/* desc_load(), then desc_set() for each of the nsets overrides in order.
 * src must not be NULL (the caller's cross-key checks need it). */
cp_status desc_load_set(const struct desc_schema *s, const char *text, const char *origin,
                        const char *const *sets, size_t nsets, void *target, struct desc_src *src,
                        struct cp_error *err);

/* Apply the INI text named origin (keys of the schema, any subset) on top
 * of target, which desc_load() filled with src; later overlays win, key by
 * key.  Errors name origin:line; more than DESC_OVERLAY_MAX is CP_EINPUT. */
cp_status desc_overlay(const struct desc_schema *s, const char *text, const char *origin,
                       void *target, struct desc_src *src, struct cp_error *err);

/* Apply "section.key=value" to target.  Unknown key or bad value: CP_EINPUT,
 * message naming "--set section.key". */
cp_status desc_set(const struct desc_schema *s, const char *assign, void *target,
                   struct desc_src *src, struct cp_error *err);

/* 0 if s is text a description may hold in a name, a label or free text
 * (printed as it is): UTF-8 without control characters (C0, DEL, C1).
 * Else -1 and why says which byte, for a message "...: why". */
int desc_text_check(const char *s, char *why, size_t n);

/* 0 if v is a value numeric key k may hold by its own rules (finite, not
 * negative, zero only with DESC_ZERO_OK, at most 1 with DESC_AT_MOST_1,
 * whole up to 2^53 with DESC_INTEGER); else -1 and why says which rule,
 * for a message "...: why".  The rules spanning keys are each schema's. */
int desc_number_check(const struct desc_key *k, double v, char *why, size_t n);

/* Whether the hardware description text names word as its kind: the
 * first kind key of its [system] section ("kind = gpu", "kind : gpu # x")
 * has the value word, which ends there (at the line's end, a blank, '#'
 * or ';').  absent when the text has no such key.  Only reads the text,
 * so each kind of cluster can tell its own descriptions before any loader
 * runs; that kind's loader checks the rest. */
int desc_kind_is(const char *text, const char *word, int absent);

/* Index of section.name in the schema, or -1. */
int desc_find(const struct desc_schema *s, const char *section, const char *name);

/* When name is empty, fill it with the stem of origin (its last path
 * component without ".ini"), so a description without a name key still
 * reads as something in titles. */
void desc_default_name(char name[DESC_TEXT_MAX], const char *origin);

/* Report a check that spans keys (e.g. heads must divide hidden) against the
 * line of section.name: "origin:line: section.name: message". */
cp_status desc_key_error(const struct desc_schema *s, const struct desc_src *src,
                         const char *section, const char *name, struct cp_error *err,
                         const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* "origin:line", "--set" or "origin (default)" for key i, for messages. */
const char *desc_where(const struct desc_src *src, int i, char *buf, size_t n);

/* Format key k's current value from target for people ("7.5 PFLOP/s",
 * "true", "rmsnorm").  Returns buf. */
char *desc_format(const struct desc_key *k, const void *target, char *buf, size_t n);

#endif
