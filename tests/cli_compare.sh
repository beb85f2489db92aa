#!/bin/sh
# Command-line tests of `compare`: the two commands of issue 21's "done
# means" succeed with units on their numbers; --csv parses, and its
# weight-streaming side equals what `plan` and `estimate` give; the GPU
# side meets the time and the count below does not; energy = power x
# time and cost = price x units x hours in the CSV; --set gpu:KEY reaches
# the GPU; unreachable deadlines and a model no GPU holds exit 1 with the
# reason; bad flags exit 2 naming the flag.  Prints "ok N - what" or "not
# ok N - what" per check (run.sh counts them) and "# cli_compare done" at
# the end.
. "$(dirname "$0")/lib.sh"

# cmpr ARGS...: run compare; $rc, stdout in $T/out, stderr in $T/err
cmpr() {
    "$CP" compare "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# val FILE QUANTITY COLUMN: column 3 (weight streaming), 4 (GPU) or 5
# (ratio) of a quantity's row of compare --csv (rows without quotes)
val() {
    tr -d '\r' <"$1" | awk -F, -v q="$2" -v c="$3" '$1 == q { print $c }'
}
# near A B TOL: |A - B| <= TOL x |B|
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && d <= t * m) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 <= b + 0) }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 > b + 0) }'; }

DAY=86400

# ---- help ----
"$CP" compare --help >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q -- '--gpu GPU' "$T/out" && grep -q -- '--gpu-price' "$T/out" &&
    grep -q -- '--precision' "$T/out" && ! grep -q -- '--allow-sparsity' "$T/out"; then
    ok "compare --help names --gpu, --gpu-price, --precision, not --allow-sparsity"
else
    nok "compare --help names --gpu, --gpu-price, --precision, not --allow-sparsity" "$(head -n 5 "$T/out")"
fi

# ---- done means: GPT-3 175B by 30 days on CS-3 and H100 ----
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d
check "compare gpt3-175b cs3 h100 --deadline 30d exits 0" test "$rc" -eq 0
check "the deadline table has time-to-train in days on both sides" \
    grep -Eq '^time-to-train +[0-9.]+ d +[0-9.]+ d +[0-9.]+$' "$T/out"
check "the deadline table has power with a unit on both sides" \
    grep -Eq '^power +[0-9.]+ [kM]W +[0-9.]+ [kM]W' "$T/out"
check "the deadline table names systems and GPUs" \
    grep -Eq '^cluster +[0-9]+ systems +[0-9]+ GPUs' "$T/out"
check "the deadline table has an equal-power time" grep -q '^equal power: time-to-train' "$T/out"
check "the output says which power is counted" grep -q '^power: .*node_power.*maximum' "$T/out"

"$CP" compare -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --csv >"$T/d.csv" 2>"$T/err"
rc=$?
check "--csv exits 0" test "$rc" -eq 0
check "--csv header" sh -c "head -n 1 '$T/d.csv' | tr -d '\r' | grep -qx 'quantity,unit,weight_streaming,gpu,gpu_over_weight_streaming'"
check "--csv lines end in CRLF" sh -c "[ \"\$(grep -c \"\$(printf '\r')\$\" '$T/d.csv')\" -eq \"\$(wc -l <'$T/d.csv')\" ]"
bad=$(tr -d '\r' <"$T/d.csv" | awk -F, '$1 != "layout" && NF != 5' | head -n 3)
check "--csv: every row but the layout has 5 fields" test -z "$bad"
check "--csv: the layout row quotes its two texts" \
    sh -c "tr -d '\r' <'$T/d.csv' | grep -Eq '^layout,,\"[^\"]*\",\"tp [0-9]+ pp [0-9]+ [^\"]*\",\$'"
tw=$(val "$T/d.csv" time_to_train 3)
tg=$(val "$T/d.csv" time_to_train 4)
check "--csv: the systems' time within 30 d ($tw s)" le "$tw" $((30 * DAY))
check "--csv: the GPUs' time within 30 d ($tg s)" le "$tg" $((30 * DAY))
check "--csv: the ratio is GPU / weight streaming" near "$(val "$T/d.csv" time_to_train 5)" \
    "$(awk -v a="$tg" -v b="$tw" 'BEGIN { printf "%.17g", a / b }')" 1e-12
for side in 3 4; do
    p=$(val "$T/d.csv" power $side)
    t=$(val "$T/d.csv" time_to_train $side)
    e=$(val "$T/d.csv" energy $side)
    check "--csv: energy = power x time (column $side)" near "$e" "$(awk -v p="$p" -v t="$t" 'BEGIN { printf "%.17g", p * t }')" 1e-12
done
# the weight-streaming side is plan's answer
"$CP" plan -m gpt3-175b -s cs3 --deadline 30d --csv >"$T/p.csv" 2>>"$T/err"
check "the systems equal plan's answer" test "$(val "$T/d.csv" units 3)" = "$(csv_col "$T/p.csv" systems)"
check "the time equals plan's" near "$tw" "$(csv_col "$T/p.csv" time_to_train_s)" 1e-12
check "the power equals plan's" near "$(val "$T/d.csv" power 3)" "$(csv_col "$T/p.csv" power_W)" 1e-12
# the GPUs: whole nodes at node power, and the count below misses
gpus=$(val "$T/d.csv" units 4)
nodes=$(val "$T/d.csv" nodes 4)
# system.node_power of hw/h100.ini, written in kW there
node_w=$(awk '$1 == "node_power" && $4 == "kW" { print $3 * 1000 }' hw/h100.ini)
check "GPUs in whole nodes of 8 ($gpus in $nodes)" test "$((nodes * 8))" -eq "$gpus"
check "GPU power = nodes x system.node_power" near "$(val "$T/d.csv" power 4)" "$(awk -v n="$nodes" -v w="$node_w" 'BEGIN { printf "%.17g", n * w }')" 1e-12
fewer=$(val "$T/d.csv" fewer_time_to_train 4)
check "the GPU count below misses 30 d ($fewer s)" gt "$fewer" $((30 * DAY))
check "the system count below misses 30 d" gt "$(val "$T/d.csv" fewer_time_to_train 3)" $((30 * DAY))
eqw=$(val "$T/d.csv" equal_power 3)
check "equal power: the GPU nodes draw at most the systems' power" le "$(val "$T/d.csv" equal_power 4)" "$eqw"
check "equal power: the weight-streaming power is its cluster's" near "$eqw" "$(val "$T/d.csv" power 3)" 0

# ---- done means: Megatron 1T on 16 CS-3 against B200 ----
cmpr -m megatron-1t -s cs3 --gpu b200 -n 16
check "compare megatron-1t cs3 b200 -n 16 exits 0" test "$rc" -eq 0
check "the -n table has time-to-train in days" \
    grep -Eq '^time-to-train +[0-9.]+ d +[0-9.]+ d' "$T/out"
check "the -n table has energy with a unit" grep -Eq '^energy +[0-9.]+ [kMG]Wh +[0-9.]+ [kMG]Wh' "$T/out"
check "the -n table has 16 systems" grep -Eq '^cluster +16 systems' "$T/out"
"$CP" compare -m megatron-1t -s cs3 --gpu b200 -n 16 --csv --price 1000 --gpu-price 4.5 >"$T/n.csv" 2>"$T/err"
est_csv e -m megatron-1t -s cs3 -n 16 --price 1000
check "-n: the weight-streaming time equals estimate's" near "$(val "$T/n.csv" time_to_train 3)" "$(csv_col "$T/e.csv" time_to_train_s)" 1e-12
check "-n: the weight-streaming cost equals estimate's" near "$(val "$T/n.csv" cost 3)" "$(csv_col "$T/e.csv" cost)" 1e-12
check "-n: the GPUs are as fast" le "$(val "$T/n.csv" time_to_train 4)" "$(val "$T/n.csv" time_to_train 3)"
g=$(val "$T/n.csv" nodes 4)
t=$(val "$T/n.csv" time_to_train 4)
# the rental replaces the capital part; the energy is still charged (cost.h)
en=$(val "$T/n.csv" energy 4)
pue=$(show_val b200 cost.pue)
kwh=$(show_val b200 cost.energy_price)
check "-n: GPU cost = 4.5 x GPUs of the nodes x hours + energy x PUE x price" near "$(val "$T/n.csv" cost 4)" "$(awk -v n="$g" -v t="$t" -v e="$en" -v p="$pue" -v k="$kwh" 'BEGIN { printf "%.17g", 4.5 * n * 8 * t / 3600 + e / 3.6e6 * p * k }')" 1e-12

# ---- the GPU's description and precision ----
"$CP" compare -m gpt3-175b -s cs3 --gpu h100 -n 8 --csv --set gpu:system.node_power=6.85kW >"$T/s.csv" 2>"$T/err"
check "--set gpu:system.node_power reaches the GPU" near "$(val "$T/s.csv" power 4)" "$(awk -v n="$(val "$T/s.csv" nodes 4)" 'BEGIN { printf "%.17g", n * 6850 }')" 1e-12
cmpr -m gpt3-175b -s cs3 --gpu h100 -n 8 --precision fp8
check "--precision fp8 runs the GPU at fp8" sh -c "[ $rc -eq 0 ] && grep -q '^layout .*, fp8, ' '$T/out'"
cmpr -m gpt3-175b -s cs3 --gpu h100 -n 8 --cp 2
check "--cp 2: the GPU layout has cp 2" sh -c "[ $rc -eq 0 ] && grep -q '^layout .* tp [0-9]* pp [0-9]* cp 2 ' '$T/out'"
cmpr -m gpt3-175b -s cs3 --gpu h100 -n 8 --fsdp
check "--fsdp: the GPU layout is FSDP" sh -c "[ $rc -eq 0 ] && grep -q '^layout .*, FSDP, bf16, ' '$T/out'"

# ---- no answer: exit 1 with the reason ----
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 1h
check "a deadline neither side meets exits 1" test "$rc" -eq 1
check "... and says why for each side" sh -c "grep -q '^unreachable (weight streaming): ' '$T/out' && grep -q '^unreachable (GPUs): no count of 8 to 1048576 GPUs meets 1 h' '$T/out'"
# 120T widened to hidden 196608: one layer's weights over tp 8 (116 GB at
# 16 bits) exceed an H100's HBM, even gathered alone under FSDP (two
# activation servers a system hold its 834 GB sequence on the CS-3 side)
cmpr -m 120t -s cs3 --gpu h100 -n 16 --set model.hidden=196608 --act-servers 2
check "a model no GPU count holds exits 1" test "$rc" -eq 1
check "... naming the bytes per GPU" grep -q '^unreachable (GPUs): .*bytes per GPU' "$T/out"

# ---- bad input: exit 2, the flag named ----
expect_err "--gpu is required" "compare without --gpu" compare -m gpt3-175b -s cs3 -n 4
expect_err "give one of --deadline" "compare without --deadline or -n" compare --gpu h100
expect_err "give one of --deadline" "compare with both --deadline and -n" compare --gpu h100 -n 4 --deadline 30d
expect_err "--gpu 'cs3': a weight-streaming system" "a weight-streaming system to --gpu" compare -s cs3 --gpu cs3 -n 4
expect_err "-s 'h100': a GPU system" "a GPU system to -s" compare -s h100 --gpu h100 -n 4
expect_err "--gpu 'h999'" "an unknown --gpu" compare -s cs3 --gpu h999 -n 4
expect_err "--precision 'fp4': " "a precision the GPU lacks" compare -s cs3 --gpu h100 -n 4 --precision fp4
expect_err "--precision 'int8': must be bf16, fp8 or fp4" "an unknown precision" compare -s cs3 --gpu h100 -n 4 --precision int8
expect_err "--tp '5': tp = 5 does not divide the 96 attention heads" "a tp that does not divide" compare -s cs3 --gpu h100 -n 4 --tp 5
expect_err "--pp '97': pp = 97 stages exceed the 96 layers" "a pp beyond the layers" compare -m gpt3-175b -s cs3 --gpu h100 -n 4 --pp 97
expect_err "--cp 3 on GPT-3 175B: cp = 3" \
    "a cp that does not divide the sequence" compare -m gpt3-175b -s cs3 --gpu h100 -n 4 --cp 3
expect_err "--vp 2 with --pp 1 on GPT-3 175B: vp = 2" \
    "a vp without a pipeline" compare -m gpt3-175b -s cs3 --gpu h100 -n 4 --pp 1 --vp 2
expect_err "--mbs '5': " "a micro-batch that does not divide the batch" compare -m gpt3-175b -s cs3 --gpu h100 -n 4 --mbs 5
expect_err "--deadline '5 GB'" "a deadline that is not a time" compare -s cs3 --gpu h100 --deadline '5 GB'
expect_err "--deadline '0s': must be greater than zero" "a deadline of zero" compare -s cs3 --gpu h100 --deadline 0s
expect_err "--gpu-price '-1': must not be negative" "a negative GPU price" compare -s cs3 --gpu h100 -n 4 --gpu-price -1
expect_err "--gpu-price 'x'" "a GPU price that is not a number" compare -s cs3 --gpu h100 -n 4 --gpu-price x
expect_err "--sparsity does not apply" "--sparsity is refused" compare -s cs3 --gpu h100 -n 4 --sparsity 0.5
expect_err "--energy does not apply" "--energy is refused" compare -s cs3 --gpu h100 -n 4 --energy 1MWh
expect_err "--allow-batch does not apply" "--allow-batch is refused" compare -s cs3 --gpu h100 -n 4 --allow-batch
expect_err "system.bogus" "a GPU --set key that does not exist" compare -s cs3 --gpu h100 -n 4 --set gpu:system.bogus=1

# ---- the scans' work bound (issue 30, item 3) ----
# No GPU count can divide the job (5 layers, one head, batch 1, an odd
# sequence): said at once with the figures, not after scanning 2^20 counts.
cmpr -s cs3 --gpu h100 --deadline 30d --set model.layers=5 --set model.heads=1 --batch 1 \
    --set model.seq_len=999999999
if [ "$rc" -eq 1 ] && grep -q 'unreachable (GPUs): no count of GPUs in steps of 8 divides the job: the largest power of two tp pp cp dp can hold together is 1, short of 8; of each: tp 1 (of the 1 heads.*pp 1 (of the 5 layers or 7)' "$T/out"; then
    ok "a job no GPU count divides: said at once, naming the figures"
else
    nok "a job no GPU count divides: said at once, naming the figures" "rc $rc: $(cat "$T/out" "$T/err" | tail -n 3)"
fi
# A prime global batch of 1e12 (its divisors were listed at every count:
# about 1.8 h); the scan is now under a second, and prints no progress
# when stderr is not a terminal.  Activations recomputed: offloaded, a
# batch this large takes a million activation servers, whose failures stop
# the job (goodput).  One CS-3 with its servers (one activation server a
# system) draws what 24 H100 do, too few to hold GPT-3: stderr says there
# is no answer at equal power, and nothing else.
cmpr -s cs3 --gpu h100 -n 1 --batch 999999999989 --activations recompute --csv
if [ "$rc" -eq 0 ] && ! grep -qv '^no answer at equal power: ' "$T/err" &&
    ! grep -q 'GPU counts searched' "$T/err" && grep -q '^equal_power_units,' "$T/out"; then
    ok "a prime batch of 1e12: the GPU scans end, no progress line off a terminal"
else
    nok "a prime batch of 1e12: the GPU scans end, no progress line off a terminal" "rc $rc: $(head -c 300 "$T/err")"
fi

# ---- bands and confidence (issue 32) ----
# ordered A B C: A <= B <= C, none empty
ordered() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { exit !(a != "" && b != "" && c != "" && a + 0 <= b + 0 && b + 0 <= c + 0) }'; }
# the Done-means command prints bands by default, for both sides and the ratio
start=$(date +%s.%N)
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d
end=$(date +%s.%N)
if [ "$rc" -eq 0 ] && grep -q '^uncertainty: 200 draws of each side, independent of each other (seed 1 for weight streaming: [0-9]* ranged keys and system.model_error +- 11.3 %; seed 2 for GPUs: [0-9]* ranged keys and fit.model_error +- 23 %)' "$T/out" &&
    grep -qE '^time-to-train +[0-9.]+ d \[[0-9.]+ d, [0-9.]+ d\] +[0-9.]+ d \[[0-9.]+ d, [0-9.]+ d\] +[0-9.]+ \[[0-9.]+, [0-9.]+\]$' "$T/out" &&
    grep -q '^meets the deadline  *[0-9.]* % of draws  *[0-9.]* % of draws' "$T/out"; then
    ok "compare gpt3-175b cs3 h100 30d prints P50 [P10, P90] of both sides and of the ratio by default ($(echo "$end $start" | awk '{ printf "%.2f", $1 - $2 }') s)"
else
    nok "compare prints bands by default" "rc $rc: $(sed -n '/^uncertainty/,/^the GPU/p' "$T/out" | head -n 8)"
fi
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --csv
cp "$T/out" "$T/band.csv"
good=1
for q in step_time time_to_train energy; do
    for c in 3 4 5; do
        ordered "$(val "$T/band.csv" ${q}_p10 $c)" "$(val "$T/band.csv" ${q}_p50 $c)" "$(val "$T/band.csv" ${q}_p90 $c)" || good=0
    done
done
# the GPU side's band has a width (its fitted keys' ranges and model error)
gw=$(awk -v a="$(val "$T/band.csv" time_to_train_p10 4)" -v b="$(val "$T/band.csv" time_to_train_p90 4)" 'BEGIN { print (b - a) / b }')
if [ "$good" -eq 1 ] && awk -v w="$gw" 'BEGIN { exit !(w > 0.1) }'; then
    ok "CSV: P10 <= P50 <= P90 of each side and of the paired ratio; the GPU band is no point (P10..P90 $gw of P90)"
else
    nok "CSV: ordered bands, the GPU band not a point" "$(grep '_p[159]0,' "$T/band.csv" | head -n 9 | tr '\n' ' ')"
fi
share_w=$(val "$T/band.csv" deadline_share 3) share_g=$(val "$T/band.csv" deadline_share 4)
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --confidence 0.9 --csv
cw=$(val "$T/out" deadline_share 3) cg=$(val "$T/out" deadline_share 4)
uw=$(val "$T/out" units 3) ug=$(val "$T/out" units 4)
pw=$(val "$T/band.csv" units 3) pg=$(val "$T/band.csv" units 4)
if [ "$rc" -eq 0 ] && awk -v a="$cw" -v b="$cg" -v uw="$uw" -v ug="$ug" -v pw="$pw" -v pg="$pg" -v sw="$share_w" -v sg="$share_g" \
    'BEGIN { exit !(a >= 0.9 && b >= 0.9 && uw >= pw && ug >= pg && (sw >= 0.9 || uw > pw) && (sg >= 0.9 || ug > pg)) }'; then
    ok "--confidence 0.9: $uw systems and $ug GPUs (point $pw and $pg, in $share_w and $share_g of draws) meet 30 d in $cw and $cg of the draws"
else
    nok "--confidence 0.9 on both sides" "rc $rc; units $uw $ug (point $pw $pg); shares $cw $cg (point $share_w $share_g)"
fi
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --confidence 0.9
check "--confidence: the text names each side's count and point answer" \
    grep -q "^confidence 0.9: $uw systems (the point answer $pw, in [0-9.]* % of draws) and $ug GPUs (the point answer $pg, in [0-9.]* %)" "$T/out"
for v in 0 1 1.5 abc; do
    cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --confidence "$v"
    check "--confidence $v is bad input naming the flag" sh -c "[ $rc -eq 2 ] && grep -q \"^cerebras-plan: --confidence '$v': must be a share\" '$T/err' && [ ! -s '$T/out' ]"
done
cmpr -m gpt3-175b -s cs3 --gpu h100 -n 16 --confidence 0.9
check "--confidence with -n is bad input" sh -c "[ $rc -eq 2 ] && grep -q 'compare: --confidence needs --deadline' '$T/err'"
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --uncertainty=0 --csv
check "--uncertainty=0: no band rows" sh -c "[ $rc -eq 0 ] && ! grep -q '_p50,\|deadline_share' '$T/out' && grep -q '^time_to_train,' '$T/out'"


# MFU on both sides, one yardstick: the weight-streaming side's is the
# model FLOPs of a step (show's model_flops / tokens x tokens_per_step)
# over step time x N x peak_flops, all read from the tool's own outputs
run compare -m gpt3-175b -s cs3 --gpu h100 -n 16 --csv --uncertainty=0
cv() { grep "^$1," "$T/out" | cut -d, -f"$2"; }
wm=$(cv mfu 3); gm=$(cv mfu 4); wst=$(cv step_time 3); wn=$(cv units 3)
"$CP" show gpt3-175b --csv >"$T/sm"
"$CP" show cs3 --csv >"$T/sh"
mf=$(grep '^model_flops,' "$T/sm" | cut -d, -f2); tk=$(grep '^tokens,' "$T/sm" | cut -d, -f2)
tps=$(grep '^tokens_per_step,' "$T/sm" | cut -d, -f2); pk=$(grep '^system.peak_flops,\|^peak_flops,' "$T/sh" | head -1 | cut -d, -f2)
if awk -v w="$wm" -v g="$gm" 'BEGIN{exit !(w > 0 && w < 1 && g > 0 && g < 1)}'; then ok "compare: MFU on both sides, each a fraction"; else nok "compare: MFU on both sides" "$wm $gm"; fi
if awk -v m="$wm" -v f="$mf" -v t="$tk" -v s="$tps" -v st="$wst" -v n="$wn" -v p="$pk" \
    'BEGIN{e = f / t * s / (st * n * p); d = (m - e) / e; if (d < 0) d = -d; exit !(d < 1e-9)}'; then
    ok "compare: weight-streaming MFU is model FLOPs / (step x N x peak)"
else nok "compare: weight-streaming MFU" "mfu $wm, flops $mf tokens $tk per step $tps step $wst n $wn peak $pk"; fi
em=$("$CP" estimate -m gpt3-175b -s cs3 -n 16 | sed -n 's/^throughput .* MFU \([0-9.]*\) %.*/\1/p')
if [ -n "$em" ] && awk -v e="$em" -v m="$wm" 'BEGIN{d = e - 100 * m; if (d < 0) d = -d; exit !(d <= 0.05)}'; then
    ok "estimate prints the weight-streaming MFU compare gives ($em %)"
else nok "estimate prints the weight-streaming MFU" "estimate '$em', compare $wm"; fi
# the cost row carries each side's currency (the [cost] keys' USD)
cmpr -m gpt3-175b -s cs3 --gpu h100 --deadline 30d --uncertainty=0
if grep -qE '^cost +\$[0-9.]+[kMB]? +\$[0-9.]+[kMB]? +[0-9.]+$' "$T/out"; then
    ok "compare's cost row gives each side in dollars"
else nok "compare's cost row in dollars" "$(grep '^cost' "$T/out" | head -1)"; fi
echo "# cli_compare done"
