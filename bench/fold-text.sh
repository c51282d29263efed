#!/usr/bin/env bash
# bench/fold-text.sh: speed and memory of `scorch fold` on perf script text,
# next to FlameGraph's stackcollapse-perf.pl, the script it replaces.
#   1. FlameGraph's example-perf-stacks.txt.gz, decompressed and repeated
#      to ~MB megabytes (default 300);
#   2. `perf script` of a system-wide recording made here
#      (perf record -a -g -F 999 -- sleep SECS), repeated to ~MB megabytes.
# Prints MB/s (wall clock and CPU time, best of RUNS) and peak RSS for each,
# one thread and --jobs 2, and stackcollapse-perf.pl's time (one run) from
# FLAMEGRAPH_DIR. Every output of scorch fold is compared with
# stackcollapse-perf.pl's (bench/lib.sh): exit 1 when one differs. Without
# FLAMEGRAPH_DIR (the Perl scripts are not installed here) the figures are
# absolute and only --jobs 2 is compared with one thread.
# Generated inputs live under $BENCH_DIR (default /tmp/scorch-bench-fold)
# and are reused by later runs.
# Each reference line is followed by the ratio of stackcollapse-perf.pl's
# CPU time to scorch's (one thread). INPUT=FILE benches that perf script
# text as it is (e.g. of a recording made elsewhere) instead of the two
# generated inputs. FLAMEGRAPH (or FLAMEGRAPH_DIR) names the checkout.
#   FLAMEGRAPH_DIR=... SCORCH=path MB=300 SECS=10 RUNS=3 bash bench/fold-text.sh
#   INPUT=/tmp/script.out FLAMEGRAPH=/tmp/FlameGraph bash bench/fold-text.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
SCORCH=${SCORCH:-$root/build/scorch}
SHARED=${SHARED:-$(cd "$root/.." && pwd)/shared}
MB=${MB:-300}
SECS=${SECS:-10}
RUNS=${RUNS:-3}
dir=${BENCH_DIR:-/tmp/scorch-bench-fold}
mkdir -p "$dir"
FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-${FLAMEGRAPH:-}}
collapse=$(flamegraph_script stackcollapse-perf.pl) || collapse=

# repeat FILE into OUT until OUT has about MB megabytes
repeat_to() {
	local in=$1 out=$2 size n
	size=$(stat -c %s "$in")
	n=$(( MB * 1000000 / size + 1 ))
	: > "$out.tmp"
	for _ in $(seq "$n"); do cat "$in"; done >> "$out.tmp"
	mv "$out.tmp" "$out"
}

example=$dir/example-${MB}mb.txt
if [ -z "${INPUT:-}" ] && [ ! -s "$example" ]; then
	# FlameGraph's file: from the reference corpus, else from the checkout
	gz=$SHARED/flamegraph-tests/example-perf-stacks.txt.gz
	[ -f "$gz" ] || gz=${FLAMEGRAPH_DIR:-.}/example-perf-stacks.txt.gz
	zcat "$gz" > "$dir/example.txt"
	repeat_to "$dir/example.txt" "$example"
fi

system=$dir/system-${MB}mb.txt
if [ -z "${INPUT:-}" ] && [ ! -s "$system" ]; then
	if perf record -a -g -F 999 -o "$dir/system.data" -- sleep "$SECS" > /dev/null 2>&1 &&
		perf script -i "$dir/system.data" > "$dir/system.txt" 2> /dev/null &&
		[ -s "$dir/system.txt" ]; then
		repeat_to "$dir/system.txt" "$system"
	else
		echo "# perf record -a failed (permissions?); system-wide input skipped" >&2
		system=
	fi
fi

# run NAME FILE [OPTIONS]: best wall and CPU (user+sys) time of RUNS, peak RSS, MB/s.
# CPU MB/s is what one thread does when the machine is shared.
run() {
	local name=$1 file=$2 best= cbest= rss=0 t u s r c
	shift 2
	local bytes; bytes=$(stat -c %s "$file")
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" "$SCORCH" fold "$@" "$file" > "$dir/out.folded" 2> /dev/null || true
		read -r t u s r < "$dir/time.txt"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
		if [ -z "$cbest" ] || awk -v a="$c" -v b="$cbest" 'BEGIN { exit !(a < b) }'; then cbest=$c; fi
		[ "$r" -gt "$rss" ] && rss=$r
	done
	awk -v n="$name" -v b="$bytes" -v t="$best" -v c="$cbest" -v r="$rss" -v s="$(wc -l < "$dir/out.folded")" \
		'BEGIN { if (t < 0.01) t = 0.01; if (c < 0.01) c = 0.01;
			 printf "%-26s %6.1f MB  wall %5.2f s %7.1f MB/s  cpu %5.2f s %7.1f MB/s  peak RSS %5.1f MB  %d stacks\n",
			 n, b / 1e6, t, b / 1e6 / t, c, b / 1e6 / c, r / 1024, s }'
	last_cpu=$cbest
}

# reference NAME FILE: stackcollapse-perf.pl's time (one run) and output,
# compared with scorch's last output ($dir/out.folded)
reference() {
	cp "$dir/out.folded" "$dir/scorch.folded"
	if [ -z "$collapse" ]; then
		[ -s "$dir/one.folded" ] && compare "  --jobs 2 against one thread (no reference)" "$dir/one.folded" "$dir/scorch.folded"
		cp "$dir/scorch.folded" "$dir/one.folded"
		return 0
	fi
	[ -s "$dir/ref-$(basename "$2").folded" ] || {
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" perl "$collapse" "$2" > "$dir/ref-$(basename "$2").folded" 2> /dev/null
		read -r t u s r < "$dir/time.txt"
		ref_cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		awk -v n="stackcollapse-perf.pl" -v b="$(stat -c %s "$2")" -v t="$t" -v c="$ref_cpu" -v r="$r" \
			'BEGIN { if (t < 0.01) t = 0.01; if (c < 0.01) c = 0.01;
				 printf "%-26s %6.1f MB  wall %5.2f s %7.1f MB/s  cpu %5.2f s %7.1f MB/s  peak RSS %5.1f MB\n",
				 n, b / 1e6, t, b / 1e6 / t, c, b / 1e6 / c, r / 1024 }'
	}
	awk -v a="$ref_cpu" -v b="$last_cpu" -v w="$1" \
		'BEGIN { if (b < 0.01) b = 0.01; printf "  %s: %.1fx stackcollapse-perf.pl (CPU time)\n", w, a / b }'
	compare "  $1 against stackcollapse-perf.pl" "$dir/ref-$(basename "$2").folded" "$dir/scorch.folded"
}

last_cpu=0 ref_cpu=0
if [ -n "${INPUT:-}" ]; then
	echo "# scorch fold on $INPUT, best of $RUNS (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	rm -f "$dir/ref-$(basename "$INPUT").folded" "$dir/one.folded"
	run "$(basename "$INPUT")" "$INPUT" --jobs 1; reference "scorch fold" "$INPUT"
	run "$(basename "$INPUT"), --jobs 2" "$INPUT" --jobs 2; reference "scorch fold --jobs 2" "$INPUT"
	bench_exit
fi

echo "# scorch fold, perf script text, one thread unless --jobs (best of $RUNS; load: $(cut -d' ' -f1-3 /proc/loadavg))"
rm -f "$dir"/ref-*.folded "$dir/one.folded"
run "example-perf-stacks x N" "$example"; reference "scorch fold" "$example"
run "example, --jobs 2" "$example" --jobs 2; reference "scorch fold --jobs 2" "$example"
if [ -n "$system" ]; then
	rm -f "$dir/one.folded"
	run "system-wide recording x N" "$system"; reference "scorch fold" "$system"
	run "system-wide, --jobs 2" "$system" --jobs 2; reference "scorch fold --jobs 2" "$system"
fi
# side by side with what produces the text: perf script of the recording
# (different work: perf script reads perf.data and prints the text that
# scorch fold then folds; not a comparison of equals)
if [ -n "$system" ] && [ -s "$dir/system.data" ]; then
	/usr/bin/time -f '%e %U %S' -o "$dir/time.txt" perf script -i "$dir/system.data" > "$dir/ps.txt" 2> /dev/null
	read -r t u s < "$dir/time.txt"
	/usr/bin/time -f '%e %U %S' -o "$dir/time2.txt" "$SCORCH" fold "$dir/ps.txt" > /dev/null 2>&1
	read -r t2 u2 s2 < "$dir/time2.txt"
	awk -v b="$(stat -c %s "$dir/ps.txt")" -v c1="$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" \
		-v c2="$(awk -v u="$u2" -v s="$s2" 'BEGIN { print u + s }')" \
		'BEGIN { if (c1 < 0.01) c1 = 0.01; if (c2 < 0.01) c2 = 0.01;
			 printf "%-26s %6.1f MB  perf script cpu %5.2f s, scorch fold cpu %5.2f s: fold is %.0fx faster than the text it reads is made\n",
			 "perf script vs fold", b / 1e6, c1, c2, c1 / c2 }'
fi
# from a pipe, as in perf script | scorch fold
t0=$(date +%s.%N)
cat "$example" | "$SCORCH" fold > "$dir/out.folded" 2> /dev/null || true
t1=$(date +%s.%N)
awk -v b="$(stat -c %s "$example")" -v a="$t0" -v c="$t1" \
	'BEGIN { printf "%-28s %7.1f MB  %6.2f s  %7.1f MB/s\n", "example via a pipe", b / 1e6, c - a, b / 1e6 / (c - a) }'
[ -z "$collapse" ] || compare "  scorch fold from a pipe against stackcollapse-perf.pl" "$dir/ref-$(basename "$example").folded" "$dir/out.folded"
bench_exit
