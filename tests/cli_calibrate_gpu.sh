#!/bin/sh
# Command-line tests of `calibrate` on a GPU corpus (hw/gpu-measurements.csv):
# fit.matmul_efficiency set 30 % low in copies of the GPU descriptions is
# fitted back and the median error falls; fitting one key holds the others;
# --csv gives the key table; -o, --set, --hw-overlay and keys that are not
# fitted GPU constants are refused in one line, exit 2, nothing written.
# Prints "ok N - what" or "not ok N - what" per check and
# "# cli_calibrate_gpu done" at the end.
. "$(dirname "$0")/lib.sh"

G=hw/gpu-measurements.csv

# median LINE-START: the "median" line's after (1) or before (2) figure, %
median() { awk -v w="$1" '$1 == "median" { print (w == 1 ? $2 : $6) }' "$T/out"; }

# ---- a planted start: fit.matmul_efficiency 0.5 where the files say 0.7 ----
mkdir -p "$T/dd/hw"
for g in h100 a100; do
    sed 's/^matmul_efficiency = .*/matmul_efficiency = 0.500/' "hw/$g.ini" >"$T/dd/hw/$g.ini"
done
expect_rc 0 "calibrate GPU corpus: a low start fitted" calibrate "$G" --fit fit.matmul_efficiency --data-dir "$T/dd"
fitted=$(awk '$1 == "fit.matmul_efficiency" { print $3 }' "$T/out")
start=$(awk '$1 == "fit.matmul_efficiency" { print $2 }' "$T/out")
check "the start is the description's value (0.5)" [ "$start" = "0.5" ]
check "the fit moves it above the start ($fitted)" awk -v f="$fitted" 'BEGIN { exit !(f > 0.6 && f < 0.8) }'
after=$(median 1) before=$(median 2)
check "the median error falls ($before % -> $after %)" awk -v a="$after" -v b="$before" 'BEGIN { exit !(a + 0 < b / 2) }'
check "the held keys are named" grep -q "^held at each description's value: fit.attention_efficiency, fit.step_overhead, fit.lowp_efficiency$" "$T/out"
check "one parameter" grep -q "^parameters  1$" "$T/out"
check "converged" grep -q "^stopped     converged$" "$T/out"
check "every run has a line" [ "$(awk '$1 ~ /^[0-9]+$/' "$T/out" | wc -l)" -eq "$(($(grep -cv '^#' "$G") - 1))" ]

# ---- one key fitted holds the others: an overhead fit leaves matmul alone ----
expect_rc 0 "calibrate GPU corpus: --fit fit.step_overhead" calibrate "$G" --fit fit.step_overhead
check "matmul is held, not fitted" grep -q "^held at each description's value: fit.matmul_efficiency," "$T/out"
check "only step_overhead in the key table" [ "$(awk '$1 ~ /^fit\./' "$T/out" | wc -l)" -eq 1 ]

# ---- a fit that does not converge: exit 1, said, values printed ----
# (the overhead alone cannot make up for matmul 30 % low: it runs to 0)
expect_rc 1 "a fit that does not converge is exit 1" calibrate "$G" --fit fit.step_overhead --data-dir "$T/dd"
check "and says so" grep -q "^cerebras-plan: calibrate: the fit did not converge in [0-9]* iterations; the values above are the best found$" "$T/err"
check "with the values" grep -q "^fit.step_overhead " "$T/out"

# ---- --csv: the fitted keys ----
expect_rc 0 "calibrate GPU corpus --csv" calibrate "$G" --fit "fit.step_overhead, fit.matmul_efficiency" --csv
check "--csv header" [ "$(head -n 1 "$T/out" | tr -d '\r')" = "key,start,fitted,std_error,rel_std_error" ]
check "--csv two keys in gpu_fit's order" [ "$(tail -n +2 "$T/out" | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')" = "fit.matmul_efficiency fit.step_overhead " ]
se=$(csv_col "$T/out" std_error 1)
check "--csv a standard error ($se)" awk -v s="$se" 'BEGIN { exit !(s > 0 && s < 0.1) }'

# ---- refusals, one line each ----
expect_err "calibrate: -o: $G is a GPU corpus, and GPU systems take no hardware overlay" \
    "-o refused on a GPU corpus" calibrate "$G" --fit fit.matmul_efficiency -o "$T/ov.ini"
check "-o wrote nothing" [ ! -e "$T/ov.ini" ]
check "the refusal is one line" [ "$(wc -l <"$T/err")" -eq 1 ]
expect_err "calibrate: --set: $G is a GPU corpus" "--set refused on a GPU corpus" \
    calibrate "$G" --fit fit.matmul_efficiency --set fit.step_overhead=0.1
expect_err "calibrate: --fit 'cs3:system.utilization': not a fitted GPU constant" \
    "a weight-streaming key refused, named" calibrate "$G" --fit cs3:system.utilization
expect_err "calibrate: --fit 'fit.comm_efficiency': not a fitted GPU constant" \
    "an unfitted GPU key refused, named" calibrate "$G" --fit fit.matmul_efficiency,fit.comm_efficiency
expect_err "calibrate: --fit 'h100:fit.matmul_efficiency': the GPU constants are one set for all GPUs" \
    "a system before a GPU key refused" calibrate "$G" --fit h100:fit.matmul_efficiency
expect_err "calibrate: --fit 'fit.matmul_efficiency': named twice" "a key named twice refused" \
    calibrate "$G" --fit fit.matmul_efficiency,fit.matmul_efficiency
expect_err "calibrate: --fit fit.KEY[,...] is required for a GPU corpus" "--fit required" \
    calibrate "$G"

# ---- a weight-streaming corpus keeps its refusal of GPU keys ----
expect_err "calibrate: --fit 'fit.matmul_efficiency': a key of GPU descriptions" \
    "a GPU key on a weight-streaming corpus still refused" calibrate hw/measurements.csv --fit fit.matmul_efficiency

echo "# cli_calibrate_gpu done"
