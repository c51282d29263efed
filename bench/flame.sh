#!/usr/bin/env bash
# bench/flame.sh: folded -> SVG throughput of scorch flame (MB/s of folded
# input) next to flamegraph.pl, SVG size for a profile of UNIQUE unique
# stacks (bounded by --minwidth merging), scorch diff next to
# difffolded.pl, and the time a zoom click takes in headless chromium on
# the unique-stack graph.
# Outputs are compared (bench/lib.sh; exit 1 when they differ): every
# frame of scorch's SVG (name, samples, x, y, width) against flamegraph.pl's
# SVG of the same input, scorch diff's lines against difffolded.pl's.
# The Perl scripts come from FLAMEGRAPH_DIR; without it only scorch's
# numbers are printed and nothing is compared.
#   FLAMEGRAPH_DIR=... REPEAT=600 UNIQUE=1000000 [SKIP_BROWSER=1] bench/flame.sh [SCORCH]
# Inputs are generated under $BENCH_DIR (default /tmp/scorch-bench-flame,
# not the repo), one set per REPEAT and UNIQUE, and reused.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
scorch=${1:-${SCORCH:-$root/build/scorch}}
shared=${SHARED:-$(cd "$root/.." && pwd)/shared}
REPEAT=${REPEAT:-600}
UNIQUE=${UNIQUE:-1000000}
work=${BENCH_DIR:-/tmp/scorch-bench-flame}
mkdir -p "$work"
flamegraph=$(flamegraph_script flamegraph.pl) || flamegraph=
difffolded=$(flamegraph_script difffolded.pl) || difffolded=

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
# best wall time of N runs, in seconds; the CPU time (user+sys) of that
# run goes to $work/cpu.txt (the machine may be shared: CPU time is the
# steadier number)
best() {
	local n=$1 t c best=
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -o "$work/time.txt" -f '%e %U %S' "$@" > /dev/null 2>/dev/null || true
		read -r t u s < <(tail -1 "$work/time.txt")
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
			echo "$c" > "$work/cpu.txt"
		fi
	done
	echo "$best"
}
rate() { awk -v m="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.001; printf "%.0f", m / s }'; }

# 1. a real profile, repeated: sorted folded text as stackcollapse writes it
real=$work/real-x$REPEAT.folded
if [ ! -s "$real" ]; then
	for _ in $(seq 1 "$REPEAT"); do cat "$shared/inferno-tests/flamegraph/base/flames.txt"; done > "$real"
fi
# 2. UNIQUE unique stacks, depth 8..30, Zipf-like function choice
uniq=$work/unique$UNIQUE.folded
if [ ! -s "$uniq" ]; then
	awk -v n="$UNIQUE" 'BEGIN {
		srand(1)
		for (i = 0; i < n; i++) {
			d = 8 + int(rand() * 23); s = "main"
			for (k = 0; k < d; k++) {
				f = int(-log(1 - rand()) * (40 + k * 60)); if (f > 4999) f = 4999
				s = s ";func_" f "_" substr("xxxxxxxxxxxx", 1, f % 13)
			}
			print s, i + 1 + int(rand() * 1000)
		}
	}' > "$uniq"
fi

# 3. the same stacks sorted, as stackcollapse and scorch fold print them
sorted=$work/unique$UNIQUE-sorted.folded
[ -s "$sorted" ] || LC_ALL=C sort "$uniq" > "$sorted"

echo "scorch flame: folded -> SVG (best of 3)"
for f in "$real" "$uniq" "$sorted"; do
	s=$(best 3 "$scorch" flame "$f")
	c=$(cat "$work/cpu.txt") sc=$c
	"$scorch" flame "$f" > "$work/out.svg" 2>/dev/null || true
	frames=$(grep -c '><title>' "$work/out.svg" || true)
	printf '  %-26s %6s MB  wall %5s s = %5s MB/s  cpu %5s s = %5s MB/s  SVG %s MB, %s frames\n' \
		"$(basename "$f")" "$(mb "$f")" "$s" "$(rate "$(mb "$f")" "$s")" "$c" \
		"$(rate "$(mb "$f")" "$c")" "$(mb "$work/out.svg")" "$frames"
	cp "$work/out.svg" "$work/$(basename "$f" .folded).svg"
	[ -n "$flamegraph" ] || continue
	s=$(best 1 perl "$flamegraph" "$f")
	c=$(cat "$work/cpu.txt")
	perl "$flamegraph" "$f" > "$work/ref.svg" 2>/dev/null || true
	printf '  %-26s %6s MB  wall %5s s = %5s MB/s  cpu %5s s: %s less CPU for scorch\n' \
		"flamegraph.pl" "$(mb "$f")" "$s" "$(rate "$(mb "$f")" "$s")" "$c" \
		"$(awk -v a="$c" -v b="$sc" 'BEGIN { if (b <= 0) b = 0.01; printf "%.1fx", a / b }')"
	compare_frames "  frames of $(basename "$f")" "$work/ref.svg" "$work/$(basename "$f" .folded).svg"
done
/usr/bin/time -o "$work/time.txt" -f %M "$scorch" flame "$uniq" > /dev/null 2>/dev/null || true
rss=$(tail -1 "$work/time.txt")
echo "  peak memory on $UNIQUE unique stacks: $((rss / 1024)) MB"

echo "scorch diff: two profiles -> differential folded (best of 3)"
head -c 50000000 "$real" | sed '$d' > "$work/a.folded"
sed 's/ \([0-9]*\)$/ 1\1/' "$work/a.folded" > "$work/b.folded"
s=$(best 3 "$scorch" diff "$work/a.folded" "$work/b.folded")
c=$(cat "$work/cpu.txt")
in=$(awk -v a="$(mb "$work/a.folded")" -v b="$(mb "$work/b.folded")" 'BEGIN { print a + b }')
printf '  %s MB in  wall %s s = %s MB/s  cpu %s s = %s MB/s\n' "$in" "$s" "$(rate "$in" "$s")" \
	"$c" "$(rate "$in" "$c")"
if [ -n "$difffolded" ]; then
	s=$(best 1 perl "$difffolded" "$work/a.folded" "$work/b.folded")
	printf '  difffolded.pl: wall %s s, cpu %s s\n' "$s" "$(cat "$work/cpu.txt")"
	# difffolded.pl prints in Perl's hash order: both sorted
	perl "$difffolded" "$work/a.folded" "$work/b.folded" 2>/dev/null | LC_ALL=C sort > "$work/diff.ref"
	"$scorch" diff "$work/a.folded" "$work/b.folded" 2>/dev/null | LC_ALL=C sort > "$work/diff.out" || true
	compare "  scorch diff against difffolded.pl (sorted)" "$work/diff.ref" "$work/diff.out"
fi

if [ "${SKIP_BROWSER:-0}" = 1 ]; then
	echo "browser: skipped (SKIP_BROWSER=1)"
elif [ -x /usr/bin/chromium ] && command -v node > /dev/null &&
   [ -d "$root/tests/browser/node_modules/playwright-core" ]; then
	echo "browser (headless chromium): zoom click on the $UNIQUE-unique-stack graph"
	node "$root/tests/browser/flame-browser.js" bench "$work/unique$UNIQUE.svg" | sed 's/^/  /'
	echo "browser: same, on the real profile drawn with --minwidth 0"
	"$scorch" flame --minwidth 0 "$real" > "$work/real-all.svg"
	node "$root/tests/browser/flame-browser.js" bench "$work/real-all.svg" | sed 's/^/  /'
else
	echo "browser: skipped (needs /usr/bin/chromium, node and tests/browser/node_modules:"
	echo "  run tests/t6901 once, or npm install playwright-core in tests/browser)"
fi
bench_exit
