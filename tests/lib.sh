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
# Under `make valgrind` (VGLOG set by run.sh) runs of the binary go through
# memcheck; each process logs to its own file in $VGLOG, which stays empty
# when the run is clean (run.sh counts the non-empty ones as failures).
# With VGALL=1 (`make valgrind-all`) every run does; otherwise only the
# first run of each kind across all scripts: the command word, the kind of
# the -s value (a shipped weight-streaming system, a shipped GPU, a file or
# list, another name), which of --csv, --uncertainty and --trace it has,
# and $VG_TAG (expect_rc, expect_err and cli_badinput.sh set it to the exit
# status they expect, so the error paths are checked too).  The first run
# to create $VGLOG/seen/KEY (the kind, or its cksum when it has a slash or
# is long;
# set -C creates it with O_EXCL, so one run takes it) runs under memcheck;
# the others run natively.  The wrapper works out the kind in the shell
# alone, with no other process: it stands before every run of the
# functional pass.  Tools by their full paths: some tests run the binary
# with another PATH.
CP_NATIVE=$CP
if [ -n "${VGLOG:-}" ]; then
    vg="$(command -v valgrind) -q --leak-check=full --show-leak-kinds=definite,indirect,possible"
    vg="$vg --errors-for-leak-kinds=definite,indirect,possible --num-callers=30"
    vg="$vg --suppressions=$PWD/tests/valgrind.supp"
    {
        echo '#!/bin/sh'
        printf 'cp=%s vglog=%s cksum=%s\n' "'$CP'" "'$VGLOG'" "'$(command -v cksum)'"
        cat <<'EOF'
if [ "${VGALL:-0}" != 1 ]; then
    what=${1:--} k=- c= t= u= prev=${1:-} n=$#
    [ $# -gt 0 ] && shift
    for a in "$@"; do
        case $prev in -s | --system)
            case ${a%%=*} in
            cs2 | cs3) k=ws ;;
            a100 | h100 | h200 | b200 | gb200) k=gpu ;;
            */* | *,* | *.*) k=file ;;
            *) k=name ;;
            esac ;;
        esac
        case ${a%%=*} in --csv) c=' --csv' ;; --trace) t=' --trace' ;; --uncertainty) u=' --uncertainty' ;; esac
        prev=$a
    done
    [ "$n" -gt 0 ] && set -- "$what" "$@" # a run with no arguments keeps none
    what="$what $k ${VG_TAG:-}$c$t$u"
    key=$what
    case $what in */*) key= ;; esac
    if [ -z "$key" ] || [ ${#what} -gt 200 ]; then
        key=$(printf '%s' "$what" | "$cksum") && key=${key%% *}
    fi
    set -C
    { printf '%s\n' "$what" >"$vglog/seen/$key"; } 2>/dev/null || exec "$cp" "$@"
    set +C
fi
EOF
        printf 'exec %s --log-file="%s/%%p.log" "$cp" "$@"\n' "$vg" "$VGLOG"
    } >"$T/cp-valgrind"
    mkdir -p "$VGLOG/seen"
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
# (vgtag: the VG_TAG of the run, see above)
run() {
    VG_TAG=${vgtag:-} "$CP" "$@" >"$T/out" 2>"$T/err"
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
    vgtag="exit $want"
    run "$@"
    vgtag=
    if [ "$rc" -eq "$want" ]; then ok "$what"; else nok "$what" "exit $rc, wanted $want: $(head -c 300 "$T/err")"; fi
}

# expect_err MESSAGE WHAT ARGS...: exit 2, MESSAGE on stderr, no stdout
expect_err() {
    want=$1 what=$2
    shift 2
    vgtag="exit 2"
    run "$@"
    vgtag=
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
