/* claim.c - parse the claims file and judge each claim with the model.
 *
 * A capacity claim is judged twice: storage on the servers of the claim's
 * tier (state bytes against servers x server capacity), and training on
 * the claim's systems with the MemoryX servers the model sizes for the run;
 * when that is too slow, the reason says how many systems the target
 * would need.  The other kinds run the claim's configuration as given. */
#include "claim.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "../desc/desc.h"
#include "mx.h"
#include "train.h"

const char *const claim_kind_name[CLAIM_NKINDS] = {"capacity", "weak_scaling", "speedup",
                                                   "sparsity_speedup", "time_to_train"};
const char *const claim_verdict_name[3] = {"holds", "conditional", "does not hold"};
const char *const claim_verdict_text[3] = {"holds", "holds only under stated conditions",
                                           "does not hold"};

char *claim_format_speedup(double x, char *buf, size_t n)
{
    if (fabs(x) < 99.95)
        snprintf(buf, n, "%#.3gx", x); /* '#' keeps the zeros of "6.70" */
    else if (fabs(x) < 1e4)
        snprintf(buf, n, "%.0fx", x);
    else
        snprintf(buf, n, "%.3gx", x);
    return buf;
}

char *claim_format_percent(double f, char *buf, size_t n)
{
    snprintf(buf, n, "%.1f%%", 100 * f);
    return buf;
}

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
        return row_fail(p, col, "'%s' is empty or longer than %d bytes", p->cell[col],
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
        return row_fail(p, p->truncated - 1, "longer than %d bytes", CLAIM_TEXT_MAX - 1);
    char why[160];
    for (int col = 0; col < C_NCOLS; col++) /* every cell may be printed */
        if (desc_text_check(p->cell[col], why, sizeof why) != 0)
            return row_fail(p, col, "%s", why);
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
    if (c.systems > CLUSTER_MAX_SYSTEMS)
        return row_fail(p, C_SYSTEMS, "'%s' is more than %g systems, the largest cluster modelled",
                        p->cell[C_SYSTEMS], CLUSTER_MAX_SYSTEMS);
    if (!(c.systems >= 1) || c.systems != floor(c.systems))
        return row_fail(p, C_SYSTEMS, "'%s' is not a whole number of systems from 1 to %g",
                        p->cell[C_SYSTEMS], CLUSTER_MAX_SYSTEMS);
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

/* Where libcsv stopped: the line and column (in bytes, from 1) of byte
 * text[at], the claims column its field is in, and whether that field
 * opened with a quote. */
struct csv_where {
    int line, col, field, quoted;
    size_t open; /* offset of the quote that opened the last quoted field */
};

static struct csv_where csv_locate(const char *text, size_t at)
{
    struct csv_where w = {.line = 1, .col = 1};
    int in = 0, start = 1;
    for (size_t i = 0; i < at; i++) {
        char b = text[i];
        int eol = b == '\n' || (b == '\r' && text[i + 1] != '\n');
        w.line += eol;
        w.col = eol ? 1 : w.col + 1;
        if (in) {
            if (b == '"' && i + 1 < at && text[i + 1] == '"')
                i++, w.col++; /* "" inside a quoted field */
            else if (b == '"')
                in = 0;
        } else if (b == ',' || b == '\n' || b == '\r') {
            w.field = b == ',' ? w.field + 1 : 0;
            w.quoted = 0;
            start = 1;
        } else {
            if (start && b == '"')
                in = w.quoted = 1, w.open = i;
            start = 0;
        }
    }
    return w;
}

/* The message for a CSV libcsv refused: at byte text[at] (a quote in an
 * unquoted field, a byte after a closing quote), or, when at is len, a
 * quoted field never closed, placed at its opening quote. */
static cp_status csv_fail(struct parse *p, const char *text, size_t at, size_t len, int e)
{
    struct csv_where w = csv_locate(text, at);
    if (at == len) /* a quote never closed: point at it */
        w = csv_locate(text, w.open);
    const char *name = w.field < C_NCOLS ? col_name[w.field] : "a field past the last column";
    if (e == CSV_ENOMEM)
        return cp_fail(p->err, CP_ENOMEM, "%s: out of memory reading CSV", p->origin);
    if (e == CSV_ETOOBIG)
        return cp_fail(p->err, CP_EINPUT, "%s:%d:%d: %s: field too large", p->origin, w.line, w.col,
                       name);
    if (at == len)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: the quote that opens this field is never "
                       "closed",
                       p->origin, w.line, w.col, name);
    if (w.quoted)
        return cp_fail(p->err, CP_EINPUT,
                       "%s:%d:%d: %s: malformed CSV: unexpected '%c' after a closing quote (a "
                       "quoted field ends with a quote followed by ',' or the end of the line)",
                       p->origin, w.line, w.col, name, text[at]);
    return cp_fail(p->err, CP_EINPUT,
                   "%s:%d:%d: %s: malformed CSV: a double quote inside an unquoted field (quote "
                   "the whole field and double the quotes inside it)",
                   p->origin, w.line, w.col, name);
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
    size_t done = csv_parse(&csv, text, len, on_field, on_record, &p);
    if (done != len && p.st == CP_OK)
        p.st = csv_fail(&p, text, done, len, csv_error(&csv));
    else if (done == len && csv_fini(&csv, on_field, on_record, &p) != 0 && p.st == CP_OK)
        p.st = csv_fail(&p, text, len, len, csv_error(&csv));
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
#define DAY_S 86400.0
#define YEAR_S (365.25 * DAY_S) /* Julian year */

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
    unsigned bit = !r->memoryx_fits ? TW_MEMORYX
                   : !r->sram_fits  ? TW_SRAM
                   : !r->act_fits   ? TW_ACT_STORE
                                    : TW_SPLIT;
    train_warn_names(bit, w, sizeof w);
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
    train_eval(&s, r);
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

/* Storage on the claim's tier; training on its systems with MemoryX sized
 * for the run (what a planner would build around that many systems). */
static void judge_capacity(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result r;
    train_eval(c, &r);
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
        snprintf(o->reason, sizeof o->reason, "infeasible on %g system%s: %s", c->systems,
                 c->systems == 1 ? "" : "s", why);
        return;
    }
    double bound = 1 / hw_sparse_compute(&c->hw->sp, c->sparsity);
    char x[32], bx[32];
    claim_format_speedup(speedup, x, sizeof x);
    claim_format_speedup(bound, bx, sizeof bx);
    if (speedup >= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%s at %.0f%% sparsity", x, 100 * c->sparsity);
        return;
    }
    double need = search_sparsity(*c, c->sparsity, fast_enough, d.tokens_per_s, cl->target);
    if (need >= 0) {
        o->verdict = CLAIM_CONDITIONAL;
        snprintf(o->reason, sizeof o->reason,
                 "%s at %.0f%% sparsity (compute bound 1/(density + overhead) = %s; "
                 "bottleneck %s); %.3gx needs %.1f%% sparsity",
                 x, 100 * c->sparsity, bx, step_res_name[s.step.bottleneck], cl->target,
                 100 * need);
    } else {
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason,
                 "%s at %.0f%% sparsity (bound %s; bottleneck %s); below %.3gx even at "
                 "%.0f%%",
                 x, 100 * c->sparsity, bx, step_res_name[s.step.bottleneck], cl->target,
                 100 * CLUSTER_MAX_SPARSITY);
    }
}

/* Time-to-train on the claim's configuration as given. */
static void judge_time(const struct claim *cl, const struct cluster *c, struct claim_result *o)
{
    struct train_result r;
    train_eval(c, &r);
    o->predicted = r.time_s;
    char t[64], lim[48], why[320], mx[128];
    dur(r.time_s, t, sizeof t);
    dur(cl->target, lim, sizeof lim);
    mx_text(cl, c, &r, mx, sizeof mx);
    if (!r.feasible) {
        infeasible_why(c, &r, why, sizeof why);
        o->verdict = CLAIM_FAILS;
        snprintf(o->reason, sizeof o->reason, "infeasible on %g systems and %s: %s", c->systems, mx,
                 why);
        return;
    }
    if (r.time_s <= cl->target) {
        o->verdict = CLAIM_HOLDS;
        snprintf(o->reason, sizeof o->reason, "%s on %g systems and %s, bottleneck %s", t,
                 c->systems, mx, step_res_name[r.step.bottleneck]);
        return;
    }
    double need = search_sparsity(*c, c->sparsity, in_time, 0, cl->target);
    o->verdict = need >= 0 ? CLAIM_CONDITIONAL : CLAIM_FAILS;
    if (need >= 0) {
        snprintf(o->reason, sizeof o->reason,
                 "%s on %g systems and %s at %.0f%% sparsity, bottleneck %s; within %s only at "
                 "%.1f%% sparsity or more",
                 t, c->systems, mx, 100 * c->sparsity, step_res_name[r.step.bottleneck], lim,
                 100 * need);
        return;
    }
    struct cluster best = *c;
    best.sparsity = CLUSTER_MAX_SPARSITY;
    struct train_result b;
    train_eval(&best, &b);
    snprintf(o->reason, sizeof o->reason,
             "%s on %g systems and %s, bottleneck %s; even at %.0f%% sparsity %s, more than %s", t,
             c->systems, mx, step_res_name[r.step.bottleneck], 100 * CLUSTER_MAX_SPARSITY,
             dur(b.time_s, why, sizeof why), lim);
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
