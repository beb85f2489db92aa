/* swx.c - SwarmX tree depth, latency and size. */
#include "swx.h"

#include <math.h>

double swx_depth(const struct swx_spec *s, double systems)
{
    double d = 0;
    for (double reach = 1; reach < systems; reach *= s->fanout)
        d++;
    return d;
}

double swx_latency(const struct swx_spec *s, double systems)
{
    return swx_depth(s, systems) * (s->hop_latency_s + s->chunk_bytes / s->link_bw_Bps);
}

double swx_nodes(const struct swx_spec *s, double systems)
{
    double nodes = 0;
    for (double level = systems; level > 1;) {
        level = ceil(level / s->fanout);
        nodes += level;
    }
    return nodes;
}
