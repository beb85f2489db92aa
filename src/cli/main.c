/* main.c - cerebras-plan entry point: find the command, parse the options it
 * accepts (opts.c), build the description search path, dispatch through the
 * table (cmd.c). */
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "config.h"
#include "../base/xalloc.h"

static int run_command(const struct cli_cmd *c, int argc, char **argv)
{
    static struct cli_opts o;
    memset(&o, 0, sizeof o);
    int rc = cli_parse_options(c, argc, argv, &o);
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

    int ci = cli_command_index(argc, argv);
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
