#!/bin/sh
# Command-line tests of `report`: the folder it writes (CSV tables, the
# gnuplot scripts of reports/, the figures, index.md), each script run again
# by hand from the folder (exit 0, nothing on stderr, a real PNG or SVG),
# the CSV shapes and the columns the scripts read, the size figure's table
# on CS-2 and CS-3 (one row per model, both token panels, every model
# feasible on its fastest N, 120t above the dense peak compute bound),
# golden tables for one scenario, and the folder handling (refusal without
# --force, replacement with it, nothing left behind by a failed run, the
# mode from the umask).  Reproducibility (issue 18): the command line and
# the resolved descriptions recorded, both run again to the same tables;
# the claims table worded as `claims` prints it; the figures' titles, the
# report's N, infeasible marks, the breakdown's log axis and the size
# figure's labels (models.gp's check_labels output).  compare.csv: cli_report_compare.sh.
# Prints "ok N - what" or "not ok N - what" per check (run.sh counts them)
# and "# cli_report done" at the end.  Golden files: B=build sh tests/golden/regen-report.sh
. "$(dirname "$0")/lib.sh"

FIGS="scaling models breakdown sparsity capacity crosscheck compare"
CSVS="estimate.csv names.csv scaling-weak.csv scaling-strong.csv models.csv breakdown.csv sparsity.csv capacity.csv crosscheck.csv claims.csv compare.csv decision.csv"
HAVE_GP=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GP=1

# names DIR: the entries of DIR on one line
names() {
    for e in "$1"/* "$1"/.[!.]*; do
        [ -e "$e" ] && printf '%s ' "${e##*/}"
    done
}

# report ARGS...: the binary's report command; $rc, stdout in $T/out, stderr in $T/err
report() {
    "$CP" report "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# is_png FILE / is_svg FILE: a non-empty file of that format
is_png() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
is_svg() {
    [ -s "$1" ] && head -c 200 "$1" | grep -q '^<?xml' && grep -q '<svg' "$1" && grep -q '</svg>' "$1"
}

# csv_shape FILE: ok when FILE has a header and at least one record, every
# record ends with CR LF and has as many fields as the header (RFC 4180:
# commas inside double quotes do not count, quoted fields may span lines).
# Prints what is wrong otherwise.
csv_shape() {
    awk '
        { if (!sub(/\r$/, "")) { print "line " NR " does not end with CR LF"; bad = 1; exit } }
        {
            line = $0
            for (i = 1; i <= length(line); i++) {
                ch = substr(line, i, 1)
                if (ch == "\"") inq = !inq
                else if (ch == "," && !inq) fields++
            }
            if (inq) next                 # a quoted field goes on
            fields++
            rec++
            if (rec == 1) { want = fields; hdr = $0 }
            else if (fields != want) { print "record " rec " has " fields " fields, the header " want; bad = 1; exit }
            fields = 0
        }
        END {
            if (bad) exit 1
            if (inq) { print "unterminated quote"; exit 1 }
            if (rec < 2) { print "no records after the header"; exit 1 }
            if (hdr ~ /(^|,)[-+]?[0-9.]+(,|$)/) { print "the header has a number: " hdr; exit 1 }
        }' "$1"
}

# has_cols FILE NAME...: the header of FILE names every NAME
has_cols() {
    file=$1
    shift
    head -n 1 "$file" | tr -d '\r' | awk -F, -v want="$*" '
        { for (i = 1; i <= NF; i++) have[$i] = 1 }
        END {
            n = split(want, w, " ")
            for (i = 1; i <= n; i++) if (!(w[i] in have)) { print "missing column " w[i]; miss = 1 }
            exit miss
        }'
}

# ---- one report: gpt3-175b on 16 CS-2 ----
R=$T/p/r
mkdir -p "$T/p"
umask 022 # the folder's mode follows it (checked below)
report -m gpt3-175b -s cs2 -n 16 -o "$R"
if [ "$rc" -eq 0 ] && [ -d "$R" ]; then
    ok "report -m gpt3-175b -s cs2 -n 16 -o DIR exits 0 and writes DIR"
else
    nok "report -m gpt3-175b -s cs2 -n 16 -o DIR exits 0 and writes DIR" "exit $rc: $(head -c 300 "$T/err")"
fi
# Under valgrind (make valgrind) a report takes about a minute: its
# cross-check runs the simulator 36 times.  That one complete report is
# checked there; the rest of this script runs the binary natively.
[ -n "${VGLOG:-}" ] && CP=$CP_NATIVE
if [ ! -s "$T/err" ]; then
    ok "report: nothing on stderr"
else
    nok "report: nothing on stderr" "$(head -c 300 "$T/err")"
fi
missing=
for f in $CSVS index.md; do
    [ -s "$R/$f" ] || missing="$missing $f"
done
for g in $FIGS; do
    [ -s "$R/$g.gp" ] || missing="$missing $g.gp"
    if [ "$HAVE_GP" -eq 1 ]; then is_png "$R/$g.png" || missing="$missing $g.png"; fi
done
if [ -z "$missing" ]; then
    ok "the folder has every table, script, figure and index.md"
else
    nok "the folder has every table, script, figure and index.md" "missing or bad:$missing"
fi
extra=
for f in "$R"/* "$R"/.[!.]*; do
    [ -e "$f" ] || continue
    case "${f##*/}" in *.csv | *.gp | *.png | index.md) ;; hw | models) ;; *) extra="$extra ${f##*/}" ;; esac
done
[ "$(ls -A "$R/hw" 2>/dev/null | tr '\n' ' ')" = "cs2.ini h100.ini " ] || extra="$extra hw/($(ls -A "$R/hw" 2>/dev/null | tr '\n' ' '))"
[ "$(ls -A "$R/models" 2>/dev/null)" = gpt3-175b.ini ] || extra="$extra models/($(ls -A "$R/models" 2>/dev/null))"
if [ -z "$extra" ]; then
    ok "the folder holds nothing else (no logs, no temporary files; hw/cs2.ini, hw/h100.ini, models/gpt3-175b.ini)"
else
    nok "the folder holds nothing else (no logs, no temporary files; hw/cs2.ini, hw/h100.ini, models/gpt3-175b.ini)" "$extra"
fi
if [ "$(ls -A "$T/p")" = r ]; then
    ok "nothing is left beside the folder"
else
    nok "nothing is left beside the folder" "$(ls -A "$T/p")"
fi
diffs=
for g in $FIGS; do
    cmp -s "reports/$g.gp" "$R/$g.gp" || diffs="$diffs $g.gp"
done
if [ -z "$diffs" ]; then
    ok "the scripts in the folder are those of reports/"
else
    nok "the scripts in the folder are those of reports/" "differ (rebuild?):$diffs"
fi

# ---- the scripts, run again from a copy holding only the tables and scripts ----
C=$T/copy
mkdir -p "$C"
cp "$R"/*.csv "$R"/*.gp "$C"/ 2>/dev/null
for s in "$C"/*.gp; do
    g=$(basename "$s" .gp)
    # Every file a script names in quotes is in the folder, and it names no path.
    refs=$(grep -v '^[[:space:]]*#' "$s" | grep -o '"[^"]*\.\(csv\|dat\|txt\|gp\|tsv\)"' | tr -d '"' | sort -u | tr '\n' ' ')
    bad=
    for f in $refs; do
        case "$f" in */*) bad="$bad $f" ;; *) [ -f "$C/$f" ] || bad="$bad $f" ;; esac
    done
    if grep -v '^[[:space:]]*#' "$s" | grep -q -e 'system(' -e '`' -e '^[[:space:]]*\(load\|call\|cd\|!\)'; then
        bad="$bad (runs a command or loads another file)"
    fi
    if [ -n "$refs" ] && [ -z "$bad" ]; then
        ok "$g.gp reads only files of the folder ($refs)"
    else
        nok "$g.gp reads only files of the folder" "bad:$bad; named: $refs"
    fi
done
if [ "$HAVE_GP" -eq 1 ]; then
    for s in "$C"/*.gp; do
        g=$(basename "$s" .gp)
        for fmt in png svg; do
            rm -f "$C/$g.$fmt"
            (cd "$C" && gnuplot -e "fmt='$fmt'" "$g.gp") >"$T/gout" 2>"$T/gerr"
            grc=$?
            if [ "$fmt" = png ]; then is_png "$C/$g.$fmt"; else is_svg "$C/$g.$fmt"; fi
            good=$?
            if [ "$grc" -eq 0 ] && [ ! -s "$T/gerr" ] && [ "$good" -eq 0 ]; then
                ok "gnuplot -e \"fmt='$fmt'\" $g.gp: exit 0, no stderr, a $fmt"
            else
                nok "gnuplot -e \"fmt='$fmt'\" $g.gp: exit 0, no stderr, a $fmt" \
                    "exit $grc, $fmt ok: $good; stderr: $(head -c 300 "$T/gerr")"
            fi
        done
    done
    rm -f "$C/scaling.png"
    if (cd "$C" && gnuplot scaling.gp) >/dev/null 2>"$T/gerr" && [ ! -s "$T/gerr" ] &&
        is_png "$C/scaling.png"; then
        ok "without fmt a script draws a png"
    else
        nok "without fmt a script draws a png" "$(head -c 300 "$T/gerr")"
    fi
    if ! (cd "$C" && gnuplot -e "fmt='gif'" scaling.gp) >/dev/null 2>"$T/gerr" &&
        [ -s "$T/gerr" ] && [ ! -e "$C/scaling.gif" ]; then
        ok "an unknown fmt is an error"
    else
        nok "an unknown fmt is an error" "$(head -c 300 "$T/gerr")"
    fi
    # A script fails, loudly, when a column it reads is gone.
    sed '1s/time_to_train_s/ttt_s/' "$C/models.csv" >"$T/m.csv" && cp "$T/m.csv" "$C/models.csv"
    if ! (cd "$C" && gnuplot models.gp) >/dev/null 2>"$T/gerr" && [ -s "$T/gerr" ]; then
        ok "a script reads its columns by name (a renamed column is an error)"
    else
        nok "a script reads its columns by name (a renamed column is an error)" "$(head -c 300 "$T/gerr")"
    fi
else
    ok "# SKIP gnuplot is not installed: the scripts were not run"
fi

# ---- the tables ----
for f in $CSVS; do
    if [ -f "$R/$f" ] && why=$(csv_shape "$R/$f"); then
        ok "$f: a header, CR LF records, the same field count on every row"
    else
        nok "$f: a header, CR LF records, the same field count on every row" "${why:-missing}"
    fi
done
# The columns the scripts read (see the header of each reports/*.gp).
EST="model system systems step_time_s time_to_train_s params state_bytes feasible paced_compute_s paced_stream_in_s paced_stream_out_s paced_update_s exposed_latency_s"
cols_check() {
    file=$1
    shift
    if [ -f "$R/$file" ] && why=$(has_cols "$R/$file" "$@"); then
        ok "$file has the columns the scripts read"
    else
        nok "$file has the columns the scripts read" "${why:-missing}"
    fi
}
# shellcheck disable=SC2086 # $EST is a list of names
cols_check estimate.csv $EST
# shellcheck disable=SC2086
cols_check models.csv $EST fixed_tokens fixed_systems fixed_memoryx_servers fixed_act_servers \
    fixed_swarmx_nodes fixed_time_to_train_s fixed_feasible
# shellcheck disable=SC2086
cols_check breakdown.csv $EST overhead_s
cols_check names.csv model model_name system system_name gpu gpu_name
cols_check scaling-weak.csv systems tps_speedup efficiency tta_speedup batch_rule train_tokens feasible
cols_check scaling-strong.csv systems tps_speedup efficiency tta_speedup batch_rule train_tokens feasible
cols_check sparsity.csv sparsity step_time_s speedup time_to_train_s bottleneck feasible
cols_check capacity.csv system tier capacity_bytes dram_bytes state_bytes fits smallest
cols_check crosscheck.csv regime analytic_s simulated_s rel_diff
cols_check validation.csv id system measured predicted error loo_predicted loo_error
# The six parts of the breakdown add up to the step time.
if [ -f "$R/breakdown.csv" ] && tr -d '\r' <"$R/breakdown.csv" | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        sum = $c["paced_compute_s"] + $c["paced_stream_in_s"] + $c["paced_stream_out_s"] + \
              $c["paced_update_s"] + $c["exposed_latency_s"] + $c["overhead_s"]
        d = sum - $c["step_time_s"]; if (d < 0) d = -d
        if (d > 1e-9 * $c["step_time_s"]) bad = 1
        rows++
    }
    END { exit bad || rows < 4 }'; then
    ok "breakdown.csv: at least 4 cluster sizes, the parts sum to step_time_s"
else
    nok "breakdown.csv: at least 4 cluster sizes, the parts sum to step_time_s" "$(cut -d, -f3,13 "$R/breakdown.csv" 2>/dev/null | head -n 6)"
fi

# ---- the size figure: models.csv (reports/models.gp) ----
# size_rows FILE: per row of FILE, the columns of the size figure by name,
# space-separated: 1 model, 2 params, 3 tokens, 4 systems, 5 memoryx_servers,
# 6 act_servers, 7 swarmx_nodes, 8 time_to_train_s, 9 feasible, then 10-16
# the same from fixed_tokens to fixed_feasible (the 300 B token panel).
size_rows() {
    tr -d '\r' <"$1" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {
            print $c["model"], $c["params"], $c["tokens"], $c["systems"], $c["memoryx_servers"],
                $c["act_servers"], $c["swarmx_nodes"], $c["time_to_train_s"], $c["feasible"],
                $c["fixed_tokens"], $c["fixed_systems"], $c["fixed_memoryx_servers"],
                $c["fixed_act_servers"], $c["fixed_swarmx_nodes"], $c["fixed_time_to_train_s"],
                $c["fixed_feasible"]
        }'
}
# show_value SYSTEM KEY: one value of `show SYSTEM --csv`
show_value() {
    "$CP" show "$1" --csv | tr -d '\r' | awk -F, -v k="$2" '$1 == k { print $2 }'
}
# size_checks DIR SYSTEM: the size figure's table of the report in DIR, on SYSTEM
size_checks() {
    f=$1/models.csv sys=$2
    max=$(show_value "$sys" system.max_systems)
    peak=$(show_value "$sys" system.peak_flops)
    size_rows "$f" >"$T/size" 2>/dev/null
    want=$("$CP" list models --csv | tr -d '\r' | awk -F, 'NR > 1 { print $1 }' | sort | tr '\n' ' ')
    have=$(awk '{ print $1 }' "$T/size" | sort | tr '\n' ' ')
    if [ -s "$T/size" ] && [ "$have" = "$want" ]; then
        ok "$sys models.csv: one row per model of list models"
    else
        nok "$sys models.csv: one row per model of list models" "rows: $have; models: $want"
    fi
    # Both panels: own tokens, and the fixed 300 B; N whole in 1..max; the
    # servers sized (at least one MemoryX server), times positive.
    if why=$(awk -v max="$max" '
        function whole(x) { return x == int(x) && x >= 1 && x <= max }
        {
            if (!($3 > 0 && $8 > 0 && whole($4) && $5 >= 1 && $6 >= 0 && $7 >= 0)) { print "own tokens: " $0; exit 1 }
            if (!($10 == 3e11 && $15 > 0 && whole($11) && $12 >= 1 && $13 >= 0 && $14 >= 0)) { print "300 B tokens: " $0; exit 1 }
        }' "$T/size"); then
        ok "$sys models.csv: both panels on every row (own tokens and 300 B), N in 1..$max, servers sized"
    else
        nok "$sys models.csv: both panels on every row (own tokens and 300 B), N in 1..$max, servers sized" "$why"
    fi
    if why=$(awk '$9 != 1 || $16 != 1 { print $1 " feasible " $9 ", at 300 B " $16; bad = 1 } END { exit bad }' "$T/size"); then
        ok "$sys models.csv: every model feasible in both panels"
    else
        nok "$sys models.csv: every model feasible in both panels" "$why"
    fi
    # Dense peak compute bound: training takes 6 P T FLOP, at most N x peak per second.
    if why=$(awk -v peak="$peak" '
        $1 == "120t" {
            seen = 1
            own = 6 * $2 * $3 / ($4 * peak); fixed = 6 * $2 * $10 / ($11 * peak)
            if (!(peak > 0 && $8 >= own && $15 >= fixed)) { print "time " $8 " s, bound " own " s; at 300 B " $15 " s, bound " fixed " s"; exit 1 }
        }
        END { if (!seen) { print "no 120t row"; exit 1 } }' "$T/size"); then
        ok "$sys models.csv: 120t's times are at least 6 P T / (N peak) in both panels"
    else
        nok "$sys models.csv: 120t's times are at least 6 P T / (N peak) in both panels" "$why"
    fi
    # The report's model is on its fastest N: scale --strong over 1..max agrees.
    "$CP" scale -m gpt3-175b -s "$sys" --strong --systems "1..$max" --csv 2>/dev/null | tr -d '\r' |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["feasible"] == 1 && (best == "" || $c["time_to_train_s"] < best) { best = $c["time_to_train_s"]; n = $c["systems"] }
            END { print n, best }' >"$T/best"
    row=$(awk '$1 == "gpt3-175b" { print $4, $8 }' "$T/size")
    if [ -n "$row" ] && awk -v a="$row" -v b="$(cat "$T/best")" 'BEGIN {
            split(a, x, " "); split(b, y, " "); d = x[2] - y[2]; if (d < 0) d = -d
            exit !(x[1] == y[1] && d <= 1e-12 * y[2]) }'; then
        ok "$sys models.csv: gpt3-175b on the N of least time (scale --strong 1..$max: $(cat "$T/best"))"
    else
        nok "$sys models.csv: gpt3-175b on the N of least time" "row N, time: $row; scale: $(cat "$T/best")"
    fi
    if grep -qF "N runs from 1 to $max systems" "$1/index.md" && grep -qF "300 billion tokens" "$1/index.md"; then
        ok "$sys index.md: the size figure's N range and token count"
    else
        nok "$sys index.md: the size figure's N range and token count" "$(grep -F 'N runs' "$1/index.md")"
    fi
}
size_checks "$R" cs2
# The same on CS-3, whose 2048 systems give the figure its widest range.
R3=$T/cs3/r
mkdir -p "$T/cs3"
report -m gpt3-175b -s cs3 -n 16 -o "$R3"
if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && { [ "$HAVE_GP" -eq 0 ] || is_png "$R3/models.png"; }; then
    ok "report -s cs3: exit 0, nothing on stderr, the size figure drawn"
else
    nok "report -s cs3: exit 0, nothing on stderr, the size figure drawn" "exit $rc: $(head -c 300 "$T/err")"
fi
size_checks "$R3" cs3

# ---- reproducible: the command line and the resolved descriptions (issue 18, item 3) ----
# same_tables A B: every CSV of folder A is in B with the same bytes, the
# cross-check without its sim_wall_s column (the simulator's own run time);
# prints the ones that differ.
same_tables() {
    for f in "$1"/*.csv; do
        g=$2/${f##*/}
        if [ "${f##*/}" = crosscheck.csv ]; then
            for c in "$f" "$g"; do
                tr -d '\r' <"$c" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim_wall_s") w = i }
                    { $w = ""; print }' >"$c.cmp"
            done
            cmp -s "$f.cmp" "$g.cmp" || printf '%s ' "${f##*/}"
            rm -f "$f.cmp" "$g.cmp"
        else
            cmp -s "$f" "$g" || printf '%s ' "${f##*/}"
        fi
    done
}
# recorded N DIR: the Nth command of DIR/index.md (an indented line
# "    cerebras-plan report ..."), without the program's name
recorded() {
    grep '^    cerebras-plan report ' "$2/index.md" 2>/dev/null | sed -n "$1p" | sed 's/^    cerebras-plan //'
}
mode() { ls -ld "$1" 2>&1 | cut -c 1-10; }
if [ "$(mode "$R")" = drwxr-xr-x ] && [ "$(mode "$R/hw")" = drwxr-xr-x ]; then
    ok "under umask 022 the folder is drwxr-xr-x"
else
    nok "under umask 022 the folder is drwxr-xr-x" "$(mode "$R") $(mode "$R/hw")"
fi
# A model, a system and a GPU from files no shipped description names (the tables must resolve
# the files), every option report takes (of --memoryx and --memoryx-servers, --batch and
# --batch-tokens one) and overrides, one of them with a space.
P=$T/repro
mkdir -p "$P/data"
cp hw/cs3.ini "$P/myhw.ini" && cp models/llama2-70b.ini "$P/mymodel.ini" && cp hw/a100.ini "$P/mygpu.ini"
printf '[swarmx]\nhop_latency = 3 us\n' >"$P/overlay.ini"
SETS="--set system.utilization=0.4 --set 'system.io_bandwidth=2.4 Tb/s'"
ALL="--memoryx-servers 12 --act-servers 24 --activations offload --batch-tokens 4M --tokens 2e12 \
--overlap 0.5 --price 2 --batch-penalty --hw-overlay overlay.ini --data-dir data --force --max-events 2e8 \
--gpu mygpu.ini --gpu-price 3 --precision bf16 --tp 8 --pp 8 --cp 2 --vp 2 --mbs 1 --fsdp --deadline 365d --confidence 0.5"
(cd "$P" && eval "\"\$CP\" report -m mymodel.ini -s myhw.ini -n 64 --sparsity 0.75 $ALL $SETS -o r --format svg") \
    >"$T/out" 2>"$T/err"
rc=$?
RP=$P/r
if [ "$rc" -eq 0 ] && grep -q '^mymodel,myhw,64,' "$RP/estimate.csv" &&
    tr -d '\r' <"$RP/capacity.csv" | awk -F, 'NR > 1 { n++; if ($1 != "myhw") bad = 1 } END { exit bad || !n }'; then
    ok "report -m FILE -s FILE (names of no shipped description) --sparsity --set: exit 0, the tables name them"
else
    nok "report -m FILE -s FILE (names of no shipped description) --sparsity --set: exit 0, the tables name them" \
        "exit $rc: $(head -c 300 "$T/err")"
fi
given=$(recorded 1 "$RP")
case "$given" in
*"--sparsity 0.75"*"--set system.utilization=0.4 --set 'system.io_bandwidth=2.4 Tb/s'"*"-o r"*"--format svg"*)
    ok "index.md records the whole command line, shell-quoted ($given)" ;;
*) nok "index.md records the whole command line, shell-quoted" "recorded: $given" ;;
esac
missing=
for opt in $("$CP" help report | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    case "$opt" in
    --help | --version | --memoryx | --batch) continue ;;
    --model) opt=-m ;; --system) opt=-s ;; --nsystems) opt=-n ;; --output) opt=-o ;;
    esac
    case " $given " in *" $opt "*) ;; *) missing="$missing $opt" ;; esac
done
if [ -z "$missing" ]; then
    ok "the recorded command has every option help report lists that was given"
else
    nok "the recorded command has every option help report lists that was given" "missing:$missing"
fi
# rerun WHAT FROM ARGS OUT: the binary with ARGS (shell words, evaluated)
# in folder FROM; ok when it exits 0 and writes OUT with $RP's tables
rerun() {
    (cd "$2" && eval "\"\$CP\" $3") >"$T/out" 2>"$T/err"
    rc=$?
    diff=$(same_tables "$RP" "$4")
    if [ "$rc" -eq 0 ] && [ -d "$4" ] && [ -z "$diff" ]; then
        ok "$1"
    else
        nok "$1" "exit $rc; differ: $diff; $(head -c 200 "$T/err")"
    fi
}
rerun "the recorded command, run again, gives the same tables" "$P" "$given -o again --force" "$P/again"
files=$(recorded 2 "$RP")
case "$files" in
*"-m models/mymodel.ini -s hw/myhw.ini -n 64"*"--sparsity 0.75"*"--batch-tokens 4M"*"--gpu hw/mygpu.ini --gpu-price 3 --precision bf16 --tp 8 --pp 8 --cp 2 --vp 2 --mbs 1 --fsdp"*)
    case "$files" in *--set* | *--hw-overlay* | *--data-dir*) nok "index.md: the command on the recorded files has no --set" "$files" ;;
    *) ok "index.md: the command on the recorded files ($files)" ;; esac ;;
*) nok "index.md: the command on the recorded files" "recorded: $files" ;;
esac
rerun "report -m models/X.ini -s hw/Y.ini on the recorded files gives the same tables" "$RP" "$files" \
    "$P/r-again"
# The resolved hardware is the description with the overrides: show agrees key by key.
eval "\"\$CP\" show \"\$P/myhw.ini\" --hw-overlay \"\$P/overlay.ini\" $SETS --csv" >"$T/show1" 2>&1
"$CP" show "$RP/hw/myhw.ini" --csv >"$T/show2" 2>&1
if grep -q '^system.utilization,0.4,' "$T/show2" && cmp -s "$T/show1" "$T/show2"; then
    ok "hw/myhw.ini: show gives every key as show myhw.ini --hw-overlay --set ... does (utilization 0.4)"
else
    nok "hw/myhw.ini: show gives every key as show myhw.ini --hw-overlay --set ... does" "$(diff "$T/show1" "$T/show2" | head -n 4)"
fi
"$CP" show "$P/mymodel.ini" --csv >"$T/show1" 2>&1
"$CP" show "$RP/models/mymodel.ini" --csv >"$T/show2" 2>&1
if [ -s "$T/show1" ] && cmp -s "$T/show1" "$T/show2"; then
    ok "models/mymodel.ini: show gives what show on the model's file does"
else
    nok "models/mymodel.ini: show gives what show on the model's file does" "$(diff "$T/show1" "$T/show2" | head -n 4)"
fi

# ---- index.md's claims: as `claims` words them (issue 18, items 3 and 12) ----
"$CP" claims >"$T/claims.txt" 2>"$T/err"
tr -d '\r' <"$RP/index.md" | awk -F' [|] ' '/^## Claims/ { on = 1 } on && /^[|] [a-z0-9]/ && $1 != "| id" {
        sub(/^[|] /, "", $1); sub(/ [|]$/, "", $NF); print $1 "\t" $3 "\t" $4 }' >"$T/md"
awk '/^\[/ { id = substr($1, 2, length($1) - 2) } /^  verdict: / { sub(/^  verdict: +/, ""); v = $0 }
    /^  predicted: / { sub(/^  predicted: +/, ""); print id "\t" $0 "\t" v }' "$T/claims.txt" >"$T/txt"
if [ -s "$T/md" ] && cmp -s "$T/md" "$T/txt"; then
    ok "index.md's claims table has the figures and verdicts claims prints ($(wc -l <"$T/md") claims)"
else
    nok "index.md's claims table has the figures and verdicts claims prints" "$(diff "$T/md" "$T/txt" | head -n 4)"
fi
if grep -q '^| id | claim | predicted | verdict | why |' "$RP/index.md" &&
    ! awk -F' [|] ' '/^## Claims/ { on = 1 } on && /^[|] [a-z0-9]/ { if ($3 ~ /[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]/ || $5 == "") bad = 1 } END { exit !bad }' "$RP/index.md"; then
    ok "index.md's claims table: a reason per claim, no raw 8-digit figures"
else
    nok "index.md's claims table: a reason per claim, no raw 8-digit figures" "$(grep -A 3 '^## Claims' "$RP/index.md" | tail -n 1)"
fi

# ---- figures (issue 18, item 8) ----
if [ "$HAVE_GP" -eq 1 ]; then
    mname=$(sed -n 's/^name = //p' "$P/mymodel.ini")
    sname=$(sed -n 's/^name = //p' "$P/myhw.ini")
    bad=
    for g in scaling breakdown sparsity capacity compare; do
        grep -qF "$mname" "$RP/$g.svg" || bad="$bad $g (no '$mname')"
        grep -qF "$sname" "$RP/$g.svg" || bad="$bad $g (no '$sname')"
        grep -qF -e mymodel -e myhw "$RP/$g.svg" && bad="$bad $g (a file name)"
    done
    if [ -n "$mname" ] && [ -z "$bad" ]; then
        ok "titles name the model and the system by their name keys ($mname, $sname)"
    else
        nok "titles name the model and the system by their name keys" "$bad"
    fi
    check "scaling.svg marks the report's N (this report: N = 64)" grep -qF 'this report: N = 64' "$RP/scaling.svg"
    if grep -qF 'time to train (days)' "$RP/breakdown.svg" && grep -q '[0-9] d<' "$RP/breakdown.svg" &&
        grep -q '/step<' "$RP/breakdown.svg" && grep -q '^set logscale y' "$RP/breakdown.gp"; then
        ok "breakdown: time to train on a log axis in days, labelled in readable units with the step time"
    else
        nok "breakdown: time to train on a log axis in days, labelled in readable units with the step time"
    fi
    # Llama 2 70B on 2 T tokens: the sparsities past its threshold reach
    # no dense loss (sparse_unreachable), the others are feasible
    nf=$(tr -d '\r' <"$RP/sparsity.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "feasible") c = i; next } c && $c == 0 { n++ } END { print n + 0 }')
    if { [ "$nf" -eq 0 ] && ! grep -qF 'infeasible' "$RP/sparsity.svg"; } ||
        { [ "$nf" -gt 0 ] && grep -qF 'infeasible' "$RP/sparsity.svg"; }; then
        ok "sparsity.svg marks infeasible points exactly when sparsity.csv has some ($nf)"
    else
        nok "sparsity.svg marks infeasible points exactly when sparsity.csv has some ($nf)"
    fi
    # models.gp: every label beside its own point, clear of the others and of the frame.
    for d in "$R" "$R3"; do
        (cd "$d" && gnuplot -e "fmt='svg'; check_labels='labels.txt'" models.gp) >/dev/null 2>"$T/gerr"
        why=$(awk '
            $1 == "panel" { W[$2] = $3; H[$2] = $4 }
            $1 == "label" { k++; P[k] = $2; I[k] = $3; X[k] = $4; Y[k] = $5; BW[k] = $6; BH[k] = $7; PX[k] = $8; PY[k] = $9 }
            $1 == "point" { m++; QP[m] = $2; QI[m] = $3; QX[m] = $4; QY[m] = $5 }
            # labels.txt holds 6 significant digits, so boxes that touch (one
            # stacked a line above another) can seem to overlap by a few
            # thousandths of a pixel: overlaps under e do not count.
            function hit(ax, ay, aw, ah, bx, by, bw, bh) { e = 0.01; return ax < bx + bw - e && bx < ax + aw - e && ay < by + bh - e && by < ay + ah - e }
            END {
                r = 5
                if (k == 0 || k != m) { print k " labels for " m " points"; bad = 1 }
                for (a = 1; a <= k; a++) {
                    if (X[a] < 0 || Y[a] < 0 || X[a] + BW[a] > W[P[a]] || Y[a] + BH[a] > H[P[a]]) { print "label " I[a] " (panel " P[a] ") leaves the plot"; bad = 1 }
                    own = 0
                    for (j = 1; j <= m; j++) {
                        if (QP[j] != P[a]) continue
                        if (QI[j] == I[a]) own = 1
                        if (hit(X[a], Y[a], BW[a], BH[a], QX[j] - r, QY[j] - r, 2 * r, 2 * r)) { print "label " I[a] " (panel " P[a] ") covers point " QI[j]; bad = 1 }
                    }
                    if (!own) { print "label " I[a] " (panel " P[a] ") has no point"; bad = 1 }
                    dx = PX[a] < X[a] ? X[a] - PX[a] : PX[a] > X[a] + BW[a] ? PX[a] - X[a] - BW[a] : 0
                    dy = PY[a] < Y[a] ? Y[a] - PY[a] : PY[a] > Y[a] + BH[a] ? PY[a] - Y[a] - BH[a] : 0
                    if (dx * dx + dy * dy > (9 * BH[a]) ^ 2) { print "label " I[a] " (panel " P[a] ") far from its point"; bad = 1 }
                    for (b = a + 1; b <= k; b++)
                        if (P[b] == P[a] && hit(X[a], Y[a], BW[a], BH[a], X[b], Y[b], BW[b], BH[b])) { print "labels " I[a] " and " I[b] " (panel " P[a] ") overlap"; bad = 1 }
                }
                exit bad
            }' "$d/labels.txt" 2>&1)
        if [ $? -eq 0 ] && [ ! -s "$T/gerr" ]; then
            ok "models.gp on $(sed -n 2p "$d/names.csv" | cut -d, -f3): one label per point, each beside its own, none overlapping"
        else
            nok "models.gp: one label per point, each beside its own, none overlapping" "$why $(head -c 200 "$T/gerr")"
        fi
        rm -f "$d/labels.txt" "$d/models.svg"
    done
    if grep -v '^[[:space:]]*#' "$R/models.gp" | grep -q 'with \(lines\|linespoints\)'; then
        nok "models.gp joins no points with lines (each point is another model)"
    else
        ok "models.gp joins no points with lines (each point is another model)"
    fi
    if grep -qF 'own training-token count' "$R/models.gp" && grep -qF 'every model on the same' "$R/models.gp"; then
        ok "models.gp: the panel titles say the token basis"
    else
        nok "models.gp: the panel titles say the token basis"
    fi
else
    ok "# SKIP gnuplot is not installed: the figures were not checked"
fi

# ---- golden tables (tests/golden/regen-report.sh after a deliberate change) ----
for f in scaling-weak.csv breakdown.csv sparsity.csv compare.csv; do
    gold=tests/golden/report/$f
    if [ ! -f "$gold" ]; then
        nok "golden report/$f" "no $gold: run B=build sh tests/golden/regen-report.sh"
    elif cmp -s "$gold" "$R/$f"; then
        ok "golden report/$f"
    else
        nok "golden report/$f" "$(diff "$gold" "$R/$f" | head -n 5)"
    fi
done

# ---- index.md ----
if [ -f "$R/index.md" ]; then
    miss=
    for g in $FIGS; do
        grep -qF "$g.png" "$R/index.md" || miss="$miss $g.png"
        grep -qF "$g.gp" "$R/index.md" || miss="$miss $g.gp"
    done
    if [ -z "$miss" ]; then
        ok "index.md names every figure and its script"
    else
        nok "index.md names every figure and its script" "missing:$miss"
    fi
else
    nok "index.md names every figure and its script" "no index.md"
fi

# ---- folder handling ----
D=$T/q/d
mkdir -p "$D"
echo keep >"$D/keep"
report -m gpt3-175b -s cs2 -n 16 -o "$D"
if [ "$rc" -eq 2 ] && [ "$(ls -A "$D")" = keep ] && [ "$(cat "$D/keep")" = keep ] &&
    [ "$(ls -A "$T/q")" = d ] && [ -s "$T/err" ]; then
    ok "a non-empty DIR is refused without --force (exit 2, DIR untouched)"
else
    nok "a non-empty DIR is refused without --force (exit 2, DIR untouched)" \
        "exit $rc; DIR: $(names "$D"); beside: $(names "$T/q")"
fi
report -m gpt3-175b -s cs2 -n 16 -o "$D" --force
if [ "$rc" -eq 2 ] && [ "$(ls -A "$D")" = keep ] && grep -q 'is not a report folder (it holds keep' "$T/err"; then
    ok "--force refuses a DIR that holds more than a report (exit 2, DIR untouched)"
else
    nok "--force refuses a DIR that holds more than a report (exit 2, DIR untouched)" \
        "exit $rc; DIR: $(names "$D"); $(head -c 300 "$T/err")"
fi
# DIR a report (a copy of the first, png figures); --force replaces it
rm "$D/keep"
cp -R "$R/." "$D/"
# (one MemoryX server cannot hold the state: infeasible at every point)
report -m gpt3-175b -s cs2 -n 16 --memoryx-servers 1 -o "$D" --force --format svg
if [ "$rc" -eq 0 ] && grep -q -- '--memoryx-servers 1' "$D/index.md" && [ "$(ls -A "$T/q")" = d ]; then
    ok "--force replaces a report, leaving nothing beside it"
else
    nok "--force replaces a report, leaving nothing beside it" \
        "exit $rc; DIR: $(names "$D"); beside: $(names "$T/q")"
fi
if [ "$HAVE_GP" -eq 1 ]; then
    bad=
    for g in $FIGS; do
        is_svg "$D/$g.svg" || bad="$bad $g.svg"
        grep -qF "$g.svg" "$D/index.md" 2>/dev/null || bad="$bad (index.md: $g.svg)"
    done
    [ -n "$(ls "$D"/*.png 2>/dev/null)" ] && bad="$bad (a png)"
    if [ -z "$bad" ]; then
        ok "--format svg draws svg figures and index.md shows them"
    else
        nok "--format svg draws svg figures and index.md shows them" "$bad"
    fi
    n0=$(tr -d '\r' <"$D/sparsity.csv" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "feasible") c = i; next } c && $c == 0 { n++ } END { print n + 0 }')
    if [ "$n0" -gt 0 ] && grep -qF 'infeasible' "$D/sparsity.svg"; then
        ok "sparsity.svg marks infeasible points ($n0 in sparsity.csv)"
    else
        nok "sparsity.svg marks infeasible points" "feasible = 0 rows: $n0"
    fi
fi
E=$T/e
mkdir -p "$E/d"
report -m gpt3-175b -s cs2 -n 16 -o "$E/d"
if [ "$rc" -eq 0 ] && [ -s "$E/d/index.md" ] && [ "$(ls -A "$E")" = d ]; then
    ok "an empty DIR is used without --force"
else
    nok "an empty DIR is used without --force" "exit $rc: $(head -c 300 "$T/err")"
fi
F=$T/f
mkdir -p "$F"
report -m nosuch -s cs2 -o "$F/d"
if [ "$rc" -eq 2 ] && [ -z "$(ls -A "$F")" ] && [ -s "$T/err" ]; then
    ok "an unknown model: exit 2, no DIR, nothing beside it"
else
    nok "an unknown model: exit 2, no DIR, nothing beside it" "exit $rc; beside: $(names "$F")"
fi
report -m gpt3-175b -s cs2 -o "$F/d" --format gif
if [ "$rc" -eq 2 ] && [ -z "$(ls -A "$F")" ]; then
    ok "--format gif: exit 2, no DIR"
else
    nok "--format gif: exit 2, no DIR" "exit $rc; beside: $(names "$F")"
fi
# A failure after the folder was begun: a gnuplot that fails.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "gnuplot: broken on purpose" >&2\nexit 1\n' >"$T/bin/gnuplot"
chmod +x "$T/bin/gnuplot"
PATH="$T/bin:$PATH" "$CP" report -m gpt3-175b -s cs2 -n 16 -o "$F/d" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && [ -z "$(ls -A "$F")" ] && grep -q 'broken on purpose' "$T/err"; then
    ok "a failing gnuplot fails the report and leaves no DIR and no temporary folder"
else
    nok "a failing gnuplot fails the report and leaves no DIR and no temporary folder" \
        "exit $rc; beside: $(names "$F"); stderr: $(head -c 200 "$T/err")"
fi
# ... and the same over an existing report with --force: the old one stays.
mkdir -p "$F/old"
cp -R "$R/." "$F/old/"
before=$(cd "$F/old" && find . -type f | LC_ALL=C sort | xargs cksum)
PATH="$T/bin:$PATH" "$CP" report -m gpt3-175b -s cs2 -n 16 -o "$F/old" --force >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$(ls -A "$F")" = old ] && grep -q 'broken on purpose' "$T/err" &&
    [ "$(cd "$F/old" && find . -type f | LC_ALL=C sort | xargs cksum)" = "$before" ]; then
    ok "a failed --force run keeps the old DIR as it was"
else
    nok "a failed --force run keeps the old DIR as it was" \
        "exit $rc; beside: $(names "$F"); DIR: $(names "$F/old")"
fi
# Without gnuplot: the tables, scripts and index.md, no figures; DIR defaults to ./report.
mkdir -p "$T/w" "$T/nobin"
(cd "$T/w" && umask 077 && PATH="$T/nobin" "$CP" report -m gpt3-175b -s cs2 -n 16) >"$T/out" 2>"$T/err"
rc=$?
W=$T/w/report
if [ "$(mode "$W")" = drwx------ ] && [ "$(mode "$W/models")" = drwx------ ]; then
    ok "under umask 077 the folder is drwx------"
else
    nok "under umask 077 the folder is drwx------" "$(mode "$W")"
fi
if [ "$rc" -eq 0 ] && [ -s "$W/index.md" ] && [ -s "$W/scaling.gp" ] && [ -s "$W/claims.csv" ] &&
    [ -z "$(ls "$W"/*.png "$W"/*.svg 2>/dev/null)" ] && [ "$(ls -A "$T/w")" = report ]; then
    ok "without gnuplot: exit 0, ./report with tables, scripts and index.md, no figures"
else
    nok "without gnuplot: exit 0, ./report with tables, scripts and index.md, no figures" \
        "exit $rc; $(names "$T/w"); stderr: $(head -c 200 "$T/err")"
fi
if [ -d "$W" ] && cmp -s "$R/breakdown.csv" "$W/breakdown.csv" && cmp -s "$R/models.csv" "$W/models.csv"; then
    ok "the same scenario gives the same tables"
else
    nok "the same scenario gives the same tables"
fi

echo "# cli_report done"
