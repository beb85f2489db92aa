#!/bin/sh
# The published clusters as a validation corpus (issue 32): for each row of
# hw/clusters.csv, `estimate --csv` sizes the job the cluster ran on its
# published system count, and the activation servers (all systems'),
# MemoryX servers and SwarmX nodes the model gives must equal the published
# counts, and their sum stay within a published total of the cluster's
# servers; the job must be feasible there (it ran).  Empty cells are not
# published and not checked.  The expected counts are the published ones,
# never numbers the tool printed.  Prints "ok N - what" or "not ok N -
# what" per check and "# cli_clusters done".
. "$(dirname "$0")/lib.sh"

corpus=hw/clusters.csv
# the rows: the ten data columns (the source, last, may hold commas and is
# not read), one line each, fields separated by |
grep -v '^#' "$corpus" | tr -d '\r' | awk -F, 'NR > 1 && NF >= 11 {
    printf "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' >"$T/rows"
[ "$(wc -l <"$T/rows")" -ge 4 ] && ok "$corpus has the published clusters (4 rows at least)" ||
    nok "$corpus has the published clusters" "$(cat "$T/rows")"
grep -q '^alcf-cs3-large|cs3|4|' "$T/rows" && ok "$corpus has ALCF's CS-3 cluster, 4 systems" ||
    nok "$corpus has ALCF's CS-3 cluster, 4 systems"

# same WHAT GOT WANT: ok when a published count (WANT) is empty or equals GOT
same() {
    if [ -z "$3" ]; then
        return 0
    fi
    if [ "$2" = "$3" ]; then ok "$1: $2"; else nok "$1: published $3" "model $2"; fi
}

while IFS='|' read -r id sys ns model batch set act mx sx most; do
    set -- -m "$model" -s "$sys" -n "$ns"
    [ -n "$batch" ] && set -- "$@" --batch "$batch"
    [ -n "$set" ] && set -- "$@" --set "$set"
    est_csv c "$@"
    f=$T/c.csv
    if [ "$rc" -eq 0 ] && [ "$(csv_col "$f" feasible)" = 1 ]; then
        ok "$id: $model on $ns $sys is feasible (it ran)"
    else
        nok "$id: $model on $ns $sys is feasible" "rc $rc: $(csv_col "$f" warnings)"
        continue
    fi
    per=$(csv_col "$f" act_servers)
    A=$(awk -v a="$per" -v n="$ns" 'BEGIN { printf "%.17g", a * n }')
    S=$(csv_col "$f" memoryx_servers)
    X=$(csv_col "$f" swarmx_nodes)
    same "$id: activation servers on $ns $sys" "$A" "$act"
    same "$id: MemoryX servers for $model" "$S" "$mx"
    same "$id: SwarmX nodes for $ns $sys" "$X" "$sx"
    if [ -n "$most" ]; then
        sum=$((A + S + X))
        [ "$sum" -le "$most" ] && ok "$id: $S MemoryX + $A activation + $X SwarmX servers within the published $most" ||
            nok "$id: MemoryX, activation and SwarmX servers within the published $most" "$sum"
    fi
done <"$T/rows"

# the check can fail: one SwarmX lane, or servers sized to the batch, do
# not give ALCF's counts
est_csv c -m gpt3-175b -s cs3 -n 4 --set swarmx.lanes=1
[ "$(csv_col "$T/c.csv" swarmx_nodes)" != 8 ] && ok "one SwarmX lane does not give ALCF's 8 nodes" ||
    nok "one SwarmX lane does not give ALCF's 8 nodes" "$(csv_col "$T/c.csv" swarmx_nodes)"
est_csv c -m gpt3-175b -s cs3 -n 4 --act-servers 12
[ "$(csv_col "$T/c.csv" act_servers)" = 12 ] && ok "--act-servers 12 (the old sizing) is not ALCF's one a system" ||
    nok "--act-servers 12 is taken" "$(csv_col "$T/c.csv" act_servers)"

echo "# cli_clusters done"
