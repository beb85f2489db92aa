/* cmp_print.h - `compare`'s answer printed (cmp_print.c): what compare
 * loaded and found, written as text for people or as CSV. */
#ifndef CP_CMP_PRINT_H
#define CP_CMP_PRINT_H

#include "../face/cmp_opts.h"
#include "../face/unc_opt.h"

/* Everything compare loaded (static: the scenario and the result are
 * large): with the draws (uo.on) the bands b, and with --confidence each
 * side's search (wc, gc) and its point answer (w_point, g_point). */
struct cmp_cli {
    struct scenario s;
    struct gpuhw_desc g;
    struct desc_src g_src;
    struct cmp_spec spec;
    struct cmp_result r;
    struct unc_opt uo;
    struct cmp_bands b;
    struct pscan_conf_result wc, gc;
    double w_point, g_point;
};

/* x printed for o (--csv or text): the job and how each side was
 * searched, the table, the notes, then why a side has no answer (on
 * stderr with --csv).  0, or -1 when writing the table failed. */
int cmp_print(const struct cli_opts *o, const struct cmp_cli *x);

#endif
