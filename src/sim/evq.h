/* evq.h - the simulator's event queue: a 4-ary min-heap of timed events.
 *
 * Events leave in time order; events at the same time leave in the order
 * they were pushed (a sequence number breaks ties), so a run is
 * deterministic.  Times are seconds. */
#ifndef CP_EVQ_H
#define CP_EVQ_H

#include <stddef.h>
#include <stdint.h>

struct evq_event {
    double t_s;   /* when                                  */
    uint64_t seq; /* push order, for ties                  */
    int32_t who;  /* the component the event is for        */
};

struct evq {
    struct evq_event *heap;
    size_t n, cap;
    uint64_t pushed;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);

/* Add an event for component who at time t_s. */
void evq_push(struct evq *q, double t_s, int32_t who);

/* Remove the earliest event into *e; 0 when the queue is empty. */
int evq_pop(struct evq *q, struct evq_event *e);

#endif
