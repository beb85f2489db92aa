/* test_words.c - natural order and close-name suggestions (src/base/words.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <string.h>

#include "base/words.h"

static void natural_order(void **state)
{
    (void)state;
    assert_true(words_natural_cmp("10t", "100t") < 0);
    assert_true(words_natural_cmp("24t", "100t") < 0);
    assert_true(words_natural_cmp("100t", "120t") < 0);
    assert_true(words_natural_cmp("llama2-7b", "llama2-70b") < 0);
    assert_true(words_natural_cmp("cs2", "cs3") < 0);
    assert_true(words_natural_cmp("gpt3-xl", "gpt3-175b") > 0); /* 'x' after '1' */
    assert_int_equal(words_natural_cmp("a07", "a7"), 0);        /* leading zeros */
    assert_true(words_natural_cmp("a", "ab") < 0);
    assert_int_equal(words_natural_cmp("same", "same"), 0);
}

static const char *const names[] = {"cs2",       "cs3",        "gpt3-175b", "gpt3-xl",
                                    "llama2-7b", "llama2-70b", "llama-7b",  "gpt2-small"};
#define NNAMES (sizeof names / sizeof names[0])

static void suggest(void **state)
{
    (void)state;
    char buf[128];
    /* equal but for case beats a one-letter edit */
    assert_int_equal(words_suggest("CS3", names, NNAMES, buf, sizeof buf), 1);
    assert_string_equal(buf, "cs3");
    /* a prefix names every name it begins */
    assert_int_equal(words_suggest("gpt3", names, NNAMES, buf, sizeof buf), 2);
    assert_string_equal(buf, "gpt3-175b or gpt3-xl");
    /* a spelling slip, a swap of neighbours */
    assert_int_equal(words_suggest("gtp2-small", names, NNAMES, buf, sizeof buf), 1);
    assert_string_equal(buf, "gpt2-small");
    /* nothing close */
    assert_int_equal(words_suggest("xyz", names, NNAMES, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(words_suggest("", names, NNAMES, buf, sizeof buf), 0);
    /* at most three, the closest first */
    const char *const many[] = {"ab1", "ab2", "ab3", "ab4", "ab"};
    assert_int_equal(words_suggest("ab", many, 5, buf, sizeof buf), 1); /* exact (case) */
    assert_int_equal(words_suggest("a", many, 4, buf, sizeof buf), 3);
    assert_string_equal(buf, "ab1, ab2 or ab3");
    /* a small buffer is cut, never overrun */
    char tiny[6];
    words_suggest("gpt3", names, NNAMES, tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(natural_order),
        cmocka_unit_test(suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
