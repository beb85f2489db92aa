#!/bin/sh
# Command-line tests: run the real binary and check exit codes, messages and
# output.  Prints "ok N - what" or "not ok N - what" per check (run.sh counts
# them) and "# cli done" at the end.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
case "$B" in /*) CP="$B/cerebras-plan" ;; *) CP="$PWD/$B/cerebras-plan" ;; esac
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
n=0
unset CEREBRAS_PLAN_PATH
# An installed copy on this machine must not change what the tests see.
export CEREBRAS_PLAN_DATADIR=

ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; [ $# -gt 1 ] && printf '#   %s\n' "$2"; }

# run ARGS...: sets $rc, $out (stdout file), $err (stderr file)
run() {
    "$CP" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# expect_rc CODE WHAT ARGS...
expect_rc() {
    want=$1 what=$2
    shift 2
    run "$@"
    if [ "$rc" -eq "$want" ]; then ok "$what"; else nok "$what" "exit $rc, wanted $want: $(head -c 300 "$T/err")"; fi
}

# expect_err SUBSTRING WHAT ARGS...: exit 2 and stderr contains SUBSTRING
expect_err() {
    want=$1 what=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$T/err" && [ ! -s "$T/out" ]; then
        ok "$what"
    else
        nok "$what" "exit $rc; stderr: $(head -c 300 "$T/err"); wanted: $want"
    fi
}

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
bad hw $H 's/^power = .*/power = -23 kW/' system.power "must not be negative"
bad hw $H 's/^bandwidth = .*/bandwidth = 0 GB\/s/' memoryx.bandwidth "must be greater than zero"
bad hw $H 's/^update_flops = .*/update_flops = nan FLOP\/s/' memoryx.update_flops "is not a number"
bad hw $H 's/^update_flops = .*/update_flops = 1e400 FLOP\/s/' memoryx.update_flops "out of range"
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
run show cs2 --csv --set 'tiers.20TB=20 TB' --set 'tiers.4TB=5 TB'
if grep -q '^tiers.20TB,20000000000000,B' "$T/out" && grep -q '^tiers.4TB,5000000000000,B' "$T/out"; then ok "--set adds and replaces tiers"; else nok "--set adds and replaces tiers"; fi
expect_err "--set tiers.x: missing unit" "--set tier without unit" show cs2 --set tiers.x=20
expect_err "--set model.layers: unit 'GB'" "--set bad unit names the flag" show gpt3-175b --set model.layers=9GB
expect_err "--set model.depth: no such key in a model description" "--set unknown key" show gpt3-175b --set model.depth=9
expect_err "--set layers=9: expected section.key=value" "--set syntax" show gpt3-175b --set layers=9
expect_err "--set system.power: no such key in a model description" "--set of the other kind" show gpt3-175b --set system.power=1kW

# ---- CSV output ----
run show gpt3-175b --csv
head -n 1 "$T/out" | tr -d '\r' >"$T/h"
if [ "$(cat "$T/h")" = "quantity,value,unit" ]; then ok "show --csv header"; else nok "show --csv header" "$(cat "$T/h")"; fi
for q in params tokens train_flops; do
    if grep -q "^$q,[0-9][0-9.e+]*," "$T/out"; then ok "show --csv has $q"; else nok "show --csv has $q"; fi
done
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
expect_err "directory path too long" "an overlong --data-dir is an error" show gpt3-175b --data-dir "$long"
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

# ---- docs agree with the command table ----
man_cmds=$(sed -n '/^\.Sh COMMANDS/,/^\.Sh /p' man/cerebras-plan.1 | sed -n 's/^\.It Cm \([a-z-]*\).*/\1/p' | sort | tr '\n' ' ')
help_cmds=$(printf '%s\n' $cmds | sort | tr '\n' ' ')
if [ -n "$help_cmds" ] && [ "$man_cmds" = "$help_cmds" ]; then ok "man page and --help list the same commands"; else nok "man page and --help list the same commands" "man: $man_cmds help: $help_cmds"; fi
missing=""
for c in $cmds; do grep -q "cerebras-plan $c" README.md || missing="$missing $c"; done
[ -z "$missing" ] && ok "README shows every command" || nok "README shows every command" "missing:$missing"
for p in man/cerebras-plan.1 man/cerebras-plan.5; do
    if mandoc -Tlint -W warning "$p" >"$T/lint" 2>&1; then ok "mandoc -Tlint $p"; else nok "mandoc -Tlint $p" "$(head -3 "$T/lint")"; fi
done

# ---- install: binary, man pages and data under PREFIX, found when installed ----
if make -s B="$T/build" PREFIX="$T/prefix" install >"$T/make.log" 2>&1; then
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
make -s B="$T/build2" PREFIX=/opt/cp DESTDIR="$T/stage" install >"$T/make2.log" 2>&1 &&
    [ -x "$T/stage/opt/cp/bin/cerebras-plan" ] && ok "make install with DESTDIR" || nok "make install with DESTDIR" "$(tail -n 3 "$T/make2.log")"

echo "# cli done"
