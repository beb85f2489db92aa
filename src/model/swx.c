/* swx.c - SwarmX tree depth, latency and size (its servers: lanes per node). */
#include "swx.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Whole N below SWX_MEMO: the counts below are kept per thread for each
 * such N with the fan-out they were counted for (scans ask for the same N
 * again); a fan-out that differs in value, or is not a number, is counted
 * again. */
#define SWX_MEMO 2048
static int swx_memo_index(double systems, size_t *i)
{
    /* in range first, so the conversion is exact: (int) truncates, and
     * gives systems back only for a whole number (a signed conversion:
     * one instruction, where size_t's needs a test for 2^63) */
    if (!(systems >= 1 && systems < SWX_MEMO))
        return 0;
    int k = (int)systems;
    *i = (size_t)k;
    return (double)k == systems;
}

static double count_depth(const struct swx_spec *s, double systems)
{
    double d = 0;
    for (double reach = 1; reach < systems; reach *= s->fanout)
        d++;
    return d;
}

double swx_depth(const struct swx_spec *s, double systems)
{
    static _Thread_local double fanout[SWX_MEMO], depth[SWX_MEMO];
    size_t i;
    if (!swx_memo_index(systems, &i))
        return count_depth(s, systems);
    if (fanout[i] == 0 || fanout[i] != s->fanout) {
        depth[i] = count_depth(s, systems);
        fanout[i] = s->fanout;
    }
    return depth[i];
}

double swx_latency(const struct swx_spec *s, double systems)
{
    return swx_depth(s, systems) * (s->hop_latency_s + s->chunk_bytes / s->link_bw_Bps);
}

static double count_nodes(const struct swx_spec *s, double systems)
{
    /* Whole numbers (a checked cluster and fan-out always are): integer
     * arithmetic, ceil(a / k) as (a + k - 1) / k. */
    if (systems == floor(systems) && s->fanout == floor(s->fanout) && systems < 0x1p52 &&
        s->fanout >= 2 && s->fanout < 0x1p32) {
        uint64_t k = (uint64_t)s->fanout, nodes = 0;
        for (uint64_t level = (uint64_t)systems; level > 1;) {
            level = (level + k - 1) / k;
            nodes += level;
        }
        return (double)nodes;
    }
    double nodes = 0;
    for (double level = systems; level > 1;) {
        level = ceil(level / s->fanout);
        nodes += level;
    }
    return nodes;
}

/* Kept as swx_depth() is: its integer divisions were a twentieth of an
 * analytic evaluation. */
static double tree_nodes(const struct swx_spec *s, double systems)
{
    static _Thread_local double fanout[SWX_MEMO], nodes[SWX_MEMO];
    size_t i;
    if (!swx_memo_index(systems, &i))
        return count_nodes(s, systems);
    if (fanout[i] == 0 || fanout[i] != s->fanout) {
        nodes[i] = count_nodes(s, systems);
        fanout[i] = s->fanout;
    }
    return nodes[i];
}

double swx_nodes(const struct swx_spec *s, double systems)
{
    return s->lanes * tree_nodes(s, systems);
}
