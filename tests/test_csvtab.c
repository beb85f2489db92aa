/* test_csvtab.c - the CSV table reader (src/desc/csvtab) on a small table
 * of its own: cells by column whatever the header's order, each at its
 * line and byte column, comments skipped (or not), cells cut to fit, ids
 * remembered, and every fault reported once with where it is; and the
 * ordered way (claims): columns by position, the header its owner's, a
 * record of another width found at its end, records numbered.  The two
 * corpora built on it keep their own tests (test_meas, test_gmeas,
 * test_calib). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <stdio.h>
#include <string.h>

#include "desc/csvtab.h"

enum { K_NAME, K_SIZE, K_NOTE, K_NCOLS };
static const char *const col[K_NCOLS] = {"name", "size", "note"};

/* What the callbacks saw. */
struct seen {
    int nrows;
    char last_name[16];
    struct csvtab_pos name_at, note_at;
    int note_cut, rec_line;
    struct csvtab_fault fault;
    int nfaults;
    int dup_line; /* the line an id was first seen on, when repeated */
};

static cp_status on_fault(void *ctx, const struct csvtab *t, const struct csvtab_fault *f)
{
    struct seen *s = ctx;
    s->fault = *f;
    s->nfaults++;
    return cp_fail(t->err, CP_EINPUT, "%s:%d:%d: fault %d", t->origin, f->at.line, f->at.col,
                   (int)f->kind);
}

static cp_status on_row(void *ctx, struct csvtab *t)
{
    struct seen *s = ctx;
    const char *name = csvtab_cell(t, K_NAME);
    int dup = csvtab_id_line(t, name);
    if (dup) {
        s->dup_line = dup;
        return cp_fail(t->err, CP_EINPUT, "%s:%d: name '%s' repeated", t->origin, t->rec.line,
                       name);
    }
    csvtab_id_keep(t, name, t->rec.line);
    s->nrows++;
    snprintf(s->last_name, sizeof s->last_name, "%s", name);
    s->name_at = t->at[K_NAME];
    s->note_at = t->at[K_NOTE];
    s->note_cut = t->too_long[K_NOTE];
    s->rec_line = t->rec.line;
    return CP_OK;
}

static struct csvtab_spec spec(unsigned flags)
{
    return (struct csvtab_spec){.col = col,
                                .ncols = K_NCOLS,
                                .nrequired = 2,
                                .cell_max = 8,
                                .max_bytes = 4096,
                                .max_rows = 3,
                                .flags = flags,
                                .fault = on_fault,
                                .row = on_row};
}

/* Read text as "t.csv" with sp into a cleared ctx of size bytes. */
static cp_status read_as(const struct csvtab_spec *sp, const char *text, void *ctx, size_t size,
                         struct cp_error *err)
{
    memset(ctx, 0, size);
    memset(err, 0, sizeof *err);
    return csvtab_read(sp, text, "t.csv", ctx, err);
}

static cp_status tread(const char *text, unsigned flags, struct seen *s, struct cp_error *err)
{
    struct csvtab_spec sp = spec(flags);
    return read_as(&sp, text, s, sizeof *s, err);
}

/* Cells by column, each where it starts; comments skipped between records
 * but kept inside a quoted field; a long cell cut and flagged. */
static void test_cells(void **state)
{
    (void)state;
    struct seen s;
    struct cp_error err;
    const char *text = "# a table\n"
                       "size,note,name\n"
                       "\n"
                       "3.5,\"a\n# not a comment\",alpha\n"
                       "# between\n"
                       "  7, far too long a note ,beta\n";
    assert_int_equal(tread(text, CSVTAB_COMMENTS, &s, &err), CP_OK);
    assert_int_equal(s.nrows, 2);
    assert_string_equal(s.last_name, "beta");
    assert_int_equal(s.rec_line, 7);
    assert_int_equal(s.name_at.line, 7);
    assert_int_equal(s.name_at.col, 27);
    assert_int_equal(s.note_at.col, 6);
    assert_int_equal(s.note_cut, 1);
    assert_int_equal(s.nfaults, 0);
}

/* Without CSVTAB_COMMENTS a '#' line is a record like any other. */
static void test_no_comments(void **state)
{
    (void)state;
    struct seen s;
    struct cp_error err;
    assert_int_equal(tread("name,size\n#x\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_SHORT);
    assert_int_equal(s.fault.nfield, 1);
    assert_int_equal(s.fault.rec_line, 2);
}

/* Header faults: each kind once, where it is; early names fail before a
 * later byte of the header could. */
static void test_header_faults(void **state)
{
    (void)state;
    struct seen s;
    struct cp_error err;
    assert_int_equal(tread("name,sise\nx,1\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_UNKNOWN);
    assert_int_equal(s.fault.at.col, 6);
    assert_int_equal(tread("size,note,size\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_TWICE);
    assert_int_equal(s.fault.first.col, 1);
    assert_int_equal(tread("name,note\nx,y\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_MISSING);
    assert_int_equal(s.fault.col, K_SIZE);
    assert_int_equal(tread("name,size,note,name\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_HEADER_WIDE);
    assert_int_equal(tread("name,size,note,name\n", CSVTAB_NAMES_EARLY, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_TWICE);
    assert_int_equal(tread("nam,size,\"x\"y\n", CSVTAB_NAMES_EARLY, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_UNKNOWN);
    assert_int_equal(tread("nam,size,\"x\"y\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_CSV);
    assert_int_equal(s.fault.at.col, 13);
    assert_int_equal(s.fault.quoted, 1);
    assert_int_equal(s.nfaults, 1);
    assert_string_equal(err.msg, "t.csv:1:13: fault 0");
}

/* Record faults: too wide, too many rows, a quote never closed, no
 * header, no rows, and a repeated id from the owner. */
static void test_record_faults(void **state)
{
    (void)state;
    struct seen s;
    struct cp_error err;
    assert_int_equal(tread("name,size\na,1,2\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_WIDE);
    assert_int_equal(s.fault.at.col, 5);
    assert_int_equal(tread("name,size\na,1\nb,2\nc,3\nd,4\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_ROWS);
    assert_int_equal(s.fault.at.line, 5);
    assert_int_equal(tread("name,size\na,1\nb,\"2\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_UNCLOSED);
    assert_int_equal(s.fault.start.line, 3);
    assert_int_equal(s.fault.start.col, 3);
    assert_int_equal(tread("# only\n", CSVTAB_COMMENTS, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_NO_HEADER);
    assert_int_equal(tread("name,size\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_NO_ROWS);
    assert_int_equal(tread("name,size\na,1\n\nb,2\na,3\n", 0, &s, &err), CP_EINPUT);
    assert_int_equal(s.dup_line, 2);
    assert_int_equal(s.nfaults, 0);
    assert_string_equal(err.msg, "t.csv:5: name 'a' repeated");
}

/* A lone CR ends a line only when asked; a byte-order mark is skipped;
 * the size bound is the reader's own message. */
static void test_lines_and_bounds(void **state)
{
    (void)state;
    struct seen s;
    struct cp_error err;
    assert_int_equal(tread("\xef\xbb\xbfname,size\ra,1\rb,2\r", CSVTAB_CR_LINES, &s, &err), CP_OK);
    assert_int_equal(s.rec_line, 3);
    assert_int_equal(s.name_at.col, 1);
    assert_int_equal(tread("name,size\ra,1\rb,2\r", 0, &s, &err), CP_OK);
    assert_int_equal(s.rec_line, 1);
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(tread(big, 0, &s, &err), CP_EINPUT);
    assert_string_equal(err.msg, "t.csv: larger than 4096 bytes");
}

/* An ordered table's owner: the header must be the first columns in
 * order; each row's number, width and cells noted. */
struct oseen {
    int hdr_nfield, nrows, nrec[4], line[4];
    char size[4][8];
    struct csvtab_fault fault;
};

static cp_status on_ofault(void *ctx, const struct csvtab *t, const struct csvtab_fault *f)
{
    struct oseen *s = ctx;
    s->fault = *f;
    return cp_fail(t->err, CP_EINPUT, "%s:%d: fault %d (%d fields)", t->origin, t->nrec,
                   (int)f->kind, f->nfield);
}

static cp_status on_orow(void *ctx, struct csvtab *t)
{
    struct oseen *s = ctx;
    if (!t->have_header) {
        s->hdr_nfield = t->nfield;
        for (int c = 0; c < t->nfield; c++)
            if (c >= K_NCOLS || strcmp(csvtab_cell(t, c), col[c]) != 0)
                return cp_fail(t->err, CP_EINPUT, "%s:%d: header field %d", t->origin, t->nrec,
                               c + 1);
        return CP_OK;
    }
    int n = s->nrows++;
    s->nrec[n] = t->nrec;
    s->line[n] = t->rec.line;
    snprintf(s->size[n], sizeof s->size[n], "%s", csvtab_cell(t, K_SIZE));
    return CP_OK;
}

static cp_status oread(const char *text, struct oseen *s, struct cp_error *err)
{
    struct csvtab_spec sp = spec(CSVTAB_ORDERED);
    sp.fault = on_ofault;
    sp.row = on_orow;
    return read_as(&sp, text, s, sizeof *s, err);
}

static void test_ordered(void **state)
{
    (void)state;
    struct oseen s;
    struct cp_error err;
    assert_int_equal(oread("name,size,note\n\na,\"1\n2\",x\n\nb,3.25,y\n", &s, &err), CP_OK);
    assert_int_equal(s.hdr_nfield, 3);
    assert_int_equal(s.nrows, 2);
    assert_int_equal(s.nrec[0], 2);
    assert_int_equal(s.line[0], 3);
    assert_string_equal(s.size[0], "1\n2");
    assert_int_equal(s.nrec[1], 3);
    assert_int_equal(s.line[1], 6);
    assert_string_equal(s.size[1], "3.25");
    /* the header's width is its owner's to judge, past the columns too */
    assert_int_equal(oread("name,size,note,name\na,1,x,y\n", &s, &err), CP_EINPUT);
    assert_int_equal(s.hdr_nfield, 4);
    assert_string_equal(err.msg, "t.csv:1: header field 4");
    assert_int_equal(oread("name,note\na,1\n", &s, &err), CP_EINPUT);
    assert_string_equal(err.msg, "t.csv:1: header field 2");
    /* a record of another width than the header, counted to its end */
    assert_int_equal(oread("name,size\na,1\nb,2,3,4,5\n", &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_WIDE);
    assert_string_equal(err.msg, "t.csv:3: fault 7 (5 fields)");
    assert_int_equal(s.nrows, 1);
    assert_int_equal(oread("name,size,note\n\na,1,x\nb,2\n", &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_SHORT);
    assert_string_equal(err.msg, "t.csv:3: fault 8 (2 fields)");
    /* malformed CSV: the field it is in */
    assert_int_equal(oread("name,size\na,1\nb,2\"\n", &s, &err), CP_EINPUT);
    assert_int_equal(s.fault.kind, CSVTAB_CSV);
    assert_int_equal(s.fault.at.line, 3);
    assert_int_equal(s.fault.at.col, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_no_comments),
        cmocka_unit_test(test_header_faults),
        cmocka_unit_test(test_record_faults),
        cmocka_unit_test(test_lines_and_bounds),
        cmocka_unit_test(test_ordered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
