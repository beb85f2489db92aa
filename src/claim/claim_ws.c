/* claim_ws.c - the claims about weight-streaming clusters alone
 * (claim_ws.h), judged with the model and put in words.
 *
 * A capacity claim is judged twice: storage on the servers of the claim's
 * tier (state bytes against servers x server capacity), and training on
 * the claim's systems with the MemoryX servers the model sizes for the run;
 * when that is too slow, the reason says how many systems the target
 * would need.  The other kinds run the claim's configuration as given. */
#include "claim_ws.h"

#include <math.h>
#include <stdio.h>

#include "../desc/loss.h"
#include "../model/mx.h"
#include "../model/train.h"
#include "../model/ws_tm.h"

/* ---- judging ---- */

/* Sparsities are searched on a grid of 0.1 %: finer is not a claim's
 * figure (as plan.h's PLAN_SPARSITY_STEP). */
#define SPARSITY_STEP 0.001
#define DAY_S 86400.0
#define YEAR_S (365.25 * DAY_S) /* Julian year */

/* c trained on its own systems, through the training-model interface
 * (tm.h); t gets the kind's detail, the train_result the reasons quote.
 * The weight-streaming kind's eval does not fail. */
static void run(const struct cluster *c, struct train_result *t)
{
    const struct tm_job job = {.kind = &tm_ws, .own = c, .count = c->systems};
    struct tm_result r;
    struct cp_error err;
    (void)tm_eval(&job, 0, TM_STRONG, &r, t, &err);
}

static const char *dur(double s, char *buf, size_t n)
{
    if (s >= 2 * YEAR_S)
        snprintf(buf, n, "%.3g d (%.3g years)", s / DAY_S, s / YEAR_S);
    else if (s >= 2 * DAY_S)
        snprintf(buf, n, "%.3g d", s / DAY_S);
    else
        unit_format(s, UNIT_TIME, buf, n);
    return buf;
}

/* Why a configuration cannot train, with its numbers, after the name of
 * the verdict that fails (train_warn_names()). */
static void infeasible_why(const struct cluster *c, const struct train_result *r, char *buf,
                           size_t n)
{
    const struct step_result *st = &r->step;
    char a[48], b[48], p[32], w[32];
    unsigned bit = !r->memoryx_fits              ? TW_MEMORYX
                   : !r->sram_fits               ? TW_SRAM
                   : !r->act_fits                ? TW_ACT_STORE
                   : !isfinite(r->sparse_factor) ? TW_SPARSE_LOSS
                                                 : TW_SPLIT;
    train_warn_names(bit, w, sizeof w);
    if (bit == TW_SPARSE_LOSS) {
        char law[192];
        loss_unreachable_text(&c->wl->loss, wl_loss_source(c->wl, law, sizeof law), c->sparsity,
                              r->sparse_weights, c->tokens, buf, n);
        return;
    }
    if (bit == TW_MEMORYX)
        snprintf(buf, n, "%s: its state (%s) exceeds the %g MemoryX servers' %s (%g would hold it)",
                 w, unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), st->mx_servers,
                 unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b),
                 mx_servers_to_hold(&c->hw->mx, r->state_bytes));
    else if (bit == TW_SRAM)
        snprintf(buf, n, "%s: one sequence needs %s of SRAM (activations %s), more than the %s", w,
                 unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a),
                 step_act_label(st, p, sizeof p),
                 unit_format(c->hw->wse.sram_bytes, UNIT_BYTES, b, sizeof b));
    else if (bit == TW_ACT_STORE)
        snprintf(buf, n,
                 "%s: one sequence's checkpoints (%s) exceed the %g activation server%s per "
                 "system (%s)",
                 w, unit_format(st->ckpt_per_seq, UNIT_BYTES, a, sizeof a), st->act_servers,
                 st->act_servers == 1 ? "" : "s",
                 unit_format(st->act_servers * c->hw->act.server_bytes, UNIT_BYTES, b, sizeof b));
    else
        snprintf(buf, n, "%s: the batch of %g sequences is smaller than %g systems", w,
                 c->global_seqs, c->systems);
}

/* "2400 MemoryX servers (the 2.4PB tier; sized: 19)" for the servers r ran
 * on: the claim's tier, or sized for the run when the claim says auto. */
static void mx_text(const struct claim *cl, const struct cluster *c, const struct train_result *r,
                    char *buf, size_t n)
{
    if (!(c->mx_servers > 0)) {
        snprintf(buf, n, "%g MemoryX servers (sized)", r->step.mx_servers);
        return;
    }
    struct cluster sized = *c;
    sized.mx_servers = 0;
    struct step_result st;
    step_eval(&sized, &st);
    snprintf(buf, n, "%g MemoryX servers (the %s tier; sized: %g)", r->step.mx_servers, cl->memoryx,
             st.mx_servers);
}

/* c on n systems at c's global batch, with MemoryX sized for the run. */
static void train_sized(const struct cluster *c, double n, struct train_result *r)
{
    struct cluster s = *c;
    s.systems = n;
    s.mx_servers = 0;
    run(&s, r);
}

static int sized_in_time(const struct cluster *c, double n, double limit_s)
{
    struct train_result r;
    train_sized(c, n, &r);
    return r.feasible && r.time_s <= limit_s;
}

/* Fewest systems from c->systems, at c's global batch and with MemoryX
 * sized, that train within limit_s (sizes doubled, then bisected), or -1
 * when none up to one sequence per system or the generation's max_systems.
 * *best_n and *best_s: the fastest feasible size of the doubling (0 if none). */
static double fewest_systems(const struct cluster *c, double limit_s, double *best_n,
                             double *best_s)
{
    /* beyond the generation's largest cluster nothing is feasible */
    double top = fmax(c->systems, fmin(c->global_seqs, c->hw->wse.max_systems));
    double lo = c->systems, n = c->systems;
    *best_n = *best_s = 0;
    for (;;) {
        struct train_result r;
        train_sized(c, n, &r);
        if (r.feasible && (*best_n == 0 || r.time_s < *best_s)) {
            *best_n = n;
            *best_s = r.time_s;
        }
        if (r.feasible && r.time_s <= limit_s)
            break;
        if (n >= top)
            return -1;
        lo = n;
        n = fmin(top, 2 * n);
    }
    while (n - lo > 1) {
        double mid = floor(0.5 * (lo + n));
        if (sized_in_time(c, mid, limit_s))
            n = mid;
        else
            lo = mid;
    }
    return n;
}

/* What a cluster needs to train c within limit_s, for the reason: the
 * fewest systems that make it, or the fastest size at c's batch, and the
 * time on the generation's largest cluster when that does not make it. */
static void needed_text(const struct cluster *c, double limit_s, char *buf, size_t n)
{
    char t[64], lim[48], at_max[128] = "";
    double best_n, best_s, need = fewest_systems(c, limit_s, &best_n, &best_s);
    double max_n = c->hw->wse.max_systems;
    dur(limit_s, lim, sizeof lim);
    if ((need < 0 || need > max_n) && c->systems < max_n && max_n <= c->global_seqs) {
        struct train_result r;
        train_sized(c, max_n, &r);
        if (r.feasible)
            snprintf(at_max, sizeof at_max, "on the generation's largest cluster (%g) %s; ", max_n,
                     dur(r.time_s, t, sizeof t));
    }
    if (need > 0)
        snprintf(buf, n,
                 "%swithin %s it needs %g systems with MemoryX sized (the generation's largest "
                 "cluster has %g)",
                 at_max, lim, need, max_n);
    else if (best_n > 0)
        snprintf(buf, n,
                 "%sno cluster at its batch of %g sequences trains it within %s: the fastest, "
                 "%g systems, takes %s",
                 at_max, c->global_seqs, lim, best_n, dur(best_s, t, sizeof t));
    else
        snprintf(buf, n, "%sno cluster at its batch of %g sequences can train it", at_max,
                 c->global_seqs);
}

/* "state 2.163 PB (18 B/param) on 2400 MemoryX servers (the 2.4PB tier;
 * sized: 2163) holding 2.4 PB, DRAM only (no flash planned)" */
static void storage_text(const struct claim *cl, const struct cluster *c,
                         const struct train_result *r, char *buf, size_t n)
{
    char a[48], b[48], m[128], f[48];
    mx_text(cl, c, r, m, sizeof m);
    if (c->hw->mx.server_flash_bytes > 0)
        snprintf(f, sizeof f, "%.0f%% of it on flash", 100 * r->step.flash_fraction);
    else
        snprintf(f, sizeof f, "DRAM only (no flash planned)");
    snprintf(buf, n, "state %s (%.3g B/param) on %s holding %s, %s",
             unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), r->bytes_per_param, m,
             unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b), f);
}

/* "; at 3e+11 tokens 354 d, within the target" when c's tokens are not
 * CLAIM_REF_TOKENS, else "". */
static void ref_tokens_text(const struct claim *cl, const struct cluster *c, char *buf, size_t n)
{
    buf[0] = '\0';
    if (c->tokens == CLAIM_REF_TOKENS)
        return;
    struct cluster b = *c;
    b.tokens = CLAIM_REF_TOKENS;
    struct train_result r;
    train_sized(&b, b.systems, &r);
    char tok[48], t[64];
    snprintf(buf, n, "; at %s tokens %s, %s the target",
             unit_format(CLAIM_REF_TOKENS, UNIT_COUNT, tok, sizeof tok), dur(r.time_s, t, sizeof t),
             r.time_s <= cl->target ? "within" : "over");
}

/* "; 2 sequences per system, 4096 tokens per micro-batch below the
 * stream-balance point of 54662" when the weight stream outruns compute. */
static void balance_text(const struct train_result *r, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!r->stream_balanced)
        snprintf(buf, n,
                 "; %g sequences per system, %.4g tokens per micro-batch below the "
                 "stream-balance point of %.4g",
                 r->step.local_seqs, r->step.micro_tokens, r->balance_tokens);
}

/* Training of a capacity claim: on its systems with MemoryX sized, at the
 * model's tokens and at CLAIM_REF_TOKENS, and the cluster the target needs. */
static void capacity_training(const struct claim *cl, const struct cluster *c,
                              struct claim_result *o, char *buf, size_t n)
{
    struct train_result r;
    train_sized(c, c->systems, &r);
    char tok[48], t[64], lim[48], why[320], ref[128], bal[160];
    const char *pl = c->systems == 1 ? "" : "s";
    unit_format(r.tokens, UNIT_COUNT, tok, sizeof tok);
    dur(cl->target, lim, sizeof lim);
    o->verdict = CLAIM_CONDITIONAL;
    if (!r.feasible) {
        infeasible_why(c, &r, why, sizeof why);
        snprintf(buf, n, "training on %g system%s with MemoryX sized is infeasible: %s", c->systems,
                 pl, why);
        return;
    }
    ref_tokens_text(cl, c, ref, sizeof ref);
    balance_text(&r, bal, sizeof bal);
    if (r.time_s <= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(buf, n,
                 "training %s tokens on %g system%s with the %g MemoryX servers the model "
                 "sizes is feasible and takes %s, within the %s target, bottleneck %s%s",
                 tok, c->systems, pl, r.step.mx_servers, dur(r.time_s, t, sizeof t), lim,
                 step_res_name[r.step.bottleneck], ref);
        return;
    }
    needed_text(c, cl->target, why, sizeof why);
    /* A reason longer than buf is cut short, which is acceptable. */
    if (snprintf(buf, n,
                 "training %s tokens on %g system%s with the %g MemoryX servers the model sizes is "
                 "feasible and takes %s, %.3g times the %s target, bottleneck %s%s%s; %s",
                 tok, c->systems, pl, r.step.mx_servers, dur(r.time_s, t, sizeof t),
                 r.time_s / cl->target, lim, step_res_name[r.step.bottleneck], bal, ref, why) < 0)
        buf[0] = '\0';
}

/* Smallest sparsity above lo, on the grid of SPARSITY_STEP up to
 * CLUSTER_MAX_SPARSITY, at which ok(c) holds, or -1.  A scan, not a
 * bisection: at equal quality the time falls and then rises with the
 * sparsity (desc/loss.h), so ok need not be monotone. */
static double search_sparsity(struct cluster c, double lo,
                              int (*ok)(const struct cluster *, double, double), double ref,
                              double target)
{
    for (double k = floor(lo / SPARSITY_STEP) + 1; k <= CLUSTER_MAX_SPARSITY / SPARSITY_STEP + 1e-9;
         k++) {
        c.sparsity = k * SPARSITY_STEP;
        if (ok(&c, ref, target))
            return c.sparsity;
    }
    return -1;
}

/* The sparsity on the grid of SPARSITY_STEP (0 included) at which c
 * trains fastest at equal quality, feasible, with its result in *best
 * (c dense when none is feasible). */
static double fastest_sparsity(struct cluster c, struct train_result *best)
{
    double at = 0;
    c.sparsity = 0;
    run(&c, best);
    for (double k = 1; k <= CLUSTER_MAX_SPARSITY / SPARSITY_STEP + 1e-9; k++) {
        struct train_result r;
        c.sparsity = k * SPARSITY_STEP;
        run(&c, &r);
        if (r.feasible && (!best->feasible || r.time_s < best->time_s))
            *best = r, at = c.sparsity;
    }
    return at;
}

/* At equal quality: c trains in at most dense_s / speedup. */
static int fast_enough(const struct cluster *c, double dense_s, double speedup)
{
    struct train_result r;
    run(c, &r);
    return r.feasible && dense_s / r.time_s >= speedup;
}

static int in_time(const struct cluster *c, double unused, double limit)
{
    (void)unused;
    struct train_result r;
    run(c, &r);
    return r.feasible && r.time_s <= limit;
}

/* Storage on the claim's tier; training on its systems with MemoryX sized
 * for the run (what a planner would build around that many systems). */
static void judge_capacity(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result r;
    run(c, &r);
    char st[400], tr[600];
    o->predicted = r.state_bytes;
    storage_text(cl, c, &r, st, sizeof st);
    if (!r.memoryx_fits) {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "storage fails: %s; %g servers would hold it", st,
                 mx_servers_to_hold(&c->hw->mx, r.state_bytes));
        return;
    }
    capacity_training(cl, c, o, tr, sizeof tr);
    snprintf(o->reason, sizeof o->reason, "storage holds: %s; %s", st, tr);
}

static void judge_scaling(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result one, n, one_p, n_p;
    train_at(c, 1, SCALE_WEAK, &one);
    train_at(c, c->systems, SCALE_WEAK, &n);
    struct cluster pen = *c;
    pen.batch_penalty = 1;
    train_at(&pen, 1, SCALE_WEAK, &one_p);
    train_at(&pen, c->systems, SCALE_WEAK, &n_p);
    double speedup = n.tokens_per_s / one.tokens_per_s, tta = one_p.time_s / n_p.time_s;
    char a[48], b[48], why[256];
    if (!n.feasible) {
        infeasible_why(c, &n, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        o->predicted = speedup;
        snprintf(o->reason, sizeof o->reason, "infeasible at %g systems: %s", c->systems, why);
        return;
    }
    char x[32], e[32];
    claim_format_speedup(speedup, x, sizeof x);
    if (cl->kind == CLAIM_SPEEDUP) {
        o->predicted = speedup;
        double rel = (speedup - cl->target) / cl->target;
        o->verdict = fabs(rel) <= CLAIM_MEASURED_TOL ? CLAIM_HOLDS : CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason,
                 "model predicts %s at %g systems (weak scaling), %+.1f%% from the measured "
                 "%.3gx%s; bottleneck %s",
                 x, c->systems, 100 * rel, cl->target,
                 rel > 0 ? ": the measurement loses time the model does not charge" : "",
                 step_res_name[n.step.bottleneck]);
        return;
    }
    double eff = speedup / c->systems;
    o->predicted = eff;
    claim_format_percent(eff, e, sizeof e);
    unit_format(n.global_tokens, UNIT_COUNT, a, sizeof a);
    unit_format(n.critical_tokens, UNIT_COUNT, b, sizeof b);
    if (eff < cl->target) {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "weak-scaling efficiency %s at %g systems", e,
                 c->systems);
    } else if (!n.batch_ok) {
        char t[32];
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason,
                 "throughput scales (%s efficiency, %s at %g systems) but the global "
                 "batch of %s tokens exceeds the critical batch of %s: time-to-train improves "
                 "only %s",
                 e, x, c->systems, a, b, claim_format_speedup(tta, t, sizeof t));
    } else {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason,
                 "%s efficiency at %g systems; global batch %s within the critical %s", e,
                 c->systems, a, b);
    }
}

/* A sparsity claim on the equal-quality basis (desc/loss.h): the sparse
 * run trains m(S) x the tokens to reach the dense loss, and the speedup
 * is the dense time over that run's; the per-token speedup stands beside
 * it.  Holds when the equal-quality speedup reaches the target, holds
 * under a condition when another sparsity would, else fails with the best
 * any sparsity gives. */
static void judge_sparsity(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct cluster dense = *c;
    dense.sparsity = 0;
    struct train_result d, s, b;
    run(&dense, &d);
    run(c, &s);
    double per_token = s.tokens_per_s / d.tokens_per_s;
    double bound = 1 / hw_sparse_compute(&c->hw->sp, c->sparsity);
    char x[32], bx[32], q[32], law[192], side[600];
    claim_format_speedup(per_token, x, sizeof x);
    claim_format_speedup(bound, bx, sizeof bx);
    wl_loss_source(c->wl, law, sizeof law);
    o->predicted = s.feasible ? d.time_s / s.time_s : 0;
    if (!s.feasible) {
        char why[400];
        infeasible_why(c, &s, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason,
                 "per token %s at %.0f%% sparsity; at equal quality %s", x, 100 * c->sparsity, why);
        return;
    }
    claim_format_speedup(o->predicted, q, sizeof q);
    snprintf(side, sizeof side,
             "at %.0f%% sparsity: per token %s (compute bound 1/(density + overhead) = %s; "
             "bottleneck %s), at equal quality %s (%.3g x the tokens, loss law %s)",
             100 * c->sparsity, x, bx, step_res_name[s.step.bottleneck], q, s.sparse_factor, law);
    if (o->predicted >= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%s", side);
        return;
    }
    double need = search_sparsity(*c, 0, fast_enough, d.time_s, cl->target);
    if (need >= 0) {
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason, "%s; %.3gx at equal quality needs %.1f%% sparsity",
                 side, cl->target, 100 * need);
        return;
    }
    double at = fastest_sparsity(*c, &b);
    o->verdict = CLAIM_FAILS;
    claim_format_speedup(d.time_s / b.time_s, q, sizeof q);
    snprintf(o->reason, sizeof o->reason,
             "%s; the best at equal quality is %s, at %.1f%% sparsity: below %.3gx at any "
             "sparsity (an extrapolation of the loss law far beyond its fit)",
             side, q, 100 * at, cl->target);
}

/* Time-to-train on the claim's configuration as given, through the
 * training-model interface (tm.h): the time is the interface's, the
 * reason's details the kind's (its detail, the train_result). */
static cp_status judge_time(const struct claim *cl, const struct cluster *c, struct claim_result *o,
                            struct cp_error *err)
{
    struct train_result r;
    struct tm_result tr;
    const struct tm_job job = {.kind = &tm_ws, .own = c, .count = c->systems};
    if (tm_eval(&job, 0, TM_STRONG, &tr, &r, err) != CP_OK)
        return CP_EINPUT;
    o->predicted = tr.time_s;
    char t[64], lim[48], why[320], mx[128];
    dur(tr.time_s, t, sizeof t);
    dur(cl->target, lim, sizeof lim);
    mx_text(cl, c, &r, mx, sizeof mx);
    if (!r.feasible) {
        infeasible_why(c, &r, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "infeasible on %g systems and %s: %s", c->systems, mx,
                 why);
        return CP_OK;
    }
    if (tr.time_s <= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%s on %g systems and %s, bottleneck %s", t,
                 c->systems, mx, step_res_name[r.step.bottleneck]);
        return CP_OK;
    }
    double need = search_sparsity(*c, c->sparsity, in_time, 0, cl->target);
    o->verdict = need >= 0 ? CLAIM_CONDITIONAL : CLAIM_FAILS;
    if (need >= 0) {
        snprintf(o->reason, sizeof o->reason,
                 "%s on %g systems and %s at %.0f%% sparsity, bottleneck %s; within %s only at "
                 "%.1f%% sparsity or more",
                 t, c->systems, mx, 100 * c->sparsity, step_res_name[r.step.bottleneck], lim,
                 100 * need);
        return CP_OK;
    }
    struct train_result b;
    double at = fastest_sparsity(*c, &b);
    snprintf(o->reason, sizeof o->reason,
             "%s on %g systems and %s, bottleneck %s; at equal quality the fastest sparsity, "
             "%.1f%%, takes %s, more than %s",
             t, c->systems, mx, step_res_name[r.step.bottleneck], 100 * at,
             dur(b.time_s, why, sizeof why), lim);
    return CP_OK;
}

/* The claim's job with its systems and sparsity. */
static struct cluster job_of(const struct claim_in *in)
{
    struct cluster c = *in->ws;
    c.systems = in->cl->systems;
    c.sparsity = in->cl->sparsity;
    return c;
}

cp_status claim_ws_capacity(const struct claim_in *in, struct claim_result *r, struct cp_error *err)
{
    (void)err;
    struct cluster c = job_of(in);
    judge_capacity(in->cl, &c, r);
    return CP_OK;
}

cp_status claim_ws_scaling(const struct claim_in *in, struct claim_result *r, struct cp_error *err)
{
    (void)err;
    struct cluster c = job_of(in);
    judge_scaling(in->cl, &c, r);
    return CP_OK;
}

cp_status claim_ws_sparsity(const struct claim_in *in, struct claim_result *r, struct cp_error *err)
{
    (void)err;
    struct cluster c = job_of(in);
    judge_sparsity(in->cl, &c, r);
    return CP_OK;
}

cp_status claim_ws_time(const struct claim_in *in, struct claim_result *r, struct cp_error *err)
{
    struct cluster c = job_of(in);
    return judge_time(in->cl, &c, r, err);
}
