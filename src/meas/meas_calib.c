/* meas_calib.c - calibrate's judgement of a fitted value (meas_calib.h). */
#include "meas_calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "../desc/hw.h"

/* A fitted value more than this factor from its start, either way, is
 * called implausible.  The starts are the shipped values (the files in hw/), each
 * published or an engineering estimate, and the widest range those files
 * state is +- 75 %; a fit that moves a key tenfold is not measuring it but
 * standing in for something else: an effect the model lacks, or a key the
 * points barely constrain (the shipped runs fit swarmx.hop_latency, 2 us,
 * at tens of milliseconds).  The fit is still reported and written. */
#define CALIB_PLAUSIBLE_FACTOR 10.0

/* The +- half-width the hardware file gives key ck on the first point it is
 * fitted on (SI; 0: none). */
static double start_spread(const struct meas_set *m, const struct calib_key *ck)
{
    for (size_t i = 0; i < m->rows.n; i++)
        if (!ck->scope[0] || strcmp(m->pts[i].system, ck->scope) == 0)
            return meas_set_scenario(m, i)->hw_src.spread[ck->key];
    return 0;
}

int meas_calib_plausibility(const struct meas_set *m, const struct calib_key *ck, char *buf,
                            size_t n)
{
    unit_dim d = hw_schema.keys[ck->key].dim;
    double ratio = ck->fitted / ck->start, spread = start_spread(m, ck);
    char f[48], st[48], sp[48];
    unit_format(ck->fitted, d, f, sizeof f);
    unit_format(ck->start, d, st, sizeof st);
    buf[0] = '\0';
    if (ck->start > 0 &&
        (!(ratio <= CALIB_PLAUSIBLE_FACTOR) || !(ratio >= 1 / CALIB_PLAUSIBLE_FACTOR))) {
        snprintf(buf, n,
                 "implausible: %s is %.3g times its start, %s (more than %g times either way); "
                 "the points may not constrain it, or it stands in for an effect the model lacks",
                 f, ratio, st, CALIB_PLAUSIBLE_FACTOR);
        return 1;
    }
    if (spread > 0 && !(fabs(ck->fitted - ck->start) <= spread))
        snprintf(buf, n, "outside the file's range: %s, the file says %s +- %s", f, st,
                 unit_format(spread, d, sp, sizeof sp));
    return 0;
}

void meas_calib_out_free(struct meas_calib_out *c)
{
    free(c->runs);
    memset(c, 0, sizeof *c);
}
