#!/usr/bin/env bash
# bench/view.sh: size and speed of `scorch view` on a big generated
# profile (bench/view-gen.awk: STACKS distinct random stacks of MIN..MAX
# frames over NAMES names, as issue #15 describes), and, when chromium and
# tests/browser's playwright-core are there, the page in headless
# chromium (tests/browser/view-bench.js: load to first paint, decode,
# heap, interactions timed in the page). Not run by CI.
#   STACKS=200000 NAMES=3000 MIN=5 MAX=40 bench/view.sh [SCORCH]
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
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -d "$root/tests/browser/node_modules/playwright-core" ]; then
	node "$root/tests/browser/view-bench.js" "$work/page.html" "${RUNS:-3}"
else
	echo "# no chromium or playwright-core (tests/t6910 installs it): browser timings skipped"
fi
