/* evq.c - the event queue: FIFO runs of events at one time, in a 4-ary
 * min-heap ordered by (time, seq).  The root sits at position EVQ_ROOT, so
 * the four children of a heap node start at a multiple of four and, with
 * 16-byte runs in a 64-byte aligned array, share one cache line; positions
 * past the last run hold a sentinel, so a node always has four children and
 * the earliest of them is picked without branches.
 *
 * Why the order is push order within a time: an event joins a run only if
 * it is pushed right after the run's last event, so a run's events are
 * consecutive in push order, and two runs at one time leave in the order
 * they began (seq). */
#include "evq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"

#define EVQ_ROOT 3
#define EVQ_LINE 64 /* bytes of a cache line on the machines we run on */
#define EVQ_FIRST_CAP 256
/* The first seq that is not handed out (the sentinel's).  It may be lowered
 * with -D to exercise the renumbering, as long as it stays above the runs
 * that are queued at once. */
#ifndef EVQ_SEQ_END
#define EVQ_SEQ_END UINT32_MAX
#endif

static const struct evq_run sentinel = {INFINITY, EVQ_SEQ_END, -1};

/* The first child of the heap node at position p, and the parent of p. */
static inline size_t child_of(size_t p)
{
    return 4 * p - 8;
}

static inline size_t parent_of(size_t p)
{
    return p / 4 + 2;
}

void evq_init(struct evq *q)
{
    *q = (struct evq){.free = -1, .tail = -1};
}

void evq_free(struct evq *q)
{
    free(q->block);
    free(q->node);
    evq_init(q);
}

static inline int earlier(const struct evq_run *a, const struct evq_run *b)
{
    return (a->t_s < b->t_s) | ((a->t_s == b->t_s) & (a->seq < b->seq));
}

static inline uint64_t bits_of(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof b);
    return b;
}

/* Double the heap's positions (the first time, EVQ_FIRST_CAP), in a new
 * aligned block; the new positions hold the sentinel. */
static void grow(struct evq *q)
{
    size_t cap = q->cap ? 2 * q->cap : EVQ_FIRST_CAP;
    char *block = xmalloc(cap * sizeof(struct evq_run) + EVQ_LINE);
    struct evq_run *heap = (struct evq_run *)(block + EVQ_LINE - (uintptr_t)block % EVQ_LINE);
    if (q->cap)
        memcpy(heap, q->heap, q->cap * sizeof *heap);
    for (size_t i = q->cap; i < cap; i++)
        heap[i] = sentinel;
    free(q->block);
    q->block = block;
    q->heap = heap;
    q->cap = cap;
}

/* A node for an event of who: a free one, or a new one. */
static int32_t new_node(struct evq *q, int32_t who)
{
    int32_t i = q->free;
    if (i >= 0) {
        q->free = q->node[i].next;
    } else {
        if (q->nnode == q->ncap) {
            q->ncap = q->ncap ? 2 * q->ncap : EVQ_FIRST_CAP;
            q->node = xrealloc(q->node, (size_t)q->ncap * sizeof *q->node);
        }
        i = q->nnode++;
    }
    q->node[i] = (struct evq_node){who, -1};
    return i;
}

static int by_seq(const void *a, const void *b)
{
    uint32_t x = (*(struct evq_run *const *)a)->seq, y = (*(struct evq_run *const *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Number the runs 0, 1, ... in their push order: their order, and so the
 * heap, is unchanged. */
static void renumber(struct evq *q)
{
    struct evq_run **by = xmalloc((q->nrun ? q->nrun : 1) * sizeof *by);
    for (size_t i = 0; i < q->nrun; i++)
        by[i] = &q->heap[EVQ_ROOT + i];
    qsort(by, q->nrun, sizeof *by, by_seq);
    for (size_t i = 0; i < q->nrun; i++)
        by[i]->seq = (uint32_t)i;
    q->pushed = (uint32_t)q->nrun;
    free(by);
}

/* Put run r in the heap. */
static void heap_add(struct evq *q, struct evq_run r)
{
    if (EVQ_ROOT + q->nrun + 1 > q->cap)
        grow(q);
    size_t p = EVQ_ROOT + q->nrun++;
    while (p > EVQ_ROOT) {
        size_t parent = parent_of(p);
        if (!earlier(&r, &q->heap[parent]))
            break;
        q->heap[p] = q->heap[parent];
        p = parent;
    }
    q->heap[p] = r;
}

void evq_push(struct evq *q, double t_s, int32_t who)
{
    int32_t i = new_node(q, who);
    uint64_t b = bits_of(t_s);
    q->n++;
    if (q->tail >= 0 && b == q->tail_bits) {
        q->node[q->tail].next = i;
    } else {
        if (q->pushed >= EVQ_SEQ_END)
            renumber(q);
        heap_add(q, (struct evq_run){t_s, q->pushed++, i});
        q->tail_bits = b;
    }
    q->tail = i;
}

/* The earliest of the four runs from position c. */
static inline size_t earliest4(const struct evq_run *h, size_t c)
{
    size_t a = c + (size_t)earlier(&h[c + 1], &h[c]);
    size_t b = c + 2 + (size_t)earlier(&h[c + 3], &h[c + 2]);
    return earlier(&h[b], &h[a]) ? b : a;
}

/* Removes the root run: the hole it leaves moves down along the earliest
 * children to the bottom, and the last run, taken out first, moves up from
 * there to its place (the last run belongs near the bottom, so this
 * compares less than moving it down from the root). */
static void heap_remove_root(struct evq *q)
{
    struct evq_run *h = q->heap;
    size_t end = EVQ_ROOT + --q->nrun; /* the last run's position */
    struct evq_run last = h[end];
    h[end] = sentinel;
    if (end == EVQ_ROOT)
        return;
    size_t p = EVQ_ROOT;
    for (size_t c = child_of(p); c < end; c = child_of(p)) {
        size_t m = earliest4(h, c);
        h[p] = h[m];
        p = m;
    }
    while (p > EVQ_ROOT) {
        size_t parent = parent_of(p);
        if (!earlier(&last, &h[parent]))
            break;
        h[p] = h[parent];
        p = parent;
    }
    h[p] = last;
}

int evq_pop(struct evq *q, struct evq_event *e)
{
    if (q->n == 0)
        return 0;
    struct evq_run *top = &q->heap[EVQ_ROOT];
    int32_t i = top->head;
    e->t_s = top->t_s;
    e->who = q->node[i].who;
    top->head = q->node[i].next;
    q->node[i].next = q->free;
    q->free = i;
    q->n--;
    if (top->head < 0) {
        if (q->tail == i)
            q->tail = -1;
        heap_remove_root(q);
    }
    return 1;
}
