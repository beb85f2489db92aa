/* simflow.c - the simulator's event engine (the model is stated in sim.h).
 *
 * Each component serves its packets in one fixed order.  A component
 * starts a packet at an event; starting fixes when it ends, tells its
 * consumers when the packet's first and last chunks reach them, and frees
 * buffer room at its suppliers.  A component is queued for its next start
 * once every supplier has sent it the packet, every consumer has room for
 * it (flow control by bytes: a buffer of SIM_BUFFER_CHUNKS chunks), and
 * (MemoryX egress) the packet's weights have been updated.  A start is
 * queued as soon as its time is known, which may be after events at later
 * times: the queue orders by time with that look-ahead. */
#include <math.h>
#include <string.h>

#include "../desc/hw.h"
#include "simint.h"

/* max for the hot paths: no NaN reaches them (fmax is a library call). */
static inline double later(double a, double b)
{
    return a > b ? a : b;
}

/* The packet at position pos >= x->pos of x's sequence, and its step
 * (counted on from x's next position: no division in the common case). */
static const struct packet *packet_at(const struct sim *s, const struct comp *x, int64_t pos,
                                      int *step)
{
    int len = s->seqlen[x->serves];
    int64_t i = x->idx + (pos - x->pos);
    *step = x->step;
    if (i >= len) {
        *step += (int)(i / len);
        i %= len;
    }
    return &s->pk[s->seq[x->serves][i]];
}

static int serves(const struct comp *x, const struct packet *p)
{
    switch (x->serves) {
    case SERVE_ALL:
        return 1;
    case SERVE_BWD:
        return p->bwd;
    case SERVE_ACT:
        return p->bwd || p->act;
    default:
        return p->upd;
    }
}

static int is_up(int kind)
{
    return kind == SIM_SYS_EGRESS || kind == SIM_SWX_UP || kind == SIM_MX_INGRESS;
}

/* Offloaded activation bytes packet p moves on x: a block's input, out of
 * the system in the forward pass, back in beside its weights in the
 * backward pass; 0 elsewhere.  A system's ports are its in- and egress
 * links (with one system and one MemoryX unit, MemoryX's links). */
static double act_bytes(const struct sim *s, const struct comp *x, const struct packet *p)
{
    int moves = x->kind == SIM_SYS_EGRESS ? p->act
                : x->kind == SIM_SYS_INGRESS
                    ? s->offload && p->bwd && layer_kind(s, p->layer) == LY_BLOCK
                    : 0;
    return moves ? (double)seqs_of(s, x->index, p->mb) * s->ckpt_seq_bytes : 0;
}

/* Bytes packet p moves on x (links), or consumes (compute: weights; update:
 * gradients); *act of them offloaded activations. */
static double bytes_of(const struct sim *s, const struct comp *x, const struct packet *p,
                       double *act)
{
    double div = x->shard ? s->units : 1;
    *act = 0;
    switch (x->kind) {
    case SIM_COMPUTE:
        return p->w_bytes;
    case SIM_UPDATE:
        return p->g_bytes / div;
    default:
        *act = act_bytes(s, x, p);
        return (is_up(x->kind) ? p->g_bytes : p->w_bytes) / div + *act;
    }
}

/* Chunks of x's input a packet of bytes (act of them activations) is: what
 * its supplier feeds its buffer.  A system's ingress takes the offloaded
 * activations from the activation store, beside that buffer; its egress
 * takes them from the wafer, through it. */
static double chunks_in(const struct sim *s, const struct comp *x, double bytes, double act)
{
    return (x->kind == SIM_SYS_INGRESS ? bytes - act : bytes) / s->hw->swx.chunk_bytes;
}

/* Work of packet p on x: seconds, and *bytes and *act (bytes_of).  The
 * activations move at the activation servers' rate and share the system's
 * port at its I/O bandwidth with the weights or gradients, which keep their
 * own link's cap. */
static double work_of(const struct sim *s, const struct comp *x, const struct packet *p,
                      double *bytes, double *act)
{
    *bytes = bytes_of(s, x, p, act);
    switch (x->kind) {
    case SIM_COMPUTE: {
        double t = (double)seqs_of(s, x->index, p->mb) * s->tokens_seq;
        double u = hw_util(&s->hw->wse, t);
        double f = s->factor[x->index];
        return u > 0 ? f * p->flops_tok * t / (s->hw->wse.peak_flops * u) : 0;
    }
    case SIM_UPDATE:
        return p->update_s;
    default: {
        double b = *bytes - *act;
        if (!(*act > 0))
            return b / x->bw_Bps;
        return fmax(fmax(b / x->bw_Bps, *act / s->act_Bps), *bytes / s->hw->wse.io_bw_Bps);
    }
    }
}

/* x's ring slot for position pos (of its own sequence, or of its
 * consumers' when x sends). */
static struct slot *slot_of(const struct sim *s, const struct comp *x, int64_t pos)
{
    return &s->ring[((size_t)(x - s->c) << s->w_log2) + ((size_t)pos & (size_t)(s->w - 1))];
}

/* When a supplier may start sending c the packet at c's position kc, with
 * c's buffer of SIM_BUFFER_CHUNKS chunks (a packet smaller than a chunk
 * takes its share of one) holding what c has not yet consumed of the
 * packets before kc, and the hop latency ahead of it; a packet of an
 * earlier step holds it step_overhead longer (what holds a step's packets
 * to the step before counts the overhead, sim.h).  0 while that is not
 * known (c has yet to start the packet it hangs on, or its ring is full);
 * else 1 with *t. */
static int credit(const struct sim *s, const struct comp *c, int64_t kc, double *t)
{
    double room = SIM_BUFFER_CHUNKS;
    *t = 0;
    if (kc >= c->pos + s->w)
        return 0;
    for (int64_t j = kc - 1; j >= 0 && j > kc - s->w; j--) {
        const struct slot *q = slot_of(s, c, j);
        double n = q->chunks;
        if (j >= c->pos) {
            int step;
            double act, b = bytes_of(s, c, packet_at(s, c, j, &step), &act);
            n = chunks_in(s, c, b, act);
        }
        if (n < room) {
            room -= n;
            continue;
        }
        if (j >= c->pos)
            return 0;
        int64_t len = s->seqlen[c->serves];
        double before = j / len < kc / len ? s->overhead_s : 0;
        *t = q->end_s - room * q->tau_s - c->lat_s + before;
        return 1;
    }
    return 1;
}

/* Queue x's next start if everything it needs is known. */
static void try_queue(struct sim *s, struct comp *x)
{
    if (x->queued || x->pos >= x->limit)
        return;
    const struct slot *in = slot_of(s, x, x->pos);
    if (in->arrived < x->nup)
        return;
    int step;
    const struct packet *p = packet_at(s, x, x->pos, &step);
    /* What the previous step holds it to (its own previous packet, its
     * consumers' buffers, the update it waits for) counts step_overhead later
     * for a step's first packet; the update for every gated packet. */
    double t = x->free_s;
    if (x->idx == 0)
        t += s->overhead_s;
    if (x->mx_out && p->gate >= 0 && step > 0) {
        size_t g = (size_t)x->index * (size_t)s->seqlen[SERVE_UPD] + (size_t)p->gate;
        if (s->upd_step[g] != step - 1) {
            x->gate_wait = p->gate + 1;
            return;
        }
        t = later(t, s->upd_end[g] + s->overhead_s);
    }
    t = later(t, in->first_s);
    if (x->ndn > 0 && serves(&s->c[s->dns[x->dn0]], p)) {
        for (int i = 0; i < x->ndn; i++) {
            double tc;
            if (!credit(s, &s->c[s->dns[x->dn0 + i]], x->sent_n, &tc))
                return;
            t = later(t, tc);
        }
    }
    x->queued = 1;
    evq_push(&s->q, t, (int32_t)(x - s->c));
}

/* x worked on packet p from now to end; done: an update is applied then. */
static void record(struct sim *s, struct comp *x, const struct packet *p, int64_t pos, int step,
                   double now, double end, double done, double w, double bytes)
{
    int last = step == (int)s->cfg->steps - 1;
    if (last) {
        x->busy_last_s += w;
        x->bytes_last += bytes;
    }
    if (x->kind == SIM_SWX_UP || (x->kind == SIM_MX_INGRESS && x->index == 0))
        s->r->reductions++;
    if (x->shard && is_up(x->kind) && p->bwd)
        s->r->mx_received++;
    if (x->kind == SIM_UPDATE) {
        int k = (int)(pos % s->seqlen[SERVE_UPD]);
        size_t g = (size_t)x->index * (size_t)s->seqlen[SERVE_UPD] + (size_t)k;
        s->upd_end[g] = done;
        s->upd_step[g] = step;
        if (done > s->step_end[step])
            s->step_end[step] = done;
        struct comp *out = &s->c[s->mx_out0 + x->index];
        if (out->gate_wait == k + 1) {
            out->gate_wait = 0;
            try_queue(s, out);
        }
    }
    if (s->cfg->trace && s->st == CP_OK) {
        struct sim_interval iv = {now,
                                  end,
                                  (enum sim_comp)x->kind,
                                  x->index,
                                  x->kind == SIM_UPDATE ? "update"
                                  : p->bwd              ? "backward"
                                  : p->rc               ? "recompute"
                                                        : "forward",
                                  step,
                                  p->mb,
                                  p->layer,
                                  p->pkt,
                                  bytes};
        if (s->cfg->trace(s->cfg->trace_ctx, &iv))
            s->st = cp_fail(s->err, CP_EIO, "trace: %s", "could not be written");
    }
}

/* Hand the packet x started at now (ending at end, q per chunk) to its
 * consumers. */
static void send(struct sim *s, struct comp *x, double now, double end, double q, double bytes)
{
    struct slot *o = slot_of(s, x, x->sent_n);
    o->out_bytes = bytes;
    o->taken = 0;
    for (int i = 0; i < x->ndn; i++) {
        struct comp *d = &s->c[s->dns[x->dn0 + i]];
        struct slot *in = slot_of(s, d, x->sent_n);
        in->arrived++;
        in->first_s = later(in->first_s, now + q + d->lat_s);
        in->last_s = later(in->last_s, end + d->lat_s);
        in->q_in_s = later(in->q_in_s, q);
        try_queue(s, d);
    }
    x->sent_n++;
}

/* When an update engine's packet is applied, from its work w in n chunks:
 * its S / U servers hold the state striped chunk by chunk and work at
 * once, so the engine takes the next packet as the previous rule says, but
 * the packet's last chunk (or the whole share, if smaller) is applied by
 * one server alone, after it has arrived at last_s. */
static double applied(const struct sim *s, double end, double last_s, double w, double n)
{
    return later(end, last_s + w / later(1, n) * s->cfg->mx_servers / s->units);
}

/* x starts its next packet now. */
static void start(struct sim *s, struct comp *x, double now)
{
    int step;
    int64_t pos = x->pos;
    const struct packet *p = packet_at(s, x, pos, &step);
    struct slot *in = slot_of(s, x, pos);
    double bytes, act, w = work_of(s, x, p, &bytes, &act);
    double n = chunks_in(s, x, bytes, act);
    double q = w / later(1, n), end = now + w;
    if (x->nup > 0)
        end = later(end, in->last_s + q);
    double done = x->kind == SIM_UPDATE ? applied(s, end, in->last_s, w, n) : end;
    in->end_s = end;
    in->chunks = n;
    in->tau_s = n > 0 ? later(q, in->q_in_s) / (n < 1 ? n : 1) : 0;
    in->arrived = 0;
    in->first_s = in->last_s = in->q_in_s = 0;
    x->queued = 0;
    x->pos++;
    if (++x->idx == s->seqlen[x->serves]) {
        x->idx = 0;
        x->step++;
    }
    x->free_s = end;
    x->sent += bytes;
    record(s, x, p, pos, step, now, end, done, w, bytes);
    /* Taken from the suppliers: their buffers free as x works. */
    for (int i = 0; i < x->nup; i++) {
        struct comp *u = &s->c[s->ups[x->up0 + i]];
        struct slot *o = slot_of(s, u, pos);
        if (++o->taken == u->ndn)
            u->recv += o->out_bytes; /* every receiver has taken the packet */
        try_queue(s, u);
    }
    if (x->ndn > 0 && serves(&s->c[s->dns[x->dn0]], p))
        send(s, x, now, end, q, bytes);
    else
        x->recv += bytes;
    try_queue(s, x);
}

void simflow_run(struct sim *s)
{
    for (int i = 0; i < s->nc; i++) {
        struct comp *x = &s->c[i];
        x->limit = (int64_t)s->cfg->steps * s->seqlen[x->serves];
    }
    for (int i = 0; i < s->nc; i++)
        try_queue(s, &s->c[i]);
    struct evq_event e;
    while (s->st == CP_OK && evq_pop(&s->q, &e)) {
        s->r->events++;
        start(s, &s->c[e.who], e.t_s);
    }
}
