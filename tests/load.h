/* load.h - loading descriptions in the cmocka test programs: shipped ones
 * by name from the built-in copies (no directories), or INI text, with
 * optional "section.key=value" overrides; a failure fails the test.
 * Include after <cmocka.h>.  Static inline, so a program that uses only
 * some of them gets no unused-function warnings. */
#ifndef CP_TEST_LOAD_H
#define CP_TEST_LOAD_H

#include "desc/catalog.h"
#include "desc/gpuhw.h"
#include "desc/hw.h"
#include "desc/wl.h"

/* Load a shipped description by name from the built-in copies (no
 * directories), with optional "section.key=value" overrides. */
static inline void builtin_text(const char *name, enum cat_kind kind, struct cat_entry *e)
{
    struct cat_dirs none = {0};
    struct cp_error err = {0};
    cp_status st = cat_resolve(&none, name, kind, e, &err);
    if (st != CP_OK) {
        print_error("cat_resolve(%s): %s\n", name, err.msg);
        fail();
    }
    assert_int_equal(e->kind, kind);
}

static inline void load_model(const char *name, const char *const *sets, size_t nsets,
                              struct wl_desc *w)
{
    struct cat_entry e;
    struct cp_error err = {0};
    builtin_text(name, CAT_MODEL, &e);
    cp_status st = wl_load(e.text, e.origin, sets, nsets, w, NULL, &err);
    cat_entry_free(&e);
    if (st != CP_OK) {
        print_error("wl_load(%s): %s\n", name, err.msg);
        fail();
    }
}

static inline void load_hw(const char *name, const char *const *sets, size_t nsets,
                           struct hw_desc *h)
{
    struct cat_entry e;
    struct cp_error err = {0};
    builtin_text(name, CAT_HW, &e);
    cp_status st = hw_load(e.text, e.origin, sets, nsets, h, NULL, &err);
    cat_entry_free(&e);
    if (st != CP_OK) {
        print_error("hw_load(%s): %s\n", name, err.msg);
        fail();
    }
}

/* A shipped GPU system by name ("h100"), from the built-in copies. */
static inline void load_gpu(const char *name, struct gpuhw_desc *g)
{
    struct cat_entry e;
    struct cp_error err = {0};
    builtin_text(name, CAT_HW, &e);
    cp_status st = gpuhw_load(e.text, e.origin, NULL, 0, g, NULL, &err);
    cat_entry_free(&e);
    if (st != CP_OK) {
        print_error("gpuhw_load(%s): %s\n", name, err.msg);
        fail();
    }
}

static inline void load_text(const char *text, const char *const *sets, size_t nsets,
                             struct wl_desc *w)
{
    struct cp_error err = {0};
    if (wl_load(text, "test.ini", sets, nsets, w, NULL, &err) != CP_OK) {
        print_error("wl_load: %s\n", err.msg);
        fail();
    }
}

#endif
