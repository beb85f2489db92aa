/* swx.h - SwarmX: a tree of broadcast (weights down) and reduce (gradients
 * up) nodes of fan-out k over N systems.
 *
 * Depth is ceil(log_k N) levels (0 for one system).  Each level receives a
 * whole chunk before forwarding it, so the first chunk of a broadcast (or
 * the last of a reduce) arrives depth x (hop_latency + chunk / link
 * bandwidth) later than on a direct link; after that the stream flows at
 * the link rate. */
#ifndef CP_SWX_H
#define CP_SWX_H

#include "../desc/hw.h"

double swx_depth(const struct swx_spec *s, double systems);
/* Latency of one broadcast or one reduce, seconds. */
double swx_latency(const struct swx_spec *s, double systems);
/* Broadcast/reduce nodes in the tree: ceil(N/k) + ceil(N/k^2) + ... + 1. */
double swx_nodes(const struct swx_spec *s, double systems);

#endif
