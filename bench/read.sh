#!/usr/bin/env bash
# bench/read.sh [FILE]: how fast scorch iterates all records of a large
# perf.data (decoding every sample), against perf on the same file.
# Not a test. Makes FILE (default /tmp/scorch-bench-read.data, >= 300 MB)
# with `perf record --call-graph dwarf` of a busy loop when it is missing,
# warms the page cache, then prints for each reader its wall and CPU time,
# the throughput in MB/s and the CPU-time ratio against scorch:
#   scorch dump --stats        every record framed, every sample decoded
#   perf report -D > /dev/null perf's raw dump
#   perf script > /dev/null    perf's sample printer (unwinds DWARF stacks)
# Environment: SCORCH (default ./scorch), MIN_MB (default 300),
# SKIP_SCRIPT=1 to leave out perf script (slow on DWARF data).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
SCORCH=${SCORCH:-$root/scorch}
file=${1:-/tmp/scorch-bench-read.data}
min_mb=${MIN_MB:-300}

size_mb() { echo $(( $(stat -c %s "$1") / 1048576 )); }

make_file() {
	local secs=4
	while :; do
		echo "recording $file (${secs}s of a busy loop, --call-graph dwarf)..." >&2
		perf record -q -F 4999 --call-graph dwarf,8192 -o "$file" -- \
			timeout "$secs" sh -c 'while :; do :; done' 2>/dev/null
		[ "$(size_mb "$file")" -ge "$min_mb" ] && return
		secs=$(( secs * (min_mb + 50) / ($(size_mb "$file") + 1) + 1 ))
	done
}

if [ ! -f "$file" ] || [ "$(size_mb "$file")" -lt "$min_mb" ]; then
	command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }
	make_file
fi
mb=$(size_mb "$file")
cat "$file" > /dev/null

# run NAME CMD...: prints "NAME wall user sys" (seconds)
run() {
	local name=$1 t; shift
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" > /dev/null 2>&1; } 2>&1 )
	echo "$name $t"
}

results=$(mktemp)
run scorch "$SCORCH" dump --stats "$file" >> "$results"
run scorch "$SCORCH" dump --stats "$file" >> "$results"   # second run, warm
run perf-report-D perf report -D -i "$file" >> "$results"
[ "${SKIP_SCRIPT:-0}" = 1 ] || run perf-script perf script -i "$file" >> "$results"

echo "file: $file ($mb MB)"
awk -v mb="$mb" '
	$1 == "scorch" { sw = $2; scpu = $3 + $4 }     # keep the warm run
	{ w[$1] = $2; cpu[$1] = $3 + $4; order[NR] = $1 }
	END {
		printf "%-16s %9s %9s %10s %12s\n", "reader", "wall s", "cpu s", "MB/s", "cpu/scorch"
		for (i = 2; i <= NR; i++) {
			n = order[i]
			printf "%-16s %9.2f %9.2f %10.0f %12.1f\n", n, w[n], cpu[n],
				mb / (w[n] > 0 ? w[n] : 0.001), cpu[n] / (scpu > 0 ? scpu : 0.001)
		}
	}' "$results"
rm -f "$results"
