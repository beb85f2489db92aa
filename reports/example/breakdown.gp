# breakdown.gp - what sets the pace of a training step, per cluster size.
#
# Left panel: the time to train at each number of systems N, one bar per
# N on a log axis in days (a bar for one system would flatten the others on
# a linear one), each bar labelled with the time in readable units (s, min,
# h, d or years, as cerebras-plan prints durations) and its step time.
# Right panel: the step time split into the share each resource set the
# pace for (compute on the wafer, streaming weights in from MemoryX,
# streaming gradients out, the weight update in MemoryX, the latency left
# exposed and the fixed overhead), normalised per N so that every bar is
# readable; the parts add up to 100 %.  Infeasible
# configurations (feasible = 0) keep their bars, marked "infeasible" under
# N and hatched on the left.  The title names the model and the system by
# their name keys.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   breakdown.csv: columns systems, step_time_s, time_to_train_s,
#       paced_compute_s, paced_stream_in_s, paced_stream_out_s,
#       paced_update_s, exposed_latency_s, overhead_s, feasible (by name)
#   names.csv: columns model_name, system_name (for the title)
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
day = 86400.0
year = 365.25 * day

model = "?"
sys = "?"
set table $unused
plot "names.csv" using (model = strcol("model_name"), sys = strcol("system_name"), 0):(0) \
    with table
unset table

# All stats come before any range or log scale is set: stats obeys them.
stats f using (column("time_to_train_s") / day) nooutput
nbars = STATS_records
dmax = STATS_max > 0 ? STATS_max : 1
stats f using (column("time_to_train_s") > 0 ? column("time_to_train_s") / day : 1e300) nooutput
dmin = STATS_min < 1e300 ? STATS_min : dmax
stats f using (column("feasible") == 1 ? 0 : 1) nooutput
ninf = STATS_sum

# The parts, in stacking order, with their colours and key titles.
parts = "paced_compute_s paced_stream_in_s paced_stream_out_s paced_update_s exposed_latency_s overhead_s"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #7f7f7f #bcbd22"
name(i) = i == 1 ? "compute" : i == 2 ? "stream in (weights)" : i == 3 ? "stream out (gradients)" : \
          i == 4 ? "update (MemoryX)" : i == 5 ? "exposed latency" : "fixed overhead"
share(c) = column("step_time_s") > 0 ? 100 * column(c) / column("step_time_s") : 0
# A duration in the largest unit it has one of, years from two on, four
# digits (as cerebras-plan prints durations).
dur(t) = t >= 2 * year ? sprintf("%.4g years", t / year) : t >= day ? sprintf("%.4g d", t / day) : \
         t >= 3600 ? sprintf("%.4g h", t / 3600) : t >= 60 ? sprintf("%.4g min", t / 60) : \
         t >= 1 ? sprintf("%.4g s", t) : sprintf("%.4g ms", 1e3 * t)
tic(x) = strcol("systems") . (column("feasible") == 1 ? "" : "\n(infeasible)")
ok(x) = column("feasible") == 1

set style fill solid 0.9 border rgb "#333333"
set boxwidth 0.6
set xrange [-0.6 : nbars - 0.4]
set xlabel "systems N" offset 0, (ninf > 0 ? -1 : 0)
set grid ytics lc rgb "#dddddd"

set multiplot layout 1,2 margins 0.09, 0.97, 0.14, 0.87 spacing 0.1 title sprintf("Time to train and step time of %s on %s by the resource that set the pace", model, sys) font "Sans,12" noenhanced

# Left: time to train, log axis in days, whole decades with room for the labels.
set title "Time to train (days, log scale)"
set ylabel "time to train (days)"
set logscale y
set format y "10^{%T}"
set yrange [10**floor(log10(dmin) - 0.2) : 10**ceil(log10(dmax) + 0.5)]
unset key
plot f using 0:(ok(0) ? column("time_to_train_s") / day : NaN):xtic(tic(0)) \
        with boxes lc rgb "#1f77b4" notitle, \
     f using 0:(ok(0) ? NaN : column("time_to_train_s") / day) \
        with boxes fs pattern 4 lc rgb "#d62728" notitle, \
     f using 0:(column("time_to_train_s") / day): \
        (dur(column("time_to_train_s")) . "\n" . dur(column("step_time_s")) . "/step") \
        with labels offset 0, 1.4 font "Sans,8" notitle

# Right: the parts as shares of the step time, stacked.
set style data histograms
set style histogram rowstacked
unset logscale y
set format y "%g"
set title "Share of the step time by resource (%)"
set ylabel "share of the step time (%)"
set yrange [0:135]
set ytics 0, 20, 100
# The key sits above the bars, which all end at 100 %.
set key top center vertical maxrows 3 Left reverse box opaque samplen 1.5 width -3 font ",8"
plot for [i = 1:6] f using (share(word(parts, i))):xtic(tic(0)) lc rgb word(colours, i) \
        title name(i)

unset multiplot
set output
