#!/bin/sh
# Command-line tests of `sensitivity`: one row per numeric hardware key
# but the limits and capacities (named under the table), sorted by
# |elasticity|, the leading key right for the regime, undefined
# rows last, the ranges from the file, help and usage errors.  Prints
# "ok N - what" or "not ok N - what" per check and "# cli_sensitivity done".
# On GPU systems: the time the layout search's fastest layout's at -n, the
# matmul rate's elasticity near minus the matmul share, links that carry
# little near 0, keys the time does not read 0, and a count where no
# layout fits or divides refused as estimate refuses it.
. "$(dirname "$0")/lib.sh"

# run ARGS...: as lib.sh's, with CR stripped from stdout (CSV records end
# in CR LF)
run() {
    "$CP" "$@" >"$T/raw" 2>"$T/err"
    rc=$?
    tr -d '\r' <"$T/raw" >"$T/out"
}

# The numeric keys of a hardware description: every key `show --csv` lists
# (those the file gives and the optional ones it leaves out, such as
# memoryx.server_flash_bandwidth) except system.name, the tiers and the
# [chip] figures (only claims reads them: no parameters), sorted.
file_keys() {
    "$CP" show "$1" --csv | tr -d '\r' |
        awk -F, 'NR > 1 && $1 ~ /^[a-z]+\.[a-z_0-9]+$/ && $1 != "system.name" && $1 != "system.kind" &&
            $1 !~ /^chip\./ { print $1 }' | sort
}

# ---- GPT-3 175B on 192 CS-2 at two sequences each (compute and streams
# both matter), CSV ----
run sensitivity -m gpt3-175b -s cs2 -n 192 --batch 384 --csv
csv="$T/gpt3.csv"
cp "$T/out" "$csv"
if [ "$rc" -eq 0 ] && [ -s "$csv" ]; then ok "sensitivity --csv exits 0"; else nok "sensitivity --csv exits 0" "exit $rc: $(head -c 300 "$T/err")"; fi
want='key,value,unit,spread,elasticity,abserr,below,above'
if [ "$(head -n 1 "$csv")" = "$want" ]; then ok "csv header"; else nok "csv header" "$(head -n 1 "$csv")"; fi

# Keys that are no figure to measure (issue 18): limits, capacities, the
# vendor's bytes per parameter, which the model does not use, and the
# model's own error, which only --uncertainty draws (issue 32).
NOT_RANKED="system.max_systems system.max_matmul_dim system.sram memoryx.server_memory
memoryx.server_flash activation.server_memory memoryx.bytes_per_param system.model_error"
echo $NOT_RANKED | tr ' ' '\n' | sort >"$T/not_ranked"
tail -n +2 "$csv" | cut -d, -f1 | sort >"$T/keys"
file_keys cs2 | grep -vx 'cost.currency' | comm -23 - "$T/not_ranked" >"$T/want_keys" # a word
if [ "$(wc -l <"$T/want_keys")" -ge 25 ] && cmp -s "$T/keys" "$T/want_keys"; then
    ok "one row per ranked numeric key of hw/cs2.ini ($(wc -l <"$T/keys" | tr -d ' '))"
else
    nok "one row per ranked numeric key of hw/cs2.ini" "$(diff "$T/want_keys" "$T/keys" | head -n 5 | tr '\n' ' ')"
fi
hit=$(comm -12 "$T/keys" "$T/not_ranked" | tr '\n' ' ')
[ -z "$hit" ] && ok "limits, capacities and the vendor's sizing are not ranked" ||
    nok "limits, capacities and the vendor's sizing are not ranked" "$hit"

# sorted: |elasticity| never grows down the table; empty cells only at the end
sorted=$(tail -n +2 "$csv" | awk -F, '
    $5 == "" { blank = 1; next }
    blank { print "defined row " $1 " after an undefined one"; exit }
    { e = $5 < 0 ? -$5 : $5; if (NR > 1 && e > prev + 1e-15) { print $1 " (" e ") above " prev; exit } prev = e }')
if [ -z "$sorted" ]; then ok "rows sorted by |elasticity|, undefined last"; else nok "rows sorted by |elasticity|, undefined last" "$sorted"; fi

# compute-bound at 192 CS-2 (estimate says so): the wafer's rate leads
bn=$("$CP" estimate -m gpt3-175b -s cs2 -n 192 | sed -n 's/.*bottleneck: *\([a-z_]*\).*/\1/p')
top=$(sed -n 2p "$csv" | cut -d, -f1)
top_e=$(sed -n 2p "$csv" | cut -d, -f5)
case "$bn:$top" in
compute:system.peak_flops | compute:system.utilization) ok "top key $top for a $bn-bound job" ;;
*) nok "top key for the regime" "bottleneck '$bn', top key '$top'" ;;
esac
check "top elasticity between -1 and -0.3 ($top_e)" \
    awk -v e="$top_e" 'BEGIN { exit !(e != "" && e >= -1 && e <= -0.3) }'

last=$(tail -n 1 "$csv")
case "$last" in
reliability.storage_bandwidth,0,B/s,0,,,,) ok "zero-valued key last with empty cells" ;;
*) nok "zero-valued key last with empty cells" "$last" ;;
esac

u=$(grep '^system.utilization,' "$csv" | cut -d, -f2,4)
f=$(sed -n 's/^utilization = \([0-9.]*\) +- \([0-9.]*\)$/\1,\2/p' hw/cs2.ini)
check "utilization with the file's value and range ($u; file $f)" \
    awk -v u="$u" -v f="$f" 'BEGIN { split(u, a, ","); split(f, b, ",");
        exit !(b[1] > 0 && a[1] == b[1] && a[2] > b[2] * 0.99999 && a[2] < b[2] * 1.00001) }'

# MemoryX sized for the run: as many servers as feed the stream, so their
# network does not matter (a slower server network means more servers)
mx=$(grep '^memoryx.server_network,' "$csv")
check "memoryx.server_network with servers sized per run: no effect ($mx)" \
    awk -v r="$mx" 'BEGIN { split(r, a, ","); exit !(a[5] == 0 && a[7] == 0 && a[8] == 0) }'

# 4 MemoryX servers of 37.5 GB/s: three equal 150 GB/s stream rates (the
# update made negligible, else 4 servers set the pace): lowering the
# servers' network hurts, raising it does nothing
FOUR="--memoryx-servers 4 --set memoryx.server_update_flops=1EFLOP/s --set memoryx.server_memory_bandwidth=1PB/s"
# shellcheck disable=SC2086
run sensitivity -m gpt3-175b -s cs2 -n 192 --batch 384 $FOUR --csv
mx=$(grep '^memoryx.server_network,' "$T/out")
check "4 servers: memoryx.server_network below < -0.3, above 0 ($mx)" \
    awk -v r="$mx" 'BEGIN { split(r, a, ","); exit !(a[7] < -0.3 && a[8] == 0) }'
# without the faster update the 4 servers' DRAM bandwidth leads
run sensitivity -m gpt3-175b -s cs2 -n 192 --batch 384 --memoryx-servers 4 --csv
top=$(sed -n 2p "$T/out" | cut -d, -f1)
check "4 servers: the update's DRAM bandwidth leads ($top)" [ "$top" = memoryx.server_memory_bandwidth ]

np=$(grep '^swarmx.node_power,' "$csv" | cut -d, -f5)
if [ "$np" = "0" ]; then ok "node power does not enter time"; else nok "node power does not enter time" "$np"; fi

# ---- text ----
# shellcheck disable=SC2086
run sensitivity -m gpt3-175b -s cs2 -n 192 --batch 384 $FOUR
if [ "$rc" -eq 0 ] && head -n 1 "$T/out" | grep -q '^GPT-3 175B on 192 x CS-2.*time-to-train [0-9.]* d'; then
    ok "text: header names the configuration and its time-to-train"
else
    nok "text: header names the configuration and its time-to-train" "exit $rc: $(head -n 1 "$T/out")"
fi
if grep -q '^system.peak_flops  *7.5 PFLOP/s  *-0\.[0-9]\{3\}  *time ~ value^-0\.' "$T/out"; then
    ok "text: value with unit, elasticity and reading"
else
    nok "text: value with unit, elasticity and reading" "$(grep peak_flops "$T/out")"
fi
if grep -q '^system.utilization .*+- [0-9.]* ([0-9.]* %)' "$T/out" &&
    grep -q '^memoryx.server_network .*kink: ' "$T/out"; then
    ok "text: range and kink shown"
else
    nok "text: range and kink shown" "$(grep -e '^system.utilization' -e '^memoryx.server_network' "$T/out" | tr '\n' ' ')"
fi

# the keys left out are named under the table, with a reason, and in the
# man page's entry
sed -n '/^not ranked:/,$p' "$T/out" | tail -n +2 | tr -s ', :' '\n' | grep -E '^[a-z]+\.[a-z_]+$' |
    sort >"$T/named"
if cmp -s "$T/named" "$T/not_ranked" && sed -n '/^not ranked:/,$p' "$T/out" | grep -q 'whole steps'; then
    ok "text: the keys not ranked are named with why"
else
    nok "text: the keys not ranked are named with why" "$(sed -n '/^not ranked:/,$p' "$T/out" | head -n 4)"
fi
sed -n '/^\.It Cm sensitivity/,/^\.It Cm /p' man/cerebras-plan.1 >"$T/entry"
miss=
for k in $NOT_RANKED; do grep -q "$k" "$T/entry" || miss="$miss $k"; done
[ -z "$miss" ] && ok "the man entry names the keys not ranked" || nok "the man entry names the keys not ranked" "$miss"

# ---- a stream-bound job: Megatron 1T on 16 CS-3, one sequence each; the
# MemoryX servers sized to feed the port, so the rates that lead are the
# system's port and the SwarmX link (weights, and gradients) and the SwarmX
# reduce (gradients, reduce_bandwidth / fan-out = 150 GB/s too) ----
run sensitivity -m megatron-1t -s cs3 -n 16 --batch 16 --csv
top=$(sed -n 2,4p "$T/out" | cut -d, -f1 | sort | tr '\n' ' ')
if [ "$rc" -eq 0 ] && [ "$top" = "swarmx.link_bandwidth swarmx.reduce_bandwidth system.io_bandwidth " ]; then
    ok "stream-bound job: the three stream rates lead"
else
    nok "stream-bound job: the three stream rates lead" "exit $rc; top three: $top"
fi
sn=$(grep '^memoryx.server_network,' "$T/out" | cut -d, -f5)
if [ "$sn" = "0" ]; then ok "stream-bound job: servers sized per run, their network does not matter"; else nok "stream-bound job: servers sized per run, their network does not matter" "$sn"; fi
pf=$(grep '^system.peak_flops,' "$T/out" | cut -d, -f5)
if [ "$pf" = "0" ]; then ok "stream-bound job: peak FLOP/s does not matter"; else nok "stream-bound job: peak FLOP/s does not matter" "$pf"; fi

# ---- GPU systems: GPT-3 175B on 1024 H100, the time that of the layout
# search's fastest layout at the job's own count ----
run sensitivity -s h100 -n 1024 --csv
gcsv="$T/h100.csv"
cp "$T/out" "$gcsv"
if [ "$rc" -eq 0 ] && [ "$(head -n 1 "$gcsv")" = "$want" ]; then ok "h100: exits 0 with the same columns"; else nok "h100: exits 0 with the same columns" "exit $rc: $(head -c 300 "$T/err")"; fi
# one row per numeric key but the claims' figures (no parameters) and the
# node's shape and the capacities (not ranked)
GPU_NOT_RANKED="system.gpus_per_node network.nvlink_domain gpu.hbm fit.hbm_usable fit.model_error"
echo $GPU_NOT_RANKED gpu.cores gpu.l2_cache gpu.die_area_mm2 | tr ' ' '\n' | sort >"$T/gpu_out"
tail -n +2 "$gcsv" | cut -d, -f1 | sort >"$T/gkeys"
file_keys h100 | grep -vx 'cost.currency' | comm -23 - "$T/gpu_out" >"$T/want_gkeys"
if [ "$(wc -l <"$T/want_gkeys")" -ge 20 ] && cmp -s "$T/gkeys" "$T/want_gkeys"; then
    ok "h100: one row per ranked numeric key ($(wc -l <"$T/gkeys" | tr -d ' '))"
else
    nok "h100: one row per ranked numeric key" "$(diff "$T/want_gkeys" "$T/gkeys" | head -n 5 | tr '\n' ' ')"
fi
# the matmul rate: minus about the matmul share of the step (estimate's
# parts; a little more, as the pipeline bubble is micro-batches of it)
share=$("$CP" estimate -s h100 -n 1024 | awk '$1 == "matmul" && $NF == "%" { print $(NF - 1) / 100 }')
pk=$(grep '^gpu.peak_bf16,' "$gcsv" | cut -d, -f5)
check "h100: peak_bf16 elasticity $pk near minus the matmul share $share" \
    awk -v e="$pk" -v s="$share" 'BEGIN { d = e + s; exit !(s > 0.5 && e < 0 && d < 0.05 && d > -0.05) }'
# little traffic crosses the links at this layout (dp-comm 0): near 0, and
# never positive (a faster link cannot slow the fastest layout)
for k in network.nvlink_bandwidth network.scaleout_bandwidth; do
    e=$(grep "^$k," "$gcsv" | cut -d, -f5)
    check "h100: $k elasticity $e in (-0.1, 0]" awk -v e="$e" 'BEGIN { exit !(e != "" && e <= 0 && e > -0.1) }'
done
# power does not enter the time, nor the FP8 rate of a BF16 run
for k in gpu.power system.node_power gpu.peak_fp8; do
    r=$(grep "^$k," "$gcsv")
    check "h100: $k does not enter the time ($r)" \
        awk -v r="$r" 'BEGIN { split(r, a, ","); exit !(r != "" && a[5] == 0 && a[7] == 0 && a[8] == 0) }'
done
last=$(tail -n 1 "$gcsv")
case "$last" in
gpu.peak_fp4,0,FLOP/s,0,,,,) ok "h100: the absent FP4 rate last with empty cells" ;;
*) nok "h100: the absent FP4 rate last with empty cells" "$last" ;;
esac
# at FP8 the FP8 rate leads over the 16-bit one (attention and logits only)
run sensitivity -s h100 -n 1024 --precision fp8 --csv
p8=$(grep '^gpu.peak_fp8,' "$T/out" | cut -d, -f5)
p16=$(grep '^gpu.peak_bf16,' "$T/out" | cut -d, -f5)
check "h100 --precision fp8: peak_fp8 $p8 < -0.5 < peak_bf16 $p16 < 0" \
    awk -v a="$p8" -v b="$p16" 'BEGIN { exit !(a < -0.5 && b > -0.5 && b < 0) }'
# text: the layout in the header, the keys not ranked under the table
run sensitivity -s h100 -n 1024
if [ "$rc" -eq 0 ] && head -n 1 "$T/out" | grep -q '^GPT-3 175B on 1024 x H100.*TP [0-9]* x PP [0-9]*.*: time-to-train [0-9.]* d, bottleneck matmul$'; then
    ok "h100 text: header names the layout and the time-to-train"
else
    nok "h100 text: header names the layout and the time-to-train" "exit $rc: $(head -n 1 "$T/out")"
fi
sed -n '/^not ranked:/,$p' "$T/out" | tail -n +2 | tr -s ', :' '\n' | grep -E '^[a-z]+\.[a-z_]+$' | sort >"$T/gnamed"
echo $GPU_NOT_RANKED | tr ' ' '\n' | sort >"$T/gnot"
if cmp -s "$T/gnamed" "$T/gnot"; then ok "h100 text: the keys not ranked are named"; else nok "h100 text: the keys not ranked are named" "$(tr '\n' ' ' <"$T/gnamed")"; fi
miss=
for k in $GPU_NOT_RANKED; do grep -q "$k" "$T/entry" || miss="$miss $k"; done
[ -z "$miss" ] && ok "the man entry names the GPU keys not ranked" || nok "the man entry names the GPU keys not ranked" "$miss"
# a count where no layout fits: refused as estimate refuses it, exit 1;
# one that no layout divides: exit 2
run sensitivity -s h100 -n 8
if [ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && grep -q 'on 8 x h100: no layout of 8 GPUs fits in memory' "$T/err"; then
    ok "h100 -n 8: no layout fits, exit 1 with the search's reason"
else
    nok "h100 -n 8: no layout fits, exit 1 with the search's reason" "exit $rc: $(cat "$T/err")"
fi
run sensitivity -s h100 -n 999983
if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'on 999983 x h100: ' "$T/err"; then
    ok "h100 -n 999983 (prime): no layout divides, exit 2"
else
    nok "h100 -n 999983 (prime): no layout divides, exit 2" "exit $rc: $(cat "$T/err")"
fi
# a weight-streaming system refuses the GPU layout options by name
run sensitivity -s cs2 --tp 2
if [ "$rc" -eq 2 ] && grep -q -- '--tp applies to GPU systems' "$T/err"; then ok "cs2 --tp: exit 2 naming the option"; else nok "cs2 --tp: exit 2 naming the option" "exit $rc: $(cat "$T/err")"; fi

# ---- help and usage ----
run sensitivity --help
if [ "$rc" -eq 0 ] && grep -q '^usage: cerebras-plan sensitivity' "$T/out"; then ok "sensitivity --help"; else nok "sensitivity --help" "exit $rc"; fi
run help sensitivity
if [ "$rc" -eq 0 ] && grep -q 'elasticity' "$T/out"; then ok "help sensitivity"; else nok "help sensitivity" "exit $rc"; fi
run sensitivity --no-such-option
if [ "$rc" -eq 2 ] && [ -s "$T/err" ] && [ ! -s "$T/out" ]; then ok "bad option: exit 2"; else nok "bad option: exit 2" "exit $rc"; fi
run sensitivity --weak
if [ "$rc" -eq 2 ] && grep -q 'weak' "$T/err"; then ok "option of another command: exit 2"; else nok "option of another command: exit 2" "exit $rc"; fi
run sensitivity -n 0
if [ "$rc" -eq 2 ] && grep -q -- '-n' "$T/err"; then ok "bad -n: exit 2"; else nok "bad -n: exit 2" "exit $rc: $(cat "$T/err")"; fi
run sensitivity -m no-such-model
if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ]; then ok "unknown model: exit 2"; else nok "unknown model: exit 2" "exit $rc"; fi

# ---- --metric energy and --metric cost: the power and price keys rank (issue 32) ----
# elasticity of KEY in the CSV of the last run
elof() { awk -F, -v k="$1" '$1 == k { print $5 }' "$T/out"; }
"$CP" estimate -m gpt3-175b -s cs3 -n 22 >"$T/est"
# the systems' share of the power and the energy's share of the cost, as
# estimate prints them
sysw=$(sed -n 's/^energy .* at \([0-9.]*\) kW: systems \([0-9.]*\) kW.*/\2 \1/p' "$T/est")
ecost=$(sed -n 's/^cost *\$\([0-9.]*\)M:.*energy \$\([0-9.]*\)k .*/\2 \1/p' "$T/est")
run sensitivity -m gpt3-175b -s cs3 -n 22 --metric energy --csv
e=$(elof system.power)
if [ "$rc" -eq 0 ] && echo "$sysw" | awk -v e="$e" '{ d = e - $1 / $2; exit !(NF == 2 && d < 0.005 && d > -0.005) }'; then
    ok "--metric energy: system.power's elasticity is the systems' share of the power ($e)"
else nok "--metric energy: system.power" "elasticity '$e', systems and total kW '$sysw'"; fi
run sensitivity -m gpt3-175b -s cs3 -n 22 --metric cost --csv
p=$(elof cost.pue); k=$(elof cost.energy_price); y=$(elof cost.years)
if [ "$rc" -eq 0 ] && echo "$ecost" | awk -v p="$p" -v k="$k" -v y="$y" '{ s = $1 / 1000 / $2;
        exit !(NF == 2 && p - s < 0.002 && s - p < 0.002 && p - k < 1e-9 && k - p < 1e-9 &&
               y + 1 - s < 0.002 && -(y + 1 - s) < 0.002) }'; then
    ok "--metric cost: PUE and energy price at the energy's share of the cost ($p), years at minus the rest ($y)"
else nok "--metric cost: the price keys" "pue '$p' price '$k' years '$y', energy and total '$ecost'"; fi
run sensitivity -m gpt3-175b -s cs3 -n 22 --metric time --csv
if [ "$rc" -eq 0 ] && [ "$(elof cost.pue)" = 0 ]; then ok "--metric time: the price keys do not move the time"; else nok "--metric time: cost.pue" "$(elof cost.pue)"; fi
run sensitivity --metric carbon
if [ "$rc" -eq 2 ] && grep -q -- "--metric 'carbon': expected time, energy or cost" "$T/err" && [ ! -s "$T/out" ]; then
    ok "--metric carbon: exit 2 naming the flag"
else nok "--metric carbon: exit 2" "exit $rc: $(cat "$T/err")"; fi

echo "# cli_sensitivity done"
