# models.gp - time to train against model size, every model on its fastest
# cluster.
#
# Two panels, log-log: time to train (days) against the number of
# parameters, one point per model of models.csv.  Each model is on the
# cluster of the report's system that trains it fastest: the N of systems
# from 1 to the generation's max_systems with the least time (the smallest
# such N), with MemoryX, activation servers and SwarmX sized for that run.
# Left: each model trained on its own token count (tokens, time_to_train_s,
# systems); right: every model on the same count (fixed_tokens,
# fixed_time_to_train_s, fixed_systems).  Each point is labelled with the
# model and its N: a label goes to the first of a few places around its
# point that is clear of the frame, the other points and the labels placed
# before it, trying first the places on the far side of the nearest other
# point; when none is, rings of places further off, up to eight lines, are
# tried, and a label set a line or more off gets a leader line.  Points are
# not joined: each is a different model.  The right axis marks 1 day, 30
# days, 1 year, 100 years and 10^4 years.  Infeasible rows (feasible = 0)
# are left out and named under the panel.
#
# Reads, from the current directory (a cerebras-plan report folder):
#   models.csv: columns model, params, systems, time_to_train_s, feasible,
#       fixed_tokens, fixed_systems, fixed_time_to_train_s, fixed_feasible
#       (by name)
#   names.csv: column system_name (for the title)
# Writes models.png (default) or models.svg.  Re-run from the folder with
#   gnuplot models.gp
#   gnuplot -e "fmt='svg'" models.gp
# With -e "check_labels='FILE'" it also writes, in pixels of each panel's
# plot area, its size ("panel PANEL W H"), one line per label ("label
# PANEL I X0 Y0 W H PX PY": its box and its point) and one per point
# ("point PANEL I PX PY"), for tests.

if (!exists("fmt")) fmt = "png"
# The label placement below works in pixels of this canvas.
W = 1280.0
H = 700.0
if (fmt eq "png") {
    set terminal pngcairo size W,H font "Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size W,H dynamic font "Sans,10"
    } else {
        exit error "models.gp: fmt must be 'png' or 'svg'"
    }
}
set output "models." . fmt

set datafile separator comma
set datafile columnheaders
f = "models.csv"
day = 86400.0
year = 365.25 * day
sysname = "?"
set table $unused
plot "names.csv" using (sysname = strcol("system_name"), 0):(0) with table
unset table
if (exists("check_labels")) {
    set print check_labels
    set print
}

# Every row into word lists (the models are named without spaces).
fixed_tokens = 0
names = ""
params = ""
t1 = ""
t2 = ""
n1 = ""
n2 = ""
ok1 = ""
ok2 = ""
undefine STATS_*
stats f using (names = names . " " . strcol("model"), \
    params = params . sprintf(" %.17g", column("params")), \
    t1 = t1 . sprintf(" %.17g", column("time_to_train_s")), \
    t2 = t2 . sprintf(" %.17g", column("fixed_time_to_train_s")), \
    n1 = n1 . sprintf(" %d", column("systems")), \
    n2 = n2 . sprintf(" %d", column("fixed_systems")), \
    ok1 = ok1 . sprintf(" %d", column("feasible") == 1 && column("time_to_train_s") > 0), \
    ok2 = ok2 . sprintf(" %d", column("fixed_feasible") == 1 && column("fixed_time_to_train_s") > 0), \
    fixed_tokens = column("fixed_tokens"), 0) nooutput
# A column that is gone makes every row invalid (and stats leaves no
# STATS_ variables); a cell that is not a number makes its row invalid.
n = words(names)
if (!exists("STATS_records") || n == 0 || STATS_invalid > 0 || words(params) != n || \
    words(t1) != n || words(t2) != n || words(n1) != n || words(n2) != n) {
    exit error "models.gp: models.csv has no rows, or lacks a column read above, or one is not a number"
}
set datafile separator whitespace
set datafile nocolumnheaders
count(b) = b >= 1e12 ? sprintf("%g T", b / 1e12) : b >= 1e9 ? sprintf("%g B", b / 1e9) : sprintf("%g", b)

# Frame of each panel, in screen fractions; its plot area in pixels.
L = "0.065 0.56"
R = "0.425 0.92"
B = 0.12
T = 0.86
pw = (word(R, 1) - word(L, 1)) * W
ph = (T - B) * H
# Labels: font size, a character's width and a line's height (pixels, at
# that size; wide enough for digits), the gap to the point, the point's
# half width, and how near another point a label may come (from its
# centre, so that a label is never nearer another point than its own).
lfont = ",8"
cw = 6.6
lh = 12.0
gap = 4.0
pr = 5.0
po = 10.0
near = 40.0
# Candidate places of a label around its point, tried in order: horizontal
# side (1 right, -1 left, 0 centred) and vertical (0 centred, 1 above, -1
# below, 2 and -2 a line further).
HX = "1 -1 0 0 1 1 -1 -1 0 0 1 -1 1 -1"
VY = "0 0 1 -1 1 -1 1 -1 2 -2 2 2 -2 -2"
# Then rings further off, r lines above and below, right, left and centred.
do for [r = 3:8] {
    HX = HX . " 1 -1 0 1 -1 0"
    VY = VY . sprintf(" %d %d %d %d %d %d", r, r, r, -r, -r, -r)
}
nc = words(HX)
hit(ax, ay, aw, ah, bx, by, bw, bh) = ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah

# Parameters range over both panels alike.
lpmin = 1e300
lpmax = -1e300
do for [i = 1:n] {
    lp = log10(word(params, i) + 0)
    lpmin = lp < lpmin ? lp : lpmin
    lpmax = lp > lpmax ? lp : lpmax
}
lx0 = lpmin - 0.8
lx1 = lpmax + 0.4

array X[n]
array Y[n]
array PX[n]
array PY[n]
array OK[n]
array BX[n]
array BY[n]
array BW[n]
array BH[n]
array LI[n]

set multiplot title sprintf("Time to train against model size: each model on the %s cluster that trains it fastest (N: systems)", \
    sysname) font "Sans,13" noenhanced
set bmargin at screen B
set tmargin at screen T
set logscale xy
set logscale y2
set xrange [10**lx0 : 10**lx1]
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "parameters (count)"
set ylabel "time to train (days)"
set xtics nomirror
set ytics nomirror
set mxtics 10
set grid xtics ytics lc rgb "#e4e4e4"
# Reference durations (days), named on the right axis and drawn dashed.
refs = sprintf("1 30 %.17g %.17g %.17g", year / day, 100 * year / day, 1e4 * year / day)
set y2tics ("1 day" word(refs, 1), "30 days" word(refs, 2), "1 year" word(refs, 3), \
    "100 years" word(refs, 4), "10^4 years" word(refs, 5)) textcolor rgb "#555555"
unset key
# Labels on an opaque ground, so a reference line does not run through one.
set style textbox opaque noborder margins 0.5, 0.5

do for [p = 1:2] {
    tl = p == 1 ? t1 : t2
    okl = p == 1 ? ok1 : ok2
    nl = p == 1 ? n1 : n2
    # This panel's points, and its time range (log10 days).
    ly0 = 1e300
    ly1 = -1e300
    nok = 0
    gone = ""
    do for [i = 1:n] {
        OK[i] = word(okl, i) + 0
        X[i] = log10(word(params, i) + 0)
        Y[i] = OK[i] ? log10((word(tl, i) + 0) / day) : 0
        if (OK[i]) {
            nok = nok + 1
            ly0 = Y[i] < ly0 ? Y[i] : ly0
            ly1 = Y[i] > ly1 ? Y[i] : ly1
        } else {
            gone = gone . " " . word(names, i)
        }
    }
    if (nok == 0) { ly0 = 0; ly1 = 3 }
    # Whole decades, with room for a label above and below.
    ly0 = floor(ly0 - 0.3)
    ly1 = ceil(ly1 + 0.3)
    set yrange [10**ly0 : 10**ly1]
    set y2range [10**ly0 : 10**ly1]
    set lmargin at screen word(L, p) + 0
    set rmargin at screen word(R, p) + 0
    set title (p == 1 ? "each model on its own training-token count (models.csv: tokens)" : \
        sprintf("every model on the same %s tokens", count(fixed_tokens))) font "Sans,11" noenhanced
    unset label
    unset arrow
    do for [k = 1:words(refs)] {
        r = log10(word(refs, k) + 0)
        if (r > ly0 && r < ly1) {
            set arrow k from graph 0, first 10**r to graph 1, first 10**r nohead dt 2 \
                lc rgb "#999999" back
        }
    }
    if (gone ne "") {
        set label 1 (strlen(gone) < 60 ? "not feasible on any N:" . gone : \
            sprintf("%d models not feasible on any N (models.csv)", words(gone))) \
            at graph 0, graph -0.13 left font lfont tc rgb "#d62728" noenhanced
    }
    if (nok == 0) {
        set label 2 "no feasible configuration" at graph 0.5, graph 0.5 center font "Sans,14" \
            tc rgb "#d62728"
    }
    do for [i = 1:n] {
        PX[i] = (X[i] - lx0) / (lx1 - lx0) * pw
        PY[i] = (Y[i] - ly0) / (ly1 - ly0) * ph
    }
    # Label each point at the first candidate place clear of the frame, of
    # every other point and of the labels placed so far (else the first).
    nb = 0
    do for [i = 1:n] {
        if (OK[i]) {
            txt = sprintf("%s N=%s", word(names, i), word(nl, i))
            w = strlen(txt) * cw + 4
            px = PX[i]
            py = PY[i]
            # The nearest other point, when near: the label leans away from
            # it (the places on its far side are tried first).
            dx = 0
            dy = 0
            dmin = near
            do for [j = 1:n] {
                if (OK[j] && j != i) {
                    d = sqrt((px - PX[j])**2 + (py - PY[j])**2)
                    if (d < dmin) {
                        dmin = d
                        dx = px - PX[j]
                        dy = py - PY[j]
                    }
                }
            }
            found = 0
            do for [pass = 1:2] {
                do for [c = 1:nc] {
                    hx = word(HX, c) + 0
                    vy = word(VY, c) + 0
                    away = hx * dx + sgn(vy) * dy > 0 || (dx == 0 && dy == 0)
                    if ((pass == 1) == away) {
                        x0 = hx == 1 ? px + gap + pr : hx == -1 ? px - gap - pr - w : px - w / 2
                        y0 = vy == 0 ? py - lh / 2 : vy > 0 ? py + pr + gap + (vy - 1) * lh : \
                             py - pr - gap - lh + (vy + 1) * lh
                        good = x0 >= 2 && x0 + w <= pw - 2 && y0 >= 2 && y0 + lh <= ph - 2
                        do for [j = 1:n] {
                            if (good && OK[j] && j != i) {
                                good = !hit(x0, y0, w, lh, PX[j] - po, PY[j] - po, 2 * po, 2 * po)
                            }
                        }
                        do for [j = 1:nb] {
                            if (good) { good = !hit(x0, y0, w, lh, BX[j], BY[j], BW[j], BH[j]) }
                        }
                        if (good) {
                            found = c
                            break
                        }
                    }
                }
                if (found) { break }
            }
            if (!found) {
                found = 1
                x0 = px + gap + pr
                y0 = py - lh / 2
            }
            nb = nb + 1
            LI[nb] = i
            BX[nb] = x0
            BY[nb] = y0
            BW[nb] = w
            BH[nb] = lh
            set label 10 + i txt at graph (x0 + 2) / pw, graph (y0 + lh / 2) / ph left \
                font lfont noenhanced front boxed
            if ((word(VY, found) + 0) ** 2 >= 4) {
                set arrow 10 + i from graph px / pw, graph py / ph \
                    to graph (x0 + w / 2) / pw, graph (y0 + (py > y0 ? lh : 0)) / ph \
                    nohead lw 0.5 lc rgb "#888888"
            }
        }
    }
    if (exists("check_labels")) {
        set print check_labels append
        print sprintf("panel %d %.6g %.6g", p, pw, ph)
        do for [j = 1:nb] {
            print sprintf("label %d %d %.6g %.6g %.6g %.6g %.6g %.6g", p, LI[j], BX[j], BY[j], \
                BW[j], BH[j], PX[LI[j]], PY[LI[j]])
        }
        do for [i = 1:n] {
            if (OK[i]) { print sprintf("point %d %d %.6g %.6g", p, i, PX[i], PY[i]) }
        }
        set print
    }
    set print $pts
    do for [i = 1:n] {
        if (OK[i]) { print sprintf("%.17g %.17g", 10**X[i], 10**Y[i]) }
    }
    set print
    if (nok > 0) {
        plot $pts using 1:2 with points pt 7 ps 1.0 lc rgb "#1f77b4" notitle
    } else {
        plot NaN notitle
    }
}
unset multiplot
set output
