#!/bin/sh
# cli_sweep.sh - `sweep`: the grid's size, rows equal to estimate --csv,
# -j and --shard that do not change the output, --where/--best/--group-by,
# bad axes, the issue's "done means" sweep, and sweeps over GPU systems.
. "$(dirname "$0")/lib.sh"

# body FILE: the rows without the header
body() { tail -n +2 "$1"; }
# col NAME FILE: 1-based index of column NAME in FILE's header
col() { head -n 1 "$2" | tr -d '\r' | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }

# ---- the grid's size is the product of the axes ----
run sweep -m gpt3-175b,megatron-1t -s cs2 --systems 1..64x2 --sparsity 0,0.5,0.75 \
    --memoryx 12TB,4TB
rows=$(body "$T/out" | wc -l)
[ "$rc" -eq 0 ] && [ "$rows" -eq $((2 * 1 * 2 * 3 * 7)) ] && ok "row count is the product of the axes" ||
    nok "row count is the product of the axes" "rc $rc rows $rows: $(head -c 300 "$T/err")"
cp "$T/out" "$T/grid"
run sweep -m gpt3-175b -s cs2,cs3 --memoryx all --systems 1,2
tiers=$("$CP" show cs2 | grep -c '^tiers\.')
tiers3=$("$CP" show cs3 | grep -c '^tiers\.')
rows=$(body "$T/out" | wc -l)
[ "$rows" -eq $(((tiers + tiers3) * 2)) ] && [ "$tiers" -gt 1 ] && ok "--memoryx all: every tier of each system" ||
    nok "--memoryx all: every tier of each system" "rows $rows tiers $tiers + $tiers3"

# ---- a point's row is estimate --csv's, byte for byte ----
grep '^megatron-1t,cs2,16,4TB,[^,]*,0.75,' "$T/grid" >"$T/row"
"$CP" estimate -m megatron-1t -s cs2 -n 16 --sparsity 0.75 --memoryx 4TB --csv >"$T/est"
if [ "$(wc -l <"$T/row")" -eq 1 ] && [ "$(body "$T/est")" = "$(cat "$T/row")" ] &&
    [ "$(head -n 1 "$T/est")" = "$(head -n 1 "$T/grid")" ]; then
    ok "a sweep row equals estimate --csv for the same configuration"
else
    nok "a sweep row equals estimate --csv for the same configuration" "$(cat "$T/row")"
fi
run sweep -m gpt3-175b -n 64 --set 'system.io_bandwidth=1.2 Tb/s,2.4 Tb/s' --set swarmx.fanout=4
"$CP" estimate -m gpt3-175b -n 64 --set 'system.io_bandwidth=2.4 Tb/s' --set swarmx.fanout=4 --csv >"$T/est"
last=$(tail -n 1 "$T/out")
ncol=$(head -n 1 "$T/est" | tr ',' '\n' | wc -l)
if [ "$(body "$T/out" | wc -l)" -eq 2 ] && [ "$(head -n 1 "$T/out" | tr -d '\r' | awk -F, '{print $NF}')" = system.io_bandwidth ] &&
    [ "$(printf '%s\n' "$last" | cut -d, -f1-"$ncol")" = "$(body "$T/est" | tr -d '\r')" ] &&
    [ "$(printf '%s\n' "$last" | tr -d '\r' | awk -F, '{print $NF}')" = "2.4 Tb/s" ]; then
    ok "--set with a list is an axis: a column, and the row of estimate --set"
else
    nok "--set with a list is an axis: a column, and the row of estimate --set" "$last"
fi

# ---- -j and --shard do not change the output ----
big="-m gpt3-175b,120t -s cs3 --systems 1..3000 --sparsity 0,0.9"
"$CP" sweep $big -j 1 >"$T/j1"
"$CP" sweep $big -j 2 >"$T/j2"
"$CP" sweep $big -j 3 >"$T/j3"
[ "$(body "$T/j1" | wc -l)" -eq 12000 ] && cmp -s "$T/j1" "$T/j2" && cmp -s "$T/j1" "$T/j3" &&
    ok "-j 2 and -j 3 write exactly what -j 1 writes" || nok "-j 2 and -j 3 write exactly what -j 1 writes"
for k in 1 2 3 4; do "$CP" sweep $big --shard $k/4 -j 2 >"$T/s$k"; done
{ head -n 1 "$T/s1"; for k in 1 2 3 4; do body "$T/s$k"; done; } >"$T/cat"
if [ "$(head -n 1 "$T/cat")" = "$(head -n 1 "$T/j1")" ] &&
    [ "$(body "$T/cat" | sort | md5sum)" = "$(body "$T/j1" | sort | md5sum)" ] &&
    [ "$(body "$T/cat" | wc -l)" -eq 12000 ]; then
    ok "4 shards concatenated (header once) hold every row of the whole"
else
    nok "4 shards concatenated (header once) hold every row of the whole"
fi
for k in 1 2 3 4; do body "$T/s$k" >"$T/b$k"; done
{ head -n 1 "$T/s1"; paste -d '\n' "$T/b1" "$T/b2" "$T/b3" "$T/b4" | grep -v '^$'; } >"$T/order"
cmp -s "$T/order" "$T/j1" && ok "the shards interleaved with paste are the whole, in order" ||
    nok "the shards interleaved with paste are the whole, in order"

# ---- --best with --group-by ----
"$CP" sweep -m all --systems 1..2048x2 --sparsity 0,0.5 >"$T/all"
run sweep -m all --systems 1..2048x2 --sparsity 0,0.5 --best time_to_train_s --group-by model -j 2
c=$(col time_to_train_s "$T/all")
nmodels=$("$CP" list models --csv | body /dev/stdin | wc -l)
awk -F, -v c="$c" 'NR > 1 { if (!($1 in m) || $c + 0 < m[$1]) m[$1] = $c + 0 } END { for (k in m) printf "%s %.17g\n", k, m[k] }' "$T/all" | sort >"$T/want"
awk -F, -v c="$c" 'NR > 1 { printf "%s %.17g\n", $1, $c + 0 }' "$T/out" | sort >"$T/got"
if [ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -eq "$nmodels" ] && cmp -s "$T/want" "$T/got"; then
    ok "--best time_to_train_s --group-by model: one row per model, its minimum"
else
    nok "--best time_to_train_s --group-by model: one row per model, its minimum" "$(diff "$T/want" "$T/got" | head -5)"
fi
run sweep -m all --systems 1..2048x2 --where 'time_to_train_s<=2592000' --where feasible=1
bad=$(awk -F, -v c="$c" -v f="$(col feasible "$T/all")" 'NR > 1 && ($c + 0 > 2592000 || $f != 1)' "$T/out" | wc -l)
[ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -gt 0 ] && ok "--where keeps only the rows that match" ||
    nok "--where keeps only the rows that match" "rc $rc bad $bad"

# ---- bad axes: exit 2, a message naming the flag, nothing on stdout ----
expect_err "--systems" "--systems 0 is refused" sweep --systems 0
expect_err "--sparsity" "--sparsity 2 is refused" sweep --sparsity 0,2
expect_err "-m 'nosuch'" "an unknown model is refused" sweep -m gpt3-175b,nosuch
expect_err "--shard" "--shard 5/4 is refused" sweep --shard 5/4
expect_err "--shard" "--shard 0/4 is refused" sweep --shard 0/4
expect_err "-j" "-j 0 is refused" sweep -j 0
expect_err "--memoryx" "an unknown tier is refused" sweep --memoryx 12TB,nosuch
expect_err "--where" "--where on an unknown column is refused" sweep --where 'nosuch<=1'
expect_err "--best" "--best on a text column is refused" sweep --best model
expect_err "--group-by needs --best" "--group-by without --best is refused" sweep --group-by model
expect_err "--set" "a bad --set axis value is refused before any output" sweep --set swarmx.fanout=4,abc

# ---- sweep files: the same axes as keys of [sweep] ----
printf '%s\n' '; a sweep file' '[sweep]' 'model = gpt3-175b,megatron-1t' 'system = cs2' \
    'systems = 1..64x2' 'sparsity = 0,0.5' 'memoryx = 12TB,4TB' 'swarmx.fanout = 4,8' \
    'where = feasible=1; time_to_train_s<=1e9' >"$T/axes.ini"
"$CP" sweep -m gpt3-175b,megatron-1t -s cs2 --systems 1..64x2 --sparsity 0,0.5 --memoryx 12TB,4TB \
    --set swarmx.fanout=4,8 --where feasible=1 --where 'time_to_train_s<=1e9' >"$T/cli"
run sweep "$T/axes.ini"
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -gt 0 ] && cmp -s "$T/out" "$T/cli" &&
    ok "a sweep file writes exactly the CSV of the same axes as options" ||
    nok "a sweep file writes exactly the CSV of the same axes as options" "rc $rc: $(head -c 300 "$T/err")"
printf '%s\n' '[sweep]' 'model = all' 'systems = 1..2048x2' 'sparsity = 0,0.5' \
    'best = time_to_train_s' 'group_by = model' >"$T/best.ini"
"$CP" sweep -m all --systems 1..2048x2 --sparsity 0,0.5 --best time_to_train_s --group-by model >"$T/cli"
run sweep "$T/best.ini" -j 2
[ "$rc" -eq 0 ] && [ -s "$T/cli" ] && cmp -s "$T/out" "$T/cli" &&
    ok "a sweep file's best and group_by are --best and --group-by" ||
    nok "a sweep file's best and group_by are --best and --group-by" "rc $rc: $(head -c 300 "$T/err")"
"$CP" sweep -m megatron-1t -s cs2 --systems 1..64x2 --sparsity 0.9 --memoryx 12TB,4TB \
    --set swarmx.fanout=2 --where feasible=0 >"$T/cli"
run sweep "$T/axes.ini" -m megatron-1t --sparsity 0.9 --set swarmx.fanout=2 --where feasible=0
if [ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -gt 0 ] && cmp -s "$T/out" "$T/cli" &&
    ! grep -q '^gpt3-175b,' "$T/out"; then
    ok "options on the command line override the file's axes"
else
    nok "options on the command line override the file's axes" "rc $rc: $(head -c 300 "$T/err")"
fi
run sweep "$T/axes.ini" -n 8
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | cut -d, -f3 | sort -u)" = 8 ] &&
    ok "-n on the command line overrides the file's systems" ||
    nok "-n on the command line overrides the file's systems" "rc $rc: $(head -c 300 "$T/err")"
printf '[sweep]\nmodel = gpt3-175b\nnosuch = 1\n' >"$T/bad.ini"
expect_err "$T/bad.ini:3: nosuch: unknown key (the keys: model," \
    "a sweep file's unknown key is refused with FILE:LINE and the known keys" sweep "$T/bad.ini"
printf '[sweep]\nmodel = gpt3-175b\n\nsparsity = 0,2\n' >"$T/bad.ini"
expect_err "$T/bad.ini:4: sparsity '0,2': 2 is outside" \
    "a sweep file's bad value is refused with FILE:LINE" sweep "$T/bad.ini"
printf '[sweep]\nwhere = feasible=1; nosuch<=1\n' >"$T/bad.ini"
expect_err "$T/bad.ini:2: where 'nosuch<=1': no column" \
    "a sweep file's bad where is refused with FILE:LINE" sweep "$T/bad.ini"
printf '[sweep]\nsystems = 1,2\nsystems = 4\n' >"$T/bad.ini"
expect_err "$T/bad.ini:3: systems: given twice" "a key given twice in a sweep file is refused" \
    sweep "$T/bad.ini"
printf '[hw]\nmodel = gpt3-175b\n' >"$T/bad.ini"
expect_err "$T/bad.ini:2: model: in [hw]" "a key outside [sweep] is refused" sweep "$T/bad.ini"
expect_err "$T/nosuch.ini: cannot open the sweep file" "a missing sweep file is refused" \
    sweep "$T/nosuch.ini"

# ---- done means: every model x 1..2048x2 x 5 sparsities x every tier x both generations ----
dm="-m all -s cs2,cs3 --systems 1..2048x2 --sparsity 0,0.5,0.75,0.9,0.95 --memoryx all"
run sweep $dm -j 2
want=$((nmodels * (tiers + tiers3) * 5 * 12))
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -eq "$want" ] && ok "the done-means sweep: $want points" ||
    nok "the done-means sweep: $want points" "rc $rc rows $(body "$T/out" | wc -l)"
cp "$T/out" "$T/dm"
for k in 1 2 3 4; do "$CP" sweep $dm --shard $k/4 | tail -n +2 >"$T/b$k"; done
{ head -n 1 "$T/dm"; paste -d '\n' "$T/b1" "$T/b2" "$T/b3" "$T/b4" | grep -v '^$'; } >"$T/order"
cmp -s "$T/order" "$T/dm" && ok "the done-means sweep in 4 shards is the whole" || nok "the done-means sweep in 4 shards is the whole"
run sweep $dm --where 'time_to_train_s<=30d' --where feasible=1 --best systems --group-by model
s=$(col systems "$T/dm") f=$(col feasible "$T/dm")
awk -F, -v c="$c" -v s="$s" -v f="$f" 'NR > 1 && $c + 0 <= 2592000 && $f == 1 { if (!($1 in m) || $s + 0 < m[$1]) m[$1] = $s + 0 } END { for (k in m) print k, m[k] }' "$T/dm" | sort >"$T/want"
awk -F, -v s="$s" 'NR > 1 { print $1, $s + 0 }' "$T/out" | sort >"$T/got"
if [ "$rc" -eq 0 ] && [ -s "$T/got" ] && cmp -s "$T/want" "$T/got"; then
    ok "done means: the smallest cluster per model within 30 days ($(tr '\n' ';' <"$T/got"))"
else
    nok "done means: the smallest cluster per model within 30 days" "$(diff "$T/want" "$T/got" | head -5)"
fi
# ---- --columns: which columns, in the order given ----
g="-m gpt3-175b,llama2-70b -s cs2 --systems 1..256x4 --sparsity 0,0.9"
"$CP" sweep $g >"$T/full"
rows=$(body "$T/full" | wc -l)
run sweep $g --columns time_to_train_s,model,systems
cut_cols() { # cut_cols FILE NAME...: those columns of FILE, in that order
    f=$1
    shift
    idx=""
    for name in "$@"; do idx="$idx $(col "$name" "$f")"; done
    tr -d '\r' <"$f" | awk -F, -v idx="$idx" 'BEGIN { n = split(idx, k, " ") }
        { line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") $k[i]; print line }'
}
cut_cols "$T/full" time_to_train_s model systems >"$T/want"
if [ "$rc" -eq 0 ] && [ "$(head -n 1 "$T/out")" = "$(printf 'time_to_train_s,model,systems\r')" ] &&
    [ "$rows" -eq 20 ] && [ "$(tr -d '\r' <"$T/out")" = "$(cat "$T/want")" ] &&
    [ "$(grep -c "$(printf '\r')\$" "$T/out")" -eq 21 ]; then
    ok "--columns writes those columns in the order given, CRLF CSV"
else
    nok "--columns writes those columns in the order given, CRLF CSV" "rc $rc: $(head -n 3 "$T/out") $(head -c 300 "$T/err")"
fi
all=$(head -n 1 "$T/full" | tr -d '\r')
run sweep $g --columns "$all" -j 2
cmp -s "$T/out" "$T/full" && ok "--columns naming every column in order is the default CSV, byte for byte" ||
    nok "--columns naming every column in order is the default CSV, byte for byte" "$(cmp "$T/out" "$T/full")"
run sweep $g --columns 'model, systems' --set swarmx.fanout=4,8
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$T/out" | tr -d '\r')" = model,systems ] &&
    [ "$(body "$T/out" | wc -l)" -eq $((2 * rows)) ] && ok "--columns: blanks around a name; --set axes still multiply the rows" ||
    nok "--columns: blanks around a name; --set axes still multiply the rows" "rc $rc: $(head -c 300 "$T/err")"
run sweep $g --set swarmx.fanout=4,8 --columns swarmx.fanout,systems
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | cut -d, -f1 | sort -u | tr -d '\r' | tr '\n' ' ')" = "4 8 " ] &&
    ok "--columns selects a --set axis column by its section.key" ||
    nok "--columns selects a --set axis column by its section.key" "rc $rc: $(head -c 300 "$T/err")"
# --where, --best and --group-by see every column, whichever are written
# (120 d: Llama 2 70B's 2 T tokens cannot reach its dense loss at 0.9, so
# its row is dense)
w="--where feasible=1 --where time_to_train_s<=120d --best energy_J --group-by model"
"$CP" sweep $g $w >"$T/bestfull"
run sweep $g $w --columns systems,sparsity
if [ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -eq 2 ] &&
    [ "$(tr -d '\r' <"$T/out")" = "$(cut_cols "$T/bestfull" systems sparsity)" ]; then
    ok "--where, --best and --group-by work on columns --columns leaves out"
else
    nok "--where, --best and --group-by work on columns --columns leaves out" "rc $rc: $(cat "$T/out") $(head -c 300 "$T/err")"
fi
expect_err "--columns 'model,nosuch': no column 'nosuch'" "--columns: an unknown name is refused, naming it" \
    sweep --columns model,nosuch
expect_err "no column 'time_to_train' (did you mean time_to_train_s?)" \
    "--columns: an unknown name is refused with the nearest column" sweep --columns time_to_train,systems
expect_err "--columns 'step_tmie_s': no column 'step_tmie_s' (did you mean step_time_s?)" \
    "--columns: a misspelt name gets the column it misspells" sweep --columns step_tmie_s
expect_err "--where 'powr_W<=1': no column 'powr_W' (did you mean power_W?)" \
    "--where: an unknown column gets the nearest" sweep --where 'powr_W<=1'
expect_err "--group-by 'modle': no column 'modle' (did you mean model?)" \
    "--group-by: an unknown column gets the nearest" sweep --best systems --group-by modle
expect_rc 2 "--columns does not apply to estimate" estimate --columns model

# ---- GPU systems: models x GPU systems x GPU counts x precisions ----
# 11 GPUs divide nothing of either model (heads, layers or layers + 2,
# sequence, batch); 7 would make GPT-3's 98 = 7 x 14 pipeline
gpu="-m gpt3-175b,llama2-70b -s a100,h100 --systems 11,64,1024"
run sweep $gpu
cp "$T/out" "$T/gpu"
ghead=model,system,kind,gpus,nodes,precision,rank,tp,pp,vp,dp,cp,fsdp,micro_batch,recompute,recompute_layers,global_batch_seqs,micro_batches,step_time_s,tokens_per_s,time_to_train_s,mfu,bubble,bottleneck,mem_per_gpu_B,mem_usable_B,power_W,energy_J,cost,train_tokens,critical_batch_tokens,batch_ok,feasible,reason
if [ "$rc" -eq 0 ] && [ "$(head -n 1 "$T/gpu" | tr -d '\r')" = "$ghead" ] && [ "$(body "$T/gpu" | wc -l)" -eq 12 ] &&
    [ "$(body "$T/gpu" | cut -d, -f1-4 | tr '\n\r' ' ')" = "$(for m in gpt3-175b llama2-70b; do for s in a100 h100; do for c in 11 64 1024; do printf '%s,%s,gpu,%s ' $m $s $c; done; done; done)" ]; then
    ok "GPU sweep: 2 models x 2 GPUs x 3 counts, one row per point in order, the GPU header"
else
    nok "GPU sweep: 2 models x 2 GPUs x 3 counts, one row per point in order, the GPU header" "rc $rc: $(head -n 3 "$T/gpu") $(head -c 300 "$T/err")"
fi
run sweep $gpu --columns gpus,tp,pp,dp,cp,feasible,precision
bad=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $6 == 1 && ($2 * $3 * $4 * $5 != $1 || $7 != "bf16") { print }')
nfeas=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $6 == 1' | wc -l)
[ "$rc" -eq 0 ] && [ -z "$bad" ] && [ "$nfeas" -eq 8 ] && ok "GPU sweep: every feasible row's tp x pp x dp x cp is its GPUs (bf16 by default)" ||
    nok "GPU sweep: every feasible row's tp x pp x dp x cp is its GPUs (bf16 by default)" "rc $rc feasible $nfeas: $bad"
n7=$(grep -c '^[^,]*,[^,]*,gpu,11,.*,0,"no layout of 11 GPUs divides the job: tp a divisor of the' "$T/gpu")
nf0=$(body "$T/gpu" | grep -c ',0,"')
[ "$n7" -eq 4 ] && [ "$nf0" -eq 4 ] && ok "GPU sweep: a count no layout divides (11) is a row with feasible 0 and the reason" ||
    nok "GPU sweep: a count no layout divides (11) is a row with feasible 0 and the reason" "$n7 $nf0: $(grep ',11,' "$T/gpu" | head -n 1)"
# the row of a point is estimate --csv's first row, column by column
"$CP" estimate -m llama2-70b -s h100 -n 1024 --csv >"$T/gest"
grep '^llama2-70b,h100,gpu,1024,' "$T/gpu" >"$T/grow"
far=""
for name in $(head -n 1 "$T/gest" | tr -d '\r' | tr ',' ' '); do
    [ "$(csv_col "$T/gest" "$name")" = "$({ head -n 1 "$T/gpu"; cat "$T/grow"; } | csv_col /dev/stdin "$name")" ] || far="$far $name"
done
[ -z "$far" ] && [ "$(wc -l <"$T/grow")" -eq 1 ] && ok "a GPU sweep row holds estimate --csv's best layout, column by column" ||
    nok "a GPU sweep row holds estimate --csv's best layout, column by column" "differ:$far"
# --best over the GPU columns
run sweep $gpu --best time_to_train_s --group-by model --columns model,system,gpus,time_to_train_s
"$CP" sweep $gpu --columns model,time_to_train_s | tr -d '\r' |
    awk -F, 'NR > 1 && $2 != "" { if (!($1 in m) || $2 + 0 < m[$1]) m[$1] = $2 + 0 } END { for (k in m) printf "%s %.17g\n", k, m[k] }' | sort >"$T/want"
tr -d '\r' <"$T/out" | awk -F, 'NR > 1 { printf "%s %.17g\n", $1, $4 }' | sort >"$T/got"
if [ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -eq 2 ] && [ -s "$T/want" ] && cmp -s "$T/want" "$T/got"; then
    ok "GPU sweep --best time_to_train_s --group-by model: one row per model, its minimum"
else
    nok "GPU sweep --best time_to_train_s --group-by model: one row per model, its minimum" "$(cat "$T/out") $(cat "$T/want")"
fi
run sweep $gpu --where precision=bf16 --where 'mem_per_gpu_B<=80e9' --where recompute=none --columns recompute,mem_per_gpu_B
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -gt 0 ] &&
    [ -z "$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && ($1 != "none" || $2 > 80e9)')" ] &&
    ok "GPU sweep --where on text (precision, recompute) and memory columns" ||
    nok "GPU sweep --where on text (precision, recompute) and memory columns" "rc $rc: $(head -c 300 "$T/err")"
# -j and --shard
"$CP" sweep $gpu -j 3 >"$T/gj3"
for k in 1 2 3; do "$CP" sweep $gpu --shard $k/3 -j 2 | tail -n +2 >"$T/gb$k"; done
{ head -n 1 "$T/gpu"; paste -d '\n' "$T/gb1" "$T/gb2" "$T/gb3" | grep -v '^$'; } >"$T/gorder"
cmp -s "$T/gj3" "$T/gpu" && cmp -s "$T/gorder" "$T/gpu" && ok "GPU sweep: -j 3 and 3 shards interleaved write what -j 1 writes" ||
    nok "GPU sweep: -j 3 and 3 shards interleaved write what -j 1 writes"
# precisions: a GPU without one is flagged on its rows, refused when no system has it
run sweep -m gpt3-175b -s a100,h100 -n 64 --precision bf16,fp8 --columns system,precision,feasible,reason
if [ "$rc" -eq 0 ] && [ "$(tr -d '\r' <"$T/out" | tail -n +2 | tr '\n' ' ')" = "a100,bf16,1, a100,fp8,0,a100 has no fp8 tensor rate (gpu.peak_fp8 is 0) h100,bf16,1, h100,fp8,1, " ]; then
    ok "--precision bf16,fp8 on a100 and h100: an axis; a100's fp8 row is feasible 0 with the reason"
else
    nok "--precision bf16,fp8 on a100 and h100: an axis; a100's fp8 row is feasible 0 with the reason" "rc $rc: $(cat "$T/out")"
fi
expect_err "--precision fp8: a100 has no fp8 tensor rate (gpu.peak_fp8 is 0)" \
    "--precision fp8 on a100 alone is refused, naming the figure" sweep -s a100 --precision bf16,fp8
expect_err "--precision 'bf16,fp16': 'fp16' must be bf16, fp8 or fp4" "an unknown precision is refused" \
    sweep -s h100 --precision bf16,fp16
expect_err "-s: cs3 is a weight-streaming system and h100 a GPU system; one sweep runs on one kind" \
    "a sweep mixing weight-streaming and GPU systems is refused naming -s" sweep -s cs3,h100
expect_err "sweep: --memoryx applies to weight-streaming systems (MemoryX holds a weight-streaming cluster's weights; a GPU holds them in HBM); h100 is a GPU system" \
    "a weight-streaming option on a GPU sweep is refused by name" sweep -s h100 --memoryx 12TB
expect_err "--systems '8,2.5': 2.5 is not a whole number of GPUs" "a fraction of a GPU is refused" \
    sweep -s h100 --systems 8,2.5
expect_err "--layouts '17': must be a whole number from 1 to 16" "--layouts past 16 is refused" \
    sweep -s h100 --layouts 17
# --layouts K: the K fastest, ranked; the first is the default row
run sweep $gpu --layouts 3 --columns model,system,gpus,rank,step_time_s,feasible
bad=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $6 == 1 { k = $1 "," $2 "," $3; if (k == last) { if ($4 != r + 1 || $5 < t) print } else if ($4 != 1) print; last = k; r = $4; t = $5 }')
"$CP" sweep $gpu --columns model,system,gpus,rank,step_time_s,feasible >"$T/one"
if [ "$rc" -eq 0 ] && [ -z "$bad" ] && [ "$(body "$T/out" | wc -l)" -eq $((4 + 8 * 3)) ] &&
    [ "$(grep -v ',[23],' "$T/out")" = "$(cat "$T/one")" ]; then
    ok "--layouts 3: three layouts a point, ranked, slowest last; rank 1 is the default row"
else
    nok "--layouts 3: three layouts a point, ranked, slowest last; rank 1 is the default row" "rc $rc: $bad"
fi
run sweep $gpu --tp 4 --columns tp,feasible
[ "$rc" -eq 0 ] && [ "$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $2 == 1 { print $1 }' | sort -u)" = 4 ] &&
    ok "--tp 4 fixes tp at every GPU point" || nok "--tp 4 fixes tp at every GPU point" "$(head -c 300 "$T/err")"
run sweep $gpu --cp 2 --fsdp --columns gpus,tp,pp,dp,cp,fsdp,feasible
bad=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $7 == 1 && ($5 != 2 || $6 != 1 || $2 * $3 * $4 * $5 != $1) { print }')
nfeas=$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 && $7 == 1' | wc -l)
[ "$rc" -eq 0 ] && [ -z "$bad" ] && [ "$nfeas" -gt 0 ] &&
    ok "--cp 2 --fsdp fix cp 2 and FSDP at every GPU point" ||
    nok "--cp 2 --fsdp fix cp 2 and FSDP at every GPU point (the core's search must honour spec.cp and spec.fsdp)" "rc $rc feasible $nfeas: $bad $(head -c 300 "$T/err")"
run sweep -m gpt3-175b -s h100 --systems 1024 --tp 8 --pp 8 --vp 4 --columns vp,feasible
[ "$rc" -eq 0 ] && [ "$(tr -d '\r' <"$T/out" | tail -n +2)" = "4,1" ] &&
    ok "--vp 4 with --pp 8 fixes vp at the GPU point" ||
    nok "--vp 4 with --pp 8 fixes vp at the GPU point (the core's search must honour spec.vp)" "rc $rc: $(cat "$T/out") $(head -c 300 "$T/err")"
run sweep -m gpt3-175b -s h100 --systems 64 --set model.flash_attention=on,off --tp 8 --pp 8 --mbs 1 \
    --set model.recompute=none --columns model.flash_attention,mem_per_gpu_B,feasible
m_on=$(tr -d '\r' <"$T/out" | awk -F, '$1 == "on" { print $2 }')
m_off=$(tr -d '\r' <"$T/out" | awk -F, '$1 == "off" { print $2 }')
if [ "$rc" -eq 0 ] && [ -n "$m_on" ] && [ -n "$m_off" ] && awk -v a="$m_off" -v b="$m_on" 'BEGIN { exit !(a > b) }'; then
    ok "--set model.flash_attention=on,off is an axis; off needs more memory per GPU"
else
    nok "--set model.flash_attention=on,off is an axis; off needs more memory per GPU" "rc $rc: $(cat "$T/out") $(head -c 300 "$T/err")"
fi
# GPU options on a weight-streaming sweep: refused by name, as estimate,
# scale, plan and compare refuse them (issue 30 item 16: they were ignored
# with a warning)
for f in "--tp 8" "--cp 2" "--fsdp" "--precision fp8" "--layouts 2"; do
    # shellcheck disable=SC2086
    run sweep -s cs2 $f --columns systems
    if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] &&
        [ "$(cat "$T/err")" = "cerebras-plan: sweep: ${f%% *} applies to GPU systems; cs2 is a weight-streaming system" ]; then
        ok "sweep -s cs2 $f: refused (exit 2), naming the flag"
    else
        nok "sweep -s cs2 $f: refused (exit 2), naming the flag" "rc $rc: $(head -c 300 "$T/err")"
    fi
done
run sweep -m gpt3-xl -s h100,gb200 --columns system,gpus,nodes
[ "$rc" -eq 0 ] && [ "$(tr -d '\r' <"$T/out" | tail -n +2 | tr '\n' ' ')" = "h100,$(show_val h100 system.gpus_per_node),1 gb200,$(show_val gb200 system.gpus_per_node),1 " ] &&
    ok "a GPU sweep without --systems or -n: one node of each system" ||
    nok "a GPU sweep without --systems or -n: one node of each system" "$(cat "$T/out")"
# a GPU sweep file: precision, layouts and a GPU key axis
printf '%s\n' '[sweep]' 'model = gpt3-175b' 'system = h100,b200' 'systems = 64,128' 'precision = bf16,fp8' \
    'layouts = 2' 'gpu.hbm = 80GB,141GB' 'where = feasible=1' >"$T/gpu.ini"
"$CP" sweep -m gpt3-175b -s h100,b200 --systems 64,128 --precision bf16,fp8 --layouts 2 \
    --set gpu.hbm=80GB,141GB --where feasible=1 >"$T/cli"
run sweep "$T/gpu.ini"
[ "$rc" -eq 0 ] && [ "$(body "$T/out" | wc -l)" -eq 32 ] && cmp -s "$T/out" "$T/cli" &&
    [ "$(head -n 1 "$T/out" | tr -d '\r' | awk -F, '{ print $NF }')" = gpu.hbm ] &&
    ok "a GPU sweep file (precision, layouts, a gpu key axis) writes the CSV of the same options" ||
    nok "a GPU sweep file (precision, layouts, a gpu key axis) writes the CSV of the same options" "rc $rc: $(head -c 300 "$T/err")"
printf '[sweep]\nsystem = h100\ngpu.hbm = 80GB,abc\n' >"$T/bad.ini"
expect_err "$T/bad.ini:3: gpu.hbm: 'abc' is not a number" "a sweep file's bad GPU key value is refused with FILE:LINE" \
    sweep "$T/bad.ini"
# GPU options on weight-streaming systems, in a grid too: refused
# shellcheck disable=SC2086
expect_err "sweep: --precision applies to GPU systems; " "--precision on weight-streaming systems: refused" \
    sweep $g --precision fp8 --layouts 2

# ---- to a terminal: a table for people; --csv or a pipe: the CSV ----
# tty ARGS...: the binary on a pseudo-terminal (script from util-linux),
# its output in $T/tty without the terminal's carriage returns
tty_run() {
    script -qec "$(printf '%s ' "$CP" "$@")" /dev/null </dev/null >"$T/tty.raw" 2>&1
    rc=$?
    # a run slower than a second (under valgrind) shows its progress on the
    # terminal, each line ended by erase-line (ESC [ K): keep what follows
    esc=$(printf '\033')
    tr -d '\r' <"$T/tty.raw" | sed "s/^.*$esc\[K//" >"$T/tty"
}
if ! script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    for what in "table on a terminal" "table aligned" "table units" "--csv on a terminal" "GPU table" "--columns table"; do
        ok "# SKIP $what: no script(1) to make a terminal"
    done
else
    tty_run sweep $g
    head -n 1 "$T/tty" >"$T/head"
    if [ "$rc" -eq 0 ] && ! grep -q , "$T/tty" && [ "$(wc -l <"$T/tty")" -eq $((rows + 1)) ] &&
        grep -q 'time_to_train\[d\]' "$T/head" && grep -q 'step_time\[s\]' "$T/head" &&
        grep -q 'power\[MW\]' "$T/head" && grep -q 'energy\[MWh\]' "$T/head"; then
        ok "to a terminal: a table, not CSV, with units in the header"
    else
        nok "to a terminal: a table, not CSV, with units in the header" "rc $rc: $(head -n 3 "$T/tty")"
    fi
    # every right-aligned number ends where its header does, in the rows
    # held to size the columns (1000) and in those written after them
    tty_run sweep -m gpt3-175b --systems 1..1500
    bad=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /\[/) { e[$i] = index($0, $i) + length($i) - 1; n++ } next }
        { for (h in e) { c = substr($0, e[h], 1); d = substr($0, e[h] + 1, 1); if (c == " " || (d != " " && d != "")) print NR, h } }
        END { if (n < 4) print "few unit columns" }' "$T/tty")
    [ "$(wc -l <"$T/tty")" -eq 1501 ] && [ "$(grep -c '^model ' "$T/tty")" -eq 1 ] && [ -z "$bad" ] &&
        ok "the table's numbers are aligned under their headers" ||
        nok "the table's numbers are aligned under their headers" "$bad $(head -n 3 "$T/tty")"
    # the numbers are the CSV's in the header's units
    tty_run sweep $g --columns model,systems,time_to_train_s,power_W,step_time_s,sparsity
    tail -n +2 "$T/tty" | awk '{ print $1, $2, $3 * 86400, $4 * 1e6, $5, $6 }' >"$T/shown"
    cut_cols "$T/full" model systems time_to_train_s power_W step_time_s sparsity | tail -n +2 | tr , ' ' >"$T/exact"
    far=$(paste -d' ' "$T/shown" "$T/exact" | awk '{
        if ($1 != $7 || $2 != $8 || $6 != $12) { print "ids", NR; next }
        for (i = 3; i <= 5; i++) { r = ($i - $(i + 6)) / $(i + 6); if (r < 0) r = -r; if (r > 1e-3) print NR, i, $i, $(i + 6) } }')
    if [ "$rc" -eq 0 ] && [ "$(head -n 1 "$T/tty" | tr -s ' ')" = "model systems time_to_train[d] power[MW] step_time[s] sparsity" ] &&
        [ "$(wc -l <"$T/shown")" -eq "$rows" ] && [ -z "$far" ]; then
        ok "--columns orders the table; its numbers are the CSV's in days, MW and s (4 digits)"
    else
        nok "--columns orders the table; its numbers are the CSV's in days, MW and s (4 digits)" "rc $rc far $far: $(head -n 2 "$T/tty")"
    fi
    tty_run sweep $g --csv
    if [ "$rc" -eq 0 ] && [ "$(cat "$T/tty")" = "$(tr -d '\r' <"$T/full")" ]; then
        ok "--csv on a terminal writes the CSV a pipe gets"
    else
        nok "--csv on a terminal writes the CSV a pipe gets" "$(head -c 300 "$T/tty")"
    fi
    tty_run sweep $gpu --precision bf16,fp8 --layouts 2
    head -n 1 "$T/tty" | tr -s ' ' >"$T/head"
    if [ "$rc" -eq 0 ] && [ "$(cat "$T/head")" = "model system precision gpus rank tp pp vp dp cp fsdp micro_batch recompute feasible step_time[s] time_to_train[d] mfu mem_per_gpu[GB] power[MW] energy[MWh] bottleneck reason" ] &&
        grep -q '^gpt3-175b  *a100  *fp8  *64  .*a100 has no fp8 tensor rate' "$T/tty"; then
        ok "a GPU sweep to a terminal: the layout's columns in units, the reason last"
    else
        nok "a GPU sweep to a terminal: the layout's columns in units, the reason last" "rc $rc: $(head -n 3 "$T/tty")"
    fi
    tty_run sweep $g --where feasible=1 --best time_to_train_s --group-by model
    [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/tty")" -eq 3 ] && head -n 1 "$T/tty" | grep -q '^model ' &&
        [ "$(tail -n +2 "$T/tty" | awk '{ print $1 }' | tr '\n' ' ')" = "gpt3-175b llama2-70b " ] &&
        ok "--best on a terminal: the best row of each group in the table" ||
        nok "--best on a terminal: the best row of each group in the table" "$(cat "$T/tty")"
fi

echo "# cli_sweep done"
