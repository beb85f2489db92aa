/* tm.c - the parts of a training-model result every kind fills the same
 * way.  See tm.h. */
#include "tm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tm_result_init(struct tm_result *r, double count)
{
    memset(r, 0, sizeof *r);
    r->count = count;
    r->mfu = NAN;
    r->cost = -1;
}

void tm_result_failures(struct tm_result *r, const struct gp_result *gp, double time_ff_s,
                        double ckpt_bytes, const struct bom_line *bom, size_t nbom,
                        const struct cost_result *costs, const char *currency)
{
    r->time_ff_s = time_ff_s;
    r->ckpt_bytes = ckpt_bytes;
    r->gp = *gp;
    r->nbom = nbom < COST_MAX_LINES ? nbom : COST_MAX_LINES;
    memcpy(r->bom, bom, r->nbom * sizeof *bom);
    r->costs = *costs;
    snprintf(r->currency, sizeof r->currency, "%s", currency);
    if (!gp->finishes) /* only then: a verdict that always holds says nothing */
        tm_verdict_add(r, "failures", 0, 1);
}

void tm_verdict_add(struct tm_result *r, const char *name, int holds, int fatal)
{
    if (r->nverdicts < TM_MAX_VERDICTS)
        r->verdict[r->nverdicts++] = (struct tm_verdict){name, holds != 0, fatal != 0};
}

void tm_result_close(struct tm_result *r)
{
    r->feasible = r->runs;
    for (size_t i = 0; i < r->nverdicts; i++)
        if (r->verdict[i].fatal && !r->verdict[i].holds)
            r->feasible = 0;
}

cp_status tm_eval(const struct tm_job *j, double count, enum tm_scaling mode,
                  struct tm_result *r, void *detail, struct cp_error *err)
{
    return j->kind->eval(j->own, count > 0 ? count : j->count, mode, r, detail, err);
}

cp_status tm_param_eval(const struct tm_job *j, size_t i, double v, double count,
                        enum tm_scaling mode, struct tm_result *r, void *detail,
                        struct cp_error *err)
{
    return j->kind->param_eval(j->own, i, v, count > 0 ? count : j->count, mode, r, detail, err);
}
