#!/bin/sh
# make bench: every throughput figure as "name value unit", followed by its
# target from tests/bench-targets and whether this run met it.  Needs
# $B/bench and $B/cerebras-plan built (the Makefile does that first).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
CP=$B/cerebras-plan

figures() {
    "$B/bench" || return 1
    TERM=xterm-256color COLUMNS=120 LINES=40 CEREBRAS_PLAN_EXPLORE_FRAMES=500 \
        "$CP" explore -m gpt3-175b -s cs3 -n 2048 </dev/null 2>&1 >/dev/null
    # the sparsities listed before the clock starts: the figure is the
    # sweep's process alone
    sp=$(seq -s, 0 0.02 0.98)
    for j in 1 2; do
        t0=$(date +%s.%N)
        "$CP" sweep -m gpt3-175b --systems 1..2048 --sparsity "$sp" \
            -j $j >/dev/null 2>&1 || return 1
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" -v j=$j 'BEGIN { printf "sweep_points_per_s%s %.4g points/s\n",
            j == 1 ? "" : "_j" j, 102400 / (b - a) }'
    done
    t0=$(date +%s.%N)
    for i in $(seq 1 100); do
        "$CP" estimate -m gpt3-175b -s cs2 -n 192 >/dev/null || return 1
    done
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "cli_estimate_wall_ms %.3g ms\n", (b - a) * 10 }'
    # the same on GPUs: the layout search over 1024 H100 inside (issue 29)
    t0=$(date +%s.%N)
    for i in $(seq 1 100); do
        "$CP" estimate -s h100 -n 1024 >/dev/null || return 1
    done
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "cli_estimate_gpu_wall_ms %.3g ms\n", (b - a) * 10 }'
}

out=$(figures) || { printf '%s\n' "$out"; echo "bench: a benchmark failed" >&2; exit 1; }
printf '%s\n' "$out" | awk '
    NR == FNR { if ($0 !~ /^#/ && NF >= 3) { op[$1] = $2; want[$1] = $3 } next }
    !($1 in op) { print $0 "  (no target)"; next }
    {
        met = op[$1] == ">=" ? $2 + 0 >= want[$1] + 0 : $2 + 0 <= want[$1] + 0
        printf "%s  (target %s %s: %s)\n", $0, op[$1], want[$1], met ? "met" : "MISSED"
    }' tests/bench-targets -
