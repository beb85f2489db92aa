/* explore.h - the state of the interactive explorer (explore.c) and what
 * keys do to it (explore_key.c), apart from drawing (explore_draw.c), the
 * terminal and the files the
 * keys e, s and r write (cmd_explore.c, the only file that starts or ends
 * curses).  The explorer evaluates jobs through the training-model
 * interface (tm_eval into t.r, the band through unc_job_run) and draws
 * one results panel from t.r on either screen: on a weight-streaming
 * system the job is its scenario's cluster (struct scenario, the model's
 * own knobs: MemoryX tier, sparsity, overlap; the kind's detail, the
 * train_result, in r for the links of the stream, the warnings and the
 * export), and its charts also evaluate through the interface but for
 * time against sparsity, a knob of that model; on any other kind the job
 * is the one job_load makes of the options (struct xp_tm, explore_tm.c:
 * the knobs the options every kind takes). */
#ifndef CP_EXPLORE_H
#define CP_EXPLORE_H

#include <stdio.h>
#include "../model/train.h"
#include "../plan/unc.h"
#include "../face/scenario_ws.h"
#include "../cli/job.h"

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
/* Draws of the uncertainty band (1000 take about a millisecond), the same
 * draws (seed UNC_DEFAULT_SEED) for the results and for the charts. */
#define XP_UNC_SAMPLES 1000
/* Points of a chart evaluated on every draw for its band (the others are
 * interpolated between them): about 20 ms a key with the band on. */
#define XP_BAND_POINTS 32
/* The band's percentiles, and its label wherever it is shown. */
#define XP_BAND_LO 0.10
#define XP_BAND_HI 0.90
#define XP_BAND_LABEL "10-90%"

struct xp_curve {
    size_t n;
    double x[XP_CURVE_MAX];
    double y[XP_CURVE_MAX];
    double lo[XP_CURVE_MAX], hi[XP_CURVE_MAX]; /* band of y (when band_ok); NAN where none */
    double part[XP_CURVE_MAX][TM_MAX_PARTS];   /* breakdown: the step's parts, seconds */
};

/* The knobs of a job reached through the training-model interface: what
 * the options -m -s -n --batch and --set give (batch and seq_len 0, and
 * hw_set 0: as the command line gave them). */
struct xp_knobs {
    char model[CAT_NAME_MAX], system[CAT_NAME_MAX];
    double count, batch, seq_len;
    double hw[DESC_MAX_KEYS]; /* by the kind's parameter index */
    unsigned char hw_set[DESC_MAX_KEYS];
};

/* The text of the options built from the knobs. */
struct xp_tm_args {
    char model[CAT_NAME_MAX], system[CAT_NAME_MAX];
    char num[2][48];
    char sets[CLI_MAX_SETS][160];
};

/* The explorer on a kind reached through the interface (explore_tm.c). */
struct xp_tm {
    int on;
    struct xp_knobs k;
    struct xp_tm_args args;
    struct cli_opts o; /* the options of the job (text in args) */
    struct job j;
    struct wl_desc wl; /* the job's workload (its batch and sequence length) */
    struct tm_result r; /* the job's result; on either screen (the
                           weight-streaming one's, of its scenario) */
    void *detail; /* the kind's, detail_size bytes */
    size_t param; /* the kind's parameter on the hw rows */
    int fresh;    /* r, the band and the curve are of the job, chart and u as they are */
    enum xp_chart chart;
    int unc; /* x->unc when r was computed */
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
    struct train_result r; /* the scenario's detail (its result: t.r) */
    struct unc_result band;
    int band_ok;
    struct xp_curve curve;
    int chart_cols; /* points wanted across the chart */
    double *draws;  /* XP_BAND_POINTS + 1 rows of XP_UNC_SAMPLES values (the chart's band) */
    /* The hardware and sequence length as loaded (files, --hw-overlay and
     * --set): what the explorer changed since is what differs from them. */
    struct hw_desc loaded_hw;
    double loaded_seq_len;
    struct xp_tm t; /* t.on: the job is the interface's, not s */
};

/* Load the scenario of o (-m -s -n ... as estimate does) and the lists of
 * names.  -1, or an exit code after a message. */
int xp_init(struct xp_state *x, struct cli_opts *o);
void xp_free(struct xp_state *x);

/* Evaluate the scenario, the band (when on) and the chart's curve. */
void xp_recompute(struct xp_state *x);

/* Reload model and system by name, keeping the scenario's settings.
 * Returns 0, or -1 (and x as it was) when they do not load. */
int xp_reload(struct xp_state *x, const char *model, const char *system);

/* Apply one key (curses key codes; explore_key.c).  Returns 1 to quit,
 * else 0. */
int xp_key(struct xp_state *x, int key);

/* The value of parameter p as shown ("192", "4TB", "0.75"). */
const char *xp_value(const struct xp_state *x, enum xp_param p, char *buf, size_t n);

/* The name of parameter p in messages and prompts: the hardware key itself
 * ("memoryx.update_flop_per_param") for hw value, else xp_param_name[p]. */
const char *xp_label(const struct xp_state *x, enum xp_param p, char *buf, size_t n);

/* Put "NAME=VALUE" (written into slot, size bytes, which must outlive o)
 * among o's --set: in place of one that sets NAME already, else after
 * them.  -1 when there is no room. */
int xp_put_set(struct cli_opts *o, char *slot, size_t size, const char *name, const char *value);

/* The last message of the program in f ("cerebras-plan: MSG", without the
 * prefix) into buf; "" when there is none. */
void xp_last_message(FILE *f, char *buf, size_t n);

/* The explorer over the training-model interface (explore_tm.c), for a
 * system whose kind is not the weight-streaming scenario's: load o (-1, or
 * an exit code after a message); evaluate (1, with why, when the band is
 * on and fails); a parameter's value as shown;
 * the hw value's name; step the selected parameter, or the prompt's text
 * as its value: 0, or 1 and why (without the parameter's name) when it
 * does not apply or the job refuses it. */
int xp_tm_init(struct xp_state *x);
void xp_tm_free(struct xp_state *x);
int xp_tm_recompute(struct xp_state *x, char *why, size_t n);
const char *xp_tm_value(const struct xp_state *x, enum xp_param p, char *buf, size_t n);
const char *xp_tm_param_label(const struct xp_state *x, char *buf, size_t n);
int xp_tm_step(struct xp_state *x, int dir, int fine, char *why, size_t n);
int xp_tm_input(struct xp_state *x, const char *in, char *why, size_t n);

/* What the job's band draws: its hardware keys with a +- range, and one
 * more when its model states its own error (unc.h); 0: the band is the
 * point estimate. */
size_t xp_tm_ranged(const struct xp_state *x);

/* Set the status line (printf format). */
void xp_status(struct xp_state *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
