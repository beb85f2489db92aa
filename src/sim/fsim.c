/* fsim.c - functional weight-streaming simulator (fsim.h has the model, the
 * wire format and the assumptions): the reference, the configuration check,
 * the comparison and the driver.
 *
 * Layout of the simulator: fsim_net.c runs the network and the optimizer,
 * fsim_data.c draws the problem, fsim_wire.c encodes the messages and
 * fsim_cluster.c trains on the cluster; here one system trains the same
 * problem with dense, masked weights, and the two are compared.  fsimint.h
 * holds what those files share. */
#include "fsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "fsimint.h"

/* ---- the reference: one system, dense masked weights ---- */

/* The reference's weights and optimizer state, its worker on the whole
 * batch and its scratch. */
struct ref {
    struct state st;
    struct worker wk;
    float *wm[NL]; /* this step's weights times the mask */
    float gw[MAX_W], gb[MAX_B];
};

static struct ref *ref_new(const struct problem *pb)
{
    struct ref *rf = xmalloc(sizeof *rf);
    fsim_state_init(&rf->st, pb->init);
    fsim_worker_new(&rf->wk, pb->x, pb->t, pb->batch);
    for (int l = 0; l < NL; l++)
        rf->wm[l] = fsim_falloc(n_w(l));
    return rf;
}

static void ref_free(struct ref *rf)
{
    fsim_worker_free(&rf->wk);
    for (int l = 0; l < NL; l++)
        free(rf->wm[l]);
    free(rf);
}

/* Backward pass of layer l and its update: gradient times the mask, over the
 * batch, every element stepped. */
static void ref_update(struct ref *rf, const struct problem *pb, int l, const struct opt *o)
{
    struct state *s = &rf->st;
    float batch = (float)pb->batch;
    size_t w0 = w_at(l), b0 = b_at(l);
    fsim_worker_backward(&rf->wk, l, rf->wm[l], rf->gw, rf->gb);
    for (size_t i = 0; i < n_w(l); i++)
        fsim_opt_elem(o, s, w0 + i, rf->gw[i] * pb->mask[l][i] / batch);
    for (size_t i = 0; i < n_out(l); i++)
        fsim_opt_elem(o, s, b0 + i, rf->gb[i] / batch);
}

/* One training step of the reference; returns the batch loss before it. */
static double ref_step(struct ref *rf, const struct problem *pb, const struct opt *o)
{
    for (int l = 0; l < NL; l++) {
        const float *w = rf->st.p + w_at(l);
        for (size_t i = 0; i < n_w(l); i++)
            rf->wm[l][i] = w[i] * pb->mask[l][i];
        fsim_worker_forward(&rf->wk, l, rf->wm[l], rf->st.p + b_at(l));
    }
    double loss = fsim_worker_loss(&rf->wk) / (double)pb->batch;
    for (int l = NL - 1; l >= 0; l--)
        ref_update(rf, pb, l, o);
    return loss;
}

/* ---- the driver ---- */

/* Nodes of the SwarmX tree over n systems of fan-out k (fsim_cluster.c's tree_new). */
static double tree_nodes(int n, int k)
{
    double nodes = 0;
    for (int below = n; below > 1;) {
        below = (below - 1) / k + 1;
        nodes += below;
    }
    return nodes;
}

double fsim_events(const struct fsim_config *c)
{
    double links = c->systems + tree_nodes(c->systems, c->fanout);
    return (double)c->steps * ((double)c->batch + 3 * FSIM_LAYERS * links);
}

/* CP_EINPUT, naming the figure, if a field of c is out of range or the run
 * would take more than its max_events (fsim.h). */
static cp_status check_config(const struct fsim_config *c, struct cp_error *err)
{
    if (c->systems < 1 || c->systems > FSIM_MAX_SYSTEMS)
        return cp_fail(err, CP_EINPUT, "-n: must be 1..%d, got %d", FSIM_MAX_SYSTEMS, c->systems);
    if (c->fanout < 2)
        return cp_fail(err, CP_EINPUT, "swarmx.fanout: must be at least 2, got %d", c->fanout);
    if (c->units < 1 || c->units > FSIM_MAX_UNITS)
        return cp_fail(err, CP_EINPUT, "--memoryx-units: must be 1..%d, got %d", FSIM_MAX_UNITS,
                       c->units);
    if (c->steps < 1 || c->steps > FSIM_MAX_STEPS)
        return cp_fail(err, CP_EINPUT, "--steps: must be 1..%d, got %d", FSIM_MAX_STEPS, c->steps);
    if (c->batch < c->systems || c->batch > FSIM_MAX_BATCH)
        return cp_fail(err, CP_EINPUT, "--batch: must be %d (one sample per system)..%d, got %d",
                       c->systems, FSIM_MAX_BATCH, c->batch);
    if (!(c->sparsity >= 0 && c->sparsity < 1))
        return cp_fail(err, CP_EINPUT, "--sparsity: must be in [0, 1), got %g", c->sparsity);
    if (c->optimizer != FSIM_SGD && c->optimizer != FSIM_ADAM)
        return cp_fail(err, CP_EINPUT, "--optimizer: must be sgd or adam, got %d",
                       (int)c->optimizer);
    double most = c->max_events > 0 ? c->max_events : FSIM_MAX_EVENTS;
    if (!(c->max_events == 0 || (c->max_events >= 1 && c->max_events <= FSIM_CEIL_EVENTS &&
                                 c->max_events == floor(c->max_events))))
        return cp_fail(err, CP_EINPUT, "--max-events: must be a whole number in 1..%g, got %g",
                       FSIM_CEIL_EVENTS, c->max_events);
    if (fsim_events(c) > most)
        return cp_fail(err, CP_EINPUT,
                       "--max-events: the run would take %.4g events (%d steps, each of %d "
                       "samples and %.4g messages), more than the %.4g allowed; lower --steps or "
                       "--batch, or raise --max-events (up to %g)",
                       fsim_events(c), c->steps, c->batch, fsim_events(c) / c->steps - c->batch,
                       most, FSIM_CEIL_EVENTS);
    return CP_OK;
}

/* max_i |a_i - b_i| / max_i |b_i| over layer l's weights and biases. */
static double layer_rel_diff(const float *a, const float *b, int l)
{
    double diff = 0, ref = 0;
    for (size_t i = w_at(l); i < w_at(l + 1); i++) {
        diff = fmax(diff, fabs((double)a[i] - b[i]));
        ref = fmax(ref, fabs((double)b[i]));
    }
    return ref > 0 ? diff / ref : diff;
}

/* The end-of-run figures: differences, mask counts, per-node reductions. */
static void finish(struct fsim_result *r, const struct problem *pb, const struct cluster *cl,
                   const struct ref *rf)
{
    const float *mx = fsim_cluster_params(cl);
    fsim_cluster_finish(cl, r);
    for (int l = 0; l < NL; l++) {
        r->max_rel_diff = fmax(r->max_rel_diff, layer_rel_diff(mx, rf->st.p, l));
        r->weight_count[l] = n_w(l);
        r->mask_nnz[l] = pb->nnz[l];
        const float *w = mx + w_at(l);
        for (size_t i = 0; i < n_w(l); i++)
            r->off_mask_nonzero += !pb->mask[l][i] && w[i] != 0.0f;
    }
}

/* c->steps steps of the cluster and of the reference, the losses into r. */
static void train(struct cluster *cl, struct ref *rf, const struct problem *pb,
                  const struct fsim_config *c, struct fsim_result *r)
{
    for (int t = 1; t <= c->steps; t++) {
        struct opt o = fsim_opt_for_step(c->optimizer, t);
        double loss = fsim_cluster_step(cl, &o), ref_loss = ref_step(rf, pb, &o);
        if (t == 1) {
            r->loss_first = loss;
            r->ref_loss_first = ref_loss;
        }
        r->loss_last = loss;
        r->ref_loss_last = ref_loss;
    }
}

void fsim_config_init(struct fsim_config *c)
{
    memset(c, 0, sizeof *c);
    c->systems = 1;
    c->fanout = 2;
    c->units = 1;
    c->steps = 10;
    c->batch = 64;
    c->sparsity = 0;
    c->optimizer = FSIM_ADAM;
    c->seed = 1;
    c->max_events = FSIM_MAX_EVENTS;
}

cp_status fsim_run_params(const struct fsim_config *c, struct fsim_result *r, float *sim_params,
                          float *ref_params, struct cp_error *err)
{
    struct problem pb;
    struct fsim_result res;
    cp_status st = check_config(c, err);
    if (st != CP_OK)
        return st;
    st = fsim_problem_new(&pb, c, err);
    if (st != CP_OK)
        return st;
    memset(&res, 0, sizeof res);
    struct cluster *cl = fsim_cluster_new(&pb, c, &res);
    struct ref *rf = ref_new(&pb);
    train(cl, rf, &pb, c, &res);
    finish(&res, &pb, cl, rf);
    if (sim_params)
        memcpy(sim_params, fsim_cluster_params(cl), FSIM_PARAMS * sizeof *sim_params);
    if (ref_params)
        memcpy(ref_params, rf->st.p, sizeof rf->st.p);
    ref_free(rf);
    fsim_cluster_free(cl);
    fsim_problem_free(&pb);
    memcpy(r, &res, sizeof res);
    return CP_OK;
}

cp_status fsim_run(const struct fsim_config *c, struct fsim_result *r, struct cp_error *err)
{
    return fsim_run_params(c, r, NULL, NULL, err);
}

int fsim_agrees(const struct fsim_result *r)
{
    return r->max_rel_diff <= FSIM_TOLERANCE && r->loss_last < r->loss_first;
}
