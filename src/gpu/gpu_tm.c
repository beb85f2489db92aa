/* gpu_tm.c - the GPU kind of the training-model interface.  See gpu_tm.h. */
#include "gpu_tm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A GPU description says kind = gpu. */
static int is_mine(const char *hw_text)
{
    return desc_kind_is(hw_text, "gpu", 0);
}

/* a and b the same, field by field (their padding may be undefined). */
static int same_layout(const struct gpu_layout *a, const struct gpu_layout *b)
{
    return a->tp == b->tp && a->pp == b->pp && a->dp == b->dp && a->cp == b->cp &&
           a->mbs == b->mbs && a->vp == b->vp && a->precision == b->precision &&
           a->recompute == b->recompute && a->recompute_layers == b->recompute_layers &&
           a->shard_optimizer == b->shard_optimizer && a->fsdp == b->fsdp &&
           a->fp8_params == b->fp8_params && a->seq_parallel == b->seq_parallel &&
           a->flash_attention == b->flash_attention && a->overlap_grad == b->overlap_grad &&
           a->overlap_tp == b->overlap_tp;
}

/* a and b the same but their GPU count. */
static int same_spec(const struct gpu_search_spec *a, const struct gpu_search_spec *b)
{
    return a->batch == b->batch && a->precision == b->precision && a->tp == b->tp &&
           a->pp == b->pp && a->mbs == b->mbs && a->cp == b->cp && a->vp == b->vp &&
           a->fsdp == b->fsdp && a->recompute == b->recompute &&
           a->each_recompute == b->each_recompute && a->allow_cp == b->allow_cp &&
           a->keep == b->keep && same_layout(&a->options, &b->options);
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
    gpu_train_eval(j->g, p->gpus, gpu_train_steps(r->tokens, batch, j->wl->seq_len), j->price,
                   gpu_state_bytes(j->wl), g, &d->run);
    r->runs = 1;
    r->step_s = g->step_s;
    r->nparts = GPU_NPARTS;
    r->part_name = gpu_part_name;
    for (size_t i = 0; i < GPU_NPARTS; i++)
        r->part_s[i] = g->part_s[i];
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
    r->global_tokens = (p.batch ? p.batch : j->wl->batch) * j->wl->seq_len;
    r->batch_penalty = j->batch_penalty || mode == TM_WEAK;
    r->tokens = gpu_train_tokens(j->g, j->wl, j->tokens, r->global_tokens,
                                 (j->ref_batch > 0 ? j->ref_batch : j->wl->batch) * j->wl->seq_len,
                                 r->batch_penalty, &r->critical_tokens);
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
    tm_verdict_add(r, "batch", r->global_tokens <= r->critical_tokens, 0);
    tm_result_failures(r, &d->run.gp, d->run.time_ff_s, d->run.ckpt_bytes, d->run.bom, d->run.nbom,
                       &d->run.costs, j->g->site.currency);
    tm_result_close(r);
    r->bottleneck = (size_t)d->sr.hit[0].result.bottleneck;
    return CP_OK;
}

/* ---- the parameters: gpuhw_schema's numbers but the claims' figures ---- */

/* The published figures only claims reads (gpuhw.h): no parameters. */
static const char *const claims_only[] = {"gpu.cores", "gpu.l2_cache", "gpu.die_area_mm2", NULL};

static int is_param(size_t k)
{
    const struct desc_key *key = &gpuhw_schema.keys[k];
    if (key->type != DESC_NUM)
        return 0;
    char name[96];
    snprintf(name, sizeof name, "%s.%s", key->section, key->name);
    for (size_t i = 0; claims_only[i]; i++)
        if (strcmp(claims_only[i], name) == 0)
            return 0;
    return 1;
}

static size_t p_count(void)
{
    size_t n = 0;
    for (size_t k = 0; k < gpuhw_schema.nkeys; k++)
        n += (size_t)is_param(k);
    return n;
}

static int p_index(size_t i)
{
    for (size_t k = 0; k < gpuhw_schema.nkeys; k++)
        if (is_param(k) && i-- == 0)
            return (int)k;
    return -1;
}

static const struct desc_key *p_key(size_t i)
{
    return &gpuhw_schema.keys[p_index(i)];
}

static const char *p_name(size_t i, char *buf, size_t n)
{
    snprintf(buf, n, "%s.%s", p_key(i)->section, p_key(i)->name);
    return buf;
}

static unit_dim p_dim(size_t i)
{
    return p_key(i)->dim;
}

static double *p_ptr(struct gpuhw_desc *g, size_t i)
{
    return (double *)((char *)g + p_key(i)->off);
}

static double p_get(const void *job, size_t i)
{
    const struct gpu_tm_job *j = job;
    return *(const double *)((const char *)j->g + p_key(i)->off);
}

static int p_whole(size_t i)
{
    return (p_key(i)->flags & DESC_INTEGER) != 0;
}

/* The key's own rules (desc.h's flags) and gpuhw_check's rule spanning
 * keys: the NVLink domain divides the node or is whole nodes. */
static int p_valid(const void *job, size_t i, double v)
{
    char why[128];
    if (desc_number_check(p_key(i), v, why, sizeof why) != 0)
        return 0;
    struct gpuhw_desc g = *((const struct gpu_tm_job *)job)->g;
    *p_ptr(&g, i) = v;
    double node = g.net.gpus_per_node, dom = g.net.nvlink_domain;
    return fmod(dom, node) == 0 || fmod(node, dom) == 0;
}

/* Not ranked: the node's shape (whole numbers tied to each other and to
 * the count, so a step of one changes which layouts exist rather than a
 * rate), and the memory a layout must fit in (the time changes with it
 * only in whole steps: a layout fits or not). */
static const char gpu_shape[] = "the node's shape, whole numbers that change the layouts there are";
static const char gpu_capacity[] = "capacities, which change the time only in whole steps";
static const char gpu_error[] = "the model's own error, which only --uncertainty draws";
static const char *const gpu_skipped[] = {"system.gpus_per_node", "network.nvlink_domain",
                                          "gpu.hbm", "fit.hbm_usable", "fit.model_error", NULL};
static const char *const gpu_skipped_why[] = {gpu_shape, gpu_shape, gpu_capacity, gpu_capacity,
                                              gpu_error};

static const char *p_skip_why(size_t i)
{
    char name[96];
    p_name(i, name, sizeof name);
    for (size_t k = 0; gpu_skipped[k]; k++)
        if (strcmp(gpu_skipped[k], name) == 0)
            return gpu_skipped_why[k];
    return NULL;
}

/* eval of the job on a copy of its description with key i at v.  The
 * divisors are listed again (the listing keeps the description it was
 * made for), and forgotten after (the copy does not outlive the call). */
static cp_status p_eval(const void *job, size_t i, double v, double count, enum tm_scaling mode,
                        struct tm_result *r, void *detail, struct cp_error *err)
{
    const struct gpu_tm_job *j = job;
    struct gpuhw_desc g = *j->g;
    *p_ptr(&g, i) = v;
    struct gpu_tm_job changed = *j;
    changed.g = &g;
    struct gpu_tm_detail *d = detail;
    d->listed_for = NULL;
    cp_status st = eval(&changed, count, mode, r, detail, err);
    d->listed_for = NULL;
    return st;
}

/* A clone: the job and its own copy of the GPU description. */
struct gpu_clone {
    struct gpu_tm_job j;
    struct gpuhw_desc g;
};

static void *clone(const void *job, void *buf)
{
    struct gpu_clone *k = buf;
    k->j = *(const struct gpu_tm_job *)job;
    k->g = *k->j.g;
    k->j.g = &k->g;
    return &k->j;
}

static void p_set(void *job, size_t i, double v)
{
    struct gpu_clone *k = job; /* j is the first member */
    *p_ptr(&k->g, i) = v;
}

/* eval refuses a result with a figure that is not finite (gpu_train). */
static const char *nonfinite(const struct tm_result *r, const void *detail)
{
    (void)r, (void)detail;
    return NULL;
}

const char *gpu_tm_layout_text(const struct gpu_layout *l, char *buf, size_t n)
{
    char rc[64];
    if (l->recompute == GPU_RC_BLOCK)
        snprintf(rc, sizeof rc, "block (%g layers a stage)", l->recompute_layers);
    else
        snprintf(rc, sizeof rc, "%s", gpu_recompute_name[l->recompute]);
    snprintf(buf, n, "TP %g x PP %g (VP %g) x DP %g, CP %g, micro-batch %g, recompute %s%s", l->tp,
             l->pp, l->vp, l->dp, l->cp, l->mbs, rc, l->fsdp ? ", FSDP" : "");
    return buf;
}

/* "GPT-3 175B on 1024 x H100 ... (128 nodes of 8), bf16, TP 8 x PP 8 ...":
 * the fastest layout at the count (the search's, in r's detail). */
static const char *describe(const void *job, const char *label, const struct tm_result *r,
                            const void *detail, char *buf, size_t n)
{
    (void)label;
    const struct gpu_tm_job *j = job;
    const struct gpu_tm_detail *d = detail;
    const struct gpu_layout *l = &d->sr.hit[0].layout;
    char lay[200];
    if (!r->runs) {
        snprintf(buf, n, "%s on %g x %s", j->wl->name, r->count, j->g->name);
        return buf;
    }
    snprintf(buf, n, "%s on %g x %s (%g node%s of %g), %s, %s", j->wl->name, r->count, j->g->name,
             d->run.nodes, d->run.nodes == 1 ? "" : "s", j->g->net.gpus_per_node,
             gpuhw_prec_name[l->precision], gpu_tm_layout_text(l, lay, sizeof lay));
    return buf;
}

/* A GPU job that runs has no verdict against it (memory is the search's:
 * a count where no layout fits does not run). */
static const char *infeasible_why(const struct tm_result *r, const void *detail, char *buf,
                                  size_t n)
{
    (void)detail;
    snprintf(buf, n, "%s", r->runs ? "" : r->why);
    return buf;
}

const struct tm_kind tm_gpu = {
    .name = "gpu",
    .unit = "GPU",
    .units = "GPUs",
    .is_mine = is_mine,
    .detail_size = sizeof(struct gpu_tm_detail),
    .eval = eval,
    .nparams = p_count,
    .param_name = p_name,
    .param_index = p_index,
    .param_dim = p_dim,
    .param_get = p_get,
    .param_whole = p_whole,
    .param_valid = p_valid,
    .param_skip_why = p_skip_why,
    .skipped = gpu_skipped,
    .model_error_key = "fit.model_error",
    .param_eval = p_eval,
    .clone_size = sizeof(struct gpu_clone),
    .clone = clone,
    .param_set = p_set,
    .nonfinite = nonfinite,
    .describe = describe,
    .infeasible_why = infeasible_why,
};
