/* cmd.c - the command table and the help text built from it.  The man page
 * lists the same commands; tests/cli.sh checks that they agree. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const struct cli_cmd cli_cmds[] = {
    {"list", "list [models|hw] [options]",
     "list the model and hardware descriptions that can be named",
     "With no argument, lists every description with its kind; with models or\n"
     "hw, lists that kind with its key figures.  The source column tells where\n"
     "each name resolves (a file, or <built-in> for the copies in the binary).\n",
     OPT_CSV | OPT_DATA_DIR, 0, 1, cmd_list},
    {"show", "show NAME|FILE [--set section.key=value]... [options]",
     "print a description's resolved values, with units and origins",
     "Resolves NAME (or reads FILE), applies --set overrides and prints every\n"
     "key with its unit and where it came from (file line, default or --set).\n"
     "For a model it adds the derived quantities: parameters, training tokens\n"
     "and FLOPs, FLOPs per token, bytes of weights, gradients, optimizer state\n"
     "and activations.  With --csv the columns are quantity,value,unit in SI\n"
     "base units.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR, 1, 1, cmd_show},
    {"estimate", "estimate [-m MODEL] [-s SYSTEM] [-n N] [options]",
     "step time, time-to-train, energy and verdicts of one cluster",
     "Evaluates the analytic weight-streaming model (cerebras-plan(1), MODEL) for\n"
     "MODEL (default gpt3-175b) on N (default 1) systems of SYSTEM (default cs2).\n"
     "On a GPU system (-s h100, a100, h200, b200, gb200) the job runs on N GPUs\n"
     "(default one node) under the GPU model (cerebras-plan(1), GPU MODEL): every\n"
     "layout that divides and fits is searched unless --tp, --pp, --cp, --vp or\n"
     "--mbs fix a figure (--fsdp: every layout FSDP), and the fastest is printed\n"
     "with its runners-up (cp, vp and FSDP among its figures); exit 2 if no\n"
     "layout divides (a fixed figure that cannot is named by its flag), 1 if none\n"
     "fits in HBM (the message gives the bytes).  The software the job runs\n"
     "(flash attention, sequence parallelism, ...) is a model key each, given\n"
     "with --set model.KEY=VALUE or in a model file: see the switches below.\n"
     "Prints the step time by resource (busy time, and the time each resource\n"
     "set the pace), the exposed latency, the time-to-train, throughput and\n"
     "energy, and each verdict with the numbers behind it.  Exit status 1 when\n"
     "the configuration is infeasible (MemoryX tier too small, not one sequence\n"
     "fits in SRAM, or fewer sequences than systems).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_UNC | OPT_GPU, 0, 0, cmd_estimate},
    {"scale",
     "scale [-m MODEL] [-s SYSTEM] [--systems LIST]\n"
     "       [--weak|--strong] [options]",
     "step time, speedup and time-to-train against the cluster size",
     "One row per N in --systems (default 1..16; a list such as 1,2,4, a range A..B\n"
     "or a geometric range A..BxF such as 1..2048x2).  --weak (the default, the\n"
     "kind of scaling the vendor quotes) keeps the sequences per system of the\n"
     "batch fixed, so the global batch grows with N; --strong keeps the global\n"
     "batch.  Weak rows charge the batch penalty (batch_rule penalty: a batch\n"
     "past the critical batch needs nearly proportionally more tokens, so the\n"
     "time never falls below what the critical batch allows); strong rows keep\n"
     "the tokens (batch_rule none) unless --batch-penalty.  tps_speedup is\n"
     "tokens per second against one system in the same mode, efficiency\n"
     "tps_speedup / N, tta_speedup that system's time-to-train over the row's.\n"
     "Each row names its bottleneck, whether the global batch is within the\n"
     "critical batch and the training tokens charged.  Exit status 1 if any\n"
     "point is infeasible.  On a GPU system (-s h100) the sizes\n"
     "are GPU counts (default 8..1024x2 for 8-GPU nodes) and each row is the\n"
     "fastest layout the search finds at that count (--tp, --pp, --cp, --vp,\n"
     "--mbs and --fsdp fix it as for estimate; refused up front when no count\n"
     "can run them).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SCALE | OPT_UNC | OPT_GPU, 0, 0,
     cmd_scale},
    {"capacity", "capacity [-m MODEL] [-s SYSTEM] [options]",
     "MemoryX bytes per parameter and which tiers hold the model",
     "Breaks down the bytes MemoryX keeps per parameter (streamed weight copy,\n"
     "master copy, optimizer moments, gradient accumulator, at the model's\n"
     "precisions), the total, and for each tier of SYSTEM (default: every\n"
     "weight-streaming system that can be named; GPU systems keep no MemoryX\n"
     "tiers) the MemoryX servers that make it up, whether\n"
     "it holds the model, the share that would sit on flash, the largest model\n"
     "the tier holds, and the smallest tier that does; then the fewest servers\n"
     "whose DRAM (memoryx.server_memory) holds the state.  Exit status 1 when\n"
     "no tier holds the model.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO, 0, 0, cmd_capacity},
    {"claims", "claims [FILE] [options]", "the vendor's headline claims, each run and judged",
     "Reads the claims file (default: reports/claims.csv from the search path,\n"
     "else the built-in copy; format in cerebras-plan(5)) and evaluates each\n"
     "claim with the analytic model, or a claim that compares with GPUs (chip\n"
     "ratios, GPU time, GPU count, power) with the descriptions' chip figures,\n"
     "the GPU model and compare's job on both: the model's figure, a verdict\n"
     "(holds, holds only under stated conditions, does not hold) and the reason\n"
     "with its numbers.  --set overrides apply to every scenario (gpu., network.,\n"
     "fit. and gpu:KEY ones to every GPU).  A claim that does not hold is a\n"
     "finding, not an error: the exit status is 0.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR, 0, 1, cmd_claims},
    {"simulate",
     "simulate [-m MODEL] [-s SYSTEM] [-n N] [--steps K]\n"
     "       [--trace FILE.csv] [options]\n"
     "       simulate --functional [-n N] [--sparsity S] [--steps K] [--batch B]\n"
     "       [--memoryx-units U] [--optimizer sgd|adam] [options]",
     "discrete-event simulation of the pipeline, or a functional run",
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
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SIM | OPT_EVENTS, 0, 0, cmd_simulate},
    {"crosscheck", "crosscheck [options]",
     "the analytic model against the simulator in every regime",
     "Evaluates a built-in grid of configurations (GPT-3 XL to 120T, 1 to 2048\n"
     "systems, sparsity 0 to 0.95, MemoryX on DRAM and on flash, overlap 0 to 1)\n"
     "with both the analytic model and the discrete-event simulator, and prints\n"
     "each point's regime (the analytic bottleneck) and the relative difference\n"
     "of the step times, worst first, then a summary.  Exit status 1 when the\n"
     "largest |rel_diff| exceeds 2 % or the median exceeds 0.5 %.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_EVENTS, 0, 0, cmd_crosscheck},
    {"plan",
     "plan [-m MODEL] [-s SYSTEM] --deadline TIME\n"
     "       | --energy ENERGY | --budget AMOUNT --price P\n"
     "       [--allow-sparsity] [--allow-batch] [options]",
     "the fewest systems that meet a target, or the fastest a budget buys",
     "Finds the number of systems for a target: --deadline, the smallest\n"
     "cluster that trains within TIME; --energy, the smallest that\n"
     "uses at most ENERGY; --budget ('$10M', '10M USD': the full cost), the fastest\n"
     "finish within AMOUNT, of equal times the fewest systems.  Targets\n"
     "combine: every one given must hold.  The global batch is the model's;\n"
     "every cluster size from 1 to\n"
     "the smaller of the generation's max_systems and the batch is evaluated\n"
     "(cerebras-plan(1), PLAN).  With --allow-sparsity, the least sparsity that\n"
     "makes the target reachable at equal quality is added (a sparse run trains\n"
     "the tokens that reach the dense loss; none when no sparsity meets the\n"
     "target); with --allow-batch the batch may grow\n"
     "to one sequence per system (the extra tokens of a larger batch are\n"
     "charged) up to the critical batch.\n"
     "MemoryX servers are as given (--memoryx, --memoryx-servers) or sized\n"
     "for each N; activation servers as given (--act-servers) or the system's\n"
     "activation.servers_per_system.  Prints the\n"
     "runners-up either side, the bill of materials (systems, MemoryX servers,\n"
     "activation servers, SwarmX nodes: count, memory and power of each; the\n"
     "total power and the run's energy) and the estimate; --verbose shows each\n"
     "scan and each iteration of the sparsity solver.  --csv: the chosen\n"
     "configuration, then the runners-up, with the columns of estimate --csv.\n"
     "Exit status 1 when the target cannot be reached: the best achievable is\n"
     "shown with its bill of materials, and the nearest target it meets (such\n"
     "as --deadline TIME), or the limit with its numbers when no cluster size\n"
     "is feasible.  On a GPU system (-s h100) the targets are the same (--price\n"
     "per GPU-hour): the fewest GPUs whose fastest layout (--tp, --pp, --cp,\n"
     "--vp, --mbs and --fsdp fix it as for estimate, refused up front when no\n"
     "count can run them) meets them, every count of whole nodes up to 10^6\n"
     "GPUs searched upward; with --budget alone the fastest count within it.\n"
     "--allow-sparsity and --allow-batch are weight-streaming only.  --csv is\n"
     "then one row (deadline_s, met, gpus, nodes, the layout: tp, pp, vp, dp,\n"
     "cp, fsdp, mbs, recompute; time_to_train_s, power_W, energy_J, cost,\n"
     "energy_limit_J, budget).  Draws 200 hardware descriptions by default\n"
     "(--uncertainty=N, =0 none): P10/P50/P90 of the answer's times and energy\n"
     "and the share of draws meeting the deadline; --confidence P: the fewest\n"
     "whose draws meet the targets in a share P of them (0 < P < 1), with that\n"
     "share, the draws, the seed and the point answer's share.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_PLAN | OPT_UNC | OPT_GPU, 0, 0,
     cmd_plan},
    {"compare",
     "compare [-m MODEL] [-s SYSTEM] --gpu GPU\n"
     "       --deadline TIME | -n N [--tokens T] [--price P] [--gpu-price G]\n"
     "       [--precision bf16|fp8|fp4] [--tp N] [--pp N] [--cp N] [--vp N]\n"
     "       [--mbs N] [--fsdp] [options]",
     "one training job on a weight-streaming cluster and on a GPU cluster",
     "Runs the same job (model, global batch, training tokens, so the same number\n"
     "of steps) on SYSTEM, a weight-streaming system, and on GPU, a GPU system\n"
     "(cerebras-plan(1), COMPARE).  With --deadline: the fewest systems that meet\n"
     "it (as plan finds them) and the fewest GPUs that do.  With -n: N systems,\n"
     "and the fewest GPUs as fast.  Each GPU count runs its fastest layout (tp,\n"
     "pp, dp, micro-batch, interleaving and the least recompute that fits; --tp,\n"
     "--pp, --cp, --vp, --mbs fix one, --fsdp makes every layout FSDP,\n"
     "--precision sets the matmuls' precision, default bf16); GPU counts are\n"
     "searched upward in steps of whole 8-GPU nodes (of 8 on a 72-GPU NVL72\n"
     "rack), every one up to 1,048,576 GPUs until one meets the time.  One row\n"
     "per quantity: the cluster, nodes, layout, step time, time-to-train,\n"
     "throughput, power (the systems with their MemoryX, activation and SwarmX\n"
     "servers; the GPU nodes whole at their maximum power), energy, cost with\n"
     "--price (per system-hour) and --gpu-price (per GPU-hour), one fewer of\n"
     "each, and at equal power: the fastest GPU cluster whose nodes draw at most\n"
     "the weight-streaming cluster's power, and its time-to-train.  A column per\n"
     "side and the ratio GPU / weight streaming.  --set gpu:section.key=value (or\n"
     "a key of the gpu, network or fit sections) overrides the GPU's description.\n"
     "--csv: quantity, unit, weight_streaming, gpu, gpu_over_weight_streaming in\n"
     "SI units.  Exit status 1 when a side has no answer: the deadline out of\n"
     "reach within the largest cluster searched (system.max_systems; 1,048,576\n"
     "GPUs), the systems given infeasible, or no GPU count holds the model (the\n"
     "least bytes per GPU are named).  Draws 200 hardware descriptions of each\n"
     "side by default (--uncertainty=N, =0 none; the GPU side seeded with\n"
     "--seed + 1, independent): P50 [P10, P90] of each side's step time,\n"
     "time-to-train and energy, of the ratio from the paired draws, the share\n"
     "meeting the deadline and how often the GPUs train sooner (CSV rows\n"
     "step_time_p10 .. energy_p90, deadline_share, gpu_sooner_share).\n"
     "--confidence P with --deadline: each side the fewest whose draws meet it\n"
     "in a share P.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_PLAN | OPT_UNC | OPT_GPU | OPT_COMPARE,
     0, 0, cmd_compare},
    {"calibrate",
     "calibrate DATA.csv --fit [SYSTEM:]section.key[,...]\n"
     "       [-o OVERLAY.ini] [options]",
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
     "command.  A fitted value more than 10 times or less than a tenth of its\n"
     "start is called implausible, one outside the range its file states is\n"
     "called so, in a line under the key table (on stderr with --csv) and in\n"
     "the overlay.  A malformed file is exit status 2 with its line and column;\n"
     "a fit that does not converge is exit status 1 and writes no overlay.\n"
     "A GPU corpus (a header with a gpu column, as hw/gpu-measurements.csv)\n"
     "fits --fit fit.KEY[,...] of fit.matmul_efficiency, attention_efficiency,\n"
     "step_overhead and lowp_efficiency (one set for all GPUs; the keys not\n"
     "named held at each GPU description's value) and prints each fitted value\n"
     "with its standard error and every run's error before and after with\n"
     "their medians; -o, --set and --hw-overlay are refused there (GPU systems\n"
     "take no overlay).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_CALIB | OPT_OUTPUT, 1, 1, cmd_calibrate},
    {"validate", "validate [FILE...] [--tolerance T] [--fit KEYS] [options]",
     "the models against measured runs of both machine kinds",
     "Reads measured runs: by default the weight-streaming ones of\n"
     "hw/measurements.csv (format as for calibrate) and the GPU ones of\n"
     "hw/gpu-measurements.csv (published step times, TFLOP/s or tokens/s,\n"
     "each converted to a step time), from the search path or built in; a FILE\n"
     "whose header has a gpu column is a GPU corpus, any other a weight-streaming\n"
     "one.  Predicts each run, error = predicted / measured - 1: weight-streaming\n"
     "runs with the hardware as loaded (with --set and --hw-overlay), GPU runs\n"
     "with the GPU model on the GPU description its gpu names, as found.  Then\n"
     "leave-out: a weight-streaming point predicted with the fitted constants\n"
     "(--fit, default the ones the shipped files say were fitted: cs2: and\n"
     "cs3:system.utilization and system.step_overhead, and system.jitter)\n"
     "refitted on every other point; a GPU run with the GPU model's fitted\n"
     "constants (fit.matmul_efficiency, attention_efficiency, step_overhead,\n"
     "lowp_efficiency) refitted on the runs of the other sources (the source\n"
     "is the id up to its first '-').  Past 32 runs (or sources) they are\n"
     "dealt into 10 folds, each left out in turn; the heading says which.\n"
     "A run given twice is refused.  Prints one table of both kinds, then\n"
     "count, median and largest |error| per kind, per system, per GPU source\n"
     "and in all, and the targets.  --csv: one row per run with the columns\n"
     "kind, id, system, systems, model, batch, software, quantity, unit,\n"
     "measured, predicted, error, loo_predicted, loo_error, published,\n"
     "published_unit, conversion, source (SI; errors as signed fractions).\n"
     "Exit status 1 when a run's |error| exceeds --tolerance (default 25 %),\n"
     "a kind's median |error| exceeds 10 %, or the weight-streaming\n"
     "leave-out median exceeds 15 % (none for a single run).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_CALIB | OPT_VALID, 0, CLI_MAX_ARGS, cmd_validate},
    {"sensitivity", "sensitivity [-m MODEL] [-s SYSTEM] [-n N] [--metric M]\n       [options]",
     "which hardware figures the time-to-train depends on most",
     "For each continuous, physical key of SYSTEM's description, the elasticity\n"
     "d ln(M) / d ln(value) at the configuration, M the time-to-train (--metric\n"
     "energy or cost: the run's energy or full cost, so power and price keys\n"
     "rank too), a central difference in ln(value), with the key's value and +-\n"
     "range, sorted by size (+1: M grows in proportion to the value, -1: in\n"
     "inverse proportion, 0: no matter here; value 0: no elasticity, listed\n"
     "last), the first rows the figures that most deserve to be measured.  Not\n"
     "ranked, and named under the table: limits (system.max_systems,\n"
     "system.max_matmul_dim), capacities (system.sram, memoryx.server_memory,\n"
     "memoryx.server_flash, activation.server_memory), which change the time\n"
     "only in whole steps, and memoryx.bytes_per_param, the vendor's sizing\n"
     "that the model does not use.  On a GPU system: the GPU description's keys\n"
     "but those only claims reads, the time that of the layout search's fastest\n"
     "layout at -n GPUs (one node without -n), so a key that changes the layout\n"
     "shows as a kink; not ranked there the node's shape (system.gpus_per_node,\n"
     "network.nvlink_domain) and the capacities (gpu.hbm, fit.hbm_usable).\n"
     "A count where no layout fits is exit status 1.\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_GPU | OPT_SENS, 0, 0, cmd_sensitivity},
    {"report",
     "report [-m MODEL] [-s SYSTEM] [-n N] [-o DIR]\n"
     "       [--deadline TIME [--confidence P]]\n"
     "       [--gpu GPU] [--gpu-price G] [--precision bf16|fp8|fp4] [--tp N] [--pp N]\n"
     "       [--cp N] [--vp N] [--mbs N] [--fsdp] [--format png|svg] [--force]\n"
     "       [options]",
     "a folder of CSV tables, gnuplot scripts, figures and an index.md",
     "Writes DIR (default ./report).  index.md leads with the decision\n"
     "(decision.csv): the weight-streaming and the GPU cluster side by side, as\n"
     "compare finds them (with --deadline the fewest of each that meet it, with\n"
     "--confidence in that share of the draws; else N systems and the fewest GPUs\n"
     "as fast), each with its count and cluster, time-to-train P50 and P90, power,\n"
     "energy, the share of draws meeting the deadline, goodput, the bill of\n"
     "materials, the full cost, and the three hardware keys the answer depends on\n"
     "most (sensitivity) with where their values come from.\n"
     "Then estimate.csv for the scenario (N defaults to\n"
     "the generation's max_systems), the data of eight figures (weak and strong\n"
     "scaling, time-to-train against model size, the step-time breakdown, speedup\n"
     "against sparsity, the MemoryX capacity ladder, analytic against simulated\n"
     "step time, the model against measured runs, and time-to-train against power\n"
     "on weight-streaming clusters and on GPU clusters) and claims.csv, one gnuplot\n"
     "script per figure that redraws it from the CSV alone, the figures (png or\n"
     "svg) when gnuplot is installed, the resolved descriptions the report ran\n"
     "on (hw/SYSTEM.ini, models/MODEL.ini, hw/GPU.ini) and index.md with the whole\n"
     "command line, a command that rebuilds the tables from those files, the key\n"
     "numbers and the figures inline.  The comparison (compare.csv) runs the same\n"
     "job (model, global batch, training tokens) on 1, 2, 4, ... max_systems\n"
     "systems and on GPU (default h100) clusters of whole nodes, doubling up to\n"
     "the largest weight-streaming cluster's power, each count in its fastest\n"
     "layout (--precision, --tp, --pp, --cp, --vp, --mbs, --fsdp as for compare;\n"
     "counts where no layout runs are left out); power counts the systems with\n"
     "their MemoryX, activation and SwarmX servers, and the GPU nodes whole at\n"
     "their maximum.  A GPU system given to -s, or a weight-streaming one to\n"
     "--gpu, is exit 2.  The folder is built beside DIR and renamed into place\n"
     "when complete; a non-empty DIR is refused unless --force and it holds a\n"
     "report and nothing else.\n",
     OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_OUTPUT | OPT_REPORT | OPT_EVENTS | OPT_GPU |
         OPT_COMPARE | OPT_PLAN,
     0, 0, cmd_report},
    {"explore", "explore [-m MODEL] [-s SYSTEM] [-n N] [options]",
     "interactive: change a parameter, see the consequence at once",
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
     "otherwise, or for an unknown TERM); NO_COLOR turns colour off.  On a GPU\n"
     "system the knobs are GPUs, model, system, batch, seq_len and the GPU\n"
     "description's keys (--tp ... --precision fix the layout's figures), the\n"
     "results the kind's step parts, MFU, time to train, energy, verdicts and\n"
     "layout, u the band of the step time and time to train (not the charts');\n"
     "memoryx, sparsity, overlap, s and r say why they do not apply there.\n",
     OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_GPU, 0, 0, cmd_explore},
    {"sweep",
     "sweep [FILE.ini] [-m MODELS|all] [-s SYSTEMS|all] [--systems LIST]\n"
     "       [--sparsity LIST] [--memoryx TIERS|all] [--set section.key=A,B,...]...\n"
     "       [--precision LIST] [--layouts K] [--tp N] [--pp N] [--cp N] [--vp N]\n"
     "       [--mbs N] [--fsdp]\n"
     "       [scenario options]\n"
     "       [--where COL<=V]... [--best COL [--group-by COLS]] [-j N] [--shard K/N]\n"
     "       [--max-points N] [--columns LIST] [--csv] [--hw-overlay FILE] [--data-dir DIR]",
     "the estimate of every point of a grid of configurations, as CSV or a table",
     "Evaluates the analytic model at every point of the grid the axes span and\n"
     "writes one CSV row per point, as it is computed, with the columns of\n"
     "estimate --csv and then one column per --set axis.  To a terminal, unless\n"
     "--csv, it writes a table for people instead: model, system, the other axes\n"
     "that vary, systems, the --best and --group-by columns, feasible, step\n"
     "time, time to train, power, energy, cost (with --price), bottleneck and\n"
     "warnings, each number in the unit its header names (step_time[s],\n"
     "time_to_train[d], power[MW], energy[MWh]).  --columns A,B,... writes only\n"
     "those columns, names of the CSV header in the order given, in either\n"
     "form; --where, --best and --group-by still see every column.  Axes: -m\n"
     "(comma list of models, or all), -s (systems, or all), --systems (a list,\n"
     "A..B or A..BxF; default -n or 1), --sparsity (a comma list), --memoryx (a\n"
     "list of tiers or capacities, or all for every tier of each system; default\n"
     "the smallest tier that holds the model) and --set section.key=A,B,C (a\n"
     "--set with a comma list is an axis, with one value an override).  Rows run\n"
     "with the model slowest, then system, --set axes, tier, sparsity, and\n"
     "systems fastest.  Infeasible points are rows with their verdicts.  --where\n"
     "COL OP V (OP one of <= < >= > =; repeatable, all must hold) keeps matching\n"
     "rows; --best COL keeps, for each group of --group-by columns (default: one\n"
     "group), the row with the lowest COL (the first on ties), in the order the\n"
     "groups first appear.  -j N computes with N threads, same output as -j 1.\n"
     "--shard K/N computes only points i (from 0) with i mod N = K-1: the N\n"
     "shards' rows, header once, concatenate to the whole sweep.  A run of more\n"
     "than --max-points N points (default 1e9) is refused before any output.  A\n"
     "progress line goes to stderr when it is a terminal.  Exit status 0\n"
     "whatever the verdicts; 2 for a bad axis or option, before any output.\n"
     "FILE.ini, a sweep file, gives the axes as keys of one section [sweep],\n"
     "named as the options (model, system, systems, sparsity, memoryx, where,\n"
     "best, group_by, precision, layouts, and section.key for a --set axis)\n"
     "with the same values; where takes COND; COND.  An option on the command\n"
     "line overrides the file's key.  See cerebras-plan(5), SWEEP FILES.\n"
     "GPU systems (-s a100,h100,h200,b200,gb200; a run takes one kind, and -s\n"
     "all means the weight-streaming systems): the axes are -m, -s, --systems\n"
     "(GPU counts; default one node of each system), --precision (a list of\n"
     "bf16, fp8, fp4; default bf16) and --set, the counts fastest; each point\n"
     "is a layout search (as estimate -s h100 -n N), the global batch fixed.\n"
     "Its rows are the --layouts K fastest layouts that fit (default 1), with\n"
     "the columns model, system, kind, gpus, nodes, precision, rank, tp, pp,\n"
     "vp, dp, cp, fsdp (0 or 1), micro_batch, recompute, recompute_layers,\n"
     "global_batch_seqs, micro_batches, step_time_s, tokens_per_s,\n"
     "time_to_train_s, mfu, bubble, bottleneck, mem_per_gpu_B, mem_usable_B,\n"
     "power_W, energy_J, cost (--price per GPU-hour), train_tokens,\n"
     "critical_batch_tokens, batch_ok, feasible and reason.  A point no layout "
     "divides or fits\n"
     "in, or on a GPU without the precision, is one row with feasible 0 and\n"
     "the reason; a precision no system of the run has is refused.  --tp,\n"
     "--pp, --cp, --vp and --mbs fix a figure at every point, --fsdp makes\n"
     "every layout FSDP.  --max-points defaults to 2e7 there (a point takes\n"
     "about 70 us).\n",
     OPT_CSV | OPT_SET | OPT_DATA_DIR | OPT_SCENARIO | OPT_SCALE | OPT_SWEEP | OPT_GPU, 0, 1,
     cmd_sweep},
    {"help", "help [COMMAND]", "describe the program or one command", "", 0, 0, 1, cmd_help},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];

/* Every option by its long name in main.c's long_opts, with the enum cli_opt group it is
 * accepted under (0: every command), its short letter, its value's name and one line.  `help
 * COMMAND` lists the rows whose group the command's opts take, less those cmd_notes says it
 * refuses; tests/cli_help.sh checks both against what the program accepts and the man page. */
struct cli_opt_help {
    const char *name;  /* long name, without "--"           */
    char letter;       /* short option, or 0                 */
    unsigned group;    /* enum cli_opt; 0 for -h and -V      */
    const char *value; /* "MODEL", "[=SAMPLES]"; "" for none */
    const char *what;
};

static const struct cli_opt_help opt_help[] = {
    {"model", 'm', OPT_SCENARIO, "MODEL", "the model, a name or a file (default gpt3-175b)"},
    {"system", 's', OPT_SCENARIO, "SYSTEM", "the hardware, a name or a file (default cs2)"},
    {"nsystems", 'n', OPT_SCENARIO, "N", "number of systems, 1 to 10^6 (default 1)"},
    {"memoryx", 0, OPT_SCENARIO, "TIER|SIZE",
     "MemoryX: a tier (2.4PB) or a capacity (8 TB); default sized"},
    {"memoryx-servers", 0, OPT_SCENARIO, "N", "number of MemoryX servers (default sized)"},
    {"act-servers", 0, OPT_SCENARIO, "N", "activation servers per system (default activation.servers_per_system)"},
    {"activations", 0, OPT_SCENARIO, "auto|wafer|recompute[:K]|offload",
     "where the activations of the backward pass are kept (default auto, the fastest that fits)"},
    {"sparsity", 0, OPT_SCENARIO, "FRACTION",
     "fraction of block weights at zero (default 0), trained to the dense loss"},
    {"batch", 0, OPT_SCENARIO, "SEQUENCES", "global batch in sequences (default the model's)"},
    {"batch-tokens", 0, OPT_SCENARIO, "TOKENS", "global batch in tokens (4M), instead of --batch"},
    {"tokens", 0, OPT_SCENARIO, "COUNT|chinchilla",
     "training tokens (default the model's; chinchilla: 20 per parameter)"},
    {"overlap", 0, OPT_SCENARIO, "FRACTION", "how early a layer's next forward starts, 0 to 1"},
    {"price", 0, OPT_SCENARIO, "P",
     "rental price of a system-hour (GPU-hour on a GPU), in place of the capital cost"},
    {"batch-penalty", 0, OPT_SCENARIO, "",
     "charge the extra tokens of a batch other than the model's (GPUs too)"},
    {"tp", 0, OPT_GPU, "N", "GPU systems: tensor-parallel ways (default searched)"},
    {"pp", 0, OPT_GPU, "N", "GPU systems: pipeline stages (default searched)"},
    {"cp", 0, OPT_GPU, "N",
     "GPU systems: context-parallel ways, the sequence split over N GPUs (default searched)"},
    {"vp", 0, OPT_GPU, "N",
     "GPU systems: interleaved pipeline chunks per GPU, with pp > 1 (default searched)"},
    {"mbs", 0, OPT_GPU, "N", "GPU systems: micro-batch in sequences (default searched)"},
    {"fsdp", 0, OPT_GPU, "",
     "GPU systems: every layout FSDP, weights, gradients and optimizer state sharded over dp "
     "(ZeRO-3); default: the search tries both"},
    {"precision", 0, OPT_GPU, "bf16|fp8|fp4",
     "GPU systems: precision of the matmuls (default bf16)"},
    {"systems", 0, OPT_SCALE, "LIST", "cluster sizes: 1,2,4 or A..B or A..BxF (default 1..16)"},
    {"weak", 0, OPT_SCALE, "", "weak scaling: the sequences per system fixed (the default)"},
    {"strong", 0, OPT_SCALE, "", "strong scaling: the global batch fixed"},
    {"steps", 0, OPT_SIM, "K", "steps to simulate (default 3; 10 with --functional)"},
    {"trace", 0, OPT_SIM, "FILE.csv", "write one CSV row per busy interval"},
    {"functional", 0, OPT_SIM, "", "train a small MLP with real numbers instead"},
    {"memoryx-units", 0, OPT_SIM, "U", "MemoryX units the parameters are sharded over, 1 to 64"},
    {"optimizer", 0, OPT_SIM, "sgd|adam", "with --functional: the update (default adam)"},
    {"max-events", 0, OPT_EVENTS, "N",
     "refuse a simulation of more than N events (default 1e8; 1e7 with --trace or --functional)"},
    {"deadline", 0, OPT_PLAN, "TIME", "time-to-train must not exceed TIME (30d, 720 h)"},
    {"energy", 0, OPT_PLAN, "ENERGY", "the run's energy must not exceed it (500MWh, 2 GJ)"},
    {"budget", 0, OPT_PLAN, "AMOUNT", "the full cost must not exceed AMOUNT ($10M, 10M USD)"},
    {"allow-sparsity", 0, OPT_PLAN, "",
     "raise the sparsity as far as the target needs, at equal quality"},
    {"allow-batch", 0, OPT_PLAN, "", "grow the batch to one sequence per system"},
    {"verbose", 0, OPT_PLAN, "", "print each scan and each Brent iteration"},
    {"confidence", 0, OPT_PLAN, "P",
     "the smallest cluster that meets the target in a share P (0 < P < 1) of the draws"},
    {"gpu", 0, OPT_COMPARE, "GPU", "the GPU system to compare with, a name or a file"},
    {"gpu-price", 0, OPT_COMPARE, "G", "the price of a GPU-hour; gives the GPU cluster's cost"},
    {"fit", 0, OPT_CALIB, "[SYSTEM:]SECTION.KEY,...", "the numeric hardware keys to fit"},
    {"metric", 0, OPT_SENS, "time|energy|cost", "what the elasticities are of (default time)"},
    {"tolerance", 0, OPT_VALID, "FRACTION", "largest |error| a point may have (default 0.25, at most 100)"},
    {"output", 'o', OPT_OUTPUT, "FILE", "where to write"},
    {"uncertainty", 0, OPT_UNC, "[=SAMPLES]",
     "draw SAMPLES hardware descriptions from the +- ranges and the model's error (default "
     "1000; plan and compare draw 200 without it, =0 draws none)"},
    {"seed", 0, OPT_UNC, "S", "seed of the draws (default 1)"},
    {"format", 0, OPT_REPORT, "png|svg", "format of the figures (default png)"},
    {"force", 0, OPT_REPORT, "", "replace an output folder that holds a report and nothing else"},
    {"columns", 0, OPT_SWEEP, "COLS", "write only these columns, a comma list of header names"},
    {"where", 0, OPT_SWEEP, "COL<=V", "keep the rows where it holds; also < >= > = (repeatable)"},
    {"best", 0, OPT_SWEEP, "COL", "keep the row with the lowest COL of each group"},
    {"group-by", 0, OPT_SWEEP, "COLS", "with --best: the comma list of columns of a group"},
    {"jobs", 'j', OPT_SWEEP, "N", "compute with N threads, 1 to 256 (default 1)"},
    {"shard", 0, OPT_SWEEP, "K/N", "compute only the points i with i mod N = K-1"},
    {"max-points", 0, OPT_SWEEP, "N",
     "refuse a run of more than N points (default 1e9; 2e7 on GPU systems)"},
    {"layouts", 0, OPT_SWEEP, "K", "GPU systems: the K fastest layouts of each point (default 1)"},
    {"set", 0, OPT_SET, "SECTION.KEY=VALUE", "override a description key (repeatable)"},
    {"hw-overlay", 0, OPT_SET, "FILE",
     "apply a hardware overlay (as calibrate -o writes); repeatable, applied in order"},
    {"csv", 0, OPT_CSV, "", "RFC 4180 CSV in SI base units instead of text"},
    {"data-dir", 0, OPT_DATA_DIR, "DIR", "search DIR/models and DIR/hw first"},
    {"help", 'h', 0, "", "print this help"},
    {"version", 'V', 0, "", "print the version"},
};

/* What one command says of an option its groups take: another value name
 * and line, or (what NULL) that it refuses it when it runs. */
struct cli_opt_note {
    const char *cmd, *name, *value, *what;
};

static const struct cli_opt_note cmd_notes[] = {
    {"scale", "nsystems", NULL, NULL},
    {"scale", "price", NULL, NULL},
    {"scale", "batch", "SEQUENCES", "global batch (with --weak, of one system)"},
    {"plan", "nsystems", NULL, NULL},
    {"capacity", "system", "SYSTEM",
     "the hardware (default: every weight-streaming one that can be named)"},
    {"capacity", "nsystems", NULL, NULL},
    {"capacity", "memoryx", NULL, NULL},
    {"capacity", "memoryx-servers", NULL, NULL},
    {"capacity", "act-servers", NULL, NULL},
    {"capacity", "activations", NULL, NULL},
    {"capacity", "sparsity", NULL, NULL},
    {"capacity", "batch", NULL, NULL},
    {"capacity", "batch-tokens", NULL, NULL},
    {"capacity", "tokens", NULL, NULL},
    {"capacity", "overlap", NULL, NULL},
    {"capacity", "price", NULL, NULL},
    {"capacity", "batch-penalty", NULL, NULL},
    {"simulate", "batch", "SEQUENCES", "global batch (with --functional, samples)"},
    {"crosscheck", "max-events", "N",
     "refuse a grid of more than N simulated events in all (default 1e8)"},
    {"report", "max-events", "N",
     "refuse a cross-check figure of more than N simulated events (default 1e8)"},
    {"calibrate", "output", "OVERLAY.ini", "write the fitted values as a hardware overlay"},
    {"validate", "fit", "[SYSTEM:]SECTION.KEY,...",
     "keys refitted for leave-one-out (default the shipped fitted ones)"},
    {"report", "nsystems", "N", "number of systems (default the generation's max_systems)"},
    {"report", "output", "DIR", "the folder to write (default ./report)"},
    {"report", "gpu", "GPU", "the GPU system of the comparison, a name or a file (default h100)"},
    {"report", "set", "[gpu:]SECTION.KEY=VALUE",
     "override a key (repeatable); gpu: or a gpu, network, fit key: the GPU's"},
    {"report", "deadline", "TIME", "the decision: the fewest of each that train within TIME"},
    {"report", "energy", NULL, NULL},
    {"report", "budget", NULL, NULL},
    {"report", "allow-sparsity", NULL, NULL},
    {"report", "allow-batch", NULL, NULL},
    {"report", "verbose", NULL, NULL},
    {"compare", "system", "SYSTEM", "the weight-streaming system (default cs2)"},
    {"compare", "nsystems", "N", "N systems, and the fewest GPUs as fast (or --deadline)"},
    {"compare", "deadline", "TIME", "the fewest of each that train within TIME (30d, 720 h)"},
    {"compare", "price", "P", "the price of a system-hour; gives the systems' cost"},
    {"compare", "set", "[gpu:]SECTION.KEY=VALUE",
     "override a key (repeatable); gpu: or a gpu, network, fit key: the GPU's"},
    {"compare", "sparsity", NULL, NULL},
    {"compare", "energy", NULL, NULL},
    {"compare", "budget", NULL, NULL},
    {"compare", "allow-sparsity", NULL, NULL},
    {"compare", "allow-batch", NULL, NULL},
    {"compare", "verbose", NULL, NULL},
    {"sweep", "model", "MODELS|all", "an axis: a comma list of models, or all"},
    {"sweep", "system", "SYSTEMS|all", "an axis: a comma list of systems, or all"},
    {"sweep", "nsystems", "N",
     "the cluster size when --systems is not given (default 1; GPUs: one node)"},
    {"sweep", "systems", "LIST", "an axis: cluster sizes (GPUs), 1,2,4 or A..B or A..BxF"},
    {"sweep", "precision", "LIST", "GPU systems: an axis, a comma list of bf16, fp8, fp4"},
    {"sweep", "memoryx", "TIERS|all", "an axis: tiers or capacities, or all (default sized)"},
    {"sweep", "sparsity", "LIST", "an axis: a comma list of sparsities"},
    {"sweep", "set", "SECTION.KEY=A[,B...]", "an override, or with a comma list an axis"},
    {"sweep", "weak", NULL, NULL},
    {"sweep", "strong", NULL, NULL},
};

unsigned cli_opt_group(const char *name)
{
    for (size_t i = 0; i < sizeof opt_help / sizeof opt_help[0]; i++)
        if (strcmp(opt_help[i].name, name) == 0)
            return opt_help[i].group;
    return 0;
}

static const struct cli_opt_note *note_of(const struct cli_cmd *c, const char *name)
{
    for (size_t i = 0; i < sizeof cmd_notes / sizeof cmd_notes[0]; i++)
        if (strcmp(cmd_notes[i].cmd, c->name) == 0 && strcmp(cmd_notes[i].name, name) == 0)
            return &cmd_notes[i];
    return NULL;
}

/* Column of the descriptions in the option list, and the width it wraps at. */
#define HELP_COL 30
#define HELP_WIDTH 79

/* Write text from column col (the cursor is there), wrapped at HELP_WIDTH
 * with continuation lines indented to HELP_COL. */
static void put_wrapped(FILE *f, const char *text, int col)
{
    while (*text) {
        size_t room = (size_t)(HELP_WIDTH - col), n = strlen(text);
        if (n > room) {
            n = room;
            while (n > 0 && text[n] != ' ')
                n--;
            if (n == 0) /* one word longer than the room */
                n = strcspn(text, " ");
        }
        fprintf(f, "%.*s\n", (int)n, text);
        text += n;
        text += strspn(text, " ");
        if (*text)
            fprintf(f, "%*s", HELP_COL, "");
        col = HELP_COL;
    }
}

/* The software switches of the GPU model: model keys (src/desc/wl.c), set
 * with --set or in a model file, listed after the GPU options. */
static const struct {
    const char *key, *what;
} gpu_switches[] = {
    {"model.sequence_parallel=on|off", "norms and dropout split over tp"},
    {"model.flash_attention=on|off", "fused attention, scores never stored"},
    {"model.tp_overlap=on|off", "tp traffic hidden under the matmuls"},
    {"model.distributed_optimizer=on|off", "optimizer state split over dp (ZeRO-1)"},
    {"model.fp8_params=on|off", "weights in 8 bits only (FP8 matmuls)"},
    {"model.optimizer_precision=fp32|bf16", "master weights, moments: 4+8 or 2+4 B"},
};

static void print_switches(FILE *f)
{
    fputs("  GPU software switches, model keys (--set model.KEY=VALUE or a model file;\n"
          "  default: the first four on, fp8_params off, optimizer_precision fp32):\n",
          f);
    for (size_t i = 0; i < sizeof gpu_switches / sizeof gpu_switches[0]; i++)
        fprintf(f, "    %-37s%s\n", gpu_switches[i].key, gpu_switches[i].what);
}

/* "options:" and one entry per option command c accepts; the GPU software
 * switches after --precision. */
static void print_options(FILE *f, const struct cli_cmd *c)
{
    fputs("\noptions:\n", f);
    for (size_t i = 0; i < sizeof opt_help / sizeof opt_help[0]; i++) {
        const struct cli_opt_help *h = &opt_help[i];
        const struct cli_opt_note *nt = note_of(c, h->name);
        if ((h->group && !(c->opts & h->group)) || (nt && !nt->what))
            continue;
        const char *value = nt ? nt->value : h->value, *what = nt ? nt->what : h->what;
        char flag[96];
        snprintf(flag, sizeof flag, "%c%c%s--%s%s%s", h->letter ? '-' : ' ',
                 h->letter ? h->letter : ' ', h->letter ? ", " : "  ", h->name,
                 *value && strncmp(value, "[=", 2) != 0 ? " " : "", value);
        int col = fprintf(f, "  %s", flag);
        if (col + 2 > HELP_COL) {
            fprintf(f, "\n%*s", HELP_COL, "");
        } else {
            fprintf(f, "%*s", HELP_COL - col, "");
        }
        put_wrapped(f, what, HELP_COL);
        if (strcmp(h->name, "precision") == 0)
            print_switches(f);
    }
}

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
          "  --hw-overlay FILE        apply a hardware overlay (e.g. from calibrate -o);\n         "
          "                  repeatable, applied in order\n"
          "  --data-dir DIR           search DIR/models and DIR/hw first\n"
          "  -h, --help               help for the program or the command\n"
          "  -V, --version            print the version\n"
          "The options of each command: cerebras-plan help COMMAND.\n\n"
          "exit status: 0 ok, 1 a negative verdict, 2 usage or input error.\n"
          "See cerebras-plan(1) and cerebras-plan(5).\n",
          f);
}

void cli_cmd_help(FILE *f, const struct cli_cmd *c)
{
    fprintf(f, "usage: cerebras-plan %s\n\n%s.\n", c->usage, c->summary);
    if (*c->help)
        fprintf(f, "\n%s", c->help);
    print_options(f, c);
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
