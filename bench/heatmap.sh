#!/usr/bin/env bash
# bench/heatmap.sh: side by side with the reference tools on this machine.
#  1. block I/O latency pairs from perf.data: scorch heatmap latency --pairs
#     against `perf script -F time,event,trace | awk` (the classic
#     pipeline; trace2heatmap.pl is not installed, so its drawing is not
#     timed) on block.perf.data concatenated into a bigger recording by
#     re-recording is not possible, so the shared file is run N times.
#  2. scorch sched latency / timehist against perf sched latency / timehist.
#  3. text mode: MB/s of "time latency" lines to cells (no reference).
#  4. sub-second cells from perf script text: MB/s (no reference).
# Prints times (best of 3, CPU seconds) and ratios. Generated inputs go
# under /tmp.   bench/heatmap.sh [SCORCH]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
scorch=${1:-${SCORCH:-$root/build/scorch}}
shared=${SHARED:-$(cd "$root/.." && pwd)/shared}
work=${BENCH_DIR:-/tmp/scorch-bench-heatmap}
mkdir -p "$work"

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
reps=20
s=$(best "for i in \$(seq $reps); do '$scorch' heatmap latency --pairs '$blk'; done")
p=$(best "for i in \$(seq $reps); do perf script -i '$blk' -F time,event,trace 2>/dev/null | awk '{gsub(/:/,\"\")} \$2~/issue/{ts[\$3,\$7]=\$1} \$2~/complete/{if(l=ts[\$3,\$6]){printf \"%.f %.f\\n\",\$1*1e6,(\$1-l)*1e6; delete ts[\$3,\$6]}}'; done")
echo "block pairs ($reps x block.perf.data, 3000 pairs each): scorch ${s}s, perf script|awk ${p}s: scorch $(ratio "$s" "$p") faster"
s=$(best "for i in \$(seq $reps); do '$scorch' heatmap latency '$blk'; done")
echo "block latency SVG ($reps x): scorch ${s}s (pairs + bucketing + SVG)"

sd=$shared/heatmap/sched/perf.data
s=$(best "for i in \$(seq $reps); do '$scorch' sched latency '$sd'; done")
p=$(best "for i in \$(seq $reps); do perf sched latency -i '$sd'; done")
echo "sched latency ($reps x sched/perf.data): scorch ${s}s, perf sched ${p}s: scorch $(ratio "$s" "$p") faster"
s=$(best "for i in \$(seq $reps); do '$scorch' sched timehist '$sd'; done")
p=$(best "for i in \$(seq $reps); do perf sched timehist -i '$sd'; done")
echo "sched timehist ($reps x): scorch ${s}s, perf sched ${p}s: scorch $(ratio "$s" "$p") faster"

txt=$work/lat.txt
[ -s "$txt" ] || awk 'BEGIN { srand(1); for (i = 0; i < 3000000; i++) printf "%d %d\n", 1000000000 + i * 20, int(rand() * rand() * 20000) }' > "$txt"
mb=$(awk -v b="$(stat -c %s "$txt")" 'BEGIN { printf "%.1f", b / 1048576 }')
s=$(best "'$scorch' heatmap latency --unitstime=us --cells '$txt'")
echo "text latency cells: ${mb} MB (3M pairs) in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"
s=$(best "'$scorch' heatmap latency --unitstime=us '$txt'")
echo "text latency SVG: ${mb} MB in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"

scr=$work/script.txt
[ -s "$scr" ] || for i in $(seq 1500); do cat "$shared/heatmap/flamescope/perf.test01"; done > "$scr"
mb=$(awk -v b="$(stat -c %s "$scr")" 'BEGIN { printf "%.1f", b / 1048576 }')
s=$(best "'$scorch' heatmap subsecond --cells '$scr'")
echo "subsecond cells from perf script text: ${mb} MB in ${s}s: $(awk -v m="$mb" -v s="$s" 'BEGIN { printf "%.0f", m / s }') MB/s"
s=$(best "'$scorch' heatmap subsecond '$scr'")
echo "subsecond HTML page: ${mb} MB in ${s}s"
