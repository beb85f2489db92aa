# breakdown.gp - what sets the pace of a training step, per cluster size.
#
# One stacked bar per number of systems N: the step time split into the
# time each resource set the pace (compute on the wafer, streaming weights
# in from MemoryX, streaming gradients out, the weight update in MemoryX)
# plus the latency left exposed.  The five parts add up to the step time.
# Left panel: seconds, with the step time written over each bar.  Right
# panel: the same parts as shares of the step time (%), so that the small
# step times of large clusters stay readable.  Infeasible configurations
# (feasible = 0) keep their bar, marked "infeasible" under N.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   breakdown.csv: columns model, system, systems, step_time_s,
#       paced_compute_s, paced_stream_in_s, paced_stream_out_s,
#       paced_update_s, exposed_latency_s, feasible (by name)
# Writes breakdown.png (default) or breakdown.svg.  Re-run from the folder with
#   gnuplot breakdown.gp
#   gnuplot -e "fmt='svg'" breakdown.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "breakdown.gp: fmt must be 'png' or 'svg'"
    }
}
set output "breakdown." . fmt

set datafile separator comma
set datafile columnheaders
f = "breakdown.csv"

model = "?"
sys = "?"
set table $unused
plot f using (model = strcol("model"), sys = strcol("system"), 0):(0) with table
unset table
pretty(s) = s eq "cs2" ? "CS-2" : s eq "cs3" ? "CS-3" : s

# All stats come before any range is set: stats obeys them.
stats f using (column("step_time_s")) nooutput
nbars = STATS_records
tmax = STATS_max > 0 ? STATS_max : 1
stats f using (column("feasible") == 1 ? 0 : 1) nooutput
ninf = STATS_sum

# The parts, in stacking order, with their colours and key titles.
parts = "paced_compute_s paced_stream_in_s paced_stream_out_s paced_update_s exposed_latency_s"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #7f7f7f"
name(i) = i == 1 ? "compute" : i == 2 ? "stream in (weights from MemoryX)" : \
          i == 3 ? "stream out (gradients to MemoryX)" : i == 4 ? "weight update (MemoryX)" : \
          "exposed latency"
share(c) = column("step_time_s") > 0 ? 100 * column(c) / column("step_time_s") : 0
secs(t) = t >= 100 ? sprintf("%.0f s", t) : sprintf("%.3g s", t)
tic(x) = strcol("systems") . (column("feasible") == 1 ? "" : "\n(infeasible)")

set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border rgb "#333333"
set boxwidth 0.6
set xrange [-0.6 : nbars - 0.4]
set xlabel "systems N" offset 0, (ninf > 0 ? -1 : 0)
set grid ytics lc rgb "#dddddd"
# The key sits top right of the left panel: the step time falls with N, so
# the tall bars are on the left.
set key top right Left reverse box opaque samplen 2

set multiplot layout 1,2 margins 0.09, 0.97, 0.14, 0.87 spacing 0.1 title sprintf("Step time of %s on %s by the resource that set the pace", model, pretty(sys)) font "Sans,12" noenhanced

set title "Step time (seconds)"
set ylabel "seconds per step"
set yrange [0 : tmax * 1.55]
plot for [i = 1:5] f using (column(word(parts, i))):xtic(tic(0)) \
        lc rgb word(colours, i) title name(i), \
     f using ($0):(column("step_time_s")):(secs(column("step_time_s"))) \
        with labels offset 0, 0.7 font "Sans,9" notitle

set title "Share of the step time (%)"
set ylabel "share of the step time (%)"
set yrange [0:100]
unset key
plot for [i = 1:5] f using (share(word(parts, i))):xtic(tic(0)) lc rgb word(colours, i) notitle

unset multiplot
set output
