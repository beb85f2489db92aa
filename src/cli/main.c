/* main.c - cerebras-plan entry point: find the command, parse the options it
 * accepts, build the description search path, dispatch through the table. */
#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "config.h"
#include "../base/xalloc.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("cerebras-plan: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

int cli_flush(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_error("error writing the output: %s", strerror(errno));
    return EXIT_OK;
}

int cli_emit(const struct cli_opts *o, const struct out_table *t)
{
    const struct out_sink *sink = o->csv ? &out_csv : &out_text;
    sink->write(stdout, t);
    return cli_flush();
}

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
    LONG_FORMAT,
    LONG_FORCE,
    LONG_BEST,
    LONG_GROUP_BY,
    LONG_WHERE,
    LONG_SHARD,
    LONG_MAX_POINTS,
    LONG_MAX_EVENTS,
    LONG_COLUMNS,
    LONG_MX_SERVERS,
    LONG_ACT_SERVERS,
    LONG_ACTIVATIONS,
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
static int find_command(int argc, char **argv)
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

/* The option group a scenario option belongs to (enum cli_opt), or 0. */
static unsigned scenario_mask(int ch)
{
    switch (ch) {
    case 'm':
    case 's':
    case 'n':
    case LONG_MEMORYX:
    case LONG_MX_SERVERS:
    case LONG_ACT_SERVERS:
    case LONG_ACTIVATIONS:
    case LONG_SPARSITY:
    case LONG_BATCH:
    case LONG_BATCH_TOKENS:
    case LONG_TOKENS:
    case LONG_OVERLAP:
    case LONG_PRICE:
    case LONG_BATCH_PENALTY:
        return OPT_SCENARIO;
    case LONG_SYSTEMS:
    case LONG_WEAK:
    case LONG_STRONG:
        return OPT_SCALE;
    case LONG_STEPS:
    case LONG_TRACE:
    case LONG_FUNCTIONAL:
    case LONG_UNITS:
    case LONG_OPTIMIZER:
        return OPT_SIM;
    case LONG_DEADLINE:
    case LONG_BUDGET:
    case LONG_ENERGY:
    case LONG_ALLOW_SPARSITY:
    case LONG_ALLOW_BATCH:
    case LONG_VERBOSE:
        return OPT_PLAN;
    case LONG_FIT:
        return OPT_CALIB;
    case LONG_TOLERANCE:
        return OPT_VALID;
    case 'o':
        return OPT_OUTPUT;
    case LONG_FORMAT:
    case LONG_FORCE:
        return OPT_REPORT;
    case LONG_UNCERTAINTY:
    case LONG_SEED:
        return OPT_UNC;
    case LONG_OVERLAY:
        return OPT_SET;
    case LONG_BEST:
    case LONG_GROUP_BY:
    case LONG_WHERE:
    case 'j':
    case LONG_SHARD:
    case LONG_MAX_POINTS:
    case LONG_COLUMNS:
        return OPT_SWEEP;
    case LONG_MAX_EVENTS:
        return OPT_EVENTS;
    default:
        return 0;
    }
}

static void scenario_option(struct cli_opts *o, int ch, const char *arg)
{
    switch (ch) {
    case 'm':
        o->model = arg;
        break;
    case 's':
        o->system = arg;
        break;
    case 'n':
        o->nsys = arg;
        break;
    case LONG_MEMORYX:
        o->memoryx = arg;
        break;
    case LONG_MX_SERVERS:
        o->mx_servers = arg;
        break;
    case LONG_ACT_SERVERS:
        o->act_servers = arg;
        break;
    case LONG_ACTIVATIONS:
        o->activations = arg;
        break;
    case LONG_SPARSITY:
        o->sparsity = arg;
        break;
    case LONG_BATCH:
        o->batch = arg;
        break;
    case LONG_BATCH_TOKENS:
        o->batch_tokens = arg;
        break;
    case LONG_TOKENS:
        o->tokens = arg;
        break;
    case LONG_OVERLAP:
        o->overlap = arg;
        break;
    case LONG_PRICE:
        o->price = arg;
        break;
    case LONG_BATCH_PENALTY:
        o->batch_penalty = 1;
        break;
    case LONG_SYSTEMS:
        o->systems = arg;
        break;
    case LONG_WEAK:
        o->weak = 1;
        break;
    case LONG_STRONG:
        o->strong = 1;
        break;
    case LONG_STEPS:
        o->steps = arg;
        break;
    case LONG_TRACE:
        o->trace = arg;
        break;
    case LONG_FUNCTIONAL:
        o->functional = 1;
        break;
    case LONG_UNITS:
        o->units = arg;
        break;
    case LONG_OPTIMIZER:
        o->optimizer = arg;
        break;
    case LONG_DEADLINE:
        o->deadline = arg;
        break;
    case LONG_BUDGET:
        o->budget = arg;
        break;
    case LONG_ENERGY:
        o->energy = arg;
        break;
    case LONG_ALLOW_SPARSITY:
        o->allow_sparsity = 1;
        break;
    case LONG_ALLOW_BATCH:
        o->allow_batch = 1;
        break;
    case LONG_VERBOSE:
        o->verbose = 1;
        break;
    case LONG_FIT:
        o->fit = arg;
        break;
    case LONG_TOLERANCE:
        o->tolerance = arg;
        break;
    case 'o':
        o->output = arg;
        break;
    case LONG_UNCERTAINTY:
        o->uncertainty = arg ? arg : "";
        break;
    case LONG_SEED:
        o->seed = arg;
        break;
    case LONG_FORMAT:
        o->format = arg;
        break;
    case LONG_FORCE:
        o->force = 1;
        break;
    case LONG_BEST:
        o->best = arg;
        break;
    case LONG_GROUP_BY:
        o->group_by = arg;
        break;
    case 'j':
        o->jobs = arg;
        break;
    case LONG_SHARD:
        o->shard = arg;
        break;
    case LONG_MAX_POINTS:
        o->max_points = arg;
        break;
    case LONG_MAX_EVENTS:
        o->max_events = arg;
        break;
    case LONG_COLUMNS:
        o->columns = arg;
        break;
    default:
        break;
    }
}

/* Parse argv (the command word removed) for command c into o.  Returns -1
 * to continue, or an exit code. */
/* In the order the user typed (before getopt permuted argv): a word after
 * an option's value, when the command has too many arguments, is most
 * likely the second half of an unquoted value ("--memoryx 8 TB"). */
static int parse_argv(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o);

static int stray_word(const struct cli_cmd *c, char **orig, int argc, const struct cli_opts *o)
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
    return cli_error("%s: unexpected argument '%s'; usage: cerebras-plan %s", c->name,
                     o->nargs > c->max_args ? o->args[c->max_args] : "", c->usage);
}

static int parse_options(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o)
{
    char **orig = xmalloc(((size_t)argc + 1) * sizeof *orig);
    memcpy(orig, argv, ((size_t)argc + 1) * sizeof *orig);
    int rc = parse_argv(c, argc, argv, o);
    if (rc == -2)
        rc = stray_word(c, orig, argc, o);
    free(orig);
    return rc;
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

/* parse_options() without the diagnosis: -2 when there are more
 * arguments than the command takes. */
static int parse_argv(const struct cli_cmd *c, int argc, char **argv, struct cli_opts *o)
{
    opterr = 0;
    optind = 1;
    for (int ch; (ch = getopt_long(argc, argv, ":hVm:s:n:o:j:", long_opts, NULL)) != -1;) {
        switch (ch) {
        case 'h':
            cli_cmd_help(stdout, c);
            return cli_flush();
        case 'V':
            printf("cerebras-plan %s\n", CP_VERSION);
            return cli_flush();
        case LONG_CSV:
            if (!option_allowed(c, OPT_CSV, "--csv"))
                return EXIT_USAGE;
            o->csv = 1;
            break;
        case LONG_SET:
            if (!option_allowed(c, OPT_SET, "--set"))
                return EXIT_USAGE;
            if (o->nsets == CLI_MAX_SETS)
                return cli_error("%s: more than %d --set options", c->name, CLI_MAX_SETS);
            o->sets[o->nsets++] = optarg;
            break;
        case LONG_DATA_DIR:
            if (!option_allowed(c, OPT_DATA_DIR, "--data-dir"))
                return EXIT_USAGE;
            o->data_dir = optarg;
            break;
        case LONG_OVERLAY:
            if (!option_allowed(c, OPT_SET, "--hw-overlay"))
                return EXIT_USAGE;
            if (o->noverlays == CLI_MAX_OVERLAYS)
                return cli_error("%s: more than %d --hw-overlay options", c->name,
                                 CLI_MAX_OVERLAYS);
            o->overlays[o->noverlays++] = optarg;
            break;
        case LONG_WHERE:
            if (!option_allowed(c, OPT_SWEEP, "--where"))
                return EXIT_USAGE;
            if (o->nwhere == CLI_MAX_WHERE)
                return cli_error("%s: more than %d --where options", c->name, CLI_MAX_WHERE);
            o->where[o->nwhere++] = optarg;
            break;
        case ':':
            return cli_error("%s: option %s needs a value", c->name, argv[optind - 1]);
        default:
            if (scenario_mask(ch)) {
                if (!option_allowed(c, scenario_mask(ch), flag_of(ch)))
                    return EXIT_USAGE;
                scenario_option(o, ch, optarg);
                break;
            }
            if (optopt > 0 && optopt < 256) /* an unknown letter, maybe in a cluster */
                return cli_error("%s: unknown option '-%c' (see 'cerebras-plan help %s')", c->name,
                                 optopt, c->name);
            return unknown_long(c, argv[optind - 1]);
        }
    }
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

static int run_command(const struct cli_cmd *c, int argc, char **argv)
{
    static struct cli_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse_options(c, argc, argv, &o);
    if (rc >= 0)
        return rc;
    const char *env = getenv("CEREBRAS_PLAN_PATH");
    const char *installed = getenv("CEREBRAS_PLAN_DATADIR"); /* "" turns it off */
    char *env_copy = env ? xstrdup(env) : NULL;
    struct cp_error err = {0};
    struct stat dd;
    if (o.data_dir) {
        int missing = stat(o.data_dir, &dd) != 0;
        if (missing || !S_ISDIR(dd.st_mode)) {
            free(env_copy);
            return cli_error("--data-dir '%s': %s", o.data_dir,
                             missing ? strerror(errno) : "not a directory");
        }
    }
    if (cat_dirs_init(&o.dirs, o.data_dir, env_copy, installed ? installed : CP_DATADIR, &err) ==
        CP_OK)
        rc = c->run(&o);
    else
        rc = cli_error("%s", err.msg);
    free(env_copy);
    return rc;
}

/* Options given before any command: only --help and --version mean
 * something there. */
static int program_options(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
            printf("cerebras-plan %s\n", CP_VERSION);
            return cli_flush();
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_usage(stdout);
            return cli_flush();
        }
    }
    cli_usage(stderr);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* numbers in files and output use '.' */
    gsl_set_error_handler_off();

    int ci = find_command(argc, argv);
    if (ci == 0)
        return program_options(argc, argv);
    const struct cli_cmd *c = cli_find(argv[ci]);
    if (!c)
        return cli_error("unknown command '%s' (see 'cerebras-plan --help')", argv[ci]);

    /* Hand the command everything but its own name. */
    char **sub = xmalloc(((size_t)argc + 1) * sizeof *sub);
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (i != ci)
            sub[n++] = argv[i];
    sub[n] = NULL;
    int rc = run_command(c, n, sub);
    free(sub);
    return rc;
}
