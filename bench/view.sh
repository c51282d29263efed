#!/usr/bin/env bash
# bench/view.sh: size and speed of `scorch view` on a big generated
# profile (bench/view-gen.awk: STACKS distinct random stacks of MIN..MAX
# frames over NAMES names, as issue #15 describes), and, when chromium and
# tests/browser's playwright-core are there, the page in headless
# chromium (tests/browser/view-bench.js: load to first paint, decode,
# heap, interactions timed in the page). Then a real profile of >= 1M
# nodes when REAL (a perf.data; default /tmp/speed/full.data, a 129 MB
# system-wide recording) is there: folded per thread with inlined
# frames and source lines (fold --tid --inline --context --addrs, 1.1M
# nodes from that file), timed the same way, and the page of REAL itself
# (its sample rows and threads: a time range, thread picks). Not run by CI.
#   STACKS=200000 NAMES=3000 MIN=5 MAX=40 REAL=perf.data bench/view.sh [SCORCH]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
scorch=${1:-${SCORCH:-$root/build/scorch}}
STACKS=${STACKS:-200000} NAMES=${NAMES:-3000} MIN=${MIN:-5} MAX=${MAX:-40}
work=${BENCH_DIR:-/tmp/scorch-bench-view}
mkdir -p "$work"
in=$work/gen-$STACKS-$NAMES-$MIN-$MAX.folded
[ -s "$in" ] || awk -v STACKS="$STACKS" -v NAMES="$NAMES" -v MIN="$MIN" -v MAX="$MAX" \
	-f "$here/view-gen.awk" > "$in"
mb() { awk -v b="$(stat -L -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "input: $(mb "$in"), $(wc -l < "$in") stacks"
/usr/bin/time -f '%e s wall, %U s user, %M KB peak RSS' "$scorch" view "$in" -o "$work/page.html"
echo "page: $(mb "$work/page.html")"
browser=
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -d "$root/tests/browser/node_modules/playwright-core" ]; then
	browser=1
	node "$root/tests/browser/view-bench.js" "$work/page.html" "${RUNS:-3}"
else
	echo "# no chromium or playwright-core (tests/t6910 installs it): browser timings skipped"
fi
real=${REAL:-/tmp/speed/full.data}
if [ -r "$real" ]; then
	"$scorch" fold --tid --inline --context --addrs "$real" > "$work/real.folded" 2>/dev/null
	echo "real: $real, folded per thread with source lines: $(mb "$work/real.folded"), $(wc -l < "$work/real.folded") stacks"
	/usr/bin/time -f '%e s wall, %U s user, %M KB peak RSS' "$scorch" view "$work/real.folded" -o "$work/real.html"
	echo "page: $(mb "$work/real.html")"
	[ -z "$browser" ] || node "$root/tests/browser/view-bench.js" "$work/real.html" "${RUNS:-3}"
	# the recording itself: its samples and threads (a range, a thread pick)
	/usr/bin/time -f '%e s wall, %U s user, %M KB peak RSS' "$scorch" view "$real" -o "$work/samples.html" 2>&1 |
		grep -v 'warning: '
	echo "page with samples: $(mb "$work/samples.html")"
	[ -z "$browser" ] || node "$root/tests/browser/view-bench.js" "$work/samples.html" "${RUNS:-3}"
else
	echo "# no real recording at $real (REAL=perf.data): the real profile is skipped"
fi
