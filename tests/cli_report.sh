#!/bin/sh
# Command-line tests of `report`: the folder it writes (CSV tables, the
# gnuplot scripts of reports/, the figures, index.md), each script run again
# by hand from the folder (exit 0, nothing on stderr, a real PNG or SVG),
# the CSV shapes and the columns the scripts read, golden tables for one
# scenario, and the folder handling (refusal without --force, replacement
# with it, nothing left behind by a failed run).  Prints "ok N - what" or
# "not ok N - what" per check (run.sh counts them) and "# cli_report done"
# at the end.  Golden files: B=build sh tests/golden/regen-report.sh
. "$(dirname "$0")/lib.sh"

FIGS="scaling models breakdown sparsity capacity crosscheck"
CSVS="estimate.csv scaling-weak.csv scaling-strong.csv models.csv breakdown.csv sparsity.csv capacity.csv crosscheck.csv claims.csv"
HAVE_GP=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GP=1

# names DIR: the entries of DIR on one line
names() {
    for e in "$1"/* "$1"/.[!.]*; do
        [ -e "$e" ] && printf '%s ' "${e##*/}"
    done
}

# report ARGS...: the binary's report command; $rc, stdout in $T/out, stderr in $T/err
report() {
    "$CP" report "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# is_png FILE / is_svg FILE: a non-empty file of that format
is_png() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
is_svg() {
    [ -s "$1" ] && head -c 200 "$1" | grep -q '^<?xml' && grep -q '<svg' "$1" && grep -q '</svg>' "$1"
}

# csv_shape FILE: ok when FILE has a header and at least one record, every
# record ends with CR LF and has as many fields as the header (RFC 4180:
# commas inside double quotes do not count, quoted fields may span lines).
# Prints what is wrong otherwise.
csv_shape() {
    awk '
        { if (!sub(/\r$/, "")) { print "line " NR " does not end with CR LF"; bad = 1; exit } }
        {
            line = $0
            for (i = 1; i <= length(line); i++) {
                ch = substr(line, i, 1)
                if (ch == "\"") inq = !inq
                else if (ch == "," && !inq) fields++
            }
            if (inq) next                 # a quoted field goes on
            fields++
            rec++
            if (rec == 1) { want = fields; hdr = $0 }
            else if (fields != want) { print "record " rec " has " fields " fields, the header " want; bad = 1; exit }
            fields = 0
        }
        END {
            if (bad) exit 1
            if (inq) { print "unterminated quote"; exit 1 }
            if (rec < 2) { print "no records after the header"; exit 1 }
            if (hdr ~ /(^|,)[-+]?[0-9.]+(,|$)/) { print "the header has a number: " hdr; exit 1 }
        }' "$1"
}

# has_cols FILE NAME...: the header of FILE names every NAME
has_cols() {
    file=$1
    shift
    head -n 1 "$file" | tr -d '\r' | awk -F, -v want="$*" '
        { for (i = 1; i <= NF; i++) have[$i] = 1 }
        END {
            n = split(want, w, " ")
            for (i = 1; i <= n; i++) if (!(w[i] in have)) { print "missing column " w[i]; miss = 1 }
            exit miss
        }'
}

# ---- one report: gpt3-175b on 16 CS-2 ----
R=$T/p/r
mkdir -p "$T/p"
report -m gpt3-175b -s cs2 -n 16 -o "$R"
if [ "$rc" -eq 0 ] && [ -d "$R" ]; then
    ok "report -m gpt3-175b -s cs2 -n 16 -o DIR exits 0 and writes DIR"
else
    nok "report -m gpt3-175b -s cs2 -n 16 -o DIR exits 0 and writes DIR" "exit $rc: $(head -c 300 "$T/err")"
fi
# Under valgrind (make valgrind) a report takes about a minute: its
# cross-check runs the simulator 36 times.  That one complete report is
# checked there; the rest of this script runs the binary natively.
[ -n "${VGLOG:-}" ] && CP=$CP_NATIVE
if [ ! -s "$T/err" ]; then
    ok "report: nothing on stderr"
else
    nok "report: nothing on stderr" "$(head -c 300 "$T/err")"
fi
missing=
for f in $CSVS index.md; do
    [ -s "$R/$f" ] || missing="$missing $f"
done
for g in $FIGS; do
    [ -s "$R/$g.gp" ] || missing="$missing $g.gp"
    if [ "$HAVE_GP" -eq 1 ]; then is_png "$R/$g.png" || missing="$missing $g.png"; fi
done
if [ -z "$missing" ]; then
    ok "the folder has every table, script, figure and index.md"
else
    nok "the folder has every table, script, figure and index.md" "missing or bad:$missing"
fi
extra=
for f in "$R"/* "$R"/.[!.]*; do
    [ -e "$f" ] || continue
    case "${f##*/}" in *.csv | *.gp | *.png | index.md) ;; *) extra="$extra ${f##*/}" ;; esac
done
if [ -z "$extra" ]; then
    ok "the folder holds nothing else (no logs, no temporary files)"
else
    nok "the folder holds nothing else (no logs, no temporary files)" "$extra"
fi
if [ "$(ls -A "$T/p")" = r ]; then
    ok "nothing is left beside the folder"
else
    nok "nothing is left beside the folder" "$(ls -A "$T/p")"
fi
diffs=
for g in $FIGS; do
    cmp -s "reports/$g.gp" "$R/$g.gp" || diffs="$diffs $g.gp"
done
if [ -z "$diffs" ]; then
    ok "the scripts in the folder are those of reports/"
else
    nok "the scripts in the folder are those of reports/" "differ (rebuild?):$diffs"
fi

# ---- the scripts, run again from a copy holding only the tables and scripts ----
C=$T/copy
mkdir -p "$C"
cp "$R"/*.csv "$R"/*.gp "$C"/ 2>/dev/null
for s in "$C"/*.gp; do
    g=$(basename "$s" .gp)
    # Every file a script names in quotes is in the folder, and it names no path.
    refs=$(grep -v '^[[:space:]]*#' "$s" | grep -o '"[^"]*\.\(csv\|dat\|txt\|gp\|tsv\)"' | tr -d '"' | sort -u | tr '\n' ' ')
    bad=
    for f in $refs; do
        case "$f" in */*) bad="$bad $f" ;; *) [ -f "$C/$f" ] || bad="$bad $f" ;; esac
    done
    if grep -v '^[[:space:]]*#' "$s" | grep -q -e 'system(' -e '`' -e '^[[:space:]]*\(load\|call\|cd\|!\)'; then
        bad="$bad (runs a command or loads another file)"
    fi
    if [ -n "$refs" ] && [ -z "$bad" ]; then
        ok "$g.gp reads only files of the folder ($refs)"
    else
        nok "$g.gp reads only files of the folder" "bad:$bad; named: $refs"
    fi
done
if [ "$HAVE_GP" -eq 1 ]; then
    for s in "$C"/*.gp; do
        g=$(basename "$s" .gp)
        for fmt in png svg; do
            rm -f "$C/$g.$fmt"
            (cd "$C" && gnuplot -e "fmt='$fmt'" "$g.gp") >"$T/gout" 2>"$T/gerr"
            grc=$?
            if [ "$fmt" = png ]; then is_png "$C/$g.$fmt"; else is_svg "$C/$g.$fmt"; fi
            good=$?
            if [ "$grc" -eq 0 ] && [ ! -s "$T/gerr" ] && [ "$good" -eq 0 ]; then
                ok "gnuplot -e \"fmt='$fmt'\" $g.gp: exit 0, no stderr, a $fmt"
            else
                nok "gnuplot -e \"fmt='$fmt'\" $g.gp: exit 0, no stderr, a $fmt" \
                    "exit $grc, $fmt ok: $good; stderr: $(head -c 300 "$T/gerr")"
            fi
        done
    done
    rm -f "$C/scaling.png"
    if (cd "$C" && gnuplot scaling.gp) >/dev/null 2>"$T/gerr" && [ ! -s "$T/gerr" ] &&
        is_png "$C/scaling.png"; then
        ok "without fmt a script draws a png"
    else
        nok "without fmt a script draws a png" "$(head -c 300 "$T/gerr")"
    fi
    if ! (cd "$C" && gnuplot -e "fmt='gif'" scaling.gp) >/dev/null 2>"$T/gerr" &&
        [ -s "$T/gerr" ] && [ ! -e "$C/scaling.gif" ]; then
        ok "an unknown fmt is an error"
    else
        nok "an unknown fmt is an error" "$(head -c 300 "$T/gerr")"
    fi
    # A script fails, loudly, when a column it reads is gone.
    sed '1s/time_to_train_s/ttt_s/' "$C/models.csv" >"$T/m.csv" && cp "$T/m.csv" "$C/models.csv"
    if ! (cd "$C" && gnuplot models.gp) >/dev/null 2>"$T/gerr" && [ -s "$T/gerr" ]; then
        ok "a script reads its columns by name (a renamed column is an error)"
    else
        nok "a script reads its columns by name (a renamed column is an error)" "$(head -c 300 "$T/gerr")"
    fi
else
    ok "# SKIP gnuplot is not installed: the scripts were not run"
fi

# ---- the tables ----
for f in $CSVS; do
    if [ -f "$R/$f" ] && why=$(csv_shape "$R/$f"); then
        ok "$f: a header, CR LF records, the same field count on every row"
    else
        nok "$f: a header, CR LF records, the same field count on every row" "${why:-missing}"
    fi
done
# The columns the scripts read (see the header of each reports/*.gp).
EST="model system systems step_time_s time_to_train_s params state_bytes feasible paced_compute_s paced_stream_in_s paced_stream_out_s paced_update_s exposed_latency_s"
cols_check() {
    file=$1
    shift
    if [ -f "$R/$file" ] && why=$(has_cols "$R/$file" "$@"); then
        ok "$file has the columns the scripts read"
    else
        nok "$file has the columns the scripts read" "${why:-missing}"
    fi
}
# shellcheck disable=SC2086 # $EST is a list of names
cols_check estimate.csv $EST
# shellcheck disable=SC2086
cols_check models.csv $EST
# shellcheck disable=SC2086
cols_check breakdown.csv $EST
cols_check scaling-weak.csv systems speedup efficiency tta_speedup feasible
cols_check scaling-strong.csv systems speedup efficiency tta_speedup feasible
cols_check sparsity.csv sparsity step_time_s speedup time_to_train_s bottleneck
cols_check capacity.csv system tier capacity_bytes dram_bytes state_bytes fits smallest
cols_check crosscheck.csv regime analytic_s simulated_s rel_diff
cols_check validation.csv id system measured predicted error loo_predicted loo_error
# The six parts of the breakdown add up to the step time.
if [ -f "$R/breakdown.csv" ] && tr -d '\r' <"$R/breakdown.csv" | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        sum = $c["paced_compute_s"] + $c["paced_stream_in_s"] + $c["paced_stream_out_s"] + \
              $c["paced_update_s"] + $c["exposed_latency_s"] + $c["overhead_s"]
        d = sum - $c["step_time_s"]; if (d < 0) d = -d
        if (d > 1e-9 * $c["step_time_s"]) bad = 1
        rows++
    }
    END { exit bad || rows < 4 }'; then
    ok "breakdown.csv: at least 4 cluster sizes, the parts sum to step_time_s"
else
    nok "breakdown.csv: at least 4 cluster sizes, the parts sum to step_time_s" "$(cut -d, -f3,13 "$R/breakdown.csv" 2>/dev/null | head -n 6)"
fi

# ---- golden tables (tests/golden/regen-report.sh after a deliberate change) ----
for f in scaling-weak.csv breakdown.csv sparsity.csv; do
    gold=tests/golden/report/$f
    if [ ! -f "$gold" ]; then
        nok "golden report/$f" "no $gold: run B=build sh tests/golden/regen-report.sh"
    elif cmp -s "$gold" "$R/$f"; then
        ok "golden report/$f"
    else
        nok "golden report/$f" "$(diff "$gold" "$R/$f" | head -n 5)"
    fi
done

# ---- index.md ----
if [ -f "$R/index.md" ]; then
    miss=
    for g in $FIGS; do
        grep -qF "$g.png" "$R/index.md" || miss="$miss $g.png"
        grep -qF "$g.gp" "$R/index.md" || miss="$miss $g.gp"
    done
    if [ -z "$miss" ]; then
        ok "index.md names every figure and its script"
    else
        nok "index.md names every figure and its script" "missing:$miss"
    fi
else
    nok "index.md names every figure and its script" "no index.md"
fi

# ---- folder handling ----
D=$T/q/d
mkdir -p "$D"
echo keep >"$D/keep"
report -m gpt3-175b -s cs2 -n 16 -o "$D"
if [ "$rc" -eq 2 ] && [ "$(ls -A "$D")" = keep ] && [ "$(cat "$D/keep")" = keep ] &&
    [ "$(ls -A "$T/q")" = d ] && [ -s "$T/err" ]; then
    ok "a non-empty DIR is refused without --force (exit 2, DIR untouched)"
else
    nok "a non-empty DIR is refused without --force (exit 2, DIR untouched)" \
        "exit $rc; DIR: $(names "$D"); beside: $(names "$T/q")"
fi
report -m gpt3-175b -s cs2 -n 16 -o "$D" --force --format svg
if [ "$rc" -eq 0 ] && [ ! -e "$D/keep" ] && [ -s "$D/index.md" ] && [ "$(ls -A "$T/q")" = d ]; then
    ok "--force replaces a non-empty DIR, leaving nothing beside it"
else
    nok "--force replaces a non-empty DIR, leaving nothing beside it" \
        "exit $rc; DIR: $(names "$D"); beside: $(names "$T/q")"
fi
if [ "$HAVE_GP" -eq 1 ]; then
    bad=
    for g in $FIGS; do
        is_svg "$D/$g.svg" || bad="$bad $g.svg"
        grep -qF "$g.svg" "$D/index.md" 2>/dev/null || bad="$bad (index.md: $g.svg)"
    done
    [ -n "$(ls "$D"/*.png 2>/dev/null)" ] && bad="$bad (a png)"
    if [ -z "$bad" ]; then
        ok "--format svg draws svg figures and index.md shows them"
    else
        nok "--format svg draws svg figures and index.md shows them" "$bad"
    fi
fi
E=$T/e
mkdir -p "$E/d"
report -m gpt3-175b -s cs2 -n 16 -o "$E/d"
if [ "$rc" -eq 0 ] && [ -s "$E/d/index.md" ] && [ "$(ls -A "$E")" = d ]; then
    ok "an empty DIR is used without --force"
else
    nok "an empty DIR is used without --force" "exit $rc: $(head -c 300 "$T/err")"
fi
F=$T/f
mkdir -p "$F"
report -m nosuch -s cs2 -o "$F/d"
if [ "$rc" -eq 2 ] && [ -z "$(ls -A "$F")" ] && [ -s "$T/err" ]; then
    ok "an unknown model: exit 2, no DIR, nothing beside it"
else
    nok "an unknown model: exit 2, no DIR, nothing beside it" "exit $rc; beside: $(names "$F")"
fi
report -m gpt3-175b -s cs2 -o "$F/d" --format gif
if [ "$rc" -eq 2 ] && [ -z "$(ls -A "$F")" ]; then
    ok "--format gif: exit 2, no DIR"
else
    nok "--format gif: exit 2, no DIR" "exit $rc; beside: $(names "$F")"
fi
# A failure after the folder was begun: a gnuplot that fails.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "gnuplot: broken on purpose" >&2\nexit 1\n' >"$T/bin/gnuplot"
chmod +x "$T/bin/gnuplot"
PATH="$T/bin:$PATH" "$CP" report -m gpt3-175b -s cs2 -n 16 -o "$F/d" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && [ -z "$(ls -A "$F")" ] && grep -q 'broken on purpose' "$T/err"; then
    ok "a failing gnuplot fails the report and leaves no DIR and no temporary folder"
else
    nok "a failing gnuplot fails the report and leaves no DIR and no temporary folder" \
        "exit $rc; beside: $(names "$F"); stderr: $(head -c 200 "$T/err")"
fi
# ... and the same over an existing report with --force: the old one stays.
mkdir -p "$F/old"
echo keep >"$F/old/keep"
PATH="$T/bin:$PATH" "$CP" report -m gpt3-175b -s cs2 -n 16 -o "$F/old" --force >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$(ls -A "$F")" = old ] && [ "$(ls -A "$F/old")" = keep ]; then
    ok "a failed --force run keeps the old DIR as it was"
else
    nok "a failed --force run keeps the old DIR as it was" \
        "exit $rc; beside: $(names "$F"); DIR: $(names "$F/old")"
fi
# Without gnuplot: the tables, scripts and index.md, no figures; DIR defaults to ./report.
mkdir -p "$T/w" "$T/nobin"
(cd "$T/w" && PATH="$T/nobin" "$CP" report -m gpt3-175b -s cs2 -n 16) >"$T/out" 2>"$T/err"
rc=$?
W=$T/w/report
if [ "$rc" -eq 0 ] && [ -s "$W/index.md" ] && [ -s "$W/scaling.gp" ] && [ -s "$W/claims.csv" ] &&
    [ -z "$(ls "$W"/*.png "$W"/*.svg 2>/dev/null)" ] && [ "$(ls -A "$T/w")" = report ]; then
    ok "without gnuplot: exit 0, ./report with tables, scripts and index.md, no figures"
else
    nok "without gnuplot: exit 0, ./report with tables, scripts and index.md, no figures" \
        "exit $rc; $(names "$T/w"); stderr: $(head -c 200 "$T/err")"
fi
if [ -d "$W" ] && cmp -s "$R/breakdown.csv" "$W/breakdown.csv" && cmp -s "$R/models.csv" "$W/models.csv"; then
    ok "the same scenario gives the same tables"
else
    nok "the same scenario gives the same tables"
fi

echo "# cli_report done"
