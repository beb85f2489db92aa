#!/bin/sh
# Every command on both kinds of cluster (issue 31): each command of the
# command table (read from --help, so a new one cannot be left out) runs on
# the weight-streaming system cs3 and on the GPU system h100, in the way it
# names a system (-s; compare and report take the GPU with --gpu; show a
# name; list, validate, calibrate and claims run on their corpora), and
# either answers (exit 0, or 1 with output: a negative verdict) or is
# refused with exit 2 by one line that says why, a line cerebras-plan(1)
# lists under KINDS OF CLUSTER, whose table agrees with the one below.  A
# documented refusal that starts to answer fails too: update the table and
# the man page.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_parity done" at the end.
. "$(dirname "$0")/lib.sh"

M="-m gpt3-xl" # small and quick on both kinds
MAN=man/cerebras-plan.1

# The expected table, the only one: COMMAND [OPTION]|KIND|EXPECT|ARGUMENTS.
# KIND is ws (cs3) or gpu (h100); EXPECT is answers, refused (exit 2, one
# line that the man page lists) or none (the command takes no system of
# this kind and has nothing to run on it: the man page says no).  The
# arguments run with the binary; @T@ is the temporary directory.
cat >"$T/table" <<EOF
list|ws|answers|list hw
list|gpu|answers|list hw
show|ws|answers|show cs3
show|gpu|answers|show h100
estimate|ws|answers|estimate $M -s cs3 -n 2
estimate|gpu|answers|estimate $M -s h100 -n 8
estimate --uncertainty|ws|answers|estimate $M -s cs3 -n 2 --uncertainty=16
estimate --uncertainty|gpu|answers|estimate $M -s h100 -n 8 --uncertainty=16
scale|ws|answers|scale $M -s cs3 --systems 1,2
scale|gpu|answers|scale $M -s h100 --systems 8,16
capacity|ws|answers|capacity $M -s cs3
capacity|gpu|refused|capacity $M -s h100
claims|ws|answers|claims
claims|gpu|answers|claims
simulate|ws|answers|simulate $M -s cs3 -n 2 --steps 2
simulate|gpu|refused|simulate $M -s h100 -n 8 --steps 2
simulate --functional|ws|answers|simulate --functional -s cs3 --steps 2
simulate --functional|gpu|refused|simulate --functional -s h100 --steps 2
crosscheck|ws|answers|crosscheck --csv
crosscheck|gpu|none|
plan --deadline|ws|answers|plan $M -s cs3 --deadline 30d
plan --deadline|gpu|answers|plan $M -s h100 --deadline 30d
plan --energy|ws|answers|plan $M -s cs3 --energy 1GWh
plan --energy|gpu|answers|plan $M -s h100 --energy 1GWh
plan --budget|ws|answers|plan $M -s cs3 --budget 1M --price 20
plan --budget|gpu|answers|plan $M -s h100 --budget 1M --price 20
compare|ws|answers|compare $M -s cs3 --gpu h100 -n 2
compare|gpu|answers|compare $M -s cs3 --gpu h100 -n 2
calibrate|ws|answers|calibrate hw/measurements.csv --fit cs3:system.utilization
calibrate|gpu|answers|calibrate hw/gpu-measurements.csv --fit fit.matmul_efficiency
calibrate -o|ws|answers|calibrate hw/measurements.csv --fit cs3:system.utilization -o @T@/ov.ini
calibrate -o|gpu|refused|calibrate hw/gpu-measurements.csv --fit fit.matmul_efficiency -o @T@/ov.ini
validate|ws|answers|validate --csv
validate|gpu|answers|validate --csv
sensitivity|ws|answers|sensitivity $M -s cs3 -n 2
sensitivity|gpu|answers|sensitivity $M -s h100 -n 8
report|ws|answers|report $M -s cs3 --gpu h100 -n 2 -o @T@/report
report|gpu|answers|report $M -s cs3 --gpu h100 -n 2 -o @T@/report
explore|ws|answers|explore $M -s cs3 -n 2
explore|gpu|answers|explore $M -s h100 -n 8
sweep|ws|answers|sweep $M -s cs3 --systems 1,2 --csv
sweep|gpu|answers|sweep $M -s h100 --systems 8,16 --csv
EOF

# ---- every command of the table is in the parity table, on both kinds ----
"$CP" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 && $1 !~ /:$/ { print $1 }' >"$T/cmds"
check "commands read from --help ($(wc -l <"$T/cmds"))" [ "$(wc -l <"$T/cmds")" -ge 15 ]
missing=""
while read -r c; do
    [ "$c" = help ] && continue
    for k in ws gpu; do
        awk -F'|' -v c="$c" -v k="$k" '{ split($1, w, " ") } w[1] == c && $2 == k { f = 1 } END { exit !f }' \
            "$T/table" || missing="$missing $c/$k"
    done
done <"$T/cmds"
check "every command has a row on each kind${missing:+ (missing:$missing)}" [ -z "$missing" ]

# ---- the man page's section ----
sed -n '/^\.Sh KINDS OF CLUSTER/,/^\.Sh /p' "$MAN" | sed '$d' >"$T/man"
check "cerebras-plan(1) has a section KINDS OF CLUSTER" [ -s "$T/man" ]

# man_says LABEL KIND: yes or no, the man page's table cell for LABEL
# ("plan --energy" is the row ".It Cm plan Fl -energy Ta WS Ta GPU")
man_says() {
    row=$(echo "$1" | awk '{ printf ".It Cm %s", $1; for (i = 2; i <= NF; i++) printf " Fl %s", substr($i, 2); printf " Ta " }')
    awk -v row="$row" -v col="$([ "$2" = ws ] && echo 1 || echo 2)" '
        index($0, row) == 1 { n = split(substr($0, length(row) + 1), v, / Ta /); print v[col] }' "$T/man"
}

# ---- each row: run it, judge the outcome, compare with the man page ----
# (the loop reads the file in this shell, so $n carries past it)
prev='' rc=0
while IFS='|' read -r label kind expect args; do
    what="$label on $([ "$kind" = ws ] && echo cs3 || echo h100)"
    want=yes
    [ "$expect" = answers ] || want=no
    said=$(man_says "$label" "$kind")
    if [ "$said" != "$want" ]; then
        nok "$what: the man page's table says $want" "it says '${said:-nothing}'"
    fi
    [ "$expect" = none ] && { ok "$what: no run (the command takes no system of this kind)"; continue; }
    args=$(echo "$args" | sed "s|@T@|$T|g")
    if [ "$args" != "$prev" ]; then # a run that serves both kinds (report) runs once
        rm -rf "$T/report"
        # under valgrind, the two long runs natively: cli.sh and cli_report.sh memcheck them
        bin=$CP
        case $args in crosscheck* | report*) bin=$CP_NATIVE ;; esac
        # shellcheck disable=SC2086
        CEREBRAS_PLAN_EXPLORE_FRAMES=1 TERM=xterm-256color "$bin" $args </dev/null >"$T/out" 2>"$T/err"
        rc=$? prev=$args
    fi
    lines=$(wc -l <"$T/err")
    msg=$(sed -n '1s/^cerebras-plan: //p' "$T/err")
    answered=0
    { [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ -s "$T/out" ]; }; } && answered=1
    if [ "$expect" = answers ]; then
        if [ "$answered" = 1 ]; then
            ok "$what: answers (exit $rc)"
        elif [ "$rc" -eq 2 ]; then
            nok "$what: answers; refused, and the refusal is not in the table" "$msg"
        else
            nok "$what: answers" "exit $rc: $(head -c 300 "$T/err")"
        fi
        continue
    fi
    if [ "$answered" = 1 ]; then
        nok "$what: a documented refusal now answers: make it 'answers' here and 'yes' in cerebras-plan(1), KINDS OF CLUSTER" "exit $rc"
    elif [ "$rc" -ne 2 ] || [ -s "$T/out" ] || [ "$lines" -ne 1 ] || [ -z "$msg" ]; then
        nok "$what: refused with exit 2 and one line on stderr" "exit $rc, $lines lines: $(head -c 300 "$T/err")"
    elif ! echo "$msg" | grep -q 'GPU\|weight-streaming'; then
        nok "$what: the refusal names the kind it does not apply to" "$msg"
    elif ! grep -qxF -- "$msg" "$T/man"; then
        nok "$what: the refusal is listed, word for word, in cerebras-plan(1), KINDS OF CLUSTER" "$msg"
    else
        ok "$what: refused in one line that the man page lists"
    fi
    echo "$msg" >>"$T/refusals"
done <"$T/table"

# ---- the commands that run once on both kinds' data cover both ----
run list hw --csv
check "list hw: lists cs3 and h100" sh -c "grep -q '^cs3,' '$T/out' && grep -q '^h100,' '$T/out'"
run validate --csv
kinds=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 { print $1 }' | sort -u | tr '\n' ' ')
check "validate: runs of both kinds ($kinds)" [ "$kinds" = "gpu weight-streaming " ]
run claims --csv
# the last two columns are gpu and gpus, empty for a weight-streaming claim
gpus=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $(NF - 1) != "" { n++ } END { print n + 0 }')
wss=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $(NF - 1) == "" && $1 != "" { n++ } END { print n + 0 }')
check "claims: claims of both kinds ($wss weight-streaming, $gpus with a GPU)" \
    sh -c "[ '$gpus' -gt 0 ] && [ '$wss' -gt 0 ]"

# ---- the man page lists no refusal the table does not have ----
# (each refusal of the section is a line "COMMAND: ..."; two rows may share one)
sort -u "$T/refusals" 2>/dev/null >"$T/seen"
grep '^[a-z]*: ' "$T/man" | sort -u >"$T/listed"
extra=$(comm -13 "$T/seen" "$T/listed" | head -n 3)
check "the man page lists no refusal that no row meets${extra:+: $extra}" [ -z "$extra" ]

echo "# cli_parity done"
