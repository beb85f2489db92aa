/* gpu_search.c - the layout search (gpu_search.h): the divisors of the
 * job's figures listed once, the layouts built from them nested tp, pp,
 * cp, mbs, vp, each layout's recompute settings tried in order, and the
 * fastest kept in a fixed array by insertion. */
#include "gpu_search.h"

#include "gpu_int.h"

#include <math.h>

/* Largest figure (GPUs, heads, layers, sequence, batch) the search takes:
 * its divisors are listed by trial division up to its square root, 1e6
 * steps at most.  Assumed: far above any job (2^20 GPUs, a 1M-token
 * sequence). */
#define FIGURE_MAX 1e12

struct ctx {
    const struct gpuhw_desc *g;
    struct wl_desc w; /* with the search's global batch */
    const struct gpu_search_spec *s;
    struct gpu_search_result *r;
    struct gpu_layout l; /* the layout being built */
    double div_heads[GPU_SEARCH_DIVISORS_MAX], div_layers[GPU_SEARCH_DIVISORS_MAX];
    double div_seq[GPU_SEARCH_DIVISORS_MAX], div_batch[GPU_SEARCH_DIVISORS_MAX];
    size_t n_heads, n_layers, n_seq, n_batch;
    double div_stage[GPU_SEARCH_DIVISORS_MAX]; /* of the current pp's stage */
    size_t n_stage;
    /* pipeline depths: the divisors of L and of L + 2 (the uneven split),
     * merged in increasing order */
    double pps[2 * GPU_SEARCH_DIVISORS_MAX];
    size_t n_pps;
    struct gpu_memo memo;  /* layers' compute already timed (gpu_int.h) */
    struct gpu_result mem; /* the memory fits() computed last ...       */
    int mem_valid;         /* ... for this layout                       */
    enum gpu_recompute mem_rc;
    double mem_k; /* ... and this recompute setting               */
};

struct gpu_search_spec gpu_search_spec_default(double gpus)
{
    struct gpu_search_spec s = {
        .gpus = gpus,
        .batch = 0,
        .precision = GPUHW_BF16,
        .tp = GPU_SEARCH_FREE,
        .pp = GPU_SEARCH_FREE,
        .mbs = GPU_SEARCH_FREE,
        .cp = GPU_SEARCH_FREE,
        .vp = GPU_SEARCH_FREE,
        .fsdp = GPU_SEARCH_ANY_FSDP,
        .recompute = GPU_SEARCH_ANY_RC,
        .each_recompute = 0,
        .allow_cp = 1,
        .keep = 6,
        .options = gpu_layout_default(1, 1, 1, 1),
    };
    return s;
}

/* a divides b, both whole below 2^53: the quotient is exact when whole
 * (cheaper than fmod in the inner loops) */
static int divides(double a, double b)
{
    double q = b / a;
    return q == floor(q);
}

static int whole(double v)
{
    return v >= 1 && v == floor(v) && v <= FIGURE_MAX;
}

/* The divisors of n (whole, at most FIGURE_MAX) in increasing order into
 * out; their count, or 0 when there are more than GPU_SEARCH_DIVISORS_MAX. */
static size_t divisors(double n, double *out)
{
    size_t lo = 0, hi = 0;
    double high[GPU_SEARCH_DIVISORS_MAX]; /* the cofactors, decreasing */
    for (double d = 1; d * d <= n; d++) {
        if (!divides(d, n))
            continue;
        if (lo + hi + 2 > GPU_SEARCH_DIVISORS_MAX)
            return 0;
        out[lo++] = d;
        if (d * d != n)
            high[hi++] = n / d;
    }
    for (size_t i = 0; i < hi; i++)
        out[lo + i] = high[hi - 1 - i];
    return lo + hi;
}

/* hit into the kept array if it is among the keep fastest; a tie goes
 * after the layouts already kept (the enumeration order decides). */
static void offer(struct gpu_search_result *r, size_t keep, const struct gpu_layout *l,
                  const struct gpu_result *res)
{
    if (r->n == keep && !(res->step_s < r->hit[keep - 1].result.step_s))
        return;
    size_t i = r->n < keep ? r->n++ : keep - 1;
    for (; i > 0 && r->hit[i - 1].result.step_s > res->step_s; i--)
        r->hit[i] = r->hit[i - 1];
    r->hit[i].layout = *l;
    r->hit[i].result = *res;
}

/* Whether the current layout fits under recompute setting rc (block of
 * k layers): its memory, counted as tried and kept if the least so far. */
static int fits(struct ctx *c, enum gpu_recompute rc, double k)
{
    c->l.recompute = rc;
    c->l.recompute_layers = k;
    struct gpu_result *res = &c->mem; /* evaluate() of this setting reuses it */
    gpu_memory_memo(c->g, &c->w, &c->l, &c->memo, res);
    c->mem_valid = 1;
    c->mem_rc = rc;
    c->mem_k = k;
    c->r->tried++;
    if (!(res->mem_total >= c->r->least_mem)) {
        c->r->least_mem = res->mem_total;
        c->r->least_layout = c->l;
    }
    return res->fits;
}

/* Evaluate the current layout under rc (block of k) and offer it. */
static void evaluate(struct ctx *c, enum gpu_recompute rc, double k)
{
    c->l.recompute = rc;
    c->l.recompute_layers = k;
    struct gpu_result res;
    int same = c->mem_valid && c->mem_rc == rc && c->mem_k == k;
    gpu_eval_memo(c->g, &c->w, &c->l, &c->memo, same ? &c->mem : NULL, &res);
    c->r->evaluated++;
    offer(c->r, c->s->keep, &c->l, &res);
}

/* Whether the spec lets the search try recompute setting rc. */
static int rc_allowed(const struct ctx *c, enum gpu_recompute rc)
{
    return c->s->recompute == GPU_SEARCH_ANY_RC || c->s->recompute == (int)rc;
}

/* The least j from 1 to n whose block recompute of j vp layers fits, or
 * n + 1 when none does.  Block recompute's memory falls as it recomputes
 * more layers (each keeps only its input; gpu_mem.c), so the settings that
 * fit are those from some j on, found by bisection; full recompute is
 * block of all L / pp layers, so when it does not fit no block does. */
static double least_block(struct ctx *c, double n)
{
    double lo = 1, hi = n + 1; /* the answer lies in [lo, hi] */
    while (lo < hi) {
        double mid = floor((lo + hi) / 2);
        if (fits(c, GPU_RC_BLOCK, mid * c->l.vp))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The recompute settings of the current layout in order: none, selective,
 * block of vp, 2 vp, ... layers (fewer than a stage's), full; all that
 * fit, or the first that fits. */
static void try_recompute(struct ctx *c)
{
    int each = c->s->each_recompute, none_short = 0;
    for (enum gpu_recompute rc = GPU_RC_NONE; rc <= GPU_RC_SELECTIVE; rc++) {
        if (!rc_allowed(c, rc))
            continue;
        /* with flash attention selective recompute keeps what none keeps
         * (the scores are never stored): no need to ask again */
        if (rc == GPU_RC_SELECTIVE && none_short && c->l.flash_attention)
            continue;
        if (fits(c, rc, 0)) {
            evaluate(c, rc, 0);
            if (!each)
                return;
        } else
            none_short = rc == GPU_RC_NONE;
    }
    int full = rc_allowed(c, GPU_RC_FULL), block = rc_allowed(c, GPU_RC_BLOCK);
    double stage = gpu_stage_layers(&c->w, &c->l), n = stage / c->l.vp - 1; /* block settings */
    if (!(full || block) || !(full ? fits(c, GPU_RC_FULL, 0) : fits(c, GPU_RC_BLOCK, stage)))
        return;
    if (block)
        for (double j = least_block(c, n); j <= n; j++) {
            evaluate(c, GPU_RC_BLOCK, j * c->l.vp);
            if (!each)
                return;
        }
    if (full)
        evaluate(c, GPU_RC_FULL, 0);
}

/* The micro-batch and interleaving of the current tp, pp, cp, dp. */
static void search_mbs_vp(struct ctx *c)
{
    double local = c->w.batch / c->l.dp;
    for (size_t i = 0; i < c->n_batch && c->div_batch[i] <= local; i++) {
        double mbs = c->div_batch[i];
        if (!divides(mbs, local) || (c->s->mbs != GPU_SEARCH_FREE && mbs != c->s->mbs))
            continue;
        c->l.mbs = mbs;
        /* interleaving needs at least pp micro-batches (gpu_check) */
        int interleave = c->l.pp > 1 && local / mbs >= c->l.pp;
        for (size_t j = 0; j < c->n_stage; j++) {
            double vp = c->div_stage[j];
            if ((vp > 1 && !interleave) || (c->s->vp != GPU_SEARCH_FREE && vp != c->s->vp))
                continue;
            c->l.vp = vp;
            for (int fsdp = 0; fsdp <= 1; fsdp++) {
                /* FSDP shards over dp: nothing to shard with one replica */
                if ((c->s->fsdp != GPU_SEARCH_ANY_FSDP && fsdp != c->s->fsdp) ||
                    (fsdp && c->l.dp == 1))
                    continue;
                c->l.fsdp = fsdp;
                c->r->divided++;
                try_recompute(c);
            }
        }
    }
}

/* Context and data parallelism of the current tp and pp. */
static void search_cp(struct ctx *c, double per_tp)
{
    double pp = c->l.pp;
    c->n_stage = divisors(gpu_stage_layers(&c->w, &c->l), c->div_stage);
    size_t ncp = c->s->allow_cp || c->s->cp != GPU_SEARCH_FREE ? c->n_seq : 1;
    for (size_t j = 0; j < ncp; j++) {
        double cp = c->div_seq[j]; /* the first divisor is 1 */
        if (!divides(cp, per_tp / pp) || (c->s->cp != GPU_SEARCH_FREE && cp != c->s->cp))
            continue;
        /* ring attention splits each sequence into 2 cp chunks (Megatron's
         * load balancing): cp > 1 needs an even share */
        if (cp > 1 && !divides(2 * cp, c->w.seq_len))
            continue;
        double dp = per_tp / pp / cp;
        if (!divides(dp, c->w.batch))
            continue;
        c->l.cp = cp;
        c->l.dp = dp;
        search_mbs_vp(c);
    }
}

/* The pipeline and context parallelism of the current tp, and dp of what
 * remains of the GPUs.  A free pp runs over the divisors of the layers and
 * of the layers + 2 (Megatron's uneven split, gpu_uneven_split); a fixed
 * one may split them in any way (at most one stage per layer). */
static void search_pp_cp(struct ctx *c)
{
    double per_tp = c->s->gpus / c->l.tp;
    if (c->s->pp != GPU_SEARCH_FREE) {
        c->l.pp = c->s->pp;
        if (divides(c->s->pp, per_tp) && c->s->pp <= c->w.layers)
            search_cp(c, per_tp);
        return;
    }
    for (size_t i = 0; i < c->n_pps; i++) {
        c->l.pp = c->pps[i];
        if (divides(c->l.pp, per_tp) && c->l.pp <= c->w.layers)
            search_cp(c, per_tp);
    }
}

static void search_all(struct ctx *c)
{
    const struct gpuhw_desc *g = c->g;
    for (size_t i = 0; i < c->n_heads; i++) {
        double tp = c->div_heads[i];
        if (c->s->tp != GPU_SEARCH_FREE && tp != c->s->tp)
            continue;
        if (!divides(tp, c->w.kv_heads) && !divides(c->w.kv_heads, tp))
            continue;
        /* a free tp stays inside the NVLink domain; a fixed one may go
         * beyond it (its traffic then runs at the scale-out rate) */
        int inside = divides(tp, g->net.nvlink_domain) || c->s->tp != GPU_SEARCH_FREE;
        if (!inside || !divides(tp, c->s->gpus))
            continue;
        c->l.tp = tp;
        search_pp_cp(c);
    }
}

static cp_status spec_check(const struct gpuhw_desc *g, const struct wl_desc *w,
                            const struct gpu_search_spec *s, struct cp_error *err)
{
    if (!whole(s->gpus))
        return cp_fail(err, CP_EINPUT, "gpus = %g is not a whole number from 1 to %g", s->gpus,
                       FIGURE_MAX);
    if (!(s->batch == 0 || whole(s->batch)))
        return cp_fail(err, CP_EINPUT, "batch = %g is not a whole number from 1 to %g", s->batch,
                       FIGURE_MAX);
    if (s->keep < 1 || s->keep > GPU_SEARCH_KEEP_MAX)
        return cp_fail(err, CP_EINPUT, "keep = %zu layouts is not from 1 to %d", s->keep,
                       GPU_SEARCH_KEEP_MAX);
    const double fixed[] = {s->tp, s->pp, s->mbs, s->cp, s->vp};
    static const char *const name[] = {"tp", "pp", "mbs", "cp", "vp"};
    for (int i = 0; i < 5; i++)
        if (!(fixed[i] == GPU_SEARCH_FREE || whole(fixed[i])))
            return cp_fail(err, CP_EINPUT, "%s = %g is neither free (0) nor a whole number",
                           name[i], fixed[i]);
    if (s->fsdp < GPU_SEARCH_ANY_FSDP || s->fsdp > 1)
        return cp_fail(err, CP_EINPUT, "fsdp = %d is neither 0, 1 nor both (%d)", s->fsdp,
                       GPU_SEARCH_ANY_FSDP);
    if (s->recompute < GPU_SEARCH_ANY_RC || s->recompute >= GPU_NRECOMPUTES)
        return cp_fail(err, CP_EINPUT, "recompute = %d is not free nor one of %d settings",
                       s->recompute, GPU_NRECOMPUTES);
    if ((int)s->precision < 0 || (int)s->precision >= GPUHW_NPRECS)
        return cp_fail(err, CP_EINPUT, "precision = %d is not one of %d", (int)s->precision,
                       GPUHW_NPRECS);
    if (!(g->chip.peak_flops[s->precision] > 0))
        return cp_fail(err, CP_EINPUT, "%s has no %s tensor cores (gpu.peak_%s = 0)", g->name,
                       gpuhw_prec_name[s->precision], gpuhw_prec_name[s->precision]);
    const double fig[] = {w->heads, w->kv_heads, w->layers, w->seq_len, g->net.nvlink_domain};
    static const char *const fname[] = {"heads", "kv_heads", "layers", "seq_len",
                                        "network.nvlink_domain"};
    for (int i = 0; i < 5; i++)
        if (!whole(fig[i]))
            return cp_fail(err, CP_EINPUT, "%s = %g is not a whole number from 1 to %g", fname[i],
                           fig[i], FIGURE_MAX);
    return CP_OK;
}

/* The divisors of the job's figures into c; CP_EINPUT naming a figure
 * with too many. */
static cp_status list_divisors(struct ctx *c, struct cp_error *err)
{
    const double fig[] = {c->w.heads, c->w.layers, c->w.seq_len, c->w.batch};
    static const char *const name[] = {"attention heads", "layers", "sequence", "global batch"};
    double *out[] = {c->div_heads, c->div_layers, c->div_seq, c->div_batch};
    size_t *n[] = {&c->n_heads, &c->n_layers, &c->n_seq, &c->n_batch};
    for (int i = 0; i < 4; i++)
        if ((*n[i] = divisors(fig[i], out[i])) == 0)
            return cp_fail(err, CP_EINPUT,
                           "the %s of %.0f has more than %d divisors: too many to search", name[i],
                           fig[i], GPU_SEARCH_DIVISORS_MAX);
    double more[GPU_SEARCH_DIVISORS_MAX];
    size_t n_more = divisors(c->w.layers + 2, more), i = 0, j = 0;
    c->n_pps = 0;
    while (i < c->n_layers || j < n_more) { /* merge, each value once */
        double a = i < c->n_layers ? c->div_layers[i] : INFINITY;
        double b = j < n_more ? more[j] : INFINITY;
        c->pps[c->n_pps++] = fmin(a, b);
        i += a <= b;
        j += b <= a;
    }
    return CP_OK;
}

static cp_status refusal(const struct ctx *c, struct cp_error *err)
{
    const struct gpu_search_result *r = c->r;
    const struct gpu_layout *l = &r->least_layout;
    if (r->divided == 0) {
        int fixed = c->s->tp != GPU_SEARCH_FREE || c->s->pp != GPU_SEARCH_FREE ||
                    c->s->mbs != GPU_SEARCH_FREE || c->s->cp != GPU_SEARCH_FREE ||
                    c->s->vp != GPU_SEARCH_FREE || c->s->fsdp != GPU_SEARCH_ANY_FSDP;
        return cp_fail(err, CP_EINPUT,
                       "no layout of %.0f GPUs divides the job: tp a divisor of the %.0f "
                       "heads and of the NVLink domain of %.0f, pp of the %.0f layers or of "
                       "%.0f (the uneven split), cp with 2 cp a divisor of the sequence%s, "
                       "dp = %.0f / (tp pp cp) of the global batch of %.0f sequences%s",
                       c->s->gpus, c->w.heads, c->g->net.nvlink_domain, c->w.layers,
                       c->w.layers + 2, c->s->allow_cp ? "" : " (not allowed: 1)", c->s->gpus,
                       c->w.batch, fixed ? " (with the fixed figures)" : "");
    }
    return cp_fail(err, CP_EINPUT,
                   "no layout of %.0f GPUs fits in memory: the least, tp %.0f pp %.0f cp %.0f "
                   "dp %.0f mbs %.0f vp %.0f with %s recompute, needs %.4g bytes per GPU "
                   "against %.4g usable (HBM x hbm_usable), of %.0f layouts that divide",
                   c->s->gpus, l->tp, l->pp, l->cp, l->dp, l->mbs, l->vp,
                   gpu_recompute_name[l->recompute], r->least_mem, r->capacity, r->divided);
}

cp_status gpu_search(const struct gpuhw_desc *g, const struct wl_desc *w,
                     const struct gpu_search_spec *s, struct gpu_search_result *r,
                     struct cp_error *err)
{
    r->n = 0;
    r->divided = r->tried = r->evaluated = 0;
    r->least_mem = INFINITY;
    r->capacity = g->chip.hbm_bytes * g->fit.hbm_usable;
    r->least_layout = s->options;
    if (spec_check(g, w, s, err) != CP_OK)
        return CP_EINPUT;
    struct ctx c = {.g = g, .w = *w, .s = s, .r = r, .l = s->options};
    if (s->batch != 0)
        c.w.batch = s->batch;
    if (!whole(c.w.batch))
        return cp_fail(err, CP_EINPUT, "the global batch of %g is not a whole number from 1 to %g",
                       c.w.batch, FIGURE_MAX);
    if (list_divisors(&c, err) != CP_OK)
        return CP_EINPUT;
    c.l.precision = s->precision;
    gpu_layout_switches(&c.l, w); /* the workload's software switches */
    search_all(&c);
    return r->n > 0 ? CP_OK : refusal(&c, err);
}
