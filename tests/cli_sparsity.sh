#!/bin/sh
# Command-line tests of sparsity at equal quality (issue 32, item 6).  The
# token multiplier is worked out here from the published constants, never
# from a figure the tool printed:
#   L = (a_S (1-S)^b_S + c_S) ((1-S) N)^-b_N + (a_D / D)^b_D + c
#   (Frantar et al. 2024, ICLR, arXiv 2309.08520, eq. 1), N = 12 l h^2 the
#   block matrix weights of GPT-3 175B (Brown et al. 2020, Table 2.1),
#   D = 300e9 tokens;
#   m(S) = [1 - Delta(S) (D / a_D)^b_D]^(-1 / b_D),
#   Delta(S) = N^-b_N [(a_S (1-S)^b_S + c_S)(1-S)^-b_N - (a_S + c_S)];
#   default constants: Chinchilla (Hoffmann et al. 2022, eq. 10: E 1.69,
#   A 406.4, B 410.7, alpha 0.34, beta 0.28) on the non-zero weights;
#   model.loss_fit=t5-c4: Frantar's Table 1 (16.8, 0.722, 45.0, 0.245,
#   6.90e8, 0.203, 0.651).
# estimate at --sparsity 0.9 trains m x the tokens and says so with the
# law; a sparsity past the threshold is infeasible with the verdict's
# words; plan --allow-sparsity suggests only a sparsity whose estimate
# meets the deadline, and none (nor the flag) when no sparsity does;
# claims judges the 10x claim at equal quality, the per-token speedup
# beside it.  Prints "ok N - what" or "not ok N - what" per check and
# "# cli_sparsity done".
. "$(dirname "$0")/lib.sh"

# m CONSTANTS S N D: the multiplier by the formula above ("inf" if none)
m() {
    awk -v k="$1" -v s="$2" -v n="$3" -v d="$4" 'BEGIN {
        split(k, c, " "); aS = c[1]; bS = c[2]; cS = c[3]; bN = c[4]; aD = c[5]; bD = c[6]
        x = 1 - s
        delta = n ^ -bN * ((aS * x ^ bS + cS) * x ^ -bN - (aS + cS))
        room = (aD / d) ^ bD
        if (delta >= room) { print "inf"; exit }
        printf "%.17g\n", (1 - delta / room) ^ (-1 / bD) }'
}
# near A B TOL: |A - B| <= TOL |B|
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t * b) }'; }
# col FILE NAME: the column NAME of the first data row of a CSV
col() {
    awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
        NR == 2 { print $c; exit }' "$1"
}

CHIN="0 1 406.4 0.34 $(awk 'BEGIN { printf "%.17g", 410.7 ^ (1 / 0.28) }') 0.28"
T5="16.8 0.722 45.0 0.245 6.90e8 0.203"
N=$(awk 'BEGIN { printf "%.17g", 12 * 96 * 12288 * 12288 }')
D=300e9

# the worked values of the research note (issue 32): m(0.9) 3.39 and 2.08
M9=$(m "$CHIN" 0.9 "$N" "$D")
M9T=$(m "$T5" 0.9 "$N" "$D")
if near "$M9" 3.394 0.001 && near "$M9T" 2.085 0.001; then ok "the formula gives the note's m(0.9): $M9 (Chinchilla), $M9T (T5/C4)"; else nok "formula" "$M9 $M9T"; fi

# estimate trains m x the tokens, text and CSV, with either constant set
"$CP" estimate -m gpt3-175b -s cs3 -n 4 --sparsity 0.9 --csv >"$T/e9.csv"
"$CP" estimate -m gpt3-175b -s cs3 -n 4 --csv >"$T/e0.csv"
TOK=$(col "$T/e9.csv" tokens)
if near "$TOK" "$(awk -v m="$M9" -v d="$D" 'BEGIN { printf "%.17g", m * d }')" 1e-6; then ok "estimate --sparsity 0.9 trains m x 300e9 = $TOK tokens"; else nok "sparse tokens" "$TOK vs $M9 x $D"; fi
if [ "$(col "$T/e0.csv" tokens)" = 300000000000 ]; then ok "dense estimate trains the model's 300e9 tokens"; else nok "dense tokens" "$(col "$T/e0.csv" tokens)"; fi
"$CP" estimate -m gpt3-175b -s cs3 -n 4 --sparsity 0.9 --set model.loss_fit=t5-c4 --csv >"$T/t5.csv"
TOK=$(col "$T/t5.csv" tokens)
if near "$TOK" "$(awk -v m="$M9T" -v d="$D" 'BEGIN { printf "%.17g", m * d }')" 1e-6; then ok "model.loss_fit=t5-c4 trains Frantar's m x the tokens"; else nok "t5 tokens" "$TOK vs $M9T"; fi
"$CP" estimate -m gpt3-175b -s cs3 -n 4 --sparsity 0.9 >"$T/e9.txt"
if grep -q "^sparsity   0.9 trains 3.394 x the tokens to reach the dense loss (loss law chinchilla: the Chinchilla law on the non-zero weights" "$T/e9.txt" &&
    grep -q "(x 3.394 sparsity at equal quality)" "$T/e9.txt"; then
    ok "estimate prints m and its law"
else nok "estimate text" "$(grep -E '^(sparsity|training)' "$T/e9.txt")"; fi
# per token and at equal quality against dense: both as the CSV's times say
DT=$(col "$T/e0.csv" time_to_train_s) ST=$(col "$T/e9.csv" time_to_train_s)
Q=$(awk -v a="$DT" -v b="$ST" 'BEGIN { printf "%.3g", a / b }')
if grep -q "x per token, ${Q}x at equal quality" "$T/e9.txt"; then ok "estimate's equal-quality speedup is the dense time over the sparse ($Q)"; else nok "speedup text" "$(grep '^sparsity' "$T/e9.txt")"; fi

# past the threshold: Llama 2 7B on 2e12 tokens (N = 32 x (4 x 4096^2 +
# 3 x 4096 x 11008)) cannot reach its dense loss at 0.95
NL=$(awk 'BEGIN { printf "%.17g", 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008) }')
if [ "$(m "$CHIN" 0.95 "$NL" 2e12)" = inf ]; then ok "the formula has no solution for Llama 2 7B at 0.95"; else nok "llama threshold" "$(m "$CHIN" 0.95 "$NL" 2e12)"; fi
"$CP" estimate -m llama2-7b -s cs3 -n 4 --sparsity 0.95 >"$T/l.txt" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "sparse_unreachable  a sparse model at S 0.95 cannot reach the dense loss at any token count" "$T/l.txt" &&
    grep -q "^infeasible: sparse_unreachable" "$T/l.txt"; then
    ok "beyond the threshold the estimate is infeasible (exit 1) with the verdict"
else nok "unreachable verdict" "rc $rc; $(grep -i sparse "$T/l.txt")"; fi
"$CP" estimate -m llama2-7b -s cs3 -n 4 --sparsity 0.8 --csv >"$T/l8.csv"
ML=$(m "$CHIN" 0.8 "$NL" 2e12)
if [ "$(col "$T/l8.csv" feasible)" = 1 ] && near "$(col "$T/l8.csv" tokens)" "$(awk -v m="$ML" 'BEGIN { printf "%.17g", m * 2e12 }')" 1e-6; then
    ok "below it (0.8) Llama 2 7B trains m = $ML x the tokens"
else nok "llama 0.8" "$(col "$T/l8.csv" tokens) vs $ML"; fi

# plan --allow-sparsity: the suggested sparsity meets the deadline in the
# estimate; none when even the best misses, and then no flag suggested
"$CP" plan -m gpt3-175b -s cs3 --deadline 4d --allow-sparsity --uncertainty=0 >"$T/p4.txt"
rc=$?
S=$(sed -n 's/^answer: .*, sparsity \([0-9.]*\) (raised to meet it).*/\1/p' "$T/p4.txt")
NS=$(sed -n 's/^answer: \([0-9]*\) systems.*/\1/p' "$T/p4.txt")
if [ $rc = 0 ] && [ -n "$S" ] && [ -n "$NS" ]; then
    "$CP" estimate -m gpt3-175b -s cs3 -n "$NS" --sparsity "$S" --csv >"$T/p4.csv"
    if awk -v t="$(col "$T/p4.csv" time_to_train_s)" 'BEGIN { exit !(t <= 4 * 86400) }'; then
        ok "plan --deadline 4d suggests sparsity $S on $NS CS-3, whose estimate meets 4 d"
    else nok "suggested sparsity misses" "$(col "$T/p4.csv" time_to_train_s)"; fi
else nok "plan 4d" "rc $rc; $(grep -E '^(answer|unreach)' "$T/p4.txt")"; fi
"$CP" plan -m gpt3-175b -s cs3 --deadline 1d --allow-sparsity --uncertainty=0 >"$T/p1.txt"
rc=$?
if [ $rc = 1 ] && ! grep -q "raised to meet it" "$T/p1.txt" && grep -q "no sparsity meets it" "$T/p1.txt"; then
    ok "plan --deadline 1d --allow-sparsity suggests no sparsity (exit 1)"
else nok "plan 1d" "rc $rc; $(grep -E '^(answer|unreach)' "$T/p1.txt")"; fi
"$CP" plan -m gpt3-175b -s cs3 --deadline 1d --uncertainty=0 >"$T/p1d.txt"
if grep -q "no sparsity reaches it at equal quality" "$T/p1d.txt" && ! grep -q -- "--allow-sparsity may reach it" "$T/p1d.txt"; then
    ok "dense plan at 1 d does not suggest --allow-sparsity"
else nok "1d hint" "$(grep '^unreach' "$T/p1d.txt")"; fi
"$CP" plan -m gpt3-175b -s cs3 --deadline 4d --uncertainty=0 >"$T/p4d.txt"
if grep -q -- "--allow-sparsity may reach it" "$T/p4d.txt"; then ok "dense plan at 4 d suggests --allow-sparsity, which meets it"; else nok "4d hint" "$(grep '^unreach' "$T/p4d.txt")"; fi

# claims: the 10x claim at equal quality, per token beside it
"$CP" claims --csv >"$T/c.csv"
"$CP" estimate -m gpt3-175b -s cs2 -n 1 --csv >"$T/c0.csv"
"$CP" estimate -m gpt3-175b -s cs2 -n 1 --sparsity 0.9 --csv >"$T/c9.csv"
Q=$(awk -v a="$(col "$T/c0.csv" time_to_train_s)" -v b="$(col "$T/c9.csv" time_to_train_s)" 'BEGIN { printf "%.10g", a / b }')
P=$(awk -v a="$(col "$T/c9.csv" tokens_per_s)" -v b="$(col "$T/c0.csv" tokens_per_s)" 'BEGIN { printf "%.3g", a / b }')
row=$(grep '^sparsity-10x,' "$T/c.csv")
pred=$(printf '%s\n' "$row" | awk -F, '{ print $8 }')
if near "$pred" "$Q" 1e-9 && printf '%s\n' "$row" | grep -q ',does not hold,' &&
    printf '%s\n' "$row" | grep -q "per token ${P}x" && printf '%s\n' "$row" | grep -q "at equal quality"; then
    ok "claims: 10x from 90 % does not hold at equal quality ($pred x; ${P}x per token)"
else nok "claims sparsity" "$pred vs $Q; $row"; fi

echo "# cli_sparsity done"
