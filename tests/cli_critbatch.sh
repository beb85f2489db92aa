#!/bin/sh
# Command-line tests of the critical batch on both kinds of cluster (issue
# 32, item 1).  The critical batch and the tokens a batch needs are worked
# out here from the published law (McCandlish et al. 2018; Kaplan et al.
# 2020) and the [batch] keys `show` reads back, never from a figure the
# tool printed:
#   P the model's parameters, L = (loss_params / P)^loss_exponent,
#   B_crit = critical_tokens / L^(1 / critical_exponent) tokens,
#   tokens at batch B = T (1 + B / B_crit) / (1 + B_ref / B_crit),
#   steps = ceil(tokens / B), time at least steps x step time (more only
#   for what the model adds to the whole run, such as failures),
#   and no run takes fewer than S_min = T / (B_ref + B_crit) steps.
# Weak scaling rows on both kinds charge the penalty (batch_rule penalty),
# their time at least their steps' and never below S_min; every row's
# tta_speedup is the reference's time over the row's and tps_speedup its
# throughput over the reference's; strong rows charge nothing unless
# --batch-penalty; the GPU estimate warns past the critical batch (a
# verdict, exit 0) and --batch-penalty charges its tokens by the formula;
# the GPU descriptions read the same [batch] keys (--set moves them);
# compare charges the job the same penalised tokens on both sides.
# Prints "ok N - what" or "not ok N - what" per check and "# cli_critbatch
# done".
. "$(dirname "$0")/lib.sh"

M=gpt3-175b
P=$(show_val $M params)
T0=$(show_val $M tokens)
BREF=$(show_val $M tokens_per_step)

# crit SYSTEM [SETS...]: B_crit in tokens from SYSTEM's [batch] keys
crit() {
    sys=$1
    shift
    "$CP" show "$sys" "$@" --csv | tr -d '\r' | awk -F, -v p="$P" '
        $1 == "batch.critical_tokens" { ct = $2 } $1 == "batch.critical_exponent" { ce = $2 }
        $1 == "batch.loss_params" { lp = $2 } $1 == "batch.loss_exponent" { le = $2 }
        END { l = (lp / p) ^ le; printf "%.17g\n", ct / l ^ (1 / ce) }'
}

# rows_check FILE BCRIT RULE: every data row of the scale CSV in
# FILE against the formula: batch_rule RULE; train_tokens the formula's
# (penalty) or T (none); time at least ceil(tokens / batch) step times and,
# with the penalty, at least S_min; tta_speedup = t_ref / t and
# tps_speedup = tps / tps_ref against the first row; prints what fails
rows_check() {
    tr -d '\r' <"$1" | awk -F, -v bc="$2" -v t0="$T0" -v bref="$BREF" -v rule="$3" '
        function off(a, b) { return a - b > 1e-9 * b || b - a > 1e-9 * b }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["time_to_train_s"] == "" { next }
        {
            b = $c["global_batch_tokens"]; step = $c["step_time_s"]; t = $c["time_to_train_s"]
            need = rule == "penalty" ? t0 * (1 + b / bc) / (1 + bref / bc) : t0
            if ($c["batch_rule"] != rule) { print "row " NR ": batch_rule " $c["batch_rule"]; bad = 1 }
            if (off($c["train_tokens"], need)) { print "row " NR ": tokens " $c["train_tokens"] " not " need; bad = 1 }
            steps = int(need / b); if (steps < need / b) steps++
            if (t < steps * step * (1 - 1e-9)) { print "row " NR ": time " t " below " steps " x " step; bad = 1 }
            smin = t0 / (bref + bc)
            if (rule == "penalty" && t < smin * step * (1 - 1e-12)) { print "row " NR ": below S_min"; bad = 1 }
            if (!seen) { seen = 1; t1 = t; tps1 = $c["tokens_per_s"] }
            if (off($c["tta_speedup"], t1 / t)) { print "row " NR ": tta_speedup " $c["tta_speedup"] " not " t1 / t; bad = 1 }
            if (off($c["tps_speedup"], $c["tokens_per_s"] / tps1)) { print "row " NR ": tps_speedup"; bad = 1 }
            above += b > bc; rows++
        }
        END { if (!rows) print "no row runs"; else if (!above && rule == "penalty") print "no row above B_crit"; exit bad || !rows }'
}

# ---- weak scaling on both kinds: the penalty charged, the bound kept ----
BC_CS3=$(crit cs3)
BC_H100=$(crit h100)
check "the GPU description's critical batch is the weight-streaming one's ($BC_H100 tokens)" \
    [ "$BC_CS3" = "$BC_H100" ]
for k in "cs3 1..2048x4 $BC_CS3" "h100 1024..16384x4 $BC_H100"; do
    set -- $k
    run scale -m $M -s "$1" --systems "$2" --csv
    out=$(rows_check "$T/out" "$3" penalty)
    if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
        ok "scale weak on $1 at $2: tokens by the formula, time never below their steps nor S_min, speedups agree"
    else
        nok "scale weak on $1 at $2: tokens, time and speedups by the formula" "exit $rc: $out"
    fi
done
run scale -m $M -s cs3 --systems 1..2048x4
if grep -q "weak scaling (sequences per system fixed; the batch penalty charged against the critical batch" "$T/out" &&
    grep -q "batch_rule" "$T/out" && grep -q "tps_speedup" "$T/out"; then
    ok "scale's title names the rule and the critical batch; the columns name the batch rule and the throughput speedup"
else
    nok "scale's title names the rule" "$(head -n 3 "$T/out")"
fi

# ---- strong scaling: nothing charged unless asked ----
run scale -m $M -s cs3 --systems 1,16,64 --strong --csv
out=$(rows_check "$T/out" "$BC_CS3" none)
check "scale --strong on CS-3: batch_rule none, the model's tokens, speedups agree${out:+ ($out)}" [ -z "$out" ]
run scale -m $M -s h100 --systems 1024,4096 --strong --batch 16384 --batch-penalty --csv
out=$(rows_check "$T/out" "$BC_H100" penalty)
check "scale --strong --batch-penalty on H100: the tokens of 16384 sequences by the formula${out:+ ($out)}" [ -z "$out" ]

# ---- the GPU estimate: a warning past the critical batch, the penalty when asked ----
run estimate -m $M -s h100 -n 8192 --batch 196608
if [ "$rc" -eq 0 ] && grep -q '^batch  *warning  *global batch .* tokens vs critical' "$T/out"; then
    ok "estimate on 8192 H100 at 196608 sequences: the batch verdict warns, exit 0"
else
    nok "estimate on 8192 H100 at 196608 sequences warns" "exit $rc: $(grep '^batch' "$T/out")"
fi
run estimate -m $M -s h100 -n 1024
check "estimate on 1024 H100 at the model's batch: the batch verdict holds" grep -q '^batch  *holds' "$T/out"
for pen in "" --batch-penalty; do
    est_csv g -m $M -s h100 -n 8192 --batch 196608 $pen
    got=$(tr -d '\r' <"$T/g.csv" | awk -F, -v bc="$BC_H100" -v t0="$T0" -v bref="$BREF" -v pen="$pen" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { b = $c["global_batch_seqs"] * 2048
                  need = pen == "" ? t0 : t0 * (1 + b / bc) / (1 + bref / bc)
                  s = int(need / b); if (s < need / b) s++
                  w = s * $c["step_time_s"]; t = $c["time_to_train_s"]
                  np = t0 * (1 + b / bc) / (1 + bref / bc); sp = int(np / b); if (sp < np / b) sp++
                  if (t < w * (1 - 1e-9)) print "time " t " below " w
                  else if ($c["train_tokens"] - need > 1e-9 * need || need - $c["train_tokens"] > 1e-9 * need) print "train_tokens " $c["train_tokens"] " not " need
                  else if ($c["batch_ok"] != 0) print "batch_ok " $c["batch_ok"] " at " b " tokens"
                  else if (pen == "" && t >= sp * $c["step_time_s"]) print "time " t " charged the penalty unasked" }')
    below=" (and below the penalty's)"
    [ -n "$pen" ] && below=
    check "estimate --csv on 8192 H100${pen:+ $pen}: train_tokens by the formula, batch_ok 0, time_to_train_s at least their steps$below${got:+ ($got)}" \
        [ "$rc" -eq 0 ] && [ -z "$got" ]
done
run estimate -m $M -s h100 -n 8192 --batch 196608 --batch-penalty
check "estimate --batch-penalty on H100 says the tokens carry the penalty" grep -q '^training .* (x [0-9.]* batch penalty)' "$T/out"

# ---- the GPU kind reads its own [batch] keys ----
BC_SET=$(crit h100 --set batch.critical_tokens=1e8)
run scale -m $M -s h100 --systems 8192 --strong --batch 16384 --batch-penalty --set batch.critical_tokens=1e8 --csv
out=$(rows_check "$T/out" "$BC_SET" penalty)
check "--set batch.critical_tokens on H100 moves the critical batch the penalty is charged against${out:+ ($out)}" \
    [ "$BC_SET" != "$BC_H100" ] && [ -z "$out" ]

# ---- plan on GPUs charges it too ----
run plan -m $M -s h100 --deadline 60d --batch 16384 --batch-penalty
check "plan on H100 with --batch-penalty counts the tokens with the penalty" \
    grep -q 'tokens (with the batch penalty) in' "$T/out"

# ---- compare: both sides train the penalised tokens of 16384 sequences ----
run compare -m $M -s cs3 --gpu h100 -n 64 --batch 16384 --batch-penalty
got=$(sed -n 's/^compare: [^,]*, \([0-9.e+]*\) tokens in .*/\1/p' "$T/out")
want=$(awk -v bc="$BC_CS3" -v t0="$T0" -v bref="$BREF" 'BEGIN { b = 16384 * 2048; printf "%.17g", t0 * (1 + b / bc) / (1 + bref / bc) }')
check "compare --batch-penalty: the job's tokens ($got) are the formula's ($want) to the 4 digits printed" \
    awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && g - w < 1e-3 * w && w - g < 1e-3 * w) }'

echo "# cli_critbatch done"
