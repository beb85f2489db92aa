/* gp.h - goodput: the time a training job loses to failures, checkpoints
 * and restarts, for every kind of cluster.
 *
 * A job that computes for T seconds without failures fails at a rate
 * lambda (the sum over its bill of materials of count / MTBF; 1 / lambda
 * is the job's MTBF M).  It writes a checkpoint of its state every tau
 * seconds of work, each taking delta seconds; a failure loses the work
 * since the last checkpoint and a restart of R seconds (reading the
 * checkpoint back and starting the job again).
 *
 *  - tau = sqrt(2 delta M), the first-order optimum of Young (1974), "A
 *    first order approximation to the optimum checkpoint interval", CACM
 *    17(9); Daly (2006), "A higher order estimate of the optimum
 *    checkpoint interval for restart dumps", FGCS 22(3), gives the same
 *    to first order in delta / M.
 *  - Failures are a Poisson process over the wall time W, so W / M of
 *    them are expected; each costs on average half a segment of work and
 *    its checkpoint, (tau + delta) / 2, plus R.  The wall time is the work
 *    with its checkpoints plus the failures' losses:
 *        W = T (1 + delta / tau) + (W / M) ((tau + delta) / 2 + R),
 *        W = T (1 + delta / tau) / (1 - ((tau + delta) / 2 + R) / M).
 *  - goodput = T / W.  When ((tau + delta) / 2 + R) >= M the job loses
 *    work as fast as it makes it and never finishes (W infinite, goodput
 *    0).  With no failures (lambda 0) no checkpoint is needed: W = T.
 *
 * Pure arithmetic, no I/O; seconds and per-second rates. */
#ifndef CP_GP_H
#define CP_GP_H

struct gp_result {
    double mtbf_s;        /* the job's MTBF, 1 / rate; INFINITY at rate 0   */
    double interval_s;    /* tau; INFINITY at rate 0                        */
    double ckpt_s;        /* delta, as given                                */
    double restart_s;     /* R, as given                                    */
    double wall_s;        /* W; INFINITY when the job cannot finish         */
    double goodput;       /* T / W, 0 .. 1                                  */
    double interruptions; /* expected failures over W, W / M                */
    int finishes;         /* the denominator above is positive              */
};

/* Young/Daly's interval for a checkpoint of ckpt_s seconds and a job
 * MTBF of mtbf_s seconds (INFINITY: none needed). */
double gp_interval(double ckpt_s, double mtbf_s);

/* Goodput of a job of time_s failure-free seconds failing at rate_per_s
 * (>= 0), with checkpoints of ckpt_s and restarts of restart_s seconds,
 * into o. */
void gp_eval(double time_s, double rate_per_s, double ckpt_s, double restart_s,
             struct gp_result *o);

/* The failure rate of count parts of an MTBF of mtbf_s seconds each (0:
 * the part is not counted as failing), per second. */
double gp_rate(double count, double mtbf_s);

#endif
