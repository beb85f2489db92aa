#!/bin/sh
# Command-line tests of hostile input beyond the parsers (issue 19): a
# critical batch that underflows, non-finite figures, fewer tokens than one
# step.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_hostile done".
. "$(dirname "$0")/lib.sh"


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
# (with the time failures take: at least the step, and less than two)
check "... and the time to train is that step" awk -v t="$(csv_col "$T/one.csv" time_to_train_s)" \
    -v s="$(csv_col "$T/one.csv" step_time_s)" 'BEGIN { exit !(t >= s && t < 2 * s) }'
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
timeout 20 "$CP" sweep "$@" 2>"$T/err" | head -c 4096 >"$T/out"
if [ ! -s "$T/out" ] && grep -q "more than 1e+09 combinations" "$T/err"; then ok "eight 256-value --set axes (2^64 points): refused, no output"; else nok "eight 256-value --set axes (2^64 points): refused, no output"; fi
timeout 20 "$CP" sweep "$@" >/dev/null 2>&1
check "... with exit status 2" [ $? -eq 2 ]
# (a program that does not refuse would stream terabytes: the run is cut at
# 20 s and its output at 4 kB, so a regression fails without filling the disk)
u=$(seq -s, 0.1 0.0001 0.5)
timeout 20 "$CP" sweep -m all -s all --systems 1..100000 --set "system.utilization=$u" \
    2>"$T/err" | head -c 4096 >"$T/out"
if [ ! -s "$T/out" ] && grep -q "the grid has at least 1.6e+10 points" "$T/err"; then ok "a grid past 1e9 points is refused before output"; else nok "a grid past 1e9 points is refused before output"; fi
check "... and the message offers --shard" grep -q -- "--shard K/N" "$T/err"
# --max-points lowers (or raises) the bound, before any output
timeout 20 "$CP" sweep --systems 1..101 --max-points 100 2>"$T/err" | head -c 4096 >"$T/out"
if [ ! -s "$T/out" ] && grep -q "more than the 100 one run evaluates (--max-points)" "$T/err"; then ok "sweep --max-points 100 refuses 101 points before output"; else nok "sweep --max-points 100 refuses 101 points before output"; fi
timeout 20 "$CP" sweep --systems 1..100 --max-points 100 --csv 2>"$T/err" | head -c 100000 >"$T/out"
check "... and runs 100 (a header and 100 rows)" [ "$(wc -l <"$T/out")" -eq 101 ]
timeout 20 "$CP" sweep --systems 1..100 --max-points 60 --shard 1/2 --csv 2>"$T/err" | head -c 100000 >"$T/out"
check "... per --shard share: 50 of 100 points under --max-points 60" [ "$(wc -l <"$T/out")" -eq 51 ]
timeout 20 "$CP" sweep --set system.jitter=0.01,0.02,0.03 --max-points 2 2>"$T/err" | head -c 4096 >"$T/out"
if [ ! -s "$T/out" ] && grep -q "more than --max-points allows (2 a run)" "$T/err"; then ok "--set axes past --max-points are refused before output"; else nok "--set axes past --max-points are refused before output"; fi
expect_err "--max-points '0': must be a whole number from 1 to 1e+15" "--max-points 0 refused" \
    sweep --max-points 0

# --- item 1: output writers never replace what stands at the path
mkfifo "$T/ff"
timeout 20 cat "$T/ff" >"$T/fifo.out" &
reader=$!
run simulate -m gpt2-small -s cs3 --trace "$T/ff"
wait "$reader"
if [ "$rc" -eq 0 ] && [ -p "$T/ff" ] && head -n 1 "$T/fifo.out" | grep -q '^start_s,end_s'; then ok "simulate --trace FIFO: written through, the FIFO stays a FIFO"; else nok "simulate --trace FIFO: written through, the FIFO stays a FIFO"; fi
echo old >"$T/target.csv"
ln -s target.csv "$T/link.csv"
run simulate -m gpt2-small -s cs3 --trace "$T/link.csv"
if [ "$rc" -eq 0 ] && [ -L "$T/link.csv" ] && head -n 1 "$T/target.csv" | grep -q '^start_s'; then ok "simulate --trace SYMLINK: the link stays, its target is written"; else nok "simulate --trace SYMLINK: the link stays, its target is written"; fi
printf 'system,model,systems,quantity,value,unit,source\n' >/dev/null
ln -s nowhere.csv "$T/dangling.csv"
expect_err "a symbolic link to a file that does not exist" \
    "simulate --trace to a dangling link is refused" simulate -m gpt2-small --trace "$T/dangling.csv"
if [ ! -e "$T/nowhere.csv" ] && [ -z "$(ls "$T" | grep 'dangling.csv.tmp')" ]; then ok "... and nothing is created"; else nok "... and nothing is created"; fi

# --- item 6: the signals a terminal, a scheduler or a limit sends leave nothing behind
# begun PID DIR PATTERN: wait (at most 20 s) until the run PID has put an
# entry matching PATTERN in DIR (its temporary: the signal comes mid-write),
# or has ended
begun() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ -z "$(ls -A "$2" | grep -e "$3")" ] && [ $i -lt 400 ]; do
        sleep 0.05
        i=$((i + 1))
    done
}
for sig in HUP USR1 ALRM XCPU; do
    "$CP" simulate -m gpt3-175b -s cs2 -n 192 --steps 10 --trace "$T/sig-$sig.csv" >/dev/null 2>&1 &
    pid=$!
    begun "$pid" "$T" "sig-$sig"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    check "simulate --trace killed by $sig leaves no file nor temporary" \
        [ -z "$(ls "$T" | grep "sig-$sig")" ]
done
mkdir "$T/rs"
for sig in HUP USR1; do
    (cd "$T/rs" && exec "$CP" report -m gpt2-small -s cs3 -o "r-$sig") >/dev/null 2>&1 &
    pid=$!
    begun "$pid" "$T/rs" .
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    check "report killed by $sig leaves no folder nor temporary" [ -z "$(ls "$T/rs")" ]
done

# --- item 13: a full disk gives its reason (the messages that named the
# wrong thing are in tests/bad-input/cases-cli-messages)
for args in "estimate" "sweep --systems 1..1000" "sweep --systems 1..1000 --csv" "simulate -m gpt3-xl"; do
    # shellcheck disable=SC2086
    timeout 60 "$CP" $args >/dev/full 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "No space left on device" "$T/err"; then
        ok "$args >/dev/full: exit 2 with the reason"
    else
        nok "$args >/dev/full: exit 2 with the reason" "exit $rc: $(head -c 300 "$T/err")"
    fi
done
# A small tmpfs for a full disk (root only); unmounted before the
# directory is removed, also when the script is stopped.
F="$T/full"
mkdir "$F"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$F" 2>/dev/null; then
    trap 'umount "$F" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
    # full_disk WHAT ARGS...: exit 2, "No space left on device", nothing left on the disk
    full_disk() {
        what=$1
        shift
        timeout 120 "$CP" "$@" >/dev/null 2>"$T/err"
        rc=$?
        left=$(ls -A "$F" | grep -v '^fill$')
        if [ "$rc" -eq 2 ] && grep -q "No space left on device" "$T/err" && [ -z "$left" ]; then
            ok "$what on a full disk: exit 2 with the reason, nothing left"
        else
            nok "$what on a full disk: exit 2 with the reason, nothing left" \
                "exit $rc: $(head -c 300 "$T/err"); left: $left"
        fi
    }
    full_disk "simulate --trace" simulate -m gpt3-xl --trace "$F/t.csv"
    # (natively: under valgrind a report takes minutes; not under
    # valgrind-all, covered natively and under ASan)
    if [ "${VGALL:-0}" != 1 ]; then
        cp_keep=$CP
        CP=$CP_NATIVE
        full_disk "report -o" report -m gpt3-xl -s cs2 -n 1 -o "$F/r"
        CP=$cp_keep
    else
        ok "report -o on a full disk: # SKIP under valgrind (minutes a report)"
    fi
    dd if=/dev/zero of="$F/fill" bs=1k 2>/dev/null # the rest of the disk
    full_disk "calibrate -o" calibrate tests/bad-input/calib/ok.csv --fit system.utilization \
        -o "$F/o.ini"
    umount "$F"
    trap 'rm -rf "$T"' EXIT INT TERM
else
    ok "a full disk: # SKIP not root, or no tmpfs to mount"
fi

echo "# cli_hostile done"
