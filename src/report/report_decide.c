/* report_decide.c - the report's decision (report_decide.h). */
#include "report_decide.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/xalloc.h"
#include "../face/unc_opt.h"
#include "../plan/sens.h"
#include "report_unc.h"

/* The keys named: the three the answer depends on most. */
#define DECIDE_KEYS 3

/* One key of the ranking: its side, its row, where its value comes from. */
struct decide_key {
    int side;
    struct sens_row row;
    char name[96], value[96], origin[256];
};

struct report_decide_res {
    struct cmp_spec spec;
    struct cmp_result r;
    struct cmp_bands b;
    struct unc_opt u;
    struct cmp_jobs j;
    int has[2];                  /* the side has an answer that runs      */
    struct tm_result tr[2];      /* each side's answer, as its kind has it */
    char what[2][512];           /* its kind's words for it               */
    struct decide_key key[DECIDE_KEYS];
    size_t nkeys;
};

int report_decide_opts(const struct cli_opts *o, struct report_cmp *x)
{
    const struct {
        int given;
        const char *flag;
    } no[] = {{o->energy != NULL, "--energy"},   {o->budget != NULL, "--budget"},
              {o->allow_sparsity, "--allow-sparsity"}, {o->allow_batch, "--allow-batch"},
              {o->verbose, "--verbose"}};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (no[i].given)
            return cli_error("report: %s does not apply (the decision meets a --deadline, as "
                             "compare does)",
                             no[i].flag);
    x->deadline_s = 0;
    x->confidence = 0;
    char why[256];
    if (o->deadline) {
        if (unit_parse(o->deadline, UNIT_TIME, &x->deadline_s, why, sizeof why) != 0)
            return cli_error("--deadline '%s': %s", o->deadline, why);
        if (!(x->deadline_s > 0 && isfinite(x->deadline_s)))
            return cli_error("--deadline '%s': must be greater than zero", o->deadline);
    }
    struct unc_opt u;
    int rc = unc_opt_parse_plan(o, &u);
    if (rc >= 0)
        return rc;
    if (u.confidence > 0 && !o->deadline)
        return cli_error("report: --confidence needs --deadline (without it the systems are "
                         "the report's N)");
    x->confidence = u.confidence;
    return -1;
}

/* ---- where a key's value comes from ---- */

/* Whether the line at p (up to its newline) is blank, a comment, a
 * section or a key. */
enum line_kind { LINE_BLANK, LINE_COMMENT, LINE_SECTION, LINE_KEY };

static enum line_kind kind_of(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\n' || *p == '\r' || *p == '\0')
        return LINE_BLANK;
    return *p == '#' || *p == ';' ? LINE_COMMENT : *p == '[' ? LINE_SECTION : LINE_KEY;
}

/* The start of the line before the one starting at p (NULL at the top). */
static const char *line_before(const char *text, const char *p)
{
    if (p == text)
        return NULL;
    const char *q = p - 1; /* the previous line's newline */
    while (q > text && q[-1] != '\n')
        q--;
    return q;
}

/* The word a description's comment block opens with, or the first of
 * "fitted" and "assumed" it holds, else "published": the comment lines
 * right above line (1-based) of text, past the key lines that share
 * them. */
static const char *class_of(const char *text, int line)
{
    const char *p = text;
    for (int i = 1; i < line && p; i++)
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    if (!p)
        return "published";
    const char *top = NULL;
    int in_block = 0;
    for (const char *q = line_before(text, p); q; q = line_before(text, q)) {
        enum line_kind k = kind_of(q);
        if (k == LINE_COMMENT)
            top = q, in_block = 1;
        else if (k != LINE_KEY || in_block)
            break;
    }
    if (!top)
        return "published";
    while (*top == ' ' || *top == '\t' || *top == '#')
        top++;
    static const char *const word[] = {"fitted", "assumed", "derived", "counted"};
    for (size_t i = 0; i < sizeof word / sizeof word[0]; i++)
        if (strncasecmp(top, word[i], strlen(word[i])) == 0)
            return word[i];
    size_t len = (size_t)(p - top);
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k + strlen(word[i]) <= len; k++)
            if (strncasecmp(top + k, word[i], strlen(word[i])) == 0)
                return word[i];
    return "published";
}

/* "fitted (h100.ini line 92)", "given with --set", "the default": where
 * key (schema index) of the description named name (its overlays in src)
 * comes from, into buf. */
static void origin_of(const struct cli_opts *o, const char *name, const struct desc_src *src,
                      int key, char *buf, size_t n)
{
    int line = src->line[key];
    if (line < 0) {
        snprintf(buf, n, "given with --set");
        return;
    }
    if (line == 0) {
        snprintf(buf, n, "the schema's default (cerebras-plan(5))");
        return;
    }
    struct cat_entry e;
    struct cp_error err = {0};
    const char *file = src->origin;
    cp_status st;
    if (src->in_overlay[key] > 0) {
        file = desc_overlay_name(src, src->in_overlay[key] - 1);
        st = cat_read_file(file, &e, &err);
    } else {
        st = cat_resolve(&o->dirs, name, CAT_HW, &e, &err);
    }
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    snprintf(buf, n, "%s (%.160s line %d)", st == CP_OK ? class_of(e.text, line) : "unread", base,
             line);
    if (st == CP_OK)
        cat_entry_free(&e);
}

/* ---- running it ---- */

static int by_elasticity(const void *a, const void *b)
{
    const struct decide_key *x = a, *y = b;
    double ex = fabs(x->row.elasticity), ey = fabs(y->row.elasticity);
    return ex < ey ? 1 : ex > ey ? -1 : 0;
}

/* Side k's answer evaluated and described through its kind, and its
 * sensitivity rows (ranked ones only) appended to all (*n of them). */
static cp_status side_eval(struct report_decide_res *d, int k, const struct desc_src *src,
                           struct decide_key *all, size_t *n, struct cp_error *err)
{
    const struct tm_job *j = &d->j.side[k];
    const struct tm_kind *kind = j->kind;
    void *detail = xmalloc(kind->detail_size);
    memset(detail, 0, kind->detail_size);
    cp_status st = tm_eval(j, 0, TM_STRONG, &d->tr[k], detail, err);
    if (st == CP_OK)
        kind->describe(j->own, NULL, &d->tr[k], detail, d->what[k], sizeof d->what[k]);
    free(detail);
    if (st != CP_OK || !d->tr[k].runs)
        return st;
    d->has[k] = 1;
    struct sens_row *rows = xmalloc(kind->nparams() * sizeof *rows);
    size_t m = sens_run(j, src, rows);
    for (size_t i = 0; i < m; i++) {
        if (!rows[i].defined || kind->param_skip_why(rows[i].param))
            continue;
        all[*n].side = k;
        all[*n].row = rows[i];
        (*n)++;
    }
    free(rows);
    return CP_OK;
}

/* The three keys of all (n) with the largest |elasticity|, named. */
static void pick_keys(const struct cli_opts *o, const struct scenario *s,
                      const struct report_cmp *x, struct report_decide_res *d,
                      struct decide_key *all, size_t n)
{
    qsort(all, n, sizeof *all, by_elasticity);
    const struct desc_src *src[2] = {&s->hw_src, &x->src};
    const char *name[2] = {o->system ? o->system : SCENARIO_DEFAULT_SYSTEM,
                           x->given ? x->given : REPORT_DEFAULT_GPU};
    for (d->nkeys = 0; d->nkeys < DECIDE_KEYS && d->nkeys < n; d->nkeys++) {
        struct decide_key *k = &d->key[d->nkeys];
        *k = all[d->nkeys];
        const struct tm_kind *kind = d->j.side[k->side].kind;
        kind->param_name(k->row.param, k->name, sizeof k->name);
        unit_dim dim = kind->param_dim(k->row.param);
        unit_format(k->row.value, dim, k->value, sizeof k->value);
        if (k->row.spread > 0) {
            char w[48];
            snprintf(k->value + strlen(k->value), sizeof k->value - strlen(k->value), " +- %s",
                     unit_format(k->row.spread, dim, w, sizeof w));
        }
        origin_of(o, name[k->side], src[k->side], k->row.key, k->origin, sizeof k->origin);
    }
}

/* A row of decision.csv: v[k] for side k, empty where !has[k] or NAN. */
static void put(struct out_table *t, const struct report_decide_res *d, const char *q,
                const char *unit, const double v[2])
{
    char b[2][48];
    const char *cell[4] = {q, unit, "", ""};
    for (int k = 0; k < 2; k++)
        if (d->has[k] && !isnan(v[k]))
            cell[2 + k] = unit_format_exact(v[k], b[k], sizeof b[k]);
    out_row(t, cell);
}

/* decision.csv's rows of goodput, the bill of materials and the full
 * cost, as each side's kind has them (tm.h): the time_to_train rows above
 * already include what failures take. */
static void failures_cost_rows(struct out_table *t, const struct report_decide_res *d)
{
    const struct tm_result *r = d->tr;
    put(t, d, "time_to_train_failure_free", "s", (const double[]){r[0].time_ff_s, r[1].time_ff_s});
    put(t, d, "goodput", "", (const double[]){r[0].gp.goodput, r[1].gp.goodput});
    put(t, d, "job_mtbf", "s", (const double[]){r[0].gp.mtbf_s, r[1].gp.mtbf_s});
    put(t, d, "checkpoint_interval", "s",
        (const double[]){r[0].gp.interval_s, r[1].gp.interval_s});
    for (int k = 0; k < 2; k++) /* each side's lines, the other's cell empty */
        for (size_t i = 0; d->has[k] && i < r[k].nbom; i++) {
            char q[64];
            double v[2] = {NAN, NAN};
            v[k] = r[k].bom[i].count;
            snprintf(q, sizeof q, "bom_%s", r[k].bom[i].name);
            put(t, d, q, "count", v);
        }
    /* the cost, its unit the currency: one row when the sides share it */
    const double cost[2] = {r[0].costs.total >= 0 ? r[0].costs.total : NAN,
                            r[1].costs.total >= 0 ? r[1].costs.total : NAN};
    if (strcmp(r[0].currency, r[1].currency) == 0 || !d->has[0] || !d->has[1]) {
        put(t, d, "cost", d->has[0] ? r[0].currency : r[1].currency, cost);
        return;
    }
    for (int k = 0; k < 2; k++) {
        double v[2] = {NAN, NAN};
        v[k] = cost[k];
        put(t, d, "cost", r[k].currency, v);
    }
}

static void table(const struct scenario *s, const struct report_cmp *x,
                  const struct report_decide_res *d, struct out_table *t)
{
    const struct cmp_bands *b = &d->b;
    const struct cmp_result *r = &d->r;
    out_row(t, (const char *[]){"system", "", s->hw.wse.name, x->g.name});
    put(t, d, "units", "count", (const double[]){d->tr[0].count, d->tr[1].count});
    put(t, d, "meets_target", "", (const double[]){r->ws_ok, r->gpu_ok});
    put(t, d, "time_to_train", "s", (const double[]){d->tr[0].time_s, d->tr[1].time_s});
    const struct cmp_side_band *sb[2] = {&b->w, &b->g};
    double p50[2], p90[2], e50[2], share[2];
    for (int k = 0; k < 2; k++) {
        p50[k] = sb[k]->on ? sb[k]->time_s.p50 : NAN;
        p90[k] = sb[k]->on ? sb[k]->time_s.p90 : NAN;
        e50[k] = sb[k]->on ? sb[k]->energy_J.p50 : NAN;
        share[k] = sb[k]->on ? sb[k]->share : NAN;
    }
    put(t, d, "time_to_train_p50", "s", p50);
    put(t, d, "time_to_train_p90", "s", p90);
    put(t, d, "power", "W", (const double[]){d->tr[0].power_W, d->tr[1].power_W});
    put(t, d, "energy_p50", "J", e50);
    put(t, d, "deadline_share", "", share);
    failures_cost_rows(t, d);
}

int report_decide_table(const struct cli_opts *o, const struct scenario *s, struct report_cmp *x,
                        struct out_table *t)
{
    static const char *const hdr[] = {"quantity", "unit", "weight_streaming", "gpu"};
    static struct report_decide_res d;
    memset(&d, 0, sizeof d);
    out_init(t, 4, hdr);
    d.spec = x->spec;
    if (x->deadline_s > 0) {
        d.spec.mode = CMP_DEADLINE;
        d.spec.deadline_s = x->deadline_s;
    }
    d.u = (struct unc_opt){1, REPORT_UNC_SAMPLES, REPORT_UNC_SEED, x->confidence};
    struct cp_error err = {0};
    cp_status st = cmp_run(&d.spec, &d.r, &err);
    struct pscan_conf_result wc, gc;
    if (st == CP_OK && d.u.confidence > 0) {
        const struct pscan_conf pw = {&s->hw_src, d.u.samples, d.u.seed, d.u.confidence};
        const struct pscan_conf pg = {&x->src, d.u.samples, d.u.seed + 1, d.u.confidence};
        st = cmp_confident(&d.spec, &d.r, &pw, &pg, &wc, &gc, &err);
    }
    if (st == CP_OK)
        st = cmp_bands(&d.spec, &d.r, &s->hw_src, &x->src, d.u.samples, d.u.seed, &d.b, &err);
    cmp_jobs_of(&d.spec, &d.r, &d.j);
    const struct desc_src *src[2] = {&s->hw_src, &x->src};
    const int can[2] = {1, d.r.gpu_ran};
    struct decide_key *all = xmalloc((tm_kinds[0]->nparams() + tm_kinds[1]->nparams()) *
                                     sizeof *all); /* both kinds' keys at most */
    size_t n = 0;
    for (int k = 0; k < 2 && st == CP_OK; k++)
        if (can[k])
            st = side_eval(&d, k, src[k], all, &n, &err);
    if (st != CP_OK) {
        free(all);
        return cli_error("report: the decision: %s", err.msg);
    }
    pick_keys(o, s, x, &d, all, n);
    free(all);
    table(s, x, &d, t);
    x->dec = &d;
    return -1;
}

/* ---- index.md ---- */

/* text with '|' escaped for a Markdown table cell. */
static void cell_put(FILE *f, const char *text)
{
    for (; *text; text++) {
        if (*text == '|')
            fputc('\\', f);
        fputc(*text, f);
    }
}

/* One row of the table: label, then each side's text (or "-"). */
static void row2(FILE *f, const char *label, const struct report_decide_res *d, const char *a,
                 const char *b)
{
    const char *v[2] = {a, b};
    fprintf(f, "| %s |", label);
    for (int k = 0; k < 2; k++) {
        fputc(' ', f);
        cell_put(f, d->has[k] && v[k] ? v[k] : "-");
        fputs(" |", f);
    }
    fputc('\n', f);
}

/* "67.0 % of 200 draws meet 30 d" of side band b. */
static const char *share_text(const struct report_decide_res *d, const struct cmp_side_band *b,
                              char *buf, size_t n)
{
    char dl[64];
    if (!b->on || isnan(b->share))
        return snprintf(buf, n, "no deadline given"), buf;
    snprintf(buf, n, "%.1f %% of %zu draws meet %s", 100 * b->share, d->b.samples,
             out_duration(d->spec.deadline_s, dl, sizeof dl));
    return buf;
}

/* The rows of goodput, the bill of materials and the full cost. */
static void failures_cost_index(FILE *f, const struct report_decide_res *d)
{
    char a[2][512], m[64], i[64];
    for (int k = 0; k < 2; k++) {
        const struct gp_result *g = &d->tr[k].gp;
        if (!isfinite(g->mtbf_s))
            snprintf(a[k], sizeof a[k], "100 %% (no failure rate given)");
        else
            snprintf(a[k], sizeof a[k], "%.1f %% (job MTBF %s, a checkpoint every %s)",
                     100 * g->goodput, out_duration(g->mtbf_s, m, sizeof m),
                     out_duration(g->interval_s, i, sizeof i));
    }
    row2(f, "goodput", d, a[0], a[1]);
    for (int k = 0; k < 2; k++) {
        size_t len = 0;
        a[k][0] = '\0';
        for (size_t j = 0; j < d->tr[k].nbom && len < sizeof a[k]; j++)
            len += (size_t)snprintf(a[k] + len, sizeof a[k] - len, "%s%s %g", j ? ", " : "",
                                    d->tr[k].bom[j].name, d->tr[k].bom[j].count);
    }
    row2(f, "bill of materials", d, a[0], a[1]);
    for (int k = 0; k < 2; k++) {
        const struct cost_result *c = &d->tr[k].costs;
        const char *cur = d->tr[k].currency;
        char t[48], e[48];
        if (c->total < 0)
            snprintf(a[k], sizeof a[k], "no prices given");
        else
            snprintf(a[k], sizeof a[k], "%s (%s %s, energy %s)", cost_format(c->total, cur, t, sizeof t),
                     c->rental ? "rental" : "capital", cost_format(c->capital, cur, m, sizeof m),
                     cost_format(c->energy, cur, e, sizeof e));
    }
    row2(f, "full cost", d, a[0], a[1]);
}

static void lead(FILE *f, const struct scenario *s, const struct report_cmp *x,
                 const struct report_decide_res *d)
{
    char dl[64];
    fprintf(f, "## The decision\n\n%s, %g billion tokens at %g sequences of %g tokens a step, ",
            s->wl.name, s->c.tokens / 1e9, s->c.global_seqs, s->wl.seq_len);
    if (d->spec.mode == CMP_DEADLINE)
        fprintf(f, "within %s (--deadline): the fewest %s systems and the fewest %s GPUs that "
                   "meet it",
                out_duration(d->spec.deadline_s, dl, sizeof dl), s->hw.wse.name, x->g.name);
    else
        fprintf(f, "on the report's %g x %s and the fewest %s GPUs as fast (no --deadline)",
                s->c.systems, s->hw.wse.name, x->g.name);
    if (d->u.confidence > 0)
        fprintf(f, ", each in %g %% of its draws (--confidence %g)", 100 * d->u.confidence,
                d->u.confidence);
    fprintf(f, ", as `cerebras-plan compare` finds them (cerebras-plan(1), REPORT); the times "
               "and energy drawn %zu times over each description's +- ranges and its model's "
               "own error (UNCERTAINTY).  The rows are in decision.csv.\n\n",
            d->b.samples);
}

void report_decide_index(FILE *f, const struct scenario *s, const struct report_cmp *x)
{
    const struct report_decide_res *d = x->dec;
    if (!d)
        return;
    const struct cmp_result *r = &d->r;
    const struct cmp_side_band *sb[2] = {&d->b.w, &d->b.g};
    lead(f, s, x, d);
    fprintf(f, "| | %s | %s |\n|---|---|---|\n", s->hw.wse.name, x->g.name);
    char a[2][512];
    for (int k = 0; k < 2; k++)
        snprintf(a[k], sizeof a[k], "%.0f %s", d->tr[k].count,
                 d->j.side[k].kind->units);
    row2(f, "count", d, a[0], a[1]);
    row2(f, "cluster", d, d->what[0], d->what[1]);
    for (int k = 0; k < 2; k++)
        snprintf(a[k], sizeof a[k], "%s", (k ? r->gpu_ok : r->ws_ok) ? "yes" : "no");
    row2(f, d->spec.mode == CMP_DEADLINE ? "meets the deadline" : "as fast", d, a[0], a[1]);
    const char *label[] = {"time to train P50", "time to train P90"};
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 2; k++)
            if (sb[k]->on)
                out_duration(i ? sb[k]->time_s.p90 : sb[k]->time_s.p50, a[k], sizeof a[k]);
            else
                snprintf(a[k], sizeof a[k], "-");
        row2(f, label[i], d, a[0], a[1]);
    }
    for (int k = 0; k < 2; k++)
        unit_format(d->tr[k].power_W, UNIT_POWER, a[k], sizeof a[k]);
    row2(f, "power", d, a[0], a[1]);
    for (int k = 0; k < 2; k++)
        if (sb[k]->on)
            unc_opt_band(&sb[k]->energy_J, UNIT_ENERGY, 0, a[k], sizeof a[k]);
        else
            snprintf(a[k], sizeof a[k], "-");
    row2(f, "energy P50 [P10, P90]", d, a[0], a[1]);
    for (int k = 0; k < 2; k++)
        share_text(d, sb[k], a[k], sizeof a[k]);
    row2(f, "confidence", d, a[0], a[1]);
    failures_cost_index(f, d);
    if (!r->ws_ok && r->ws_why[0])
        fprintf(f, "\n%s: %s.\n", s->hw.wse.name, r->ws_why);
    if (!d->has[1] && r->gpu_why[0])
        fprintf(f, "\n%s: %s.\n", x->g.name, r->gpu_why);
    fprintf(f, "\nThe answer depends most on these keys (both sides' `cerebras-plan "
               "sensitivity` rankings at their answers, merged by |elasticity|, the keys that "
               "are limits or capacities left out); where each value comes from is the comment "
               "above it in its description:\n\n"
               "| # | key | side | value | origin | elasticity |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < d->nkeys; i++) {
        const struct decide_key *k = &d->key[i];
        fprintf(f, "| %zu | `%s` | %s | %s | %s | %+.3f |\n", i + 1, k->name,
                k->side ? x->g.name : s->hw.wse.name, k->value, k->origin, k->row.elasticity);
    }
    fprintf(f, "\n");
}
