/* gpu_tm.c - the GPU kind of the training-model interface.  See gpu_tm.h. */
#include "gpu_tm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_mine(const char *hw_text)
{
    return gpuhw_kind_of(hw_text) == GPUHW_GPU;
}

static int same_spec(const struct gpu_search_spec *a, const struct gpu_search_spec *b)
{
    struct gpu_search_spec x = *a, y = *b;
    x.gpus = y.gpus = 0;
    return memcmp(&x, &y, sizeof x) == 0;
}

/* The job's divisors at spec p, listed again only when p (but its
 * count), the job or its workload's batch changed. */
static cp_status listing(const struct gpu_tm_job *j, const struct gpu_search_spec *p,
                         struct gpu_tm_detail *d)
{
    if (d->listed_for != j || !same_spec(&d->listed_spec, p)) {
        d->listed_for = j;
        d->listed_spec = *p;
        memset(&d->why, 0, sizeof d->why);
        d->listed = gpu_search_job_init(j->g, j->wl, p, &d->listing, &d->why);
    }
    return d->listed;
}

static void fill(const struct gpu_tm_job *j, const struct gpu_search_spec *p,
                 struct gpu_tm_detail *d, struct tm_result *r)
{
    const struct gpu_result *g = &d->sr.hit[0].result;
    double batch = d->listing.w.batch;
    gpu_train_eval(j->g, p->gpus, gpu_train_steps(j->tokens, batch, j->wl->seq_len), j->price, g,
                   &d->run);
    r->runs = 1;
    r->global_tokens = batch * j->wl->seq_len;
    r->step_s = g->step_s;
    r->nparts = GPU_NPARTS;
    r->part_name = gpu_part_name;
    for (size_t i = 0; i < GPU_NPARTS; i++)
        r->part_s[i] = g->part_s[i];
    r->tokens = j->tokens;
    r->steps = d->run.steps;
    r->time_s = d->run.time_s;
    r->tokens_per_s = g->tokens_per_s;
    r->mfu = g->mfu;
    static const char *const power_name[] = {"nodes"};
    r->npower = 1;
    r->power_name = power_name;
    r->power_part_W[0] = r->power_W = d->run.power_W;
    r->energy_J = d->run.energy_J;
    r->cost = d->run.cost;
}

static cp_status eval(const void *job, double count, enum tm_scaling mode, struct tm_result *r,
                      void *detail, struct cp_error *err)
{
    (void)err;
    const struct gpu_tm_job *j = job;
    struct gpu_tm_detail *d = detail;
    struct gpu_search_spec p = j->spec;
    p.gpus = count;
    if (mode == TM_WEAK && count != j->spec.gpus)
        p.batch = fmax(1, round((p.batch ? p.batch : j->wl->batch) * count / j->spec.gpus));
    tm_result_init(r, count);
    struct cp_error why = {0};
    cp_status st = listing(j, &p, d);
    if (st == CP_OK)
        st = gpu_search_at(&d->listing, count, &d->sr, &why);
    else {
        why = d->why;
        d->sr.n = 0;
        d->sr.divided = 0;
    }
    if (st != CP_OK) {
        snprintf(r->why, sizeof r->why, "%s", why.msg);
        int divides = d->sr.divided > 0;
        r->bad_input = !(divides && isfinite(d->sr.least_mem));
        tm_verdict_add(r, "divides", divides, 1);
        if (divides)
            tm_verdict_add(r, "memory", 0, 1);
        tm_result_close(r);
        return CP_OK;
    }
    fill(j, &p, d, r);
    tm_verdict_add(r, "divides", 1, 1);
    tm_verdict_add(r, "memory", 1, 1);
    tm_result_close(r);
    r->bottleneck = (size_t)d->sr.hit[0].result.bottleneck;
    return CP_OK;
}

const struct tm_kind tm_gpu = {
    .name = "gpu",
    .unit = "GPU",
    .units = "GPUs",
    .is_mine = is_mine,
    .detail_size = sizeof(struct gpu_tm_detail),
    .eval = eval,
};
