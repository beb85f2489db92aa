# crosscheck.gp - the analytic model against the discrete-event simulator.
#
# Left panel: the step time the simulator measured against the step time
# the analytic model predicts, log-log, one point per scenario, keyed by the
# regime (the resource that sets the pace), with the line y = x on which
# the two agree.  Right panel: the relative difference
# (simulated - analytic) / analytic in parts per million against the
# analytic step time, which shows what the left panel cannot resolve.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   crosscheck.csv: columns regime, analytic_s, simulated_s, rel_diff
#       (by name)
# Writes crosscheck.png (default) or crosscheck.svg.  Re-run from the folder with
#   gnuplot crosscheck.gp
#   gnuplot -e "fmt='svg'" crosscheck.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "crosscheck.gp: fmt must be 'png' or 'svg'"
    }
}
set output "crosscheck." . fmt

set datafile separator comma
set datafile columnheaders
f = "crosscheck.csv"

# The regimes the model names, and a last class for any other.
regimes = "compute stream_in stream_out update latency overhead"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #7f7f7f"
points = "7 5 9 13 11 15 3"
known(r) = strstrt(" " . regimes . " ", " " . r . " ") > 0
is(k) = k <= words(regimes) ? strcol("regime") eq word(regimes, k) : !known(strcol("regime"))
label(k) = k <= words(regimes) ? word(regimes, k) : "other"

# All stats come before any range or log scale is set: stats obeys them.
stats f using (column("analytic_s") > 0 ? column("analytic_s") : 1e300) nooutput
amin = STATS_min
stats f using (column("simulated_s") > 0 ? column("simulated_s") : 1e300) nooutput
amin = STATS_min < amin ? STATS_min : amin
stats f using (column("analytic_s")) nooutput
amax = STATS_max
nrows = STATS_records
stats f using (column("simulated_s")) nooutput
amax = STATS_max > amax ? STATS_max : amax
stats f using (abs(column("rel_diff")) * 1e6) nooutput
dmax = STATS_max
nk = words(regimes) + 1
array count[nk]
do for [k = 1:nk] {
    stats f using (is(k) ? 1 : 0) nooutput
    count[k] = STATS_sum
}
if (amin >= 1e300) { amin = 1; amax = 10 }
if (amax <= amin) { amax = amin * 10 }
dlim = dmax > 0 ? dmax * 1.3 : 1

set multiplot layout 1,2 title sprintf("Analytic model against the simulator: %d scenarios, largest difference %.3g ppm", nrows, dmax) font "Sans,12"
set grid xtics ytics lc rgb "#dddddd"
set logscale x
set xrange [amin / 2 : amax * 2]
set format x "10^{%L}"
set xlabel "analytic step time (seconds)"
set key top left Left reverse box opaque title "regime"

set title "Simulated against analytic step time"
set logscale y
set yrange [amin / 2 : amax * 2]
set format y "10^{%L}"
set ylabel "simulated step time (seconds)"
plot x with lines lw 1.5 dt 2 lc rgb "#555555" title "y = x", \
     for [k = 1:nk] f using (is(k) ? column("analytic_s") : NaN):(column("simulated_s")) \
        with points pt (word(points, k) + 0) ps 1.1 lc rgb word(colours, k) \
        title (count[k] > 0 ? label(k) : "") noenhanced

set title "Relative difference"
unset logscale y
set yrange [-dlim : dlim]
set format y "%g"
set ylabel "(simulated - analytic) / analytic (ppm)"
unset key
plot 0 with lines lw 1.5 dt 2 lc rgb "#555555" notitle, \
     for [k = 1:nk] f using (is(k) ? column("analytic_s") : NaN):(1e6 * column("rel_diff")) \
        with points pt (word(points, k) + 0) ps 1.1 lc rgb word(colours, k) notitle

unset multiplot
set output
