/* gpu_cells.c - the cells of a row about a GPU layout (see gpu_cells.h). */
#include "gpu_cells.h"

#include <math.h>

#include "../base/units.h"

const char *const gpu_col_name[GC_NCOLS] = {
    [GC_RANK] = "rank",
    [GC_MODEL] = "model",
    [GC_SYSTEM] = "system",
    [GC_GPUS] = "gpus",
    [GC_NODES] = "nodes",
    [GC_PRECISION] = "precision",
    [GC_TP] = "tp",
    [GC_PP] = "pp",
    [GC_VP] = "vp",
    [GC_DP] = "dp",
    [GC_CP] = "cp",
    [GC_FSDP] = "fsdp",
    [GC_MBS] = "micro_batch",
    [GC_RECOMPUTE] = "recompute",
    [GC_RECOMPUTE_LAYERS] = "recompute_layers",
    [GC_BATCH] = "global_batch_seqs",
    [GC_MICRO_BATCHES] = "micro_batches",
    [GC_STEP] = "step_time_s",
    [GC_TOKENS_PER_S] = "tokens_per_s",
    [GC_TIME_TO_TRAIN] = "time_to_train_s",
    [GC_MFU] = "mfu",
    [GC_BUBBLE] = "bubble",
    [GC_BOTTLENECK] = "bottleneck",
    [GC_MEM] = "mem_per_gpu_B",
    [GC_MEM_USABLE] = "mem_usable_B",
    [GC_POWER] = "power_W",
    [GC_ENERGY] = "energy_J",
    [GC_COST] = "cost",
    [GC_TRAIN_TOKENS] = "train_tokens",
    [GC_CRITICAL] = "critical_batch_tokens",
    [GC_BATCH_OK] = "batch_ok",
};

/* Cell c is the number v (NAN: an empty cell). */
static void put(struct gpu_cells *w, enum gpu_col c, double v)
{
    w->num[c] = !isnan(v);
    w->value[c] = v;
    w->cell[c] = w->num[c] ? unit_format_exact(v, w->buf[c], EST_CELL_BYTES) : "";
}

void gpu_cells_point(struct gpu_cells *w, const struct gscen *s, const struct gpu_search_spec *p,
                     enum gpuhw_prec precision, double mem, double usable)
{
    for (int c = 0; c < GC_NCOLS; c++)
        put(w, (enum gpu_col)c, NAN);
    double nodes = ceil(p->gpus / s->g.net.gpus_per_node);
    w->cell[GC_MODEL] = s->model;
    w->cell[GC_SYSTEM] = s->system;
    w->cell[GC_PRECISION] = gpuhw_prec_name[precision];
    put(w, GC_GPUS, p->gpus);
    put(w, GC_NODES, nodes);
    put(w, GC_BATCH, p->batch);
    put(w, GC_MEM, mem);
    put(w, GC_MEM_USABLE, usable);
    put(w, GC_POWER, nodes * s->g.net.node_power_W);
    double critical;
    put(w, GC_TRAIN_TOKENS, gscen_tokens(s, p->batch, &critical));
    put(w, GC_CRITICAL, critical);
    put(w, GC_BATCH_OK, p->batch * s->wl.seq_len <= critical);
}

void gpu_cells_hit(struct gpu_cells *w, const struct gscen *s, const struct gpu_search_spec *p,
                   size_t rank, const struct gpu_search_hit *h)
{
    const struct gpu_layout *l = &h->layout;
    const struct gpu_result *r = &h->result;
    gpu_cells_point(w, s, p, l->precision, r->mem_total, r->mem_capacity);
    struct gpu_train t; /* the run to its end, as estimate prints it */
    double steps = gpu_train_steps(w->value[GC_TRAIN_TOKENS], p->batch, s->wl.seq_len);
    gpu_train_eval(&s->g, p->gpus, steps, s->price, gpu_state_bytes(&s->wl), r, &t);
    const struct {
        enum gpu_col c;
        double v;
    } num[] = {{GC_RANK, (double)rank},
               {GC_TP, l->tp},
               {GC_PP, l->pp},
               {GC_VP, l->vp},
               {GC_DP, l->dp},
               {GC_CP, l->cp},
               {GC_FSDP, l->fsdp ? 1 : 0},
               {GC_MBS, l->mbs},
               {GC_RECOMPUTE_LAYERS, l->recompute_layers},
               {GC_MICRO_BATCHES, r->micro_batches},
               {GC_STEP, r->step_s},
               {GC_TOKENS_PER_S, r->tokens_per_s},
               {GC_TIME_TO_TRAIN, t.time_s},
               {GC_MFU, r->mfu},
               {GC_BUBBLE, r->bubble},
               {GC_ENERGY, t.energy_J},
               {GC_COST, t.cost >= 0 ? t.cost : NAN}};
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
        put(w, num[i].c, num[i].v);
    w->cell[GC_RECOMPUTE] = gpu_recompute_name[l->recompute];
    w->cell[GC_BOTTLENECK] = gpu_part_name[r->bottleneck];
}
