/* explore.h - the state of the interactive explorer and what keys do to
 * it, apart from drawing (explore_draw.c) and the terminal (cmd_explore.c,
 * the only file that starts or ends curses).  The explorer evaluates the
 * same core functions as the commands. */
#ifndef CP_EXPLORE_H
#define CP_EXPLORE_H

#include "../model/train.h"
#include "../plan/unc.h"
#include "scenario.h"

enum xp_param {
    XP_MODEL,
    XP_SYSTEM,
    XP_SYSTEMS,
    XP_MEMORYX,
    XP_SPARSITY,
    XP_BATCH,
    XP_SEQLEN,
    XP_OVERLAP,
    XP_HWKEY,
    XP_HWVAL,
    XP_NPARAMS
};
extern const char *const xp_param_name[XP_NPARAMS];

enum xp_chart { XP_CHART_SPEEDUP, XP_CHART_BREAKDOWN, XP_CHART_SPARSITY, XP_NCHARTS };
extern const char *const xp_chart_title[XP_NCHARTS];

/* Points of a chart: enough for one per column of a wide terminal. */
#define XP_CURVE_MAX 256
/* Draws of the uncertainty band (1000 take about a millisecond). */
#define XP_UNC_SAMPLES 1000

struct xp_curve {
    size_t n;
    double x[XP_CURVE_MAX];
    double y[XP_CURVE_MAX];
    double part[XP_CURVE_MAX][STEP_NRES]; /* breakdown: paced time per resource */
};

struct xp_state {
    struct cli_opts *o;
    struct scenario s;
    struct cat_list models, systems;
    size_t model_i, system_i;
    int hwkey; /* hw_schema index shown in the hw rows */
    int sel;   /* enum xp_param */
    enum xp_chart chart;
    int help, unc, prompt; /* overlays and modes */
    char input[128];       /* the prompt's text */
    char status[512];      /* the status line */
    struct train_result r;
    struct unc_result band;
    int band_ok;
    struct xp_curve curve;
    int chart_cols; /* points wanted across the chart */
};

/* Load the scenario of o (-m -s -n ... as estimate does) and the lists of
 * names.  -1, or an exit code after a message. */
int xp_init(struct xp_state *x, struct cli_opts *o);
void xp_free(struct xp_state *x);

/* Evaluate the scenario, the band (when on) and the chart's curve. */
void xp_recompute(struct xp_state *x);

/* Apply one key (curses key codes).  Returns 1 to quit, else 0. */
int xp_key(struct xp_state *x, int key);

/* The value of parameter p as shown ("192", "4TB", "0.75"). */
const char *xp_value(const struct xp_state *x, enum xp_param p, char *buf, size_t n);

#endif
