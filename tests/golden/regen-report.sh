#!/bin/sh
# Regenerate the golden CSV files of `report` (tests/golden/report/) from the
# current build: the report of gpt3-175b on 16 CS-2 that tests/cli_report.sh
# compares.  Run only after a deliberate change to the model, the data or
# the output, and review the diff.  Usage: B=build sh tests/golden/regen-report.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${B:-build}
case "$B" in /*) CP="$B/cerebras-plan" ;; *) CP="$PWD/$B/cerebras-plan" ;; esac
export CEREBRAS_PLAN_DATADIR=
unset CEREBRAS_PLAN_PATH
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# The figures are not needed here: an empty PATH leaves gnuplot out.
if ! PATH=/nonexistent "$CP" report -m gpt3-175b -s cs2 -n 16 -o "$tmp/r" >/dev/null 2>"$tmp/err"; then
    cat "$tmp/err" >&2
    exit 1
fi
mkdir -p tests/golden/report || exit 2
for f in scaling-weak.csv breakdown.csv sparsity.csv compare.csv; do
    cp "$tmp/r/$f" "tests/golden/report/$f" || exit 2
done
echo "tests/golden/report/: scaling-weak.csv breakdown.csv sparsity.csv compare.csv"
