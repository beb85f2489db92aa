#!/bin/sh
# Command-line tests: run the real binary and check exit codes, messages and
# output.  Prints "ok N - what" or "not ok N - what" per check (run.sh counts
# them) and "# cli done" at the end.
. "$(dirname "$0")/lib.sh"

# ---- every shipped description loads ----
for f in hw/*.ini models/*.ini; do
    name=$(basename "$f" .ini)
    expect_rc 0 "show $name (built in)" show "$name"
    expect_rc 0 "show $f (file)" show "$f"
done

# ---- malformed descriptions: file:line:key and exit 2 ----
# bad KIND BASE SEDEXPR KEY MESSAGE: copy the shipped BASE with SEDEXPR applied,
# expect "FILE:LINE: KEY: MESSAGE" where LINE is the first line mentioning
# the key's name (after the edit).
bad() {
    kind=$1 base=$2 expr=$3 key=$4 msg=$5
    f="$T/bad-$n.ini"
    sed -e "$expr" "$base" >"$f"
    line=$(grep -n "^${key#*.} *=" "$f" | tail -n 1 | cut -d: -f1)
    run show "$f"
    if [ "$rc" -eq 2 ] && grep -qF -- "$f:$line: $key: " "$T/err" && grep -qF -- "$msg" "$T/err"; then
        ok "$kind: $msg ($key)"
    else
        nok "$kind: $msg ($key)" "exit $rc; stderr: $(head -c 300 "$T/err"); wanted $f:$line: $key: ... $msg"
    fi
}
H=hw/cs2.ini
M=models/gpt3-175b.ini
bad hw $H 's/^peak_flops = .*/peak_flops = 7.5 PFLOPS/' system.peak_flops "unknown unit 'PFLOPS'"
bad hw $H 's/^sram = .*/sram = 40 KB/' system.sram "unknown unit 'KB'"
bad hw $H 's/^sram = .*/sram = 40 GB\/s/' system.sram "unit 'GB/s' is a bandwidth, but a size is expected"
bad hw $H 's/^hop_latency = .*/hop_latency = 2 GB/' swarmx.hop_latency "unit 'GB' is a size, but a time is expected"
bad hw $H 's/^io_bandwidth = .*/io_bandwidth = 150/' system.io_bandwidth "missing unit"
bad hw $H 's/^sram = .*/sram = -40 GB/' system.sram "must not be negative"
bad hw $H 's/^server_memory_bandwidth = .*/server_memory_bandwidth = 0 GB\/s/' memoryx.server_memory_bandwidth "must be greater than zero"
bad hw $H 's/^server_update_flops = .*/server_update_flops = nan FLOP\/s/' memoryx.server_update_flops "is not a number"
bad hw $H 's/^server_update_flops = .*/server_update_flops = 1e400 FLOP\/s/' memoryx.server_update_flops "out of range"
bad hw $H '/^\[activation\]/,/^\[/s/^server_memory = .*/server_memory = -183 GiB/' activation.server_memory "must not be negative"
bad hw $H 's/^reduce_bandwidth = .*/reduce_bandwidth = 300 GB/' swarmx.reduce_bandwidth "unit 'GB' is a size"
bad hw $H 's/^utilization = .*/utilization = 1.2/' system.utilization "at most 1"
bad hw $H 's/^fanout = .*/fanout = 2.5/' swarmx.fanout "whole number"
bad hw $H 's/^fanout = .*/fanout = 1/' swarmx.fanout "at least 2"
bad hw $H 's/^sram = .*/&\nsram = 41 GB/' system.sram "duplicate key (first given on line"
bad hw $H 's/^sram = .*/&\nsram_size = 41 GB/' system.sram_size "unknown key"
bad model $M 's/^layers = .*/layers = 96 GB/' model.layers "unit 'GB' is a size, but a count is expected"
bad model $M 's/^hidden = .*/hidden = 12288 furlongs/' model.hidden "unknown unit 'furlongs'"
bad model $M 's/^layers = .*/layers = 0/' model.layers "must be greater than zero"
bad model $M 's/^layers = .*/layers = -96/' model.layers "must not be negative"
bad model $M 's/^layers = .*/layers = 96.5/' model.layers "whole number"
bad model $M 's/^vocab = .*/vocab = inf/' model.vocab "is not a number"
bad model $M 's/^tokens = .*/tokens = lots/' model.tokens "is not a number"
bad model $M 's/^heads = .*/heads = 97/' model.heads "do not divide hidden"
bad model $M 's/^batch = .*/&\nbatch = 1024/' model.batch "duplicate key"
bad model $M 's/^batch = .*/&\nglobal_batch = 1024/' model.global_batch "unknown key"
bad model $M 's/^batch = .*/&\ngated_ffn = maybe/' model.gated_ffn "not a boolean"
bad model $M 's/^batch = .*/&\nnorm = batchnorm/' model.norm "not one of layernorm|rmsnorm"

# missing required keys: reported against the file with the key named
sed '/^peak_flops =/d' $H >"$T/noflops.ini"
expect_err "$T/noflops.ini:6: system.peak_flops: missing required key" "hw: missing required key at its section" show "$T/noflops.ini"
expect_err "system.peak_flops: missing required key" "hw: missing required key names key" show "$T/noflops.ini"
sed '/^seq_len =/d' $M >"$T/noseq.ini"
expect_err "$T/noseq.ini:4: model.seq_len: missing required key" "model: missing required key" show "$T/noseq.ini"
sed '/^\[swarmx\]/,/^\[tiers\]/{/^\[tiers\]/!d}' $H >"$T/noswarm.ini"
expect_err "swarmx.fanout: missing required key (add 'fanout = ...' under [swarmx], a section this file lacks" "hw: missing section" show "$T/noswarm.ini"
printf '[system]\npeak_flops = 1 PFLOP/s\n[gpu]\nx = 1\n' >"$T/sec.ini"
expect_err "$T/sec.ini:3: [gpu]: unknown section in a hardware file" "unknown section" show "$T/sec.ini"
printf '[model]\nlayers = 2\n[system]\n' >"$T/sec2.ini"
expect_err "$T/sec2.ini:3: [system]: unknown section in a model file" "unknown empty section" show "$T/sec2.ini"
printf '[model]\nlayers = 2\nthis is not ini\n' >"$T/syn.ini"
expect_err "$T/syn.ini:3: syntax error" "syntax error line" show "$T/syn.ini"
printf 'just text\n' >"$T/neither.ini"
expect_err "expected a [model] or [system] section" "file of neither kind" show "$T/neither.ini"
printf '[model]\nlayers = 2\0\n' >"$T/nul.ini"
expect_err "binary data" "file with NUL bytes" show "$T/nul.ini"
expect_err "$T/absent.ini" "missing file named" show "$T/absent.ini"
expect_err "no model or hardware description named 'gpt5'" "unknown name" show gpt5

# ---- --set overrides ----
run show gpt3-175b --csv --set model.layers=48
if [ "$rc" -eq 0 ] && grep -q '^layers,48,' "$T/out"; then ok "--set overrides a model key"; else nok "--set overrides a model key"; fi
run show cs2 --csv --set 'system.peak_flops=15.84 PFLOP/s'
if [ "$rc" -eq 0 ] && awk -F, '$1 == "system.peak_flops" && $2 == 15.84e15 {f=1} END {exit !f}' "$T/out"; then ok "--set parses units"; else nok "--set parses units" "$(cat "$T/out" "$T/err" | head -5)"; fi
run show gpt3-175b --set model.layers=48
if grep -q '^layers  *48  *--set' "$T/out"; then ok "--set shown as the source"; else nok "--set shown as the source"; fi
run show cs2 --csv --set 'tiers.20TB=20 TB' --set 'tiers.big=20 TB' --set 'tiers.big=30 TB'
if grep -q '^tiers.20TB,20000000000000,B' "$T/out" && grep -q '^tiers.big,30000000000000,B' "$T/out"; then ok "--set adds and replaces tiers"; else nok "--set adds and replaces tiers"; fi
expect_err "--set tiers.x: missing unit" "--set tier without unit" show cs2 --set tiers.x=20
expect_err "--set model.layers: unit 'GB'" "--set bad unit names the flag" show gpt3-175b --set model.layers=9GB
expect_err "--set model.depth: no such key in a model description" "--set unknown key" show gpt3-175b --set model.depth=9
expect_err "--set layers=9: expected section.key=value" "--set syntax" show gpt3-175b --set layers=9
expect_err "--set system.power: no such key in a model description" "--set of the other kind" show gpt3-175b --set system.power=1kW

# ---- CSV output ----
run show gpt3-175b --csv
head -n 1 "$T/out" | tr -d '\r' >"$T/h"
if [ "$(cat "$T/h")" = "quantity,value,unit,spread" ]; then ok "show --csv header"; else nok "show --csv header" "$(cat "$T/h")"; fi
for q in params tokens train_flops; do
    if grep -q "^$q,[0-9][0-9.e+]*," "$T/out"; then ok "show --csv has $q"; else nok "show --csv has $q"; fi
done
# 6ND of GPT-3 175B: Brown et al. 2020 give 3.14e23 FLOPs (FIGURES.md)
six=$(grep '^six_nd,' "$T/out" | cut -d, -f2)
if awk -v v="$six" 'BEGIN{exit !(v > 3.13e23 && v < 3.15e23)}'; then ok "show: 6ND of GPT-3 is Brown et al.'s 3.14e23"; else nok "show: 6ND of GPT-3" "$six"; fi
mf=$(grep '^model_flops,' "$T/out" | cut -d, -f2); tf=$(grep '^train_flops,' "$T/out" | cut -d, -f2)
if awk -v s="$six" -v m="$mf" -v t="$tf" 'BEGIN{exit !(s < m && m < t)}'; then ok "show: 6ND < model FLOPs (attention) < training FLOPs (recompute)"; else nok "show: FLOP ordering" "$six $mf $tf"; fi
if awk 'BEGIN{RS="\r\n"} NF && !/^[a-z0-9_.]+,/ {bad=1} END{exit bad}' "$T/out"; then ok "show --csv rows are CRLF records"; else nok "show --csv rows are CRLF records"; fi
run list --csv
if head -n 1 "$T/out" | grep -q '^kind,name,'; then ok "list --csv has a name column"; else nok "list --csv has a name column"; fi
run list models --csv
if [ "$(grep -c 'built-in' "$T/out")" -eq "$(ls models/*.ini | wc -l)" ]; then ok "list models lists every model"; else nok "list models lists every model"; fi
run list hw --csv
if head -n 1 "$T/out" | grep -q '^name,' && grep -q '^cs3,' "$T/out"; then ok "list hw --csv"; else nok "list hw --csv"; fi
expect_err "unknown kind 'gpus'" "list of an unknown kind" list gpus
# Golden files: the built-in descriptions' CSV, byte for byte.
for g in tests/golden/show-*.csv; do
    [ -f "$g" ] || continue
    name=$(basename "$g" .csv)
    run show "${name#show-}" --csv
    if cmp -s "$T/out" "$g"; then ok "golden $name"; else nok "golden $name" "$(diff "$g" "$T/out" | head -5)"; fi
done

# ---- lookup order: explicit path, --data-dir, CEREBRAS_PLAN_PATH, built-in ----
mkdir -p "$T/d1/models" "$T/d2/models"
sed 's/^layers = .*/layers = 11/' $M >"$T/d1/models/gpt3-175b.ini"
sed 's/^layers = .*/layers = 22/' $M >"$T/d2/models/gpt3-175b.ini"
layers() { "$CP" show gpt3-175b --csv "$@" | grep '^layers,' | cut -d, -f2; }
[ "$(layers)" = 96 ] && ok "built-in copy by default" || nok "built-in copy by default"
[ "$(CEREBRAS_PLAN_PATH="$T/none:$T/d2" layers)" = 22 ] && ok "CEREBRAS_PLAN_PATH before built-in" || nok "CEREBRAS_PLAN_PATH before built-in"
[ "$(CEREBRAS_PLAN_PATH="$T/d2" layers --data-dir "$T/d1")" = 11 ] && ok "--data-dir before CEREBRAS_PLAN_PATH" || nok "--data-dir before CEREBRAS_PLAN_PATH"
run show "$T/d2/models/gpt3-175b.ini" --csv --data-dir "$T/d1"
grep -q '^layers,22,' "$T/out" && ok "explicit path before --data-dir" || nok "explicit path before --data-dir"
run list models --data-dir "$T/d1"
grep -q "$T/d1/models/gpt3-175b.ini" "$T/out" && ok "list shows the resolved source" || nok "list shows the resolved source"
(cd "$T" && "$CP" show cs3 >/dev/null 2>&1) && ok "works from any directory" || nok "works from any directory"
mkdir -p "$T/d3/models/dirx.ini" "$T/d3/hw"
mkfifo "$T/d3/models/fifo.ini"
cp $H "$T/d3/hw/gpt3-xl.ini"
run list --data-dir "$T/d3"
if [ "$rc" -eq 0 ] && ! grep -q 'dirx\|fifo' "$T/out"; then ok "list skips directories and FIFOs"; else nok "list skips directories and FIFOs" "rc $rc"; fi
rc=0; timeout 10 "$CP" show "$T/d3/models/fifo.ini" >"$T/out" 2>"$T/err" || rc=$?
if [ "$rc" -eq 2 ] && grep -q "not a regular file" "$T/err"; then ok "a FIFO is refused, not read"; else nok "a FIFO is refused, not read" "rc $rc"; fi
expect_err "is a directory" "a directory named like a description" show dirx --data-dir "$T/d3"
run show gpt3-xl --data-dir "$T/d3"
grep -q "hardware gpt3-xl ($T/d3/hw/gpt3-xl.ini)" "$T/out" && ok "an earlier source wins over the kind" || nok "an earlier source wins over the kind" "$(head -1 "$T/out")"
long="$T/$(printf 'x%.0s' $(seq 1 4100))"
expect_err "File name too long" "an overlong --data-dir is an error" show gpt3-175b --data-dir "$long"
many=$(seq -s: 1 70 | sed 's|\([0-9]*\)|/nonexistent/\1|g')
CEREBRAS_PLAN_PATH="$many" expect_err "more than 64 directories" "too many search directories is an error" show cs2
mkdir -p "$T/inst/hw"
sed 's/^name = .*/name = Installed CS-2/' $H >"$T/inst/hw/cs2.ini"
run list hw
grep -q "Installed" "$T/out" && nok "CEREBRAS_PLAN_DATADIR= turns the installed directory off" || ok "CEREBRAS_PLAN_DATADIR= turns the installed directory off"
CEREBRAS_PLAN_DATADIR="$T/inst" run list hw
grep -q "Installed CS-2" "$T/out" && ok "CEREBRAS_PLAN_DATADIR replaces the installed directory" || nok "CEREBRAS_PLAN_DATADIR replaces the installed directory"
# dash keeps assignments made before a function call: restore them
export CEREBRAS_PLAN_DATADIR=
unset CEREBRAS_PLAN_PATH

# ---- usage, help, version ----
expect_rc 0 "--help" --help
expect_rc 0 "-h" -h
expect_rc 0 "--version" --version
grep -q '^cerebras-plan [0-9]' "$T/out" && ok "--version prints the version" || nok "--version prints the version"
expect_rc 0 "abbreviated option before the command" --data "$T" show cs2
expect_rc 2 "no command is a usage error" 
expect_err "unknown command 'frobnicate'" "unknown command" frobnicate
expect_err "unknown option '--bogus'" "unknown option" show gpt3-175b --bogus
expect_err "unknown option '-x'" "unknown short option is named" show -xq gpt3-175b
for args in "--help" "--version" "help show" "show --help" "show gpt3-175b" "list --csv"; do
    # shellcheck disable=SC2086
    "$CP" $args >/dev/full 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "error writing the output" "$T/err"; then ok "write error reported: $args"; else nok "write error reported: $args" "rc $rc"; fi
done
expect_err "option --set does not apply" "option not taken by the command" list --set model.layers=2
expect_err "wrong number of arguments" "missing argument" show
expect_err "needs a value" "option without its value" show gpt3-175b --set
cmds=$("$CP" --help | sed -n '/^commands:/,/^$/p' | awk 'NF>1 && $1 !~ /:$/ {print $1}')
for c in $cmds; do
    expect_rc 0 "$c --help" "$c" --help
    grep -q "^usage: cerebras-plan $c" "$T/out" && ok "$c --help shows its usage" || nok "$c --help shows its usage"
    expect_rc 0 "$c -h" "$c" -h
    expect_rc 0 "help $c" help "$c"
done
expect_err "help: unknown command 'nope'" "help for an unknown command" help nope

# ---- the analytic model's commands ----
expect_rc 0 "estimate on the defaults (GPT-3 175B, 1 CS-2)" estimate
grep -q "bottleneck:" "$T/out" && grep -q "^memoryx  *holds" "$T/out" && ok "estimate names the bottleneck and verdicts" || nok "estimate names the bottleneck and verdicts"
run estimate -m gpt3-175b -s cs2 -n 192 --csv
for col in model system systems memoryx sparsity global_batch_tokens step_time_s compute_s stream_in_s stream_out_s update_s exposed_latency_s tokens_per_s time_to_train_s energy_J bottleneck memoryx_fits sram_fits matmul_fits batch_ok warnings; do
    head -n 1 "$T/out" | tr -d '\r' | tr , '\n' | grep -qx "$col" || nok "estimate --csv has column $col"
done
ok "estimate --csv has the issue's columns"
[ "$(csv_col "$T/out" systems)" = 192 ] && [ "$(csv_col "$T/out" feasible)" = 1 ] && ok "estimate -n 192 is feasible" || nok "estimate -n 192 is feasible"
t192=$(csv_col "$T/out" time_to_train_s)
run estimate -n 16 --csv
t16=$(csv_col "$T/out" time_to_train_s)
awk -v a="$t16" -v b="$t192" 'BEGIN{exit !(b < a && b > a / 12)}' && ok "192 systems train faster than 16, by less than 12x" || nok "192 systems train faster than 16, by less than 12x" "$t16 $t192"
# 120 T recomputing every block keeps 1036 block inputs (417 GB) on a 40 GB wafer
run estimate -m 120t --activations recompute:1 --csv
[ "$rc" -eq 1 ] && [ "$(csv_col "$T/out" sram_fits)" = 0 ] && grep -q sram_full "$T/out" && ok "infeasible estimate exits 1 with its verdict" || nok "infeasible estimate exits 1 with its verdict" "rc $rc"
# ... and one 183 GiB activation server holds none of its 417 GB sequences
run estimate -m 120t --activations offload --act-servers 1 --set 'activation.server_memory=183 GiB' --csv
[ "$rc" -eq 1 ] && [ "$(csv_col "$T/out" act_store_fits)" = 0 ] && grep -q act_store_full "$T/out" && ok "activation servers that hold no sequence's checkpoints are infeasible" || nok "activation servers that hold no sequence's checkpoints are infeasible" "rc $rc"
# (0.75: at 0.95 no token count reaches GPT-3 XL's dense loss, infeasible)
run estimate -m gpt3-xl -n 192 --batch 192 --sparsity 0.75 --set 'swarmx.chunk=64 MB' --csv
[ "$rc" -eq 0 ] && grep -q coarse_chunk "$T/out" && ok "a chunk larger than half a block's stream is a warning" || nok "a chunk larger than half a block's stream is a warning" "rc $rc"
run estimate -m gpt3-xl -n 1024 --batch 1024 --sparsity 0.95 --csv
! grep -q coarse_chunk "$T/out" && ok "the shipped 1 MB chunk is fine for GPT-3 XL" || nok "the shipped 1 MB chunk is fine for GPT-3 XL"
run estimate -m 120t --csv
[ "$(csv_col "$T/out" activations)" = offload ] && [ "$(csv_col "$T/out" sram_fits)" = 1 ] && ok "120 T offloads its activations; one sequence's working set fits" || nok "120 T offloads its activations; one sequence's working set fits" "rc $rc"
run estimate -m 120t -s cs2 --memoryx 4TB
[ "$rc" -eq 1 ] && grep -q "^memoryx  *fails" "$T/out" && ok "a tier too small fails the memoryx verdict" || nok "a tier too small fails the memoryx verdict"
run estimate --sparsity 0 --csv
s0=$(csv_col "$T/out" step_time_s)
run estimate --csv
[ "$(csv_col "$T/out" step_time_s)" = "$s0" ] && ok "--sparsity 0 changes nothing" || nok "--sparsity 0 changes nothing"
run estimate --sparsity 75% --csv
awk -v a="$s0" -v b="$(csv_col "$T/out" step_time_s)" 'BEGIN{exit !(b < a && b > a / 4)}' && ok "75% sparsity: faster, by less than 4x" || nok "75% sparsity: faster, by less than 4x"
run estimate --price 10 --csv
[ -n "$(csv_col "$T/out" cost)" ] && ok "--price gives a cost" || nok "--price gives a cost"
run estimate --batch-penalty --batch 100000 --csv
[ "$(csv_col "$T/out" batch_ok)" = 0 ] && ok "a batch above the critical batch is flagged" || nok "a batch above the critical batch is flagged"
expect_err "-n '0': must be a whole number of systems" "-n 0" estimate -n 0
expect_err "-n '1.5': must be a whole number" "-n 1.5" estimate -n 1.5
expect_err "-n '1e9': must be a whole number of systems from 1 to" "-n 1e9" estimate -n 1e9
expect_err "--sparsity: 1.5 is outside 0..0.99" "--sparsity 1.5" estimate --sparsity 1.5
expect_err "--sparsity '2 GB'" "--sparsity with a unit" estimate --sparsity "2 GB"
expect_err "--memoryx 'huge': not a tier of cs2" "unknown tier" estimate --memoryx huge
expect_err "--batch '0'" "--batch 0" estimate --batch 0
expect_err "--tokens 'lots'" "--tokens lots" estimate --tokens lots
expect_err "--price '-3'" "negative price" estimate --price -3
expect_err "option --systems does not apply" "--systems on estimate" estimate --systems 1..4
expect_err "no model description named 'nope'" "unknown model" estimate -m nope
expect_err "is a hardware description, not a model" "a system given as -m" estimate -m cs2
expect_err "system.utilization" "--set reaches the hardware" estimate --set system.utilization=2
expect_err "model.layers" "--set reaches the model" estimate --set model.layers=-1
run estimate --memoryx "3 PB" --csv
[ "$(csv_col "$T/out" memoryx_bytes)" = 3e+15 ] && ok "--memoryx takes a capacity" || nok "--memoryx takes a capacity"

run scale -m megatron-1t -s cs3 --systems 1..16 --weak --csv
[ "$rc" -eq 0 ] && [ "$(grep -c . "$T/out")" -eq 17 ] && ok "scale 1..16 gives 16 rows" || nok "scale 1..16 gives 16 rows" "rc $rc"
awk -F, 'BEGIN{RS="\r\n"} NR>1 && ($5 > $1 + 1e-9 || $5 < 0.9 * $1 || $9 == "") {bad=1} END{exit bad}' "$T/out" && ok "weak scaling: speedup near N, never above, bottleneck named" || nok "weak scaling: speedup near N, never above, bottleneck named"
run scale --systems 1..2048x2 --strong --csv
[ "$(grep -c . "$T/out")" -eq 13 ] && ok "geometric range 1..2048x2" || nok "geometric range 1..2048x2"
[ "$rc" -eq 1 ] && ok "scale exits 1 when a point is infeasible (2048 systems, 1536 sequences)" || nok "scale exits 1 when a point is infeasible" "rc $rc"
expect_err "--weak and --strong exclude each other" "--weak --strong" scale --weak --strong
expect_err "--systems '8..2': the range must not run backwards" "backwards range" scale --systems 8..2
expect_err "the factor after 'x' must be above 1" "factor 1" scale --systems 1..8x1
expect_err "must be a whole number of systems from 1 to 1e+06 (not 1.5)" "fractional systems" scale --systems 1.5,2
expect_err "give the cluster sizes with --systems" "-n on scale" scale -n 4

run capacity -m 120t --csv
[ "$rc" -eq 0 ] && grep -q '^cs2,2.4PB,.*,1,.*,1' "$T/out" && ok "capacity: 120 T fits the 2.4 PB CS-2 tier, the smallest" || nok "capacity: 120 T fits the 2.4 PB CS-2 tier, the smallest"
run capacity -m 120t -s cs3
[ "$rc" -eq 1 ] && grep -q "smallest tier that holds it: none" "$T/out" && ok "capacity exits 1 when no tier fits" || nok "capacity exits 1 when no tier fits" "rc $rc"
run capacity -m gpt3-175b -s cs3
grep -q "^total  *18 B" "$T/out" && ok "capacity breaks down 18 B per parameter" || nok "capacity breaks down 18 B per parameter"
expect_err "only -m, -s" "capacity refuses -n" capacity -n 4

run claims --csv
[ "$rc" -eq 0 ] && [ "$(grep -c . "$T/out")" -eq "$(grep -c . reports/claims.csv)" ] && ok "claims: a verdict for every claim" || nok "claims: a verdict for every claim" "rc $rc"
[ "$(grep -cE ',(holds|conditional|does not hold),' "$T/out")" -eq "$(($(grep -c . reports/claims.csv) - 1))" ] && ok "claims verdicts are one of the three" || nok "claims verdicts are one of the three"
cp "$T/out" "$T/claims-plain.csv"
{ printf '\357\273\277'; cat reports/claims.csv; } >"$T/claims-bom.csv"
run claims "$T/claims-bom.csv" --csv
[ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/claims-plain.csv" && ok "claims file with a UTF-8 byte-order mark: read as without" || nok "claims file with a UTF-8 byte-order mark" "rc $rc"
grep -qE '^storage-120t,.*,conditional,"(storage holds|holds for storage)' "$T/out" && ok "120 T on one CS-2 holds for storage only" || nok "120 T on one CS-2 holds for storage only" "$(grep '^storage-120t' "$T/out" | cut -c 1-200)"
printf 'id,claim\nx,y\n' >"$T/c1.csv"
expect_err "c1.csv:1: 2 fields, expected 11" "claims file with a wrong header" claims "$T/c1.csv"
sed '1s/,kind,/,sort,/' reports/claims.csv >"$T/c0.csv"
expect_err "c0.csv:1: kind: header cell is 'sort'" "claims header with a wrong name" claims "$T/c0.csv"
sed '3s/,weak_scaling,/,vibes,/' reports/claims.csv >"$T/c2.csv"
expect_err "c2.csv:3: kind: 'vibes' is not a kind" "claims file with an unknown kind" claims "$T/c2.csv"
sed '3s/,0.9,"near/,0.9 GB,"near/' reports/claims.csv >"$T/c3.csv"
expect_err "c3.csv:3: target:" "claims target of the wrong dimension" claims "$T/c3.csv"
printf 'id,claim,source,kind,model,system,systems,memoryx,sparsity,target,condition\n"a,b\n' >"$T/c4.csv"
expect_err "c4.csv:2:1: id: malformed CSV: the quote that opens this field is never closed" "malformed claims CSV" claims "$T/c4.csv"
sed '3s/,auto,/,9XB,/' reports/claims.csv >"$T/c5.csv"
expect_err "--memoryx '9XB': not a tier" "claims with an unknown tier" claims "$T/c5.csv"
expect_err "nope.csv" "missing claims file" claims "$T/nope.csv"

# Golden CSV of the model's commands on the shipped data (regenerate with
# tests/golden/regen.sh after a deliberate change to the model or data).
while IFS='|' read -r gname gargs; do
    [ -n "$gname" ] || continue
    # shellcheck disable=SC2086
    "$CP" $gargs --csv >"$T/out" 2>/dev/null
    if cmp -s "$T/out" "tests/golden/$gname.csv"; then ok "golden $gname"; else nok "golden $gname" "$(diff "tests/golden/$gname.csv" "$T/out" | head -5)"; fi
done <tests/golden/model.list

# ---- the simulator: simulate, simulate --functional, crosscheck ----
# rel A B: |A - B| / |B| as a number
rel() { awk -v a="$1" -v b="$2" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; printf "%.3g", d }'; }
# Done means: simulate and estimate agree on the published configurations.
for cfg in "-m gpt3-175b -s cs2 -n 1" "-m gpt3-175b -s cs2 -n 192" "-m megatron-1t -s cs3 -n 16"; do
    # shellcheck disable=SC2086
    "$CP" simulate $cfg --csv >"$T/sim.csv" 2>"$T/err"; src=$?
    # shellcheck disable=SC2086
    "$CP" estimate $cfg --csv >"$T/est.csv" 2>>"$T/err"
    a=$(csv_col "$T/sim.csv" step_time_s) b=$(csv_col "$T/est.csv" step_time_s)
    d=$(rel "$a" "$b")
    if [ "$src" -eq 0 ] && awk -v d="$d" 'BEGIN { exit !(d <= 0.005) }'; then
        ok "simulate agrees with estimate ($cfg): rel $d"
    else
        nok "simulate agrees with estimate ($cfg)" "sim $a est $b rel $d rc $src $(head -c 200 "$T/err")"
    fi
done
run simulate -n 16 --csv
if [ "$rc" -eq 0 ] && head -n 1 "$T/out" | grep -q '^systems,memoryx_units,step_time_s,first_step_s,events,sim_wall_s,'; then
    ok "simulate --csv columns"
else
    nok "simulate --csv columns" "$(head -c 300 "$T/out")"
fi
run simulate -m gpt3-xl -n 4 --batch 16
if [ "$rc" -eq 0 ] && grep -q '^step time' "$T/out" && grep -q 'system_ingress' "$T/out" && grep -q '^waiting' "$T/out"; then
    ok "simulate prints step time, components and waiting"
else
    nok "simulate prints step time, components and waiting" "$(head -c 300 "$T/out")"
fi
# --trace: one row per interval, written whole; the same inputs give the same trace
run simulate -m gpt3-xl -n 3 --batch 6 --steps 2 --trace "$T/t1.csv" --csv
ev=$(csv_col "$T/out" events)
rows=$(($(wc -l <"$T/t1.csv") - 1))
[ "$rc" -eq 0 ] && [ "$rows" -eq "$ev" ] && ok "--trace has one row per event ($rows)" || nok "--trace rows" "rc $rc rows $rows events $ev"
"$CP" simulate -m gpt3-xl -n 3 --batch 6 --steps 2 --trace "$T/t2.csv" >/dev/null 2>&1
cmp -s "$T/t1.csv" "$T/t2.csv" && ok "same inputs, same trace" || nok "same inputs, same trace"
head -n 1 "$T/t1.csv" | grep -q '^start_s,end_s,component,index,activity,step,micro_batch,layer,packet,bytes$' &&
    ok "--trace header" || nok "--trace header" "$(head -n 1 "$T/t1.csv")"
expect_err "cannot create" "--trace into a missing directory" simulate -n 2 --trace "$T/no/such/dir/t.csv"
ls "$T"/no 2>/dev/null | grep -q . && nok "no trace file left behind" || ok "no trace file left behind"
expect_err "--steps '0'" "simulate --steps 0" simulate --steps 0
expect_err "--memoryx-units '65'" "simulate --memoryx-units 65" simulate --memoryx-units 65
expect_err "--optimizer applies only with --functional" "--optimizer without --functional" simulate --optimizer sgd
expect_err "--steps" "estimate refuses --steps" estimate --steps 3
# functional: the cluster computes the same training as one system
for args in "-n 7" "-n 16 --sparsity 0.75" "-n 5 --optimizer sgd --memoryx-units 3" "-n 9 --set swarmx.fanout=3 --sparsity 0.5 --optimizer adam"; do
    # shellcheck disable=SC2086
    run simulate --functional $args --csv
    d=$(csv_col "$T/out" max_rel_diff) v=$(csv_col "$T/out" verdict)
    l0=$(csv_col "$T/out" loss_first) l1=$(csv_col "$T/out" loss_last)
    if [ "$rc" -eq 0 ] && [ "$v" = agrees ] && awk -v d="$d" -v a="$l0" -v b="$l1" 'BEGIN { exit !(d <= 1e-5 && b < a) }'; then
        ok "functional $args: max_rel_diff $d, loss $l0 -> $l1"
    else
        nok "functional $args" "rc $rc diff $d verdict $v loss $l0 -> $l1"
    fi
done
expect_err "-n '0'" "functional -n 0" simulate --functional -n 0
expect_err "--batch '3'" "functional batch below systems" simulate --functional -n 4 --batch 3
expect_err "--optimizer 'rms'" "functional unknown optimizer" simulate --functional --optimizer rms
expect_err "does not apply" "functional refuses --memoryx" simulate --functional --memoryx 4TB
# crosscheck: every point within 2 %, median within 0.5 %
run crosscheck --csv
if [ "$rc" -eq 0 ] && head -n 1 "$T/out" | grep -q 'regime.*rel_diff'; then
    worst=$(awk -F, 'NR > 1 { d = $11; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }' "$T/out")
    regimes=$(awk -F, 'NR > 1 { print $8 }' "$T/out" | sort -u | tr '\n' ' ')
    npts=$(($(wc -l <"$T/out") - 1))
    ok "crosscheck passes: $npts points, worst $worst, regimes $regimes"
    for r in compute stream_in update latency; do
        case " $regimes" in *" $r "*) ok "crosscheck covers $r" ;; *) nok "crosscheck covers $r" "$regimes" ;; esac
    done
else
    nok "crosscheck passes" "rc $rc $(head -c 300 "$T/err")"
fi

# ---- docs agree with the command table ----
man_cmds=$(sed -n '/^\.Sh COMMANDS/,/^\.Sh /p' man/cerebras-plan.1 | sed -n 's/^\.It Cm \([a-z-]*\).*/\1/p' | sort | tr '\n' ' ')
help_cmds=$(printf '%s\n' $cmds | sort | tr '\n' ' ')
if [ -n "$help_cmds" ] && [ "$man_cmds" = "$help_cmds" ]; then ok "man page and --help list the same commands"; else nok "man page and --help list the same commands" "man: $man_cmds help: $help_cmds"; fi
missing=""
for c in $cmds; do grep -q "cerebras-plan $c" README.md || missing="$missing $c"; done
[ -z "$missing" ] && ok "README shows every command" || nok "README shows every command" "missing:$missing"
missing=
for f in $(grep -v '^#' tests/bench-targets | awk 'NF { print $1 }'); do
    grep -q "\`$f\`" README.md || missing="$missing $f"
done
[ -z "$missing" ] && ok "README lists every make bench figure with its target" || nok "README lists every make bench figure" "missing:$missing"
for p in man/cerebras-plan.1 man/cerebras-plan.5; do
    if mandoc -Tlint -W warning "$p" >"$T/lint" 2>&1; then ok "mandoc -Tlint $p"; else nok "mandoc -Tlint $p" "$(head -3 "$T/lint")"; fi
done

# ---- install: binary, man pages and data under PREFIX, found when installed ----
# It builds the program with the default flags and runs it natively, the
# same in every pass of make test: the ASan pass and make valgrind-all set
# CP_TEST_NO_INSTALL=1 and skip it (the functional pass runs it).
if [ "${CP_TEST_NO_INSTALL:-0}" = 1 ]; then
    ok "make install # SKIP the functional pass of make test checks it"
    echo "# cli done"
    exit 0
fi
# -j2: the longest script, and one build serves PREFIX and DESTDIR both
if make -s -j2 B="$T/build" PREFIX="$T/prefix" install >"$T/make.log" 2>&1; then
    ok "make install"
    for f in bin/cerebras-plan share/man/man1/cerebras-plan.1 share/man/man5/cerebras-plan.5 \
             share/cerebras-plan/hw/cs2.ini share/cerebras-plan/models/gpt3-175b.ini; do
        [ -f "$T/prefix/$f" ] && ok "installed $f" || nok "installed $f"
    done
    out=$(cd / && env -u CEREBRAS_PLAN_DATADIR "$T/prefix/bin/cerebras-plan" list hw --csv)
    case "$out" in *"$T/prefix/share/cerebras-plan/hw/cs2.ini"*) ok "installed binary reads the installed data";;
        *) nok "installed binary reads the installed data" "$out";; esac
else
    nok "make install" "$(tail -n 5 "$T/make.log")"
fi
make -s -j2 B="$T/build" PREFIX="$T/prefix" DESTDIR="$T/stage" install >"$T/make2.log" 2>&1 &&
    [ -x "$T/stage$T/prefix/bin/cerebras-plan" ] && ok "make install with DESTDIR" || nok "make install with DESTDIR" "$(tail -n 3 "$T/make2.log")"

echo "# cli done"
