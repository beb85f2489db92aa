#!/bin/sh
# Malformed input, case by case: every line of tests/bad-input/cases (format
# in its header) runs the binary once, under `timeout 20`, in a fresh empty
# working directory, and checks the exit status, the start of the first line
# of the standard error, that nothing crashed or tripped a sanitizer, that
# an error printed nothing on the standard output, and that nothing was
# written: the working directory is still empty and a file named by -o,
# --output or --trace (and the directory it would go in) is as before.
# The byte-level inputs (binary data, CRLF and BOM copies, a FIFO,
# directories, unreadable files, a file over 1 MiB) are made here at run
# time, so the catalogue holds only text.  Prints "ok N - what" or
# "not ok N - what" per case and "# cli_badinput done" at the end.
. "$(dirname "$0")/lib.sh"

CAT="$PWD/tests/bad-input"
# The manifest: cases, then cases-TOPIC files (one per topic, same format).
MANIFEST="$T/manifest"
case "$T" in
*[!A-Za-z0-9/._-]*)
    nok "the temporary directory '$T' has only plain characters (the cases are eval'ed)"
    echo "# cli_badinput done"
    exit 0
    ;;
esac
# The catalogue is reached through a link under $T, so the paths the cases
# name (and the messages quote) have no blanks whatever the checkout's path.
D="$T/d"
G="$T/g"
ln -s "$CAT" "$D"
cat "$CAT"/cases "$CAT"/cases-* 2>/dev/null >"$MANIFEST"
mkdir "$G" "$T/w"
# An unprivileged user must be able to reach $G for the unreadable cases.
chmod 711 "$T"
chmod 755 "$G"

# ---- the generated inputs ----
printf '[system]\000\001\002\377\376garbage\000\n' >"$G/nul.ini"
printf 'model,system\000,systems\n' >"$G/nul.csv"
printf '\211PNG\r\n\032\n\377\376\375\001\002\003\n' >"$G/high.ini"
for f in hw/ok.ini hw/gpu-ok.ini models/ok.ini overlay/ok.ini sweep/ok.ini calib/ok.csv; do
    base=$(echo "$f" | tr '/' '-')
    sed 's/$/\r/' "$CAT/$f" >"$G/crlf-$base"
    { printf '\357\273\277'; cat "$CAT/$f"; } >"$G/bom-$base"
done
tr '\n' '\r' <"$CAT/calib/ok.csv" >"$G/cr-calib-ok.csv"
tr '\n' '\r' <"$CAT/models/ok.ini" >"$G/cr-models-ok.ini"
mkdir -p "$G/dir.ini" "$G/dir.csv" "$G/dd/hw/dir.ini" "$G/outdir"
mkfifo "$G/fifo.ini"
{
    echo '[system]'
    i=0
    while [ $i -lt 120 ]; do
        # 100 lines of 96 characters each time round: about 1.1 MiB in all
        printf '# %094d\n' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
            0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
            0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
        i=$((i + 1))
    done
} >"$G/big.ini"
cp "$CAT/hw/ok.ini" "$G/unreadable.ini"
cp "$CAT/calib/ok.csv" "$G/unreadable.csv"
cp "$CAT/sweep/ok.ini" "$G/unreadable-sweep.ini"
chmod 000 "$G/unreadable.ini" "$G/unreadable.csv" "$G/unreadable-sweep.ini"

# ---- how to run a case as a user who cannot read a mode-000 file ----
# Not root: the caller.  Root (as in CI): nobody, through setpriv, else su;
# if neither works, the cases that need it are skipped.
AS=
if [ "$(id -u)" -ne 0 ]; then
    AS=self
elif command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$CP" --version >/dev/null 2>"$T/err" &&
    [ ! -s "$T/err" ]; then
    AS=setpriv
elif command -v su >/dev/null 2>&1 &&
    su -s /bin/sh -c 'exec "$0" --version' nobody -- "$CP" >/dev/null 2>"$T/err" &&
    [ ! -s "$T/err" ]; then
    AS=su
fi

# snap PATH: what the output PATH is (its type and contents) and the names
# in the directory it would go in; no times, which change on a mere read
snap() {
    if [ -d "$1" ]; then
        echo "directory:"
        ls -a "$1"
    elif [ -e "$1" ]; then
        echo "file: $(cksum <"$1")"
    else
        echo "nothing"
    fi
    ls -a "$(dirname "$1")" 2>/dev/null
}

# run_case NAME EXIT OPTIONS MESSAGE ARGS...
run_case() {
    name=$1 want=$2 opts=$3 msg=$4
    shift 4
    why=
    # the outputs the arguments name, and what is there now
    outs=
    prev=
    for a in "$@"; do
        case "$prev" in -o | --output | --trace) outs="$outs$a
" ;;
        esac
        case "$a" in --output=* | --trace=*) outs="$outs${a#*=}
" ;;
        esac
        prev=$a
    done
    W="$T/w/$name"
    mkdir "$W" || return
    # (most cases name no output: no subshell for them, here and after the
    # run; the checks below run no process when there is nothing to look at)
    before=
    [ -z "$outs" ] || before=$(cd "$W" && printf '%s' "$outs" | while IFS= read -r o; do snap "$o"; done)
    if [ "$opts" = nobody ] && [ "$AS" = "" ]; then
        ok "$name # SKIP running as root with neither setpriv nor su able to run the binary as nobody"
        rm -rf "$W"
        return
    fi
    case "$opts:$AS" in
    nobody:setpriv)
        (cd "$W" && timeout 20 setpriv --reuid=nobody --regid=nogroup --clear-groups \
            "$CP" "$@" >"$T/out" 2>"$T/err" </dev/null)
        ;;
    nobody:su)
        (cd "$W" && timeout 20 su -s /bin/sh -c 'exec "$0" "$@"' nobody -- "$CP" "$@" \
            >"$T/out" 2>"$T/err" </dev/null)
        ;;
    *)
        # VG_TAG: under `make valgrind`, the first case of each command,
        # system kind and exit status runs under memcheck (lib.sh)
        (cd "$W" && VG_TAG="exit $want" timeout 20 "$CP" "$@" >"$T/out" 2>"$T/err" </dev/null)
        ;;
    esac
    rc=$?
    first=
    IFS= read -r first <"$T/err"
    first=${first#cerebras-plan: }
    if [ "$rc" -eq 124 ]; then
        why="$why; hung (killed by timeout after 20 s)"
    elif [ "$rc" -ge 128 ]; then
        why="$why; crashed (exit $rc)"
    elif [ "$rc" -ne "$want" ]; then
        why="$why; exit $rc, wanted $want"
    fi
    if [ -s "$T/err" ] && grep -q 'Sanitizer\|runtime error' "$T/err"; then
        why="$why; sanitizer report on stderr"
    fi
    if [ "$msg" = - ]; then
        [ -s "$T/err" ] && why="$why; stderr not empty"
    else
        case "$first" in
        "$msg"*) ;;
        *) why="$why; stderr does not start with the message" ;;
        esac
    fi
    if [ "$want" -eq 2 ] && [ "$opts" != stdout ] && [ -s "$T/out" ]; then
        why="$why; an error printed on stdout"
    fi
    for f in "$W"/* "$W"/.[!.]* "$W"/..?*; do
        if [ -e "$f" ] || [ -L "$f" ]; then
            why="$why; wrote into the working directory: $(ls -A "$W" | tr '\n' ' ')"
            break
        fi
    done
    after=
    [ -z "$outs" ] || after=$(cd "$W" && printf '%s' "$outs" | while IFS= read -r o; do snap "$o"; done)
    if [ "$before" != "$after" ]; then
        why="$why; the output named by -o/--output/--trace changed"
    fi
    if [ -z "$why" ]; then
        ok "$name: exit $want"
    else
        nok "$name${why#;}" "wanted: exit $want, '$msg'
got:    exit $rc, '$first'
stdout: $(head -c 200 "$T/out")
args:   $*"
    fi
    rm -rf "$W"
}

# ---- the manifest ----
cases=0
names=" "
bad=0
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'*) continue ;; esac
    rest=$line
    name=${rest%% | *}
    rest=${rest#* | }
    exitf=${rest%% | *}
    rest=${rest#* | }
    msg=${rest%% | *}
    args=${rest#* | }
    set -- $exitf
    want=${1:-}
    opts=${2:-}
    ill=
    case "$line" in *' | '*' | '*' | '?*) ;; *) ill="not four fields" ;; esac
    case "$want" in 0 | 1 | 2) ;; *) ill="exit status '$want' is not 0, 1 or 2" ;; esac
    case "$opts" in '' | nobody | stdout) ;; *) ill="unknown option '$opts'" ;; esac
    case "$name" in '' | *[!a-z0-9.-]*) ill="name '$name' is not [a-z0-9.-]+" ;; esac
    if [ -n "$ill" ]; then
        nok "manifest line parses: $ill" "$line"
        bad=$((bad + 1))
        continue
    fi
    case "$names" in *" $name "*)
        nok "case name '$name' is unique"
        bad=$((bad + 1))
        ;;
    esac
    names="$names$name "
    # @D@ is the catalogue, @G@ the generated inputs
    while :; do
        case "$msg" in
        *@D@*) msg="${msg%%@D@*}$D${msg#*@D@}" ;;
        *@G@*) msg="${msg%%@G@*}$G${msg#*@G@}" ;;
        *) break ;;
        esac
    done
    while :; do
        case "$args" in
        *@D@*) args="${args%%@D@*}$D${args#*@D@}" ;;
        *@G@*) args="${args%%@G@*}$G${args#*@G@}" ;;
        *) break ;;
        esac
    done
    eval "set -- $args"
    cases=$((cases + 1))
    run_case "$name" "$want" "$opts" "$msg" "$@"
done <"$MANIFEST"

check "the manifest holds at least 80 cases ($cases) and every line parses" \
    [ "$cases" -ge 80 -a "$bad" -eq 0 ]

# Every file of the catalogue is used by a case, so none is left over.
unused=
for f in $(cd "$CAT" && find . -type f ! -name 'cases' ! -name 'cases-*' | sed 's|^\./||' | sort); do
    grep -qF "@D@/$f" "$MANIFEST" || unused="$unused $f"
done
check "every catalogue file is named by a case${unused:+ (not:$unused)}" [ -z "$unused" ]

chmod 700 "$T"
echo "# cli_badinput done"
