/* grid_best.c - the best row of each group (see grid_best.h): an
 * open-addressing hash of the groups' keys. */
#include "grid_best.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"

void grid_best_init(struct grid_best *gs)
{
    memset(gs, 0, sizeof *gs);
}

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

static void rehash(struct grid_best *gs)
{
    free(gs->slot);
    gs->nslot = gs->nslot ? 2 * gs->nslot : 64;
    gs->slot = xmalloc(gs->nslot * sizeof *gs->slot);
    memset(gs->slot, 0, gs->nslot * sizeof *gs->slot);
    for (size_t i = 0; i < gs->n; i++) {
        size_t h = (size_t)hash(gs->row[i].key, strlen(gs->row[i].key)) & (gs->nslot - 1);
        while (gs->slot[h])
            h = (h + 1) & (gs->nslot - 1);
        gs->slot[h] = i + 1;
    }
}

static char *copy(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void grid_best_offer(struct grid_best *gs, const char *key, size_t key_len, double by,
                     const char *row, size_t len)
{
    if (2 * (gs->n + 1) > gs->nslot)
        rehash(gs);
    size_t h = (size_t)hash(key, key_len) & (gs->nslot - 1);
    for (; gs->slot[h]; h = (h + 1) & (gs->nslot - 1)) {
        struct grid_best_row *g = &gs->row[gs->slot[h] - 1];
        if (strlen(g->key) == key_len && memcmp(g->key, key, key_len) == 0) {
            if (by < g->by) {
                free(g->row);
                g->row = copy(row, len);
                g->by = by;
            }
            return;
        }
    }
    if (gs->n == gs->cap) {
        gs->cap = gs->cap ? 2 * gs->cap : 16;
        gs->row = xrealloc(gs->row, gs->cap * sizeof *gs->row);
    }
    gs->row[gs->n] = (struct grid_best_row){copy(key, key_len), copy(row, len), by};
    gs->slot[h] = ++gs->n;
}

void grid_best_free(struct grid_best *gs)
{
    for (size_t i = 0; i < gs->n; i++) {
        free(gs->row[i].key);
        free(gs->row[i].row);
    }
    free(gs->row);
    free(gs->slot);
    memset(gs, 0, sizeof *gs);
}
