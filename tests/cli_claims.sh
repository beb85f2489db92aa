#!/bin/sh
# Command-line tests of `claims` on the sized cluster (issue 17, item 7):
# "120 T parameters on a single CS-2", "24 T as one logical device on 2,048
# CS-3" and "a 1 T model over a long weekend".  Every figure is checked
# against `estimate` run with the claim's own configuration (read from
# reports/claims.csv), never against a number pinned here.  The claims
# that compare with GPUs (issue 21, item 6): each has a verdict; a ratio's
# figures in the descriptions are the published ones and the ratio is
# their quotient; the jobs' figures are those of `estimate` and `compare`
# with the claim's configuration.  Prints
# "ok N - what" or "not ok N - what" per check and "# cli_claims done".
. "$(dirname "$0")/lib.sh"

# cell FILE ID COL: the cell in column COL of the CSV row whose first cell
# is ID (ID empty: the first row after the header); quoted cells may hold
# commas and doubled quotes.
cell() {
    tr -d '\r' <"$1" | awk -v id="$2" -v col="$3" '
        function split_csv(line,   i, ch, f, q, k) {
            k = 0; f = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                ch = substr(line, i, 1)
                if (q) {
                    if (ch != "\"") f = f ch
                    else if (substr(line, i + 1, 1) == "\"") { f = f ch; i++ }
                    else q = 0
                } else if (ch == "\"") q = 1
                else if (ch == ",") { F[++k] = f; f = "" }
                else f = f ch
            }
            F[++k] = f
            return k
        }
        NR == 1 { nh = split_csv($0); for (i = 1; i <= nh; i++) if (F[i] == col) c = i; next }
        { split_csv($0); if (c && (id == "" || F[1] == id)) { print F[c]; exit } }'
}

# near A B REL: |A - B| <= REL x |B|
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
    m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= r * m) }'; }

# same A B: A is not empty and equals B
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }

# seconds "365 d": a claims-file duration (s, min, h, d) in seconds
seconds() { echo "$1" | awk '{ u = $2; f = u == "d" ? 86400 : u == "h" ? 3600 : u == "min" ? 60 : 1;
    print $1 * f }'; }

# est ID [ARGS...]: `estimate --csv` with the configuration of claim ID in
# reports/claims.csv (model, system, systems, tier unless auto) and ARGS;
# the output in $T/est.csv
est() {
    id=$1
    shift
    m=$(cell reports/claims.csv "$id" model) s=$(cell reports/claims.csv "$id" system)
    nn=$(cell reports/claims.csv "$id" systems) mx=$(cell reports/claims.csv "$id" memoryx)
    if [ "$mx" = auto ]; then set -- "$@"; else set -- --memoryx "$mx" "$@"; fi
    "$CP" estimate -m "$m" -s "$s" -n "$nn" --csv "$@" >"$T/est.csv" 2>"$T/err"
}

run claims --csv
C=$T/claims.csv
cp "$T/out" "$C"
check "claims --csv: exit 0" [ "$rc" -eq 0 ]

# ---- every claim of this issue has a row and a documented verdict ----
for id in storage-120t cs3-2048-24t 1t-weekend; do
    v=$(cell "$C" "$id" verdict)
    case "$v" in
    holds | conditional | "does not hold") ok "$id: verdict '$v' is a documented one" ;;
    *) nok "$id: verdict is a documented one" "verdict '$v'" ;;
    esac
done

# ---- 120 T on a single CS-2: storage on the tier's servers ----
id=storage-120t
why=$(cell "$C" $id reason)
pred=$(cell "$C" $id predicted)
tier=$(cell reports/claims.csv $id memoryx)
est $id
st=$(cell "$T/est.csv" "" state_bytes)
servers=$(cell "$T/est.csv" "" memoryx_servers)
cap=$(cell "$T/est.csv" "" memoryx_bytes)
check "$id: predicted is the state estimate gives ($pred B)" near "$pred" "$st" 1e-12
n_why=$(echo "$why" | sed -n "s/.* on \([0-9][0-9]*\) MemoryX servers (the $tier tier.*/\1/p")
check "$id: reason names the $tier tier's servers as estimate counts them ($n_why vs $servers)" \
    same "$n_why" "$servers"
# the state in the reason, "state 2.163 PB", read back to bytes
st_why=$(echo "$why" | sed -n 's/.*state \([0-9.e+]*\) \([kMGTPE]\)B .*/\1 \2/p' | awk '{
    i = index("kMGTPE", $2); print $1 * 10 ^ (3 * i) }')
check "$id: reason states the state bytes ($st_why B vs $pred B)" near "$st_why" "$pred" 1e-3
if [ "$(awk -v s="$st" -v c="$cap" 'BEGIN { print (s <= c) }')" -eq 1 ]; then
    check "$id: the state fits the servers' $cap B, so storage holds" \
        sh -c 'case "$1" in *"storage holds"*) [ "$2" != "does not hold" ] ;; *) exit 1 ;; esac' \
        sh "$why" "$(cell "$C" $id verdict)"
else
    check "$id: the state exceeds the servers' $cap B, so it does not hold" \
        [ "$(cell "$C" $id verdict)" = "does not hold" ]
fi
if grep -q '^server_flash = 0' hw/cs2.ini; then
    check "$id: the CS-2 MemoryX is planned DRAM-only and the reason says so" \
        sh -c 'case "$1" in *"DRAM only"*) ;; *) exit 1 ;; esac' sh "$why"
fi
# training on one CS-2 with MemoryX sized: the verdict follows the time
"$CP" estimate -m 120t -s cs2 -n 1 --csv >"$T/one.csv" 2>"$T/err"
t1=$(cell "$T/one.csv" "" time_to_train_s)
lim=$(seconds "$(cell reports/claims.csv $id target)")
want=holds
awk -v t="$t1" -v l="$lim" 'BEGIN { exit !(t > l) }' && want=conditional
[ "$(awk -v s="$st" -v c="$cap" 'BEGIN { print (s <= c) }')" -eq 1 ] || want="does not hold"
check "$id: verdict '$want' from the state and one system's $t1 s against $lim s" \
    [ "$(cell "$C" $id verdict)" = "$want" ]
check "$id: reason times the training on 1 system" \
    sh -c 'case "$1" in *"on 1 system "*" takes "*) ;; *) exit 1 ;; esac' sh "$why"
if [ "$want" = conditional ]; then
    check "$id: reason says what cluster the target would need" \
        sh -c 'case "$1" in *"it needs "*" systems"* | *"no cluster"*) ;; *) exit 1 ;; esac' sh "$why"
fi

# ---- 1 T over a long weekend: the update no longer sets the pace ----
id=1t-weekend
why=$(cell "$C" $id reason)
bn_why=$(echo "$why" | grep -o 'bottleneck [a-z_]*' | head -n 1 | cut -d' ' -f2)
est $id
bn=$(cell "$T/est.csv" "" bottleneck)
check "$id: the reason's bottleneck ($bn_why) is not the update" \
    sh -c '[ -n "$1" ] && [ "$1" != update ]' sh "$bn_why"
check "$id: estimate with the same configuration agrees ($bn)" same "$bn" "$bn_why"
tt=$(cell "$T/est.csv" "" time_to_train_s)
check "$id: predicted is estimate's time-to-train ($tt s)" near "$(cell "$C" $id predicted)" "$tt" 1e-12
lim=$(seconds "$(cell reports/claims.csv $id target)")
if awk -v t="$tt" -v l="$lim" 'BEGIN { exit !(t > l) }'; then
    check "$id: slower than the $lim s target, so it does not hold outright" \
        [ "$(cell "$C" $id verdict)" != holds ]
else
    check "$id: within the $lim s target, so it holds" [ "$(cell "$C" $id verdict)" = holds ]
fi

# ---- 24 T as one logical device on 2,048 CS-3 ----
id=cs3-2048-24t
why=$(cell "$C" $id reason)
check "$id: the row uses 2048 systems" [ "$(cell "$C" $id systems)" = 2048 ]
check "$id: the reason trains on 2048 systems" \
    sh -c 'case "$1" in *"on 2048 systems"*) ;; *) exit 1 ;; esac' sh "$why"
tier=$(cell reports/claims.csv $id memoryx)
est $id
n_tier=$(cell "$T/est.csv" "" memoryx_servers)
"$CP" estimate -m 24t -s cs3 -n 2048 --csv >"$T/sized.csv" 2>"$T/err"
n_sized=$(cell "$T/sized.csv" "" memoryx_servers)
feasible=$(cell "$T/sized.csv" "" feasible)
w_tier=$(echo "$why" | sed -n "s/.* on \([0-9][0-9]*\) MemoryX servers (the $tier tier.*/\1/p")
w_sized=$(echo "$why" | sed -n 's/.* with the \([0-9][0-9]*\) MemoryX servers the model sizes.*/\1/p')
check "$id: the $tier tier's servers as estimate counts them ($w_tier vs $n_tier)" \
    same "$w_tier" "$n_tier"
check "$id: the servers the model sizes as estimate sizes them ($w_sized vs $n_sized)" \
    same "$w_sized" "$n_sized"
if [ "$feasible" = 1 ]; then
    check "$id: feasible on 2048 CS-3 with the sized servers, and the reason says so" \
        sh -c 'case "$1" in *"is feasible and takes"*) ;; *) exit 1 ;; esac' sh "$why"
fi
# the time at the reference token count, read back from "at 3e+11 tokens 354 d"
ref=$(echo "$why" | sed -n 's/.*; at \([0-9.e+]*\) tokens \([0-9.e+]*\) d.*/\1 \2/p')
"$CP" estimate -m 24t -s cs3 -n 2048 --tokens "${ref%% *}" --csv >"$T/ref.csv" 2>"$T/err"
d_est=$(cell "$T/ref.csv" "" time_to_train_s | awk '{ print $1 / 86400 }')
check "$id: the time at ${ref%% *} tokens matches estimate's (${ref#* } d vs $d_est d)" \
    near "${ref#* }" "$d_est" 0.01
tt=$(cell "$T/sized.csv" "" time_to_train_s)
lim=$(seconds "$(cell reports/claims.csv $id target)")
want=holds
awk -v t="$tt" -v l="$lim" 'BEGIN { exit !(t > l) }' && want=conditional
[ "$feasible" = 1 ] || want=conditional
check "$id: verdict '$want' from the sized cluster's $tt s against $lim s" \
    [ "$(cell "$C" $id verdict)" = "$want" ]

# ---- the claims that compare with GPUs (issue 21, item 6) ----
GPU_IDS="h100-52x-cores h100-880x-memory h100-8000x-bandwidth h100-3715x-fabric a100-56x-area
a100-123x-cores a100-1000x-memory mx-287-b200 gpt3-1024-gpus 1t-3000-gpus power-third power-1pct"
for id in $GPU_IDS; do
    v=$(cell "$C" "$id" verdict)
    case "$v" in
    holds | conditional | "does not hold") ok "$id: verdict '$v' is a documented one" ;;
    *) nok "$id: verdict is a documented one" "verdict '$v'" ;;
    esac
done

# showv NAME KEY: the exact value of KEY in `show NAME --csv`
showv() { "$CP" show "$1" --csv | tr -d '\r' | awk -F, -v k="$2" '$1 == k { print $2; exit }'; }

# ratio ID WSKEY WSPUB GPUKEY GPUPUB [GPU_FACTOR]: the figures behind the
# ratio claim ID are the published ones, and predicted is their quotient
ratio() {
    id=$1
    sys=$(cell reports/claims.csv "$id" system) gpu=$(cell reports/claims.csv "$id" gpu)
    ws=$(showv "$sys" "$2") gp=$(showv "$gpu" "$4")
    check "$id: $sys $2 is the published $3 ($ws)" near "$ws" "$3" 1e-12
    check "$id: $gpu $4 is the published $5 ($gp)" near "$gp" "$5" 1e-12
    q=$(awk -v a="$ws" -v b="$gp" -v f="${6:-1}" 'BEGIN { printf "%.17g", a / (b * f) }')
    check "$id: predicted is $ws / ${6:-1} x $gp = $q" near "$(cell "$C" "$id" predicted)" "$q" 1e-12
}
ratio h100-52x-cores chip.cores 900000 gpu.cores 16896
ratio h100-880x-memory system.sram 44e9 gpu.l2_cache 50e6
check "h100-880x-memory: 44 GB / 50 MB is 880, as claimed" same "$(cell "$C" h100-880x-memory predicted)" 880
ratio h100-8000x-bandwidth chip.memory_bandwidth 21e15 gpu.hbm_bandwidth 3.35e12
ratio h100-3715x-fabric chip.fabric_bandwidth 26.75e15 network.nvlink_bandwidth 450e9 2
ratio a100-56x-area chip.die_area_mm2 46225 gpu.die_area_mm2 826
ratio a100-123x-cores chip.cores 850000 gpu.cores 6912
ratio a100-1000x-memory system.sram 40e9 gpu.l2_cache 40e6
for id in h100-52x-cores h100-880x-memory h100-3715x-fabric a100-56x-area a100-123x-cores a100-1000x-memory; do
    check "$id: at least 95% of the claimed $(cell reports/claims.csv $id target)x, so it holds" \
        [ "$(cell "$C" $id verdict)" = holds ]
done
# 21 PB/s / 3.35 TB/s = 6269x falls short of 8,000x; the A100's HBM is
# slow enough, so it holds only under that condition
id=h100-8000x-bandwidth
a100bw=$(showv a100 gpu.hbm_bandwidth)
check "$id: short of 95% of 8000x, it holds only against a GPU as slow as the A100 ($a100bw B/s)" \
    sh -c '[ "$1" = conditional ] && awk -v w=21e15 -v a="$2" "BEGIN { exit !(w / a >= 7600) }" &&
        case "$3" in *"holds against A100"*"2.625 TB/s"* | *"2.625 TB/s"*"holds against A100"*) ;; *) exit 1 ;; esac' \
    sh "$(cell "$C" $id verdict)" "$a100bw" "$(cell "$C" $id reason)"
# 55 TB over the B200's HBM: the whole GPUs that hold it
id=mx-287-b200
hbm=$(showv b200 gpu.hbm)
want=$(awk -v h="$hbm" 'BEGIN { x = 55e12 / h; n = int(x); if (n < x) n++; print n }')
check "$id: 55 TB over $hbm B takes $want B200, the claimed 287" \
    sh -c '[ "$1" = 287 ] && [ "$2" = 287 ] && [ "$3" = holds ]' sh "$want" "$(cell "$C" $id predicted)" \
    "$(cell "$C" $id verdict)"

# GPT-3 175B on 1024 GPUs: estimate's time-to-train on those GPUs
id=gpt3-1024-gpus
"$CP" estimate -m gpt3-175b -s "$(cell reports/claims.csv $id gpu)" -n "$(cell reports/claims.csv $id gpus)" \
    --precision "$(cell reports/claims.csv $id precision)" --csv >"$T/g.csv" 2>"$T/err"
tt=$(cell "$T/g.csv" "" time_to_train_s)
# (estimate divides the tokens by the throughput; the claim, as compare,
# runs whole steps: a step's worth apart at most)
check "$id: predicted is estimate's time-to-train on 1024 A100 ($tt s)" near "$(cell "$C" $id predicted)" "$tt" 1e-5
lim=$(seconds "$(cell reports/claims.csv $id target)")
want=holds
awk -v t="$tt" -v l="$lim" 'BEGIN { exit !(t < 0.95 * l) }' && want=conditional
check "$id: verdict '$want' from $tt s against the claimed $lim s" [ "$(cell "$C" $id verdict)" = "$want" ]

# Megatron 1T: the fewest A100 within a year as compare finds them; the
# fewest on which it fits as estimate runs it (and not on 8 fewer)
id=1t-3000-gpus
"$CP" compare -m megatron-1t -s cs3 --gpu a100 --deadline "$(cell reports/claims.csv $id deadline)" \
    --csv >"$T/c.csv" 2>"$T/err"
units=$(awk -F, '$1 == "units" { print $4 }' "$T/c.csv")
check "$id: predicted is compare's fewest A100 within a year ($units)" same "$(cell "$C" $id predicted)" "$units"
fit=$(cell "$C" $id reason | sed -n 's/.*no fewer than \([0-9][0-9]*\) GPUs.*/\1/p')
"$CP" estimate -m megatron-1t -s a100 -n "$fit" --csv >/dev/null 2>&1
r1=$?
runs=
n8=8
while [ "$n8" -lt "${fit:-0}" ]; do # whole nodes below: none runs (1: no fit, 2: no divide)
    "$CP" estimate -m megatron-1t -s a100 -n "$n8" --csv >/dev/null 2>&1
    [ $? -eq 0 ] && runs="$runs $n8"
    n8=$((n8 + 8))
done
check "$id: it fits on $fit A100 (estimate exit $r1) and on no fewer whole nodes (${runs:-none run})" \
    sh -c '[ "$1" -gt 0 ] && [ "$2" -eq 0 ] && [ -z "$3" ]' sh "${fit:-0}" "$r1" "$runs"
want="does not hold"
[ "$units" -ge 2850 ] && want=conditional
[ "$fit" -ge 2850 ] && want=holds
check "$id: verdict '$want' from $fit to fit and $units within a year against 3000" \
    [ "$(cell "$C" $id verdict)" = "$want" ]

# power at an equal deadline: compare's two powers, nodes counted
id=power-third
"$CP" compare -m gpt3-175b -s cs3 --gpu b200 --deadline "$(cell reports/claims.csv $id deadline)" \
    --csv >"$T/p.csv" 2>"$T/err"
pw=$(awk -F, '$1 == "power" { printf "%.17g", $3 / $4 }' "$T/p.csv")
check "$id: predicted is compare's power ratio ($pw)" near "$(cell "$C" $id predicted)" "$pw" 1e-12
check "$id: the reason names whose power: nodes and chips" \
    sh -c 'case "$1" in *"(chips "*) ;; *) exit 1 ;; esac' sh "$(cell "$C" $id reason)"
# one CS-3 with 55 TB against 3,000 B200: 3072 GPUs (the fewest from
# 3,000 up that run) in 384 whole nodes at system.node_power
id=power-1pct
"$CP" compare -m megatron-1t -s cs3 --gpu b200 -n 1 --memoryx 55TB --csv >"$T/q.csv" 2>"$T/err"
wsp=$(awk -F, '$1 == "power" { print $3 }' "$T/q.csv")
np=$(showv b200 system.node_power)
pw=$(awk -v w="$wsp" -v n="$np" 'BEGIN { printf "%.17g", w / (384 * n) }')
check "$id: predicted is one CS-3's $wsp W over 384 B200 nodes of $np W ($pw)" \
    near "$(cell "$C" $id predicted)" "$pw" 1e-12
check "$id: above 1% counting nodes; the reason says what 1% takes" \
    sh -c 'awk -v p="$1" "BEGIN { exit !(p > 0.0105) }" && [ "$2" != holds ] &&
        case "$3" in *"1% (nodes) is the power of "*) ;; *) exit 1 ;; esac' \
    sh "$pw" "$(cell "$C" $id verdict)" "$(cell "$C" $id reason)"

# ---- text ----
run claims
check "claims (text): exit 0" [ "$rc" -eq 0 ]
for id in storage-120t cs3-2048-24t 1t-weekend $GPU_IDS; do
    check "claims (text): a block for $id" grep -q "^\[$id\] " "$T/out"
done

# ---- the predicted figure for people (issue 18, item 12) ----
# text_predicted ID: the "predicted:" line of claim ID's block in $T/out
text_predicted() {
    awk -v id="[$1]" '$1 == id { on = 1; next } /^\[/ { on = 0 } on && /^  predicted: / {
        sub(/^  predicted: +/, ""); print; exit }' "$T/out"
}
ids=$(tr -d '\r' <"$C" | awk -F, 'NR > 1 && $1 != "" { print $1 }')
bad=
nclaims=0
for id in $ids; do
    kind=$(cell "$C" "$id" kind)
    csvv=$(cell "$C" "$id" predicted)
    txt=$(text_predicted "$id")
    nclaims=$((nclaims + 1))
    # CSV: a plain number in SI units
    case "$csvv" in '' | *[!0-9.eE+-]*) bad="$bad $id(csv '$csvv')" ;; esac
    case "$kind" in
    weak_scaling)
        # a percentage with one decimal, 100 x the fraction
        echo "$txt" | grep -q '^[0-9][0-9]*\.[0-9]%$' &&
            near "${txt%\%}" "$(awk -v v="$csvv" 'BEGIN { print 100 * v }')" 0.001 ||
            bad="$bad $id('$txt' for $csvv)" ;;
    speedup | sparsity_speedup)
        # three significant digits (trailing zeros kept below 100x) and an x
        d=$(echo "${txt%x}" | tr -d '.' | sed 's/^0*//')
        echo "$txt" | grep -q '^[0-9][0-9.]*x$' && { [ ${#d} -eq 3 ] || [ "${txt%x}" = "$(awk -v v="$csvv" 'BEGIN { printf "%.0f", v }')" ]; } &&
            near "${txt%x}" "$csvv" 0.005 || bad="$bad $id('$txt' for $csvv)" ;;
    capacity) echo "$txt" | grep -q '^[0-9.]* [kMGTPE]*B$' || bad="$bad $id('$txt')" ;;
    time_to_train | gpu_time) echo "$txt" | grep -q '^[0-9.e+]* \(s\|ms\|min\|h\|d\|years\)$' || bad="$bad $id('$txt')" ;;
    ratio)
        # a ratio as 53.3x or 6269x, or the GPUs that hold a tier
        { echo "$txt" | grep -q '^[0-9.]*x$' && near "${txt%x}" "$csvv" 0.005; } ||
            [ "$txt" = "$csvv GPUs" ] || bad="$bad $id('$txt' for $csvv)" ;;
    gpu_count) [ "$txt" = "$csvv GPUs" ] || bad="$bad $id('$txt' for $csvv)" ;;
    power)
        echo "$txt" | grep -q '^[0-9.]*%$' &&
            near "${txt%\%}" "$(awk -v v="$csvv" 'BEGIN { print 100 * v }')" 0.005 ||
            bad="$bad $id('$txt' for $csvv)" ;;
    esac
done
if [ "$nclaims" -gt 0 ] && [ -z "$bad" ]; then
    ok "claims (text): efficiency as a percentage, speedups as 6.70x, units; --csv keeps plain SI numbers ($nclaims claims)"
else
    nok "claims (text): efficiency as a percentage, speedups as 6.70x, units; --csv keeps plain SI numbers" "$bad"
fi
if grep -q '^  verdict:   holds only under stated conditions$' "$T/out" &&
    [ "$(tr -d '\r' <"$C" | grep -c ',conditional,')" -gt 0 ]; then
    ok "claims: 'conditional' in CSV, 'holds only under stated conditions' in text"
else
    nok "claims: 'conditional' in CSV, 'holds only under stated conditions' in text"
fi

echo "# cli_claims done"
