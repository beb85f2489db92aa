#!/bin/sh
# Command-line tests of the comparison with a GPU cluster in `report`
# (issue 21, item 5): compare.csv has both kinds, the weight-streaming
# clusters at 1, 2, 4, ... max_systems and the GPU counts doubling in
# whole nodes at system.node_power up to the weight-streaming power, the
# same job (the same steps) on every row, each GPU row estimate's fastest
# layout and the counts left out running none; index.md links the figure
# and its CSV, says how to read it, which GPU (h100 by default) and whose
# power; the figure is drawn when gnuplot is installed; --gpu a100 and a
# GPU from a file with its own --set, --gpu-price and --tp recorded and
# made again; a GPU system for -s, a weight-streaming one for --gpu and a
# refused layout figure exit 2 naming the flag.  The decision (issue 32,
# item 8): with --deadline 30d index.md leads with it, its table's two
# columns are the system's and the GPU's names, decision.csv has each
# side's count, P90 >= P50 and a share of draws in [0, 1], goodput in
# (0, 1] with the time no shorter than without failures, the systems and
# whole GPU nodes in the bill of materials, a currency for the cost, the three
# assumptions are keys of their side's description at the line named
# with an origin word; --confidence 0.9 asks for no fewer of either;
# --confidence without --deadline and --energy are exit 2.  Prints "ok N - what" or
# "not ok N - what" per check and "# cli_report_compare done" at the end.
. "$(dirname "$0")/lib.sh"

HAVE_GP=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GP=1

# report ARGS...: the binary's report command; $rc, stdout in $T/out, stderr in $T/err
report() {
    "$CP" report "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
is_png() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
is_svg() {
    [ -s "$1" ] && head -c 200 "$1" | grep -q '^<?xml' && grep -q '<svg' "$1" && grep -q '</svg>' "$1"
}
# show_value NAME KEY: one value of `show NAME --csv`
show_value() {
    "$CP" show "$1" --csv | tr -d '\r' | awk -F, -v k="$2" '$1 == k { print $2 }'
}

# ---- the default: gpt3-175b on 16 CS-2, against h100 ----
R=$T/p/r
mkdir -p "$T/p"
report -m gpt3-175b -s cs2 -n 16 -o "$R"
# (without gnuplot the one line on stderr says so)
if [ "$rc" -eq 0 ] && ! grep -qv 'gnuplot is not installed' "$T/err" && [ -s "$R/compare.csv" ] && [ -s "$R/compare.gp" ] &&
    [ -s "$R/hw/h100.ini" ] && grep -q '^gpt3-175b,GPT-3 175B,cs2,.*,h100,' "$R/names.csv"; then
    ok "report: exit 0, compare.csv, compare.gp, hw/h100.ini, names.csv names the GPU (h100 by default)"
else
    nok "report: exit 0, compare.csv, compare.gp, hw/h100.ini, names.csv names the GPU" "exit $rc: $(head -c 300 "$T/err")"
fi
if [ "$HAVE_GP" -eq 1 ]; then
    check "compare.png is drawn (gnuplot is installed)" is_png "$R/compare.png"
else
    ok "# SKIP gnuplot is not installed: compare.png not checked"
fi
if head -n 1 "$R/compare.csv" | tr -d '\r' | grep -qx 'kind,units,nodes,power_W,step_time_s,time_to_train_s,tokens_per_s,energy_J,cost,feasible,system,layout,steps' &&
    tr -d '\r' <"$R/compare.csv" | awk -F, 'NR > 1 { n++; k[$1]++; if (NF != 13) bad = 1 } END { exit bad || !k["weight-streaming"] || !k["gpu"] || n != k["weight-streaming"] + k["gpu"] }'; then
    ok "compare.csv: its columns, rows of both kinds (weight-streaming, gpu), 13 fields each (no commas in the layout)"
else
    nok "compare.csv: its columns, rows of both kinds, 13 fields each" "$(head -n 2 "$R/compare.csv")"
fi

# ---- compare.csv against the descriptions ----
# cmp_rows FILE: per row, space-separated: 1 kind, 2 units, 3 nodes,
# 4 power_W, 5 step_time_s, 6 time_to_train_s, 7 feasible, 8 system
cmp_rows() {
    tr -d '\r' <"$1" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["kind"], $c["units"], $c["nodes"], $c["power_W"], $c["step_time_s"],
              $c["time_to_train_s"], $c["feasible"], $c["system"] }'
}
# cmp_checks DIR SYSTEM GPU: the comparison of the report in DIR
cmp_checks() {
    cmp_rows "$1/compare.csv" >"$T/cmp" 2>/dev/null
    max=$(show_value "$2" system.max_systems)
    gpn=$(show_value "$3" system.gpus_per_node)
    npw=$(show_value "$3" system.node_power)
    want=$(awk -v m="$max" 'BEGIN { for (n = 1; n < m; n *= 2) printf "%s ", n; print m }')
    have=$(awk '$1 == "weight-streaming" && $8 == "'"$2"'" { printf "%s ", $2 }' "$T/cmp" | sed 's/ $//')
    if [ "$have" = "$want" ] && grep -q "^gpu .* $3\$" "$T/cmp"; then
        ok "$2/$3 compare.csv: weight-streaming rows at N = $want, and $3 rows"
    else
        nok "$2/$3 compare.csv: weight-streaming rows at N = $want, and $3 rows" "N: $have; $(grep -c '^gpu' "$T/cmp") GPU rows"
    fi
    # GPU rows: doubling counts of the node step, whole nodes at node_power
    # each, feasible; the GPU counts stop at the first whose power reaches
    # the largest feasible weight-streaming cluster's.
    if why=$(awk -v gpn="$gpn" -v npw="$npw" '
        $1 == "weight-streaming" && $7 == 1 && $4 > wmax { wmax = $4 }
        $1 == "gpu" {
            k++; u[k] = $2; p[k] = $4
            nodes = int(($2 + gpn - 1) / gpn)
            if ($3 != nodes || $4 != nodes * npw || $7 != 1 || $5 <= 0) { print "row " $0; bad = 1 }
            if (k > 1 && (log(u[k] / u[k - 1]) / log(2)) != int(log(u[k] / u[k - 1]) / log(2) + 0.5)) { print "not doubling: " u[k - 1] " " u[k]; bad = 1 }
        }
        END {
            if (k < 2) { print k " GPU rows"; exit 1 }
            if (!(p[k] >= wmax && p[k - 1] < wmax)) { print "last powers " p[k - 1] " " p[k] " against " wmax; bad = 1 }
            exit bad
        }' "$T/cmp"); then
        ok "$2/$3 compare.csv: GPU counts doubling in whole nodes at node_power ($npw W), up to the weight-streaming power"
    else
        nok "$2/$3 compare.csv: GPU counts doubling in whole nodes at node_power, up to the weight-streaming power" "$why"
    fi
    # The same job on both sides: the same whole steps on every row, and a
    # time-to-train of at least those steps x the step time (failures add).
    if tr -d '\r' <"$1/compare.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["feasible"] == 1 { s = $c["steps"]; if (!k++) s0 = s; if (s != s0 || s < 1) bad = 1
            if ($c["time_to_train_s"] < s * $c["step_time_s"] * (1 - 1e-12)) bad = 1 }
        END { exit bad || k < 2 }'; then
        ok "$2/$3 compare.csv: the same number of steps on every row (the same job)"
    else
        nok "$2/$3 compare.csv: the same number of steps on every row (the same job)"
    fi
}
cmp_checks "$R" cs2 h100
# Each GPU row is estimate's fastest layout at that count; the counts left
# out run none (estimate exits 1), and index.md names them.
first=$(awk '$1 == "gpu" { print $2; exit }' "$T/cmp")
"$CP" estimate -m gpt3-175b -s h100 -n "$first" --csv 2>/dev/null | tr -d '\r' |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["step_time_s"] }' >"$T/est"
row=$(awk -v n="$first" '$1 == "gpu" && $2 == n { print $5 }' "$T/cmp")
if [ -n "$row" ] && [ "$row" = "$(cat "$T/est")" ]; then
    ok "compare.csv's first GPU row ($first GPUs) has estimate -s h100's step time ($row s)"
else
    nok "compare.csv's first GPU row has estimate -s h100's step time" "$row against $(cat "$T/est")"
fi
left=$(grep -o 'GPU counts that run no layout are left out of the table and the figure: [0-9, and]*' "$R/index.md" |
    sed 's/.*figure: //; s/ and /, /g; s/,/ /g' | tr -s ' ')
bad=
for c in $left; do
    "$CP" estimate -m gpt3-175b -s h100 -n "$c" >/dev/null 2>&1
    [ $? -eq 1 ] || bad="$bad $c"
    grep -q "^gpu $c " "$T/cmp" && bad="$bad $c(in the table)"
done
if [ -n "$left" ] && [ -z "$bad" ]; then
    ok "index.md names the GPU counts left out ($left); each runs no layout (estimate exits 1)"
else
    nok "index.md names the GPU counts left out; each runs no layout" "left out: $left; bad:$bad"
fi
# (the figure inline only when it was drawn)
# shellcheck disable=SC2016 # the backquotes are index.md's
if { [ "$HAVE_GP" -eq 0 ] || grep -qF '](compare.png)' "$R/index.md"; } &&
    grep -qF 'Data: compare.csv, names.csv; script: `compare.gp`' "$R/index.md" &&
    grep -qF 'At equal power the lower curve trains faster' "$R/index.md" &&
    grep -qF 'the default when --gpu is not given' "$R/index.md" &&
    grep -qF 'the GPU nodes whole, at their maximum wall power' "$R/index.md"; then
    ok "index.md: the comparison figure and compare.csv, how to read it, the default GPU, whose power"
else
    nok "index.md: the comparison figure and compare.csv, how to read it, the default GPU, whose power"
fi
# ---- --gpu a100 on CS-3; a GPU system for -s, a weight-streaming one for --gpu, a --tp
# that does not divide the NVLink domain: exit 2 naming the flag, no DIR.
RA=$T/a100/r
mkdir -p "$T/a100"
report -m gpt3-175b -s cs3 -n 16 --gpu a100 --format svg -o "$RA"
if [ "$rc" -eq 0 ] && [ -s "$RA/hw/a100.ini" ] && [ ! -e "$RA/hw/h100.ini" ] &&
    grep -q ',a100,' "$RA/names.csv" 2>/dev/null; then
    ok "report --gpu a100: exit 0, hw/a100.ini, names.csv names it"
else
    nok "report --gpu a100: exit 0, hw/a100.ini, names.csv names it" "exit $rc: $(head -c 300 "$T/err")"
fi
cmp_checks "$RA" cs3 a100
if [ "$HAVE_GP" -eq 1 ]; then
    gname=$(tr -d '\r' <"$RA/names.csv" | awk -F, 'NR == 2 { print $6 }')
    if is_svg "$RA/compare.svg" && grep -qF 'power of the cluster (kW)' "$RA/compare.svg" &&
        grep -qF 'time to train (days)' "$RA/compare.svg" && grep -qF "$gname" "$RA/compare.svg" &&
        grep -qF 'CS-3' "$RA/compare.svg"; then
        ok "compare.svg: time to train (days) against power (kW), both kinds named ($gname)"
    else
        nok "compare.svg: time to train (days) against power (kW), both kinds named ($gname)"
    fi
fi
for bad in "--gpu cs3|--gpu 'cs3'" "-s h100|-s 'h100'" "--tp 5|--tp '5'" "--precision fp4|--precision 'fp4'" \
    "--gpu-price -1|--gpu-price '-1'" "--cp 3|--cp 3 on" "--pp 1 --vp 2|--vp 2 with --pp 1"; do
    args=${bad%%|*} msg=${bad#*|}
    # a folder of its own: one case that wrongly runs leaves the next's empty
    dir=$T/a100/bad-$(echo "$args" | tr -c 'a-z0-9\n' '_')
    # shellcheck disable=SC2086 # $args is two words or more
    report -m gpt3-175b $args -o "$dir"
    if [ "$rc" -eq 2 ] && [ ! -e "$dir" ] && grep -qF -- "$msg" "$T/err" && [ ! -s "$T/out" ]; then
        ok "report $args: exit 2, the message names the flag, no DIR"
    else
        nok "report $args: exit 2, the message names the flag, no DIR" "exit $rc: $(head -c 300 "$T/err")"
    fi
done


# ---- a GPU from a file with its own override, price and --tp: recorded and made again ----
P=$T/repro
mkdir -p "$P"
cp hw/a100.ini "$P/mygpu.ini"
(cd "$P" && "$CP" report -m gpt3-175b -s cs2 -n 16 --gpu mygpu.ini --gpu-price 2 --tp 8 \
    --set 'gpu:system.node_power=6.5 kW' --set system.utilization=0.4 -o r) >"$T/out" 2>"$T/err"
rc=$?
RP=$P/r
# the full cost (cost.h): the rental of every GPU of the nodes, and the
# energy at the description's price per kWh and PUE
ekwh=$(show_value "$P/mygpu.ini" cost.energy_price)
pue=$(show_value "$P/mygpu.ini" cost.pue)
if [ "$rc" -eq 0 ] && [ -s "$RP/hw/mygpu.ini" ] && [ -n "$ekwh" ] && tr -d '\r' <"$RP/compare.csv" |
    awk -F, -v ekwh="$ekwh" -v pue="$pue" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["kind"] == "gpu" { n++; if ($c["system"] != "mygpu" || $c["layout"] !~ /^tp 8 / || $c["power_W"] != $c["nodes"] * 6500) bad = 1
            if (pue + 0 == 0) pue = 1
            d = $c["cost"] - $c["nodes"] * 8 * $c["time_to_train_s"] / 3600 * 2 - $c["energy_J"] / 3.6e6 * ekwh * pue
            if (d < 0) d = -d; if (d > 1e-9 * $c["cost"]) bad = 1 }
        END { exit bad || !n }'; then
    ok "report --gpu FILE --set gpu:KEY --gpu-price --tp: the GPU rows at tp 8, 6.5 kW nodes, cost = nodes x 8 x hours x price + energy x price per kWh x PUE"
else
    nok "report --gpu FILE --set gpu:KEY --gpu-price --tp: the GPU rows" "exit $rc: $(head -c 300 "$T/err")"
fi
"$CP" show "$P/mygpu.ini" --set 'system.node_power=6.5 kW' --csv >"$T/show1" 2>&1
"$CP" show "$RP/hw/mygpu.ini" --csv >"$T/show2" 2>&1
if grep -q '^system.node_power,6500,' "$T/show2" && cmp -s "$T/show1" "$T/show2"; then
    ok "hw/mygpu.ini: show gives every key as show mygpu.ini --set ... does (node_power 6.5 kW)"
else
    nok "hw/mygpu.ini: show gives every key as show mygpu.ini --set ... does" "$(diff "$T/show1" "$T/show2" | head -n 4)"
fi
if grep -q '^# then --set gpu:system.node_power=6.5 kW' "$RP/hw/mygpu.ini" &&
    ! grep -q 'gpu:' "$RP/hw/cs2.ini" && grep -q '^# then --set system.utilization=0.4' "$RP/hw/cs2.ini"; then
    ok "each override is named in its own description's header (the GPU's in hw/mygpu.ini)"
else
    nok "each override is named in its own description's header (the GPU's in hw/mygpu.ini)"
fi
given=$(grep '^    cerebras-plan report ' "$RP/index.md" | sed -n 1p | sed 's/^    cerebras-plan //')
files=$(grep '^    cerebras-plan report ' "$RP/index.md" | sed -n 2p | sed 's/^    cerebras-plan //')
case "$given" in
*"--gpu mygpu.ini --gpu-price 2 --tp 8 --set 'gpu:system.node_power=6.5 kW'"*) ok "index.md records --gpu, --gpu-price, --tp and the GPU's --set" ;;
*) nok "index.md records --gpu, --gpu-price, --tp and the GPU's --set" "$given" ;;
esac
case "$files" in
*"--gpu hw/mygpu.ini --gpu-price 2 --tp 8"*) ok "the command on the recorded files names hw/mygpu.ini ($files)" ;;
*) nok "the command on the recorded files names hw/mygpu.ini" "$files" ;;
esac
(cd "$RP" && eval "\"\$CP\" $files") >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$RP/compare.csv" "$P/r-again/compare.csv" && cmp -s "$RP/names.csv" "$P/r-again/names.csv"; then
    ok "the command on the recorded files gives the same compare.csv and names.csv"
else
    nok "the command on the recorded files gives the same compare.csv and names.csv" "exit $rc: $(diff "$RP/compare.csv" "$P/r-again/compare.csv" | head -n 3) $(head -c 200 "$T/err")"
fi


# ---- the decision (issue 32, item 8): index.md leads with both clusters ----
D=$T/dec
mkdir -p "$D"
report -m gpt3-175b -s cs3 --deadline 30d -o "$D/r"
drc=$rc
# the first section of index.md is the decision
first=$(grep '^## ' "$D/r/index.md" 2>/dev/null | head -n 1)
if [ "$drc" -eq 0 ] && [ "$first" = "## The decision" ]; then
    ok "report --deadline 30d: index.md leads with the decision"
else
    nok "report --deadline 30d: index.md leads with the decision" "exit $drc; first section: $first; $(head -c 200 "$T/err")"
fi
# its table has two columns, the system's and the GPU's names (names.csv)
sname=$(tr -d '\r' <"$D/r/names.csv" 2>/dev/null | awk -F, 'NR == 2 { print $4 }')
gname=$(tr -d '\r' <"$D/r/names.csv" 2>/dev/null | awk -F, 'NR == 2 { print $6 }')
head_row=$(awk '/^## The decision/ { on = 1 } on && /^[|] [|]/ { print; exit }' "$D/r/index.md" 2>/dev/null)
if [ -n "$sname" ] && [ -n "$gname" ] && [ "$head_row" = "| | $sname | $gname |" ]; then
    ok "the decision's table has two columns: $sname and $gname"
else
    nok "the decision's table has two columns, the system's and the GPU's" "header: $head_row; names: $sname / $gname"
fi
# decision.csv: each side's P90 at least its P50, both there, a share in [0, 1]
dcsv=$(tr -d '\r' <"$D/r/decision.csv" 2>/dev/null)
bad=$(printf '%s\n' "$dcsv" | awk -F, '
    NR == 1 { if ($0 != "quantity,unit,weight_streaming,gpu") print "header " $0; next }
    { v[$1, 3] = $3; v[$1, 4] = $4 }
    END {
        for (k = 3; k <= 4; k++) {
            if (v["time_to_train_p50", k] == "" || v["time_to_train_p90", k] == "") print "no P50 or P90 in column " k
            else if (v["time_to_train_p90", k] + 0 < v["time_to_train_p50", k] + 0) print "P90 < P50 in column " k
            s = v["deadline_share", k]
            if (s == "" || s + 0 < 0 || s + 0 > 1) print "share " s " in column " k
            if (v["units", k] + 0 < 1) print "no count in column " k
        }
    }')
if [ -s "$D/r/decision.csv" ] && [ -z "$bad" ]; then
    ok "decision.csv: both sides have a count, P90 >= P50 and a share of draws in [0, 1]"
else
    nok "decision.csv: both sides have a count, P90 >= P50 and a share of draws in [0, 1]" "$bad"
fi
# goodput, the bill of materials and the cost as each kind has them: the
# time with failures no shorter than without, goodput in (0, 1], the
# systems the count, the GPU nodes whole nodes of the count, a currency
gpn=$(show_value h100 system.gpus_per_node)
bad=$(printf '%s\n' "$dcsv" | awk -F, -v gpn="$gpn" '
    NR > 1 { v[$1, 3] = $3; v[$1, 4] = $4; u[$1] = $2 }
    END {
        for (k = 3; k <= 4; k++) {
            if (v["time_to_train", k] + 0 < v["time_to_train_failure_free", k] + 0 || v["time_to_train_failure_free", k] == "")
                print "time below the failure-free time in column " k
            g = v["goodput", k]
            if (g == "" || g + 0 <= 0 || g + 0 > 1) print "goodput " g " in column " k
        }
        if (v["bom_systems", 3] != v["units", 3]) print "bom_systems " v["bom_systems", 3] " against " v["units", 3] " systems"
        n = v["units", 4] / gpn; if (n > int(n)) n = int(n) + 1
        if (gpn == "" || v["bom_nodes", 4] + 0 != n) print "bom_nodes " v["bom_nodes", 4] " against " v["units", 4] " GPUs of " gpn " a node"
        if (("cost", 3) in v && v["cost", 3] != "" && u["cost"] == "") print "a cost without its currency"
    }')
rows_md=$(awk '/^## The decision/ { on = 1 } on && /^## / && !/decision/ { exit } on' "$D/r/index.md" 2>/dev/null | grep -c '^| \(goodput\|bill of materials\|full cost\) |')
if [ -z "$bad" ] && [ "$rows_md" -eq 3 ]; then
    ok "the decision's goodput, bill of materials and cost: time >= failure-free time, goodput in (0, 1], systems and whole nodes, a currency"
else
    nok "the decision's goodput, bill of materials and cost: time >= failure-free time, goodput in (0, 1], systems and whole nodes, a currency" "$bad; $rows_md rows in index.md"
fi
# the three assumptions: real keys of the side's description, at the line
# named, with a word for where the value comes from
rows=$(awk '/^[|] # [|] key/ { on = 1; next } on && /^[|] [0-9]/ { print } on && /^$/ { exit }' "$D/r/index.md" 2>/dev/null)
nrows=$(printf '%s\n' "$rows" | grep -c '^| [0-9]')
bad=
printf '%s\n' "$rows" >"$D/rows"
while IFS= read -r row; do
    [ -n "$row" ] || continue
    key=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $2 }' | tr -d '`')
    side=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $3 }')
    origin=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $5 }')
    sys=cs3
    [ "$side" = "$gname" ] && sys=h100
    [ -n "$(show_value "$sys" "$key")" ] || bad="$bad $key is not a key of $sys;"
    case $origin in
    fitted* | assumed* | derived* | counted* | published*) ;;
    *) bad="$bad $key: origin '$origin';" ;;
    esac
    line=$(printf '%s\n' "$origin" | sed -n 's/.*(\([a-z0-9]*\.ini\) line \([0-9]*\)).*/\2/p')
    file=$(printf '%s\n' "$origin" | sed -n 's/.*(\([a-z0-9]*\.ini\) line \([0-9]*\)).*/\1/p')
    if [ -z "$line" ] || ! sed -n "${line}p" "hw/$file" | grep -q "^${key#*.} *="; then
        bad="$bad $key: not at hw/$file line $line;"
    fi
done <"$D/rows"
if [ "$nrows" -eq 3 ] && [ -z "$bad" ]; then
    ok "the decision names three assumptions, keys of their side's description with their origin and line"
else
    nok "the decision names three assumptions, keys of their side's description with their origin and line" "$nrows rows;$bad"
fi
# --confidence 0.9 never asks for fewer of either; without --deadline it is refused
report -m gpt3-175b -s cs3 --deadline 30d --confidence 0.9 -o "$D/c"
crc=$rc
fewer=$(tr -d '\r' <"$D/c/decision.csv" 2>/dev/null | awk -F, -v d="$(printf '%s\n' "$dcsv" | awk -F, '$1 == "units" { print $3 "," $4 }')" '
    $1 == "units" { split(d, p, ","); if ($3 + 0 < p[1] + 0 || $4 + 0 < p[2] + 0) print $3 "," $4 " < " d; found = 1 }
    END { if (!found) print "no units row" }')
if [ "$crc" -eq 0 ] && [ -z "$fewer" ] && grep -q -- '--confidence 0.9' "$D/c/index.md"; then
    ok "report --confidence 0.9: neither side fewer than at the point estimate, recorded"
else
    nok "report --confidence 0.9: neither side fewer than at the point estimate, recorded" "exit $crc; $fewer; $(head -c 200 "$T/err")"
fi
report -m gpt3-175b -s cs3 --confidence 0.9 -o "$D/n"
rc1=$rc
report -m gpt3-175b -s cs3 --deadline 30d --energy 1GWh -o "$D/n"
if [ "$rc1" -eq 2 ] && [ "$rc" -eq 2 ] && grep -q -- '--energy' "$T/err" && [ ! -e "$D/n" ]; then
    ok "report: --confidence without --deadline and --energy are exit 2, nothing written"
else
    nok "report: --confidence without --deadline and --energy are exit 2, nothing written" "exits $rc1 $rc; $(head -c 200 "$T/err")"
fi

echo "# cli_report_compare done"
