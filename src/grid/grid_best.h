/* grid_best.h - the best row of each group of a grid's rows (sweep
 * --best --group-by): rows are offered with their group's key and the
 * value to minimise, and each group keeps the first row of the least
 * value.  Memory is in proportion to the groups, not the rows. */
#ifndef CP_GRID_BEST_H
#define CP_GRID_BEST_H

#include <stddef.h>

struct grid_best_row {
    char *key; /* the group's key (NUL-terminated copy) */
    char *row; /* the best row so far (NUL-terminated copy) */
    double by; /* its value */
};

struct grid_best {
    struct grid_best_row *row; /* in the order the groups first appeared */
    size_t n, cap;
    size_t *slot; /* open-addressing hash: index + 1 into row, 0 empty */
    size_t nslot;
};

void grid_best_init(struct grid_best *gs);
/* Offer a row (len bytes) of the group key (key_len bytes, no NUL): kept
 * if by is below the group's best so far (a tie keeps the first). */
void grid_best_offer(struct grid_best *gs, const char *key, size_t key_len, double by,
                     const char *row, size_t len);
void grid_best_free(struct grid_best *gs);

#endif
