# scaling.gp - speedup and efficiency against the number of systems N.
#
# Left panel: speedup against N, log-log, for weak scaling (the global batch
# grows with N) and strong scaling (the global batch stays fixed), with the
# ideal speedup y = N.  The dashed line is the weak-scaling speedup in
# time-to-train: a larger batch needs fewer steps only up to the critical
# batch, so it can lag far behind the speedup in throughput.
# Right panel: parallel efficiency (speedup / N) in percent against N.
# Infeasible configurations (feasible = 0) are left out of the lines and
# drawn as crosses.  A dotted vertical line in both panels marks the
# report's own N.  The title names the model and the system by their name
# keys (a name with a comma or a double quote is cut there: gnuplot reads
# no quoted CSV fields).
#
# Reads, from the current directory (a cerebras-plan report folder):
#   scaling-weak.csv, scaling-strong.csv: columns systems, tps_speedup,
#       efficiency, tta_speedup, feasible (by name); tps_speedup is the
#       throughput speedup, tta_speedup the time-to-train one
#   estimate.csv: column systems (the report's N)
#   names.csv: columns model_name, system_name (for the title)
# Writes scaling.png (default) or scaling.svg.  Re-run from the folder with
#   gnuplot scaling.gp
#   gnuplot -e "fmt='svg'" scaling.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "scaling.gp: fmt must be 'png' or 'svg'"
    }
}
set output "scaling." . fmt

set datafile separator comma
set datafile columnheaders
weak = "scaling-weak.csv"
strong = "scaling-strong.csv"

# The model and system for the title, and the report's N.
model = "?"
sys = "?"
nrep = 0
set table $unused
plot "names.csv" using (model = strcol("model_name"), sys = strcol("system_name"), 0):(0) \
    with table
plot "estimate.csv" using (nrep = column("systems"), 0):(0) with table
unset table

# Ranges from the data, fixed so that an empty selection (no infeasible
# row, or no feasible one) is not an error.  All stats come before any
# range or log scale is set: stats obeys them.
ok(x) = column("feasible") == 1
nmax = 1
smax = 1
smin = 1
ninf = 0
nfeas = 0
emax = 105
do for [f in weak . " " . strong] {
    stats f using (column("systems")) nooutput
    nmax = STATS_max > nmax ? STATS_max : nmax
    stats f using (ok(0) ? column("tps_speedup") : 0) nooutput
    smax = STATS_max > smax ? STATS_max : smax
    stats f using (ok(0) && column("tps_speedup") > 0 ? column("tps_speedup") : 1e300) nooutput
    smin = STATS_min < smin ? STATS_min : smin
    stats f using (ok(0) && column("tta_speedup") > 0 ? column("tta_speedup") : 1e300) nooutput
    smin = STATS_min < smin ? STATS_min : smin
    stats f using (ok(0) ? 0 : 1) nooutput
    ninf = ninf + STATS_sum
    nfeas = nfeas + STATS_records - STATS_sum
    stats f using (ok(0) ? 100 * column("efficiency") : 0) nooutput
    emax = STATS_max * 1.05 > emax ? STATS_max * 1.05 : emax
}
if (nmax <= 1) { nmax = 2 }
smax = smax > nmax ? smax : nmax

set multiplot layout 1,2 title sprintf("Scaling of %s on %s: weak (batch grows with N) and strong (fixed batch)", model, sys) font "Sans,12" noenhanced

set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set logscale x 2
set xrange [1:nmax]
set xlabel "systems N"
# A tic at the largest N unless it would crowd the power of two below it.
p2 = 2**floor(log(nmax) / log(2) + 1e-9)
if (nmax / p2 >= 1.7) { set xtics add (sprintf("%d", nmax) nmax) }
if (nfeas == 0) {
    set label 1 "no feasible configuration" at graph 0.5, 0.5 center font "Sans,14" tc rgb "#d62728"
}
set key top left Left reverse box opaque
# The report's own N, in both panels.
here = sprintf("this report: N = %d", nrep)
if (nrep >= 1) {
    set arrow 10 from nrep, graph 0 to nrep, graph 1 nohead dt 3 lw 2 lc rgb "#2ca02c" back
}

# Left: speedup, log-log.
set logscale y 2
set yrange [smin / 1.5 : smax * 1.5]
set ylabel "speedup over 1 system (x)"
set title "Speedup"
plot x with lines lw 4 lc rgb "#bbbbbb" title "ideal (y = N)", \
     weak using "systems":(ok(0) ? column("tps_speedup") : NaN) \
        with linespoints pt 7 ps 0.8 lw 2 lc rgb "#1f77b4" title "weak: throughput", \
     weak using "systems":(ok(0) ? column("tta_speedup") : NaN) \
        with linespoints pt 6 ps 0.8 lw 1.5 dt 3 lc rgb "#1f77b4" title "weak: time to train", \
     strong using "systems":(ok(0) ? column("tps_speedup") : NaN) \
        with linespoints pt 5 ps 0.8 lw 2 lc rgb "#d62728" title "strong", \
     weak using "systems":(ok(0) ? NaN : column("tps_speedup") > 0 ? column("tps_speedup") : NaN) \
        with points pt 2 ps 1.2 lc rgb "#1f77b4" notitle, \
     strong using "systems":(ok(0) ? NaN : column("tps_speedup") > 0 ? column("tps_speedup") : NaN) \
        with points pt 2 ps 1.2 lc rgb "#d62728" notitle, \
     NaN with points pt 2 ps 1.2 lc rgb "#000000" title (ninf > 0 ? "infeasible" : ""), \
     NaN with lines dt 3 lw 2 lc rgb "#2ca02c" title (nrep >= 1 ? here : "")

# Right: efficiency in percent, linear.
unset logscale y
set yrange [0:emax]
set ylabel "parallel efficiency = speedup / N (%)"
set title "Efficiency"
set key bottom left
plot weak using "systems":(ok(0) ? 100 * column("efficiency") : NaN) \
        with linespoints pt 7 ps 0.8 lw 2 lc rgb "#1f77b4" title "weak", \
     strong using "systems":(ok(0) ? 100 * column("efficiency") : NaN) \
        with linespoints pt 5 ps 0.8 lw 2 lc rgb "#d62728" title "strong", \
     weak using "systems":(ok(0) ? NaN : 100 * column("efficiency")) \
        with points pt 2 ps 1.2 lc rgb "#1f77b4" notitle, \
     strong using "systems":(ok(0) ? NaN : 100 * column("efficiency")) \
        with points pt 2 ps 1.2 lc rgb "#d62728" notitle, \
     NaN with points pt 2 ps 1.2 lc rgb "#000000" title (ninf > 0 ? "infeasible" : ""), \
     NaN with lines dt 3 lw 2 lc rgb "#2ca02c" title (nrep >= 1 ? here : "")

unset multiplot
set output
