/* ws_tm.c - the weight-streaming kind of the training-model interface.
 * See ws_tm.h. */
#include "ws_tm.h"

#include <stdio.h>
#include <string.h>

#include "../desc/desc.h"
#include "param.h"

/* A weight-streaming description says kind = weight-streaming, or says no
 * kind (the files that predate GPUs). */
static int is_mine(const char *hw_text)
{
    return desc_kind_is(hw_text, "weight-streaming", 1);
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
    r->critical_tokens = t->critical_tokens;
    r->batch_penalty = t->batch_penalty;
    r->steps = t->steps;
    r->time_s = t->time_s;
    r->tokens_per_s = t->tokens_per_s;
    r->mfu = t->mfu;
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
    tm_verdict_add(r, "sparse", !(t->warnings & TW_SPARSE_LOSS), 1); /* desc/loss.h */
    tm_verdict_add(r, "matmul", t->matmul_fits, 0);
    tm_verdict_add(r, "batch", t->batch_ok, 0);
    tm_verdict_add(r, "stream", t->stream_balanced, 0);
    tm_verdict_add(r, "chunk", t->chunk_fine, 0);
    tm_result_failures(r, &t->gp, t->time_ff_s, t->ckpt_bytes, t->bom, TRAIN_NPOWER, &t->costs,
                       t->currency);
    tm_result_close(r);
    r->bottleneck = t->step.bottleneck; /* the model's own pick on a tie */
}

static cp_status eval(const void *job, double count, enum tm_scaling mode, struct tm_result *r,
                      void *detail, struct cp_error *err)
{
    (void)err;
    const struct cluster *c = job;
    struct train_result *t = detail;
    struct cluster charged;
    if (mode == TM_WEAK && !c->batch_penalty) { /* tm.h: weak charges the penalty */
        charged = *c;
        charged.batch_penalty = 1;
        c = &charged;
    }
    if (count == c->systems)
        train_eval(c, t);
    else
        train_at(c, count, mode == TM_WEAK ? SCALE_WEAK : SCALE_STRONG, t);
    ws_tm_result(t, count, r);
    return CP_OK;
}

/* The job at count with the hardware hw instead of its own (the overlap
 * following hw unless it was given), as eval does. */
static cp_status eval_on(const struct cluster *base, const struct hw_desc *hw, double count,
                         enum tm_scaling mode, struct tm_result *r, void *detail,
                         struct cp_error *err)
{
    struct cluster c = *base;
    c.hw = hw;
    if (!c.overlap_set)
        c.overlap = hw->mx.boundary_overlap;
    return eval(&c, count, mode, r, detail, err);
}

/* ---- the parameters: param.h's keys (hw_schema, but [chip]) ---- */

static size_t p_count(void)
{
    return param_count();
}

static const char *p_name(size_t i, char *buf, size_t n)
{
    return param_name(param_key(i), buf, n);
}

static int p_index(size_t i)
{
    return param_key(i);
}

static unit_dim p_dim(size_t i)
{
    return hw_schema.keys[param_key(i)].dim;
}

static double p_get(const void *job, size_t i)
{
    return param_get(((const struct cluster *)job)->hw, param_key(i));
}

static int p_whole(size_t i)
{
    return (hw_schema.keys[param_key(i)].flags & DESC_INTEGER) != 0;
}

static int p_valid(const void *job, size_t i, double v)
{
    return param_valid(((const struct cluster *)job)->hw, param_key(i), v);
}

/* Keys whose elasticity is not a ranking of what to measure: limits (a
 * verdict, not a rate: the time does not depend on them), capacities (the
 * time changes with them only in whole steps: micro-batches, servers,
 * where the activations go, so a 1 % change does nothing or crosses a
 * step), and the vendor's bytes per parameter (shown by capacity for
 * comparison; the model derives its own from the precisions). */
static const char ws_limit[] = "limits, a verdict and not a rate";
static const char ws_capacity[] = "capacities, which change the time only in whole steps";
static const char ws_vendor[] = "the vendor's sizing, which the model does not use";
static const char ws_error[] = "the model's own error, which only --uncertainty draws";
static const char *const ws_skipped[] = {
    "system.max_systems",   "system.max_matmul_dim",    "system.sram",
    "memoryx.server_memory", "memoryx.server_flash",    "activation.server_memory",
    "memoryx.bytes_per_param", "system.model_error", NULL,
};
static const char *const ws_skipped_why[] = {ws_limit,    ws_limit,    ws_capacity, ws_capacity,
                                             ws_capacity, ws_capacity, ws_vendor,   ws_error};

static const char *p_skip_why(size_t i)
{
    int key = param_key(i);
    for (size_t k = 0; ws_skipped[k]; k++)
        if (param_find(ws_skipped[k]) == key)
            return ws_skipped_why[k];
    return NULL;
}

static cp_status p_eval(const void *job, size_t i, double v, double count, enum tm_scaling mode,
                        struct tm_result *r, void *detail, struct cp_error *err)
{
    const struct cluster *base = job;
    struct hw_desc hw = *base->hw;
    *param_ptr(&hw, param_key(i)) = v;
    return eval_on(base, &hw, count, mode, r, detail, err);
}

/* A clone: the cluster and its own copy of the hardware. */
struct ws_clone {
    struct cluster c;
    struct hw_desc hw;
};

static void *clone(const void *job, void *buf)
{
    struct ws_clone *k = buf;
    k->c = *(const struct cluster *)job;
    k->hw = *k->c.hw;
    k->c.hw = &k->hw;
    return &k->c;
}

/* Key i at v in the clone's hardware; the overlap follows the hardware
 * unless it was given (param_eval's rule). */
static void p_set(void *job, size_t i, double v)
{
    struct ws_clone *k = job; /* c is the first member */
    *param_ptr(&k->hw, param_key(i)) = v;
    if (!k->c.overlap_set)
        k->c.overlap = k->hw.mx.boundary_overlap;
}

static const char *nonfinite(const struct tm_result *r, const void *detail)
{
    (void)r;
    return train_nonfinite(detail);
}

/* "GPT-3 175B on 192 x CS-2, MemoryX sized (12 servers, 3.5 TB), sparsity
 * 0": label is the tier as the user gave it (--memoryx), cut as the
 * command line's scenario keeps it; without one, "N servers" when the
 * servers are fixed, else "sized". */
static const char *describe(const void *job, const char *label, const struct tm_result *r,
                            const void *detail, char *buf, size_t n)
{
    (void)r;
    const struct cluster *c = job;
    const struct train_result *t = detail;
    char tier[DESC_NAME_MAX], bytes[64];
    if (label)
        snprintf(tier, sizeof tier, "%s", label);
    else if (c->mx_servers > 0)
        snprintf(tier, sizeof tier, "%g server%s", c->mx_servers, c->mx_servers == 1 ? "" : "s");
    else
        snprintf(tier, sizeof tier, "sized");
    snprintf(buf, n, "%s on %g x %s, MemoryX %s (%g servers, %s), sparsity %g", c->wl->name,
             c->systems, c->hw->wse.name, tier, t->step.mx_servers,
             unit_format(t->memoryx_bytes, UNIT_BYTES, bytes, sizeof bytes), c->sparsity);
    return buf;
}

/* train.h's names of the infeasible warnings, ';' between. */
static const char *infeasible_why(const struct tm_result *r, const void *detail, char *buf,
                                  size_t n)
{
    (void)r;
    const struct train_result *t = detail;
    return train_warn_names(t->warnings & TW_INFEASIBLE, buf, n);
}

const struct tm_kind tm_ws = {
    .name = "weight-streaming",
    .unit = "system",
    .units = "systems",
    .is_mine = is_mine,
    .detail_size = sizeof(struct train_result),
    .eval = eval,
    .nparams = p_count,
    .param_name = p_name,
    .param_index = p_index,
    .param_dim = p_dim,
    .param_get = p_get,
    .param_whole = p_whole,
    .param_valid = p_valid,
    .param_skip_why = p_skip_why,
    .skipped = ws_skipped,
    .model_error_key = "system.model_error",
    .param_eval = p_eval,
    .clone_size = sizeof(struct ws_clone),
    .clone = clone,
    .param_set = p_set,
    .nonfinite = nonfinite,
    .describe = describe,
    .infeasible_why = infeasible_why,
};
