# validation.gp - the analytic model against measured runs.
#
# One point per measured run of hw/measurements.csv: the model's figure
# (throughput in samples/s, or a speedup) against the measured one, log-log,
# keyed by system, each labelled with its id; the line y = x on which they
# agree and a band of +-10 % around it.  The leave-one-out predictions
# (each point with the fitted constants refitted without it) are drawn as
# open marks joined to their point.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   validation.csv: columns id, system, measured, predicted, loo_predicted
#       (by name; loo_predicted may be empty)
# Writes validation.png (default) or validation.svg.  Re-run from the folder with
#   gnuplot validation.gp
#   gnuplot -e "fmt='svg'" validation.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 800,650 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 800,650 dynamic font "Sans,10"
    } else {
        exit error "validation.gp: fmt must be 'png' or 'svg'"
    }
}
set output "validation." . fmt

set datafile separator comma
set datafile columnheaders
set datafile missing ""
f = "validation.csv"

systems = "cs2 cs3"
colours = "#1f77b4 #d62728 #7f7f7f"
points = "7 5 9"
known(s) = strstrt(" " . systems . " ", " " . s . " ") > 0
is(k) = k <= words(systems) ? strcol("system") eq word(systems, k) : !known(strcol("system"))
label(k) = k <= words(systems) ? word(systems, k) : "other"

# All stats come before any range or log scale is set: stats obeys them.
stats f using (column("measured")) nooutput
lo = STATS_min
hi = STATS_max
nrows = STATS_records
stats f using (column("predicted")) nooutput
lo = STATS_min < lo ? STATS_min : lo
hi = STATS_max > hi ? STATS_max : hi
stats f using (abs(column("predicted") / column("measured") - 1) * 100) nooutput
emax = STATS_max
if (lo <= 0) { lo = 1 }
if (hi <= lo) { hi = lo * 10 }

set title sprintf("Predicted against measured: %d runs, largest error %.1f %%", nrows, emax) font "Sans,12"
set grid xtics ytics lc rgb "#dddddd"
set logscale xy
set xrange [lo / 2 : hi * 2]
set yrange [lo / 2 : hi * 2]
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "measured (samples/s; speedup for a scaling run)"
set ylabel "predicted by the model (same unit)"
set key top left Left reverse box opaque
set style fill transparent solid 0.15 noborder

plot '+' using 1:($1 * 0.9):($1 * 1.1) with filledcurves lc rgb "#2ca02c" title "+-10 %", \
     x with lines lw 1.5 dt 2 lc rgb "#555555" title "y = x", \
     for [k = 1:words(systems) + 1] f using (is(k) ? column("measured") : NaN):(column("predicted")) \
        with points pt (word(points, k) + 0) ps 1.3 lc rgb word(colours, k) \
        title (k <= words(systems) ? label(k) : ""), \
     f using (column("measured")):(column("predicted")):(strcol("id")) \
        with labels offset 1.2,0.6 font "Sans,8" notitle, \
     f using (column("measured")):(column("loo_predicted")) with points pt 6 ps 1.0 lc rgb "#999999" title "leave-one-out"

set output
