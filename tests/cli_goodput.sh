#!/bin/sh
# Command-line tests of goodput (issue 32, item 3): the time failures,
# checkpoints and restarts take (src/tm/gp.c, cerebras-plan(1) Goodput).
#
# The check against Llama 3 405B (Dubey et al. 2024, sec. 3.3.4: 466
# interruptions, 419 of them unexpected, in a 54-day snapshot on up to
# 16,384 H100, and an effective training time above 90 %) uses the GPU
# node rate of hw/h100.ini, which comes from another cluster (Meta's
# RSC-1, Kokolis et al. 2024: 6.50 failures per 1000 node-days), not from
# Llama 3's count: the count of interruptions is a check of that rate, and
# the goodput one of the rate with the checkpoint and restart arithmetic.
# A second check puts in Llama 3's own count (a node MTBF of 2048 nodes x
# 54 d / 419) and so checks the arithmetic alone.
# Prints "ok N - what" or "not ok N - what" per check and "# cli_goodput
# done".
. "$(dirname "$0")/lib.sh"

# secs "2.841 s" | "3.2 min" | "1.803 h" | "55.49 d" | "1.2 years": seconds
secs() {
    awk -v t="$1" 'BEGIN { split(t, a, " "); u = a[2]; f = -1
        if (u == "ns") f = 1e-9; if (u == "us") f = 1e-6; if (u == "ms") f = 1e-3; if (u == "s") f = 1
        if (u == "min") f = 60; if (u == "h") f = 3600; if (u == "d") f = 86400; if (u == "years") f = 31557600
        if (f < 0) exit 1; printf "%.17g", a[1] * f }'
}
# field WHAT: the text after WHAT in the goodput line of $T/out, to the
# next ',' ';' or ')'
field() { sed -n "s/^goodput .*$1 \([0-9.e+]* [a-z]*\).*/\1/p" "$T/out" | head -n 1; }
# near A B REL: |A - B| <= REL x |B|
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= r * m) }'; }

# ---- Llama 3 405B on 16,384 H100 at its published batch ----
M=llama3.1-405b
run estimate -m $M -s h100 -n 16384
if [ "$rc" -eq 0 ] && grep -q '^goodput ' "$T/out"; then ok "llama3.1-405b on 16384 H100: a goodput line"; else nok "llama3.1-405b on 16384 H100: a goodput line" "exit $rc: $(head -c 300 "$T/err")"; fi
cp "$T/out" "$T/llama"
g=$(sed -n 's/^goodput *\([0-9.]*\) %.*/\1/p' "$T/llama")
check "goodput $g % within 5 points of Llama 3's effective training time above 90 % (85 to 95)" \
    awk -v g="$g" 'BEGIN { exit !(g != "" && g >= 85 && g <= 95) }'
# the job's MTBF is the node's over the nodes (2048 of 8 GPUs)
node=$(show_val h100 reliability.node_mtbf)
gpn=$(show_val h100 system.gpus_per_node)
mj=$(awk -v m="$node" -v g="$gpn" 'BEGIN { printf "%.17g", m / (16384 / g) }')
mp=$(secs "$(field 'job MTBF')")
check "the job MTBF printed ($mp s) is the node's over 2048 nodes ($mj s)" near "$mp" "$mj" 1e-3
# interruptions in Meta's 54 days at that MTBF, against their 419
k=$(awk -v m="$mj" 'BEGIN { printf "%.1f", 54 * 86400 / m }')
check "interruptions in 54 days ($k) within a factor 2 of Llama 3's 419 unexpected" \
    awk -v k="$k" 'BEGIN { exit !(k >= 419 / 2 && k <= 419 * 2) }'
# Young/Daly: the interval printed is sqrt(2 delta M) of the figures printed
d=$(sed -n 's/^goodput .* checkpoint in \([0-9.e+]* [a-z]*\) every.*/\1/p' "$T/llama")
tau=$(sed -n 's/^goodput .* every \([0-9.e+]* [a-z]*\),.*/\1/p' "$T/llama")
ds=$(secs "$d")
want=$(awk -v d="$ds" -v m="$mj" 'BEGIN { printf "%.17g", sqrt(2 * d * m) }')
check "checkpoint interval $tau is sqrt(2 x $d x MTBF) (Young 1974)" near "$(secs "$tau")" "$want" 2e-3
# the checkpoint: weights and optimizer state (2 + 4 + 8 bytes a
# parameter) at the lesser of 2048 nodes' bandwidth and the store's
P=$(show_val $M params)
nb=$(show_val h100 reliability.node_checkpoint_bandwidth)
sb=$(show_val h100 reliability.storage_bandwidth)
want=$(awk -v p="$P" -v n="$nb" -v s="$sb" 'BEGIN { b = 2048 * n; if (s > 0 && s < b) b = s; printf "%.17g", 14 * p / b }')
check "checkpoint time $d is 14 bytes x $P parameters over min(2048 x node, store) bandwidth" near "$ds" "$want" 2e-3
# time-to-train is the failure-free time over the goodput
ff=$(secs "$(field 'failure-free')")
wall=$(secs "$(sed -n 's/^training .* steps: \([0-9.e+]* [a-z]*\).*/\1/p' "$T/llama")")
check "time-to-train ($wall s) is the failure-free time over the goodput ($ff s / $g %)" \
    near "$wall" "$(awk -v f="$ff" -v g="$g" 'BEGIN { printf "%.17g", f / (g / 100) }')" 2e-3

# Llama 3's own count: the arithmetic alone (not an independent check)
own=$(awk -v gpn="$gpn" 'BEGIN { printf "%.6g", 16384 / gpn * 54 * 24 / 419 }')
run estimate -m $M -s h100 -n 16384 --set "reliability.node_mtbf=$own h"
g2=$(sed -n 's/^goodput *\([0-9.]*\) %.*/\1/p' "$T/out")
check "with Llama 3's own 419 in 54 days (node MTBF $own h) the arithmetic gives $g2 %, above 90 % as Meta reports" \
    awk -v g="$g2" 'BEGIN { exit !(g != "" && g > 90 && g < 100) }'

# ---- the limits ----
run estimate -m $M -s h100 -n 16384 --set 'reliability.node_mtbf=0 s'
if grep -q '^goodput *100 % (no part has an MTBF' "$T/out" && ! grep -q 'lost to failures' "$T/out"; then ok "no part failing: goodput 100 %, the failure-free time"; else nok "no part failing: goodput 100 %" "$(grep -E '^(goodput|training)' "$T/out")"; fi
run estimate -s cs3 --set 'reliability.system_mtbf=1 min'
if [ "$rc" -eq 1 ] && grep -q 'never finishes (job MTBF 60 s' "$T/out" && grep -q 'failures_outpace' "$T/out"; then ok "an MTBF below the restart: never finishes, infeasible, exit 1"; else nok "an MTBF below the restart: never finishes, exit 1" "exit $rc: $(grep -E '^(goodput|infeasible)' "$T/out")"; fi

# ---- weight streaming: MemoryX writes the checkpoint ----
run estimate -m gpt3-175b -s cs3 -n 16
cp "$T/out" "$T/ws"
g=$(sed -n 's/^goodput *\([0-9.]*\) %.*/\1/p' "$T/ws")
check "gpt3-175b on 16 CS-3: goodput $g % in (50, 100)" awk -v g="$g" 'BEGIN { exit !(g != "" && g > 50 && g < 100) }'
S=$(sed -n 's/^memoryx *\([0-9]*\) servers.*/\1/p' "$T/ws")
cb=$(show_val cs3 reliability.write_bandwidth)
state=$(sed -n 's/.*state \([0-9.]* [A-Z]*B\) (.*/\1/p' "$T/ws" | head -n 1)
out=$(secs "$(sed -n 's/^goodput .* checkpoint in \([0-9.e+]* [a-z]*\) every.*/\1/p' "$T/ws")")
want=$(awk -v s="$S" -v b="$cb" -v st="$state" 'BEGIN { split(st, a, " "); f = a[2] == "TB" ? 1e12 : a[2] == "PB" ? 1e15 : 1e9; printf "%.17g", a[1] * f / (s * b) }')
check "the checkpoint ($out s) is the state ($state) over $S MemoryX servers' bandwidth" near "$out" "$want" 2e-3
# the sweep's time column includes the same lost time
"$CP" estimate -m gpt3-175b -s cs3 -n 16 --csv >"$T/e.csv" 2>/dev/null
"$CP" sweep -m gpt3-175b -s cs3 --systems 16 >"$T/s.csv" 2>/dev/null
et=$(csv_col "$T/e.csv" time_to_train_s)
st=$(csv_col "$T/s.csv" time_to_train_s)
check "sweep's time_to_train_s ($st) is estimate's, failures included ($et)" near "$st" "$et" 1e-12
wall_ws=$(secs "$(sed -n 's/^training .* steps: \([0-9.e+]* [a-z]*\).*/\1/p' "$T/ws")")
check "estimate --csv's time ($et s) is the wall time printed ($wall_ws s)" near "$et" "$wall_ws" 1e-3

echo "# cli_goodput done"
