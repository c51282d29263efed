#!/usr/bin/env bash
# bench/fold-perfdata.sh [FILE]: scorch's perf.data commands against perf
# on one large frame-pointer recording, side by side in one run.
# Makes FILE (default /tmp/scorch-bench-fp.data, >= MIN_MB, default 50 MB)
# with `perf record -g` of the workload tests/workloads/work.c (built
# frame-pointer) when missing, warms the page cache, then prints for each
# command its CPU time (user+sys), peak RSS and the ratio of perf's CPU
# time to scorch's:
#   scorch fold perf.data        vs  perf script > /dev/null   (goal >= 10x)
#   scorch fold perf.data        vs  perf report -g folded     (goal >= 5x)
#   scorch script perf.data      vs  perf script               (goal >= 5x)
# and compares the outputs (bench/lib.sh; exit 1 when one differs):
#   scorch script  against perf script's text;
#   scorch fold    against perf script | stackcollapse-perf.pl (from
#                  FLAMEGRAPH_DIR; without it, against scorch fold of perf
#                  script's text, the collapser the tests prove identical
#                  to stackcollapse-perf.pl, and it says so).
# perf report -g folded prints perf's own form (percentages, no process
# names): timed only.
# Environment: SCORCH (default ./scorch), MIN_MB, FLAMEGRAPH_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
SCORCH=${SCORCH:-$root/scorch}
file=${1:-/tmp/scorch-bench-fp.data}
min_mb=${MIN_MB:-50}
cache=$file.buildid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

size_mb() { echo $(( $(stat -c %s "$1") / 1048576 )); }

make_file() {
	gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
		-o "$work/work_fp" "$root/tests/workloads/work.c" || exit 1
	local secs=6
	while :; do
		echo "recording $file (work_fp $secs s at 20 kHz, -g)..." >&2
		rm -rf "$cache"
		perf --buildid-dir "$cache" record -q -e cpu-clock -c 50000 -g \
			-o "$file" "$work/work_fp" "$secs" > /dev/null 2>&1
		[ "$(size_mb "$file")" -ge "$min_mb" ] && return
		secs=$(( secs * (min_mb + 10) / ($(size_mb "$file") + 1) + 1 ))
	done
}

if [ ! -f "$file" ] || [ ! -d "$cache" ] || [ "$(size_mb "$file")" -lt "$min_mb" ]; then
	command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }
	make_file
fi
cat "$file" > /dev/null
echo "file: $file ($(size_mb "$file") MB)"

# run NAME OUT CMD...: prints "NAME cpu-seconds peak-KB"
run() {
	local name=$1 out=$2; shift 2
	/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" > "$out" 2> /dev/null
	awk -v n="$name" '{ printf "%-22s %8.2f s CPU %9d KB peak RSS\n", n, $1 + $2, $3 }' "$work/t"
	awk '{ print $1 + $2 }' "$work/t" > "$work/cpu.$name"
}

run scorch-fold "$work/fold.out" "$SCORCH" fold --buildid-dir "$cache" "$file"
run scorch-script "$work/script.out" "$SCORCH" script --buildid-dir "$cache" "$file"
run perf-script "$work/perf.out" perf --buildid-dir "$cache" script -i "$file"
run perf-report-folded /dev/null perf --buildid-dir "$cache" report -i "$file" --stdio -g folded
ratio() { awk -v a="$(cat "$work/cpu.$1")" -v b="$(cat "$work/cpu.$2")" \
	'BEGIN { if (a <= 0) a = 0.01; printf "%.1fx", b / a }'; }
echo
echo "perf script / scorch fold CPU:        $(ratio scorch-fold perf-script) (goal >= 10x)"
echo "perf report -g folded / scorch fold:  $(ratio scorch-fold perf-report-folded) (goal >= 5x)"
echo "perf script / scorch script CPU:      $(ratio scorch-script perf-script) (goal >= 5x)"
compare "scorch script against perf script" "$work/perf.out" "$work/script.out"
if collapse=$(flamegraph_script stackcollapse-perf.pl); then
	perl "$collapse" "$work/perf.out" > "$work/ref.folded" 2>/dev/null
	compare "scorch fold perf.data against perf script | stackcollapse-perf.pl" "$work/ref.folded" "$work/fold.out"
else
	"$SCORCH" fold --format=perf-script "$work/perf.out" > "$work/ref.folded" 2>/dev/null
	compare "scorch fold perf.data against perf script | scorch fold (no stackcollapse-perf.pl)" "$work/ref.folded" "$work/fold.out"
fi
bench_exit
