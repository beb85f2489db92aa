#!/bin/sh
# Command-line tests of the full cost (issue 32, item 4; cerebras-plan(1),
# Cost): every line of the bill of materials at its capital price spread
# over cost.years for the wall time, or the --price rental in its place,
# plus energy x PUE x the price of a kWh; the currency printed; --budget
# with a currency.  The expected figures are worked out here from the keys
# `show` reads back and the figures the estimate prints, never taken from
# the tool's own cost.
# Prints "ok N - what" or "not ok N - what" per check and "# cli_cost done".
. "$(dirname "$0")/lib.sh"

near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= r * m) }'; }
# money "$1.375M" | "$619.3k": the amount in units of the currency
money() { echo "$1" | sed 's/^\$//' | awk '{ v = $0 + 0; s = substr($0, length($0)); f = s == "k" ? 1e3 : s == "M" ? 1e6 : s == "B" ? 1e9 : 1; printf "%.17g", v * f }'; }

# ---- weight streaming: every line costed, in USD ----
est_csv ws -m gpt3-175b -s cs3 -n 16
t=$(csv_col "$T/ws.csv" time_to_train_s)
e=$(csv_col "$T/ws.csv" energy_J)
c=$(csv_col "$T/ws.csv" cost)
run estimate -m gpt3-175b -s cs3 -n 16
mx=$(sed -n 's/^servers *\([0-9]*\) MemoryX, \([0-9]*\) activation.*, \([0-9]*\) SwarmX.*/\1 \2 \3/p' "$T/out")
set -- $mx
want=$(awk -v t="$t" -v e="$e" -v m="$1" -v a="$2" -v s="$3" \
    -v ps="$(show_val cs3 cost.system_price)" -v pm="$(show_val cs3 cost.memoryx_price)" \
    -v pa="$(show_val cs3 cost.activation_price)" -v pw="$(show_val cs3 cost.swarmx_price)" \
    -v y="$(show_val cs3 cost.years)" -v pue="$(show_val cs3 cost.pue)" -v k="$(show_val cs3 cost.energy_price)" \
    'BEGIN { printf "%.17g", (16 * ps + m * pm + a * pa + s * pw) * t / y + e / 3.6e6 * pue * k }')
check "cs3 16: cost ($c) = systems, MemoryX, activation and SwarmX at their prices over the years + energy x PUE x price ($want)" near "$c" "$want" 1e-9
check "cs3 16: the cost line names the currency and every line" \
    grep -Eq '^cost +\$[0-9.]+[kMB]?: capital \$.* \(systems \$.*, memoryx \$.*, activation \$.*, swarmx \$.*\), energy \$.* x PUE 1.58 at 0.08 USD/kWh' "$T/out"
check "cs3 16: the printed total is the CSV's to 4 digits" near "$(money "$(sed -n 's/^cost *\([^:]*\):.*/\1/p' "$T/out")")" "$c" 1e-3
# --price: a rental in place of the capital
est_csv wr -m gpt3-175b -s cs3 -n 16 --price 2000
cr=$(csv_col "$T/wr.csv" cost)
want=$(awk -v t="$t" -v e="$e" -v pue="$(show_val cs3 cost.pue)" -v k="$(show_val cs3 cost.energy_price)" 'BEGIN { printf "%.17g", 16 * t / 3600 * 2000 + e / 3.6e6 * pue * k }')
check "--price 2000: 16 x hours x 2000 + energy ($cr vs $want)" near "$cr" "$want" 1e-9
# nothing priced: no cost
run estimate -m gpt3-175b -s cs3 -n 16 --set cost.system_price=0 --set cost.memoryx_price=0 --set cost.activation_price=0 --set cost.swarmx_price=0 --set cost.energy_price=0
check "nothing priced: not costed" grep -q '^cost *not costed' "$T/out"

# ---- GPUs: nodes and fat-tree switches ----
est_csv g -m gpt3-175b -s h100 -n 1024
t=$(csv_col "$T/g.csv" time_to_train_s)
e=$(csv_col "$T/g.csv" energy_J)
c=$(csv_col "$T/g.csv" cost)
k=$(show_val h100 cost.switch_ports)
# 1024 GPUs, k = 64 ports: 2 levels (2 x 32^2 = 2048 >= 1024), 3 x 1024 / 64 = 48 switches
want=$(awk -v t="$t" -v e="$e" -v pn="$(show_val h100 cost.node_price)" -v ps="$(show_val h100 cost.switch_price)" \
    -v y="$(show_val h100 cost.years)" -v pue="$(show_val h100 cost.pue)" -v kw="$(show_val h100 cost.energy_price)" -v k="$k" \
    'BEGIN { sw = 3 * 1024 / k; printf "%.17g", (128 * pn + sw * ps) * t / y + e / 3.6e6 * pue * kw }')
check "h100 1024: 128 nodes and 48 switches of $k ports over the years + energy ($c vs $want)" near "$c" "$want" 1e-9

# ---- --budget with a currency ----
run plan -m gpt3-175b -s cs3 --budget '$10M'
check "plan --budget '\$10M' is accepted (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
run plan -m gpt3-175b -s cs3 --budget '10M USD'
check "plan --budget '10M USD' is accepted (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
expect_err "the amount is in EUR, but CS-3 (WSE-3) prices in USD" "a budget in another currency is refused, naming both" plan -m gpt3-175b -s cs3 --budget 'EUR 10M'
expect_err "the amount is in EUR, but H100" "... on a GPU system too" plan -s h100 --budget '10M EUR'
expect_err "is not an amount of money" "a budget that is no amount is refused" plan -s cs3 --budget '10 apples'

echo "# cli_cost done"
