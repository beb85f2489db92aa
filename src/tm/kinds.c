/* kinds.c - the kinds of cluster, listed once.  A new kind is its room
 * (its model and its tm_kind), its descriptions, and one line here. */
#include "../gpu/gpu_tm.h"
#include "../model/ws_tm.h"
#include "tm.h"

const struct tm_kind *const tm_kinds[] = {&tm_gpu, &tm_ws, NULL};

const struct tm_kind *tm_kind_of(const char *hw_text)
{
    for (size_t i = 0; tm_kinds[i]; i++)
        if (tm_kinds[i]->is_mine(hw_text))
            return tm_kinds[i];
    return NULL;
}
