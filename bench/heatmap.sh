#!/usr/bin/env bash
# bench/heatmap.sh: side by side with the reference tools on this machine,
# on the recordings in ../shared/heatmap (run REPS times, default 20).
#  1. block I/O latency pairs from perf.data: scorch heatmap latency --pairs
#     against `perf script -F time,event,trace | awk` (the classic
#     pipeline); the pairs are compared.
#  2. scorch sched latency / timehist against perf sched latency /
#     timehist; the outputs are compared (perf's INFO line aside, as in
#     tests/t7504).
#  3. text mode: MB/s of PAIRS "time latency" lines to cells and SVG; with
#     HEATMAP_DIR (a checkout of brendangregg/HeatMap: trace2heatmap.pl is
#     not part of FlameGraph) also trace2heatmap.pl's time, and its drawn
#     cells compared with scorch --quirks's (every cell's time, range,
#     counts, colour and place).
#  4. sub-second cells from perf script text (COPIES copies of FlameScope's
#     test input): MB/s; the cells of one copy
#     of FlameScope's test input are compared with FlameScope's own
#     output (column and count of every cell; the row of a sample exactly
#     on a slice boundary differs on purpose, see scorch-heatmap(1)).
# Prints times (best of 3, CPU seconds) and ratios; exit 1 when an output
# differs (bench/lib.sh). Generated inputs go under /tmp.
#   HEATMAP_DIR=... REPS=20 PAIRS=3000000 COPIES=1500 bench/heatmap.sh [SCORCH]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
scorch=${1:-${SCORCH:-$root/build/scorch}}
shared=${SHARED:-$(cd "$root/.." && pwd)/shared}
work=${BENCH_DIR:-/tmp/scorch-bench-heatmap}
mkdir -p "$work"
[ -d "$shared/heatmap" ] || { echo "no $shared/heatmap (the reference corpus): nothing to run" >&2; exit 1; }
# trace2heatmap.pl from a checkout of https://github.com/brendangregg/HeatMap
t2h=${HEATMAP_DIR:+$HEATMAP_DIR/trace2heatmap.pl}
if [ -z "$t2h" ] || [ ! -f "$t2h" ]; then
	echo "# HEATMAP_DIR ${HEATMAP_DIR:+($HEATMAP_DIR) has no trace2heatmap.pl}${HEATMAP_DIR:-not set}: trace2heatmap.pl (Brendan Gregg's HeatMap repository, not FlameGraph) is not installed here; text heat maps are not compared" >&2
	t2h=
fi
# t2h_cells: the drawn cells of a trace2heatmap.pl SVG on stdin, as
# "time range count acc coltotal fill x y" lines, sorted
t2h_cells() {
	sed -n "s/.*<rect x=\"\([^\"]*\)\" y=\"\([^\"]*\)\".* fill=\"\([^\"]*\)\" onmouseover=\"s('\([^']*\)','\([^']*\)',\([0-9]*\),\([0-9]*\),\([0-9]*\)).*/\4 \5 \6 \7 \8 \3 \1 \2/p" | sort
}

# best CPU time (user+sys) of 3 runs of a shell command line
best() {
	local b= c
	for _ in 1 2 3; do
		/usr/bin/time -o "$work/t" -f '%U %S' bash -c "$1" > /dev/null 2>&1 || true
		c=$(awk '{ printf "%.3f", $1 + $2 }' "$work/t")
		if [ -z "$b" ] || awk -v a="$c" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$c; fi
	done
	echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "inf" }'; }

blk=$shared/heatmap/block.perf.data
reps=${REPS:-20}
PAIRS=${PAIRS:-3000000}
COPIES=${COPIES:-1500}
pairs_awk='{gsub(/:/,"")} $2~/issue/{ts[$3,$7]=$1} $2~/complete/{if(l=ts[$3,$6]){printf "%.f %.f\n",$1*1e6,($1-l)*1e6; delete ts[$3,$6]}}'
s=$(best "for i in \$(seq $reps); do '$scorch' heatmap latency --pairs '$blk'; done")
p=$(best "for i in \$(seq $reps); do perf script -i '$blk' -F time,event,trace 2>/dev/null | awk '{gsub(/:/,\"\")} \$2~/issue/{ts[\$3,\$7]=\$1} \$2~/complete/{if(l=ts[\$3,\$6]){printf \"%.f %.f\\n\",\$1*1e6,(\$1-l)*1e6; delete ts[\$3,\$6]}}'; done")
echo "block pairs ($reps x block.perf.data, 3000 pairs each): scorch ${s}s, perf script|awk ${p}s: scorch $(ratio "$s" "$p") faster"
perf script -i "$blk" -F time,event,trace 2>/dev/null | awk "$pairs_awk" > "$work/pairs.ref"
"$scorch" heatmap latency --pairs "$blk" > "$work/pairs.out" 2>/dev/null || true
compare "  pairs against perf script | awk" "$work/pairs.ref" "$work/pairs.out"
s=$(best "for i in \$(seq $reps); do '$scorch' heatmap latency '$blk'; done")
echo "block latency SVG ($reps x): scorch ${s}s (pairs + bucketing + SVG)"

sd=$shared/heatmap/sched/perf.data
s=$(best "for i in \$(seq $reps); do '$scorch' sched latency '$sd'; done")
p=$(best "for i in \$(seq $reps); do perf sched latency -i '$sd'; done")
echo "sched latency ($reps x sched/perf.data): scorch ${s}s, perf sched ${p}s: scorch $(ratio "$s" "$p") faster"
perf sched latency -i "$sd" 2>/dev/null | grep -v '^  INFO: ' > "$work/lat.ref" || true
{ "$scorch" sched latency "$sd" 2>/dev/null || true; } | grep -v '^  INFO: ' > "$work/lat.out" || true
compare "  against perf sched latency" "$work/lat.ref" "$work/lat.out"
s=$(best "for i in \$(seq $reps); do '$scorch' sched timehist '$sd'; done")
p=$(best "for i in \$(seq $reps); do perf sched timehist -i '$sd'; done")
echo "sched timehist ($reps x): scorch ${s}s, perf sched ${p}s: scorch $(ratio "$s" "$p") faster"
perf sched timehist -i "$sd" > "$work/th.ref" 2>/dev/null || true
"$scorch" sched timehist "$sd" > "$work/th.out" 2>/dev/null || true
compare "  against perf sched timehist" "$work/th.ref" "$work/th.out"

txt=$work/lat-$PAIRS.txt
[ -s "$txt" ] || awk -v n="$PAIRS" 'BEGIN { srand(1); for (i = 0; i < n; i++) printf "%d %d\n", 1000000000 + i * 20, int(rand() * rand() * 20000) }' > "$txt"
mb=$(awk -v b="$(stat -c %s "$txt")" 'BEGIN { printf "%.1f", b / 1048576 }')
s=$(best "'$scorch' heatmap latency --unitstime=us --cells '$txt'")
echo "text latency cells: ${mb} MB ($PAIRS pairs) in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"
s=$(best "'$scorch' heatmap latency --unitstime=us '$txt'")
echo "text latency SVG: ${mb} MB in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"
if [ -n "$t2h" ]; then
	p=$(best "perl '$t2h' --unitstime=us --unitslabel=us '$txt'")
	s=$(best "'$scorch' heatmap latency --unitstime=us --unitslabel=us --quirks '$txt'")
	echo "text latency SVG, trace2heatmap.pl ${p}s, scorch --quirks ${s}s: scorch $(ratio "$s" "$p") faster"
	perl "$t2h" --unitstime=us --unitslabel=us "$txt" 2>/dev/null | t2h_cells > "$work/t2h.ref"
	{ "$scorch" heatmap latency --unitstime=us --unitslabel=us --quirks --cells "$txt" 2>/dev/null || true; } |
		awk -F'\t' 'NR > 1 { print $6, $7, $3, $4, $5, $8, $9, $10 }' | sort > "$work/t2h.out"
	compare "  cells (--quirks) against trace2heatmap.pl's" "$work/t2h.ref" "$work/t2h.out"
fi

scr=$work/script-x$COPIES.txt
[ -s "$scr" ] || for i in $(seq "$COPIES"); do cat "$shared/heatmap/flamescope/perf.test01"; done > "$scr"
mb=$(awk -v b="$(stat -c %s "$scr")" 'BEGIN { printf "%.1f", b / 1048576 }')
s=$(best "'$scorch' heatmap subsecond --cells '$scr'")
echo "subsecond cells from perf script text: ${mb} MB in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"
s=$(best "'$scorch' heatmap subsecond '$scr'")
echo "subsecond HTML page: ${mb} MB in ${s}s"
fs=$shared/heatmap/flamescope
tail -n +2 "$fs/perf.test01.flamescope-rows50.cells.tsv" | cut -f1,5 > "$work/fs.ref"
{ "$scorch" heatmap subsecond --cells --rows 50 "$fs/perf.test01" 2>/dev/null || true; } | tail -n +2 | cut -f1,5 > "$work/fs.out"
compare "  perf.test01 cells (column, count) against FlameScope's" "$work/fs.ref" "$work/fs.out"
bench_exit
