#!/bin/sh
# cli_capacity.sh - capacity sizes MemoryX: "every system" (no -s) is
# every description of a kind that keeps its state in MemoryX tiers, a
# GPU description among them is left out (whatever its name), and one
# named with -s is refused in one line (exit 2).
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d/hw"
cp hw/h100.ini "$T/d/hw/zz-gpu.ini"
cp hw/cs3.ini "$T/d/hw/zz-ws.ini"

run capacity --csv --data-dir "$T/d" -m gpt3-xl
check "capacity without -s answers (exit $rc)" [ "$rc" -eq 0 ]
check "a weight-streaming description of the data directory gets its tiers" \
    grep -q '^zz-ws,1.5TB,' "$T/out"
check "the shipped weight-streaming systems get theirs" grep -q '^cs2,4TB,' "$T/out"
check "every row has a system of a MemoryX kind" \
    sh -c "tail -n +2 '$T/out' | cut -d, -f1 | sort -u | tr '\n' ' ' | grep -qx 'cs2 cs3 zz-ws '"
run capacity --data-dir "$T/d" -m gpt3-xl
check "the text lists the copy's smallest tier too" grep -q 'zz-ws tier 1.5TB' "$T/out"
if grep -q 'zz-gpu\|h100' "$T/out"; then nok "no GPU system in the text"; else ok "no GPU system in the text"; fi

expect_rc 2 "a GPU system named with -s is refused" capacity -s zz-gpu --data-dir "$T/d"
check "the refusal says why, in one line" sh -c \
    "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'zz-gpu is a GPU system: capacity sizes MemoryX' '$T/err'"
check "and prints nothing" [ ! -s "$T/out" ]

# a description that does not load, listed after the first: the error
# alone, not the first system's breakdown before it
mkdir -p "$T/b/hw"
cp hw/cs2.ini "$T/b/hw/"
printf '[system]\nname = zz\nbogus = 1\n' >"$T/b/hw/zz.ini"
expect_rc 2 "a description of the directory that does not load: exit 2" capacity --data-dir "$T/b"
check "its error names the file and key" grep -q 'zz.ini:3: system.bogus' "$T/err"
check "and nothing went to stdout before it" [ ! -s "$T/out" ]

echo "# cli_capacity done"
