/* gpu_search.c - the layout search (gpu_search.h): the divisors of the
 * job's figures listed once per job (gpu_search_job_init), the layouts of
 * a count built nested tp, pp, cp over the divisors of the count (each
 * asked whether it divides the heads, the layers, the sequence), then
 * mbs and vp over the job's lists, each layout's recompute settings tried
 * in order, and the fastest kept in a fixed array by insertion; and the
 * counts some tp pp cp dp divides, marked for the scans of cmp.c. */
#include "gpu_search.h"

#include "gpu_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Largest figure (GPUs, heads, layers, sequence, batch) the search takes:
 * its divisors are listed by trial division up to its square root, 1e6
 * steps at most.  Assumed: far above any job (2^20 GPUs, a 1M-token
 * sequence). */
#define FIGURE_MAX 1e12

struct ctx {
    const struct gpu_search_job *j;
    const struct gpuhw_desc *g;
    const struct wl_desc *w; /* with the search's global batch */
    const struct gpu_search_spec *s;
    struct gpu_search_result *r;
    double gpus;
    struct gpu_layout l;                   /* the layout being built */
    double div_n[GPU_SEARCH_DIVISORS_MAX]; /* of the GPU count */
    size_t n_n;
    double div_stage[GPU_SEARCH_DIVISORS_MAX]; /* of the current pp's stage */
    size_t n_stage;
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
    gpu_memory_memo(c->g, c->w, &c->l, &c->memo, res);
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
    gpu_eval_memo(c->g, c->w, &c->l, &c->memo, same ? &c->mem : NULL, &res);
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
 * fit, or the first that fits.  Returns whether one fits. */
static int try_recompute(struct ctx *c)
{
    int each = c->s->each_recompute, none_short = 0;
    double before = c->r->evaluated;
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
                return 1;
        } else
            none_short = rc == GPU_RC_NONE;
    }
    int full = rc_allowed(c, GPU_RC_FULL), block = rc_allowed(c, GPU_RC_BLOCK);
    double stage = gpu_stage_layers(c->w, &c->l), n = stage / c->l.vp - 1; /* block settings */
    if (!(full || block) || !(full ? fits(c, GPU_RC_FULL, 0) : fits(c, GPU_RC_BLOCK, stage)))
        return c->r->evaluated > before;
    if (block)
        for (double j = least_block(c, n); j <= n; j++) {
            evaluate(c, GPU_RC_BLOCK, j * c->l.vp);
            if (!each)
                return 1;
        }
    if (full)
        evaluate(c, GPU_RC_FULL, 0);
    return 1;
}

/* The interleavings and FSDP settings of the current layout and
 * micro-batch, each counted as dividing and its recompute settings tried
 * (try_recompute); returns whether one fits. */
static int search_vp(struct ctx *c, int interleave)
{
    int any = 0;
    for (size_t j = 0; j < c->n_stage; j++) {
        double vp = c->div_stage[j];
        if ((vp > 1 && !interleave) || (c->s->vp != GPU_SEARCH_FREE && vp != c->s->vp))
            continue;
        c->l.vp = vp;
        for (int fsdp = 0; fsdp <= 1; fsdp++) {
            /* FSDP shards over dp: nothing to shard with one replica */
            if ((c->s->fsdp != GPU_SEARCH_ANY_FSDP && fsdp != c->s->fsdp) || (fsdp && c->l.dp == 1))
                continue;
            c->l.fsdp = fsdp;
            c->r->divided++;
            any |= try_recompute(c);
        }
    }
    return any;
}

/* How many layouts search_vp would count at the current micro-batch
 * (without trying them). */
static double count_vp(const struct ctx *c, int interleave)
{
    double nvp = 0;
    for (size_t j = 0; j < c->n_stage && (interleave || j == 0); j++)
        nvp += c->s->vp == GPU_SEARCH_FREE || c->div_stage[j] == c->s->vp;
    double nfsdp = c->s->fsdp == GPU_SEARCH_ANY_FSDP ? (c->l.dp > 1 ? 2 : 1)
                   : c->s->fsdp == 1                 ? c->l.dp > 1
                                                     : 1;
    return nvp * nfsdp;
}

/* The micro-batch and interleaving of the current tp, pp, cp, dp.  Every
 * recompute setting's memory grows with the micro-batch (the activations
 * in flight are min(batch / dp, mbs pp) sequences' on the first stage,
 * one on the last; the weights and state do not depend on it) and a
 * larger one interleaves no more, so once no layout of a micro-batch fits
 * none of a larger one does: those are counted as dividing and as tried
 * (their memory known to be short) without computing it. */
static void search_mbs_vp(struct ctx *c)
{
    double local = c->w->batch / c->l.dp;
    int short_all = 0;
    for (size_t i = 0; i < c->j->n_batch && c->j->div_batch[i] <= local; i++) {
        double mbs = c->j->div_batch[i];
        if (!divides(mbs, local) || (c->s->mbs != GPU_SEARCH_FREE && mbs != c->s->mbs))
            continue;
        c->l.mbs = mbs;
        /* interleaving needs at least pp micro-batches (gpu_check) */
        int interleave = c->l.pp > 1 && local / mbs >= c->l.pp;
        if (short_all) {
            double n = count_vp(c, interleave);
            c->r->divided += n;
            c->r->tried += n;
        } else
            short_all = !search_vp(c, interleave);
    }
}

/* The divisors of the current pp's stage into c: those of the layers
 * (or of the layers + 2, the uneven split) that divide it, or a fixed
 * pp's, listed once by the job. */
static void stage_divisors(struct ctx *c)
{
    const struct gpu_search_job *j = c->j;
    if (c->s->pp != GPU_SEARCH_FREE) {
        c->n_stage = j->n_fixed;
        for (size_t i = 0; i < j->n_fixed; i++)
            c->div_stage[i] = j->div_fixed[i];
        return;
    }
    double stage = gpu_stage_layers(c->w, &c->l);
    int even = !gpu_uneven_split(c->w, &c->l);
    const double *d = even ? j->div_layers : j->div_layers2;
    size_t n = even ? j->n_layers : j->n_layers2;
    c->n_stage = 0;
    for (size_t i = 0; i < n && d[i] <= stage; i++)
        if (divides(d[i], stage))
            c->div_stage[c->n_stage++] = d[i];
}

/* Whether cp is a context parallelism the search tries (the divisors of
 * the count are asked, not those of the sequence). */
static int cp_ok(const struct gpu_search_job *j, double cp)
{
    double seq = j->w.seq_len;
    if (j->s.cp != GPU_SEARCH_FREE)
        return cp == j->s.cp && divides(cp, seq) && (cp == 1 || divides(2 * cp, seq));
    /* ring attention splits each sequence into 2 cp chunks (Megatron's
     * load balancing): cp > 1 needs an even share */
    return cp == 1 || (j->s.allow_cp && divides(2 * cp, seq));
}

/* Context and data parallelism of the current tp and pp. */
static void search_cp(struct ctx *c, double per_tp)
{
    double pp = c->l.pp, per_pp = per_tp / pp;
    stage_divisors(c);
    for (size_t j = 0; j < c->n_n && c->div_n[j] <= per_pp; j++) {
        double cp = c->div_n[j];
        if (!divides(cp, per_pp) || !cp_ok(c->j, cp))
            continue;
        double dp = per_pp / cp;
        if (!divides(dp, c->w->batch))
            continue;
        c->l.cp = cp;
        c->l.dp = dp;
        search_mbs_vp(c);
    }
}

/* Whether pp is a pipeline depth a free pp runs over: a divisor of the
 * layers or of the layers + 2 (Megatron's uneven split,
 * gpu_uneven_split), at most one stage per layer. */
static int pp_free_ok(const struct wl_desc *w, double pp)
{
    return pp <= w->layers && (divides(pp, w->layers) || divides(pp, w->layers + 2));
}

/* The pipeline and context parallelism of the current tp, and dp of what
 * remains of the GPUs.  A fixed pp may split the layers in any way (at
 * most one stage per layer). */
static void search_pp_cp(struct ctx *c)
{
    double per_tp = c->gpus / c->l.tp;
    if (c->s->pp != GPU_SEARCH_FREE) {
        c->l.pp = c->s->pp;
        if (divides(c->s->pp, per_tp) && c->s->pp <= c->w->layers)
            search_cp(c, per_tp);
        return;
    }
    for (size_t i = 0; i < c->n_n && c->div_n[i] <= per_tp; i++) {
        c->l.pp = c->div_n[i];
        if (divides(c->l.pp, per_tp) && pp_free_ok(c->w, c->l.pp))
            search_cp(c, per_tp);
    }
}

/* Whether tp is a tensor parallelism of the search on g: a divisor of
 * the heads that suits the key/value heads; a free tp stays inside the
 * NVLink domain, a fixed one may go beyond it (its traffic then runs at
 * the scale-out rate). */
static int tp_ok(const struct gpu_search_job *j, double tp)
{
    const struct wl_desc *w = &j->w;
    if (j->s.tp != GPU_SEARCH_FREE && tp != j->s.tp)
        return 0;
    if (!divides(tp, w->heads) || (!divides(tp, w->kv_heads) && !divides(w->kv_heads, tp)))
        return 0;
    return j->s.tp != GPU_SEARCH_FREE || divides(tp, j->g->net.nvlink_domain);
}

static void search_all(struct ctx *c)
{
    for (size_t i = 0; i < c->n_n; i++) {
        double tp = c->div_n[i];
        if (!tp_ok(c->j, tp))
            continue;
        c->l.tp = tp;
        search_pp_cp(c);
    }
}

static cp_status spec_check(const struct gpuhw_desc *g, const struct wl_desc *w,
                            const struct gpu_search_spec *s, struct cp_error *err)
{
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

/* The divisors of figure v into out, *n of them; CP_EINPUT naming what
 * when it has too many. */
static cp_status list_of(double v, const char *what, double *out, size_t *n, struct cp_error *err)
{
    if ((*n = divisors(v, out)) == 0)
        return cp_fail(err, CP_EINPUT, "%s = %.0f has more than %d divisors: too many to search",
                       what, v, GPU_SEARCH_DIVISORS_MAX);
    return CP_OK;
}

cp_status gpu_search_job_init(const struct gpuhw_desc *g, const struct wl_desc *w,
                              const struct gpu_search_spec *s, struct gpu_search_job *j,
                              struct cp_error *err)
{
    j->g = g;
    j->w = *w;
    j->s = *s;
    j->n_layers = j->n_layers2 = j->n_fixed = j->n_batch = 0;
    if (spec_check(g, w, s, err) != CP_OK)
        return CP_EINPUT;
    if (s->batch != 0)
        j->w.batch = s->batch;
    if (!whole(j->w.batch))
        return cp_fail(err, CP_EINPUT, "the global batch of %g is not a whole number from 1 to %g",
                       j->w.batch, FIGURE_MAX);
    if (list_of(j->w.layers, "model.layers", j->div_layers, &j->n_layers, err) != CP_OK ||
        list_of(j->w.layers + 2, "model.layers + 2 (the uneven split)", j->div_layers2,
                &j->n_layers2, err) != CP_OK ||
        list_of(j->w.batch, "the global batch", j->div_batch, &j->n_batch, err) != CP_OK)
        return CP_EINPUT;
    if (s->pp != GPU_SEARCH_FREE && s->pp <= j->w.layers) {
        struct gpu_layout t = s->options;
        t.pp = s->pp;
        if (list_of(gpu_stage_layers(&j->w, &t), "a stage's layers (--pp)", j->div_fixed,
                    &j->n_fixed, err) != CP_OK)
            return CP_EINPUT;
    }
    return CP_OK;
}

/* Whether pp is a pipeline depth of j: the fixed one (at most one stage
 * per layer), or one a free pp runs over. */
static int pp_ok(const struct gpu_search_job *j, double pp)
{
    if (j->s.pp != GPU_SEARCH_FREE)
        return pp == j->s.pp && pp <= j->w.layers;
    return pp_free_ok(&j->w, pp);
}

/* Whether dp is a data parallelism of j: a divisor of the global batch
 * over a fixed micro-batch (mbs = 1 is there when it is free), more than 1
 * with FSDP fixed on. */
static int dp_ok(const struct gpu_search_job *j, double dp)
{
    double b = j->w.batch;
    if (j->s.mbs != GPU_SEARCH_FREE) {
        if (!divides(j->s.mbs, b))
            return 0;
        b /= j->s.mbs;
    }
    return divides(dp, b) && !(j->s.fsdp == 1 && dp == 1);
}

typedef int figure_ok(const struct gpu_search_job *j, double v);
static figure_ok *const figure[4] = {tp_ok, pp_ok, cp_ok, dp_ok}; /* tp pp cp dp */

/* The values whose divisors are figure f's candidates, into v; their
 * count: tp the heads, pp the layers and the layers + 2, cp 1 and half
 * the sequence, dp the global batch over a fixed mbs (a fixed figure:
 * itself). */
static int figure_sources(const struct gpu_search_job *j, unsigned f, double v[2])
{
    const struct wl_desc *w = &j->w;
    const struct gpu_search_spec *s = &j->s;
    const double fixed[] = {s->tp, s->pp, s->cp, 0};
    if (fixed[f] != GPU_SEARCH_FREE) {
        v[0] = fixed[f];
        return 1;
    }
    switch (f) {
    case 0:
        v[0] = w->heads;
        return 1;
    case 1:
        v[0] = w->layers;
        v[1] = w->layers + 2;
        return 2;
    case 2:
        v[0] = 1;
        v[1] = w->seq_len / 2;
        return s->allow_cp && divides(2, w->seq_len) ? 2 : 1;
    default:
        if (s->mbs == GPU_SEARCH_FREE) {
            v[0] = w->batch;
            return 1;
        }
        v[0] = w->batch / s->mbs;
        return divides(s->mbs, w->batch);
    }
}

typedef void figure_use(void *ctx, double d);

/* use(ctx, d) for each value d at most m figure f of j takes (some more
 * than once): the divisors of its sources, found by trial division up to
 * the lesser of m and the source's square root, each with its cofactor. */
static void each_value(const struct gpu_search_job *j, unsigned f, size_t m, figure_use *use,
                       void *ctx)
{
    double v[2];
    int nv = figure_sources(j, f, v);
    for (int i = 0; i < nv; i++)
        for (double d = 1; d <= (double)m && d * d <= v[i]; d++) {
            if (!divides(d, v[i]))
                continue;
            if (figure[f](j, d))
                use(ctx, d);
            double e = v[i] / d;
            if (e != d && e <= (double)m && figure[f](j, e))
                use(ctx, e);
        }
}

/* figure_use: the largest power of two dividing a value, into *ctx */
static void most_two(void *ctx, double d)
{
    double *most = ctx;
    size_t k = (size_t)d;
    *most = fmax(*most, (double)(k & (~k + 1)));
}

int gpu_search_step_possible(const struct gpu_search_job *j, double step, double max, char *why,
                             size_t n)
{
    double two[4] = {0}, all = 1;
    for (unsigned f = 0; f < 4; f++) {
        each_value(j, f, (size_t)max, most_two, &two[f]);
        all *= two[f];
    }
    if (all >= step)
        return 1;
    const struct wl_desc *w = &j->w;
    snprintf(why, n,
             "no count of GPUs in steps of %.0f divides the job: the largest power of two "
             "tp pp cp dp can hold together is %.0f, short of %.0f; of each: tp %.0f (of the "
             "%.0f heads, %.0f key/value heads%s), pp %.0f (of the %.0f layers or %.0f), "
             "cp %.0f (2 cp of the sequence of %.0f%s), dp %.0f (of the global batch of "
             "%.0f sequences)",
             step, all, step, two[0], w->heads, w->kv_heads,
             j->s.tp != GPU_SEARCH_FREE ? ", --tp fixed" : "", two[1], w->layers, w->layers + 2,
             two[2], w->seq_len,
             j->s.allow_cp || j->s.cp != GPU_SEARCH_FREE ? "" : ", not searched", two[3], w->batch);
    return 0;
}

/* Why no count of j that is a multiple of step up to max divides it. */
static void counts_why(const struct gpu_search_job *j, double step, double max, char *why, size_t n)
{
    if (!gpu_search_step_possible(j, step, max, why, n))
        return;
    const struct wl_desc *w = &j->w;
    snprintf(why, n,
             "no count of %.0f to %.0f GPUs (in steps of %.0f) divides the job: tp a divisor of "
             "the %.0f heads, pp of the %.0f layers or of %.0f, 2 cp of the sequence of %.0f, "
             "dp of the global batch of %.0f sequences, with tp pp cp dp the count",
             step, max, step, w->heads, w->layers, w->layers + 2, w->seq_len, w->batch);
}

struct marking {
    unsigned char *can;
    size_t m;
    unsigned char have, next;
};

/* figure_use: set bit next at k d for each k with bit have (k d <= m) */
static void mark_times(void *ctx, double d)
{
    struct marking *mk = ctx;
    size_t e = (size_t)d;
    for (size_t k = 1; k <= mk->m / e; k++)
        if (mk->can[k] & mk->have)
            mk->can[k * e] |= mk->next;
}

double gpu_search_counts(const struct gpu_search_job *j, double max, double step,
                         unsigned char *can, char *why, size_t n)
{
    size_t m = (size_t)max;
    memset(can, 0, m + 1);
    can[1] = 1; /* bit f: a product of the first f figures */
    for (unsigned f = 0; f < 4; f++) {
        struct marking mk = {can, m, (unsigned char)(1u << f), (unsigned char)(1u << (f + 1))};
        each_value(j, f, m, mark_times, &mk);
    }
    double marked = 0, stepped = 0;
    for (size_t k = 0; k <= m; k++) {
        can[k] = (can[k] >> 4) & 1;
        marked += can[k];
        stepped += can[k] && k % (size_t)step == 0;
    }
    if (stepped == 0 && why)
        counts_why(j, step, max, why, n);
    return marked;
}

cp_status gpu_search_fixed_check(const struct gpuhw_desc *g, const struct wl_desc *w,
                                 const struct gpu_search_spec *s, struct cp_error *err)
{
    struct gpu_layout t = s->options;
    t.tp = s->tp != GPU_SEARCH_FREE ? s->tp : 1;
    t.pp = s->pp != GPU_SEARCH_FREE ? s->pp : 1;
    t.mbs = s->mbs != GPU_SEARCH_FREE ? s->mbs : 1;
    t.dp = t.cp = t.vp = 1;
    t.precision = s->precision;
    t.recompute =
        s->recompute == GPU_SEARCH_ANY_RC ? GPU_RC_NONE : (enum gpu_recompute)s->recompute;
    t.recompute_layers = 0;
    return gpu_check(g, w, &t, err);
}

static cp_status refusal(const struct ctx *c, struct cp_error *err)
{
    const struct wl_desc *w = c->w;
    const struct gpu_search_result *r = c->r;
    const struct gpu_layout *l = &r->least_layout;
    char rc[64];
    if (r->divided == 0) {
        int fixed = c->s->tp != GPU_SEARCH_FREE || c->s->pp != GPU_SEARCH_FREE ||
                    c->s->mbs != GPU_SEARCH_FREE || c->s->cp != GPU_SEARCH_FREE ||
                    c->s->vp != GPU_SEARCH_FREE || c->s->fsdp != GPU_SEARCH_ANY_FSDP;
        return cp_fail(err, CP_EINPUT,
                       "no layout of %.0f GPUs divides the job: tp a divisor of the %.0f "
                       "heads and of the NVLink domain of %.0f, pp of the %.0f layers or of "
                       "%.0f (the uneven split), cp with 2 cp a divisor of the sequence%s, "
                       "dp = %.0f / (tp pp cp) of the global batch of %.0f sequences%s",
                       c->gpus, w->heads, c->g->net.nvlink_domain, w->layers, w->layers + 2,
                       c->s->allow_cp ? "" : " (not allowed: 1)", c->gpus, w->batch,
                       fixed ? " (with the fixed figures)" : "");
    }
    return cp_fail(err, CP_EINPUT,
                   "no layout of %.0f GPUs fits in memory: the least, tp %.0f pp %.0f cp %.0f "
                   "dp %.0f mbs %.0f vp %.0f with %s, needs %.4g bytes per GPU "
                   "against %.4g usable (HBM x hbm_usable), of %.0f layouts that divide",
                   c->gpus, l->tp, l->pp, l->cp, l->dp, l->mbs, l->vp,
                   gpu_recompute_text(l, rc, sizeof rc), r->least_mem, r->capacity, r->divided);
}

cp_status gpu_search_at(const struct gpu_search_job *j, double gpus, struct gpu_search_result *r,
                        struct cp_error *err)
{
    r->n = 0;
    r->divided = r->tried = r->evaluated = 0;
    r->least_mem = INFINITY;
    r->capacity = j->g->chip.hbm_bytes * j->g->fit.hbm_usable;
    r->least_layout = j->s.options;
    if (!whole(gpus))
        return cp_fail(err, CP_EINPUT, "gpus = %g is not a whole number from 1 to %g", gpus,
                       FIGURE_MAX);
    static const struct ctx zero;
    struct ctx c = zero;
    c.j = j;
    c.g = j->g;
    c.w = &j->w;
    c.s = &j->s;
    c.r = r;
    c.gpus = gpus;
    c.l = j->s.options;
    if ((c.n_n = divisors(gpus, c.div_n)) == 0)
        return cp_fail(err, CP_EINPUT, "gpus = %.0f has more than %d divisors: too many to search",
                       gpus, GPU_SEARCH_DIVISORS_MAX);
    c.l.precision = j->s.precision;
    gpu_layout_switches(&c.l, &j->w); /* the workload's software switches */
    search_all(&c);
    return r->n > 0 ? CP_OK : refusal(&c, err);
}

cp_status gpu_search(const struct gpuhw_desc *g, const struct wl_desc *w,
                     const struct gpu_search_spec *s, struct gpu_search_result *r,
                     struct cp_error *err)
{
    struct gpu_search_job j;
    if (gpu_search_job_init(g, w, s, &j, err) != CP_OK) {
        r->n = 0;
        r->divided = r->tried = r->evaluated = 0;
        r->least_mem = INFINITY;
        r->capacity = g->chip.hbm_bytes * g->fit.hbm_usable;
        r->least_layout = s->options;
        return CP_EINPUT;
    }
    return gpu_search_at(&j, s->gpus, r, err);
}
