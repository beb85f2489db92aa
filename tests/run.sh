#!/bin/sh
# Run every test: the cmocka programs in build/tests/ and the command-line
# tests in tests/cli*.sh; print each failure and end with "N passed, N failed".
# Exit status 0 only if nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
pass=0
fail=0
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT INT TERM

for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.d) continue ;; esac
    "$t" >"$log" 2>&1
    rc=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1 # crashed or failed outside a test
    fi
    if [ $((p + f)) -eq 0 ]; then
        f=1 # no summary: the output format changed or nothing ran
    fi
    if [ "$f" -ne 0 ]; then
        echo "FAIL: $t"
        grep -E '^\[  (FAILED|ERROR)|Failure|error' "$log" | head -n 20
    fi
    echo "$t: $p passed, $f failed"
    pass=$((pass + p))
    fail=$((fail + f))
done

# Command-line test scripts: TAP lines, ending with "# NAME done".
for script in tests/cli*.sh; do
    B="$B" sh "$script" >"$log" 2>&1
    grep -E '^not ok' "$log"
    p=$(grep -c '^ok ' "$log")
    f=$(grep -c '^not ok' "$log")
    if ! grep -q '^# .* done$' "$log"; then
        echo "FAIL: $script stopped early:"
        tail -n 5 "$log"
        f=$((f + 1))
    fi
    echo "$script: $p passed, $f failed"
    pass=$((pass + p))
    fail=$((fail + f))
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
