# models.gp - time to train against model size, one line per cluster size.
#
# Plots the time to train (days) against the number of parameters, log-log,
# for every model in models.csv, with one line per number of systems N.
# Only feasible rows (feasible = 1) are drawn: a model missing from a line
# does not fit that cluster (MemoryX tier, SRAM or batch; see the report).
# The models are named along the top axis; dashed lines mark 30 days and
# one year.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   models.csv: columns model, system, systems, params, time_to_train_s,
#       feasible (by name)
# Writes models.png (default) or models.svg.  Re-run from the folder with
#   gnuplot models.gp
#   gnuplot -e "fmt='svg'" models.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "models.gp: fmt must be 'png' or 'svg'"
    }
}
set output "models." . fmt

set datafile separator comma
set datafile columnheaders
f = "models.csv"
day = 86400.0
ok(x) = column("feasible") == 1

sys = "?"
set table $unused
plot f using (sys = strcol("system"), 0):(0) with table
unset table
pretty(s) = s eq "cs2" ? "CS-2" : s eq "cs3" ? "CS-3" : s

# All stats come before any range or log scale is set: stats obeys them.
# The distinct cluster sizes, smallest first, as a list of words.
Ns = ""
prev = 0
do for [k = 1:64] {
    stats f using (column("systems") > prev ? column("systems") : 1e300) nooutput
    if (STATS_min >= 1e300) { break }
    prev = STATS_min
    Ns = Ns . sprintf(" %d", prev)
}
nN = words(Ns)
# Feasible rows for each N, to say so in the key when there are none.
array feas[nN > 0 ? nN : 1]
do for [k = 1:nN] {
    stats f using (column("systems") == word(Ns, k) + 0 && ok(0) ? 1 : 0) nooutput
    feas[k] = STATS_sum
}
stats f using (column("params")) nooutput
pmin = STATS_min
pmax = STATS_max
stats f using (ok(0) && column("time_to_train_s") > 0 ? column("time_to_train_s") / day : 1e300) nooutput
dmin = STATS_min
stats f using (ok(0) && column("time_to_train_s") > 0 ? column("time_to_train_s") / day : 0) nooutput
dmax = STATS_max
nfeas = 0
do for [k = 1:nN] { nfeas = nfeas + feas[k] }
if (nfeas == 0) { dmin = 1; dmax = 1000 }
if (pmin <= 0) { pmin = 1 }
if (pmax <= pmin) { pmax = pmin * 10 }

set title sprintf("Time to train against model size on %s clusters (feasible configurations only)", pretty(sys)) font "Sans,12" noenhanced
set logscale xy
set xrange [pmin / 1.6 : pmax * 1.6]
# x2 carries the model names at the same positions as x.
set logscale x2
set x2range [pmin / 1.6 : pmax * 1.6]
set yrange [dmin / 3 : dmax * 3]
set format x "10^{%T}"
set format y "%g"
set xlabel "parameters (count)"
set ylabel "time to train (days)"
set grid xtics ytics lc rgb "#dddddd"
set key top left Left reverse box opaque title "systems N"
# The model names along the top axis, at their parameter counts.
set x2tics rotate by 45 left font "Sans,8" nomirror noenhanced
set xtics nomirror
set tmargin 6
if (nfeas == 0) {
    set label 1 "no feasible configuration" at graph 0.5, 0.5 center font "Sans,14" tc rgb "#d62728"
}
# Reference times, when inside the plotted range.
if (30 > dmin / 3 && 30 < dmax * 3) {
    set arrow 1 from graph 0, first 30 to graph 1, first 30 nohead dt 2 lc rgb "#888888"
    set label 2 "30 days" at graph 0.99, first 30 right offset 0, 0.6 tc rgb "#666666"
}
if (365 > dmin / 3 && 365 < dmax * 3) {
    set arrow 2 from graph 0, first 365 to graph 1, first 365 nohead dt 2 lc rgb "#888888"
    set label 3 "1 year" at graph 0.99, first 365 right offset 0, 0.6 tc rgb "#666666"
}
n1 = nN > 0 ? word(Ns, 1) + 0 : 0

# Each line's points, and the model names, as whitespace tables: a line
# through rows filtered to NaN would break at every other model.
full = ""
empty = ""
do for [k = 1:nN] {
    if (feas[k] > 0) {
        full = full . sprintf(" %d", k)
        eval sprintf("set table $line%d separator whitespace", k)
        plot f using (column("params")):(column("time_to_train_s") / day) \
            with table if (column("systems") == word(Ns, k) + 0 && ok(0))
        unset table
    } else {
        empty = empty . sprintf(" %d", k)
    }
}
set table $names separator whitespace
plot f using (column("params")):(0):(strcol("model")) with table if (column("systems") == n1)
unset table
set datafile separator whitespace
set datafile nocolumnheaders
# A word as a number.
num(w) = w eq "" ? 1 : w + 0

# Each clause is added only when its list has words: gnuplot evaluates an
# iteration over nothing once anyway, and it takes a row in the key.
cmd = 'plot $names using 1:(NaN):x2tic(3) axes x2y1 notitle'
if (full ne "") {
    cmd = cmd . ', for [k in full] sprintf("$line%s", k) using 1:2 smooth unique ' . \
          'with linespoints lw 2 pt 7 ps 0.9 lc num(k) title word(Ns, num(k))'
}
if (empty ne "") {
    cmd = cmd . ', for [k in empty] NaN with linespoints lw 2 pt 7 ps 0.9 ' . \
          'lc num(k) title word(Ns, num(k)) . " (none feasible)"'
}
eval cmd

set output
