#!/usr/bin/env bash
# bench/read.sh: how fast scorch iterates all records of large perf.data
# files (every record framed, every sample decoded: `scorch dump --stats`),
# against perf doing the same work: `perf report --stats` (reads every
# record and counts them by type). The counts are compared (bench/lib.sh:
# exit 1 when they differ).
#
# Two inputs, made under /tmp when missing (>= MIN_MB, default 300 MB):
#   dwarf  perf record --call-graph dwarf of a busy loop: ~8 KB samples
#   small  perf record -g -o - (pipe mode) of a busy loop, the record
#          stream repeated: ~80-byte samples, millions of records
# For each: wall and CPU seconds, MB/s, and perf report --stats' CPU time
# relative to scorch's. For scale, not as a ratio (they do more: print
# every record, or resolve and unwind every sample), the times of
#   perf report -D > /dev/null   perf's raw dump
#   perf script > /dev/null      perf's sample printer
# Environment: SCORCH (default ./scorch), MIN_MB, SKIP_SCRIPT=1 (perf script
# and perf report -D are slow), SKIP_PERF=1 (scorch only, nothing compared).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
SCORCH=${SCORCH:-$root/scorch}
min_mb=${MIN_MB:-300}
dwarf=/tmp/scorch-bench-read-dwarf.data
small=/tmp/scorch-bench-read-small.data

size_mb() { echo $(( $(stat -c %s "$1") / 1048576 )); }
busy() { timeout "$1" sh -c 'while :; do :; done'; }

make_dwarf() {
	local secs=4
	while :; do
		echo "recording $dwarf (${secs}s, --call-graph dwarf)..." >&2
		perf record -q -F 4999 --call-graph dwarf,8192 -o "$dwarf" -- \
			timeout "$secs" sh -c 'while :; do :; done' 2>/dev/null
		[ "$(size_mb "$dwarf")" -ge "$min_mb" ] && return
		secs=$(( secs * (min_mb + 50) / ($(size_mb "$dwarf") + 1) + 1 ))
	done
}

make_small() {
	local one=/tmp/scorch-bench-read-one.pipe n
	echo "recording $small (3s, -g, pipe mode, repeated)..." >&2
	perf record -q -o - -F 20000 -g -- timeout 3 sh -c 'while :; do :; done' \
		> "$one" 2>/dev/null
	n=$(( min_mb * 1048576 / ($(stat -c %s "$one") - 16) + 1 ))
	{ head -c 16 "$one"; for _ in $(seq "$n"); do tail -c +17 "$one"; done; } > "$small"
	rm -f "$one"
}

command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }
[ -f "$dwarf" ] && [ "$(size_mb "$dwarf")" -ge "$min_mb" ] || make_dwarf
[ -f "$small" ] && [ "$(size_mb "$small")" -ge "$min_mb" ] || make_small

# run NAME CMD...: prints "NAME wall user sys" (seconds)
run() {
	local name=$1 t; shift
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" > /dev/null 2>&1; } 2>&1 )
	echo "$name $t"
}

# counts FILE: "TYPE count" lines of perf report --stats' aggregated table
perf_counts() {
	perf report --stats -i "$1" 2> /dev/null | awk '/^Aggregated stats:/ { on = 1; next }
		on && / stats:$/ { exit } on && / events: / { sub(/^ */, ""); print $1, $3 }' | sort
}
# scorch names the user records as the kernel headers do (HEADER_ATTR),
# perf without the prefix (ATTR)
scorch_counts() {
	"$SCORCH" dump --stats "$1" 2> /dev/null | awk '/^records: / { print "TOTAL", $2; next }
		/^  [A-Z0-9_]+ +[0-9]+$/ { sub(/^HEADER_/, "", $1); print $1, $2 }' | sort
}

bench() {
	local label=$1 file=$2 results
	results=$(mktemp)
	cat "$file" > /dev/null
	run scorch "$SCORCH" dump --stats "$file" > /dev/null   # warm-up
	run scorch "$SCORCH" dump --stats "$file" >> "$results"
	if [ "${SKIP_PERF:-0}" != 1 ]; then
		run "perf-report-stats" perf report --stats -i "$file" >> "$results"
		if [ "${SKIP_SCRIPT:-0}" != 1 ]; then
			run "perf-report-D" perf report -D -i "$file" >> "$results"
			run "perf-script" perf script -i "$file" >> "$results"
		fi
	fi
	local records
	records=$("$SCORCH" dump --stats "$file" | sed -n 's/^records: //p')
	echo "== $label: $file ($(size_mb "$file") MB, $records records)"
	awk -v mb="$(size_mb "$file")" '
		NR == 1 { scpu = $3 + $4 }
		{ cpu = $3 + $4
		  printf "%-18s wall %7.2f s  cpu %7.2f s  %7.0f MB/s wall  %7.0f MB/s cpu", $1, $2, cpu,
			mb / ($2 > 0 ? $2 : 0.001), mb / (cpu > 0 ? cpu : 0.001)
		  if ($1 == "perf-report-stats") printf "  cpu x%.1f of scorch", cpu / (scpu > 0 ? scpu : 0.001)
		  else if ($1 != "scorch") printf "  (more work: for scale)"
		  print "" }' "$results"
	rm -f "$results"
	if [ "${SKIP_PERF:-0}" != 1 ]; then
		perf_counts "$file" > "$file.perf-counts"
		scorch_counts "$file" > "$file.scorch-counts"
		compare "records per type against perf report --stats" "$file.perf-counts" "$file.scorch-counts"
		rm -f "$file.perf-counts" "$file.scorch-counts"
	fi
}

bench "DWARF samples" "$dwarf"
bench "small fp samples" "$small"
bench_exit
