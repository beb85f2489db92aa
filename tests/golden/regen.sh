#!/bin/sh
# Regenerate the golden CSV files from the current build.  Run only after a
# deliberate change to the model, the data or the output, and review the diff.
set -u
cd "$(dirname "$0")/../.." || exit 2
CP=${B:-build}/cerebras-plan
export CEREBRAS_PLAN_DATADIR=
unset CEREBRAS_PLAN_PATH
for f in tests/golden/show-*.csv; do
    n=$(basename "$f" .csv)
    "$CP" show "${n#show-}" --csv >"$f"
done
while IFS='|' read -r gname gargs; do
    [ -n "$gname" ] || continue
    # shellcheck disable=SC2086
    "$CP" $gargs --csv >"tests/golden/$gname.csv"
done <tests/golden/model.list
