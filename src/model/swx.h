/* swx.h - SwarmX: a tree of broadcast (weights down) and reduce (gradients
 * up) nodes of fan-out k over N systems.
 *
 * Depth is ceil(log_k N) levels (0 for one system).  Each level receives a
 * whole chunk before forwarding it, so the first chunk of a broadcast (or
 * the last of a reduce) arrives depth x (hop_latency + chunk / link
 * bandwidth) later than on a direct link; after that the stream flows at
 * the link rate.  A node is lanes servers, each carrying a share of the
 * streams (hw/cs3.ini: ALCF's 8 SwarmX nodes for 4 CS-3). */
#ifndef CP_SWX_H
#define CP_SWX_H

#include "../desc/hw.h"

double swx_depth(const struct swx_spec *s, double systems);
/* Latency of one broadcast or one reduce, seconds. */
double swx_latency(const struct swx_spec *s, double systems);
/* SwarmX servers: lanes x the nodes of the tree, ceil(N/k) + ceil(N/k^2)
 * + ... + 1 (0 for one system).  Each of the lanes parallel trees carries
 * 1/lanes of every stream; the rates and latency above are the tree's,
 * lanes together, so lanes changes the count only (its power, price and
 * failures). */
double swx_nodes(const struct swx_spec *s, double systems);

#endif
