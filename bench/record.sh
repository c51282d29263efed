#!/usr/bin/env bash
# bench/record.sh: overhead of `scorch record` next to `perf record`.
# A fixed-work CPU workload (so slower means overhead, unlike work.c which
# spins on the clock) runs bare, under perf record and under scorch record
# at the same frequency and call-graph mode. The workload measures the CPU
# time of its own work (the recorders' start-up and post-processing are
# not the workload's slowdown, and on a shared machine wall time mostly
# measures the other jobs); sampling costs show up there, as the sample
# interrupts and call-chain walks are charged to the sampled task. We
# print the median of each, the slowdown over bare, the ratio
# scorch/perf of the slowdowns, and the file sizes (total and per sample).
# The outputs differ by nature (two recordings), so what is compared is
# what they hold: perf's reading of scorch's file (perf script, folded
# by stackcollapse-perf.pl from FLAMEGRAPH_DIR, else by scorch's text
# path, saying so) against scorch fold of the same file; exit 1 when the
# stacks differ (bench/lib.sh).
#   WORK_MS=1000 bench/record.sh [REPEATS]   (default 3; SCORCH=path,
#                                             default ./scorch)
# Large files go to a temporary directory under /tmp, removed at the end.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
collapse=$(flamegraph_script stackcollapse-perf.pl) || collapse=
SCORCH=${SCORCH:-$root/scorch}
reps=${1:-3}
tmp=$(mktemp -d /tmp/scorch-bench-record.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp   # keep the build-id caches out of ~/.debug

cat > "$tmp/fixed.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) long work(int rounds) { long s = 0; for (int i = 0; i < rounds; i++) s += fib(27); return s; }
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(int argc, char **argv) { double a = now(); long r = work(argc > 1 ? atoi(argv[1]) : 60); printf("%.0f %ld\n", now() - a, r); return 0; }
C
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$tmp/fixed" "$tmp/fixed.c" || exit 1
# about WORK_MS (default 1000) ms of work
rounds=60
ms=$("$tmp/fixed" $rounds | awk '{print $1}')
[ "$ms" -gt 0 ] && rounds=$(( rounds * ${WORK_MS:-1000} / ms + 1 ))

# the workload's own CPU time in ms, for one run of "$@"
wall() {
	"$@" 2> /dev/null | awk 'NR == 1 {print $1}'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
samples() { perf report --stats -i "$1" 2> /dev/null | awk '/SAMPLE events:/ { print $3; exit }'; }

printf '%-22s %8s %8s %8s %9s %9s %11s %11s %8s\n' mode bare_cpu perf_cpu scorch_cpu perf_slow scorch_slow perf_KB scorch_KB size_r
for mode in "-F 997 -g" "-F 4000 -g" "-F 997 --call-graph dwarf"; do
	bare=() perf=() ours=()
	for i in $(seq "$reps"); do
		bare+=("$(wall "$tmp/fixed" $rounds)")
		perf+=("$(wall perf record -q $mode -o "$tmp/perf.data" -- "$tmp/fixed" $rounds)")
		ours+=("$(wall "$SCORCH" record -q $mode -o "$tmp/scorch.data" -- "$tmp/fixed" $rounds)")
	done
	b=$(printf '%s\n' "${bare[@]}" | median)
	p=$(printf '%s\n' "${perf[@]}" | median)
	s=$(printf '%s\n' "${ours[@]}" | median)
	ps=$(stat -c %s "$tmp/perf.data"); ss=$(stat -c %s "$tmp/scorch.data")
	pn=$(samples "$tmp/perf.data"); sn=$(samples "$tmp/scorch.data")
	awk -v m="$mode" -v b="$b" -v p="$p" -v s="$s" -v ps="$ps" -v ss="$ss" -v pn="${pn:-1}" -v sn="${sn:-1}" 'BEGIN {
		printf "%-22s %8d %8d %8d %8.1f%% %8.1f%% %11.1f %11.1f %8.3f\n", m, b, p, s,
			100 * (p - b) / b, 100 * (s - b) / b, ps / 1024, ss / 1024, ss / ps
		printf "%-22s bytes/sample perf %.0f scorch %.0f (ratio %.3f); slowdown ratio scorch/perf %.2f\n", "",
			ps / pn, ss / sn, (ss / sn) / (ps / pn), (p - b > 0 ? (s - b) / (p - b) : 0)
	}'
	perf script -i "$tmp/scorch.data" > "$tmp/ps.txt" 2> /dev/null
	if [ -n "$collapse" ]; then
		perl "$collapse" "$tmp/ps.txt" > "$tmp/ref.folded" 2> /dev/null; how="stackcollapse-perf.pl"
	else
		"$SCORCH" fold --format=perf-script "$tmp/ps.txt" > "$tmp/ref.folded" 2> /dev/null; how="scorch fold"
	fi
	"$SCORCH" fold "$tmp/scorch.data" > "$tmp/out.folded" 2> /dev/null
	if [ -s "$tmp/ref.folded" ]; then
		compare "$(printf '%-22s' "")scorch's file: scorch fold against perf script | $how" "$tmp/ref.folded" "$tmp/out.folded"
	else
		echo "$(printf '%-22s' "")scorch's file: perf script read no sample"; bench_status=1
	fi
done
bench_exit
