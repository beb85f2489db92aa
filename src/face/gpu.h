/* gpu.h - the GPU face's parts (src/face/gpu_*.c), which gpu_face.c
 * gathers into face_gpu (cli/job.h). */
#ifndef CP_FACE_GPU_H
#define CP_FACE_GPU_H

#include "../cli/job.h"

int gpu_estimate(const struct cli_opts *o, const struct job *j);
extern const struct scale_side gpu_scale_side; /* scale.h */
int gpu_plan(struct cli_opts *o);

#endif
