#!/bin/sh
# End-to-end tests of `explore`, the full-screen explorer, driven through a
# private tmux server: the panels, and a time to train that agrees with
# `estimate` as the keys change the number of systems and a hardware key;
# the prompt, the help overlay, the CSV export (byte for byte `estimate
# --csv`), the saved overlay (accepted by `show` and `estimate`), the chart
# and band toggles, NO_COLOR, a terminal too small, quitting, and the
# refusals (no terminal, unknown TERM, --csv).  Prints "ok N - what" or
# "not ok N - what" per check and "# cli_explore done".  Skips when tmux is
# missing or the binary has no `explore`.
. "$(dirname "$0")/lib.sh"

done_line() { echo "# cli_explore done"; }

if ! command -v tmux >/dev/null 2>&1; then
    echo "ok 1 - # SKIP tmux is not installed"
    done_line
    exit 0
fi

# ---- the tmux harness ----
# A server of our own (its own socket, no configuration file), killed on
# any exit together with the temporary directory.
SOCK="cpx$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

W="$T/work" # the explorer's working directory: the exported files land here
mkdir "$W" || exit 2

# Each pane runs the launcher: cd to $W, run the arguments, print the exit
# status as "exit=N" and stay on screen until the server is killed.
cat >"$T/launch" <<EOF
cd "$W" || exit 1
"\$@"
echo "exit=\$?"
exec sleep 120
EOF

XTERM=TERM=xterm-256color
ESC=$(printf '\033')

# start WINDOW COMMAND...: a new 100x30 window (the session "x" on first
# use) running COMMAND through the launcher
start() {
    win=$1 misses=0
    shift
    if tm has-session -t x 2>/dev/null; then
        tm new-window -d -t x: -n "$win" sh "$T/launch" "$@"
    else
        tm new-session -d -s x -n "$win" -x 100 -y 30 sh "$T/launch" "$@"
    fi
}

# poll HOW WINDOW REGEX: capture the window's pane into $T/screen every
# 0.1 s, for at most about 5 s, until a line matches REGEX (grep -E) when
# HOW is "match", or no line does when HOW is "gone"; "match-e" captures
# the colours and attributes too (as escape sequences).  Status 0 when it
# happened in time.  Gives up at once on a program that has ended (unless
# waiting for that), and on one that missed three waits in a row (hung: the
# script must still end in time).
misses=0
poll() {
    how=$1 win=$2 regex=$3 i=0 flags=-p
    [ "$how" = match-e ] && flags=-pe
    [ "$misses" -ge 3 ] && return 1
    while [ $i -lt 50 ]; do
        tm capture-pane $flags -t "x:$win" >"$T/screen" 2>/dev/null
        case $regex in *exit=*) ;; *) grep -q '^exit=[0-9]*$' "$T/screen" && return 1 ;; esac
        if grep -qE -- "$regex" "$T/screen"; then
            [ "$how" != gone ] && misses=0 && return 0
        else
            [ "$how" = gone ] && misses=0 && return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    misses=$((misses + 1))
    return 1
}
wait_for() { poll match "$@"; }
wait_gone() { poll gone "$@"; }

# keys KEY...: send tmux key names to the explorer's window
keys() { tm send-keys -t x:main "$@"; }

# re STRING: STRING with the regular-expression metacharacters escaped
re() { printf '%s' "$1" | sed 's/[].[*^$\\+?(){}|/]/\\&/g'; }

# seen REGEX: the first line of the last capture matching REGEX, trimmed,
# for the diagnostics of a failed check
seen() { grep -E -- "$1" "$T/screen" | head -n 1 | sed 's/^ *//; s/  */ /g'; }

# train_time ARGS...: the duration of the "training" line of estimate with
# ARGS ("training   3e+11 tokens in 95367.4 steps: 11.7 d (11.66 d)" gives
# "11.7 d")
train_time() {
    "$CP" estimate -m gpt3-175b -s cs2 "$@" |
        sed -n 's/^training .*: *\([^(]*[^ (]\).*/\1/p'
}

# time_is WHAT N [ARGS...]: wait until the explorer shows N systems and the
# time to train of estimate -n N ARGS; ok or not ok with what it shows
time_is() {
    what=$1 num=$2
    shift 2
    want=$(train_time -n "$num" "$@")
    what="$what: time to train $want (estimate -n $num${*:+ $*})"
    if [ -n "$want" ] &&
        wait_for main "systems +$num([^0-9]|\$)" &&
        wait_for main "time to train[: ]+$(re "$want")([^0-9A-Za-z.]|\$)"; then
        ok "$what"
    else
        nok "$what" "seen: $(seen 'systems +[0-9]') / $(seen 'time to train')"
    fi
}

# the selected row: the one drawn in reverse video
selected_is() {
    if poll match-e main "$ESC\\[([0-9;]*;)?7m *$1 "; then
        ok "the $1 row is highlighted"
    else
        nok "the $1 row is highlighted" "$(grep "${ESC}\[[0-9;]*7m" "$T/screen" | head -n 1 | cut -c 1-60 | tr -d "$ESC")"
    fi
}

PANELS='time to train'
start main env "$XTERM" NCURSES_NO_UTF8_ACS=1 "$CP" explore -m gpt3-175b -s cs2 -n 192

# ---- 1. the first screen ----
if wait_for main "$PANELS" && wait_for main 'Parameters' &&
    wait_for main 'Results' && wait_for main 'step time' &&
    wait_for main 'bottleneck' && wait_for main 'tokens/s' && wait_for main 'energy'; then
    ok "explore starts with the Parameters and Results panels"
else
    nok "explore starts with the Parameters and Results panels" "$(head -n 8 "$T/screen")"
fi
if head -n 1 "$T/screen" | grep -q 'explore'; then
    ok "a title line"
else
    nok "a title line" "$(head -n 1 "$T/screen")"
fi

missing=
for p in model system systems memoryx sparsity batch seq_len overlap 'hw key' 'hw value'; do
    grep -qE "(^|[^a-z_])$p([^a-z_]|\$)" "$T/screen" || missing="$missing '$p'"
done
if [ -z "$missing" ]; then ok "a row per parameter"; else nok "a row per parameter" "missing:$missing"; fi

missing=
for v in memoryx sram split matmul batch stream; do
    grep -qE "(^|[^a-z_])$v +(holds|fails|warning)" "$T/screen" || missing="$missing $v"
done
if [ -z "$missing" ]; then ok "a verdict each: holds, fails or warning"; else nok "a verdict each" "missing:$missing"; fi

time_is "at start" 192
selected_is model

# ---- 2. changing the number of systems ----
keys Down Down
selected_is systems
keys Left
time_is "systems, Left halves" 96
keys -
time_is "systems, - takes one" 95
keys +
time_is "systems, + adds one" 96
keys Right
time_is "systems, Right doubles" 192

keys Enter 7 5
if wait_for main 'systems = 75' && tail -n 1 "$T/screen" | grep -q 'systems = 75'; then
    ok "Enter opens a prompt on the status line"
else
    nok "Enter opens a prompt on the status line" "$(tail -n 1 "$T/screen")"
fi
keys Escape
if wait_for main 'cancel'; then ok "Escape cancels the prompt"; else nok "Escape cancels the prompt" "$(tail -n 1 "$T/screen")"; fi
time_is "systems unchanged after Escape" 192
keys Enter 6 4 Enter
time_is "systems, Enter 64 Enter" 64

# ---- 3. the help overlay ----
keys '?'
if wait_for main 'Keys'; then ok "? opens the help"; else nok "? opens the help" "$(head -n 5 "$T/screen")"; fi
keys x
if wait_gone main 'Keys' && wait_for main "$PANELS"; then
    ok "another key closes the help and the panels are back"
else
    nok "another key closes the help and the panels are back" "$(seen Keys)"
fi
time_is "still 64 after the help" 64

# ---- 4. CSV export ----
csv="explore-gpt3-175b-cs2-64.csv"
keys e
if wait_for main "exported.*$(re "$csv")"; then
    ok "e says exported $csv"
else
    nok "e says exported $csv" "$(tail -n 1 "$T/screen")"
fi
# same_csv WHAT ARGS...: the export equals estimate ARGS --csv byte for byte
same_csv() {
    what=$1
    shift
    "$CP" estimate "$@" --csv >"$T/want.csv" 2>"$T/err"
    if [ -s "$W/$csv" ] && cmp -s "$T/want.csv" "$W/$csv"; then
        ok "$what"
    else
        nok "$what" "$(ls "$W"; cmp "$T/want.csv" "$W/$csv" 2>&1)"
    fi
}
same_csv "the export equals estimate -n 64 --csv byte for byte" -m gpt3-175b -s cs2 -n 64

# ---- a hardware key: systems -> hw value is seven rows down ----
keys Down Down Down Down Down Down Down
selected_is 'hw value'
keys Enter 0 . 4 Enter
if wait_for main 'hw value +0\.4([^0-9]|$)'; then
    ok "hw value typed as 0.4"
else
    nok "hw value typed as 0.4" "$(seen 'hw value')"
fi
time_is "utilization 0.4" 64 --set system.utilization=0.4
rm -f "$W/$csv"
keys e
wait_for main "exported.*$(re "$csv")"
same_csv "the export equals estimate --set system.utilization=0.4 --csv" \
    -m gpt3-175b -s cs2 -n 64 --set system.utilization=0.4

# ---- 5. INI overlay ----
ini="explore-cs2.ini"
keys s
if wait_for main "saved.*$(re "$ini")"; then ok "s says saved $ini"; else nok "s says saved $ini" "$(tail -n 1 "$T/screen")"; fi
run show cs2 --hw-overlay "$W/$ini"
if [ -s "$W/$ini" ] && [ "$rc" -eq 0 ]; then
    ok "show cs2 --hw-overlay accepts $ini"
else
    nok "show cs2 --hw-overlay accepts $ini" "exit $rc: $(ls "$W") $(head -c 300 "$T/err")"
fi
a=$(train_time -n 64 --hw-overlay "$W/$ini")
b=$(train_time -n 64 --set system.utilization=0.4)
if [ -n "$a" ] && [ "$a" = "$b" ]; then
    ok "estimate with the overlay gives the explorer's time ($a)"
else
    nok "estimate with the overlay gives the explorer's time" "with the overlay '$a', with --set '$b'"
fi

# ---- values that take the model out of range are refused ----
# Typed: utilization 1e-300 passes the key's own check but makes every
# time infinite.
keys Enter 1 e - 3 0 0 Enter
if wait_for main 'outside the range the model can represent' && wait_for main 'hw value +0\.4([^0-9]|$)'; then
    ok "a typed value that overflows is refused and 0.4 kept"
else
    nok "a typed value that overflows is refused and 0.4 kept" "$(tail -n 1 "$T/screen") / $(seen 'hw value')"
fi
time_is "still utilization 0.4" 64 --set system.utilization=0.4
# Stepped: the batch doubled 1100 times passes 1e308 on the way.
keys Up Up Up Up
selected_is batch
tm send-keys -t x:main -N 1100 Right
if wait_for main 'batch: the inputs are outside the range'; then
    ok "doubling the batch past the largest double is undone, with the reason"
else
    nok "doubling the batch past the largest double is undone" "$(tail -n 1 "$T/screen")"
fi
if grep -qiwE 'nan|inf|-nan' "$T/screen"; then
    nok "no nan or inf on the screen after the refusals" "$(grep -iwE 'nan|inf' "$T/screen" | head -n 2)"
else
    ok "no nan or inf on the screen after the refusals"
fi
keys Enter 1 5 3 6 Enter
time_is "batch typed back to 1536" 64 --set system.utilization=0.4 --batch 1536

# ---- 6. chart and band ----
# The chart's title: the line saying what is plotted against what.
chart_title() { grep -E 'against (N|sparsity)' "$T/screen" | head -n 1 | sed 's/^[^a-z]*//; s/  .*//'; }
# wait_title is|isnt TITLE: poll until the chart's title is (or is not)
# TITLE; $title holds the last one seen
wait_title() {
    i=0 title=
    [ "$misses" -ge 3 ] && return 1
    while [ $i -lt 50 ]; do
        tm capture-pane -p -t x:main >"$T/screen"
        grep -q '^exit=[0-9]*$' "$T/screen" && return 1
        title=$(chart_title)
        if [ -n "$title" ]; then
            case $1 in
            is) [ "$title" = "$2" ] && return 0 ;;
            *) [ "$title" != "$2" ] && return 0 ;;
            esac
        fi
        sleep 0.1
        i=$((i + 1))
    done
    misses=$((misses + 1))
    return 1
}
wait_title isnt ''
t0=$title
keys c
if [ -n "$t0" ] && wait_title isnt "$t0"; then
    ok "c changes the chart title ($t0 -> $title)"
else
    nok "c changes the chart title" "before: '$t0', after: '$title'"
fi
t1=$title
keys c
if wait_title isnt "$t1" && [ "$title" != "$t0" ]; then
    ok "c again: a third chart ($title)"
else
    nok "c again: a third chart" "seen '$t0', '$t1', then '$title'"
fi
keys c
if wait_title is "$t0"; then
    ok "c a third time: back to the first chart"
else
    nok "c a third time: back to the first chart" "first '$t0', now '$title'"
fi

BAND='\[ *5 *%, *95 *%\]'
keys u
if wait_for main "$BAND"; then ok "u shows a band"; else nok "u shows a band" "$(seen 'time to train')"; fi
keys u
if wait_gone main "$BAND"; then ok "u again hides it"; else nok "u again hides it" "$(seen "$BAND")"; fi

# ---- colour, and NO_COLOR ----
# A colour is set by SGR 30-37, 38, 40-47, 48, 90-97 or 100-107.
COLOUR="$ESC\\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]"
if poll match-e main "$COLOUR"; then ok "colour without NO_COLOR"; else nok "colour without NO_COLOR"; fi
start nocolour env "$XTERM" NO_COLOR=1 NCURSES_NO_UTF8_ACS=1 "$CP" explore -m gpt3-175b -s cs2 -n 192
if wait_for nocolour "$PANELS" && poll gone nocolour "$COLOUR"; then
    ok "no colour with NO_COLOR"
else
    nok "no colour with NO_COLOR" "$(grep -oE "$COLOUR" "$T/screen" | sort -u | tr -d "$ESC" | tr '\n' ' ')"
fi

# ---- 7. a terminal too small ----
tm resize-window -t x:main -x 60 -y 15
if wait_for main 'too small' && ! grep -q "$PANELS" "$T/screen"; then
    ok "60x15 says too small"
else
    nok "60x15 says too small" "$(head -n 3 "$T/screen")"
fi
tm resize-window -t x:main -x 100 -y 30
if wait_for main "$PANELS" && wait_gone main 'too small' && wait_for main 'Parameters'; then
    ok "100x30 draws the layout again"
else
    nok "100x30 draws the layout again" "$(head -n 3 "$T/screen")"
fi

# ---- 8. quitting ----
keys q
if wait_for main '^exit=0'; then ok "q exits with status 0"; else nok "q exits with status 0" "$(seen 'exit=')"; fi
if ! grep -qE "$PANELS|Parameters" "$T/screen"; then
    ok "the panels are gone after q"
else
    nok "the panels are gone after q" "$(seen "$PANELS")"
fi

# ---- 9. refusals ----
# (in the background, killed if it has not ended after about 5 s)
"$CP" explore -m gpt3-175b -s cs2 -n 192 </dev/null >"$T/out" 2>"$T/err" &
pid=$!
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill "$pid" 2>/dev/null && echo "hung: killed" >>"$T/err"
wait "$pid"
rc=$?
if [ "$rc" -eq 2 ] && [ -s "$T/err" ]; then
    ok "stdin not a terminal: exit 2 with a message"
else
    nok "stdin not a terminal: exit 2 with a message" "exit $rc: $(head -c 300 "$T/err")"
fi

start tty-out sh -c "$XTERM"' "$0" explore "$@" >out.txt 2>err.txt' "$CP" -m gpt3-175b -s cs2 -n 192
if wait_for tty-out '^exit=[0-9]' && grep -q '^exit=2$' "$T/screen" && [ -s "$W/err.txt" ]; then
    ok "stdout not a terminal: exit 2 with a message"
else
    nok "stdout not a terminal: exit 2 with a message" "$(seen 'exit='): $(head -c 300 "$W/err.txt" 2>/dev/null)"
fi

start noterm env TERM=nosuchterm "$CP" explore -m gpt3-175b -s cs2 -n 192
if wait_for noterm '^exit=[0-9]' && grep -q '^exit=2$' "$T/screen" && grep -q 'nosuchterm' "$T/screen"; then
    ok "TERM=nosuchterm: exit 2 with a message"
else
    nok "TERM=nosuchterm: exit 2 with a message" "$(grep -v '^ *$' "$T/screen" | head -n 4)"
fi

start csv env "$XTERM" "$CP" explore -m gpt3-175b -s cs2 -n 192 --csv
if wait_for csv '^exit=[0-9]' && grep -q '^exit=2$' "$T/screen" && grep -q -- '--csv' "$T/screen"; then
    ok "--csv is refused: exit 2 with a message"
else
    nok "--csv is refused: exit 2 with a message" "$(grep -v '^ *$' "$T/screen" | head -n 4)"
fi

done_line
