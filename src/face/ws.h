/* ws.h - the weight-streaming face's parts (src/face/ws_*.c), which
 * ws_face.c gathers into face_ws (cli/job.h). */
#ifndef CP_FACE_WS_H
#define CP_FACE_WS_H

#include "../cli/job.h"

int ws_estimate(const struct cli_opts *o, const struct job *j);
extern const struct scale_side ws_scale_side; /* scale.h */
int ws_plan(struct cli_opts *o);

#endif
