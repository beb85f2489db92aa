/* cmd_claims.c - `claims [FILE]`: each headline claim of the vendor's
 * documents run as a scenario, with the model's verdict and reason.  The
 * table is CSV-ready (exact SI figures, verdict names) when o->csv is set,
 * else worded for people (units, percentages, "6.70x", verdicts in words);
 * the report's index.md shows the latter. */
#include <stdio.h>
#include <string.h>

#include "produce.h"
#include "../model/claim.h"
#include "est.h"

static const char *const header[] = {"id",      "claim",  "source",   "kind",
                                     "model",   "system", "systems",  "predicted",
                                     "verdict", "reason", "condition"};

/* The claim's model, system and tier; -1 or an exit code. */
static int setup(const struct cli_opts *o, const struct claim *cl, const char *origin,
                 struct scenario *s)
{
    int rc = scenario_load_names(o, cl->model, cl->system, s);
    if (rc >= 0)
        return rc;
    if (strcmp(cl->memoryx, "auto") == 0) {
        scenario_auto_tier(s);
        return -1;
    }
    if ((rc = scenario_memoryx(s, cl->memoryx)) >= 0)
        fprintf(stderr, "cerebras-plan: (in %s, line %d)\n", origin, cl->line);
    return rc;
}

/* The claim's figure: exact SI for CSV; for people a capacity in bytes, an
 * efficiency as a percentage, a speedup as "6.70x", a time as a duration. */
static const char *predicted(int csv, const struct claim *cl, const struct claim_result *r,
                             char *buf, size_t n)
{
    if (csv)
        return unit_format_exact(r->predicted, buf, n);
    switch (cl->kind) {
    case CLAIM_CAPACITY:
        return unit_format(r->predicted, UNIT_BYTES, buf, n);
    case CLAIM_WEAK_SCALING:
        return claim_format_percent(r->predicted, buf, n);
    case CLAIM_SPEEDUP:
    case CLAIM_SPARSITY_SPEEDUP:
        return claim_format_speedup(r->predicted, buf, n);
    default:
        return out_duration(r->predicted, buf, n);
    }
}

int claims_table(const struct cli_opts *o, const char *file, struct out_table *t, char *origin,
                 size_t origin_n)
{
    out_init(t, sizeof header / sizeof header[0], header);
    struct cp_error err = {0};
    struct cat_entry e;
    cp_status st;
    if (file)
        st = cat_read_file(file, &e, &err);
    else
        st = cat_find_data(&o->dirs, "reports", "claims.csv", &e, &err);
    if (st != CP_OK)
        return cli_error("%s", err.msg);
    struct claim_list cl;
    if (claim_parse(e.text, strlen(e.text), e.origin, &cl, &err) != CP_OK) {
        cat_entry_free(&e);
        return cli_error("%s", err.msg);
    }
    static struct scenario s;
    int rc = -1;
    for (size_t i = 0; i < cl.n && rc < 0; i++) {
        const struct claim *c = &cl.items[i];
        if ((rc = setup(o, c, e.origin, &s)) >= 0)
            break;
        struct claim_result r;
        claim_eval(c, &s.c, &r);
        char sys[32], pred[64];
        snprintf(sys, sizeof sys, "%g", c->systems);
        out_row(t, (const char *[]){c->id, c->text, c->source, claim_kind_name[c->kind], s.model,
                                    s.system, sys, predicted(o->csv, c, &r, pred, sizeof pred),
                                    o->csv ? claim_verdict_name[r.verdict]
                                           : claim_verdict_text[r.verdict],
                                    r.reason, c->condition});
    }
    snprintf(origin, origin_n, "%s", e.origin);
    claim_list_free(&cl);
    cat_entry_free(&e);
    return rc;
}

int cmd_claims(struct cli_opts *o)
{
    struct out_table t;
    char origin[CAT_ORIGIN_MAX];
    int rc = claims_table(o, o->nargs ? o->args[0] : NULL, &t, origin, sizeof origin);
    if (rc >= 0) {
        out_free(&t);
        return rc;
    }
    if (o->csv) {
        rc = cli_emit(o, &t);
    } else {
        printf("Headline claims (%s) under the analytic model\n", origin);
        for (size_t i = 0; i < t.nrows; i++) {
            const char *const *row = (const char *const *)&t.cells[i * t.ncols];
            printf("\n[%s] %s (%s)\n  verdict:   %s\n  predicted: %s\n  why:       %s\n"
                   "  condition: %s\n",
                   row[0], row[1], row[2], row[8], row[7], row[9], row[10]);
        }
        rc = cli_flush();
    }
    out_free(&t);
    return rc;
}
