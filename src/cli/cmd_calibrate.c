/* cmd_calibrate.c - `calibrate DATA.csv --fit KEYS [-o OVERLAY.ini]`: read
 * measured points, fit the named keys to them by the calibrate of the
 * file's kind of corpus (the table of kinds, src/meas/meas_run.h), and
 * print the fitted values, each point's residual and the fit's quality,
 * and write the values as a hardware overlay that --hw-overlay applies
 * (src/print/calib_out). */
#include <string.h>

#include "../meas/meas_run.h"
#include "../print/calib_out.h"
#include "../print/meas_env.h"

int cmd_calibrate(struct cli_opts *o)
{
    /* A file that cannot be read is weight streaming's, the kind that
     * reads it again and says why after its checks of the options, as
     * calibrate always has. */
    struct cat_entry e;
    struct cp_error err = {0};
    int have = cat_read_file(o->args[0], &e, &err) == CP_OK;
    const struct meas_kind *kind = meas_kind_of(have ? e.text : "");
    struct meas_env env;
    meas_env_init(&env, o);
    struct meas_calib_req req = {.file = o->args[0],
                                 .text = have ? e.text : NULL,
                                 .fit = o->fit,
                                 .overlay = o->output,
                                 .nsets = o->nsets,
                                 .noverlays = o->noverlays,
                                 .env = &env};
    struct meas_calib_out c;
    err = (struct cp_error){0};
    int rc = kind->calibrate(&req, &c, &err) != CP_OK
                 ? meas_env_fail(&err)
                 : calib_report(&c, o->args[0], o->output, o->csv);
    meas_calib_out_free(&c);
    if (have)
        cat_entry_free(&e);
    return rc;
}
