/* evq.h - the simulator's event queue: a 4-ary min-heap of runs of events
 * at one time.
 *
 * Events leave in time order; events at the same time leave in the order
 * they were pushed, so a run is deterministic.  Times are seconds, never
 * NaN.  Most events are pushed at the time of the event pushed just before
 * (a tree's links all start a packet at once): such an event joins that
 * event's run, a FIFO list, and leaves without touching the heap. */
#ifndef CP_EVQ_H
#define CP_EVQ_H

#include <stddef.h>
#include <stdint.h>

/* An event as evq_pop hands it out. */
struct evq_event {
    double t_s;  /* when                                  */
    int32_t who; /* the component the event is for        */
};

/* An event in its run: a node of a list through evq.node. */
struct evq_node {
    int32_t who;
    int32_t next; /* the next event of its run (or free node); -1 none */
};

/* A run in the heap: events pushed one after another at one time (the
 * same bits).  Runs leave by (time, seq): seq is the run's rank in push
 * order, so runs at equal times leave in push order, and within a run
 * events leave as pushed.  16 bytes, so a heap node's four children fill
 * one cache line. */
struct evq_run {
    double t_s;
    uint32_t seq;
    int32_t head; /* its first event (a node) */
};

struct evq {
    struct evq_run *heap; /* the root at EVQ_ROOT; free positions hold a
                             sentinel that is later than any run        */
    void *block;          /* heap's allocation (heap is aligned in it)  */
    size_t nrun, cap;     /* runs in the heap; positions in heap        */
    struct evq_node *node;
    int32_t nnode, ncap;  /* nodes handed out; room for nodes           */
    int32_t free;         /* the first free node, -1 none               */
    size_t n;             /* events queued                              */
    int32_t tail;         /* the last event pushed, if still queued, -1 */
    uint64_t tail_bits;   /* its time's bits                            */
    uint32_t pushed;      /* the next run's seq                         */
};

/* What the queue allocates at most per event it may hold (a node and a
 * run), for the simulator's memory bound. */
#define EVQ_BYTES_PER_EVENT (sizeof(struct evq_node) + sizeof(struct evq_run))

void evq_init(struct evq *q);
void evq_free(struct evq *q);

/* Add an event for component who at time t_s. */
void evq_push(struct evq *q, double t_s, int32_t who);

/* Remove the earliest event into *e; 0 when the queue is empty. */
int evq_pop(struct evq *q, struct evq_event *e);

#endif
