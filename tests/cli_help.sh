#!/bin/sh
# Help and man page against the program: for every command and every long
# option in src/cli/opts.c's long_opts, whether the command accepts it (it
# is not refused as "does not apply to this command", nor by the command
# when it runs), then that `help COMMAND` lists exactly the options the
# command accepts, that the command's SYNOPSIS in cerebras-plan(1) names
# them and no other, that OPTIONS has an entry for each and that the README
# names each.  Then the rendered man pages (mandoc and man) are searched for
# broken quoting: a quote opened inside another, a flag macro that turned the
# words after it into flags.  Prints "ok N - what" or "not ok N - what" per
# check and "# cli_help done" at the end.
. "$(dirname "$0")/lib.sh"

# The bulk of the runs only parse options or check that one is not refused:
# the native binary even under valgrind (the runs that must refuse use $CP).
P=$CP_NATIVE
# The probes (COMMAND --OPTION [VALUE] --help, about 1,000 runs that only
# parse the options and print the help) run the default build's binary in
# the ASan pass of make test too (CP_TEST_NATIVE, set by make sanitize):
# there the fuzz targets fuzz_cli and fuzz_gcli cover the option parser
# under ASan and UBSan, and the real runs below (each command with each
# option it lists, about 300) and the help texts run the ASan build.
Q=${CP_TEST_NATIVE:-$P}

# ---- the options the program knows: "name has_arg letter" ----
sed -n 's/^ *{"\([a-z-]*\)", *\([a-z]*\)_argument, *NULL, *\([^}]*\)}.*/\1 \2 \3/p' \
    src/cli/opts.c | sed "s/ '\\(.\\)'\$/ \\1/; s/ LONG_[A-Z_]*\$/ -/" >"$T/opts"
nopts=$(wc -l <"$T/opts")
check "long options read from src/cli/opts.c ($nopts)" [ "$nopts" -ge 40 ]
"$P" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 && $1 !~ /:$/ { print $1 }' >"$T/cmds"
check "commands read from --help" [ "$(wc -l <"$T/cmds")" -ge 15 ]

# A sample value for an option that takes one, valid where it is accepted.
value() {
    case $1 in
    model) echo gpt3-xl ;; system) echo cs2 ;; nsystems) echo 2 ;;
    memoryx) echo 12TB ;; memoryx-servers) echo 4 ;; act-servers) echo 2 ;;
    activations) echo auto ;; sparsity) echo 0.5 ;; batch) echo 64 ;;
    batch-tokens) echo 4M ;; tokens) echo chinchilla ;; overlap) echo 0.5 ;;
    price) echo 20 ;; systems) echo 1,2 ;; steps) echo 2 ;; trace) echo "$T/trace.csv" ;;
    memoryx-units) echo 2 ;; optimizer) echo sgd ;; hw-overlay) echo "$T/ov.ini" ;;
    deadline) echo 30d ;; budget) echo 1M ;; energy) echo 1GWh ;;
    fit) echo system.utilization ;; tolerance) echo 0.5 ;; output) echo "$T/o.ini" ;;
    seed) echo 3 ;; format) echo svg ;; best) echo systems ;; group-by) echo model ;;
    where) echo 'systems<=4' ;; jobs) echo 1 ;; shard) echo 1/1 ;; columns) echo systems ;;
    set) echo system.utilization=0.4 ;; data-dir) echo "$T" ;; cp | vp) echo 2 ;; *) echo x ;;
    esac
}
# What a command needs to run at all, and what an option needs beside it.
base_args() {
    case $1 in
    show) echo cs2 ;; plan) echo --deadline 3000d ;; compare) echo --gpu h100 --deadline 3000d ;;
    calibrate) echo hw/measurements.csv --fit system.utilization ;;
    esac
}
companion() {
    case $1:$2 in
    *:seed) echo --uncertainty=5 ;; *:group-by) echo --best systems ;;
    *:budget) echo --price 1 ;; simulate:optimizer) echo --functional ;;
    estimate:tp | estimate:pp | estimate:cp | estimate:vp | estimate:mbs | estimate:fsdp | \
        estimate:precision) echo -s h100 -n 64 ;;
    scale:tp | scale:pp | scale:cp | scale:vp | scale:mbs | scale:fsdp | scale:precision)
        echo -s h100 --systems 64 ;;
    plan:tp | plan:pp | plan:cp | plan:vp | plan:mbs | plan:fsdp | plan:precision) echo -s h100 ;;
    sensitivity:tp | sensitivity:pp | sensitivity:cp | sensitivity:vp | sensitivity:mbs | \
        sensitivity:fsdp | sensitivity:precision) echo -s h100 -n 64 ;;
    sweep:tp | sweep:pp | sweep:cp | sweep:vp | sweep:mbs | sweep:fsdp | sweep:precision | \
        sweep:layouts) echo -s h100 --systems 64 ;;
    esac
}
printf '[system]\nutilization = 0.4\n' >"$T/ov.ini"

# A refusal of option FLAG (--name or -l) in file $1.
refused_in() {
    grep -E -- "(^|[ '])$2([ ',:]|\$).*(does not apply|appl(y|ies) (only|to)|only .* apply)|only .* apply|, not $2( |\$)" "$1" >/dev/null
}

# Rendered cerebras-plan(1), one line per paragraph (wide, no hyphenation).
mandoc -Tascii -Owidth=1000 man/cerebras-plan.1 2>/dev/null | col -b >"$T/man1"
sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$T/man1" >"$T/synopsis"
sed -n '/^OPTIONS/,/^DESCRIPTION LOOKUP/p' "$T/man1" | grep -E '^     -' >"$T/tags"
check "the man page renders a SYNOPSIS and OPTIONS" [ -s "$T/synopsis" -a -s "$T/tags" ]

# names FILE FLAG...: 0 when a line of FILE names one of the flags as a word
names() {
    f=$1
    shift
    for fl in "$@"; do
        grep -E -- "(^|[][ |(])$fl([][ |=)]|\$)" "$f" >/dev/null && return 0
    done
    return 1
}

bad_probe=
bad_help=
bad_man=
bad_refuse=
bad_tags=
bad_readme=
bad_known=
while read -r cmd; do
    "$P" help "$cmd" | sed -n '/^options:/,$p' | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' |
        sed 's/.*--//' >"$T/listed"
    grep -E "^ *cerebras-plan $cmd( |\$)" "$T/synopsis" >"$T/syn"
    # every option listed is one the program knows
    while read -r name; do
        grep -q "^$name " "$T/opts" || bad_known="$bad_known $cmd:--$name"
    done <"$T/listed"
    while read -r name arg letter; do
        flags="--$name"
        [ "$letter" != - ] && flags="$flags -$letter"
        case $arg in required) v=$(value "$name") ;; *) v= ;; esac
        # accepted by the group check in main.c?
        if [ "$arg" = required ]; then
            "$Q" "$cmd" "--$name" "$v" --help >"$T/o1" 2>"$T/e1"
        else
            "$Q" "$cmd" "--$name" --help >"$T/o1" 2>"$T/e1"
        fi
        r=$?
        if [ $r -eq 0 ] && [ -s "$T/o1" ]; then
            accepted=1
        elif [ $r -eq 2 ] && grep -q "does not apply to this command" "$T/e1"; then
            accepted=0
        else
            bad_probe="$bad_probe $cmd:--$name(exit $r)"
            continue
        fi
        listed=0
        grep -qx -- "$name" "$T/listed" && listed=1
        if [ "$accepted" = 1 ] && [ "$listed" = 0 ] && [ "$name" != help ] && [ "$name" != version ]; then
            # not listed: the command must refuse it when it runs
            # shellcheck disable=SC2046
            if [ -n "$v" ]; then
                "$CP" "$cmd" $(base_args "$cmd") $(companion "$cmd" "$name") "--$name" "$v" >/dev/null 2>"$T/e2"
            else
                "$CP" "$cmd" $(base_args "$cmd") $(companion "$cmd" "$name") "--$name" >/dev/null 2>"$T/e2"
            fi
            r2=$?
            [ "$letter" != - ] && fl=-$letter || fl=--$name
            if [ $r2 -eq 2 ] && { refused_in "$T/e2" "--$name" || refused_in "$T/e2" "$fl"; }; then
                accepted=0
            else
                bad_refuse="$bad_refuse $cmd:--$name"
            fi
        fi
        if [ "$accepted" = 1 ] && [ "$listed" = 1 ]; then
            case $cmd in crosscheck | report | explore) ;; *)
                # listed: a real run must not refuse it
                # shellcheck disable=SC2046
                if [ -n "$v" ]; then
                    "$P" "$cmd" $(base_args "$cmd") $(companion "$cmd" "$name") "--$name" "$v" >/dev/null 2>"$T/e2"
                else
                    "$P" "$cmd" $(base_args "$cmd") $(companion "$cmd" "$name") "--$name" >/dev/null 2>"$T/e2"
                fi
                if refused_in "$T/e2" "--$name" || { [ "$letter" != - ] && refused_in "$T/e2" "-$letter"; }; then
                    bad_refuse="$bad_refuse $cmd:--$name(listed)"
                fi
                ;;
            esac
        fi
        [ "$accepted" != "$listed" ] && bad_help="$bad_help $cmd:--$name($accepted/$listed)"
        case $name in help | version) continue ;; esac
        # shellcheck disable=SC2086
        if [ "$accepted" = 1 ]; then
            names "$T/syn" $flags || bad_man="$bad_man $cmd:+--$name"
        else
            ! names "$T/syn" $flags || bad_man="$bad_man $cmd:-$name"
        fi
    done <"$T/opts"
done <"$T/cmds"
while read -r name arg letter; do
    grep -qE -- "(^|[ ,])--$name([ ,=[]|\$)" "$T/tags" || bad_tags="$bad_tags --$name"
    grep -qE -- "--$name([^a-z-]|\$)" README.md || bad_readme="$bad_readme --$name"
done <"$T/opts"

# verdict WHAT DETAIL: ok when DETAIL is empty, else not ok showing it
verdict() { if [ -z "$2" ]; then ok "$1"; else nok "$1" "$2"; fi; }
verdict "each option before --help either prints the help or is refused as not applying" "$bad_probe"
verdict "help lists only options the program knows" "$bad_known"
verdict "options accepted but not listed are refused when the command runs, listed ones are not" "$bad_refuse"
verdict "help COMMAND lists every option the command accepts and none it refuses" \
    "${bad_help:+(accepted/listed)$bad_help}"
verdict "each command's SYNOPSIS names the options it accepts (+) and no other (-)" "$bad_man"
verdict "OPTIONS in the man page has an entry for every option" "$bad_tags"
verdict "README names every option" "$bad_readme"

# ---- help prints one line per option with its value ----
"$P" help estimate >"$T/out"
check "help estimate lists --sparsity with its value and a description" \
    grep -qE '^ +--sparsity FRACTION +[a-z]' "$T/out"
check "help estimate no longer says [scenario options]" sh -c "! grep -q 'scenario options' '$T/out'"
"$P" estimate --help >"$T/out2"
check "estimate --help is help estimate" cmp -s "$T/out" "$T/out2"
# (sweep's own text is left out: its entry is edited elsewhere)
long=$(while read -r cmd; do
    "$P" help "$cmd" | if [ "$cmd" = sweep ]; then sed -n '/^options:/,$p'; else cat; fi |
        awk -v c="$cmd" 'length > 80 { print c ": " $0 }'
done <"$T/cmds" | head -n 3)
verdict "help COMMAND fits 80 columns" "$long"

# ---- rendered man pages: quoting ----
# broken FILE: what looks broken in the rendered page FILE, one per line
broken() {
    tr '\t\n' '  ' <"$1" | sed 's/  */ /g' >"$T/flat"
    # shellcheck disable=SC1111,SC1112 # the quotes mandoc and groff render
    {
        grep -oE '‘[^’]{0,80}‘[^’]{0,80}’' "$T/flat"
        grep -oE '“[^”]{0,80}“[^”]{0,80}”' "$T/flat"
        grep -oE ".{0,30}(’’|””|''|\`\`).{0,10}" "$T/flat"
        grep -oE '.{0,20}(^|[ (])-{1,2}(or|and|the|to|with|in|for|of|is|a|an|by|on|at|that)([ ,.;:)]|$).{0,20}' "$T/flat"
        grep -oE '.{0,20}colop.{0,10}' "$T/flat"
    } | head -n 8
}
for page in man/cerebras-plan.1 man/cerebras-plan.5; do
    mandoc -Tutf8 "$page" 2>/dev/null | col -b >"$T/r"
    verdict "mandoc renders $page without broken quoting" "$(broken "$T/r")"
    if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
        MANWIDTH=100 man -l "$page" 2>/dev/null | col -b >"$T/r"
        if [ -s "$T/r" ]; then b=$(broken "$T/r"); else b="man rendered nothing"; fi
        verdict "man renders $page without broken quoting" "$b"
    fi
done

echo "# cli_help done"
