/* words.c - natural order and close matches for names (words.h). */
#include "words.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int words_natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la, b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

#define WORDS_MAX 64

/* Edit distance (insert, delete, substitute, swap of neighbours), ignoring
 * case; names longer than WORDS_MAX count as far. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > WORDS_MAX || lb > WORDS_MAX)
        return (size_t)-1;
    size_t d[WORDS_MAX + 1][WORDS_MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j - 1] + !same;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 &&
                tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* How close name is to word: 0 equal but for case, 1 a prefix, then 2 +
 * the edit distance; (size_t)-1 when not close. */
static size_t closeness(const char *word, const char *name)
{
    size_t lw = strlen(word);
    if (lw == 0)
        return (size_t)-1;
    if (strcasecmp(word, name) == 0)
        return 0;
    if (strncasecmp(word, name, lw) == 0)
        return 1;
    size_t dist = distance(word, name), limit = lw / 3 > 1 ? lw / 3 : 1;
    return dist <= limit ? 2 + dist : (size_t)-1;
}

size_t words_suggest(const char *word, const char *const *cand, size_t n, char *buf, size_t bufn)
{
    const char *best[3];
    size_t score[3], k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = closeness(word, cand[i]);
        if (c == (size_t)-1)
            continue;
        /* keep the three closest, earlier ones first on ties */
        size_t at = k;
        while (at > 0 && score[at - 1] > c)
            at--;
        if (at >= 3)
            continue;
        for (size_t j = (k < 3 ? k : 2); j > at; j--)
            best[j] = best[j - 1], score[j] = score[j - 1];
        best[at] = cand[i], score[at] = c;
        if (k < 3)
            k++;
    }
    /* a name equal but for case beats one word begins, which beats a
     * spelling */
    while (k > 1 && score[0] <= 1 && score[k - 1] > score[0])
        k--;
    size_t len = 0;
    if (bufn)
        buf[0] = '\0';
    for (size_t i = 0; i < k && len < bufn; i++) {
        int w = snprintf(buf + len, bufn - len, "%s%s",
                         i == 0       ? ""
                         : i + 1 == k ? " or "
                                      : ", ",
                         best[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return k;
}
