/* cmd_show.c - `show NAME|FILE`: a description's resolved values with units
 * and origins; for a model, the derived transformer quantities. */
#include <stdio.h>
#include <string.h>

#include "../desc/tfm.h"
#include "../desc/wl.h"
#include "cli.h"
#include "job.h"

static const char *const text_header[] = {"quantity", "value", "range", "source"};
static const char *const csv_header[] = {"quantity", "value", "unit", "spread"};

struct show {
    struct out_table t;
    int csv;
};

/* One numeric row: SI value with its unit in CSV, scaled with a prefix in
 * text; spread is the +- half-width of its range (0: none). */
static void row_range(struct show *s, const char *q, double v, double spread, unit_dim d,
                      const char *source)
{
    char val[64], sp[64] = "";
    if (spread > 0) {
        if (s->csv)
            unit_format_exact(spread, sp, sizeof sp);
        else
            snprintf(sp, sizeof sp, "+- %s (%.3g %%)", unit_format(spread, d, val, sizeof val),
                     v != 0 ? 100 * spread / v : 0);
    }
    out_row(&s->t,
            s->csv ? (const char *[]){q, out_num(1, v, d, val, sizeof val), unit_base_symbol(d), sp}
                   : (const char *[]){q, out_num(0, v, d, val, sizeof val), sp, source});
}

static void row_num(struct show *s, const char *q, double v, unit_dim d, const char *source)
{
    row_range(s, q, v, 0, d, source);
}

static void row_text(struct show *s, const char *q, const char *v, const char *source)
{
    out_row(&s->t, s->csv ? (const char *[]){q, v, "", ""} : (const char *[]){q, v, "", source});
}

static const char *source_of(const struct desc_src *src, int i, char *buf, size_t n)
{
    if (src->line[i] > 0 && src->in_overlay[i] && src->noverlays > 1)
        snprintf(buf, n, "overlay %d line %d", src->in_overlay[i], src->line[i]);
    else if (src->line[i] > 0 && src->in_overlay[i])
        snprintf(buf, n, "overlay line %d", src->line[i]);
    else if (src->line[i] > 0)
        snprintf(buf, n, "line %d", src->line[i]);
    else
        snprintf(buf, n, "%s", src->line[i] < 0 ? "--set" : "default");
    return buf;
}

/* Every key of the schema, as "section.key" (or "key" for one-section kinds). */
static void show_keys(struct show *s, const struct desc_schema *sc, const void *target,
                      const struct desc_src *src, int qualify)
{
    for (size_t i = 0; i < sc->nkeys; i++) {
        const struct desc_key *k = &sc->keys[i];
        char q[96], where[32], val[96];
        if (qualify)
            snprintf(q, sizeof q, "%s.%s", k->section, k->name);
        else
            snprintf(q, sizeof q, "%s", k->name);
        source_of(src, (int)i, where, sizeof where);
        if (k->type == DESC_TEXT && ((const char *)target + k->off)[0] == '\0')
            continue;
        if (k->type == DESC_NUM_OR_WORD && strcmp(k->name, "tokens") == 0)
            continue; /* shown resolved among the derived quantities */
        if (k->type == DESC_NUM)
            row_range(s, q, *(const double *)((const char *)target + k->off), src->spread[i],
                      k->dim, where);
        else
            row_text(s, q, desc_format(k, target, val, sizeof val), where);
    }
}

static void show_model(struct show *s, const struct wl_desc *w, const struct desc_src *src)
{
    show_keys(s, &wl_schema, w, src, 0);
    int chin = w->tokens_chinchilla;
    row_num(s, "params", tfm_params(w), UNIT_COUNT, "derived");
    row_num(s, "tokens", tfm_tokens(w), UNIT_COUNT,
            chin ? "derived: chinchilla, 20/param" : "model.tokens");
    row_num(s, "tokens_per_step", w->batch * w->seq_len, UNIT_COUNT, "derived: batch x seq_len");
    row_num(s, "steps", tfm_tokens(w) / (w->batch * w->seq_len), UNIT_COUNT, "derived");
    row_num(s, "train_flops", tfm_train_flops(w), UNIT_FLOP, "derived: with the recompute above");
    row_num(s, "model_flops", tfm_tokens(w) * tfm_train_flops_per_token(w, WL_RC_NONE), UNIT_FLOP,
            "derived: no recompute (MFU's FLOPs)");
    row_num(s, "six_nd", 6 * tfm_params(w) * tfm_tokens(w), UNIT_FLOP,
            "6 N D (Kaplan et al. 2020)");
    row_num(s, "fwd_flops_per_token", tfm_fwd_flops_per_token(w), UNIT_FLOP, "derived");
    row_num(s, "train_flops_per_token", tfm_train_flops_per_token(w, w->recompute), UNIT_FLOP,
            "derived");
    row_num(s, "block_params", tfm_block_params(w), UNIT_COUNT, "derived: one block");
    row_num(s, "embed_params", tfm_embed_params(w) + tfm_head_params(w), UNIT_COUNT, "derived");
    row_num(s, "weight_bytes_total", tfm_weight_bytes(w), UNIT_BYTES, "derived");
    row_num(s, "grad_bytes_total", tfm_grad_bytes(w), UNIT_BYTES, "derived");
    row_num(s, "optimizer_bytes_total", tfm_optimizer_bytes(w), UNIT_BYTES,
            "derived: master + moments");
    row_num(s, "act_bytes_per_seq_block", tfm_act_bytes_per_seq_block(w, w->recompute), UNIT_BYTES,
            "derived");
}

/* The sink's ends for a kind's face (job.h). */
static void sink_keys(void *user, const struct desc_schema *sc, const void *target,
                      const struct desc_src *src, int qualify)
{
    show_keys(user, sc, target, src, qualify);
}

static void sink_num(void *user, const char *q, double v, unit_dim d, const char *source)
{
    row_num(user, q, v, d, source);
}

int cmd_show(struct cli_opts *o)
{
    struct cp_error err = {0};
    struct cat_entry e;
    if (cat_resolve(&o->dirs, o->args[0], CAT_ANY, &e, &err) != CP_OK)
        return cli_error("%s", err.msg);

    struct show s = {.csv = o->csv};
    out_init(&s.t, 4, o->csv ? csv_header : text_header);
    static struct desc_src src;
    int rc = EXIT_OK;
    if (o->noverlays && e.kind == CAT_MODEL) {
        cat_entry_free(&e);
        out_free(&s.t);
        return cli_error("--hw-overlay: %s is a model; overlays apply to hardware", o->args[0]);
    }
    if (e.kind == CAT_MODEL) {
        struct wl_desc w;
        if (wl_load(e.text, e.origin, o->sets, o->nsets, &w, &src, &err) == CP_OK)
            show_model(&s, &w, &src);
        else
            rc = cli_error("%s", err.msg);
    } else {
        const struct show_sink sink = {&s, sink_keys, sink_num};
        int frc = job_face_of(e.text)->show(o, &e, &sink);
        if (frc >= 0)
            rc = frc;
    }
    if (rc == EXIT_OK) {
        if (!o->csv)
            printf("%s %s (%s)\n\n", e.kind == CAT_MODEL ? "model" : "hardware", e.name, e.origin);
        rc = cli_emit(o, &s.t);
    }
    out_free(&s.t);
    cat_entry_free(&e);
    return rc;
}
