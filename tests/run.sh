#!/bin/sh
# Run every test: the cmocka programs in build/tests/ and the command-line
# tests in tests/cli*.sh; print each failure and end with "N passed, N failed".
# Exit status 0 only if nothing failed.
#   run.sh --valgrind   all of it, with the first run of the binary of each
#                       kind (command, system kind, --csv/--uncertainty/
#                       --trace, expected exit status: tests/lib.sh) under
#                       valgrind's memcheck and the rest natively, every
#                       check of the scripts as without it (part 1 of make
#                       test); any error or leak fails
#   run.sh --valgrind-all  only the command-line tests, every run of the
#                       binary under memcheck (a few scripts thin their
#                       samples there: a run costs about a second)
#   JOBS=2 run.sh       run the test programs and scripts two at a time
set -u
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
pass=0
fail=0
VGLOG=
VGALL=0
case "${1:-}" in --valgrind-all) VGALL=1 ;; esac
export VGALL
if [ "${1:-}" = "--valgrind" ] || [ "${1:-}" = "--valgrind-all" ]; then
    command -v valgrind >/dev/null 2>&1 || { echo "run.sh: valgrind is not installed" >&2; exit 2; }
    VGLOG=$(mktemp -d) || exit 2
    export VGLOG
fi
trap 'rm -rf ${logs:+"$logs"} ${VGLOG:+"$VGLOG"}' EXIT INT TERM

# Every test program and script runs in one pool of $jobs lanes (JOBS, 1 by
# default; two under valgrind, and under --valgrind-all the scripts alone),
# the longest first so the lanes end together; each writes its own log, read
# afterwards in order.
logs=$(mktemp -d) || exit 2
jobs=${JOBS:-1}
[ -n "$VGLOG" ] && jobs=2
export B
units=""
if [ "${VGALL:-0}" != 1 ]; then
    for t in "$B"/tests/test_*; do
        case "$t" in *.d) continue ;; esac
        [ -x "$t" ] && units="$units $t"
    done
fi
# the longest first, then the rest in order: by CPU seconds measured
# natively (with part 1's runs under memcheck) and in the ASan pass
# (README.md, Testing, has the table)
if [ "${CP_TEST_SAN:-0}" = 1 ]; then
    first="tests/cli_report.sh tests/cli_outputs.sh tests/cli_badinput.sh tests/cli_help.sh
           tests/cli.sh tests/cli_gpu.sh tests/cli_parity.sh $B/tests/test_props $B/tests/test_plan
           tests/cli_report_compare.sh $B/tests/test_dtoa tests/cli_numeric.sh"
else
    first="tests/cli_numeric.sh tests/cli.sh tests/cli_report.sh tests/cli_outputs.sh
           tests/cli_help.sh tests/cli_badinput.sh tests/cli_report_compare.sh tests/cli_parity.sh
           tests/cli_gpu.sh $B/tests/test_props $B/tests/test_dtoa $B/tests/test_plan"
fi
for t in $first $units tests/cli*.sh; do
    case "$t" in */test_*) case " $units " in *" $t "*) ;; *) continue ;; esac ;; esac
    echo "$t"
done | awk '!seen[$0]++' |
    xargs -P "$jobs" -I '{}' sh -c 'case "$1" in *.sh) sh "$1" ;; *) "$1" ;; esac >"$2/${1##*/}.log" 2>&1
                                    echo $? >"$2/${1##*/}.rc"' sh '{}' "$logs"

for t in $units; do
    log=$logs/${t##*/}.log
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$(cat "$logs/${t##*/}.rc" 2>/dev/null)" != 0 ] && [ "$f" -eq 0 ]; then
        f=1 # crashed or failed outside a test
    fi
    if [ $((p + f)) -eq 0 ]; then
        f=1 # no summary: the output format changed or nothing ran
    fi
    if [ "$f" -ne 0 ]; then
        echo "FAIL: $t"
        grep -E '^\[  (FAILED|ERROR)|Failure|error' "$log" | head -n 20
    fi
    echo "$t: $p passed, $f failed"
    pass=$((pass + p))
    fail=$((fail + f))
done

# Command-line test scripts: TAP lines, ending with "# NAME done".
for script in tests/cli*.sh; do
    slog=$logs/${script##*/}.log
    grep -E '^not ok' "$slog"
    p=$(grep -c '^ok ' "$slog")
    f=$(grep -c '^not ok' "$slog")
    if ! grep -q '^# .* done$' "$slog"; then
        echo "FAIL: $script stopped early:"
        tail -n 5 "$slog"
        f=$((f + 1))
    fi
    echo "$script: $p passed, $f failed"
    pass=$((pass + p))
    fail=$((fail + f))
done
rm -rf "$logs"

if [ -n "$VGLOG" ]; then
    runs=0
    bad=0
    for l in "$VGLOG"/*.log; do
        [ -e "$l" ] || continue
        runs=$((runs + 1))
        if [ -s "$l" ]; then
            bad=$((bad + 1))
            [ "$bad" -le 5 ] && { echo "FAIL: valgrind:"; head -n 30 "$l"; }
        fi
    done
    [ "$runs" -eq 0 ] && bad=1 # nothing ran under valgrind
    if [ "${VGALL:-0}" = 1 ]; then
        echo "valgrind: $runs runs of the binary, $bad with errors or leaks"
    else
        echo "valgrind: $runs runs of the binary (the first of each kind; every run: make valgrind-all), $bad with errors or leaks"
    fi
    pass=$((pass + runs - bad))
    fail=$((fail + bad))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
