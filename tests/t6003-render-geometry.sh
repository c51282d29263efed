# t6003: geometry parsed back from the SVG: widths proportional to counts,
# children inside parents, siblings apart, root total = input total.
if ! need python3; then skip "geometry checks" "python3 not installed"; return 0; fi
chk() { python3 "$ROOT/tests/browser/svgcheck.py" "$@"; }
base=$SHARED/inferno-tests/flamegraph/base/flames.txt
"$SCORCH" flame "$base" > base.svg 2>/dev/null
check "base: geometry and totals" chk base.svg "$base"
"$SCORCH" flame --inverted "$base" > inv.svg 2>/dev/null
check "inverted: geometry and totals" chk inv.svg --inverted "$base"
"$SCORCH" flame --minwidth 0 "$base" > all.svg 2>/dev/null
check "--minwidth 0: geometry and totals" chk all.svg "$base"
"$SCORCH" flame --width 300 --minwidth 5 "$base" > narrow.svg 2>/dev/null
check "--minwidth 5 on 300px: geometry and totals" chk narrow.svg "$base"
for c in "$SHARED"/corpus/*/stackcollapse.folded; do
	case_name=$(basename "$(dirname "$c")")
	"$SCORCH" flame "$c" > c.svg 2>/dev/null
	check "corpus $case_name: geometry and totals" chk c.svg "$c"
done
frac=$SHARED/inferno-tests/flamegraph/fractional-samples/fractional.txt
"$SCORCH" flame "$frac" > frac.svg 2>/dev/null
check "fractional counts: geometry and totals" chk frac.svg "$frac"
"$SCORCH" flame --flamechart "$SHARED/inferno-tests/flamegraph/flamechart/flames.txt" > fc.svg 2>/dev/null
check "flame chart: geometry and totals" chk fc.svg "$SHARED/inferno-tests/flamegraph/flamechart/flames.txt"

# a small exact case: 3 of 4 units under a, x at 3/4 of the width
printf 'a;b 2\na;c 1\nx 1\n' > s.folded
"$SCORCH" flame --width 420 s.folded > s.svg 2>/dev/null
check_grep "root spans 400px" '<title>all \(4 samples, 100%\)</title><rect x="10" y="[0-9.]+" width="400"' s.svg
check_grep "a is 300px wide" '<title>a \(3 samples, 75.00%\)</title><rect x="10" y="[0-9.]+" width="300"' s.svg
check_grep "x starts at 310" '<title>x \(1 samples, 25.00%\)</title><rect x="310" ' s.svg
check_grep "c after b within a" '<title>c \(1 samples, 25.00%\)</title><rect x="210" ' s.svg

# minwidth merges narrow frames into the parent's remainder, totals kept
{ echo "big;f 100000"; for i in $(seq 1 300); do echo "big;tiny$i 1"; done; } > m.folded
"$SCORCH" flame m.folded > m.svg 2>/dev/null
n=$(grep -c '<title>tiny' m.svg)
[ "$n" = 0 ] && pass "frames under --minwidth not drawn" || fail "$n tiny frames drawn"
check_grep "parent keeps the merged counts" '<title>big \(100,300 samples, 100.00%\)' m.svg
check "minwidth-merged graph: geometry and totals" chk m.svg m.folded
