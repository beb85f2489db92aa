/* cmd.c - the command table and the help text built from it.  The man page
 * lists the same commands; tests/cli.sh checks that they agree. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const struct cli_cmd cli_cmds[] = {
    {"list", "list [models|hw] [--csv] [--data-dir DIR]",
     "list the model and hardware descriptions that can be named",
     "With no argument, lists every description with its kind; with models or\n"
     "hw, lists that kind with its key figures.  The source column tells where\n"
     "each name resolves (a file, or <built-in> for the copies in the binary).\n",
     OPT_CSV | OPT_DATA_DIR, 0, 1, cmd_list},
    {"show", "show NAME|FILE [--set section.key=value]... [--csv] [--data-dir DIR]",
     "print a description's resolved values, with units and origins",
     "Resolves NAME (or reads FILE), applies --set overrides and prints every\n"
     "key with its unit and where it came from (file line, default or --set).\n"
     "For a model it adds the derived quantities: parameters, training tokens\n"
     "and FLOPs, FLOPs per token, bytes of weights, gradients, optimizer state\n"
     "and activations.  With --csv the columns are quantity,value,unit in SI\n"
     "base units.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR, 1, 1, cmd_show},
    {"estimate",
     "estimate [-m MODEL] [-s SYSTEM] [-n N] [scenario options] [--set ...] [--csv] [--data-dir "
     "DIR]",
     "step time, time-to-train, energy and verdicts for one configuration",
     "Evaluates the analytic weight-streaming model (cerebras-plan(1), MODEL) for\n"
     "MODEL (default gpt3-175b) on N (default 1) systems of SYSTEM (default cs2).\n"
     "Prints the step time by resource (busy time, and the time each resource\n"
     "set the pace), the exposed latency, the time-to-train, throughput and\n"
     "energy, and each verdict with the numbers behind it.  Exit status 1 when\n"
     "the configuration is infeasible (MemoryX tier too small, not one sequence\n"
     "fits in SRAM, or fewer sequences than systems).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_UNC, 0, 0, cmd_estimate},
    {"scale",
     "scale [-m MODEL] [-s SYSTEM] [--systems LIST] [--weak|--strong] [scenario options]\n"
     "       [--set ...] [--csv] [--data-dir DIR]",
     "step time, speedup, efficiency and time-to-train against the number of systems",
     "One row per N in --systems (default 1..16; a list such as 1,2,4, a range A..B\n"
     "or a geometric range A..BxF such as 1..2048x2).  --weak (the default, the\n"
     "kind of scaling the vendor quotes) keeps the sequences per system of the\n"
     "batch fixed, so the global batch grows with N; --strong keeps the global\n"
     "batch.  Speedup is tokens per second against one system in the same mode;\n"
     "efficiency is speedup / N; tta_speedup is the time-to-train speedup with the\n"
     "extra tokens of a batch above the critical batch charged.  Each row names its bottleneck and "
     "whether the\n"
     "global batch is within the critical batch (--batch-penalty charges the\n"
     "extra tokens in time_to_train_s).  Exit status 1 if any point is infeasible.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SCALE | OPT_UNC, 0, 0, cmd_scale},
    {"capacity", "capacity [-m MODEL] [-s SYSTEM] [--set ...] [--csv] [--data-dir DIR]",
     "MemoryX bytes per parameter and which tiers hold the model",
     "Breaks down the bytes MemoryX keeps per parameter (streamed weight copy,\n"
     "master copy, optimizer moments, gradient accumulator, at the model's\n"
     "precisions), the total, and for each tier of SYSTEM (default: every\n"
     "system that can be named) the MemoryX servers that make it up, whether\n"
     "it holds the model, the share that would sit on flash, the largest model\n"
     "the tier holds, and the smallest tier that does; then the fewest servers\n"
     "whose DRAM (memoryx.server_memory) holds the state.  Exit status 1 when\n"
     "no tier holds the model.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO, 0, 0, cmd_capacity},
    {"claims", "claims [FILE] [--set ...] [--csv] [--data-dir DIR]",
     "the vendor's headline claims, each run as a scenario, with a verdict",
     "Reads the claims file (default: reports/claims.csv from the search path,\n"
     "else the built-in copy; format in cerebras-plan(5)) and evaluates each\n"
     "claim with the analytic model: the model's figure, a verdict (holds, holds\n"
     "only under stated conditions, does not hold) and the reason with its\n"
     "numbers.  --set overrides apply to every scenario.  A claim that does not\n"
     "hold is a finding, not an error: the exit status is 0.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR, 0, 1, cmd_claims},
    {"simulate",
     "simulate [-m MODEL] [-s SYSTEM] [-n N] [scenario options] [--steps K] [--memoryx-units U]\n"
     "       [--trace FILE.csv] [--set ...] [--csv] [--data-dir DIR]\n"
     "       simulate --functional [-n N] [--sparsity S] [--steps K] [--batch B]\n"
     "       [--memoryx-units U] [--optimizer sgd|adam] [--csv]",
     "discrete-event simulation of the weight-streaming pipeline, or a functional run",
     "Simulates K steps (default 3) of the configuration event by event: MemoryX\n"
     "units, the SwarmX tree and every system's ingress, compute and egress\n"
     "(cerebras-plan(1), SIMULATOR).  Prints the steady-state step time, the\n"
     "utilisation and bytes per step of each component class and the time compute\n"
     "waits.  --trace writes one CSV row per busy interval.  It does not use the\n"
     "analytic model; crosscheck compares the two.\n\n"
     "--functional trains a small MLP with real single-precision numbers: data\n"
     "sharded over N simulated systems, weights streamed (sparse-encoded under a\n"
     "mask when --sparsity > 0), gradients reduced up the tree, SGD or Adam in\n"
     "MemoryX; it compares the weights after K steps with one system trained on\n"
     "the whole batch.  Exit status 1 when the largest relative difference\n"
     "exceeds the tolerance (1e-5) or the loss does not fall.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SIM, 0, 0, cmd_simulate},
    {"crosscheck", "crosscheck [--set ...] [--csv] [--data-dir DIR]",
     "the analytic model against the simulator on a grid of every regime",
     "Evaluates a built-in grid of configurations (GPT-3 XL to 120T, 1 to 2048\n"
     "systems, sparsity 0 to 0.95, MemoryX on DRAM and on flash, overlap 0 to 1)\n"
     "with both the analytic model and the discrete-event simulator, and prints\n"
     "each point's regime (the analytic bottleneck) and the relative difference\n"
     "of the step times, worst first, then a summary.  Exit status 1 when the\n"
     "largest |rel_diff| exceeds 2 % or the median exceeds 0.5 %.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR, 0, 0, cmd_crosscheck},
    {"plan",
     "plan [-m MODEL] [-s SYSTEM] --deadline TIME | --energy ENERGY | --budget AMOUNT --price P\n"
     "       [--allow-sparsity] [--allow-batch] [--verbose] [--uncertainty[=SAMPLES]] [--seed S]\n"
     "       [scenario options] [--set ...] [--csv] [--data-dir DIR]",
     "the smallest cluster that meets a deadline or energy target, or the largest a budget buys",
     "Finds the number of systems for a target: --deadline, the smallest\n"
     "cluster that trains within TIME; --energy, the smallest that\n"
     "uses at most ENERGY; --budget with --price (per system-hour), the largest\n"
     "cluster whose cost stays within AMOUNT.  Targets combine: every one given\n"
     "must hold.  The global batch is the model's; the cluster is searched from\n"
     "1 to the smaller of the generation's max_systems and the batch.  With\n"
     "--allow-sparsity, the least sparsity that makes the target reachable is\n"
     "added; with --allow-batch the batch may grow to one sequence per system\n"
     "(the extra tokens of a larger batch are charged) up to the critical batch.\n"
     "MemoryX servers and activation servers are as given (--memoryx,\n"
     "--memoryx-servers, --act-servers) or sized for each N.  Prints the\n"
     "runners-up either side, the bill of materials (systems, MemoryX servers,\n"
     "activation servers, SwarmX nodes: count, memory and power of each; the\n"
     "total power and the run's energy) and the estimate; --verbose shows the\n"
     "solver's iterations.  --csv: the chosen configuration, then the\n"
     "runners-up, with the columns of estimate --csv.  Exit status 1 when the\n"
     "target cannot be reached: the best achievable is shown with its bill of\n"
     "materials, and the nearest target it meets (such as --deadline TIME), or\n"
     "the limit with its numbers when no cluster size is feasible.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_PLAN | OPT_UNC, 0, 0, cmd_plan},
    {"calibrate",
     "calibrate DATA.csv --fit section.key[,section.key...] [-o OVERLAY.ini] [--set ...]\n"
     "       [--hw-overlay FILE] [--csv] [--data-dir DIR]",
     "fit hardware keys to measured step times, throughputs or speedups",
     "Reads measured points (CSV, format in cerebras-plan(5)): model, system,\n"
     "systems, the quantity measured (step_time, tokens_per_s, samples_per_s or\n"
     "speedup against one system under weak scaling) and its value, and\n"
     "optionally id, sparsity, batch, memoryx, software, unit, source and notes.\n"
     "Fits the numeric hardware keys named by --fit (SYSTEM:section.key fits\n"
     "a key on that system's points only) by nonlinear least squares on the\n"
     "relative residuals ln(model / measured), and prints each fitted value with\n"
     "its standard error, every point's residual and the fit's quality.  -o\n"
     "writes the fitted values as an overlay that --hw-overlay applies to any\n"
     "command.  A malformed file is exit status 2 with its line and column; a\n"
     "fit that does not converge is exit status 1 and writes no overlay.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_CALIB | OPT_OUTPUT, 1, 1, cmd_calibrate},
    {"validate",
     "validate [FILE...] [--tolerance T] [--fit KEYS] [--set ...] [--hw-overlay FILE] [--csv]\n"
     "       [--data-dir DIR]",
     "the model against measured runs: error per point, leave-one-out, per system",
     "Reads measured runs (default: hw/measurements.csv from the search path,\n"
     "else the built-in copy; format as for calibrate) and predicts each with\n"
     "the hardware as loaded (with --set and --hw-overlay), beside the\n"
     "measurement: error = predicted / measured - 1.  Then leave-one-out: each\n"
     "point predicted with the fitted constants (--fit, default the ones the\n"
     "shipped files say were fitted: cs2: and cs3:system.utilization and\n"
     "system.step_overhead, and system.jitter) refitted on every other point.\n"
     "Prints the points, then count, median and largest |error| per system and\n"
     "in all.  --csv: one row per point with the columns id, system, systems,\n"
     "model, batch, software, quantity, unit, measured, predicted, error,\n"
     "loo_predicted, loo_error, source (errors as signed fractions).  Exit\n"
     "status 1 when a point's |error| exceeds --tolerance (default 25 %), the\n"
     "median |error| exceeds 10 % or the leave-one-out median exceeds 15 %.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_CALIB | OPT_VALID, 0, CLI_MAX_ARGS, cmd_validate},
    {"sensitivity",
     "sensitivity [-m MODEL] [-s SYSTEM] [-n N] [scenario options] [--set ...] [--csv]\n"
     "       [--data-dir DIR]",
     "elasticity of time-to-train to every numeric hardware key, largest first",
     "For each numeric key of SYSTEM's description, the elasticity\n"
     "d ln(time-to-train) / d ln(value) at the configuration (a central\n"
     "difference in ln(value)), with the key's value and +- range, sorted by\n"
     "size: +1 means time grows in proportion to the value, -1 in inverse\n"
     "proportion, 0 that it does not matter here.  Keys whose value is 0 have no\n"
     "elasticity and are listed last.  The first rows are the figures that most\n"
     "deserve to be measured.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO, 0, 0, cmd_sensitivity},
    {"report",
     "report [-m MODEL] [-s SYSTEM] [-n N] [-o DIR] [--format png|svg] [--force]\n"
     "       [scenario options] [--set ...] [--hw-overlay FILE] [--data-dir DIR]",
     "a folder of CSV tables, gnuplot scripts, figures and an index.md",
     "Writes DIR (default ./report): estimate.csv for the scenario (N defaults to\n"
     "the generation's max_systems), the data of six figures (weak and strong\n"
     "scaling, time-to-train against model size, the step-time breakdown, speedup\n"
     "against sparsity, the MemoryX capacity ladder, analytic against simulated\n"
     "step time) and claims.csv, one gnuplot script per figure that redraws it\n"
     "from the CSV alone, the figures (png or svg) when gnuplot is installed, and\n"
     "index.md with the key numbers and the figures inline.  The folder is built\n"
     "beside DIR and renamed into place when complete; a non-empty DIR is\n"
     "refused unless --force.\n",
     OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_OUTPUT | OPT_REPORT, 0, 0, cmd_report},
    {"explore",
     "explore [-m MODEL] [-s SYSTEM] [-n N] [scenario options] [--set ...] [--hw-overlay FILE]\n"
     "       [--data-dir DIR]",
     "interactive explorer: change a parameter, see the consequence at once",
     "A full-screen view (at least 80x24) of the scenario: a parameters panel\n"
     "(model, system, systems, MemoryX tier, sparsity, global batch, sequence\n"
     "length, overlap and any numeric hardware key), the results recomputed on\n"
     "every change (step time by resource, bottleneck, tokens/s, time to train,\n"
     "energy, verdicts in colour, warnings) and a chart drawn in characters\n"
     "(speedup against N, step time by resource against N, or time to train\n"
     "against sparsity).  Keys: Up/Down choose, Left/Right step (systems and\n"
     "batch halve/double), -/+ fine steps, Enter types a value, c next chart,\n"
     "u uncertainty bands, e export the estimate as CSV, s save the hardware as\n"
     "an overlay, r write a report, ? help, q quit.  Needs a terminal (exit 2\n"
     "otherwise, or for an unknown TERM); NO_COLOR turns colour off.\n",
     OPT_SET | OPT_DATA_DIR | OPT_SCENARIO, 0, 0, cmd_explore},
    {"sweep",
     "sweep [FILE.ini] [-m MODELS|all] [-s SYSTEMS|all] [--systems LIST]\n"
     "       [--sparsity LIST] [--memoryx TIERS|all] [--set section.key=A,B,...]...\n"
     "       [scenario options]\n"
     "       [--where COL<=V]... [--best COL [--group-by COLS]] [-j N] [--shard K/N]\n"
     "       [--hw-overlay FILE] [--data-dir DIR]",
     "the estimate of every point of a grid of configurations, as CSV",
     "Evaluates the analytic model at every point of the grid the axes span and\n"
     "writes one CSV row per point, as it is computed, with the columns of\n"
     "estimate --csv and then one column per --set axis.  Axes: -m (comma list\n"
     "of models, or all), -s (systems, or all), --systems (a list, A..B or\n"
     "A..BxF; default -n or 1), --sparsity (a comma list), --memoryx (a list of\n"
     "tiers or capacities, or all for every tier of each system; default the\n"
     "smallest tier that holds the model) and --set section.key=A,B,C (a --set\n"
     "with a comma list is an axis, with one value an override).  Rows run with\n"
     "the model slowest, then system, --set axes, tier, sparsity, and systems\n"
     "fastest.  Infeasible points are rows with their verdicts.  --where COL OP V\n"
     "(OP one of <= < >= > =; repeatable, all must hold) keeps matching rows;\n"
     "--best COL keeps, for each group of --group-by columns (default: one\n"
     "group), the row with the lowest COL (the first on ties), in the order the\n"
     "groups first appear.  -j N computes with N threads, same output as -j 1.\n"
     "--shard K/N computes only points i (from 0) with i mod N = K-1: the N\n"
     "shards' rows, header once, concatenate to the whole sweep.  A progress\n"
     "line goes to stderr when it is a terminal.  Exit status 0 whatever the\n"
     "verdicts; 2 for a bad axis or option, before any output.  FILE.ini, a\n"
     "sweep file, gives the axes as keys of one section [sweep], named as the\n"
     "options (model, system, systems, sparsity, memoryx, where, best,\n"
     "group_by, and section.key for a --set axis) with the same values; where\n"
     "takes COND; COND.  An option on the command line overrides the file's\n"
     "key.  See cerebras-plan(5), SWEEP FILES.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SCALE | OPT_SWEEP, 0, 1, cmd_sweep},
    {"help", "help [COMMAND]", "describe the program or one command", "", 0, 0, 1, cmd_help},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];

const struct cli_cmd *cli_find(const char *name)
{
    for (size_t i = 0; i < cli_ncmds; i++)
        if (strcmp(cli_cmds[i].name, name) == 0)
            return &cli_cmds[i];
    return NULL;
}

void cli_usage(FILE *f)
{
    fputs("usage: cerebras-plan COMMAND [options] [arguments]\n"
          "       cerebras-plan --help | --version\n\n"
          "Plans training of large models on Cerebras weight-streaming clusters.\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < cli_ncmds; i++)
        fprintf(f, "  %-11s  %s\n", cli_cmds[i].name, cli_cmds[i].summary);
    fputs("\noptions (where a command takes them):\n"
          "  --csv                    RFC 4180 CSV in SI base units\n"
          "  --set section.key=value  override a description key (repeatable)\n"
          "  --hw-overlay FILE        apply a hardware overlay (e.g. from calibrate -o)\n"
          "  --data-dir DIR           look for DIR/models/NAME.ini and DIR/hw/NAME.ini first\n"
          "  -h, --help               help for the program or the command\n"
          "  -V, --version            print the version\n\n"
          "exit status: 0 ok, 1 a negative verdict, 2 usage or input error.\n"
          "See cerebras-plan(1) and cerebras-plan(5).\n",
          f);
}

void cli_cmd_help(FILE *f, const struct cli_cmd *c)
{
    fprintf(f, "usage: cerebras-plan %s\n\n%s.\n", c->usage, c->summary);
    if (*c->help)
        fprintf(f, "\n%s", c->help);
}

int cmd_help(struct cli_opts *o)
{
    if (o->nargs == 0) {
        cli_usage(stdout);
        return cli_flush();
    }
    const struct cli_cmd *c = cli_find(o->args[0]);
    if (!c)
        return cli_error("help: unknown command '%s'", o->args[0]);
    cli_cmd_help(stdout, c);
    return cli_flush();
}
