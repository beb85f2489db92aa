#!/bin/sh
# cli_atomic.sh - output files are written whole or not at all: an interrupt
# in the middle of writing a trace leaves neither the file nor its temporary
# copy, and a finished file has the mode a plain open would give it.
. "$(dirname "$0")/lib.sh"

# A trace of about 120 MB that takes a second or more to write.
trace_args="simulate -m gpt3-175b -s cs2 -n 192 --steps 3"

for sig in INT TERM HUP; do
    d=$T/$sig
    mkdir "$d"
    (cd "$d" && exec "$CP" $trace_args --trace t.csv >/dev/null 2>"$T/err") &
    pid=$!
    # Wait until the temporary file exists, then interrupt.
    i=0
    while [ -z "$(ls "$d")" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    sleep 0.2
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    left=$(ls -A "$d")
    if [ -z "$left" ] && [ "$rc" -gt 128 ]; then
        ok "SIG$sig while writing --trace: nothing left, exit $rc"
    elif [ -z "$left" ] && [ "$rc" -eq 0 ]; then
        ok "SIG$sig came after the trace was complete: # SKIP the run was too fast to interrupt"
    else
        nok "SIG$sig while writing --trace: nothing left" "exit $rc; left: $left"
    fi
done

# A finished trace has the mode of any new file under this umask.
d=$T/mode
mkdir "$d"
(umask 022 && cd "$d" && "$CP" simulate -m gpt3-175b -s cs2 -n 2 --trace t.csv >/dev/null 2>"$T/err" &&
    touch plain)
if [ -f "$d/t.csv" ] && [ "$(stat -c %a "$d/t.csv")" = "$(stat -c %a "$d/plain")" ]; then
    ok "a finished trace has the umask's mode ($(stat -c %a "$d/t.csv"))"
else
    nok "a finished trace has the umask's mode" "$(ls -l "$d")"
fi
[ "$(ls -A "$d" | wc -l)" -eq 2 ] && ok "only the trace is left (no temporary file)" || nok "only the trace is left" "$(ls -A "$d")"

echo "# cli_atomic done"
