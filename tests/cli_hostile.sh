#!/bin/sh
# Command-line tests of hostile input beyond the parsers (issue 19): a
# critical batch that underflows, non-finite figures, fewer tokens than one
# step.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_hostile done".
. "$(dirname "$0")/lib.sh"

csv_col() { awk -F, -v want="$2" 'BEGIN{RS="\r\n"} NR==1{for(i=1;i<=NF;i++) if($i==want) c=i} NR==2{print $c}' "$1"; }

# --- item 4: a critical batch of 0 is refused by every producer, no -nan
for cmd in estimate scale "plan --deadline 30d" sensitivity "report -o $T/rep"; do
    # shellcheck disable=SC2086
    expect_err "the critical batch of GPT-3 175B comes to 0 tokens" \
        "$cmd refuses a critical batch that underflows to 0" \
        $cmd --set batch.critical_exponent=0.0005
done
check "report left nothing behind" [ ! -e "$T/rep" ]
run scale --systems 1..16x2 --batch-penalty
check "scale with the penalty prints no nan" sh -c "! grep -qi nan '$T/out'"

# --- item 5: whole steps
"$CP" estimate --tokens 1e6 --csv >"$T/one.csv"
check "fewer tokens than one step: one whole step" [ "$(csv_col "$T/one.csv" steps)" = 1 ]
check "... and the time to train is that step" \
    [ "$(csv_col "$T/one.csv" time_to_train_s)" = "$(csv_col "$T/one.csv" step_time_s)" ]
"$CP" estimate --csv >"$T/def.csv"
check "steps are whole at the model's tokens" awk -v s="$(csv_col "$T/def.csv" steps)" \
    -v t="$(csv_col "$T/def.csv" tokens)" -v g="$(csv_col "$T/def.csv" global_batch_tokens)" \
    'BEGIN{exit !(s == int(s) && s * g >= t && (s - 1) * g < t)}'
expect_rc 1 "plan --tokens 1 --deadline 1s is unreachable (one step takes longer)" \
    plan --tokens 1 --deadline 1s

# --- item 3: sweep sizes checked before any output
v=$(seq -s, 1 256)
set --
for k in utilization power max_matmul_dim util_half_tokens step_overhead jitter sram peak_flops; do
    set -- "$@" --set "system.$k=$v"
done
timeout 20 "$CP" sweep "$@" >"$T/out" 2>"$T/err"
rc=$?
check "eight 256-value --set axes (2^64 points): exit 2, no output" \
    [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q "more than 1000000000 combinations" "$T/err"
u=$(seq -s, 0.1 0.0001 0.5)
expect_err "the grid has at least 1.04e+10 points" "a grid past 1e9 points is refused before output" \
    sweep -m all -s all --systems 1..100000 --set "system.utilization=$u"
check "... and the message offers --shard" grep -q -- "--shard K/N" "$T/err"

echo "# cli_hostile done"
