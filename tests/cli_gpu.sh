#!/bin/sh
# Command-line tests of GPU systems (issue 21): estimate's layout search on
# every shipped GPU and model (finite numbers, fastest first, every kept
# layout fits and multiplies out to N), fixed figures respected, the exit
# codes of the issue (2: a layout that does not divide, a precision the GPU
# lacks, a weight-streaming option; 1: nothing fits, with the bytes), list
# and show on GPU descriptions, and the weight-streaming commands refusing
# them by name.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_gpu done".
. "$(dirname "$0")/lib.sh"

NANINF='-?(nan|inf|infinity)'
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
# under valgrind (run.sh --valgrind sets VGLOG) a run costs about a second:
# one size there
ks="8 512 4096"
[ -n "${VGLOG:-}" ] && ks=512
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
check "text: time-to-train in days" grep -Eq '^training .* [0-9.]+ d$' "$T/out"
check "text: energy at whole nodes" grep -q 'nodes at 10.2 kW each' "$T/out"

# ---- exit codes of the issue ----
expect_err "tp = 16 does not divide the NVLink domain of 8 GPUs" \
    "--tp 16 on an 8-GPU NVLink domain: exit 2 naming the figure" \
    estimate -m gpt3-175b -s h100 -n 1024 --tp 16
expect_err "pp = 5 divides neither the 96 layers nor 98" \
    "--pp 5 with 96 layers: exit 2 naming the figure" estimate -m gpt3-175b -s h100 -n 1000 --tp 8 --pp 5
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
          if (s - $c["speedup"] > 1e-9 * s || $c["speedup"] - s > 1e-9 * s) exit 1
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
run plan -m gpt3-175b -s h100 --deadline 30d --csv
met=$(csv_col "$T/out" met) g=$(csv_col "$T/out" gpus) t=$(csv_col "$T/out" time_to_train_s)
if [ "$rc" -eq 0 ] && [ "$met" = 1 ] && awk -v t="$t" 'BEGIN { exit !(t <= 30 * 86400) }'; then
    # no smaller whole-node count may meet it: each one's fastest layout misses
    small=
    k=8
    while [ "$k" -lt "$g" ]; do
        r=$("$CP" estimate -m gpt3-175b -s h100 -n $k --csv 2>/dev/null | tr -d '\r' |
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     NR == 2 { print $c["time_to_train_s"] }')
        [ -n "$r" ] && awk -v t="$r" 'BEGIN { exit !(t <= 30 * 86400) }' && small="$small $k"
        k=$((k + 8))
    done
    if [ -z "$small" ]; then ok "plan --deadline 30d on H100: $g GPUs meet it, no smaller whole-node count does (by estimate)"; else nok "plan: smaller counts meet it" "$small"; fi
else
    nok "plan --deadline 30d on H100" "exit $rc met $met: $(head -c 300 "$T/err")"
fi
expect_rc 1 "plan --deadline 1h on H100: unreachable, exit 1" plan -m gpt3-175b -s h100 --deadline 1h
expect_err "only --deadline is a target" "plan --energy on a GPU: exit 2" \
    plan -m gpt3-175b -s h100 --energy 1GWh

# ---- show, and the commands that take weight-streaming systems only ----
run show h100 --csv
check "show h100: kind gpu and the HBM" sh -c "tr -d '\r' <'$T/out' | grep -q '^system.kind,gpu' &&
    tr -d '\r' <'$T/out' | grep -q '^gpu.hbm,'"
for c in "capacity" "simulate" "sensitivity"; do
    # shellcheck disable=SC2086
    expect_err "h100.ini is a GPU system (kind = gpu)" "$c -s h100: exit 2 naming the kind" \
        $c -s h100
done

echo "# cli_gpu done"
