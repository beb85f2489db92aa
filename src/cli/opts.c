/* opts.c - the command line's options: the table getopt_long reads, which
 * field of struct cli_opts each sets and which commands accept it, and the
 * diagnosis of what it refuses (an option the command does not take, an
 * unknown or ambiguous name, a stray word, an empty path). */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "cli.h"
#include "config.h"

enum {
    LONG_CSV = 256,
    LONG_SET,
    LONG_DATA_DIR,
    LONG_MEMORYX,
    LONG_SPARSITY,
    LONG_BATCH,
    LONG_BATCH_TOKENS,
    LONG_TOKENS,
    LONG_OVERLAP,
    LONG_PRICE,
    LONG_BATCH_PENALTY,
    LONG_SYSTEMS,
    LONG_WEAK,
    LONG_STRONG,
    LONG_STEPS,
    LONG_TRACE,
    LONG_FUNCTIONAL,
    LONG_UNITS,
    LONG_OPTIMIZER,
    LONG_OVERLAY,
    LONG_DEADLINE,
    LONG_BUDGET,
    LONG_ENERGY,
    LONG_ALLOW_SPARSITY,
    LONG_ALLOW_BATCH,
    LONG_VERBOSE,
    LONG_FIT,
    LONG_TOLERANCE,
    LONG_UNCERTAINTY,
    LONG_SEED,
    LONG_CONFIDENCE,
    LONG_FORMAT,
    LONG_FORCE,
    LONG_BEST,
    LONG_GROUP_BY,
    LONG_WHERE,
    LONG_SHARD,
    LONG_MAX_POINTS,
    LONG_MAX_EVENTS,
    LONG_COLUMNS,
    LONG_LAYOUTS,
    LONG_MX_SERVERS,
    LONG_ACT_SERVERS,
    LONG_ACTIVATIONS,
    LONG_TP,
    LONG_PP,
    LONG_MBS,
    LONG_CP,
    LONG_VP,
    LONG_FSDP,
    LONG_PRECISION,
    LONG_GPU,
    LONG_GPU_PRICE,
    LONG_METRIC,
};

static const struct option long_opts[] = {
    {"csv", no_argument, NULL, LONG_CSV},
    {"set", required_argument, NULL, LONG_SET},
    {"data-dir", required_argument, NULL, LONG_DATA_DIR},
    {"model", required_argument, NULL, 'm'},
    {"system", required_argument, NULL, 's'},
    {"nsystems", required_argument, NULL, 'n'},
    {"memoryx", required_argument, NULL, LONG_MEMORYX},
    {"memoryx-servers", required_argument, NULL, LONG_MX_SERVERS},
    {"act-servers", required_argument, NULL, LONG_ACT_SERVERS},
    {"activations", required_argument, NULL, LONG_ACTIVATIONS},
    {"sparsity", required_argument, NULL, LONG_SPARSITY},
    {"batch", required_argument, NULL, LONG_BATCH},
    {"batch-tokens", required_argument, NULL, LONG_BATCH_TOKENS},
    {"tokens", required_argument, NULL, LONG_TOKENS},
    {"overlap", required_argument, NULL, LONG_OVERLAP},
    {"price", required_argument, NULL, LONG_PRICE},
    {"batch-penalty", no_argument, NULL, LONG_BATCH_PENALTY},
    {"systems", required_argument, NULL, LONG_SYSTEMS},
    {"weak", no_argument, NULL, LONG_WEAK},
    {"strong", no_argument, NULL, LONG_STRONG},
    {"steps", required_argument, NULL, LONG_STEPS},
    {"trace", required_argument, NULL, LONG_TRACE},
    {"functional", no_argument, NULL, LONG_FUNCTIONAL},
    {"memoryx-units", required_argument, NULL, LONG_UNITS},
    {"optimizer", required_argument, NULL, LONG_OPTIMIZER},
    {"hw-overlay", required_argument, NULL, LONG_OVERLAY},
    {"deadline", required_argument, NULL, LONG_DEADLINE},
    {"budget", required_argument, NULL, LONG_BUDGET},
    {"energy", required_argument, NULL, LONG_ENERGY},
    {"allow-sparsity", no_argument, NULL, LONG_ALLOW_SPARSITY},
    {"allow-batch", no_argument, NULL, LONG_ALLOW_BATCH},
    {"verbose", no_argument, NULL, LONG_VERBOSE},
    {"fit", required_argument, NULL, LONG_FIT},
    {"tolerance", required_argument, NULL, LONG_TOLERANCE},
    {"output", required_argument, NULL, 'o'},
    {"uncertainty", optional_argument, NULL, LONG_UNCERTAINTY},
    {"seed", required_argument, NULL, LONG_SEED},
    {"confidence", required_argument, NULL, LONG_CONFIDENCE},
    {"format", required_argument, NULL, LONG_FORMAT},
    {"force", no_argument, NULL, LONG_FORCE},
    {"best", required_argument, NULL, LONG_BEST},
    {"group-by", required_argument, NULL, LONG_GROUP_BY},
    {"where", required_argument, NULL, LONG_WHERE},
    {"jobs", required_argument, NULL, 'j'},
    {"shard", required_argument, NULL, LONG_SHARD},
    {"max-points", required_argument, NULL, LONG_MAX_POINTS},
    {"max-events", required_argument, NULL, LONG_MAX_EVENTS},
    {"columns", required_argument, NULL, LONG_COLUMNS},
    {"layouts", required_argument, NULL, LONG_LAYOUTS},
    {"tp", required_argument, NULL, LONG_TP},
    {"pp", required_argument, NULL, LONG_PP},
    {"mbs", required_argument, NULL, LONG_MBS},
    {"cp", required_argument, NULL, LONG_CP},
    {"vp", required_argument, NULL, LONG_VP},
    {"fsdp", no_argument, NULL, LONG_FSDP},
    {"precision", required_argument, NULL, LONG_PRECISION},
    {"gpu", required_argument, NULL, LONG_GPU},
    {"gpu-price", required_argument, NULL, LONG_GPU_PRICE},
    {"metric", required_argument, NULL, LONG_METRIC},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* An option that needs a value given without "=value" (a long option or an
 * abbreviation getopt_long accepts, or -m, -s, -n alone), so the next word
 * is its value. */
static int takes_value(const char *arg)
{
    if (arg[0] == '-' && arg[1] && arg[1] != '-' && arg[2] == '\0')
        return strchr("msnoj", arg[1]) != NULL;
    size_t n = strlen(arg);
    if (n < 3 || arg[1] != '-' || strchr(arg, '='))
        return 0;
    for (const struct option *lo = long_opts; lo->name; lo++)
        if (lo->has_arg == required_argument && strncmp(arg + 2, lo->name, n - 2) == 0)
            return 1;
    return 0;
}

/* Index of the command word: the first argument that is not an option or
 * an option's value; 0 if there is none. */
int cli_command_index(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return i + 1 < argc ? i + 1 : 0;
        if (argv[i][0] != '-' || argv[i][1] == '\0')
            return i;
        if (takes_value(argv[i]))
            i++;
    }
    return 0;
}

static int option_allowed(const struct cli_cmd *c, unsigned opt, const char *flag)
{
    if (c->opts & opt)
        return 1;
    cli_error("%s: option %s does not apply to this command (see 'cerebras-plan help %s')", c->name,
              flag, c->name);
    return 0;
}

/* "--name" of the long option whose value is ch, for messages. */
static const char *flag_of(int ch)
{
    static char buf[32];
    for (const struct option *lo = long_opts; lo->name; lo++)
        if (lo->val == ch) {
            snprintf(buf, sizeof buf, "--%s", lo->name);
            return buf;
        }
    return "?";
}

/* The options that set one field of struct cli_opts: the group a command
 * must accept (enum cli_opt), the field, and how the value is kept. */
enum field_kind {
    FIELD_TEXT,     /* the value as given */
    FIELD_FLAG,     /* 1 */
    FIELD_OPTIONAL, /* the value, or "" when none follows '=' */
    FIELD_LIST,     /* one more value of a list (at off, its count at count_off) */
};

static const struct opt_field {
    int ch; /* getopt_long's value */
    unsigned group;
    size_t off;
    enum field_kind kind;
    size_t count_off, max; /* FIELD_LIST */
} opt_fields[] = {
    {LONG_CSV, OPT_CSV, offsetof(struct cli_opts, csv), FIELD_FLAG, 0, 0},
    {LONG_DATA_DIR, OPT_DATA_DIR, offsetof(struct cli_opts, data_dir), FIELD_TEXT, 0, 0},
    {LONG_SET, OPT_SET, offsetof(struct cli_opts, sets), FIELD_LIST,
     offsetof(struct cli_opts, nsets), CLI_MAX_SETS},
    {LONG_OVERLAY, OPT_SET, offsetof(struct cli_opts, overlays), FIELD_LIST,
     offsetof(struct cli_opts, noverlays), CLI_MAX_OVERLAYS},
    {LONG_WHERE, OPT_SWEEP, offsetof(struct cli_opts, where), FIELD_LIST,
     offsetof(struct cli_opts, nwhere), CLI_MAX_WHERE},
    {'m', OPT_SCENARIO, offsetof(struct cli_opts, model), FIELD_TEXT, 0, 0},
    {'s', OPT_SCENARIO, offsetof(struct cli_opts, system), FIELD_TEXT, 0, 0},
    {'n', OPT_SCENARIO, offsetof(struct cli_opts, nsys), FIELD_TEXT, 0, 0},
    {LONG_MEMORYX, OPT_SCENARIO, offsetof(struct cli_opts, memoryx), FIELD_TEXT, 0, 0},
    {LONG_MX_SERVERS, OPT_SCENARIO, offsetof(struct cli_opts, mx_servers), FIELD_TEXT, 0, 0},
    {LONG_ACT_SERVERS, OPT_SCENARIO, offsetof(struct cli_opts, act_servers), FIELD_TEXT, 0, 0},
    {LONG_ACTIVATIONS, OPT_SCENARIO, offsetof(struct cli_opts, activations), FIELD_TEXT, 0, 0},
    {LONG_SPARSITY, OPT_SCENARIO, offsetof(struct cli_opts, sparsity), FIELD_TEXT, 0, 0},
    {LONG_BATCH, OPT_SCENARIO, offsetof(struct cli_opts, batch), FIELD_TEXT, 0, 0},
    {LONG_BATCH_TOKENS, OPT_SCENARIO, offsetof(struct cli_opts, batch_tokens), FIELD_TEXT, 0, 0},
    {LONG_TOKENS, OPT_SCENARIO, offsetof(struct cli_opts, tokens), FIELD_TEXT, 0, 0},
    {LONG_OVERLAP, OPT_SCENARIO, offsetof(struct cli_opts, overlap), FIELD_TEXT, 0, 0},
    {LONG_PRICE, OPT_SCENARIO, offsetof(struct cli_opts, price), FIELD_TEXT, 0, 0},
    {LONG_BATCH_PENALTY, OPT_SCENARIO, offsetof(struct cli_opts, batch_penalty), FIELD_FLAG, 0, 0},
    {LONG_SYSTEMS, OPT_SCALE, offsetof(struct cli_opts, systems), FIELD_TEXT, 0, 0},
    {LONG_WEAK, OPT_SCALE, offsetof(struct cli_opts, weak), FIELD_FLAG, 0, 0},
    {LONG_STRONG, OPT_SCALE, offsetof(struct cli_opts, strong), FIELD_FLAG, 0, 0},
    {LONG_STEPS, OPT_SIM, offsetof(struct cli_opts, steps), FIELD_TEXT, 0, 0},
    {LONG_TRACE, OPT_SIM, offsetof(struct cli_opts, trace), FIELD_TEXT, 0, 0},
    {LONG_FUNCTIONAL, OPT_SIM, offsetof(struct cli_opts, functional), FIELD_FLAG, 0, 0},
    {LONG_UNITS, OPT_SIM, offsetof(struct cli_opts, units), FIELD_TEXT, 0, 0},
    {LONG_OPTIMIZER, OPT_SIM, offsetof(struct cli_opts, optimizer), FIELD_TEXT, 0, 0},
    {LONG_DEADLINE, OPT_PLAN, offsetof(struct cli_opts, deadline), FIELD_TEXT, 0, 0},
    {LONG_BUDGET, OPT_PLAN, offsetof(struct cli_opts, budget), FIELD_TEXT, 0, 0},
    {LONG_ENERGY, OPT_PLAN, offsetof(struct cli_opts, energy), FIELD_TEXT, 0, 0},
    {LONG_ALLOW_SPARSITY, OPT_PLAN, offsetof(struct cli_opts, allow_sparsity), FIELD_FLAG, 0, 0},
    {LONG_ALLOW_BATCH, OPT_PLAN, offsetof(struct cli_opts, allow_batch), FIELD_FLAG, 0, 0},
    {LONG_VERBOSE, OPT_PLAN, offsetof(struct cli_opts, verbose), FIELD_FLAG, 0, 0},
    {LONG_FIT, OPT_CALIB, offsetof(struct cli_opts, fit), FIELD_TEXT, 0, 0},
    {LONG_TOLERANCE, OPT_VALID, offsetof(struct cli_opts, tolerance), FIELD_TEXT, 0, 0},
    {'o', OPT_OUTPUT, offsetof(struct cli_opts, output), FIELD_TEXT, 0, 0},
    {LONG_UNCERTAINTY, OPT_UNC, offsetof(struct cli_opts, uncertainty), FIELD_OPTIONAL, 0, 0},
    {LONG_SEED, OPT_UNC, offsetof(struct cli_opts, seed), FIELD_TEXT, 0, 0},
    {LONG_CONFIDENCE, OPT_PLAN, offsetof(struct cli_opts, confidence), FIELD_TEXT, 0, 0},
    {LONG_FORMAT, OPT_REPORT, offsetof(struct cli_opts, format), FIELD_TEXT, 0, 0},
    {LONG_FORCE, OPT_REPORT, offsetof(struct cli_opts, force), FIELD_FLAG, 0, 0},
    {LONG_BEST, OPT_SWEEP, offsetof(struct cli_opts, best), FIELD_TEXT, 0, 0},
    {LONG_GROUP_BY, OPT_SWEEP, offsetof(struct cli_opts, group_by), FIELD_TEXT, 0, 0},
    {'j', OPT_SWEEP, offsetof(struct cli_opts, jobs), FIELD_TEXT, 0, 0},
    {LONG_SHARD, OPT_SWEEP, offsetof(struct cli_opts, shard), FIELD_TEXT, 0, 0},
    {LONG_MAX_POINTS, OPT_SWEEP, offsetof(struct cli_opts, max_points), FIELD_TEXT, 0, 0},
    {LONG_MAX_EVENTS, OPT_EVENTS, offsetof(struct cli_opts, max_events), FIELD_TEXT, 0, 0},
    {LONG_COLUMNS, OPT_SWEEP, offsetof(struct cli_opts, columns), FIELD_TEXT, 0, 0},
    {LONG_LAYOUTS, OPT_SWEEP, offsetof(struct cli_opts, layouts), FIELD_TEXT, 0, 0},
    {LONG_TP, OPT_GPU, offsetof(struct cli_opts, tp), FIELD_TEXT, 0, 0},
    {LONG_PP, OPT_GPU, offsetof(struct cli_opts, pp), FIELD_TEXT, 0, 0},
    {LONG_MBS, OPT_GPU, offsetof(struct cli_opts, mbs), FIELD_TEXT, 0, 0},
    {LONG_CP, OPT_GPU, offsetof(struct cli_opts, cp), FIELD_TEXT, 0, 0},
    {LONG_VP, OPT_GPU, offsetof(struct cli_opts, vp), FIELD_TEXT, 0, 0},
    {LONG_FSDP, OPT_GPU, offsetof(struct cli_opts, fsdp), FIELD_FLAG, 0, 0},
    {LONG_PRECISION, OPT_GPU, offsetof(struct cli_opts, precision), FIELD_TEXT, 0, 0},
    {LONG_GPU, OPT_COMPARE, offsetof(struct cli_opts, gpu), FIELD_TEXT, 0, 0},
    {LONG_GPU_PRICE, OPT_COMPARE, offsetof(struct cli_opts, gpu_price), FIELD_TEXT, 0, 0},
    {LONG_METRIC, OPT_SENS, offsetof(struct cli_opts, metric), FIELD_TEXT, 0, 0},
};

static const struct opt_field *field_of(int ch)
{
    for (size_t i = 0; i < sizeof opt_fields / sizeof opt_fields[0]; i++)
        if (opt_fields[i].ch == ch)
            return &opt_fields[i];
    return NULL;
}

/* Set o's field for the option f with value arg, if command c takes it.
 * Returns -1, or an exit code after a message. */
static int set_field(const struct cli_cmd *c, struct cli_opts *o, const struct opt_field *f,
                     const char *arg)
{
    if (!option_allowed(c, f->group, flag_of(f->ch)))
        return EXIT_USAGE;
    char *at = (char *)o + f->off;
    if (f->kind == FIELD_FLAG) {
        *(int *)(void *)at = 1;
    } else if (f->kind == FIELD_LIST) {
        size_t *n = (size_t *)(void *)((char *)o + f->count_off);
        if (*n == f->max)
            return cli_error("%s: more than %zu %s options", c->name, f->max, flag_of(f->ch));
        ((const char **)(void *)at)[(*n)++] = arg;
    } else {
        *(const char **)(void *)at = f->kind == FIELD_OPTIONAL && !arg ? "" : arg;
    }
    return -1;
}

/* In the order the user typed (before getopt permuted argv): a word after
 * an option's value, when the command has too many arguments, is most
 * likely the second half of an unquoted value ("--memoryx 8 TB"). */
static int parse_argv(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o);

static int stray_word(const struct cli_cmd *c, char **orig, char **argv, int argc,
                      const struct cli_opts *o)
{
    for (int i = 1; i + 2 < argc; i++) {
        if (strcmp(orig[i], "--") == 0)
            break;
        if (orig[i][0] != '-' || !takes_value(orig[i]))
            continue;
        if (orig[i + 2][0] != '-')
            return cli_error("%s: stray word '%s' after '%s %s': quote a value with a space "
                             "(%s '%s %s') or drop the word",
                             c->name, orig[i + 2], orig[i], orig[i + 1], orig[i], orig[i + 1],
                             orig[i + 2]);
        i++;
    }
    /* the first word too many: kept, or (past CLI_MAX_ARGS) still in argv */
    const char *extra = o->nargs > c->max_args          ? o->args[c->max_args]
                        : optind + (int)o->nargs < argc ? argv[optind + (int)o->nargs]
                                                        : "";
    if (c->max_args > 1)
        return cli_error("%s: unexpected argument '%s' (at most %zu); usage: cerebras-plan %s",
                         c->name, extra, c->max_args, c->usage);
    return cli_error("%s: unexpected argument '%s'; usage: cerebras-plan %s", c->name, extra,
                     c->usage);
}

/* A long option getopt_long refused ('?' both for no match and for a
 * prefix of several): which of the two, and the candidates of the second. */
static int unknown_long(const struct cli_cmd *c, const char *arg)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "="), k = 0;
    char list[1024] = "";
    for (const struct option *lo = long_opts; lo->name && strncmp(arg, "--", 2) == 0; lo++)
        if (strncmp(lo->name, name, len) == 0) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s--%s", k++ ? ", " : "", lo->name);
        }
    if (k > 1)
        return cli_error("%s: ambiguous option '%s': %s (see 'cerebras-plan help %s')", c->name,
                         arg, list, c->name);
    if (k == 1 && name[len] == '=') /* the only other refusal: a value it does not take */
        return cli_error("%s: option %s takes no value ('%s')", c->name, list, arg);
    return cli_error("%s: unknown option '%s' (see 'cerebras-plan help %s')", c->name, arg,
                     c->name);
}

/* Options naming a file or folder given as "": refused before anything
 * runs (an empty name fails only when opened, which may be after a long
 * simulation). */
static int empty_path(const struct cli_cmd *c, const struct cli_opts *o)
{
    const char *flag = o->output && !*o->output       ? "-o"
                       : o->trace && !*o->trace       ? "--trace"
                       : o->data_dir && !*o->data_dir ? "--data-dir"
                                                      : NULL;
    for (size_t i = 0; i < o->noverlays && !flag; i++)
        if (!*o->overlays[i])
            flag = "--hw-overlay";
    if (!flag)
        return -1;
    return cli_error("%s: %s '': an empty path (name a %s)", c->name, flag,
                     strcmp(flag, "--data-dir") == 0                             ? "directory"
                     : strcmp(c->name, "report") == 0 && strcmp(flag, "-o") == 0 ? "folder"
                                                                                 : "file");
}

/* An option without a field: -h, -V, or one getopt_long refused (a missing
 * value, an unknown name).  Returns an exit code. */
static int other_option(const struct cli_cmd *c, int ch, char **argv)
{
    switch (ch) {
    case 'h':
        cli_cmd_help(stdout, c);
        return cli_flush();
    case 'V':
        printf("cerebras-plan %s\n", CP_VERSION);
        return cli_flush();
    case ':':
        return cli_error("%s: option %s needs a value", c->name, argv[optind - 1]);
    default:
        if (optopt > 0 && optopt < 256) /* an unknown letter, maybe in a cluster */
            return cli_error("%s: unknown option '-%c' (see 'cerebras-plan help %s')", c->name,
                             optopt, c->name);
        return unknown_long(c, argv[optind - 1]);
    }
}

/* The words after the options (argv from optind): the command's arguments.
 * Returns -1, -2 when there are more than the command takes, or an exit
 * code after a message. */
static int positional(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o)
{
    for (int i = optind; i < argc; i++) {
        if (o->nargs == CLI_MAX_ARGS)
            return -2;
        o->args[o->nargs++] = argv[i];
    }
    /* "--uncertainty 500": a count after the option, for commands without
     * positional arguments (getopt takes optional values only after '='). */
    if (o->uncertainty && !*o->uncertainty && c->max_args == 0 && o->nargs == 1 &&
        strspn(o->args[0], "0123456789") == strlen(o->args[0])) {
        o->uncertainty = o->args[0];
        o->nargs = 0;
    }
    if (o->nargs > c->max_args)
        return -2;
    if (empty_path(c, o) >= 0)
        return EXIT_USAGE;
    if (o->nargs < c->min_args)
        return cli_error("%s: wrong number of arguments; usage: cerebras-plan %s", c->name,
                         c->usage);
    return -1;
}

/* cli_parse_options() without the diagnosis of a stray word: -2 when there
 * are more arguments than the command takes. */
static int parse_argv(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o)
{
    opterr = 0;
    optind = 1;
    for (int ch; (ch = getopt_long(argc, argv, ":hVm:s:n:o:j:", long_opts, NULL)) != -1;) {
        const struct opt_field *f = field_of(ch);
        int rc = f ? set_field(c, o, f, optarg) : other_option(c, ch, argv);
        if (rc != -1)
            return rc;
    }
    return positional(c, argc, argv, o);
}

int cli_parse_options(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o)
{
    char **orig = xmalloc(((size_t)argc + 1) * sizeof *orig);
    memcpy(orig, argv, ((size_t)argc + 1) * sizeof *orig);
    o->cmd = c->name;
    int rc = parse_argv(c, argc, argv, o);
    if (rc == -2)
        rc = stray_word(c, orig, argv, argc, o);
    free(orig);
    return rc;
}
