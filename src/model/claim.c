/* claim.c - parse the claims file and judge each claim with the model. */
#include "claim.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "train.h"

const char *const claim_kind_name[CLAIM_NKINDS] = {"capacity", "weak_scaling", "speedup",
                                                   "sparsity_speedup", "time_to_train"};
const char *const claim_verdict_name[3] = {"holds", "conditional", "does not hold"};

/* ---- parsing ---- */

enum col {
    C_ID,
    C_CLAIM,
    C_SOURCE,
    C_KIND,
    C_MODEL,
    C_SYSTEM,
    C_SYSTEMS,
    C_MEMORYX,
    C_SPARSITY,
    C_TARGET,
    C_CONDITION,
    C_NCOLS
};
static const char *const col_name[C_NCOLS] = {"id",       "claim",  "source",   "kind",
                                              "model",    "system", "systems",  "memoryx",
                                              "sparsity", "target", "condition"};

/* Dimension of the target column per kind. */
static const unit_dim target_dim[CLAIM_NKINDS] = {UNIT_TIME, UNIT_FRACTION, UNIT_COUNT, UNIT_COUNT,
                                                  UNIT_TIME};

struct parse {
    const char *origin;
    struct claim_list *out;
    size_t cap;
    int line, col;
    char cell[C_NCOLS][CLAIM_TEXT_MAX];
    int truncated;
    cp_status st;
    struct cp_error *err;
};

static void on_field(void *data, size_t len, void *p_)
{
    struct parse *p = p_;
    if (p->col < C_NCOLS) {
        if (len >= CLAIM_TEXT_MAX)
            p->truncated = p->col + 1;
        snprintf(p->cell[p->col], CLAIM_TEXT_MAX, "%.*s", (int)len, (const char *)data);
    }
    p->col++;
}

static cp_status row_fail(struct parse *p, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cp_status row_fail(struct parse *p, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cp_fail(p->err, CP_EINPUT, "%s:%d: %s: %s", p->origin, p->line, col_name[col], msg);
}

static cp_status word(struct parse *p, int col, char *dst)
{
    if (strlen(p->cell[col]) >= CLAIM_WORD_MAX || p->cell[col][0] == '\0')
        return row_fail(p, col, "'%s' is empty or longer than %d characters", p->cell[col],
                        CLAIM_WORD_MAX - 1);
    snprintf(dst, CLAIM_WORD_MAX, "%s", p->cell[col]);
    return CP_OK;
}

static cp_status number(struct parse *p, int col, unit_dim d, double *v)
{
    char why[256];
    if (unit_parse(p->cell[col], d, v, why, sizeof why) != 0)
        return row_fail(p, col, "'%s': %s", p->cell[col], why);
    return CP_OK;
}

static cp_status header(struct parse *p)
{
    for (int c = 0; c < C_NCOLS; c++)
        if (strcmp(p->cell[c], col_name[c]) != 0)
            return row_fail(p, c, "header cell is '%s', expected '%s'", p->cell[c], col_name[c]);
    return CP_OK;
}

static cp_status record(struct parse *p)
{
    if (p->col != C_NCOLS) {
        char n[32];
        snprintf(n, sizeof n, "%d", p->col);
        return cp_fail(p->err, CP_EINPUT, "%s:%d: %s fields, expected %d", p->origin, p->line, n,
                       C_NCOLS);
    }
    if (p->truncated)
        return row_fail(p, p->truncated - 1, "longer than %d characters", CLAIM_TEXT_MAX - 1);
    if (p->line == 1)
        return header(p);
    struct claim c = {.line = p->line};
    cp_status st;
    int k;
    for (k = 0; k < CLAIM_NKINDS; k++)
        if (strcmp(p->cell[C_KIND], claim_kind_name[k]) == 0)
            break;
    if (k == CLAIM_NKINDS)
        return row_fail(p, C_KIND,
                        "'%s' is not a kind (capacity, weak_scaling, speedup, sparsity_speedup, "
                        "time_to_train)",
                        p->cell[C_KIND]);
    c.kind = (enum claim_kind)k;
    if ((st = word(p, C_ID, c.id)) || (st = word(p, C_SOURCE, c.source)) ||
        (st = word(p, C_MODEL, c.model)) || (st = word(p, C_SYSTEM, c.system)) ||
        (st = word(p, C_MEMORYX, c.memoryx)) ||
        (st = number(p, C_SYSTEMS, UNIT_COUNT, &c.systems)) ||
        (st = number(p, C_SPARSITY, UNIT_FRACTION, &c.sparsity)) ||
        (st = number(p, C_TARGET, target_dim[c.kind], &c.target)))
        return st;
    if (!(c.systems >= 1 && c.systems <= CLUSTER_MAX_SYSTEMS) || c.systems != floor(c.systems))
        return row_fail(p, C_SYSTEMS, "'%s' is not a whole number of systems from 1",
                        p->cell[C_SYSTEMS]);
    if (!(c.sparsity >= 0 && c.sparsity <= CLUSTER_MAX_SPARSITY))
        return row_fail(p, C_SPARSITY, "'%s' is outside 0..%g", p->cell[C_SPARSITY],
                        CLUSTER_MAX_SPARSITY);
    if (!(c.target > 0))
        return row_fail(p, C_TARGET, "'%s' must be positive", p->cell[C_TARGET]);
    snprintf(c.text, sizeof c.text, "%s", p->cell[C_CLAIM]);
    snprintf(c.condition, sizeof c.condition, "%s", p->cell[C_CONDITION]);
    if (p->out->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 8;
        p->out->items = xrealloc(p->out->items, p->cap * sizeof *p->out->items);
    }
    p->out->items[p->out->n++] = c;
    return CP_OK;
}

static void on_record(int term, void *p_)
{
    struct parse *p = p_;
    (void)term;
    p->line++;
    if (p->st == CP_OK)
        p->st = record(p);
    p->col = 0;
    p->truncated = 0;
    memset(p->cell, 0, sizeof p->cell);
}

cp_status claim_parse(const char *text, size_t len, const char *origin, struct claim_list *out,
                      struct cp_error *err)
{
    struct csv_parser csv;
    struct parse p = {.origin = origin, .out = out, .st = CP_OK, .err = err};
    *out = (struct claim_list){0};
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) { /* a UTF-8 byte-order mark */
        text += 3;
        len -= 3;
    }
    if (csv_init(&csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return cp_fail(err, CP_ENOMEM, "%s: cannot start the CSV parser", origin);
    if (csv_parse(&csv, text, len, on_field, on_record, &p) != len ||
        csv_fini(&csv, on_field, on_record, &p) != 0) {
        if (p.st == CP_OK)
            p.st = cp_fail(err, CP_EINPUT, "%s:%d: malformed CSV: %s", origin, p.line + 1,
                           csv_strerror(csv_error(&csv)));
    }
    csv_free(&csv);
    if (p.st == CP_OK && out->n == 0)
        p.st =
            cp_fail(err, CP_EINPUT, "%s: no claims (a header row and one row per claim)", origin);
    if (p.st != CP_OK)
        claim_list_free(out);
    return p.st;
}

void claim_list_free(struct claim_list *l)
{
    free(l->items);
    *l = (struct claim_list){0};
}

/* ---- judging ---- */

#define SEARCH_STEPS 40

static const char *dur(double s, char *buf, size_t n)
{
    if (s >= 2 * 86400)
        snprintf(buf, n, "%.3g d", s / 86400);
    else
        unit_format(s, UNIT_TIME, buf, n);
    return buf;
}

/* Why a configuration cannot train, with its numbers. */
static void infeasible_why(const struct cluster *c, const struct train_result *r, char *buf,
                           size_t n)
{
    char a[48], b[48];
    if (!r->memoryx_fits)
        snprintf(buf, n, "its state (%s) exceeds the %g MemoryX servers (%s)",
                 unit_format(r->state_bytes, UNIT_BYTES, a, sizeof a), r->step.mx_servers,
                 unit_format(r->memoryx_bytes, UNIT_BYTES, b, sizeof b));
    else if (!r->sram_fits)
        snprintf(buf, n, "one sequence needs %s of activations, more than the %s of SRAM",
                 unit_format(r->sram_per_seq, UNIT_BYTES, a, sizeof a),
                 unit_format(c->hw->wse.sram_bytes, UNIT_BYTES, b, sizeof b));
    else
        snprintf(buf, n, "the batch of %g sequences is smaller than %g systems", c->global_seqs,
                 c->systems);
}

/* Smallest sparsity in [lo, CLUSTER_MAX_SPARSITY] at which ok(c) holds
 * (ok is monotone in sparsity), or -1. */
static double search_sparsity(struct cluster c, double lo,
                              int (*ok)(const struct cluster *, double, double), double ref,
                              double target)
{
    double hi = CLUSTER_MAX_SPARSITY;
    c.sparsity = hi;
    if (!ok(&c, ref, target))
        return -1;
    for (int i = 0; i < SEARCH_STEPS; i++) {
        c.sparsity = 0.5 * (lo + hi);
        if (ok(&c, ref, target))
            hi = c.sparsity;
        else
            lo = c.sparsity;
    }
    return hi;
}

static int fast_enough(const struct cluster *c, double dense_tps, double speedup)
{
    struct train_result r;
    train_eval(c, &r);
    return r.tokens_per_s / dense_tps >= speedup;
}

static int in_time(const struct cluster *c, double unused, double limit)
{
    (void)unused;
    struct train_result r;
    train_eval(c, &r);
    return r.feasible && r.time_s <= limit;
}

static void judge_capacity(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result r;
    train_eval(c, &r);
    char a[48], b[48], t[48], why[256];
    o->predicted = r.state_bytes;
    unit_format(r.state_bytes, UNIT_BYTES, a, sizeof a);
    unit_format(r.memoryx_bytes, UNIT_BYTES, b, sizeof b);
    if (!r.memoryx_fits) {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "state %s (%.3g B/param) exceeds the %s tier", a,
                 r.bytes_per_param, b);
    } else if (!r.feasible) {
        o->verdict = CLAIM_CONDITIONAL;
        infeasible_why(c, &r, why, sizeof why);
        snprintf(o->reason, sizeof o->reason,
                 "holds for storage (%s of %s, %.0f%% on flash); training on %g system(s) is "
                 "infeasible: %s",
                 a, b, 100 * r.step.flash_fraction, c->systems, why);
    } else if (r.time_s > cl->target) {
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason,
                 "holds for storage (%s of %s, %.0f%% on flash); training on %g system(s) would "
                 "take %s, bottleneck %s",
                 a, b, 100 * r.step.flash_fraction, c->systems, dur(r.time_s, t, sizeof t),
                 step_res_name[r.step.bottleneck]);
    } else {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "stores %s of %s and trains in %s on %g systems", a,
                 b, dur(r.time_s, t, sizeof t), c->systems);
    }
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
    if (cl->kind == CLAIM_SPEEDUP) {
        o->predicted = speedup;
        double rel = (speedup - cl->target) / cl->target;
        o->verdict = fabs(rel) <= CLAIM_MEASURED_TOL ? CLAIM_HOLDS : CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason,
                 "model predicts %.3gx at %g systems (weak scaling), %+.1f%% from the measured "
                 "%.3gx%s; bottleneck %s",
                 speedup, c->systems, 100 * rel, cl->target,
                 rel > 0 ? ": the measurement loses time the model does not charge" : "",
                 step_res_name[n.step.bottleneck]);
        return;
    }
    double eff = speedup / c->systems;
    o->predicted = eff;
    unit_format(n.global_tokens, UNIT_COUNT, a, sizeof a);
    unit_format(n.critical_tokens, UNIT_COUNT, b, sizeof b);
    if (eff < cl->target) {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "weak-scaling efficiency %.1f%% at %g systems",
                 100 * eff, c->systems);
    } else if (!n.batch_ok) {
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason,
                 "throughput scales (%.1f%% efficiency, %.4gx at %g systems) but the global "
                 "batch of %s tokens exceeds the critical batch of %s: time-to-train improves "
                 "only %.3gx",
                 100 * eff, speedup, c->systems, a, b, tta);
    } else {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason,
                 "%.1f%% efficiency at %g systems; global batch %s within the critical %s",
                 100 * eff, c->systems, a, b);
    }
}

static void judge_sparsity(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct cluster dense = *c;
    dense.sparsity = 0;
    struct train_result d, s;
    train_eval(&dense, &d);
    train_eval(c, &s);
    double speedup = s.tokens_per_s / d.tokens_per_s;
    o->predicted = speedup;
    if (!s.feasible) {
        char why[256];
        infeasible_why(c, &s, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "infeasible on %g system(s): %s", c->systems, why);
        return;
    }
    double bound = 1 / hw_sparse_compute(&c->hw->sp, c->sparsity);
    if (speedup >= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%.3gx at %.0f%% sparsity", speedup,
                 100 * c->sparsity);
        return;
    }
    double need = search_sparsity(*c, c->sparsity, fast_enough, d.tokens_per_s, cl->target);
    if (need >= 0) {
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason,
                 "%.3gx at %.0f%% sparsity (compute bound 1/(density + overhead) = %.3gx; "
                 "bottleneck %s); %.3gx needs %.1f%% sparsity",
                 speedup, 100 * c->sparsity, bound, step_res_name[s.step.bottleneck], cl->target,
                 100 * need);
    } else {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason,
                 "%.3gx at %.0f%% sparsity (bound %.3gx; bottleneck %s); below %.3gx even at "
                 "%.0f%%",
                 speedup, 100 * c->sparsity, bound, step_res_name[s.step.bottleneck], cl->target,
                 100 * CLUSTER_MAX_SPARSITY);
    }
}

static void judge_time(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result r;
    train_eval(c, &r);
    o->predicted = r.time_s;
    char t[48], lim[48], why[256];
    dur(r.time_s, t, sizeof t);
    dur(cl->target, lim, sizeof lim);
    if (!r.feasible) {
        infeasible_why(c, &r, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "infeasible on %g systems: %s", c->systems, why);
    } else if (r.time_s <= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%s on %g systems (bottleneck %s)", t, c->systems,
                 step_res_name[r.step.bottleneck]);
    } else {
        double need = search_sparsity(*c, c->sparsity, in_time, 0, cl->target);
        o->verdict = need >= 0 ? CLAIM_CONDITIONAL : CLAIM_FAILS;
        if (need >= 0)
            snprintf(o->reason, sizeof o->reason,
                     "%s on %g systems at %.0f%% sparsity (bottleneck %s); within %s only at "
                     "%.1f%% sparsity or more",
                     t, c->systems, 100 * c->sparsity, step_res_name[r.step.bottleneck], lim,
                     100 * need);
        else {
            struct cluster best = *c;
            best.sparsity = CLUSTER_MAX_SPARSITY;
            struct train_result b;
            train_eval(&best, &b);
            snprintf(o->reason, sizeof o->reason,
                     "%s on %g systems (bottleneck %s); even at %.0f%% sparsity %s, more "
                     "than %s",
                     t, c->systems, step_res_name[r.step.bottleneck], 100 * CLUSTER_MAX_SPARSITY,
                     dur(b.time_s, why, sizeof why), lim);
        }
    }
}

void claim_eval(const struct claim *cl, const struct cluster *base, struct claim_result *r)
{
    struct cluster c = *base;
    c.systems = cl->systems;
    c.sparsity = cl->sparsity;
    *r = (struct claim_result){0};
    switch (cl->kind) {
    case CLAIM_CAPACITY:
        judge_capacity(cl, &c, r);
        break;
    case CLAIM_WEAK_SCALING:
    case CLAIM_SPEEDUP:
        judge_scaling(cl, &c, r);
        break;
    case CLAIM_SPARSITY_SPEEDUP:
        judge_sparsity(cl, &c, r);
        break;
    default:
        judge_time(cl, &c, r);
        break;
    }
}
