/* ws_tm.c - the weight-streaming kind of the training-model interface.
 * See ws_tm.h. */
#include "ws_tm.h"

#include "../desc/gpuhw.h"

static int is_mine(const char *hw_text)
{
    return gpuhw_kind_of(hw_text) == GPUHW_WEIGHT_STREAMING;
}

void ws_tm_result(const struct train_result *t, double count, struct tm_result *r)
{
    tm_result_init(r, count);
    r->runs = 1;
    r->global_tokens = t->global_tokens;
    r->step_s = t->step.step_s;
    r->nparts = STEP_NRES;
    r->part_name = step_res_name;
    for (size_t i = 0; i < STEP_NRES; i++)
        r->part_s[i] = t->step.critical[i];
    r->tokens = t->tokens;
    r->steps = t->steps;
    r->time_s = t->time_s;
    r->tokens_per_s = t->tokens_per_s;
    r->npower = TRAIN_NPOWER;
    r->power_name = train_power_name;
    for (size_t i = 0; i < TRAIN_NPOWER; i++)
        r->power_part_W[i] = t->power_part[i];
    r->power_W = t->power_W;
    r->energy_J = t->energy_J;
    r->cost = t->cost;
    /* the verdicts of train.h, in estimate's order; fatal as TW_INFEASIBLE */
    tm_verdict_add(r, "memoryx", t->memoryx_fits, 1);
    tm_verdict_add(r, "sram", t->sram_fits, 1);
    tm_verdict_add(r, "act_store", t->act_fits, 1);
    tm_verdict_add(r, "split", t->split_ok, 1);
    tm_verdict_add(r, "systems", t->systems_ok, 1);
    tm_verdict_add(r, "matmul", t->matmul_fits, 0);
    tm_verdict_add(r, "batch", t->batch_ok, 0);
    tm_verdict_add(r, "stream", t->stream_balanced, 0);
    tm_verdict_add(r, "chunk", t->chunk_fine, 0);
    tm_result_close(r);
    r->bottleneck = t->step.bottleneck; /* the model's own pick on a tie */
}

static cp_status eval(const void *job, double count, enum tm_scaling mode, struct tm_result *r,
                      void *detail, struct cp_error *err)
{
    (void)err;
    const struct cluster *c = job;
    struct train_result *t = detail;
    if (count == c->systems)
        train_eval(c, t);
    else
        train_at(c, count, mode == TM_WEAK ? SCALE_WEAK : SCALE_STRONG, t);
    ws_tm_result(t, count, r);
    return CP_OK;
}

const struct tm_kind tm_ws = {
    .name = "weight-streaming",
    .unit = "system",
    .units = "systems",
    .is_mine = is_mine,
    .detail_size = sizeof(struct train_result),
    .eval = eval,
};
