#!/bin/sh
# Command-line tests of `plan`: exit codes, the --csv rows against
# `estimate --csv` at the chosen configuration, the minimality of the answer
# checked with `estimate`, the bill of materials against --csv, the
# nearest reachable limit when a target is out of reach, the servers given
# (too few: the verdict with its numbers), --verbose and the search line, the
# wording (singular counts, one unit per quantity), --uncertainty.  Prints "ok N - what" or
# "not ok N - what" per check (run.sh counts them) and "# cli_plan done" at
# the end.
. "$(dirname "$0")/lib.sh"

# plan ARGS...: run the binary; $rc, stdout in $T/out, stderr in $T/err
plan() {
    "$CP" plan "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# col FILE ROW NAME: column NAME of data row ROW (1 = first after the header)
col() {
    tr -d '\r' <"$1" | awk -F, -v row="$2" -v want="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i }
        NR == row + 1 && c { print $c }'
}

# le A B / gt A B: numeric comparisons
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

# The CS-2 maximum stated in cerebras-plan(1).
CS2_MAX=192

# ---- help and exit codes ----
"$CP" plan --help >"$T/out" 2>"$T/err"
rc=$?
check "plan --help exits 0 and shows the usage" \
    test "$rc" -eq 0 -a -s "$T/out"
if grep -q -- '--deadline' "$T/out" && grep -q -- '--allow-sparsity' "$T/out"; then
    ok "plan --help names --deadline and --allow-sparsity"
else
    nok "plan --help names --deadline and --allow-sparsity" "$(head -n 3 "$T/out")"
fi

expect_rc 0 "a reachable deadline exits 0" plan -m gpt3-175b -s cs2 --deadline 30d
check "a reachable deadline prints an answer" grep -q '^answer: [0-9][0-9]* systems' "$T/out"
expect_rc 1 "an unreachable deadline exits 1" plan -m gpt3-175b -s cs2 --deadline 1d
# at equal quality no sparsity reaches a day either (cli_sparsity.sh), so
# --allow-sparsity is not suggested
if grep -q '^unreachable: ' "$T/out" && grep -q 'max_systems' "$T/out" &&
    grep -q 'no sparsity reaches it at equal quality' "$T/out" &&
    ! grep -q -- '--allow-sparsity may' "$T/out" && grep -q '^best achievable: ' "$T/out"; then
    ok "unreachable: why, that no sparsity helps, and the best achievable"
else
    nok "unreachable: why, that no sparsity helps, and the best achievable" "$(head -n 6 "$T/out")"
fi
expect_rc 1 "an unreachable energy target exits 1" plan -m gpt3-175b -s cs2 --energy 1MWh
expect_rc 1 "an unaffordable budget exits 1" plan -m gpt3-175b -s cs2 --budget 1 --price 100
expect_rc 1 "too few MemoryX servers for the state exits 1" plan -m 120t -s cs3 --tokens 300e9 --deadline 730d --memoryx-servers 1000
if grep -q '^unreachable: infeasible at any cluster size: memoryx_full' "$T/out" &&
    grep -q 'state, 2\.163 PB .*room of 1000 MemoryX servers, 1\.211 PB .*1786 servers hold it' "$T/out"; then
    ok "too few MemoryX servers: why names memoryx_full, the state and the servers' room"
else
    nok "too few MemoryX servers: why names memoryx_full, the state and the servers' room" "$(sed -n 4p "$T/out")"
fi
expect_rc 1 "a published tier too small for 120T exits 1" plan -m 120t -s cs3 --tokens 300e9 --deadline 730d --memoryx 1.2PB
check "a tier too small: memoryx_full with the room of its 991 servers" grep -q 'memoryx_full.*room of 991 MemoryX servers' "$T/out"
expect_rc 1 "too few activation servers for one sequence exits 1" plan -m 120t -s cs3 --tokens 300e9 --deadline 730d --activations offload --act-servers 1 --set 'activation.server_memory=183 GiB'
check "too few activation servers: why names act_store_full with the numbers" \
    grep -q "^unreachable: infeasible at any cluster size: act_store_full; one sequence's checkpoints, .* exceed the room of 1 activation server per system" "$T/out"

expect_err "a time is expected" "--deadline '5 GB' is bad input" plan -m gpt3-175b -s cs2 --deadline '5 GB'
expect_err "greater than zero" "--deadline -1d is bad input" plan -m gpt3-175b -s cs2 --deadline -1d
expect_err "greater than zero" "--deadline 0s is bad input" plan -m gpt3-175b -s cs2 --deadline 0s
expect_err "--energy" "--energy '5 s' is bad input" plan -m gpt3-175b -s cs2 --energy '5 s'
expect_err "give a target" "no target is bad input" plan -m gpt3-175b -s cs2
# the [cost] keys price the job without --price (cerebras-plan(1), Cost);
# with nothing priced a budget is bad input
expect_err "nothing is priced" "--budget with nothing priced is bad input" plan -m gpt3-175b -s cs2 --budget 2M --set cost.system_price=0 --set cost.memoryx_price=0 --set cost.activation_price=0 --set cost.swarmx_price=0 --set cost.energy_price=0
expect_err "-n" "-n is bad input for plan" plan -m gpt3-175b -s cs2 --deadline 30d -n 4
# plan draws by default (issue 32): --seed alone is taken, --uncertainty=0
# turns the draws off; --confidence takes a share strictly between 0 and 1
for v in 0 1 1.5 abc -0.2 0.9x; do
    expect_err "--confidence '$v': must be a share of the draws above 0 and below 1" \
        "--confidence $v is bad input naming the flag" plan -m gpt3-175b -s cs3 --deadline 30d --confidence "$v"
    expect_err "--confidence '$v'" "--confidence $v is bad input on a GPU system too" \
        plan -m gpt3-175b -s h100 --deadline 30d --confidence "$v"
done
expect_err "--confidence: plans the fewest that meet a --deadline or an --energy limit" \
    "--confidence with --budget alone is bad input" plan -m gpt3-175b -s cs3 --budget 5M --price 100 --confidence 0.9
expect_err "--confidence: needs the draws" "--confidence with --uncertainty=0 is bad input" \
    plan -m gpt3-175b -s cs3 --deadline 30d --confidence 0.9 --uncertainty=0
expect_rc 0 "--seed without --uncertainty is taken (plan draws by default)" plan -m gpt3-175b -s cs2 --deadline 30d --seed 3
check "plan draws 200 by default, with the seed given" grep -q '^uncertainty: 200 draws .*(seed 3)' "$T/out"
expect_rc 0 "--uncertainty=0 is taken" plan -m gpt3-175b -s cs2 --deadline 30d --uncertainty=0
check "--uncertainty=0: no draws" sh -c "! grep -q '^uncertainty' '$T/out'"

# ---- --csv against estimate --csv ----
# csv_vs_estimate WHAT PLAN-ARGS... -- SCENARIO-ARGS...: plan --csv; each of
# its rows equals, byte for byte, the data row of estimate --csv with the
# scenario options, -n, --sparsity and --batch of that row (and
# --batch-penalty with --allow-batch, which charges a grown batch).  Sets
# $rows (data rows), $N (the chosen systems).
csv_vs_estimate() {
    what=$1
    shift
    pargs=
    while [ "$1" != -- ]; do
        pargs="$pargs $1"
        shift
    done
    shift
    penalty=
    case "$pargs" in *--allow-batch*) penalty=--batch-penalty ;; esac
    # shellcheck disable=SC2086
    "$CP" plan "$@" $pargs --csv >"$T/plan.csv" 2>"$T/err"
    prc=$?
    rows=$(($(wc -l <"$T/plan.csv") - 1))
    N=$(col "$T/plan.csv" 1 systems)
    good=1
    detail=
    r=1
    while [ "$r" -le "$rows" ]; do
        sys=$(col "$T/plan.csv" "$r" systems)
        sp=$(col "$T/plan.csv" "$r" sparsity)
        gb=$(col "$T/plan.csv" "$r" global_batch_seqs)
        # shellcheck disable=SC2086
        "$CP" estimate "$@" -n "$sys" --sparsity "$sp" --batch "$gb" $penalty --uncertainty=200 --csv >"$T/est.csv" 2>>"$T/err"
        if ! cmp -s "$T/est.csv" /dev/null && [ "$(sed -n 1p "$T/est.csv")" = "$(sed -n 1p "$T/plan.csv")" ] &&
            [ "$(sed -n 2p "$T/est.csv")" = "$(sed -n "$((r + 1))p" "$T/plan.csv")" ]; then
            :
        else
            good=0
            detail="row $r (systems $sys): $(diff "$T/est.csv" "$T/plan.csv" | head -n 4)"
        fi
        r=$((r + 1))
    done
    if [ "$rows" -ge 1 ] && [ "$good" -eq 1 ]; then
        ok "$what: --csv rows equal estimate --csv"
    else
        nok "$what: --csv rows equal estimate --csv" "exit $prc, $rows rows; $detail $(head -c 200 "$T/err")"
    fi
}

# A reachable plan: three rows N, N-1, N+1 (two at an end of the range).
# expect_rows WHAT NMAX
expect_rows() {
    s1=$(col "$T/plan.csv" 2 systems)
    s2=$(col "$T/plan.csv" 3 systems)
    if [ "$N" -eq 1 ] || [ "$N" -eq "$2" ]; then want=2; else want=3; fi
    ok_rows=1
    [ "$rows" -eq "$want" ] || ok_rows=0
    if [ "$N" -gt 1 ] && [ "$s1" != $((N - 1)) ]; then ok_rows=0; fi
    if [ "$N" -lt "$2" ] && [ "$N" -gt 1 ] && [ "$s2" != $((N + 1)) ]; then ok_rows=0; fi
    if [ "$ok_rows" -eq 1 ]; then
        ok "$1: --csv rows are N=$N, then N-1 and N+1 where searched"
    else
        nok "$1: --csv rows are N=$N, then N-1 and N+1 where searched" "$rows rows: $N $s1 $s2"
    fi
}

csv_vs_estimate "30 d" --deadline 30d -- -m gpt3-175b -s cs2
expect_rows "30 d" "$CS2_MAX"
check "30 d --csv exits 0" test "$prc" -eq 0
# the plan in text names the same N as --csv
plan -m gpt3-175b -s cs2 --deadline 30d
check "30 d: the text answer names the --csv N ($N)" grep -q "^answer: $N systems" "$T/out"
if grep -q "^  N - 1: $((N - 1)) systems.*(misses)" "$T/out" && grep -q '^  time-to-train .*(meets)' "$T/out"; then
    ok "30 d: the answer meets, N - 1 misses"
else
    nok "30 d: the answer meets, N - 1 misses" "$(sed -n 4,7p "$T/out")"
fi
# minimal, by estimate: N meets 30 days, N - 1 does not
t_n=$(col "$T/plan.csv" 1 time_to_train_s)
t_b=$(col "$T/plan.csv" 2 time_to_train_s)
check "30 d: time at N <= 30 d < time at N - 1" sh -c "awk -v a='$t_n' -v b='$t_b' 'BEGIN{exit !(a <= 2592000 && b > 2592000)}'"
# and no smaller N meets it (brute force with estimate over 1..N-1, coarsely
# every 7 systems plus N-1's neighbours)
found=
k=1
while [ "$k" -lt "$N" ]; do
    "$CP" estimate -m gpt3-175b -s cs2 -n "$k" --csv >"$T/k.csv" 2>/dev/null
    tk=$(col "$T/k.csv" 1 time_to_train_s)
    if le "$tk" 2592000; then found="$found $k"; fi
    if [ "$k" -ge $((N - 3)) ]; then k=$((k + 1)); else k=$((k + 7)); fi
done
check "30 d: no smaller cluster meets the deadline (estimate scan)" test -z "$found"

# GPT-3 in 8 days: dense it takes 12.8 days on 192 CS-2; sparsity at equal
# quality (trained to the dense loss) reaches 8 d, though not a day
csv_vs_estimate "8 d with --allow-sparsity" --deadline 8d --allow-sparsity -- -m gpt3-175b -s cs2
check "8 d with --allow-sparsity exits 0" test "$prc" -eq 0
expect_rows "8 d with --allow-sparsity" "$CS2_MAX"
sp=$(col "$T/plan.csv" 1 sparsity)
check "GPT-3 in 8 d: $CS2_MAX systems" test "$N" = "$CS2_MAX"
check "GPT-3 in 8 d: sparsity $sp between 0 and 0.99" sh -c "awk -v s='$sp' 'BEGIN{exit !(s > 0 && s < 0.99)}'"
check "GPT-3 in 8 d: sparsity $sp is a whole number of 0.1 %" sh -c "awk -v s='$sp' 'BEGIN{k = s * 1000; d = k - int(k + 0.5); exit !(d < 1e-6 && d > -1e-6)}'"
t_n=$(col "$T/plan.csv" 1 time_to_train_s)
less=$(awk -v s="$sp" 'BEGIN{printf "%.3f", s - 0.001}')
"$CP" estimate -m gpt3-175b -s cs2 -n "$N" --sparsity "$less" --csv >"$T/k.csv" 2>/dev/null
t_less=$(col "$T/k.csv" 1 time_to_train_s)
check "GPT-3 in 8 d: meets at $sp, misses at $less" sh -c "awk -v a='$t_n' -v b='$t_less' 'BEGIN{exit !(a <= 691200 && b > 691200)}'"
plan -m gpt3-175b -s cs2 --deadline 8d --allow-sparsity
if grep -q "^answer: $CS2_MAX systems, .*sparsity 0\.[0-9]* (raised to meet it)" "$T/out"; then
    ok "GPT-3 in 8 d: the text names $CS2_MAX systems and the raised sparsity"
else
    nok "GPT-3 in 8 d: the text names $CS2_MAX systems and the raised sparsity" "$(sed -n 4p "$T/out")"
fi

csv_vs_estimate "energy 1600 MWh" --energy 1600MWh -- -m gpt3-175b -s cs2
check "energy 1600 MWh exits 0" test "$prc" -eq 0
expect_rows "energy 1600 MWh" "$CS2_MAX"
e_n=$(col "$T/plan.csv" 1 energy_J)
e_b=$(col "$T/plan.csv" 2 energy_J)
check "energy: N within 1600 MWh, N - 1 above" sh -c "awk -v a='$e_n' -v b='$e_b' 'BEGIN{exit !(a <= 1600 * 3.6e9 && b > 1600 * 3.6e9)}'"

csv_vs_estimate "budget 5.5M at 100" --budget 5.5M -- -m gpt3-175b -s cs2 --price 100
check "budget 5.5M exits 0" test "$prc" -eq 0
c_n=$(col "$T/plan.csv" 1 cost)
check "budget: the cost is within it" le "$c_n" 5.5e6
if [ "$N" -lt "$CS2_MAX" ]; then
    c_a=$(col "$T/plan.csv" 3 cost)
    check "budget: N + 1 costs more than the budget" gt "$c_a" 5.5e6
fi

csv_vs_estimate "megatron-1t on cs3 in 30 d with --allow-batch" --deadline 30d --allow-batch -- -m megatron-1t -s cs3
check "megatron-1t 30 d --allow-batch exits 0" test "$prc" -eq 0

csv_vs_estimate "batch 64 grown with --allow-batch" --deadline 40d --allow-batch -- -m gpt3-175b -s cs2 --batch 64
check "batch 64 with --allow-batch exits 0" test "$prc" -eq 0
gb=$(col "$T/plan.csv" 1 global_batch_seqs)
check "batch 64 with --allow-batch: N=$N > 64 and the batch grew to N" test "$N" -gt 64 -a "$gb" = "$N"
plan -m gpt3-175b -s cs2 --batch 64 --deadline 40d
check "batch 64 without --allow-batch: 40 d is out of reach" test "$rc" -eq 1
if grep -q '^search: every N of 1\.\.64 systems (one sequence per system of the batch)' "$T/out" &&
    grep -q -- '--allow-batch' "$T/out"; then
    ok "batch 64: the search stops at 64 systems and says why"
else
    nok "batch 64: the search stops at 64 systems and says why" "$(sed -n 2,4p "$T/out")"
fi
plan -m gpt3-175b -s cs2 --deadline 30d
check "the CS-2 search runs to $CS2_MAX systems" grep -q "^search: every N of 1\.\.$CS2_MAX systems (system.max_systems)" "$T/out"

csv_vs_estimate "unreachable" --deadline 1d -- -m gpt3-175b -s cs2
check "unreachable --csv: exit 1, one row (the best achievable)" test "$prc" -eq 1 -a "$rows" -eq 1

# ---- the bill of materials: plan sizes the whole cluster (issue 17) ----
# bom COUNT-OF ITEM: the first number of the count column of the BOM row
# that starts with ITEM (a regular expression) in $T/out
bom() {
    sed -n '/^bill of materials/,/^total /p' "$T/out" | sed -n "s/^$1  *\([0-9][0-9]*\).*/\1/p"
}
# bom_has_rows WHAT: the header, one row per item, the total and the energy
bom_has_rows() {
    if grep -q '^bill of materials (activations [a-z:0-9]*):$' "$T/out" &&
        grep -q '^item  *count  *memory each  *memory total  *power each  *power total$' "$T/out" &&
        grep -q '^CS-3 (WSE-3) systems  *[0-9][0-9]*  *[0-9.]* GB  *[0-9.]* [TP]B  *[0-9.]* kW  *[0-9.]* [kM]W$' "$T/out" &&
        grep -q '^MemoryX servers  *[0-9][0-9]* (sized)  *[0-9.]* TB  *[0-9.]* [TP]B  *[0-9.]* k\{0,1\}W  *[0-9.]* [kM]W$' "$T/out" &&
        grep -q '^activation servers  *[0-9][0-9]* ([0-9][0-9]* per system)  *[0-9.]* GB  *[0-9.]* [TP]B  *[0-9.]* W  *[0-9.]* [kM]W$' "$T/out" &&
        grep -q '^SwarmX nodes  *[0-9][0-9]*  *-  *-  *[0-9.]* k\{0,1\}W  *[0-9.]* [kM]W$' "$T/out" &&
        grep -q '^total  *[0-9.]* MW$' "$T/out" &&
        grep -q '^energy: [0-9.e+]* [kMGTP]\{0,1\}Wh for the run, [0-9.]* MW for [0-9.e+]* \(d\|h\|years\)$' "$T/out"; then
        ok "$1: the bill of materials has every row, with units"
    else
        nok "$1: the bill of materials has every row, with units" "$(sed -n '/^bill of materials/,/^energy/p' "$T/out")"
    fi
}
# bom_vs_csv WHAT ARGS...: plan ARGS --csv; its first row's systems,
# memoryx_servers, act_servers and swarmx_nodes are the BOM's counts in
# $T/out, and its power parts sum to power_W
bom_vs_csv() {
    what=$1
    shift
    "$CP" plan "$@" --csv >"$T/bom.csv" 2>"$T/err"
    sys=$(col "$T/bom.csv" 1 systems)
    mxs=$(col "$T/bom.csv" 1 memoryx_servers)
    acts=$(col "$T/bom.csv" 1 act_servers)
    swx=$(col "$T/bom.csv" 1 swarmx_nodes)
    got="$(bom 'CS-3 (WSE-3) systems') $(bom 'MemoryX servers') $(bom 'activation servers') $(bom 'SwarmX nodes')"
    per=$(sed -n 's/^activation servers  *[0-9]* (\([0-9]*\) per system).*/\1/p' "$T/out")
    want="$sys $mxs $((sys * acts)) $swx"
    if [ -n "$sys" ] && [ "$got" = "$want" ] && [ "$per" = "$acts" ]; then
        ok "$what: the BOM's counts are --csv's ($want, $acts activation servers per system)"
    else
        nok "$what: the BOM's counts are --csv's" "BOM '$got' ($per per system), --csv '$want' ($acts per system)"
    fi
    sum=$(tr -d '\r' <"$T/bom.csv" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
        NR == 2 { s = $c["power_systems_W"] + $c["power_memoryx_W"] + $c["power_activation_W"] + $c["power_swarmx_W"]
                  d = s - $c["power_W"]; if (d < 0) d = -d
                  print (d <= 1e-9 * $c["power_W"] && $c["power_W"] > 0) ? "same" : s " vs " $c["power_W"] }')
    check "$what: the power parts sum to power_W ($sum)" test "$sum" = same
}

# with the activation servers that hold a system's 8 sequences of 417 GB
# (the system's one server holds one: 8 micro-batches, out of reach)
plan -m 120t -s cs3 --tokens 300e9 --deadline 730d --act-servers 7
check "120t for 300e9 tokens in 730 d is reached on at most 2048 CS-3 (exit 0)" test "$rc" -eq 0
N=$(sed -n 's/^answer: \([0-9][0-9]*\) systems.*/\1/p' "$T/out")
check "120t in 730 d: the answer ($N systems) is within 2048" sh -c "[ -n '$N' ] && [ '$N' -le 2048 ]"
bom_has_rows "120t in 730 d"
check "120t in 730 d: the BOM's systems are the answer's" test "$(bom 'CS-3 (WSE-3) systems')" = "$N"
bom_vs_csv "120t in 730 d" -m 120t -s cs3 --tokens 300e9 --deadline 730d --act-servers 7
# capacity names the servers that hold the state; sized MemoryX for 120t
# is set by holding the state, so the plan has as many
"$CP" capacity -m 120t -s cs3 >"$T/cap" 2>"$T/err"
hold=$(sed -n 's/^MemoryX servers that hold it: cs3 \([0-9][0-9]*\) x [0-9.]* TB DRAM ([0-9.]* PB)$/\1/p' "$T/cap")
check "capacity names the MemoryX servers that hold 120t ($hold), as many as the plan's ($mxs)" \
    sh -c "[ -n '$hold' ] && [ '$hold' = '$mxs' ]"

# the model's own tokens (chinchilla, 2.4e15): 730 d is out of reach; the
# nearest reachable deadline is named, and met when given
plan -m 120t -s cs3 --deadline 730d
check "120t at its own tokens in 730 d is unreachable (exit 1)" test "$rc" -eq 1
near=$(sed -n 's/^nearest: the fastest plan reaches .* on [0-9][0-9]* systems; --deadline \([0-9.]*[a-z]*\) would be met$/\1/p' "$T/out")
nn=$(sed -n 's/^nearest: the fastest plan reaches .* on \([0-9][0-9]*\) systems;.*/\1/p' "$T/out")
check "120t in 730 d: names the nearest reachable deadline ($near, on $nn systems)" test -n "$near"
check "120t in 730 d: the best achievable is that fastest plan" grep -q "^best achievable: $nn systems " "$T/out"
bom_has_rows "120t in 730 d, best achievable"
bom_vs_csv "120t in 730 d, best achievable" -m 120t -s cs3 --deadline 730d
plan -m 120t -s cs3 --deadline "$near"
check "120t with the named deadline $near is reached (exit 0) on $nn systems or fewer" \
    sh -c "[ '$rc' -eq 0 ] && grep -q '^answer: ' '$T/out' && [ \"\$(sed -n 's/^answer: \([0-9]*\) systems.*/\1/p' '$T/out')\" -le '$nn' ]"
bom_has_rows "120t with the named deadline"
# the same for GPT-3 on CS-2 in a day, with and without --allow-sparsity
for extra in "" --allow-sparsity; do
    # shellcheck disable=SC2086
    plan -m gpt3-175b -s cs2 --deadline 1d $extra
    near=$(sed -n 's/^nearest: .*; --deadline \([0-9.]*[a-z]*\) would be met$/\1/p' "$T/out")
    # shellcheck disable=SC2086
    plan -m gpt3-175b -s cs2 --deadline "$near" $extra
    check "GPT-3 in a day${extra:+ with $extra}: the named deadline $near is reached" sh -c "[ -n '$near' ] && [ '$rc' -eq 0 ]"
done
# other targets: the nearest energy and budget
plan -m gpt3-175b -s cs2 --energy 1300MWh
near=$(sed -n 's/^nearest: the least energy found is .*; --energy \([0-9.]*[kMGT]*Wh\) would be met$/\1/p' "$T/out")
plan -m gpt3-175b -s cs2 --energy "$near"
check "energy 1300 MWh: the named energy $near is reached" sh -c "[ -n '$near' ] && [ '$rc' -eq 0 ]"
plan -m gpt3-175b -s cs2 --budget 1 --price 100
near=$(sed -n 's/^nearest: the least cost found is .*; --budget \([0-9.]*\) would be met$/\1/p' "$T/out")
plan -m gpt3-175b -s cs2 --budget "$near" --price 100
check "budget 1: the named budget $near is reached" sh -c "[ -n '$near' ] && [ '$rc' -eq 0 ]"
# infeasible at any size: no nearest limit, the BOM of one system
plan -m 120t -s cs3 --tokens 300e9 --deadline 730d --memoryx-servers 1000
check "infeasible: no nearest limit is named" sh -c "! grep -q '^nearest: ' '$T/out'"
check "infeasible: the BOM has the 1000 MemoryX servers given" sh -c "[ \"\$(sed -n 's/^MemoryX servers  *\([0-9]*\)  .*/\1/p' '$T/out')\" = 1000 ]"

# ---- --verbose ----
# search_counts: "SCANS BRENT" from the search line of $T/out (BRENT 0
# when it names none); empty when the line does not read as expected
search_counts() {
    sed -n 's/^search: every N of 1\.\.[0-9]* systems* (.*) evaluated, \([0-9][0-9]*\) scans*\( and \([0-9][0-9]*\) Brent iterations* on the sparsity\)*$/\1 \3/p' "$T/out" |
        awk '{ print $1, ($2 == "" ? 0 : $2) }'
}
plan -m gpt3-175b -s cs2 --energy 1700MWh --verbose
# shellcheck disable=SC2046 # two words
set -- $(search_counts)
scans=${1:-} brent=${2:-}
nscan=$(grep -cE '^  scan +[0-9]+  bracket ' "$T/out")
nbrent=$(grep -cE '^  sparsity +[0-9]+  bracket ' "$T/out")
if [ "$rc" -eq 0 ] && grep -q '^search steps' "$T/out" && [ -n "$scans" ] && [ "$scans" -gt 0 ] &&
    [ "$nscan" -eq "$scans" ] && [ "$nbrent" -eq "$brent" ]; then
    ok "--verbose prints each of the $scans scans the search line counts"
else
    nok "--verbose prints each of the scans the search line counts" "exit $rc, $nscan+$nbrent lines, search says '$scans $brent'"
fi
plan -m gpt3-175b -s cs2 --deadline 8d --allow-sparsity --verbose
check "--verbose shows the sparsity stage" grep -qE '^  sparsity +[0-9]+  bracket 0\.[0-9]+\.\.[01]\.[0-9]+  at ' "$T/out"
plan -m gpt3-175b -s cs2 --deadline 10d --allow-sparsity --verbose
# shellcheck disable=SC2046 # two words
set -- $(search_counts)
nbrent=$(grep -cE '^  sparsity +[0-9]+  bracket ' "$T/out")
if [ "${2:-0}" -gt 0 ] && [ "$nbrent" -eq "$2" ] && [ "$1" -eq "$(grep -cE '^  scan ' "$T/out")" ]; then
    ok "the search line counts the scans ($1) and the Brent iterations ($2) --verbose prints"
else
    nok "the search line counts the scans and the Brent iterations --verbose prints" "$(grep '^search:' "$T/out"); $nbrent sparsity lines"
fi

plan -m gpt3-175b -s cs2 --energy 1700MWh
check "without --verbose no iteration lines" sh -c "! grep -qE '^  (scan|sparsity) +[0-9]+  bracket ' '$T/out'"
plan -m gpt3-175b -s cs2 --energy 1700MWh --verbose --csv
check "--verbose --csv is still only CSV" sh -c "head -n 1 '$T/out' | grep -q '^model,' && ! grep -q 'bracket' '$T/out'"

# ---- wording: no "1 systems", "1 scans"; one unit of energy ----
plan -m gpt3-xl -s cs2 --deadline 30d
n1=$(sed -n 's/^answer: \([0-9]*\) system.*/\1/p' "$T/out")
bad=$(grep -nE '(^|[^0-9.])1 (systems|sequences|scans|iterations|servers)\b|solver iterations' "$T/out" | head -n 3)
if [ "$n1" = 1 ] && [ -z "$bad" ] && grep -q '^answer: 1 system,' "$T/out" && grep -q ', 1 scan$' "$T/out"; then
    ok "one system, one scan: singular"
else
    nok "one system, one scan: singular" "answer N '$n1'; $bad"
fi
plan -m gpt3-175b -s cs2 --energy 1GWh
erc=$rc
ej=$(grep -oE '[0-9.]+ ?[kMGTPE]?J\b' "$T/out" | head -n 3 | tr '\n' ' ')
ewh=$(grep -cE '[0-9.]+ [kMGTPE]?Wh\b' "$T/out")
u=$(sed -n 's/^unreachable: the least energy .* is \(.*\), at [0-9]* systems.*/\1/p' "$T/out")
nr=$(sed -n 's/^nearest: the least energy found is \(.*\) on [0-9]* systems.*/\1/p' "$T/out")
check "the least energy reads the same in the unreachable and nearest lines ($u)" \
    sh -c "[ -n '$u' ] && [ '$u' = '$nr' ]"
if [ "$erc" -eq 1 ] && [ -z "$ej" ] && [ "$ewh" -ge 3 ]; then
    ok "plan --energy writes energy in Wh throughout ($ewh lines), never J"
else
    nok "plan --energy writes energy in Wh throughout, never J" "exit $erc; J: '$ej'; Wh lines $ewh"
fi
plan -m 120t -s cs3 --deadline 730d
u=$(sed -n 's/^unreachable: the least time-to-train .* is \(.*\), at [0-9]* systems.*/\1/p' "$T/out")
nr=$(sed -n 's/^nearest: the fastest plan reaches \(.*\) on [0-9]* systems.*/\1/p' "$T/out")
check "the least time-to-train reads the same in the unreachable and nearest lines ($u)" \
    sh -c "[ -n '$u' ] && [ '$u' = '$nr' ]"

# ---- --uncertainty ----
# a ranged key of our own, so that the band has a width whatever the files say
R="system.utilization=0.5 +- 20%"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty=200 --seed 3
cp "$T/out" "$T/u1"
band=$(sed -n 's/^  time to train  .*\[\(.*\)\]$/\1/p' "$T/u1")
share=$(sed -n 's/^  meets the deadline in \([0-9.]*\) % of draws$/\1/p' "$T/u1")
if [ "$rc" -eq 0 ] && grep -q '^uncertainty: 200 draws .*(seed 3)' "$T/u1" && [ -n "$band" ] &&
    [ "${band%%,*}" != "${band#*, }" ]; then
    ok "--uncertainty=200 --seed 3 adds a time-to-train band [$band]"
else
    nok "--uncertainty=200 --seed 3 adds a time-to-train band" "exit $rc; $(tail -n 6 "$T/u1")"
fi
check "--uncertainty gives the share of draws meeting the deadline ($share %)" \
    sh -c "[ -n '$share' ] && awk -v s='$share' 'BEGIN{exit !(s >= 0 && s <= 100)}'"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty=200 --seed 3
check "--uncertainty with a fixed seed is deterministic" cmp -s "$T/out" "$T/u1"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty=200 --seed 4
check "another seed draws differently" sh -c "! cmp -s '$T/out' '$T/u1'"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R"
sed -n '/^answer: /,/^$/p' "$T/out" >"$T/a0"
sed -n '/^answer: /,/^$/p' "$T/u1" >"$T/a1"
check "--uncertainty does not change the plan" sh -c "[ -s '$T/a0' ] && cmp -s '$T/a0' '$T/a1'"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty 200
cp "$T/out" "$T/u2"
plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty=200 --seed 1
if [ "$rc" -eq 0 ] && grep -q '^uncertainty: 200 draws ' "$T/u2" && cmp -s "$T/out" "$T/u2"; then
    ok "--uncertainty 200 (count after a space) is --uncertainty=200 with the default seed"
else
    nok "--uncertainty 200 (count after a space) is --uncertainty=200 with the default seed" "$(grep '^uncertainty' "$T/u2" "$T/out")"
fi
# the band in --csv brackets the point value, and matches estimate's
"$CP" plan -m gpt3-175b -s cs2 --deadline 30d --set "$R" --uncertainty=200 --seed 3 --csv >"$T/uc.csv" 2>"$T/err"
p10=$(col "$T/uc.csv" 1 time_to_train_p10_s)
p90=$(col "$T/uc.csv" 1 time_to_train_p90_s)
t_n=$(col "$T/uc.csv" 1 time_to_train_s)
check "--uncertainty --csv: time-to-train p10 < point < p90" sh -c "[ -n '$p10' ] && awk -v a='$p10' -v t='$t_n' -v b='$p90' 'BEGIN{exit !(a < t && t < b)}'"
uc_rows=$(($(wc -l <"$T/uc.csv") - 1))
check "--uncertainty --csv keeps the N, N-1, N+1 rows" test "$uc_rows" -eq 3
"$CP" estimate -m gpt3-175b -s cs2 --set "$R" -n "$(col "$T/uc.csv" 1 systems)" --uncertainty=200 --seed 3 --csv >"$T/ue.csv" 2>>"$T/err"
check "--uncertainty --csv: the first row equals estimate's with the same seed" \
    sh -c "[ \"\$(sed -n 2p '$T/ue.csv')\" = \"\$(sed -n 2p '$T/uc.csv')\" ]"

echo "# cli_plan done"
