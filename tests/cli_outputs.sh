#!/bin/sh
# Command-line tests of where the output goes (issue 19, items 7 and 12).
# report -o: ".", ".." and "/", a link to nothing, a folder that is not a
# report are refused before any work (exit 2, nothing created); --force
# replaces only a folder that holds a report and nothing else (checked
# again before the rename: a file added during the run is kept); a link to
# a report keeps its place and its target is replaced.  A failed command
# replaces nothing: with the standard output on /dev/full, report, simulate
# --trace and calibrate -o exit 2 and leave the old folder or file as it
# was, with no temporary file or folder beside it.  Prints "ok N - what" or
# "not ok N - what" per check and "# cli_outputs done" at the end.
. "$(dirname "$0")/lib.sh"

# Reports run natively (under valgrind one takes a minute; cli_report.sh
# runs one there), without gnuplot (faster; "gnuplot is not installed" on
# stderr shows that the build ran), each cut at 120 s.
mkdir "$T/nobin"
TIMEOUT=$(command -v timeout)
# rep ARGS...: report of a small scenario; $rc, stdout $T/out, stderr $T/err
rep() {
    PATH="$T/nobin" "$TIMEOUT" 120 "$CP_NATIVE" report -m gpt3-xl -s cs2 -n 1 "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
# names DIR: the entries of DIR, hidden ones too, on one line
names() { ls -A "$1" | tr '\n' ' '; }
# state DIR: what DIR holds, recursively, with each file's checksum
state() { (cd "$1" && find . | LC_ALL=C sort | while IFS= read -r f; do
    if [ -f "$f" ]; then echo "$f $(cksum <"$f")"; else echo "$f"; fi
done); }
# refused WHAT MESSAGE: exit 2 with MESSAGE, before the build, nothing on stdout
refused() {
    if [ "$rc" -eq 2 ] && grep -qF -- "$2" "$T/err" && ! grep -q 'gnuplot' "$T/err" &&
        [ ! -s "$T/out" ]; then
        ok "$1"
    else
        nok "$1" "exit $rc; stderr: $(head -c 300 "$T/err")"
    fi
}

# ---- item 7: -o checked before any work ----
mkdir -p "$T/w/empty"
W=$T/w/empty
before=$(names "$T/w")
(cd "$W" && PATH="$T/nobin" "$TIMEOUT" 120 "$CP_NATIVE" report -n 1 -o . >"$T/out" 2>"$T/err")
rc=$?
refused "report -o . is refused before any work" "-o '.': ., .. and / cannot be replaced"
if [ -z "$(names "$W")" ] && [ "$(names "$T/w")" = "$before" ]; then ok "... nothing created"; else nok "... nothing created" "$(names "$W") / $(names "$T/w")"; fi
(cd "$W" && PATH="$T/nobin" "$TIMEOUT" 120 "$CP_NATIVE" report -n 1 -o .. --force >"$T/out" 2>"$T/err")
rc=$?
refused "report -o .. --force is refused before any work" "-o '..': ., .. and / cannot be replaced"
if [ -z "$(names "$W")" ] && [ "$(names "$T/w")" = "$before" ]; then ok "... nothing created"; else nok "... nothing created" "$(names "$W") / $(names "$T/w")"; fi
rep -o "$W/"
if [ "$rc" -eq 0 ] && [ -s "$W/index.md" ] && [ "$(names "$T/w")" = "$before" ]; then
    ok "report -o DIR/ (an empty folder, trailing slash) is written"
else
    nok "report -o DIR/ (an empty folder, trailing slash) is written" "exit $rc; $(head -c 300 "$T/err")"
fi
R=$W # a report, from here on
R0=$(state "$R")

ln -s "$T/nosuch" "$T/w/dangling"
rep -o "$T/w/dangling" --force
refused "a link to nothing is refused before any work" "a symbolic link to nothing"
if [ -L "$T/w/dangling" ] && [ ! -e "$T/nosuch" ] && [ "$(names "$T/w")" = "$(echo "$before" | sed 's/^/dangling /')" ]; then
    ok "... the link is as it was, nothing created"
else
    nok "... the link is as it was, nothing created" "$(names "$T/w"); $(names "$T")"
fi
rm "$T/w/dangling"

# A folder that is not a report: the user's files, a link to it, a folder
# that has a report's files and one more, an index.md of the user's.
mkdir -p "$T/u/mine"
echo keep >"$T/u/mine/notes.txt"
echo 'a,b' >"$T/u/mine/estimate.csv"
U0=$(state "$T/u")
rep -o "$T/u/mine" --force
refused "--force on a folder of the user's is refused before any work" "is not a report folder (it holds notes.txt"
check "... the folder is as it was, nothing beside it" [ "$(state "$T/u")" = "$U0" ]
ln -s mine "$T/u/link"
U0=$(state "$T/u")
rep -o "$T/u/link" --force
refused "--force on a link to the user's folder is refused" "is not a report folder"
check "... the link and the folder are as they were" [ "$(state "$T/u")" = "$U0" ]
mkdir "$T/u/notes"
printf '# my notes\n\nnot a report\n' >"$T/u/notes/index.md"
U0=$(state "$T/u")
rep -o "$T/u/notes" --force
refused "--force on a folder with an index.md not written by cerebras-plan is refused" \
    "(no index.md written by cerebras-plan)"
check "... the folder is as it was" [ "$(state "$T/u")" = "$U0" ]
cp -R "$R" "$T/u/plus"
echo keep >"$T/u/plus/my-analysis.csv"
U0=$(state "$T/u")
rep -o "$T/u/plus" --force
refused "--force on a report with a file of the user's in it is refused, naming the file" \
    "(it holds my-analysis.csv, which a report does not write)"
check "... the folder is as it was" [ "$(state "$T/u")" = "$U0" ]
rm -f "$T/u/plus/my-analysis.csv"
mkdir -p "$T/u/plus/hw/more"
rep -o "$T/u/plus" --force
refused "--force on a report with a folder of the user's in hw/ is refused" "(it holds hw/more"
rmdir "$T/u/plus/hw/more" 2>/dev/null
ln -s "$T/u/mine" "$T/u/plus/mine"
rep -o "$T/u/plus" --force
refused "--force on a report with a symbolic link in it is refused" "(it holds mine, which"
rm -f "$T/u/plus/mine"
check "the report written before is still as it was" [ "$(state "$R")" = "$R0" ]

# A report replaced with --force, through a link too.
rep -o "$R" --force --memoryx-servers 12
if [ "$rc" -eq 0 ] && [ "$(state "$R")" != "$R0" ] && grep -q -- '--memoryx-servers 12' "$R/index.md" &&
    [ "$(names "$T/w")" = "$before" ]; then
    ok "--force replaces a report, nothing left beside it"
else
    nok "--force replaces a report, nothing left beside it" "exit $rc; $(names "$T/w"); $(head -c 300 "$T/err")"
fi
ln -s "$R" "$T/u/to-report"
rep -o "$T/u/to-report" --force --memoryx-servers 13
if [ "$rc" -eq 0 ] && [ -L "$T/u/to-report" ] && grep -q -- '--memoryx-servers 13' "$R/index.md" &&
    [ "$(names "$T/w")" = "$before" ] && [ "$(names "$T/u")" = "link mine notes plus to-report " ]; then
    ok "--force through a link to a report: the link stays, its target is replaced, nothing left beside"
else
    nok "--force through a link to a report: the link stays, its target is replaced, nothing left beside" \
        "exit $rc; $(names "$T/w"); $(names "$T/u"); $(head -c 300 "$T/err")"
fi

# The folder checked again before the rename: a gnuplot that puts a file of
# the user's into it while the report is built.
mkdir "$T/gp"
printf '#!/bin/sh\n[ -e "%s/late.txt" ] || echo late >"%s/late.txt"\n' "$R" "$R" >"$T/gp/gnuplot"
chmod +x "$T/gp/gnuplot"
PATH="$T/gp" "$TIMEOUT" 120 "$CP_NATIVE" report -m gpt3-xl -s cs2 -n 1 -o "$R" --force >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "(it holds late.txt" "$T/err" && [ "$(cat "$R/late.txt" 2>/dev/null)" = late ] &&
    [ "$(names "$T/w")" = "$before" ] && [ ! -s "$T/out" ]; then
    ok "a file put into the folder during the run is kept: exit 2, nothing replaced, nothing left beside"
else
    nok "a file put into the folder during the run is kept: exit 2, nothing replaced, nothing left beside" \
        "exit $rc; $(names "$T/w"); $(head -c 300 "$T/err")"
fi
rm -f "$R/late.txt"

# ---- item 12: a failed command replaces nothing ----
R0=$(state "$R")
PATH="$T/nobin" "$TIMEOUT" 120 "$CP_NATIVE" report -m gpt3-xl -s cs2 -n 1 -o "$R" --force >/dev/full 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "error writing the output: No space left on device" "$T/err" &&
    [ "$(state "$R")" = "$R0" ] && [ "$(names "$T/w")" = "$before" ]; then
    ok "report --force >/dev/full: exit 2, the old report as it was, nothing left beside"
else
    nok "report --force >/dev/full: exit 2, the old report as it was, nothing left beside" \
        "exit $rc; $(names "$T/w"); $(head -c 300 "$T/err")"
fi
PATH="$T/nobin" "$TIMEOUT" 120 "$CP_NATIVE" report -m gpt3-xl -s cs2 -n 1 -o "$T/w/new" >/dev/full 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(names "$T/w")" = "$before" ]; then
    ok "report -o NEW >/dev/full: exit 2, no folder, nothing beside"
else
    nok "report -o NEW >/dev/full: exit 2, no folder, nothing beside" "exit $rc; $(names "$T/w")"
fi

mkdir "$T/f"
echo old >"$T/f/trace.csv"
echo old >"$T/f/ov.ini"
F0=$(state "$T/f")
SIM="simulate -m gpt3-xl -s cs2 -n 1 --trace $T/f/trace.csv"
CAL="calibrate tests/bad-input/calib/ok.csv --fit system.utilization -o $T/f/ov.ini"
for args in "$SIM" "$SIM --csv" "$CAL" "$CAL --csv"; do
    # shellcheck disable=SC2086
    timeout 60 "$CP" $args >/dev/full 2>"$T/err"
    rc=$?
    what="$(echo "$args" | sed "s#$T/f/##; s#tests/bad-input/calib/##") >/dev/full: exit 2, the file as it was, no temporary file"
    if [ "$rc" -eq 2 ] && grep -q "error writing the output" "$T/err" && [ "$(state "$T/f")" = "$F0" ]; then
        ok "$what"
    else
        nok "$what" "exit $rc; $(names "$T/f"); $(head -c 300 "$T/err")"
    fi
done
# the same with an output that can be written: both files replaced
# shellcheck disable=SC2086
timeout 60 "$CP" $SIM >"$T/out" 2>"$T/err"
rc=$?
# shellcheck disable=SC2086
timeout 60 "$CP" $CAL >"$T/out" 2>>"$T/err"
rc2=$?
if [ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ] && head -n 1 "$T/f/trace.csv" | grep -q '^start_s,' &&
    grep -q '^\[system\]' "$T/f/ov.ini" && [ "$(names "$T/f")" = "ov.ini trace.csv " ]; then
    ok "... and with the output written, the trace and the overlay are replaced"
else
    nok "... and with the output written, the trace and the overlay are replaced" \
        "exit $rc, $rc2; $(names "$T/f"); $(head -c 300 "$T/err")"
fi

# ---- issue 30, item 15: what a run killed outright leaves beside -o ----
# A report killed with SIGKILL (here while gnuplot runs) leaves its
# temporary folder D.tmp-PID-XXXXXX; the next report to D removes it (its
# process is gone, the folder is this user's) and says so; a folder of the
# older form D.tmp-XXXXXX, whose process cannot be told, is named and kept.
mkdir "$T/k" "$T/slow"
printf '#!/bin/sh\necho $$ >"%s/gp.pid"\nexec %s 30\n' "$T/k" "$(command -v sleep)" >"$T/slow/gnuplot"
chmod +x "$T/slow/gnuplot"
PATH="$T/slow" "$CP_NATIVE" report -m gpt3-xl -s cs2 -n 1 -o "$T/k/D" >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -s "$T/k/gp.pid" ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -s "$T/k/gp.pid" ] && kill "$(cat "$T/k/gp.pid")" 2>/dev/null
rm -f "$T/k/gp.pid"
left=$(cd "$T/k" && ls -d D.tmp-"$pid"-* 2>/dev/null)
check "report killed with SIGKILL: its temporary folder D.tmp-$pid-XXXXXX is left" [ -n "$left" ]
mkdir "$T/k/D.tmp-Ab12Cd"
rep -o "$T/k/D"
if [ "$rc" -eq 0 ] && [ ! -e "$T/k/$left" ] && [ -s "$T/k/D/index.md" ] &&
    grep -qF "report: removed $T/k/$left, the temporary folder of a run (process $pid)" "$T/err"; then
    ok "... the next report to D removes it, saying so"
else
    nok "... the next report to D removes it, saying so" "exit $rc; $(names "$T/k"); $(head -c 300 "$T/err")"
fi
if [ -d "$T/k/D.tmp-Ab12Cd" ] && grep -qF "report: $T/k/D.tmp-Ab12Cd is a temporary folder beside $T/k/D of an earlier version" "$T/err" &&
    [ "$(names "$T/k")" = "D D.tmp-Ab12Cd " ]; then
    ok "... one whose process cannot be told is named and kept, nothing else beside"
else
    nok "... one whose process cannot be told is named and kept, nothing else beside" "$(names "$T/k"); $(head -c 400 "$T/err")"
fi

# ---- issue 30, item 8: no formula reaches a spreadsheet ----
# Text cells starting with =, +, -, @, tab or CR get a leading single quote
# (OWASP, CSV injection), in the CSV sink and in sweep's own writer (its
# fast path for short cells and its slow one for quoted cells); numbers,
# negative ones too, and the placeholder "-" stay as they are.
mkdir "$T/inj"
cp hw/cs2.ini "$T/inj/@SUM(1).ini"
sed 's/^name = .*/name = =cmd|'"'"' \/C calc'"'"'!A0/' hw/cs2.ini >"$T/inj/-x.ini"
cp hw/cs2.ini "$T/inj/+a\"b.ini"
cp hw/cs2.ini "$T/inj/-more-than-sixteen-bytes.ini"
# csv_cell CMD... : the cells of the CSV the command writes, one a line
csv_cells() { "$CP" "$@" --csv 2>/dev/null | tr -d '\r' | tr ',' '\n'; }
for c in "estimate -m gpt3-xl -n 1 -s $T/inj/@SUM(1).ini|'@SUM(1)" \
    "sweep -m gpt3-xl --systems 1,2 -s $T/inj/@SUM(1).ini|'@SUM(1)" \
    "sweep -m gpt3-xl --systems 1 -s $T/inj/+a\"b.ini|\"'+a\"\"b\"" \
    "sweep -m gpt3-xl --systems 1 -s $T/inj/-more-than-sixteen-bytes.ini|'-more-than-sixteen-bytes" \
    "show $T/inj/-x.ini|'=cmd|' /C calc'!A0"; do
    args=${c%%|*} want=${c#*|}
    # shellcheck disable=SC2086
    if csv_cells $args | grep -qxF -- "$want" && ! csv_cells $args | grep -q '^[-=+@][^0-9.]'; then
        ok "${args%% *} --csv: a text cell that starts like a formula is written as $want"
    else
        nok "${args%% *} --csv: a text cell that starts like a formula is written as $want" \
            "$(csv_cells $args | grep -- "^[\"']*[-=+@]" | head -n 3)"
    fi
done
printf 'id,model,system,systems,batch,software,quantity,value,unit,source,notes\n"=HYPERLINK(""x"")",gptj-6b,cs2,2,120,R2.0.3,samples_per_s,43.67,samples/s,src,n\n@SUM(1),llama-7b,cs2,1,99,R2.1.1,samples_per_s,20.45,samples/s,src,n\n' >"$T/inj/m.csv"
"$CP" validate "$T/inj/m.csv" --csv >"$T/out" 2>/dev/null
if grep -q "^weight-streaming,\"'=HYPERLINK(\"\"x\"\")\",cs2," "$T/out" &&
    grep -q "^weight-streaming,'@SUM(1),cs2," "$T/out"; then
    ok "validate --csv: ids that start like a formula get a leading quote"
else
    nok "validate --csv: ids that start like a formula get a leading quote" "$(head -c 400 "$T/out")"
fi
csv_cells sensitivity -m gpt3-xl -s cs2 -n 1 >"$T/out"
check "sensitivity --csv: negative numbers stay numbers" \
    grep -qx -- '-0\.[0-9]*' "$T/out"
check "... and no cell has a quote" [ -z "$(grep "'" "$T/out")" ]

echo "# cli_outputs done"
