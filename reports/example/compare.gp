# compare.gp - time-to-train against power: the same job on weight-streaming
# clusters and on GPU clusters.
#
# One curve per kind, log-log: time-to-train in days against the cluster's
# power in kW, one point per cluster, labelled with its systems or GPUs.
# Weight streaming: 1, 2, 4, ... systems up to the generation's largest
# cluster, the power of the systems with their MemoryX, activation and
# SwarmX servers; infeasible sizes (feasible = 0) are left out of the line
# and drawn as crosses.  GPUs: whole nodes, each at its maximum wall power,
# each count in its fastest layout.  At equal power the lower curve trains
# faster; at equal time the curve further left draws less power.  The
# title names the model, the system and the GPU by their name keys (a name
# with a comma or a double quote is cut there: gnuplot reads no quoted CSV
# fields).
#
# Reads, from the current directory (a cerebras-plan report folder):
#   compare.csv: columns kind (weight-streaming or gpu), units, power_W,
#       time_to_train_s, feasible (by name)
#   names.csv: columns model_name, system_name, gpu_name (for the title)
# Writes compare.png (default) or compare.svg.  Re-run from the folder with
#   gnuplot compare.gp
#   gnuplot -e "fmt='svg'" compare.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,650 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,650 dynamic font "Sans,10"
    } else {
        exit error "compare.gp: fmt must be 'png' or 'svg'"
    }
}
set output "compare." . fmt

set datafile separator comma
set datafile columnheaders
set datafile missing ""
f = "compare.csv"
day = 86400.0

# The names for the title.
model = "?"
sys = "?"
gpu = "?"
set table $unused
plot "names.csv" using (model = strcol("model_name"), sys = strcol("system_name"), \
    gpu = strcol("gpu_name"), 0):(0) with table
unset table

ws(x) = strcol("kind") eq "weight-streaming"
shown(x) = !ws(0) || column("feasible") == 1
kw(x) = column("power_W") / 1000.0
days(x) = column("time_to_train_s") / day

# Ranges from the points drawn (every row when none is feasible), fixed so
# that an empty selection is not an error.  All stats come before any range
# or log scale is set: stats obeys them.
stats f using (shown(0) ? 1 : 0) nooutput
nshown = STATS_sum
stats f using (ws(0) ? 0 : 1) nooutput
ngpu = STATS_sum
stats f using (ws(0) && column("feasible") != 1 ? 1 : 0) nooutput
ninf = STATS_sum
use(x) = nshown == 0 || shown(0)
stats f using (use(0) && column("power_W") > 0 ? kw(0) : NaN) nooutput
xlo = STATS_min
xhi = STATS_max
stats f using (use(0) && column("time_to_train_s") > 0 ? days(0) : NaN) nooutput
ylo = STATS_min
yhi = STATS_max
if (xhi <= xlo) { xlo = xlo / 2; xhi = xhi * 2 }
if (yhi <= ylo) { ylo = ylo / 2; yhi = yhi * 2 }

set title sprintf("%s: time-to-train against power, %s and %s", model, sys, gpu) \
    font "Sans,12" noenhanced
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set logscale xy
set xrange [xlo / 1.6 : xhi * 1.6]
set yrange [ylo / 2 : yhi * 2]
set format x "%g"
set format y "%g"
set xlabel "power of the cluster (kW)"
set ylabel "time to train (days)"
set key top right Left reverse box opaque noenhanced
if (ngpu == 0) {
    set label 1 "no GPU count runs this job" at graph 0.5, 0.9 center font "Sans,12" tc rgb "#d62728"
}

plot f using (ws(0) && column("feasible") == 1 ? kw(0) : NaN):(days(0)) \
        with linespoints pt 7 ps 1.0 lw 2 lc rgb "#1f77b4" \
        title sys . ": systems with MemoryX, activation and SwarmX servers (label: systems)", \
     f using (ws(0) && column("feasible") == 1 ? kw(0) : NaN):(days(0)):(sprintf("%d", column("units"))) \
        with labels offset -0.8, 0.8 font "Sans,8" tc rgb "#1f77b4" notitle, \
     f using (ws(0) && column("feasible") != 1 ? kw(0) : NaN):(days(0) > 0 ? days(0) : NaN) \
        with points pt 2 ps 1.2 lc rgb "#1f77b4" title (ninf > 0 ? "infeasible (weight streaming)" : ""), \
     f using (ws(0) ? NaN : kw(0)):(days(0)) \
        with linespoints pt 5 ps 1.0 lw 2 lc rgb "#ff7f0e" \
        title gpu . ": whole nodes at maximum power (label: GPUs)", \
     f using (ws(0) ? NaN : kw(0)):(days(0)):(sprintf("%d", column("units"))) \
        with labels offset 0.8, -0.8 font "Sans,8" tc rgb "#ff7f0e" notitle

set output
