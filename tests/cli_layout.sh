#!/bin/sh
# The house rules of the source tree (README, Layout), checked on the source
# and on the objects the build made of it ($B/obj):
#   - no source file over MAX_LINES lines;
#   - no function over MAX_FUNC lines unless the comment just above it says
#     why ("long because ..."); needs universal-ctags (tools/deps.sh);
#   - no circle between files: object A uses a symbol object B defines, B
#     one of A's, by way of any others (tsort finds the loop);
#   - the simulator and the analytic model do not call each other, so the
#     cross-check compares two independent computations; nor does the GPU
#     model (src/gpu) call either;
#   - the core (base, desc, model, sim, plan, grid, gpu, tm, meas, claim,
#     check) uses nothing of the front ends, writes nothing to the terminal
#     and never exits;
#   - curses only in the explorer's room (src/explore);
#   - no command tests the kind of cluster (the interface, src/tm, and the
#     faces of src/cli/job.c reach it).
# Prints "ok N - what" or "not ok N - what" per check and "# cli_layout done".
. "$(dirname "$0")/lib.sh"

MAX_LINES=700
MAX_FUNC=60
CORE="base desc model sim plan grid gpu tm meas claim check"
FRONT="cli face print explore report sweep"

# ---- file lengths ----
long=$(wc -l src/*/*.c src/*/*.h | awk -v m=$MAX_LINES '$2 != "total" && $1 > m { print $2 " " $1 }')
if [ -z "$long" ]; then ok "no source file over $MAX_LINES lines"; else nok "no source file over $MAX_LINES lines" "$long"; fi

# ---- function lengths ----
if ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    ctags --fields=+ne --c-kinds=f -o "$T/tags" -R src
    awk -F'\t' -v m=$MAX_FUNC '!/^!/ {
            l = e = 0
            for (i = 4; i <= NF; i++) {
                if ($i ~ /^line:/) l = substr($i, 6)
                if ($i ~ /^end:/) e = substr($i, 5)
            }
            if (e - l + 1 > m) print $2, l, e - l + 1, $1
        }' "$T/tags" | sort >"$T/longfn"
    : >"$T/unexplained"
    while read -r file line len name; do
        # the comment block right above the signature (up to a blank line)
        head -n $((line - 1)) "$file" | tac | awk 'NF == 0 { exit } { print }' |
            grep -qi 'long because' || echo "$file:$line: $name ($len lines)" >>"$T/unexplained"
    done <"$T/longfn"
    nlong=$(wc -l <"$T/longfn")
    if [ ! -s "$T/unexplained" ]; then
        ok "no function over $MAX_FUNC lines without a reason in its comment ($nlong with one)"
    else
        nok "no function over $MAX_FUNC lines without a reason in its comment" "$(cat "$T/unexplained")"
    fi
else
    echo "ok - SKIP function lengths: universal-ctags is not installed (tools/deps.sh installs it)"
fi

# ---- the objects: who uses whose symbols ----
objs=""
for f in src/*/*.c; do
    o=$B/obj/${f#src/}
    objs="$objs ${o%.c}.o"
done
missing=0
for o in $objs; do [ -e "$o" ] || missing=$((missing + 1)); done
check "every source file has its object in $B/obj ($missing missing)" [ "$missing" -eq 0 ]
# "FILE SYMBOL" for each global definition, then "FILE SYMBOL" for each use:
# one nm for all the objects (-A puts "OBJECT:" before each line; an nm
# costs about 70 ms to start, 19 s of CPU for one per object), FILE is the
# object's path under $B/obj
# shellcheck disable=SC2086
nm -A -g --defined-only $objs 2>/dev/null |
    awk -v p="$B/obj/" 'NF == 3 { f = $1; sub(/:[^:]*$/, "", f); print substr(f, length(p) + 1), $3 }' |
    sort -k2 >"$T/defs"
# shellcheck disable=SC2086
nm -A -u $objs 2>/dev/null |
    awk -v p="$B/obj/" '{ f = $1; sub(/:[^:]*$/, "", f); print substr(f, length(p) + 1), $NF }' |
    sort -k2 >"$T/uses"
# "USER DEFINER" for each use of another file's symbol, once each
join -1 2 -2 2 -o 1.1,2.1 "$T/uses" "$T/defs" | awk '$1 != $2' | sort -u >"$T/edges"
check "the objects use each other's symbols ($(wc -l <"$T/edges") links)" [ -s "$T/edges" ]
if tsort "$T/edges" >/dev/null 2>"$T/loop"; then
    ok "no circle between files"
else
    nok "no circle between files" "$(grep -v 'input contains a loop' "$T/loop")"
fi
cross=$(awk '($1 ~ /^sim\// && $2 ~ /^model\//) || ($1 ~ /^model\// && $2 ~ /^sim\//)' "$T/edges")
if [ -z "$cross" ]; then ok "the simulator and the analytic model do not call each other"; else nok "the simulator and the analytic model do not call each other" "$cross"; fi
# The GPU model shares only descriptions and transformer arithmetic with the
# weight-streaming one (issue 21).
gm=$(awk '($1 ~ /^gpu\// && $2 ~ /^(model|sim)\//) || ($1 ~ /^(model|sim)\// && $2 ~ /^gpu\//)' "$T/edges")
if [ -z "$gm" ]; then ok "the GPU model and the weight-streaming model and simulator do not call each other"; else nok "the GPU model and the weight-streaming model and simulator do not call each other" "$gm"; fi
up=""
for c in $CORE; do
    for f in $FRONT; do
        up="$up$(awk -v c="$c/" -v f="$f/" 'index($1, c) == 1 && index($2, f) == 1' "$T/edges")"
    done
done
if [ -z "$up" ]; then ok "the core uses nothing of the front ends"; else nok "the core uses nothing of the front ends" "$up"; fi
# The core's only way out is xalloc's abort on exhausted memory.
core_re="^($(echo $CORE | tr ' ' '|'))/"
tty=$(awk -v re="$core_re" '$1 ~ re' "$T/uses" |
      awk '$2 ~ /^(exit|_exit|quick_exit|printf|vprintf|puts|putchar|perror|stdout|stderr|initscr|newterm)$/ ||
           ($2 == "abort" && $1 != "base/xalloc.o")')
if [ -z "$tty" ]; then ok "the core writes nothing to the terminal and never exits"; else nok "the core writes nothing to the terminal and never exits" "$tty"; fi

# ---- curses ----
curses=$(grep -l '#include <n\{0,1\}curses' src/*/*.c src/*/*.h | grep -v '^src/explore/')
if [ -z "$curses" ]; then ok "curses only in src/explore"; else nok "curses only in src/explore" "$curses"; fi

# No command asks which kind of cluster it runs on: the kinds are reached
# through the training-model interface (src/tm) and their faces
# (src/cli/job.c).  A command file that tests a description's kind, or
# names one kind's face, is a fork.  The list of those not yet moved behind
# the interface may only shrink (issue 31); it is empty.
kind_re='gpuhw_kind_of|GPUHW_GPU|GPUHW_WEIGHT_STREAMING|scenario_listed_gpu|tm_kind_of|&tm_ws|&tm_gpu|is_mine|&face_ws|&face_gpu'
unmoved=""
forks=""
for f in src/cli/cmd_*.c src/sweep/cmd_*.c src/explore/*.c src/report/*.c; do
    case " $unmoved " in *" $f "*) continue ;; esac
    if grep -Eq "$kind_re" "$f"; then forks="$forks $f"; fi
done
if [ -z "$forks" ]; then ok "no command outside the list still to move tests the kind of cluster"; else nok "no command outside the list still to move tests the kind of cluster" "$forks"; fi
for f in $unmoved; do
    grep -Eq "$kind_re" "$f" || nok "$f no longer tests the kind: take it off the list of commands still to move"
done

echo "# cli_layout done"
