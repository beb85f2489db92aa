#!/bin/sh
# Command-line tests of names, labels and overlays (issue 19, items 10 and
# 11): repeated --hw-overlay applied in order; the overlay explore's `s`
# saves for the longest names read back by the overlay reader (through
# tmux; skipped without it); control characters in a model's name, a
# claim's text and a measurement refused before they reach the terminal;
# no -0 in results.  The refusals of single inputs are catalogue cases
# (tests/bad-input/cases-names).  Prints "ok N - what" or "not ok N - what"
# per check and "# cli_names done".
. "$(dirname "$0")/lib.sh"

# show_csv KEY ARGS...: the SI value of KEY in `show cs2 ARGS --csv`
show_csv() {
    k=$1
    shift
    "$CP" show cs2 --csv "$@" | tr -d '\r' | awk -F, -v k="$k" '$1 == k { print $2 }'
}

# ---- item 10: --hw-overlay given twice: both, in order ----
printf '[swarmx]\nhop_latency = 3 us\n[system]\nutilization = 0.4\n' >"$T/a.ini"
printf '# the hop again\n[swarmx]\nhop_latency = 5 us\n' >"$T/b.ini"
base_util=$(show_csv system.utilization)
ab_hop=$(show_csv swarmx.hop_latency --hw-overlay "$T/a.ini" --hw-overlay "$T/b.ini")
ab_util=$(show_csv system.utilization --hw-overlay "$T/a.ini" --hw-overlay "$T/b.ini")
ba_hop=$(show_csv swarmx.hop_latency --hw-overlay "$T/b.ini" --hw-overlay "$T/a.ini")
hop3=$(show_csv swarmx.hop_latency --set 'swarmx.hop_latency=3 us')
hop5=$(show_csv swarmx.hop_latency --set 'swarmx.hop_latency=5 us')
hop7=$(show_csv swarmx.hop_latency --set 'swarmx.hop_latency=7 us')
if [ -n "$hop5" ] && [ "$ab_hop" = "$hop5" ] && [ "$ab_util" = 0.4 ] && [ "$base_util" != 0.4 ]; then
    ok "two overlays: the second's key wins, the first's other keys stay (hop $ab_hop, utilization $ab_util)"
else
    nok "two overlays: the second's key wins, the first's other keys stay" \
        "hop '$ab_hop' (want '$hop5'), utilization '$ab_util' (want 0.4, shipped '$base_util')"
fi
if [ -n "$hop3" ] && [ "$ba_hop" = "$hop3" ]; then
    ok "in the other order the other overlay wins ($ba_hop)"
else
    nok "in the other order the other overlay wins" "hop '$ba_hop', want '$hop3'"
fi
set_hop=$(show_csv swarmx.hop_latency --hw-overlay "$T/a.ini" --set 'swarmx.hop_latency=7 us' \
    --hw-overlay "$T/b.ini")
if [ -n "$hop7" ] && [ "$set_hop" = "$hop7" ]; then
    ok "--set wins over every overlay, wherever it is given ($set_hop)"
else
    nok "--set wins over every overlay, wherever it is given" "hop '$set_hop', want '$hop7'"
fi
run show cs2 --hw-overlay "$T/a.ini" --hw-overlay "$T/b.ini"
if grep -q '^swarmx.hop_latency .*overlay 2 line 3$' "$T/out" &&
    grep -q '^system.utilization .*overlay 1 line 4$' "$T/out"; then
    ok "show names which overlay and line each key came from"
else
    nok "show names which overlay and line each key came from" "$(grep -E 'hop_latency|utilization ' "$T/out")"
fi
est_csv ov -m gpt3-xl -n 4 --hw-overlay "$T/a.ini" --hw-overlay "$T/b.ini"
est_csv set -m gpt3-xl -n 4 --set system.utilization=0.4 --set 'swarmx.hop_latency=5 us'
if [ -s "$T/ov.csv" ] && cmp -s "$T/ov.csv" "$T/set.csv"; then
    ok "estimate with both overlays equals estimate with their keys as --set"
else
    nok "estimate with both overlays equals estimate with their keys as --set" "$(diff "$T/ov.csv" "$T/set.csv" | head -c 300)"
fi

# ---- item 10: explore's saved overlay, for the longest names, reads back ----
# A model and a system with 63-character names (the longest) and a tier
# with a 31-character one, found by name in a data directory.
M=$(printf 'model-%057d' 0)
S=$(printf 'system-%056d' 0)
TIER=$(printf 'tier-%026d' 0)
D="$T/data"
mkdir -p "$D/models" "$D/hw" "$T/w"
cp models/gpt3-xl.ini "$D/models/$M.ini"
{ cat hw/cs2.ini; printf '\n[tiers]\n%s = 8 TB\n' "$TIER"; } >"$D/hw/$S.ini"
if [ ${#M} -eq 63 ] && [ ${#S} -eq 63 ] && [ ${#TIER} -eq 31 ]; then
    ok "the names are the longest a description may have (63 and 31 characters)"
else
    nok "the names are the longest a description may have (63 and 31 characters)" "${#M} ${#S} ${#TIER}"
fi
expect_rc 0 "estimate takes the long model, system and tier" \
    estimate --data-dir "$D" -m "$M" -s "$S" --memoryx "$TIER"
if ! command -v tmux >/dev/null 2>&1; then
    ok "explore saves a readable overlay for the longest names # SKIP tmux is not installed"
else
    SOCK="cpn$$"
    tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
    trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
    # a launcher, so the explorer runs in $T/w whatever tmux's own directory
    printf 'cd "$1" || exit 1\nshift\nexec "$@"\n' >"$T/launch"
    tm new-session -d -s n -x 120 -y 36 sh "$T/launch" "$T/w" env TERM=xterm-256color \
        "$CP" explore --data-dir "$D" -m "$M" -s "$S" --memoryx "$TIER"
    # wait up to 30 s (valgrind is slow) for the first screen, then save
    i=0
    until tm capture-pane -p -t n 2>/dev/null | grep -q 'time to train' || [ $i -ge 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    tm send-keys -t n s
    ini="$T/w/explore-$S.ini"
    i=0
    until [ -s "$ini" ] || [ $i -ge 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 0.2 # written through a temporary file and renamed: whole once there
    tm send-keys -t n q
    if [ -s "$ini" ]; then
        ok "explore's s saved explore-SYSTEM.ini for a 63-character system"
        long=$(LC_ALL=C awk 'length($0) > 197 { print NR ": " length($0) }' "$ini")
        check "every line of the saved overlay fits the reader's 197 bytes${long:+ (not: $long)}" [ -z "$long" ]
        if grep -q -- "-m $M -s $S" "$ini" && grep -q -- "--memoryx $TIER" "$ini"; then
            ok "the overlay's comments still give the scenario's names whole"
        else
            nok "the overlay's comments still give the scenario's names whole" "$(grep '^#' "$ini")"
        fi
        run show "$S" --data-dir "$D" --hw-overlay "$ini"
        if [ "$rc" -eq 0 ] && [ -s "$T/out" ]; then
            ok "show reads the saved overlay back (exit 0)"
        else
            nok "show reads the saved overlay back" "exit $rc: $(head -c 300 "$T/err")"
        fi
        a=$("$CP" estimate --data-dir "$D" -m "$M" -s "$S" --memoryx "$TIER" --csv --hw-overlay "$ini" 2>&1)
        b=$("$CP" estimate --data-dir "$D" -m "$M" -s "$S" --memoryx "$TIER" --csv 2>&1)
        if [ -n "$a" ] && [ "$a" = "$b" ]; then
            ok "estimate with the saved overlay gives what the explorer showed"
        else
            nok "estimate with the saved overlay gives what the explorer showed" "$(printf '%s\n%s' "$a" "$b" | head -c 300)"
        fi
    else
        nok "explore's s saved explore-SYSTEM.ini for a 63-character system" "$(tm capture-pane -p -t n 2>&1 | tail -n 3)"
    fi
    tm kill-server >/dev/null 2>&1
fi

# ---- item 11: control characters refused before they reach the terminal ----
ESC=$(printf '\033')
BEL=$(printf '\007')
# no_raw WHAT: exit 2, nothing on stdout, and no ESC or BEL anywhere in
# what was printed
no_raw() {
    if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && ! grep -q "[$ESC$BEL]" "$T/err"; then
        ok "$1"
    else
        nok "$1" "exit $rc; stdout $(wc -c <"$T/out") bytes; stderr: $(tr "$ESC$BEL" '^^' <"$T/err" | head -c 300)"
    fi
}
sed "s/^name = .*/name = Red ${ESC}[31mX$BEL/" models/gpt3-xl.ini >"$T/esc-model.ini"
line=$(grep -n '^name' "$T/esc-model.ini" | cut -d: -f1)
run estimate -m "$T/esc-model.ini"
no_raw "a model name with ESC and BEL: exit 2, not printed"
check "... the message names FILE:LINE: model.name and the character" \
    grep -q "esc-model.ini:$line: model.name: control character 0x1B at byte 5" "$T/err"

sed "s/^name = .*/name = CS-2$BEL/" hw/cs2.ini >"$T/bel-hw.ini"
run show "$T/bel-hw.ini"
no_raw "a system name with BEL: exit 2, not printed"

head -n 1 reports/claims.csv >"$T/claims.csv"
printf 'x1,"Holds on %s[31mred%s",src,capacity,gpt3-xl,cs2,1,auto,0,365 d,"cond",,,,,\n' "$ESC" "$BEL" >>"$T/claims.csv"
run claims "$T/claims.csv"
no_raw "a claim's text with ESC and BEL: exit 2, not printed"
check "... the message names FILE:LINE: claim" \
    grep -q "claims.csv:2: claim: control character 0x1B at byte 10" "$T/err"
head -n 1 reports/claims.csv >"$T/claims2.csv"
printf 'x1,"ok",src,capacity,gpt3-xl,cs2,1,auto,0,365 d,"cond%s",,,,,\n' "$BEL" >>"$T/claims2.csv"
run claims "$T/claims2.csv"
no_raw "a claim's condition with BEL: exit 2, not printed"

printf 'model,system,systems,batch,quantity,value,source\nllama2-70b,cs2,1,64,step_time_s,63.04 s,"a%s[31mb"\n' "$ESC" >"$T/meas.csv"
run calibrate "$T/meas.csv" --fit system.utilization -o "$T/fit.ini"
no_raw "a measurement's source with ESC: exit 2, not printed"
check "... and no overlay written" [ ! -e "$T/fit.ini" ]

# ---- item 11: -0 prints as 0 ----
# A number token "-0" (or -0.0...) anywhere: the cells of a CSV, the words
# of a table.
has_neg0() { grep -qE '(^|[^0-9A-Za-z.+-])-0(\.0*)?([^0-9.]|$)' "$1"; }
run estimate -m gpt3-xl --sparsity -0 --price -0 --overlap -0
if [ "$rc" -eq 0 ] && grep -q 'sparsity 0$' "$T/out" && ! has_neg0 "$T/out"; then
    ok "estimate --sparsity -0 --price -0 --overlap -0: 0, never -0"
else
    nok "estimate --sparsity -0 --price -0 --overlap -0: 0, never -0" "exit $rc: $(grep -E -- '-0' "$T/out" | head -n 3)"
fi
est_csv neg -m gpt3-xl --sparsity -0 --price -0 --overlap -0
if [ "$rc" -eq 0 ] && [ "$(csv_col "$T/neg.csv" sparsity)" = 0 ] && ! has_neg0 "$T/neg.csv"; then
    ok "... and in its CSV"
else
    nok "... and in its CSV" "exit $rc: sparsity '$(csv_col "$T/neg.csv" sparsity)'"
fi
timeout 20 "$CP" sweep -m gpt3-xl -s cs2 --systems 1,2 --sparsity -0,0.5 --price -0 2>"$T/err" | head -c 65536 >"$T/sweep.csv"
if [ -s "$T/sweep.csv" ] && ! has_neg0 "$T/sweep.csv"; then
    ok "sweep --sparsity -0,0.5 --price -0: no -0 in the CSV"
else
    nok "sweep --sparsity -0,0.5 --price -0: no -0 in the CSV" "$(head -c 300 "$T/err")"
fi
# (scale takes no --price: it shows no cost)
for cmd in "scale --systems 1,2" "plan --deadline 30d --price -0"; do
    # shellcheck disable=SC2086
    run $cmd -m gpt3-xl --sparsity -0
    if [ "$rc" -le 1 ] && [ -s "$T/out" ] && ! has_neg0 "$T/out"; then
        ok "$cmd --sparsity -0: no -0"
    else
        nok "$cmd --sparsity -0: no -0" "exit $rc: $(grep -E -- '-0' "$T/out" | head -n 3)"
    fi
done
run show cs2 --set sparsity.overhead=-0
if [ "$rc" -eq 0 ] && grep -q '^sparsity.overhead  *0 ' "$T/out" && ! has_neg0 "$T/out"; then
    ok "show --set sparsity.overhead=-0: 0, no -0"
else
    nok "show --set sparsity.overhead=-0: 0, no -0" "exit $rc: $(grep overhead "$T/out")"
fi

echo "# cli_names done"
