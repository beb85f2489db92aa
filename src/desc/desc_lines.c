/* desc_lines.c - a description's text line by line, before and for libinih:
 * the reader that feeds inih one line at a time and counts them (inih's
 * handler gets no line number in the Debian build), and the checks every
 * line passes before inih sees it (length, control characters outside a
 * value, section headers the schema lacks), and the look at the kind
 * key that tells which kind of cluster a description is before any
 * loader reads it (desc_kind_is). */
#include "desc_int.h"

#include <ini.h>
#include <stdio.h>
#include <string.h>

/* inih's buffer holds INI_MAX_LINE bytes including "\r\n\0". */
_Static_assert(DESC_LINE_MAX == INI_MAX_LINE - 3, "DESC_LINE_MAX must follow libinih's buffer");

char *desc_read_line(char *str, int num, void *stream)
{
    struct desc_reader *r = stream;
    if (*r->p == '\0')
        return NULL;
    int i = 0;
    while (i < num - 1 && r->p[0] != '\0') {
        char c = *r->p++;
        str[i++] = c;
        if (c == '\n')
            break;
    }
    str[i] = '\0';
    r->line++;
    desc_unquote_line(str);
    return str;
}

void desc_unquote_line(char *p)
{
    p += strspn(p, " \t");
    if (*p == '#' || *p == ';' || *p == '[')
        return;
    p += strcspn(p, "=:\r\n");
    if (*p != '=' && *p != ':')
        return;
    char *open = p + 1 + strspn(p + 1, " \t");
    if (*open != '"')
        return;
    char *close = open + 1 + strcspn(open + 1, "\"\r\n");
    if (*close != '"')
        return;
    char *rest = close + 1 + strspn(close + 1, " \t");
    if (*rest != '\0' && *rest != '\r' && *rest != '\n' && !(*rest == ';' && rest > close + 1))
        return;
    *open = *close = ' ';
}

/* A "[name]" header at the start of the line, for a schema without that
 * section: report it (inih would only tell us about its keys, if any). */
static int check_header(const struct desc_schema *s, const char *start, const char *end,
                        const char *origin, int line, struct cp_error *err)
{
    while (start < end && (*start == ' ' || *start == '\t'))
        start++;
    const char *close = memchr(start, ']', (size_t)(end - start));
    if (start == end || *start != '[' || !close)
        return 0;
    char name[DESC_LINE_MAX + 1], secs[256]; /* lines were checked to fit */
    snprintf(name, sizeof name, "%.*s", (int)(close - start - 1), start + 1);
    if (desc_known_section(s, name))
        return 0;
    desc_list_sections(s, secs, sizeof secs);
    cp_fail(err, CP_EINPUT, "%s:%d: [%s]: unknown section in a %s file (known: %s)", origin, line,
            name, s->kind, secs);
    return -1;
}

/* The first control character (C0 but tab, or DEL) of the line [start,
 * end) outside a value, or NULL.  A value (after the first '=' or ':' of a
 * "key = value" line) is desc_store()'s to check, which names its key. */
static const char *control_outside_value(const char *start, const char *end)
{
    const char *p = start;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    int keyline = p < end && *p != '[' && *p != ';' && *p != '#';
    for (const char *q = start; q < end; q++) {
        if (keyline && (*q == '=' || *q == ':'))
            return NULL;
        if (((unsigned char)*q < ' ' && *q != '\t') || *q == 0x7f)
            return q;
    }
    return NULL;
}

/* Before inih sees the text: reject lines longer than its buffer (it would
 * split them and our line count would drift), control characters outside
 * values (a name in a message must not move the terminal) and unknown
 * section headers. */
int desc_check_lines(const struct desc_schema *s, const char *text, const char *origin,
                     struct cp_error *err)
{
    int line = 1;
    const char *start = text;
    for (const char *q = text;; q++) {
        if (*q == '\n' || *q == '\0') {
            long len = q - start - (q > start && q[-1] == '\r');
            const char *c = control_outside_value(start, start + len);
            if (c) {
                cp_fail(err, CP_EINPUT, "%s:%d: control character 0x%02X at byte %ld%s", origin,
                        line, (unsigned char)*c, (long)(c - start) + 1,
                        *c == '\r' ? " (a carriage return inside a line: CR-only line ends? "
                                     "use LF or CR LF)"
                                   : " (a description is plain text)");
                return -1;
            }
            if (len > DESC_LINE_MAX) {
                cp_fail(err, CP_EINPUT, "%s:%d: line longer than %d characters (split the comment)",
                        origin, line, DESC_LINE_MAX);
                return -1;
            }
            if (check_header(s, start, q, origin, line, err) != 0)
                return -1;
            if (*q == '\0')
                return 0;
            line++;
            start = q + 1;
        }
    }
}

/* Skip blanks (not newlines) from p. */
static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Whether the line at p is "name = value" (or "name : value", which the
 * INI syntax also takes) for this name; *value then points at the value. */
static int line_is_key(const char *p, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(p, name, n) != 0)
        return 0;
    p = skip_blank(p + n);
    if (*p != '=' && *p != ':')
        return 0;
    *value = skip_blank(p + 1);
    return 1;
}

int desc_kind_is(const char *text, const char *word, int absent)
{
    int in_system = 0;
    size_t n = strlen(word);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = skip_blank(p), *v;
        if (*q == '[')
            in_system = strncmp(q, "[system]", 8) == 0;
        else if (in_system && line_is_key(q, "kind", &v))
            return strncmp(v, word, n) == 0 && (v[n] == '\0' || strchr(" \t\r\n#;", v[n]));
    }
    return absent;
}
