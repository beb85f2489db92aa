#!/bin/sh
# cli_numeric.sh - numeric robustness of the front end: estimate, scale,
# capacity, plan, sensitivity, claims and sweep, as text and --csv, for
# every model `list` names on every system, at a sample of N (1, 2, the
# fan-out and one past it, three from a fixed-seed generator,
# system.max_systems) and of sparsity (0, 0.5, 0.9, 0.99).  Checks that no
# output (stdout or stderr) holds "nan" or "inf" as a whole word, in any
# case ("infeasible" and the like are words of their own and do not match),
# and that every exit status is one cerebras-plan(1) documents (EXIT
# STATUS): 0, or 1 for estimate and scale exactly when a point is
# infeasible, for capacity exactly when no tier holds the model, for plan
# when the target is out of reach; sensitivity, claims and sweep exit 0.
# One TAP line per command, model and system; ends "# cli_numeric done".
. "$(dirname "$0")/lib.sh"

SPARS="0 0.5 0.9 0.99"
DEADLINE=30d
DEADLINE_S=2592000

# A fixed-seed linear congruential generator (POSIX sh has no $RANDOM):
# rnd MAX sets R to a whole number in 1..MAX.
seed=20261122
rnd() {
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    R=$((seed / 65536 % $1 + 1))
}

# The helpers below run no other process for each run of the binary: a run
# of grep or awk costs about as much CPU as a run of the program (7 ms
# against 14), and the script makes 4,300 runs.
cr=$(printf '\r')
# head_col NAME: read the CSV header on stdin; c is column NAME's number
# (0 when there is none), and the fields split at commas from then on (set
# -f, IFS=,); 1 when there is no header
head_col() {
    want=$1 c=0 i=0
    IFS= read -r line || [ -n "$line" ] || return 1
    set -f
    IFS=,
    # shellcheck disable=SC2086
    set -- ${line%"$cr"}
    for h; do
        i=$((i + 1))
        [ "$h" = "$want" ] && c=$i
    done
    return 0
}
# col FILE ROW NAME: column NAME of data row ROW (1 = first after the
# header) of a CSV file, fields split at every comma, a CR at the end of a
# line dropped; nothing when there is no such column or row
col() (
    row=$2
    exec <"$1"
    head_col "$3" || exit 0
    [ "$c" -gt 0 ] || exit 0
    line=
    while [ "$row" -gt 0 ] && { IFS= read -r line || [ -n "$line" ]; }; do
        row=$((row - 1))
        [ "$row" -eq 0 ] || line=
    done
    [ "$row" -eq 0 ] || exit 0
    # shellcheck disable=SC2086
    set -- ${line%"$cr"}
    eval "printf '%s\\n' \"\${$c:-}\""
)
# anyval FILE NAME VALUE: some data row has VALUE in column NAME (exit 0 if
# so, 1 if not or the file is empty, 2 if there is no such column)
anyval() (
    val=$3 v=
    exec <"$1"
    head_col "$2" || exit 1
    [ "$c" -gt 0 ] || exit 2
    line=
    while IFS= read -r line || [ -n "$line" ]; do
        # shellcheck disable=SC2086
        set -- ${line%"$cr"}
        eval "v=\${$c:-}"
        [ "$v" = "$val" ] && exit 0
        line=
    done
    exit 1
)

# NaN or infinity as printf, strtod and people write them, as a whole word
NANINF='nan|inf|infinity'

# Failures since the last verdict, and how many runs they cover.
errs=
runs=0
note() {
    errs="$errs$1
"
}
# try ALLOWED ARGS...: run the binary; a failure if its exit status is not
# one of ALLOWED (a space-separated list) or its output holds nan or inf.
# Each run keeps its output ($T/o.N, $T/e.N; $out is the last one's stdout)
# and its arguments (args_N) until the verdict, which searches them all
# with one grep.
try() {
    allowed=$1
    shift
    runs=$((runs + 1))
    out=$T/o.$runs
    VG_TAG='' "$CP" "$@" >"$out" 2>"$T/e.$runs"
    rc=$?
    eval "args_$runs=\$*"
    case " $allowed " in
    *" $rc "*) ;;
    *) note "exit $rc (documented: $allowed): $* : $(head -c 200 "$T/e.$runs")" ;;
    esac
}
# nan_inf: a note for each run since the last verdict whose output holds nan
# or inf, then their outputs removed
nan_inf() {
    [ "$runs" -gt 0 ] || return 0
    grep -Eilw "$NANINF" "$T"/o.* "$T"/e.* >"$T/hits"
    while IFS= read -r f; do
        a=
        eval "a=\$args_${f##*.}"
        note "nan/inf: $a : $(grep -Eihw "$NANINF" "$f" | head -n 1 | cut -c 1-200)"
    done <"$T/hits"
    rm -f "$T"/o.* "$T"/e.*
}
# verdict WHAT: one TAP line for the runs since the last verdict
verdict() {
    nan_inf
    if [ -z "$errs" ]; then ok "$1 ($runs runs)"; else nok "$1" "$errs"; fi
    errs=
    runs=0
}

# Self-check of the pattern: it must find NaN and infinity as printf writes
# them, and not the words the program prints.
printf 'x -nan y\n' >"$T/p1"
printf 'time INF\n' >"$T/p2"
printf '1e+308,Infinity\n' >"$T/p3"
printf 'infeasible: sram_full; info; nano; inference\n' >"$T/p4"
if grep -Eiqw "$NANINF" "$T/p1" && grep -Eiqw "$NANINF" "$T/p2" &&
    grep -Eiqw "$NANINF" "$T/p3" && ! grep -Eiqw "$NANINF" "$T/p4"; then
    ok "the nan/inf pattern finds -nan, INF and Infinity but not infeasible or info"
else
    nok "the nan/inf pattern finds -nan, INF and Infinity but not infeasible or info"
fi

models=$("$CP" list models --csv | tail -n +2 | cut -d, -f1)
# The weight-streaming systems (the model column of list hw); GPU systems
# go through the GPU model and are checked by cli_gpu.sh.
systems=$("$CP" list hw --csv | tail -n +2 | awk -F, '$3 == "weight-streaming" { print $1 }')
if [ -n "$models" ] && [ -n "$systems" ]; then
    ok "list names models ($(printf '%s ' $models)) and systems ($(printf '%s ' $systems))"
else
    nok "list names models and systems"
fi

# With every run under valgrind (run.sh --valgrind-all sets VGALL=1) a run
# costs about a second instead of milliseconds: there the sample thins to the
# first and last model, sparsities 0 and 0.99, N in {1, random, max}, and
# the sweeps to the sampled N, which keeps the script to a few minutes.  The
# ASan pass of make test (CP_TEST_SAN=1) takes the same sample of single
# runs (every command and option of the script, on every system, about 150
# runs instead of 4,300: a run costs about 0.15 s of CPU there, 0.01
# natively) but keeps the whole sweeps, every model, tier, N and sparsity
# through the model under ASan in one process each; the functional pass
# has run every check on the whole sample.
thin=
if [ "${VGALL:-0}" = 1 ] || [ "${CP_TEST_SAN:-0}" = 1 ]; then
    thin=1
    SPARS="0 0.99"
    models=$(printf '%s\n' "$models" | sed -n '1p;$p')
fi

: >"$T/claims.csv"
echo "id,claim,source,kind,model,system,systems,memoryx,sparsity,target,condition" >"$T/claims.csv"
nclaims=0

for s in $systems; do
    "$CP" show "$s" --csv >"$T/hw.csv"
    max=$(awk -F, '$1 == "system.max_systems" { print $2 }' "$T/hw.csv")
    k=$(awk -F, '$1 == "swarmx.fanout" { print $2 }' "$T/hw.csv")
    ntiers=$(grep -c '^tiers\.' "$T/hw.csv")
    largest=$(awk -F, '$1 ~ /^tiers\./ && $2 + 0 > v { v = $2 + 0; sub(/^tiers\./, "", $1); t = $1 }
        END { print t }' "$T/hw.csv")
    rnd "$max"
    r1=$R
    rnd "$max"
    r2=$R
    k1=$((k + 1))
    [ "$k1" -le "$max" ] || k1=$max
    NS=$(printf '%s\n' 1 2 "$k1" "$r1" "$r2" "$max" | sort -n -u)
    [ -z "$thin" ] || NS=$(printf '%s\n' 1 "$r1" "$max" | sort -n -u)
    SWEEPN="1..$max"
    NLIST=$(printf '%s\n' "$NS" | paste -s -d , -)
    nsweep=$max
    if [ "${VGALL:-0}" = 1 ]; then
        SWEEPN=$NLIST
        nsweep=$(printf '%s\n' "$NS" | wc -l)
    fi

    # ---- sweep: every model x every tier x N = 1..max x 4 sparsities ----
    # (its rows are estimate --csv's, cli_sweep.sh checks byte for byte)
    "$CP" sweep -m all -s "$s" --systems "$SWEEPN" --sparsity 0,0.5,0.9,0.99 --memoryx all \
        >"$T/sweep.csv" 2>"$T/err"
    rc=$?
    rows=$(($(wc -l <"$T/sweep.csv") - 1))
    want=$(($("$CP" list models --csv | tail -n +2 | wc -l) * ntiers * nsweep * 4))
    hit=$(grep -Eihw -m 1 "$NANINF" "$T/sweep.csv" "$T/err" | cut -c 1-200)
    if [ "$rc" -eq 0 ] && [ "$rows" -eq "$want" ] && [ -z "$hit" ]; then
        ok "sweep on $s: $rows points (all models, tiers, N in $SWEEPN, 4 sparsities) without nan/inf"
    else
        nok "sweep on $s without nan/inf" "exit $rc, $rows rows of $want; $hit $(head -c 200 "$T/err")"
    fi
    # the other scenario options at every point, on the sampled sizes
    "$CP" sweep -m all -s "$s" --systems "$NLIST" --sparsity 0.01,0.25,0.75,0.95 \
        --memoryx all --overlap 1 --batch-penalty --price 12.5 >"$T/sweep.csv" 2>"$T/err"
    rc=$?
    hit=$(grep -Eihw -m 1 "$NANINF" "$T/sweep.csv" "$T/err" | cut -c 1-200)
    if [ "$rc" -eq 0 ] && [ -z "$hit" ] && [ "$(wc -l <"$T/sweep.csv")" -gt 1 ]; then
        ok "sweep on $s with --overlap 1 --batch-penalty --price, N in $NLIST: no nan/inf"
    else
        nok "sweep on $s with --overlap 1 --batch-penalty --price" "exit $rc; $hit"
    fi

    for m in $models; do
        # ---- estimate: text and --csv at every sampled N and sparsity ----
        for N in $NS; do
            for sp in $SPARS; do
                try "0 1" estimate -m "$m" -s "$s" -n "$N" --sparsity "$sp" --price 12.5
                rct=$rc
                try "0 1" estimate -m "$m" -s "$s" -n "$N" --sparsity "$sp" --price 12.5 --csv
                f=$(col "$out" 1 feasible)
                [ "$rc" -eq "$rct" ] || note "estimate -n $N --sparsity $sp: text exit $rct, --csv $rc"
                if { [ "$f" = 1 ] && [ "$rc" -ne 0 ]; } || { [ "$f" = 0 ] && [ "$rc" -ne 1 ]; } ||
                    [ -z "$f" ]; then
                    note "estimate -n $N --sparsity $sp --csv: feasible '$f' but exit $rc"
                fi
            done
            # the largest tier, full overlap, the batch penalty
            try "0 1" estimate -m "$m" -s "$s" -n "$N" --sparsity 0.9 --memoryx "$largest" \
                --overlap 1 --batch-penalty --csv
        done
        try "0 1" estimate -m "$m" -s "$s" -n "$r1" --sparsity 0.5 --uncertainty=100 --seed 3
        try "0 1" estimate -m "$m" -s "$s" -n "$r1" --sparsity 0.5 --uncertainty=100 --seed 3 --csv
        verdict "estimate $m on $s: N in $NLIST x sparsity {$SPARS}, no nan/inf, exit 1 iff infeasible"

        # ---- scale: weak and strong over the sampled N ----
        for sp in $SPARS; do
            try "0 1" scale -m "$m" -s "$s" --systems "$NLIST" --sparsity "$sp"
            rct=$rc
            try "0 1" scale -m "$m" -s "$s" --systems "$NLIST" --sparsity "$sp" --csv
            [ "$rc" -eq "$rct" ] || note "scale --sparsity $sp: text exit $rct, --csv $rc"
            anyval "$out" feasible 0
            want=$?
            [ "$want" -le 1 ] && want=$((1 - want))
            [ "$rc" -eq "$want" ] || note "scale --sparsity $sp --csv: exit $rc, want $want"
            try "0 1" scale -m "$m" -s "$s" --systems "$NLIST" --sparsity "$sp" --strong \
                --batch-penalty --csv
            anyval "$out" feasible 0
            want=$?
            [ "$want" -le 1 ] && want=$((1 - want))
            [ "$rc" -eq "$want" ] || note "scale --strong --sparsity $sp --csv: exit $rc, want $want"
        done
        verdict "scale $m on $s: weak and strong, no nan/inf, exit 1 iff a point is infeasible"

        # ---- capacity ----
        try "0 1" capacity -m "$m" -s "$s"
        rct=$rc
        try "0 1" capacity -m "$m" -s "$s" --csv
        [ "$rc" -eq "$rct" ] || note "capacity: text exit $rct, --csv $rc"
        anyval "$out" fits 1
        want=$?
        [ "$rc" -eq "$want" ] || note "capacity --csv: exit $rc, want $want (1 iff no tier holds it)"
        verdict "capacity $m on $s: no nan/inf, exit 1 iff no tier holds the model"

        # ---- plan: a deadline at each sparsity; energy and budget ----
        for sp in $SPARS; do
            try "0 1" plan -m "$m" -s "$s" --deadline "$DEADLINE" --sparsity "$sp"
            rct=$rc
            try "0 1" plan -m "$m" -s "$s" --deadline "$DEADLINE" --sparsity "$sp" --csv
            [ "$rc" -eq "$rct" ] || note "plan --sparsity $sp: text exit $rct, --csv $rc"
            if [ "$rc" -eq 0 ]; then
                t=$(col "$out" 1 time_to_train_s)
                f=$(col "$out" 1 feasible)
                if ! awk -v t="$t" -v d="$DEADLINE_S" 'BEGIN { exit !(t != "" && t + 0 <= d) }' ||
                    [ "$f" != 1 ]; then
                    note "plan --sparsity $sp: exit 0 but time $t s, feasible '$f' (deadline $DEADLINE_S s)"
                fi
            fi
        done
        try "0 1" plan -m "$m" -s "$s" --deadline 1d --allow-sparsity --csv
        try "0 1" plan -m "$m" -s "$s" --deadline 1d --allow-sparsity --allow-batch
        try "0 1" plan -m "$m" -s "$s" --energy '10 GWh' --csv
        try "0 1" plan -m "$m" -s "$s" --budget 1e7 --price 50
        try "0 1" plan -m "$m" -s "$s" --deadline "$DEADLINE" --uncertainty=100 --csv
        verdict "plan $m on $s: --deadline $DEADLINE x {$SPARS}, energy, budget; no nan/inf, exit 0 only when met"

        # ---- sensitivity: N in {1, random, max} x every sparsity ----
        SN="1 $r2 $max"
        [ -z "$thin" ] || SN=$max
        for N in $SN; do
            for sp in $SPARS; do
                try 0 sensitivity -m "$m" -s "$s" -n "$N" --sparsity "$sp"
                try 0 sensitivity -m "$m" -s "$s" -n "$N" --sparsity "$sp" --csv
            done
        done
        verdict "sensitivity $m on $s: N in {$SN} x {$SPARS}, no nan/inf, exit 0"

        # ---- claims of every kind for this model and system ----
        for N in 1 "$r1" "$max"; do
            for sp in $SPARS; do
                nclaims=$((nclaims + 5))
                id="$m-$s-$N-$sp"
                cat >>"$T/claims.csv" <<EOF
cap-$id,capacity,test,capacity,$m,$s,$N,auto,$sp,365 d,
weak-$id,weak scaling,test,weak_scaling,$m,$s,$N,auto,$sp,0.9,
spd-$id,measured speedup,test,speedup,$m,$s,$N,$largest,$sp,$N,
sps-$id,sparsity speedup,test,sparsity_speedup,$m,$s,$N,auto,$sp,3,
ttt-$id,time to train,test,time_to_train,$m,$s,$N,auto,$sp,30 d,
EOF
            done
        done
    done
done

# ---- claims: the shipped file and the generated one, text and --csv ----
try 0 claims
try 0 claims --csv
try 0 claims "$T/claims.csv"
try 0 claims "$T/claims.csv" --csv
rows=$(($(wc -l <"$out") - 1))
[ "$rows" -ge "$nclaims" ] || note "claims --csv: $rows rows for $nclaims claims"
verdict "claims: shipped and $nclaims generated (5 kinds x models x systems x N x sparsity), no nan/inf, exit 0"

echo "# cli_numeric done"
