# lib.sh - shared by the command-line test scripts (tests/cli*.sh), which
# source it first.  Sets CP (the binary), T (a temporary directory removed
# on exit), a clean description search path, and the TAP helpers: each
# check prints "ok N - what" or "not ok N - what" (run.sh counts them).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
case "$B" in /*) CP="$B/cerebras-plan" ;; *) CP="$PWD/$B/cerebras-plan" ;; esac
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
# Under `make valgrind` (VGLOG set by run.sh) every run of the binary goes
# through memcheck; each process logs to its own file in $VGLOG, which stays
# empty when the run is clean (run.sh counts the non-empty ones as failures).
CP_NATIVE=$CP
if [ -n "${VGLOG:-}" ]; then
    # valgrind by its full path: some tests run the binary with another PATH
    printf '#!/bin/sh\nexec %s -q --leak-check=full %s %s %s --log-file="%s/%%p.log" "%s" "$@"\n' \
        "$(command -v valgrind)" '--show-leak-kinds=definite,indirect,possible' \
        '--errors-for-leak-kinds=definite,indirect,possible --num-callers=30' \
        "--suppressions=$PWD/tests/valgrind.supp" "$VGLOG" "$CP" >"$T/cp-valgrind"
    chmod +x "$T/cp-valgrind"
    CP="$T/cp-valgrind"
fi
n=0
unset CEREBRAS_PLAN_PATH
# An installed copy on this machine must not change what the tests see.
export CEREBRAS_PLAN_DATADIR=

ok() { n=$((n + 1)); echo "ok $n - $1"; }
# nok WHAT [DETAIL]: DETAIL's first lines follow as "#   " comments
nok() {
    n=$((n + 1))
    echo "not ok $n - $1"
    [ $# -gt 1 ] && printf '%s\n' "$2" | head -n 8 | cut -c 1-300 | sed 's/^/#   /'
    return 0
}

# run ARGS...: the binary; sets $rc, stdout in $T/out, stderr in $T/err
run() {
    "$CP" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# check WHAT COMMAND...: ok when COMMAND succeeds
check() {
    what=$1
    shift
    if "$@"; then ok "$what"; else nok "$what" "$(head -c 300 "$T/err" 2>/dev/null)"; fi
}

# expect_rc CODE WHAT ARGS...: the binary with ARGS exits with CODE
expect_rc() {
    want=$1 what=$2
    shift 2
    run "$@"
    if [ "$rc" -eq "$want" ]; then ok "$what"; else nok "$what" "exit $rc, wanted $want: $(head -c 300 "$T/err")"; fi
}

# expect_err MESSAGE WHAT ARGS...: exit 2, MESSAGE on stderr, no stdout
expect_err() {
    want=$1 what=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$T/err" && [ ! -s "$T/out" ]; then
        ok "$what"
    else
        nok "$what" "exit $rc; stderr: $(head -c 300 "$T/err"); wanted: $want"
    fi
}

# csv_col FILE NAME [ROW]: the value of column NAME in data row ROW (1) of a
# CSV file with CRLF line ends
csv_col() {
    awk -F, -v want="$2" -v row="${3:-1}" 'BEGIN{RS="\r\n"} NR==1{for(i=1;i<=NF;i++) if($i==want) c=i} NR==row+1{print $c}' "$1"
}
# show_val NAME KEY: the SI value of KEY in `show NAME --csv`
show_val() { "$CP" show "$1" --csv | tr -d '\r' | awk -F, -v k="$2" '$1 == k { print $2 }'; }
# est_csv OUT ARGS...: estimate ARGS --csv into $T/OUT.csv (stderr $T/OUT.err); sets $rc
est_csv() {
    out=$1
    shift
    "$CP" estimate "$@" --csv >"$T/$out.csv" 2>"$T/$out.err"
    rc=$?
}
