/* evq.c - 4-ary min-heap ordered by (time, push order): half the levels of
 * a binary heap, and a node's children share a cache line or two. */
#include "evq.h"

#include <stdlib.h>

#include "../base/xalloc.h"

#define EVQ_ARITY 4

void evq_init(struct evq *q)
{
    *q = (struct evq){0};
}

void evq_free(struct evq *q)
{
    free(q->heap);
    *q = (struct evq){0};
}

static int earlier(const struct evq_event *a, const struct evq_event *b)
{
    return a->t_s < b->t_s || (a->t_s == b->t_s && a->seq < b->seq);
}

void evq_push(struct evq *q, double t_s, int32_t who)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 256;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    }
    struct evq_event e = {t_s, q->pushed++, who};
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / EVQ_ARITY;
        if (!earlier(&e, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
}

int evq_pop(struct evq *q, struct evq_event *e)
{
    if (q->n == 0)
        return 0;
    *e = q->heap[0];
    struct evq_event last = q->heap[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = EVQ_ARITY * i + 1;
        if (c >= q->n)
            break;
        size_t end = c + EVQ_ARITY < q->n ? c + EVQ_ARITY : q->n;
        for (size_t k = c + 1; k < end; k++)
            if (earlier(&q->heap[k], &q->heap[c]))
                c = k;
        if (!earlier(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    q->heap[i] = last;
    return 1;
}
