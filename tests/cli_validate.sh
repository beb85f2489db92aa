#!/bin/sh
# Command-line tests of `validate`: the shipped corpus meets the targets
# (median |error| <= 10 %, every point within 25 %, leave-one-out median
# <= 15 %; issue 16), the CSV carries the measured figures as published,
# the tolerance and the file arguments work, bad input is refused.  Prints
# "ok N - what" or "not ok N - what" per check and "# cli_validate done".
. "$(dirname "$0")/lib.sh"

col() { # col NAME: the column NAME of a CSV on stdin, rows after the header
    tr -d '\r' | awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
        { print $c }'
}

# ---- the shipped corpus meets the targets ----
run validate
if [ "$rc" -eq 0 ]; then ok "validate: the shipped corpus meets the targets"; else nok "validate: the shipped corpus meets the targets" "$(cat "$T/err")"; fi
check "text: a summary row per system and in all" grep -q '^all  *10 ' "$T/out"
check "text: per system" grep -q '^cs3  *5 ' "$T/out"

run validate --csv
check "csv: exit 0" [ "$rc" -eq 0 ]
want='id,system,systems,model,batch,software,quantity,unit,measured,predicted,error,loo_predicted,loo_error,source'
check "csv: header" [ "$(head -n 1 "$T/out" | tr -d '\r')" = "$want" ]
check "csv: ten rows" [ "$(col id <"$T/out" | wc -l)" -eq 10 ]
# the measured figures as published (ALCF logs; seed 004)
m=$(col measured <"$T/out" | tr '\n' ' ')
check "csv: measured values as published ($m)" \
    [ "$m" = "43.67 20.45 494.4 4047.95 6727.92 31.99 32.44 31.35 28.51 15.3 " ]
# error is predicted / measured - 1, and every point has a leave-one-out figure
awk -F, 'NR > 1 { if ($11 == "" || $13 == "") exit 1;
    if (($10 / $9 - 1) - $11 > 1e-9 || ($10 / $9 - 1) - $11 < -1e-9) exit 1;
    if (($12 / $9 - 1) - $13 > 1e-9 || ($12 / $9 - 1) - $13 < -1e-9) exit 1 }' "$T/out"
check "csv: error and loo_error are predicted / measured - 1 on every row" [ $? -eq 0 ]
# the targets, recomputed here from the CSV
tr -d '\r' <"$T/out" | awk -F, 'NR > 1 { e = $11 < 0 ? -$11 : $11; l = $13 < 0 ? -$13 : $13;
    print e, l }' >"$T/abs"
max=$(sort -g "$T/abs" | tail -n 1 | cut -d' ' -f1)
check "every point within 25 % (largest $max)" awk -v m="$max" 'BEGIN { exit !(m <= 0.25) }'
med=$(cut -d' ' -f1 "$T/abs" | sort -g | awk '{ a[NR] = $1 } END { print (a[5] + a[6]) / 2 }')
check "median |error| at most 10 % ($med)" awk -v m="$med" 'BEGIN { exit !(m <= 0.10) }'
loo=$(cut -d' ' -f2 "$T/abs" | sort -g | awk '{ a[NR] = $1 } END { print (a[5] + a[6]) / 2 }')
check "leave-one-out median |error| at most 15 % ($loo)" awk -v m="$loo" 'BEGIN { exit !(m <= 0.15) }'

# ---- the verdict follows the tolerance and the hardware ----
run validate --tolerance 1%
check "--tolerance 1 %: exit 1" [ "$rc" -eq 1 ]
check "--tolerance 1 %: names the point outside it" grep -q 'is outside the tolerance of 1 %' "$T/err"
run validate --set 'system.utilization=0.2'
check "a utilization far from the fit misses the targets: exit 1" [ "$rc" -eq 1 ]
expect_err "--tolerance 'x'" "a bad --tolerance is refused" validate --tolerance x

# ---- files ----
head -n 30 hw/measurements.csv | grep -v '^M\|^V' >"$T/head.csv"
{ cat "$T/head.csv"; grep '^M08,\|^M11,' hw/measurements.csv; } >"$T/two.csv"
run validate "$T/two.csv" --csv
check "a file of two rows: two points" [ "$(col id <"$T/out" | wc -l)" -eq 2 ]
run validate "$T/two.csv" hw/measurements.csv --csv --tolerance 100%
check "two files: their rows together" [ "$(col id <"$T/out" | wc -l)" -eq 12 ]
printf 'model,system,systems,quantity,value\nllama2-7b,cs3,1,samples_per_s,abc\n' >"$T/bad.csv"
run validate "$T/bad.csv"
check "a bad value: exit 2 with file:line:col" grep -q "bad.csv:2:[0-9]*: value" "$T/err"
check "a bad value: nothing on stdout" [ ! -s "$T/out" ]
expect_err "none.csv: No such file or directory" "a missing file is refused" validate "$T/none.csv"
run validate --fit 'cs9:system.utilization'
check "a scoped key on a system with no point: exit 2" [ "$rc" -eq 2 ]

run validate --help
check "validate --help" grep -q '^usage: cerebras-plan validate' "$T/out"

echo "# cli_validate done"
