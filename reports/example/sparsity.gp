# sparsity.gp - what weight sparsity buys.
#
# Left panel: the speedup of a training step against the weight sparsity
# (share of weights that are zero, in %), log y, beside the ideal speedup
# 1 / (1 - sparsity) that a step would get if all of its time shrank with
# the dense work.  Each point is labelled with the resource that sets the
# pace where that resource changes.  Right panel: the time to train in
# days against the sparsity.  Infeasible configurations (feasible = 0) are
# left out of the lines and drawn as red crosses, named in the key.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   sparsity.csv: columns sparsity (0..1), speedup, time_to_train_s,
#       bottleneck, feasible (by name)
#   estimate.csv: column systems (for the title)
#   names.csv: columns model_name, system_name (for the title)
# Writes sparsity.png (default) or sparsity.svg.  Re-run from the folder with
#   gnuplot sparsity.gp
#   gnuplot -e "fmt='svg'" sparsity.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "sparsity.gp: fmt must be 'png' or 'svg'"
    }
}
set output "sparsity." . fmt

set datafile separator comma
set datafile columnheaders
f = "sparsity.csv"
day = 86400.0

model = "?"
sys = "?"
nsys = 0
set table $unused
plot "names.csv" using (model = strcol("model_name"), sys = strcol("system_name"), 0):(0) \
    with table
plot "estimate.csv" using (nsys = column("systems"), 0):(0) with table
unset table
ok(x) = column("feasible") == 1

# All stats come before any range or log scale is set: stats obeys them.
stats f using (column("sparsity")) nooutput
smax = STATS_max
stats f using (column("speedup") > 0 ? column("speedup") : 1e300) nooutput
vmin = STATS_min < 1 ? STATS_min : 1
stats f using (column("speedup")) nooutput
vmax = STATS_max
stats f using (column("time_to_train_s") / day) nooutput
dmax = STATS_max > 0 ? STATS_max : 1
stats f using (ok(0) ? 0 : 1) nooutput
ninf = STATS_sum
nfeas = STATS_records - ninf

# The x range runs to the largest sparsity in the file, and at least to 50%.
xmax = 100 * smax > 50 ? 100 * smax : 50
ideal(p) = p < 100 ? 1 / (1 - p / 100) : NaN
vmax = vmax > ideal(xmax) ? vmax : ideal(xmax)

set multiplot layout 1,2 title sprintf("Weight sparsity: %s on %d %s systems%s", model, nsys, sys, \
    nfeas == 0 ? " (infeasible at every sparsity)" : "") font "Sans,12" noenhanced
set xrange [0 : xmax * 1.02]
set xlabel "weight sparsity (% of weights zero)"
set grid xtics ytics lc rgb "#dddddd"
set logscale y
set samples 400
set key top left Left reverse box opaque

set title "Step speedup over dense"
set yrange [vmin / 1.3 : vmax * 1.6]
set ylabel "speedup of a step over sparsity 0 (x)"
set format y "%g"
set ytics add ("2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500)
# The bottleneck's name where it changes from the row before.
last = ""
change(b) = (b eq last) ? "" : (last = b, "paced by " . b)
plot ideal(x) with lines lw 2 dt 2 lc rgb "#555555" title "ideal 1 / (1 - sparsity)", \
     f using (100 * column("sparsity")):(ok(0) ? column("speedup") : NaN) \
        with linespoints lw 2 pt 7 ps 0.9 lc rgb "#1f77b4" title "modelled", \
     f using (100 * column("sparsity")):(ok(0) ? NaN : column("speedup")) \
        with points pt 2 ps 1.6 lw 2 lc rgb "#d62728" \
        title (ninf > 0 ? "infeasible (feasible = 0)" : ""), \
     f using (100 * column("sparsity")):(column("speedup")):(change(strcol("bottleneck"))) \
        with labels left rotate by 40 offset 0.6, 0.4 font "Sans,8" tc rgb "#444444" noenhanced notitle

set title "Time to train"
unset key
unset logscale y
set ytics autofreq
set yrange [0 : dmax * 1.1]
set ylabel "time to train (days)"
plot f using (100 * column("sparsity")):(ok(0) ? column("time_to_train_s") / day : NaN) \
        with linespoints lw 2 pt 7 ps 0.9 lc rgb "#1f77b4" notitle, \
     f using (100 * column("sparsity")):(ok(0) ? NaN : column("time_to_train_s") / day) \
        with points pt 2 ps 1.6 lw 2 lc rgb "#d62728" notitle

unset multiplot
set output
