/* cli.h - the command-line front end: options shared by commands, the
 * command table, and helpers every command uses.  Only front ends print. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stddef.h>

#include "../desc/catalog.h"
#include "../desc/desc.h"
#include "out.h"

/* Exit codes (cerebras-plan(1), EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_VERDICT = 1, EXIT_USAGE = 2 };

#define CLI_MAX_SETS 64
#define CLI_MAX_ARGS 8
#define CLI_MAX_WHERE 16
#define CLI_MAX_OVERLAYS DESC_OVERLAY_MAX /* --hw-overlay, applied in order */

/* Options a command may accept (a mask in its table entry). */
enum cli_opt {
    OPT_CSV = 1u << 0,
    OPT_SET = 1u << 1,
    OPT_DATA_DIR = 1u << 2,
    OPT_SCENARIO = 1u << 3, /* -m -s -n --memoryx --sparsity --batch --tokens
                               --overlap --price --batch-penalty */
    OPT_SCALE = 1u << 4,    /* --systems --weak --strong */
    OPT_SIM = 1u << 5,      /* --steps --trace --functional --memoryx-units --optimizer */
    OPT_PLAN = 1u << 6,     /* --deadline --budget --energy --allow-sparsity --allow-batch
                               --verbose --confidence */
    OPT_CALIB = 1u << 7,    /* --fit */
    OPT_UNC = 1u << 8,      /* --uncertainty[=SAMPLES] --seed */
    OPT_OUTPUT = 1u << 9,   /* -o */
    OPT_REPORT = 1u << 10,  /* --format --force */
    OPT_SWEEP = 1u << 11,   /* --best --group-by --where -j/--jobs --shard --max-points --columns
                               --layouts */
    OPT_VALID = 1u << 12,   /* --tolerance */
    OPT_EVENTS = 1u << 13,  /* --max-events (simulate, crosscheck) */
    OPT_GPU = 1u << 14,     /* --tp --pp --cp --vp --mbs --fsdp --precision (GPU systems) */
    OPT_COMPARE = 1u << 15, /* --gpu --gpu-price (compare) */
    OPT_SENS = 1u << 16,    /* --metric (sensitivity) */
};

struct cli_opts {
    const char *cmd; /* the command's name (cli_parse_options), for messages */
    int csv;
    const char *data_dir;
    const char *sets[CLI_MAX_SETS];
    size_t nsets;
    /* --hw-overlay FILE, each time given, applied in order (with --set) */
    const char *overlays[CLI_MAX_OVERLAYS];
    size_t noverlays;
    const char *args[CLI_MAX_ARGS]; /* positional arguments */
    size_t nargs;
    struct cat_dirs dirs; /* filled by main from the options */
    /* Scenario options, as given (parsed by scenario_load). */
    const char *model, *system, *nsys, *memoryx, *sparsity, *batch, *tokens, *overlap, *price;
    const char *batch_tokens; /* --batch-tokens: the global batch in tokens */
    const char *mx_servers, *act_servers, *activations;
    int batch_penalty;
    const char *systems; /* scale: LIST or A..B */
    int weak, strong;
    const char *steps, *trace, *units, *optimizer; /* simulate */
    const char *max_events; /* simulate, crosscheck: the events a run may take */
    int functional;
    const char *deadline, *budget, *energy; /* plan targets */
    int allow_sparsity, allow_batch, verbose;
    const char *fit, *output;       /* calibrate */
    const char *tolerance;          /* validate */
    const char *uncertainty, *seed; /* "" for --uncertainty without a count */
    const char *confidence;         /* plan, compare: the share of draws to meet */
    const char *format;             /* report */
    int force;
    const char *best, *group_by, *jobs, *shard, *max_points; /* sweep */
    const char *columns;                                     /* sweep --columns LIST */
    const char *layouts; /* sweep on GPU systems: the layouts of each point */
    const char *where[CLI_MAX_WHERE];
    size_t nwhere;
    /* A GPU system's layout, as given; NULL: searched (gpu_search). */
    const char *tp, *pp, *mbs, *precision;
    const char *cp, *vp;         /* context-parallel ways, interleaved chunks per GPU */
    int fsdp;                    /* every layout FSDP (else the search's default)    */
    const char *gpu, *gpu_price; /* compare: the GPU system, its price per GPU-hour */
    const char *metric;          /* sensitivity: time, energy or cost */
};

struct cli_cmd {
    const char *name;
    const char *usage;   /* "show NAME|FILE" */
    const char *summary; /* one line for --help */
    const char *help;    /* the rest of `help COMMAND` */
    unsigned opts;       /* enum cli_opt mask */
    size_t min_args, max_args;
    int (*run)(struct cli_opts *o);
};

extern const struct cli_cmd cli_cmds[];
extern const size_t cli_ncmds;

const struct cli_cmd *cli_find(const char *name);
void cli_usage(FILE *f);                             /* program --help      */
void cli_cmd_help(FILE *f, const struct cli_cmd *c); /* COMMAND --help    */

/* The group (enum cli_opt) of the long option name ("memoryx") in the help
 * table of cmd.c; 0 for -h and -V (every command) and for a name it lacks. */
unsigned cli_opt_group(const char *name);

/* Index of the command word in argv: the first argument that is not an
 * option or an option's value; 0 if there is none (opts.c). */
int cli_command_index(int argc, char **argv);

/* Parse argv (the command word removed) for command c into o.  Returns -1
 * to continue, or an exit code after a message (or after --help or
 * --version, EXIT_OK). */
int cli_parse_options(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o);

/* Print "cerebras-plan: MSG" to stderr; returns EXIT_USAGE (emit.c). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Flush stdout: EXIT_OK, or EXIT_USAGE after a message if it could not be
 * written (a full disk, a closed pipe). */
int cli_flush(void);

/* The sink --csv selects; write t to stdout with it.  Returns EXIT_OK, or
 * EXIT_USAGE after a message if stdout could not be written. */
int cli_emit(const struct cli_opts *o, const struct out_table *t);

/* Command handlers. */
int cmd_list(struct cli_opts *o);
int cmd_show(struct cli_opts *o);
int cmd_help(struct cli_opts *o);
int cmd_estimate(struct cli_opts *o);
int cmd_scale(struct cli_opts *o);
int cmd_capacity(struct cli_opts *o);
int cmd_claims(struct cli_opts *o);
int cmd_simulate(struct cli_opts *o);
int cmd_crosscheck(struct cli_opts *o);
int cmd_plan(struct cli_opts *o);
int cmd_compare(struct cli_opts *o);
int cmd_calibrate(struct cli_opts *o);
int cmd_validate(struct cli_opts *o);
int cmd_sensitivity(struct cli_opts *o);
int cmd_report(struct cli_opts *o);
int cmd_explore(struct cli_opts *o);
int cmd_sweep(struct cli_opts *o);

#endif
