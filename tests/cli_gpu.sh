#!/bin/sh
# Command-line tests of GPU systems (issue 21): estimate's layout search on
# every shipped GPU and model (finite numbers, fastest first, every kept
# layout fits and multiplies out to N), fixed figures respected, the exit
# codes of the issue (2: a layout that does not divide, a precision the GPU
# lacks, a weight-streaming option; 1: nothing fits, with the bytes), list
# and show on GPU descriptions, and the weight-streaming commands refusing
# them by name; issue 29: --cp, --vp and --fsdp kept on every row and
# shown, refused naming the flag when they cannot divide and on
# weight-streaming systems, and model.flash_attention=off costing memory.
# Prints "ok N - what" or "not ok N - what" per check and "# cli_gpu done".
. "$(dirname "$0")/lib.sh"

NANINF='-?(nan|inf|infinity)'
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 > b + 0) }'; }
gpus=$("$CP" list hw --csv | tr -d '\r' | awk -F, 'NR > 1 && $3 == "gpu" { print $1 }')
models=$("$CP" list models --csv | tr -d '\r' | tail -n +2 | cut -d, -f1)
if [ "$(echo $gpus)" = "a100 b200 gb200 h100 h200" ]; then
    ok "list hw names the five GPU systems with model gpu"
else
    nok "list hw names the five GPU systems with model gpu" "$gpus"
fi

# ---- every GPU x model: exit 0 with finite, ordered, consistent rows, or
# exit 1 (nothing fits) with the bytes; never anything else ----
bad= nodiv=0
# with every run under valgrind (run.sh --valgrind-all sets VGALL=1) a run
# costs about a second: one size there
ks="8 512 4096"
[ "${VGALL:-0}" = 1 ] && ks=512
for g in $gpus; do
    for m in $models; do
        for k in $ks; do
            run estimate -m "$m" -s "$g" -n $k --csv
            if [ "$rc" -eq 2 ] && grep -q "no layout of $k GPUs divides the job" "$T/err"; then
                # a batch too small for the GPUs: refused, not evaluated
                nodiv=$((nodiv + 1))
                continue
            fi
            if [ "$rc" -eq 1 ]; then
                grep -q "bytes per GPU against" "$T/err" || bad="$bad $m/$g/$k:no-bytes"
                continue
            fi
            [ "$rc" -eq 0 ] || { bad="$bad $m/$g/$k:exit$rc"; continue; }
            grep -Eiqw -- "$NANINF" "$T/out" && bad="$bad $m/$g/$k:naninf"
            tr -d '\r' <"$T/out" | awk -F, -v n=$k '
                NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { if ($c["tp"] * $c["pp"] * $c["dp"] * $c["cp"] != n) exit 1
                  if ($c["mem_per_gpu_B"] > $c["mem_usable_B"]) exit 1
                  if ($c["vp"] > 1 && $c["micro_batches"] < $c["pp"]) exit 1
                  if (NR > 2 && $c["step_time_s"] < last) exit 1
                  last = $c["step_time_s"] }' || bad="$bad $m/$g/$k:rows"
        done
    done
done
if [ -z "$bad" ] && [ "$nodiv" -le 40 ]; then ok "estimate on every GPU x model x {$ks}: finite, fastest first, fits, tp pp dp cp = N, interleaving only with pp micro-batches ($nodiv refused: batch below the GPUs)"; else nok "estimate on every GPU x model" "$bad"; fi

# ---- fixed figures ----
run estimate -m gpt3-175b -s h100 -n 512 --tp 4 --pp 8 --precision fp8 --csv
if [ "$rc" -eq 0 ] && tr -d '\r' <"$T/out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["tp"] != 4 || $c["pp"] != 8 || $c["precision"] != "fp8" { exit 1 }'; then
    ok "--tp 4 --pp 8 --precision fp8: every row keeps them (MLPerf v3.1's GPT-3 layout)"
else
    nok "--tp 4 --pp 8 --precision fp8: every row keeps them" "$(head -c 300 "$T/err")"
fi
run estimate -m gpt3-175b -s h100 -n 512 --set model.recompute=full --csv
if [ "$rc" -eq 0 ] && tr -d '\r' <"$T/out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["recompute"] != "full" { exit 1 }'; then
    ok "--set model.recompute=full fixes the recompute of every row"
else
    nok "--set model.recompute=full fixes the recompute" "$(head -c 300 "$T/err")"
fi
run estimate -m gpt3-175b -s h100 -n 1024
check "text: the layout, the memory, the step's parts and the runners-up" \
    grep -q '^layout  *TP ' "$T/out"
check "text: time-to-train in days" grep -Eq '^training .* [0-9.]+ d( with the expected time lost to failures)?$' "$T/out"
check "text: energy at whole nodes" grep -q 'nodes at 10.2 kW each' "$T/out"

# ---- exit codes of the issue ----
# a fixed tp wider than the NVLink domain runs, its traffic at the
# scale-out rate: more tensor-parallel time than tp 8 on the same GPUs
run estimate -m gpt3-175b -s h100 -n 1024 --tp 16 --pp 1 --cp 1 --csv
tp16=$(csv_col "$T/out" tp) ok16=$rc
run estimate -m gpt3-175b -s h100 -n 1024 --tp 16 --pp 1 --cp 1
# the tp-comm part in seconds (the table prints it with its unit)
secs='$1 == "tp-comm" { f = $3 == "ms" ? 1e-3 : $3 == "us" ? 1e-6 : $3 == "s" ? 1 : 0; print $2 * f }'
tc16=$(awk "$secs" "$T/out")
run estimate -m gpt3-175b -s h100 -n 1024 --tp 8 --pp 1 --cp 1
tc8=$(awk "$secs" "$T/out")
if [ "$ok16" -eq 0 ] && [ "$tp16" = 16 ] && awk -v a="$tc16" -v b="$tc8" 'BEGIN { exit !(a > b && b > 0) }'; then
    ok "--tp 16 on an 8-GPU NVLink domain runs (tp-comm $tc16 s against $tc8 s at tp 8)"
else
    nok "--tp 16 on an 8-GPU NVLink domain runs" "exit $ok16, tp $tp16, tp-comm $tc16 / $tc8"
fi
expect_err "no layout of 1000 GPUs divides the job" \
    "--tp 8 --pp 5 on 1000 GPUs (dp 25 does not divide the batch of 1536): exit 2" \
    estimate -m gpt3-175b -s h100 -n 1000 --tp 8 --pp 5
expect_err "pp = 97 stages exceed the 96 layers" \
    "--pp 97 beyond the 96 layers: exit 2 naming the figure" estimate -m gpt3-175b -s h100 -n 776 --tp 8 --pp 97
run estimate -m llama2-70b -s h100 -n 1024 --set model.layers=126 --pp 8 --csv
if [ "$rc" -eq 0 ] && [ "$(csv_col "$T/out" pp)" = 8 ]; then
    ok "--pp 8 with 126 layers: Megatron's uneven split (128 with the embedding and the loss) runs"
else
    nok "--pp 8 with 126 layers runs" "exit $rc: $(head -c 300 "$T/err")"
fi
expect_err "does not divide the 1000 GPUs" "--tp 8 --pp 8 on 1000 GPUs: exit 2 (dp not whole)" \
    estimate -m gpt3-175b -s h100 -n 1000 --tp 8 --pp 8
expect_err "no layout of 1024 GPUs divides the job" \
    "--mbs 5 with a batch of 1536: exit 2" estimate -m gpt3-175b -s h100 -n 1024 --mbs 5
expect_err "a100 has no fp8 tensor rate" "--precision fp8 on an A100: exit 2" \
    estimate -m gpt3-175b -s a100 -n 1024 --precision fp8
expect_err "--precision 'fp16': must be bf16, fp8 or fp4" "--precision fp16: exit 2" \
    estimate -s h100 -n 8 --precision fp16
expect_err "--sparsity applies to weight-streaming systems" "--sparsity on a GPU: exit 2" \
    estimate -s h100 -n 8 --sparsity 0.5
expect_err "--memoryx applies to weight-streaming systems" "--memoryx on a GPU: exit 2" \
    estimate -s h100 -n 8 --memoryx 12TB
expect_err "--tp applies to GPU systems; cs3 is a weight-streaming system" \
    "--tp on a weight-streaming system: exit 2" estimate -s cs3 --tp 4
expect_err "--precision applies to GPU systems" "--precision on cs2 (plan): exit 2" \
    plan -s cs2 --deadline 30d --precision fp8
expect_err "-n '0.5': must be a whole number" "-n 0.5 GPUs: exit 2" estimate -s h100 -n 0.5
run estimate -m gpt3-175b -s h100 -n 8
if [ "$rc" -eq 1 ] && grep -q "no layout of 8 GPUs fits in memory" "$T/err" &&
    grep -q "bytes per GPU against" "$T/err"; then
    ok "GPT-3 175B on 8 H100: exit 1 with the bytes"
else
    nok "GPT-3 175B on 8 H100: exit 1 with the bytes" "exit $rc: $(head -c 300 "$T/err")"
fi

# ---- scale: the fastest layout at each count ----
run scale -m gpt3-175b -s h100 --systems 64..1024x4 --strong --csv
if [ "$rc" -eq 0 ] && tr -d '\r' <"$T/out" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { b = $c["global_batch_tokens"]; n0 = $c["gpus"]; t0 = $c["tokens_per_s"] }
        { if ($c["global_batch_tokens"] != b || $c["feasible"] != 1) exit 1
          s = $c["tokens_per_s"] / t0
          if (s - $c["tps_speedup"] > 1e-9 * s || $c["tps_speedup"] - s > 1e-9 * s) exit 1
          e = s * n0 / $c["gpus"]; if (e - $c["efficiency"] > 1e-9 || $c["efficiency"] - e > 1e-9) exit 1 }
        END { if (NR != 4) exit 1 }'; then
    ok "scale --strong on GPUs: one batch, speedup and efficiency against the first count"
else
    nok "scale --strong on GPUs" "exit $rc: $(head -c 300 "$T/err")"
fi
run scale -m gpt3-175b -s h100 --systems 8,64 --csv
if [ "$rc" -eq 1 ] && tr -d '\r' <"$T/out" | grep -q '^8,-,.*,0,"no layout of 8 GPUs fits in memory'; then
    ok "scale: a count nothing fits is a row with the reason, exit 1"
else
    nok "scale: a count nothing fits is a row with the reason, exit 1" "exit $rc: $(head -c 300 "$T/out")"
fi

# ---- plan: the fewest GPUs for a deadline ----
# est_fig N COLUMN: estimate's COLUMN for gpt3-175b on N H100 (empty when
# no layout runs)
est_fig() {
    "$CP" estimate -m gpt3-175b -s h100 -n "$1" --price 2 --csv 2>/dev/null | tr -d '\r' |
        awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                              NR == 2 { print $c[col] }'
}
# smaller_within G COLUMN LIMIT: the whole-node counts below G whose
# estimate's COLUMN is at most LIMIT (none, when G is the fewest)
smaller_within() {
    k=8
    while [ "$k" -lt "$1" ]; do
        r=$(est_fig $k "$2")
        [ -n "$r" ] && awk -v x="$r" -v l="$3" 'BEGIN { exit !(x <= l) }' && printf ' %s' $k
        k=$((k + 8))
    done
}
run plan -m gpt3-175b -s h100 --deadline 30d --csv
met=$(csv_col "$T/out" met) g=$(csv_col "$T/out" gpus) t=$(csv_col "$T/out" time_to_train_s)
if [ "$rc" -eq 0 ] && [ "$met" = 1 ] && awk -v t="$t" 'BEGIN { exit !(t <= 30 * 86400) }'; then
    # no smaller whole-node count may meet it: each one's fastest layout misses
    small=$(smaller_within "$g" time_to_train_s 2592000)
    if [ -z "$small" ]; then ok "plan --deadline 30d on H100: $g GPUs meet it, no smaller whole-node count does (by estimate)"; else nok "plan: smaller counts meet it" "$small"; fi
else
    nok "plan --deadline 30d on H100" "exit $rc met $met: $(head -c 300 "$T/err")"
fi
expect_rc 1 "plan --deadline 1h on H100: unreachable, exit 1" plan -m gpt3-175b -s h100 --deadline 1h

# ---- plan --energy and --budget on GPUs (issue 31) ----
run plan -m gpt3-175b -s h100 --energy 250MWh --csv
met=$(csv_col "$T/out" met) g=$(csv_col "$T/out" gpus) e=$(csv_col "$T/out" energy_J)
el=$(csv_col "$T/out" energy_limit_J)
if [ "$rc" -eq 0 ] && [ "$met" = 1 ] && [ "$el" = 900000000000 ] &&
    awk -v e="$e" 'BEGIN { exit !(e <= 9e11) }'; then
    small=$(smaller_within "$g" energy_J 9e11)
    if [ -z "$small" ]; then ok "plan --energy 250MWh on H100: $g GPUs use $e J, no smaller whole-node count stays within it (by estimate)"; else nok "plan --energy: smaller counts meet it" "$small"; fi
else
    nok "plan --energy 250MWh on H100" "exit $rc met $met limit $el: $(head -c 300 "$T/err")"
fi
run plan -m gpt3-175b -s h100 --energy 1GWh --deadline 30d --csv
t=$(csv_col "$T/out" time_to_train_s) e=$(csv_col "$T/out" energy_J)
if [ "$rc" -eq 0 ] && [ "$(csv_col "$T/out" met)" = 1 ] &&
    awk -v t="$t" -v e="$e" 'BEGIN { exit !(t <= 30 * 86400 && e <= 3.6e12) }'; then
    ok "plan --energy 1GWh --deadline 30d on H100: both hold"
else
    nok "plan --energy --deadline on H100" "exit $rc t $t e $e"
fi
run plan -m gpt3-175b -s h100 --budget 3e6 --price 2 --csv
g=$(csv_col "$T/out" gpus) c=$(csv_col "$T/out" cost) t=$(csv_col "$T/out" time_to_train_s)
if [ "$rc" -eq 0 ] && [ "$(csv_col "$T/out" met)" = 1 ] && [ "$(csv_col "$T/out" budget)" = 3000000 ] &&
    awk -v c="$c" 'BEGIN { exit !(c <= 3e6) }' && [ "$(est_fig "$g" time_to_train_s)" = "$t" ]; then
    # the fastest within the budget: half and twice the count are slower or over it
    bad=
    for k in $((g / 2)) $((g * 2)); do
        kt=$(est_fig $k time_to_train_s) kc=$(est_fig $k cost)
        [ -n "$kt" ] && awk -v a="$kt" -v b="$t" -v c="$kc" 'BEGIN { exit !(a < b && c <= 3e6) }' &&
            bad="$bad $k"
    done
    if [ -z "$bad" ]; then ok "plan --budget 3e6 --price 2 on H100: $g GPUs cost $c, as estimate says; half and twice as many are slower or over it"; else nok "plan --budget: faster within it" "$bad"; fi
else
    nok "plan --budget on H100" "exit $rc gpus $g cost $c: $(head -c 300 "$T/err")"
fi
# without --price the [cost] keys price the nodes (cerebras-plan(1), Cost)
expect_rc 0 "plan --budget without --price on H100: priced by the [cost] keys, exit 0" \
    plan -m gpt3-175b -s h100 --budget 3e6
expect_rc 1 "plan --energy 1kWh on H100: unreachable, exit 1" plan -m gpt3-175b -s h100 --energy 1kWh
if grep -qF "meets the targets; the nearest is above" "$T/err" && grep -q "^nearest " "$T/out"; then
    ok "plan --energy 1kWh on H100: the nearest count is shown, and why"
else
    nok "plan --energy 1kWh on H100: the nearest" "$(head -c 300 "$T/err")"
fi
expect_err "--allow-sparsity applies to weight-streaming systems" "plan --allow-sparsity on a GPU: exit 2" \
    plan -m gpt3-175b -s h100 --deadline 30d --allow-sparsity

# ---- issue 29: the layouts published runs used (--cp, --vp, --fsdp) and
# the software switches (model keys) ----
# every_row FILE CONDITION: every data row of estimate --csv FILE meets the
# awk CONDITION on c["column"] (at least one row)
every_row() {
    tr -d '\r' <"$1" | awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
        { rows++ } !($2) { bad = 1 } END { exit bad || rows == 0 }"
}
run estimate -m gpt3-175b -s h100 -n 1024 --csv
check "--csv: an fsdp column right after cp" sh -c "head -n 1 '$T/out' | grep -q ',dp,cp,fsdp,micro_batch,'"
run estimate -m gpt3-175b -s h100 -n 1024 --cp 2 --csv
if [ "$rc" -eq 0 ] && every_row "$T/out" '$c["cp"] == 2 && $c["tp"] * $c["pp"] * $c["dp"] * 2 == 1024'; then
    ok "--cp 2: every row keeps cp 2, tp pp cp dp = N"
else
    nok "--cp 2: every row keeps cp 2 (the core's search must honour spec.cp)" "exit $rc: $(head -n 3 "$T/out") $(head -c 300 "$T/err")"
fi
run estimate -m gpt3-175b -s h100 -n 1024 --cp 2
check "text: --cp 2 is shown in the layout" grep -q '^layout .*, CP 2, ' "$T/out"
expect_err "--cp 16 does not divide the 24 GPUs (-n)" \
    "--cp 16 on 24 GPUs: exit 2 naming --cp" estimate -m gpt3-175b -s h100 -n 24 --cp 16
expect_err "--tp 8 x --cp 16 = 128 GPUs does not divide the 192 GPUs (-n)" \
    "--tp 8 --cp 16 on 192 GPUs: exit 2 naming both" estimate -m gpt3-175b -s h100 -n 192 --tp 8 --cp 16
expect_err "--cp 3 on GPT-3 175B: cp = 3" \
    "--cp 3 with a 2048-token sequence: exit 2 naming --cp" estimate -m gpt3-175b -s h100 -n 24 --cp 3
expect_err "--vp 2 with --pp 1 on GPT-3 175B: vp = 2" \
    "--vp 2 with --pp 1: exit 2 naming --vp" estimate -m gpt3-175b -s h100 -n 1024 --pp 1 --vp 2
expect_err "--vp 5 with --pp 8 on GPT-3 175B: vp = 5" \
    "--vp 5 with --pp 8 (12 layers a stage): exit 2 naming --vp" \
    estimate -m gpt3-175b -s h100 -n 1024 --pp 8 --vp 5
run estimate -m gpt3-175b -s h100 -n 1024 --tp 8 --pp 8 --vp 4 --csv
if [ "$rc" -eq 0 ] && every_row "$T/out" '$c["vp"] == 4 && $c["pp"] == 8 && $c["tp"] == 8'; then
    ok "--tp 8 --pp 8 --vp 4: every row keeps vp 4"
else
    nok "--tp 8 --pp 8 --vp 4: every row keeps vp 4 (the core's search must honour spec.vp)" "exit $rc: $(head -n 3 "$T/out") $(head -c 300 "$T/err")"
fi
run estimate -m gpt3-175b -s h100 -n 1024 --vp 3 --csv
if [ "$rc" -eq 0 ] && every_row "$T/out" '$c["vp"] == 3 && $c["pp"] > 1'; then
    ok "--vp 3 alone: every row interleaves 3 chunks on a pipeline the search picks"
else
    nok "--vp 3 alone: every row keeps vp 3 (the core's search must honour spec.vp)" "exit $rc: $(head -n 3 "$T/out") $(head -c 300 "$T/err")"
fi
run estimate -m llama2-7b -s h100 -n 64 --fsdp --csv
if [ "$rc" -eq 0 ] && every_row "$T/out" '$c["fsdp"] == 1'; then
    ok "--fsdp: every row is FSDP (fsdp 1)"
else
    nok "--fsdp: every row is FSDP (the core's search must honour spec.fsdp)" "exit $rc: $(head -n 3 "$T/out") $(head -c 300 "$T/err")"
fi
run estimate -m llama2-7b -s h100 -n 64 --fsdp
if [ "$rc" -eq 0 ] && grep -q '^layout .*, FSDP$' "$T/out" && grep -Eq '^rank +tp +pp +vp +dp +cp +mbs +fsdp ' "$T/out"; then
    ok "text: --fsdp is shown in the layout and in the runners-up"
else
    nok "text: --fsdp is shown in the layout and in the runners-up" "exit $rc: $(grep -E '^(layout|rank)' "$T/out") $(head -c 300 "$T/err")"
fi
expect_err "--fsdp shards over the data-parallel GPUs, but --tp 8 x --pp 1 x --cp 1 = 8 GPUs of the 8 (-n) leave dp = 1" \
    "--fsdp with tp pp cp filling the GPUs: exit 2 naming --fsdp" \
    estimate -m llama2-7b -s h100 -n 8 --tp 8 --pp 1 --cp 1 --fsdp
run estimate -m llama2-70b -s h100 -n 512 --tp 8 --pp 4 --vp 5 --cp 2 --fsdp
if [ "$rc" -eq 0 ] && grep -q '^layout  *TP 8 x PP 4 (VP 5) x DP 8, CP 2, .*, FSDP$' "$T/out"; then
    ok "a published run's whole layout (tp 8 pp 4 vp 5 cp 2, FSDP) is written and shown"
else
    nok "a published run's whole layout (tp 8 pp 4 vp 5 cp 2, FSDP) is written and shown" "exit $rc: $(grep '^layout' "$T/out") $(head -c 300 "$T/err")"
fi
for o in "--cp 2" "--vp 2" "--fsdp"; do
    # shellcheck disable=SC2086
    expect_err "estimate: ${o%% *} applies to GPU systems; cs3 is a weight-streaming system" \
        "$o on a weight-streaming system: exit 2 naming it" estimate -s cs3 $o
done
expect_err "scale: --cp applies to GPU systems" "--cp on cs2 (scale): exit 2" scale -s cs2 --cp 2
expect_err "plan: --fsdp applies to GPU systems" "--fsdp on cs2 (plan): exit 2" \
    plan -s cs2 --deadline 30d --fsdp
# mem FLASH: memory per GPU of one fixed layout of Llama 2 7B on 8 H100
# with model.flash_attention=FLASH
mem() {
    "$CP" estimate -m llama2-7b -s h100 -n 8 --tp 2 --pp 1 --mbs 1 --set model.recompute=none \
        --set model.flash_attention="$1" --csv 2>/dev/null | tr -d '\r' |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c["mem_per_gpu_B"] }'
}
m_on=$(mem on) m_off=$(mem off)
if gt "$m_off" "$m_on"; then
    ok "--set model.flash_attention=off: more memory per GPU ($m_off B against $m_on B)"
else
    nok "--set model.flash_attention=off: more memory per GPU" "on '$m_on' off '$m_off'"
fi
run estimate -m llama2-7b -s h100 -n 8 --tp 2 --pp 1 --mbs 1 --set model.recompute=none --set model.flash_attention=off
check "text: model.flash_attention=off shows the larger memory" grep -q "^memory  *$(awk -v b="$m_off" 'BEGIN { printf "%.4g", b / 1e9 }') GB per GPU" "$T/out"
expect_err "flash_attention" "--set model.flash_attention=maybe: exit 2 naming the key" \
    estimate -s h100 -n 8 --set model.flash_attention=maybe

# ---- show, and the commands that take weight-streaming systems only ----
run show h100 --csv
check "show h100: kind gpu and the HBM" sh -c "tr -d '\r' <'$T/out' | grep -q '^system.kind,gpu' &&
    tr -d '\r' <'$T/out' | grep -q '^gpu.hbm,'"
# (every command on both kinds, and each refusal's whole line: cli_parity.sh)
expect_err "capacity: h100 is a GPU system: capacity sizes MemoryX" \
    "capacity -s h100: exit 2 saying why" capacity -s h100
expect_err "simulate: h100 is a GPU system: the simulator models the weight-streaming pipeline" \
    "simulate -s h100: exit 2 saying why" simulate -s h100

echo "# cli_gpu done"
