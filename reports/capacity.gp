# capacity.gp - which MemoryX tier holds the model's training state.
#
# One bar per MemoryX tier of the system: its capacity in TB (10^12 bytes),
# log scale, green when it holds the model's state (weights, gradients and
# optimizer state) and red when it does not; the solid part of a bar is
# the tier's DRAM, the hatched part above it flash.  The dashed horizontal
# line is the state to hold.  The smallest tier that holds it is marked.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   capacity.csv: columns system, tier, capacity_bytes, dram_bytes,
#       state_bytes, fits, smallest (by name)
#   names.csv: columns model_name, system_name (for the title: the name
#       keys; a name with a comma or a double quote is cut there)
# Writes capacity.png (default) or capacity.svg.  Re-run from the folder with
#   gnuplot capacity.gp
#   gnuplot -e "fmt='svg'" capacity.gp

if (!exists("fmt")) fmt = "png"
if (fmt eq "png") {
    set terminal pngcairo size 900,600 font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 900,600 dynamic font "Sans,10"
    } else {
        exit error "capacity.gp: fmt must be 'png' or 'svg'"
    }
}
set output "capacity." . fmt

set datafile separator comma
set datafile columnheaders
f = "capacity.csv"
TB = 1e12

model = "?"
sys = "?"
set table $unused
plot "names.csv" using (model = strcol("model_name"), sys = strcol("system_name"), 0):(0) \
    with table
unset table

# All stats come before any range or log scale is set: stats obeys them.
stats f using (column("capacity_bytes")) nooutput
ntiers = STATS_records
cmax = STATS_max
stats f using (column("capacity_bytes") > 0 ? column("capacity_bytes") : 1e300) nooutput
cmin = STATS_min
stats f using (column("dram_bytes") > 0 ? column("dram_bytes") : 1e300) nooutput
cmin = STATS_min < cmin ? STATS_min : cmin
stats f using (column("state_bytes")) nooutput
state = STATS_max
stats f using (column("fits")) nooutput
nfit = STATS_sum
stats f using (column("dram_bytes") < column("capacity_bytes") ? 1 : 0) nooutput
nflash = STATS_sum
lo = (state > 0 && state < cmin ? state : cmin) / TB
hi = (state > cmax ? state : cmax) / TB
if (lo >= 1e288 || lo <= 0) { lo = 0.1 }
if (hi <= lo) { hi = lo * 10 }

# Bar colours and the tier label (its name, marked when it is the smallest
# that holds the state).
fitcolour(x) = column("fits") == 1 ? 0x2ca02c : 0xd62728
tier(x) = strcol("tier") . (column("smallest") == 1 ? "\n(smallest that holds it)" : "")
bytes(b) = b >= 1e15 ? sprintf("%.3g PB", b / 1e15) : sprintf("%.3g TB", b / TB)

set title sprintf("MemoryX tiers of %s against the training state of %s (%s)%s", \
    sys, model, bytes(state), nfit == 0 ? ": no tier holds it" : "") font "Sans,12" noenhanced
set logscale y
set yrange [lo / 4 : hi * 4]
set xrange [-0.6 : ntiers - 0.4]
set format y "%g"
set ylabel "capacity (TB, 1 TB = 10^{12} bytes)"
set xlabel "MemoryX tier" offset 0, -0.8
set xtics noenhanced
set grid ytics mytics lc rgb "#dddddd"
set style fill solid 0.85 border rgb "#333333"
set key top left Left reverse box opaque
set style textbox opaque noborder
set arrow 1 from graph 0, first state / TB to graph 1, first state / TB nohead front dt 2 lw 2 lc rgb "#000000"
set label 1 sprintf("model state %s", bytes(state)) at graph 0.99, first state / TB \
    right front boxed offset 0, 0.9 tc rgb "#000000"

plot f using 0:(column("capacity_bytes") / TB):(0.6):(fitcolour(0)):xtic(tier(0)) \
        with boxes lc rgb variable fs pattern 4 border notitle, \
     f using 0:(column("dram_bytes") / TB):(0.6):(fitcolour(0)) \
        with boxes lc rgb variable fs solid 0.85 notitle, \
     NaN with boxes lc rgb "#2ca02c" fs solid 0.85 title (nfit > 0 ? "holds the state" : ""), \
     NaN with boxes lc rgb "#d62728" fs solid 0.85 title (nfit < ntiers ? "too small" : ""), \
     NaN with boxes lc rgb "#555555" fs pattern 4 title (nflash > 0 ? "flash part of a tier (hatched; solid: DRAM)" : ""), \
     NaN with lines dt 2 lw 2 lc rgb "#000000" title "model state (weights, gradients, optimizer)"

set output
