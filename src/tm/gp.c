/* gp.c - goodput: Young/Daly's checkpoint interval and the expected wall
 * time of a job under failures.  See gp.h for the derivation. */
#include "gp.h"

#include <math.h>

double gp_interval(double ckpt_s, double mtbf_s)
{
    return isinf(mtbf_s) ? INFINITY : sqrt(2 * ckpt_s * mtbf_s);
}

double gp_rate(double count, double mtbf_s)
{
    return mtbf_s > 0 ? count / mtbf_s : 0;
}

void gp_eval(double time_s, double rate_per_s, double ckpt_s, double restart_s,
             struct gp_result *o)
{
    o->ckpt_s = ckpt_s;
    o->restart_s = restart_s;
    if (!(rate_per_s > 0)) {
        *o = (struct gp_result){INFINITY, INFINITY, ckpt_s, restart_s, time_s, 1, 0, 1};
        return;
    }
    o->mtbf_s = 1 / rate_per_s;
    o->interval_s = gp_interval(ckpt_s, o->mtbf_s);
    /* a checkpoint of no time is taken continuously: nothing is redone */
    double overhead = o->interval_s > 0 ? ckpt_s / o->interval_s : 0;
    double loss = ((o->interval_s + ckpt_s) / 2 + restart_s) * rate_per_s;
    o->finishes = loss < 1;
    if (!o->finishes) {
        o->wall_s = INFINITY;
        o->goodput = 0;
        o->interruptions = INFINITY;
        return;
    }
    o->wall_s = time_s * (1 + overhead) / (1 - loss);
    o->goodput = time_s > 0 ? time_s / o->wall_s : 1;
    o->interruptions = o->wall_s * rate_per_s;
}
