#!/bin/sh
# The simulators' integer limits and run size (issue 19, item 2; the plain
# refusals are cases in tests/bad-input/cases-sim): a SwarmX fan-out beyond
# an int is one node over all systems, in simulate, simulate --functional
# and crosscheck; the events a run takes are known exactly before it runs,
# and --max-events refuses a run one event larger at once, before a trace is
# opened.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_simlimits done" at the end.
. "$(dirname "$0")/lib.sh"

# sim_csv OUT ARGS...: simulate ARGS --csv into $T/OUT.csv; sets $rc
sim_csv() {
    out=$1
    shift
    timeout 60 "$CP" simulate "$@" --csv >"$T/$out.csv" 2>"$T/$out.err"
    rc=$?
}

# --- a fan-out past an int: the tree of a fan-out of N, one node
pin="-m gpt3-xl -s cs3 -n 6 --memoryx-servers 8 --activations wafer --batch 60"
# shellcheck disable=SC2086
sim_csv six $pin --set swarmx.fanout=6
for f in 4294967298 9007199254740992; do
    # shellcheck disable=SC2086
    sim_csv big $pin --set swarmx.fanout=$f
    nodes=$(csv_col "$T/big.csv" swarmx_nodes)
    if [ "$nodes" = 1 ] && [ "$(csv_col "$T/six.csv" swarmx_nodes)" = 1 ] &&
        [ "$(csv_col "$T/big.csv" step_time_s)" = "$(csv_col "$T/six.csv" step_time_s)" ] &&
        [ "$(csv_col "$T/big.csv" events)" = "$(csv_col "$T/six.csv" events)" ]; then
        ok "simulate, fan-out $f over 6 systems: one node, as a fan-out of 6"
    else
        nok "simulate, fan-out $f over 6 systems: one node, as a fan-out of 6" \
            "nodes $nodes; $(cat "$T/big.err")"
    fi
done
"$CP" simulate --functional -n 8 --csv --set swarmx.fanout=8 >"$T/f8.csv" 2>"$T/err"
"$CP" simulate --functional -n 8 --csv --set swarmx.fanout=4294967298 >"$T/fbig.csv" 2>>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(csv_col "$T/fbig.csv" fanout)" = 4294967298 ] &&
    [ "$(csv_col "$T/fbig.csv" swarmx_nodes)" = 1 ] &&
    [ "$(csv_col "$T/fbig.csv" max_rel_diff)" = "$(csv_col "$T/f8.csv" max_rel_diff)" ] &&
    [ "$(csv_col "$T/fbig.csv" verdict)" = agrees ]; then
    ok "simulate --functional, fan-out 4294967298 over 8 systems: one node, as a fan-out of 8"
else
    nok "simulate --functional, fan-out 4294967298 over 8 systems: one node, as a fan-out of 8" \
        "exit $rc; $(cat "$T/err" "$T/fbig.csv")"
fi

# --- the events are known before the run: exactly the bound passes, one
# fewer is refused at once, naming the count
args="-m gpt3-xl -s cs3 -n 7 --memoryx-units 2 --batch 30 --steps 2"
# shellcheck disable=SC2086
sim_csv ev $args
ev=$(csv_col "$T/ev.csv" events)
# shellcheck disable=SC2086
run simulate $args --max-events "$ev"
rc_at=$rc
# shellcheck disable=SC2086
run simulate $args --max-events $((ev - 1))
if [ -n "$ev" ] && [ "$rc_at" -eq 0 ] && [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] &&
    grep -q -- "--max-events: the run would take $ev events" "$T/err"; then
    ok "simulate: --max-events $ev runs the $ev events, $((ev - 1)) is refused naming them"
else
    nok "simulate: --max-events $ev runs the $ev events, $((ev - 1)) is refused naming them" \
        "exit $rc_at, then $rc: $(cat "$T/err")"
fi
# functional: steps x (samples + 9 messages on each of N + nodes links);
# 16 systems of fan-out 3: 6 + 2 + 1 nodes
fev=$((4 * (48 + 9 * (16 + 9))))
run simulate --functional -n 16 --set swarmx.fanout=3 --steps 4 --batch 48 --max-events $fev
rc_at=$rc
run simulate --functional -n 16 --set swarmx.fanout=3 --steps 4 --batch 48 --max-events $((fev - 1))
if [ "$rc_at" -eq 0 ] && [ "$rc" -eq 2 ] && grep -q "would take $fev events" "$T/err"; then
    ok "simulate --functional: $fev events pass, $((fev - 1)) are refused naming them"
else
    nok "simulate --functional: $fev events pass, $((fev - 1)) are refused naming them" \
        "exit $rc_at, then $rc: $(cat "$T/err")"
fi

# --- refused at once: 120T on 2048 CS-3 for 1000 steps (1.6e10 events,
# twenty minutes), 1e11 functional events (days)
for a in "-m 120t -s cs3 -n 2048 --steps 1000" "--functional --steps 100000 --batch 1000000"; do
    # shellcheck disable=SC2086
    timeout 5 "$CP" simulate $a >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q "raise --max-events" "$T/err"; then
        ok "simulate $a: refused within 5 s, naming --max-events"
    else
        nok "simulate $a: refused within 5 s, naming --max-events" "exit $rc: $(cat "$T/err")"
    fi
done

# --- a trace is not opened for a run that is refused: a FIFO with no
# reader would block the open
mkfifo "$T/fifo"
timeout 10 "$CP" simulate -m 120t -s cs3 -n 2048 --trace "$T/fifo" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && [ -p "$T/fifo" ] && grep -q "with --trace the bound is 1e7" "$T/err"; then
    ok "simulate --trace FIFO past the trace's bound (4.7e7 events): refused before the open"
else
    nok "simulate --trace FIFO past the trace's bound (4.7e7 events): refused before the open" \
        "exit $rc: $(cat "$T/err")"
fi

# --- crosscheck: its events in all are known before it runs (one run of
# the grid, seconds of work: natively, and not under valgrind-all), and sized
# the same under a fan-out past an int as under one of 2048, its largest
# cluster
if [ "${VGALL:-0}" = 1 ]; then
    ok "crosscheck --max-events # SKIP under valgrind"
else
    timeout 120 "$CP_NATIVE" crosscheck --csv >"$T/x.csv" 2>"$T/err"
    total=$(awk -F, 'BEGIN { RS = "\r\n" } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") c = i; next }
        NF { s += $c } END { printf "%.0f", s }' "$T/x.csv")
    want=$(printf '%.4g' "$total")
    run crosscheck --max-events $((total - 1))
    if [ "$total" -gt 0 ] && [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] &&
        grep -q -- "--max-events: the 67 points would take $want simulated events" "$T/err"; then
        ok "crosscheck --max-events $((total - 1)): refused, naming the grid's $want events"
    else
        nok "crosscheck --max-events $((total - 1)): refused, naming the grid's $want events" \
            "exit $rc: $(cat "$T/err")"
    fi
fi
run crosscheck --set swarmx.fanout=2048 --max-events 1
sed 's/.*would take \([^ ]*\) simulated events.*/\1/' "$T/err" >"$T/x2048"
run crosscheck --set swarmx.fanout=4294967298 --max-events 1
sed 's/.*would take \([^ ]*\) simulated events.*/\1/' "$T/err" >"$T/xbig"
if [ "$rc" -eq 2 ] && grep -q 'e+0[78]$' "$T/xbig" && cmp -s "$T/x2048" "$T/xbig"; then
    ok "crosscheck: the grid under a fan-out of 4294967298 takes the events of 2048 ($(cat "$T/xbig"))"
else
    nok "crosscheck: the grid under a fan-out of 4294967298 takes the events of 2048" \
        "$(cat "$T/x2048" "$T/xbig")"
fi

echo "# cli_simlimits done"
