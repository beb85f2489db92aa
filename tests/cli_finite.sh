#!/bin/sh
# Command-line tests of the finiteness gate (issue 30, items 4-6): every
# numeric key of hw/h100.ini that is not a whole number, set in turn to
# 1e-300 and to 1e308 (in its base unit) on `estimate -s h100`, exits 0
# (or 1, nothing fits) with no inf or nan anywhere in its output, or exits
# 2 with one message
# (the loader's, or the gate's naming the figure) and nothing on stdout;
# never anything else.  The cmocka program test_gpu_finite runs the same
# sweep through the layout search (and 5e-324); tests/bad-input/cases-finite
# holds each command's refusal.  About 55 runs; with every run under
# valgrind (run.sh --valgrind-all sets VGALL=1, a run costs about a second)
# every 26th.
# Prints "ok N - what" or "not ok N - what" per check and "# cli_finite done".
. "$(dirname "$0")/lib.sh"

NANINF='(^|[^a-z])-?(nan|inf|infinity)([^a-z]|$)'
every=1
[ "${VGALL:-0}" = 1 ] && every=26
# section.key and the base unit of each numeric, non-whole key of h100
awk '/^\[/ { s = substr($0, 2, length($0) - 2) }
     /^[a-z_0-9]+ *=/ { print s "." $1 }' hw/h100.ini >"$T/keys"
bad= runs=0 refused=0 i=0
while read -r key; do
    case $key in system.name | system.kind | system.gpus_per_node | gpu.sm_count | gpu.cores | \
        network.nvlink_domain | fit.tile_* | fit.small_tile_*) continue ;; esac
    # the base unit of the key's dimension, from the shipped value's unit
    val=$(awk -v k="${key#*.}" -F' *= *' '$1 == k { print $2; exit }' hw/h100.ini)
    case $val in
    *FLOP/s) unit='FLOP/s' ;; *B/s | *b/s) unit='B/s' ;; *B) unit='B' ;; *W) unit='W' ;;
    *s) unit='s' ;; *) unit='' ;;
    esac
    for v in 1e-300 1e308; do
        i=$((i + 1))
        [ $((i % every)) -eq 0 ] || continue
        runs=$((runs + 1))
        run estimate -s h100 -m gpt3-xl -n 64 --set "$key=$v${unit:+ $unit}"
        case $rc in
        0 | 1) if grep -Eiq "$NANINF" "$T/out" "$T/err"; then
               bad="$bad $key=$v(exit $rc: $(grep -Eiho ".{0,30}$NANINF.{0,10}" "$T/out" "$T/err" | head -1))"
           fi ;;
        2) refused=$((refused + 1))
           if [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" -ne 1 ]; then
               bad="$bad $key=$v(exit 2 with output)"
           fi ;;
        *) bad="$bad $key=$v(exit $rc: $(head -c 120 "$T/err"))" ;;
        esac
    done
done <"$T/keys"
if [ -z "$bad" ] && [ "$runs" -gt 0 ]; then
    ok "$runs hostile h100 variants: finite figures with exit 0 or 1, or refused with exit 2 ($refused)"
else
    nok "hostile h100 variants: finite figures with exit 0 or 1, or refused with exit 2" "$bad"
fi
# under valgrind-all every 26th variant runs: fewer to refuse, but some
least=10
[ "${VGALL:-0}" = 1 ] && least=1
if [ "$refused" -ge "$least" ]; then
    ok "the gate refuses the issue's variants (at least $least of $runs)"
else
    nok "the gate refuses the issue's variants (at least $least of $runs)" "$refused refused"
fi

# ---- the same through every command that runs the GPU model ----
# (under valgrind-all estimate alone: cli_badinput.sh runs cases-finite there)
cmds='estimate -n 64|scale|sweep -n 8,64|plan --deadline 30d'
[ "${VGALL:-0}" = 1 ] && cmds='estimate -n 64'
IFS='|'
set -f
for c in $cmds; do
    IFS=' '

    # shellcheck disable=SC2086
    expect_err "the matmul time is not a finite number" \
        "$c -s h100 with a peak of 1e-300 FLOP/s: refused naming the figure" \
        $c -s h100 -m gpt3-xl --set 'gpu.peak_bf16=1e-300 FLOP/s'
done
IFS=' '
set +f
# ---- one token is one token, one step one step (item 16) ----
for sys in h100 cs2; do
    run estimate -s $sys -m gpt3-xl --tokens 1
    if [ "$rc" -eq 0 ] && grep -q '^training   1 token in 1 step: ' "$T/out"; then
        ok "estimate -s $sys --tokens 1: '1 token in 1 step'"
    else
        nok "estimate -s $sys --tokens 1: '1 token in 1 step'" "exit $rc: $(grep '^training' "$T/out")"
    fi
done
# plan and compare say it the same way
run plan -s h100 -m gpt3-xl --deadline 1000y --tokens 1
if grep -q ': 1 token in 1 step; deadline' "$T/out"; then
    ok "plan -s h100 --tokens 1: '1 token in 1 step'"
else
    nok "plan -s h100 --tokens 1: '1 token in 1 step'" "exit $rc: $(head -1 "$T/out")"
fi
run compare -s cs3 --gpu h100 -m gpt3-xl -n 1 --tokens 1 --batch 1
if grep -q '^compare: .*, 1 token in 1 step of 1 sequence x' "$T/out"; then
    ok "compare --tokens 1 --batch 1: '1 token in 1 step of 1 sequence'"
else
    nok "compare --tokens 1 --batch 1: '1 token in 1 step of 1 sequence'" "exit $rc: $(head -1 "$T/out")"
fi
echo "# cli_finite done"
