/* ws_tm.h - the weight-streaming kind of the training-model interface
 * (tm.h): a job is a struct cluster (cluster.h) that has passed
 * cluster_check; its eval is train_eval at the job's own count and
 * train_at elsewhere (weak: the sequences per system kept, unrounded, as
 * train.h says); the detail is the struct train_result. */
#ifndef CP_WS_TM_H
#define CP_WS_TM_H

#include "../tm/tm.h"
#include "train.h"

extern const struct tm_kind tm_ws;

/* r's common figures from the weight-streaming result t at count. */
void ws_tm_result(const struct train_result *t, double count, struct tm_result *r);

#endif
