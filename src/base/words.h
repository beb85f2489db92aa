/* words.h - comparing names the way people read them: natural order
 * ("10t" before "100t") and the closest names to a mistyped one. */
#ifndef CP_WORDS_H
#define CP_WORDS_H

#include <stddef.h>

/* strcmp, except that runs of digits compare as numbers. */
int words_natural_cmp(const char *a, const char *b);

/* The names among cand[0..n) close to word: equal but for case, word a
 * prefix of the name, or within an edit distance of about a third of the
 * word's length.  Writes "a, b or c" (the best first, at most three) into
 * buf and returns the number found (0: buf is ""). */
size_t words_suggest(const char *word, const char *const *cand, size_t n, char *buf, size_t bufn);

#endif
