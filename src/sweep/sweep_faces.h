/* sweep_faces.h - each kind's side of sweep (sweep_ws.c, sweep_gpu.c;
 * struct sweep_face in sweep_int.h), for the faces (src/face) that point
 * to them. */
#ifndef CP_SWEEP_FACES_H
#define CP_SWEEP_FACES_H

struct sweep_face;
extern const struct sweep_face sweep_ws_face, sweep_gpu_face;

#endif
