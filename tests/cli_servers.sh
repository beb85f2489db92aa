#!/bin/sh
# Command-line tests of the cluster's servers (issue 17): MemoryX servers
# (--memoryx-servers, --memoryx TIER, sized per run), activation servers
# (--act-servers), SwarmX nodes, the activation placement (--activations),
# power per part; bad input (exit 2, the message names the flag or key),
# infeasible sizing (exit 1, the verdict names the limit with its numbers),
# properties of the model through the command line, and the issue's targets
# on 2,048 CS-3.  Expected values are computed here from `show` (the
# descriptions' own numbers) or compare the tool with itself at other
# inputs, never numbers it printed before.  Prints "ok N - what" or
# "not ok N - what" per check and "# cli_servers done".
. "$(dirname "$0")/lib.sh"

# awk_ok WHAT EXPR VAR=VALUE...: ok when the awk expression is true
awk_ok() {
    what=$1 expr=$2
    shift 2
    vars=$*
    for v in "$@"; do set -- "$@" -v "$v"; shift; done
    if awk "$@" "BEGIN { exit !($expr) }" </dev/null; then ok "$what"; else nok "$what" "$vars"; fi
}

# ---- bad input: exit 2, nothing on stdout, the message names the flag ----
expect_err "--memoryx-servers '0': must be a whole number from 1 to" "--memoryx-servers 0" estimate --memoryx-servers 0
expect_err "--memoryx-servers '-1': must be a whole number" "--memoryx-servers -1" estimate --memoryx-servers -1
expect_err "--memoryx-servers '1.5': must be a whole number" "--memoryx-servers 1.5" estimate --memoryx-servers 1.5
expect_err "--memoryx-servers '1e9': must be a whole number from 1 to 1e+06" "--memoryx-servers 1e9" estimate --memoryx-servers 1e9
expect_err "--memoryx-servers 'many'" "--memoryx-servers many" estimate --memoryx-servers many
expect_err "--act-servers '0': must be a whole number from 1 to" "--act-servers 0" estimate --act-servers 0
expect_err "--act-servers '2.5': must be a whole number" "--act-servers 2.5" estimate --act-servers 2.5
expect_err "--activations 'bogus': must be auto, wafer, recompute, recompute:K or offload" "--activations bogus" estimate --activations bogus
expect_err "--activations 'recompute:0': k must be a whole number of blocks from 1 to 96" "--activations recompute:0" estimate --activations recompute:0
expect_err "--activations 'recompute:99999': k must be a whole number of blocks from 1 to 96" "--activations recompute:99999" estimate --activations recompute:99999
expect_err "--activations 'recompute:2.5'" "--activations recompute:2.5" estimate --activations recompute:2.5
# k is bounded by the model's own blocks: 24 for GPT-3 XL
expect_err "from 1 to 24" "--activations recompute:25 on a 24-block model" estimate -m gpt3-xl --activations recompute:25
expect_err "--set memoryx.server_network: must be greater than zero" "--set memoryx.server_network=0 GB/s" estimate --set 'memoryx.server_network=0 GB/s'
expect_err "--set memoryx.server_network: missing unit" "--set memoryx.server_network=0" estimate --set memoryx.server_network=0
expect_err "--set activation.server_memory: must be greater than zero" "--set activation.server_memory=0 B" estimate --set 'activation.server_memory=0 B'
expect_err "--set activation.server_memory: missing unit" "--set activation.server_memory=0" estimate --set activation.server_memory=0
expect_err "--set swarmx.reduce_bandwidth: must be greater than zero" "--set swarmx.reduce_bandwidth=0 GB/s" estimate --set 'swarmx.reduce_bandwidth=0 GB/s'
# sizes that round to nothing: a million servers of 1 B hold no layer
expect_err "memoryx.server_memory: 1e+06 servers of 1 B" "--set memoryx.server_memory=1 B" estimate --set 'memoryx.server_memory=1 B'
expect_err "activation.server_memory: 1e+06 servers of 1 B" "--set activation.server_memory=1 B" estimate --set 'activation.server_memory=1 B'
# rates that round to zero: the state (3.15 TB for GPT-3 175B) would take
# longer than a double holds to pass through them
for kv in memoryx.server_network memoryx.server_memory_bandwidth activation.server_network swarmx.reduce_bandwidth; do
    expect_err "$kv: 1e-300 B/s rounds to zero" "--set $kv=1e-300 B/s rounds to zero" estimate --set "$kv=1e-300 B/s"
done
expect_err "memoryx.server_update_flops: 1e-300 FLOP/s rounds to zero" "--set memoryx.server_update_flops=1e-300 FLOP/s rounds to zero" estimate --set 'memoryx.server_update_flops=1e-300 FLOP/s'
expect_err "memoryx.server_flash_bandwidth: 1e-300 B/s rounds to zero" "flash bandwidth that rounds to zero" estimate --set 'memoryx.server_flash=1 TB' --set 'memoryx.server_flash_bandwidth=1e-300 B/s'
# ... but a slow rate that does not is a (slow) answer, not an error (at
# fixed servers: sized, it takes a million, whose failures stop the job)
expect_rc 0 "--set memoryx.server_network=1 kB/s: an answer" estimate --memoryx-servers 4 --set 'memoryx.server_network=1 kB/s'
# flash without the bandwidth to reach it; with it, accepted
expect_err "memoryx.server_flash_bandwidth" "--set memoryx.server_flash=1 TB without server_flash_bandwidth" estimate --set 'memoryx.server_flash=1 TB'
expect_rc 0 "--set memoryx.server_flash=1 TB with server_flash_bandwidth" estimate --set 'memoryx.server_flash=1 TB' --set 'memoryx.server_flash_bandwidth=5 GB/s'
expect_err "--memoryx and --memoryx-servers both set the MemoryX servers" "--memoryx with --memoryx-servers" estimate --memoryx 4TB --memoryx-servers 4
expect_err "--memoryx and --memoryx-servers both set the MemoryX servers" "--memoryx-servers with --memoryx" estimate --memoryx-servers 4 --memoryx 4TB
# the same checks in the other commands that take the options
expect_err "--memoryx-servers '0'" "scale --memoryx-servers 0" scale --memoryx-servers 0
expect_err "--activations 'bogus'" "scale --activations bogus" scale --activations bogus
expect_err "--act-servers '0'" "sensitivity --act-servers 0" sensitivity --act-servers 0

# ---- infeasible sizing: exit 1, the limit that binds and its numbers ----
# 120 T on 2048 CS-3 with 10 MemoryX servers: 2.163 PB of state against
# 10 x 1128 GiB = 12.11 TB
run estimate -m 120t -s cs3 -n 2048 --memoryx-servers 10
if [ "$rc" -eq 1 ] && grep -q '^infeasible: memoryx_full' "$T/out" &&
    grep -q "^memoryx  *fails  *state 2.163 PB (18 B/param) vs 10 servers' 12.11 TB" "$T/out"; then
    ok "120 T on 2048 CS-3 with 10 MemoryX servers: exit 1, memoryx_full with the numbers"
else
    nok "120 T on 2048 CS-3 with 10 MemoryX servers: exit 1, memoryx_full with the numbers" "rc $rc: $(grep -e '^memoryx' -e infeasible "$T/out" | tr '\n' ' ')"
fi
# 120 T offloaded to one activation server of 256 GiB: a sequence's
# checkpoints are 1036 block inputs of 2 x 2048 x 98304 B = 417.1 GB, above
# the server's 256 GiB = 274.9 GB
ckpt=$(awk 'BEGIN { printf "%.4g", 1036 * 2 * 2048 * 98304 / 1e9 }')
run estimate -m 120t -s cs3 --activations offload --act-servers 1 --set 'activation.server_memory=256 GiB'
if [ "$rc" -eq 1 ] && grep -q '^infeasible: act_store_full' "$T/out" &&
    grep -q "^act_store  *fails  *0 sequences' checkpoints fit ($ckpt GB each, 1 server's 274.9 GB)" "$T/out"; then
    ok "120 T on one 256 GiB activation server: exit 1, act_store_full with the numbers ($ckpt GB a sequence)"
else
    nok "120 T on one 256 GiB activation server: exit 1, act_store_full with the numbers" "rc $rc: $(grep -e '^act_store' -e infeasible "$T/out" | tr '\n' ' ')"
fi
# three such servers (824.6 GB) hold one sequence: feasible, each of the
# 16384 sequences of one system's batch a micro-batch of its own
est_csv a3 -m 120t -s cs3 --activations offload --act-servers 3 --set 'activation.server_memory=256 GiB'
[ "$rc" -eq 0 ] && [ "$(csv_col "$T/a3.csv" act_store_fits)" = 1 ] && [ "$(csv_col "$T/a3.csv" micro_batches)" = 16384 ] &&
    ok "3 activation servers (824.6 GB) hold one 417 GB sequence: feasible, one sequence a micro-batch" ||
    nok "3 activation servers hold one sequence" "rc $rc, micro_batches $(csv_col "$T/a3.csv" micro_batches)"
# recomputing every block keeps 1036 inputs on the wafer: SRAM binds
run estimate -m 120t -s cs3 --activations recompute:1
[ "$rc" -eq 1 ] && grep -q '^infeasible: sram_full' "$T/out" && grep -q '^sram  *fails  *0 sequences per system fit' "$T/out" &&
    ok "120 T recomputing every block: exit 1, sram_full" || nok "120 T recomputing every block: exit 1, sram_full" "rc $rc"

# ---- MemoryX servers: tiers, sizing, counts ----
mem3=$(show_val cs3 memoryx.server_memory)
for tier in 1.5TB:1.5e12 12TB:12e12 55TB:55e12 1.2PB:1.2e15; do
    name=${tier%%:*} bytes=${tier#*:}
    want=$(awk -v b="$bytes" -v m="$mem3" 'BEGIN { s = b / m; n = int(s); if (n < s) n++; print n }')
    est_csv tier -m gpt3-175b -s cs3 --memoryx "$name"
    got=$(csv_col "$T/tier.csv" memoryx_servers)
    cap=$(csv_col "$T/tier.csv" memoryx_bytes)
    awk_ok "--memoryx $name is ceil($bytes / $mem3) = $want servers, holding $cap B" \
        "g == w && c == w * m" g="$got" w="$want" c="$cap" m="$mem3"
done
# sized for the run: at least enough to hold the state in DRAM and feed
# the port (min(system I/O, SwarmX link) / server_network)
est_csv sized -m megatron-1t -s cs3 -n 16
state=$(csv_col "$T/sized.csv" state_bytes)
S=$(csv_col "$T/sized.csv" memoryx_servers)
io=$(show_val cs3 system.io_bandwidth)
net=$(show_val cs3 memoryx.server_network)
awk_ok "sized MemoryX servers ($S) hold the state in DRAM and feed the port" \
    "S >= st / m && S * n >= io && S == int(S)" S="$S" st="$state" m="$mem3" n="$net" io="$io"
[ "$(csv_col "$T/sized.csv" memoryx)" = sized ] && ok "the memoryx column says sized" || nok "the memoryx column says sized" "$(csv_col "$T/sized.csv" memoryx)"
est_csv fixed -m megatron-1t -s cs3 -n 16 --memoryx-servers 123
[ "$(csv_col "$T/fixed.csv" memoryx_servers)" = 123 ] && ok "--memoryx-servers 123: 123 servers" || nok "--memoryx-servers 123: 123 servers"
awk_ok "--memoryx-servers 123: capacity 123 servers' memory" "c == 123 * m" c="$(csv_col "$T/fixed.csv" memoryx_bytes)" m="$mem3"

# Doubling the servers of an update-bound configuration (GPT-3 175B, one
# sequence on one CS-3, 3 servers with slow DRAM) halves the update's busy
# time and never lengthens the step.
slow="memoryx.server_memory_bandwidth=50 GB/s"
est_csv d3 -m gpt3-175b -s cs3 --batch 1 --memoryx-servers 3 --set "$slow"
[ "$(csv_col "$T/d3.csv" bottleneck)" = update ] && ok "3 servers with slow DRAM: update-bound" || nok "3 servers with slow DRAM: update-bound" "$(csv_col "$T/d3.csv" bottleneck)"
prev=d3
for S in 6 12 24 48; do
    est_csv "d$S" -m gpt3-175b -s cs3 --batch 1 --memoryx-servers "$S" --set "$slow"
    awk_ok "$S servers: update busy halves, step does not grow" \
        "u2 > 0 && (u1 / u2 - 2) ^ 2 < 1e-18 && s2 <= s1" \
        u1="$(csv_col "$T/$prev.csv" update_s)" u2="$(csv_col "$T/d$S.csv" update_s)" \
        s1="$(csv_col "$T/$prev.csv" step_time_s)" s2="$(csv_col "$T/d$S.csv" step_time_s)"
    prev=d$S
done

# Sized per run, the update never sets the pace: 10 T on 2048 CS-3 (an
# issue-17 target), and GPT-3 175B on 1 and 192 CS-2
for cfg in "10t cs3 2048" "gpt3-175b cs2 1" "gpt3-175b cs2 192" "120t cs3 2048"; do
    set -- $cfg
    est_csv upd -m "$1" -s "$2" -n "$3"
    pu=$(csv_col "$T/upd.csv" paced_update_s)
    bn=$(csv_col "$T/upd.csv" bottleneck)
    [ "$pu" = 0 ] && [ "$bn" != update ] && ok "$1 on $3 $2, servers sized: the update sets no pace (bottleneck $bn)" ||
        nok "$1 on $3 $2, servers sized: the update sets no pace" "paced_update_s $pu, bottleneck $bn"
done

# ---- activation placement ----
# With none forced, the step is the fastest placement that fits among those
# --activations can force (the wafer left out when the model file asks
# for recompute), and it says which.
for cfg in "gpt3-175b cs2 1" "gpt3-175b cs2 192" "llama2-7b cs3 1" "gpt3-xl cs3 16" "megatron-1t cs3 16" "120t cs3 2048" "bert-large cs2 1"; do
    set -- $cfg
    m=$1 s=$2 nn=$3
    rec=$(show_val "$m" recompute)
    est_csv auto -m "$m" -s "$s" -n "$nn"
    auto_t=$(csv_col "$T/auto.csv" step_time_s)
    auto_a=$(csv_col "$T/auto.csv" activations)
    best=
    best_a=
    for a in wafer recompute offload; do
        [ "$a" = wafer ] && [ "$rec" = true ] && continue
        est_csv forced -m "$m" -s "$s" -n "$nn" --activations "$a"
        fits=$(awk -v a="$(csv_col "$T/forced.csv" sram_fits)" -v b="$(csv_col "$T/forced.csv" act_store_fits)" 'BEGIN { print (a == 1 && b == 1) }')
        t=$(csv_col "$T/forced.csv" step_time_s)
        if [ "$fits" = 1 ] && { [ -z "$best" ] || awk -v x="$t" -v y="$best" 'BEGIN { exit !(x < y) }'; }; then
            best=$t best_a=$(csv_col "$T/forced.csv" activations)
        fi
    done
    if [ -n "$best" ] && awk -v x="$auto_t" -v y="$best" 'BEGIN { exit !(x == y) }' && [ "$auto_a" = "$best_a" ]; then
        ok "$m on $nn $s: the free placement ($auto_a) is the fastest that fits"
    else
        nok "$m on $nn $s: the free placement is the fastest that fits" "auto $auto_a $auto_t, best $best_a $best"
    fi
done
run estimate -m gpt3-175b -s cs2
grep -q '^activations .*(fastest that fits)' "$T/out" && ok "estimate says the placement was the fastest that fits" || nok "estimate says the placement was the fastest that fits"
run estimate -m gpt3-175b -s cs2 --activations recompute:3
grep -q '^activations recompute:3 (forced)' "$T/out" && ok "estimate says a placement was forced" || nok "estimate says a placement was forced" "$(grep '^activations' "$T/out")"

# Recomputing in segments of k > 1 blocks streams every block's weights a
# third time: at the same micro-batches, stream_in is busier than
# recomputing every block, by the blocks' weights at the stream rate
# (GPT-3 XL: 24 blocks of 12 h^2 + 13 h parameters at 2 B, h = 2048; the
# stream rate with servers sized per run: min(system I/O, SwarmX link))
blocks=$(awk -v l="$(show_val gpt3-xl layers)" -v h="$(show_val gpt3-xl hidden)" 'BEGIN { printf "%.17g", l * (12 * h * h + 13 * h) * 2 }')
rate=$(awk -v a="$io" -v b="$(show_val cs3 swarmx.link_bandwidth)" 'BEGIN { print (a < b ? a : b) }')
est_csv k1 -m gpt3-xl -s cs3 --batch 1 --activations recompute:1
for k in 2 3 6; do
    est_csv kk -m gpt3-xl -s cs3 --batch 1 --activations "recompute:$k"
    awk_ok "recompute:$k streams the blocks' weights once more than recompute:1 (same micro-batches)" \
        "m1 == mk && ik > i1 && ((ik - i1) / (b / bw) - 1) ^ 2 < 1e-12" \
        m1="$(csv_col "$T/k1.csv" micro_batches)" mk="$(csv_col "$T/kk.csv" micro_batches)" \
        i1="$(csv_col "$T/k1.csv" stream_in_s)" ik="$(csv_col "$T/kk.csv" stream_in_s)" b="$blocks" \
        bw="$rate"
done

# activation servers: as given, else the description's count a system
# (the published clusters: one; ALCF's 4 for 4 CS-3), whatever the
# placement: they carry the samples in
aps=$(show_val cs3 activation.servers_per_system)
[ "$aps" = 1 ] && ok "cs3 ships one activation server a system (ALCF: 4 for 4 CS-3)" || nok "cs3 ships one activation server a system" "$aps"
est_csv act -m llama2-7b -s cs3 --activations offload --act-servers 5
[ "$(csv_col "$T/act.csv" act_servers)" = 5 ] && ok "--act-servers 5 with offload: 5 a system" || nok "--act-servers 5 with offload: 5 a system" "$(csv_col "$T/act.csv" act_servers)"
est_csv act -m gpt3-xl -s cs3 -n 3 --batch 3 --activations wafer
awk_ok "on the wafer, 3 systems: their activation servers all the same, with their power" \
    "a == s && p == 3 * s * w" a="$(csv_col "$T/act.csv" act_servers)" s="$aps" \
    p="$(csv_col "$T/act.csv" power_activation_W)" w="$(show_val cs3 activation.server_power)"
est_csv act -m gpt3-xl -s cs3 --activations wafer --set activation.servers_per_system=3
[ "$(csv_col "$T/act.csv" act_servers)" = 3 ] && ok "--set activation.servers_per_system=3: 3 a system" || nok "--set activation.servers_per_system=3: 3 a system" "$(csv_col "$T/act.csv" act_servers)"
# offloaded, the count does not grow with the batch: the block inputs the
# servers cannot hold run as micro-batches, each as many sequences as they
# hold (Llama-2 7B: 32 x 2 x 4096 x 4096 B a sequence)
amem=$(show_val cs3 activation.server_memory)
for b in 32 1024 4096; do
    est_csv act -m llama2-7b -s cs3 --activations offload --batch "$b"
    awk_ok "Llama-2 7B at batch $b offloaded: $aps server a system, micro-batches of what it holds" \
        "A == s && m == int((b + h - 1) / h)" A="$(csv_col "$T/act.csv" act_servers)" s="$aps" \
        m="$(csv_col "$T/act.csv" micro_batches)" b="$b" \
        h="$(awk -v a="$aps" -v m="$amem" 'BEGIN { print int(a * m / (32 * 2 * 4096 * 4096)) }')"
done
# --set activation.servers_per_system=0 is refused: a count of servers
expect_err "activation.servers_per_system" "--set activation.servers_per_system=0" estimate --set activation.servers_per_system=0
expect_err "activation.servers_per_system" "--set activation.servers_per_system=1.5" estimate --set activation.servers_per_system=1.5
expect_err "swarmx.lanes" "--set swarmx.lanes=0" estimate --set swarmx.lanes=0

# ---- power and energy: every server counted ----
for cfg in "megatron-1t cs3 16" "120t cs3 2048" "gpt3-175b cs2 192 --activations offload --act-servers 7"; do
    set -- $cfg
    m=$1 s=$2 nn=$3
    shift 3
    est_csv pw -m "$m" -s "$s" -n "$nn" "$@"
    f=$T/pw.csv
    awk_ok "$m on $nn $s${*:+ $*}: power parts sum to power_W, each counts its servers; energy = power x time" \
        "(ps + pm + pa + pw - p) ^ 2 <= (1e-12 * p) ^ 2 &&
         ps == n * sp && pm == S * mp && pa == n * A * ap && pw == X * xp &&
         (e / (p * t) - 1) ^ 2 < 1e-24" \
        p="$(csv_col "$f" power_W)" ps="$(csv_col "$f" power_systems_W)" \
        pm="$(csv_col "$f" power_memoryx_W)" pa="$(csv_col "$f" power_activation_W)" \
        pw="$(csv_col "$f" power_swarmx_W)" n="$nn" S="$(csv_col "$f" memoryx_servers)" \
        A="$(csv_col "$f" act_servers)" X="$(csv_col "$f" swarmx_nodes)" \
        sp="$(show_val "$s" system.power)" mp="$(show_val "$s" memoryx.server_power)" \
        ap="$(show_val "$s" activation.server_power)" xp="$(show_val "$s" swarmx.node_power)" \
        e="$(csv_col "$f" energy_J)" t="$(csv_col "$f" time_to_train_s)"
done
# SwarmX nodes: lanes x (ceil(N/k) + ceil(N/k^2) + ... + 1), k the fan-out
# (4 on CS-3); lanes 8 on CS-3 (ALCF: 8 for 4 CS-3)
lanes=$(show_val cs3 swarmx.lanes)
[ "$lanes" = 8 ] && ok "cs3 ships 8 SwarmX lanes" || nok "cs3 ships 8 SwarmX lanes" "$lanes"
est_csv sx -m gpt3-xl -s cs3 -n 2048 --batch 2048
[ "$(csv_col "$T/sx.csv" swarmx_nodes)" = $((lanes * (512 + 128 + 32 + 8 + 2 + 1))) ] && ok "2048 CS-3: 8 x 683 SwarmX nodes" || nok "2048 CS-3: 8 x 683 SwarmX nodes" "$(csv_col "$T/sx.csv" swarmx_nodes)"
est_csv sx -m gpt3-xl -s cs3 -n 2048 --batch 2048 --set swarmx.lanes=1
[ "$(csv_col "$T/sx.csv" swarmx_nodes)" = 683 ] && ok "2048 CS-3, one lane: 683 SwarmX nodes" || nok "2048 CS-3, one lane: 683 SwarmX nodes" "$(csv_col "$T/sx.csv" swarmx_nodes)"
est_csv sx1 -m gpt3-xl -s cs3 -n 2048 --batch 2048
awk_ok "lanes change the count, not the step" "a == b" a="$(csv_col "$T/sx.csv" step_time_s)" b="$(csv_col "$T/sx1.csv" step_time_s)"
run estimate -m megatron-1t -s cs3 -n 16
grep -q "^servers  *[0-9]* MemoryX, 16 activation (1 per system), $((lanes * 5)) SwarmX nodes" "$T/out" &&
    ok "estimate lists the servers of every kind" || nok "estimate lists the servers of every kind" "$(grep '^servers' "$T/out")"

# ---- issue-17 targets on CS-3 ----
# 120 T for 300 B tokens on 2048 CS-3: feasible, no faster than the
# dense-peak compute bound 6 P T / (N x peak); with one activation server
# a system (417 GB a sequence) each of a system's 8 sequences is a
# micro-batch of its own and the weights stream 8 times; with the servers
# that hold all 8 (--act-servers 7) within 10x of the bound
P=$(show_val 120t params)
peak=$(show_val cs3 system.peak_flops)
bound=$(awk -v P="$P" -v pk="$peak" 'BEGIN { printf "%.17g", 6 * P * 300e9 / (2048 * pk) }')
est_csv t120 -m 120t -s cs3 -n 2048 --tokens 300e9
tt=$(csv_col "$T/t120.csv" time_to_train_s)
[ "$rc" -eq 0 ] && [ "$(csv_col "$T/t120.csv" feasible)" = 1 ] && ok "120 T, 300 B tokens, 2048 CS-3: feasible" || nok "120 T, 300 B tokens, 2048 CS-3: feasible" "rc $rc: $(csv_col "$T/t120.csv" warnings)"
[ "$(csv_col "$T/t120.csv" micro_batches)" = 8 ] && ok "120 T on 2048 CS-3, one activation server: 8 micro-batches of one sequence" || nok "120 T on 2048 CS-3, one activation server: 8 micro-batches" "$(csv_col "$T/t120.csv" micro_batches)"
awk_ok "120 T, 300 B tokens, 2048 CS-3: $tt s, at least the compute bound $bound s" "t >= b" t="$tt" b="$bound"
est_csv t120 -m 120t -s cs3 -n 2048 --tokens 300e9 --act-servers 7
tt=$(csv_col "$T/t120.csv" time_to_train_s)
awk_ok "120 T, 300 B tokens, 2048 CS-3, 7 activation servers a system: one micro-batch, $tt s within 10x of $bound s" \
    "m == 1 && t >= b && t <= 10 * b" m="$(csv_col "$T/t120.csv" micro_batches)" t="$tt" b="$bound"
# every shipped model is feasible at some N of 1, 16, 192 and 2048 CS-3
"$CP" list models --csv | tr -d '\r' | awk -F, 'NR > 1 { print $1 }' >"$T/models"
[ "$(wc -l <"$T/models")" -ge 13 ] && ok "list models lists the shipped models" || nok "list models lists the shipped models" "$(cat "$T/models")"
while read -r m; do
    at=
    for nn in 1 16 192 2048; do
        run estimate -m "$m" -s cs3 -n "$nn"
        if [ "$rc" -eq 0 ]; then
            at=$nn
            break
        fi
    done
    [ -n "$at" ] && ok "$m is feasible on $at CS-3" || nok "$m is feasible at some N of 1, 16, 192, 2048 CS-3" "last rc $rc: $(grep infeasible "$T/out")"
done <"$T/models"

echo "# cli_servers done"
