/* desc_text.c - the check that text a description holds (a value, a list
 * entry's name, a --set assignment) can be printed as it is: well-formed
 * UTF-8 without control characters (C0, DEL, C1). */
#include "desc_int.h"

#include <stdio.h>

/* Length of the UTF-8 sequence at s (1 to 4) and its code point in *cp,
 * or 0 when it is not well formed (cut short, overlong, a surrogate,
 * beyond U+10FFFF). */
static int utf8_seq(const unsigned char *s, unsigned *cp)
{
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    unsigned c = s[0];
    int len = c < 0x80             ? 1
              : (c & 0xe0) == 0xc0 ? 2
              : (c & 0xf0) == 0xe0 ? 3
              : (c & 0xf8) == 0xf0 ? 4
                                   : 0;
    if (len == 0)
        return 0;
    *cp = len == 1 ? c : c & (0x7fu >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3fu);
    }
    if (*cp < least[len] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return len;
}

/* desc_text_check(), with the offset of the byte at fault in *at. */
int desc_text_check_at(const char *s, size_t *at, char *why, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; u[i];) {
        unsigned cp;
        int len = utf8_seq(u + i, &cp);
        *at = i;
        if (len == 0)
            return snprintf(why, n, "byte %zu (0x%02X) is not UTF-8 text", i + 1, u[i]), -1;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return snprintf(why, n,
                            "control character %s%0*X at byte %zu (text is printed as it is; "
                            "remove it)",
                            cp < 0x80 ? "0x" : "U+", cp < 0x80 ? 2 : 4, cp, i + 1),
                   -1;
        i += (size_t)len;
    }
    return 0;
}

int desc_text_check(const char *s, char *why, size_t n)
{
    size_t at;
    return desc_text_check_at(s, &at, why, n);
}
