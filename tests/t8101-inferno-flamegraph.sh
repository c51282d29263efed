# t8101: inferno's flame graph test inputs (data only; the SVGs are ours):
# each folder fed with the options its name stands for; every output is
# well-formed and its geometry checks out.
I=$SHARED/inferno-tests/flamegraph
have_xml=0; need xmllint && have_xml=1
have_py=0; need python3 && have_py=1
wellformed() {
	if [ $have_xml = 1 ]; then check "$1: well-formed" xmllint --noout "$2"; fi
}
geometry() {
	if [ $have_py = 1 ]; then check "$1: geometry" python3 "$ROOT/tests/browser/svgcheck.py" "${@:2}"; fi
}
run() { "$SCORCH" flame "$@" 2>err.txt; }

run --colors python "$I/austin/flames.txt" > austin.svg
wellformed "austin (python palette)" austin.svg
[ ! -s err.txt ] && pass "austin: '#' metadata lines ignored silently" || fail "austin warned" "$(cat err.txt)"
check_grep "austin: frozen importlib frames yellow (stdlib)" '&lt;frozen importlib._bootstrap&gt;:_find_and_load:1007 \([^)]*\)</title><rect [^>]*fill="rgb\(([0-9]+),\1,[0-9]+\)"' austin.svg

run "$I/bad-lines/bad-lines.txt" > bad.svg; rc=$?
[ $rc = 0 ] && pass "bad-lines: drawn, exit 0" || fail "bad-lines exit $rc"
check_grep "bad-lines: one warning with the count" 'ignored 2 lines with invalid format \(first at .*bad-lines.txt:3\)' err.txt
geometry "bad-lines" bad.svg

for p in hot mem io java js perl python rust red green blue aqua yellow purple orange wakeup chain; do
	run --colors "$p" "$I/base/flames.txt" > "base-$p.svg" || fail "base --colors $p"
done
wellformed "base --colors rust" base-rust.svg
run --colors java "$I/colors/async-profiler-collapsed-part.txt" > java.svg
wellformed "async-profiler part, java palette" java.svg
check_grep "java: C++ frames yellow" 'JavaThread::run\(\) \([^)]*\)</title><rect [^>]*fill="rgb\(([0-9]+),\1,[0-9]+\)"' java.svg

run "$I/differential/perf-cycles-instructions-01-collapsed-all-diff.txt" > diff.svg
wellformed "differential" diff.svg
check_grep "differential: red and white frames" 'fill="rgb\(255,' diff.svg
run --negate "$I/differential/perf-cycles-instructions-01-collapsed-all-diff.txt" > diffneg.svg
check_grep "differential --negate: blue frames" 'fill="rgb\([0-9]+,[0-9]+,255\)"' diffneg.svg
geometry "differential" diff.svg

run "$I/empty/empty.txt" > empty.svg; rc=$?
[ $rc = 2 ] && grep -q 'No samples' empty.svg && pass "empty: No samples, exit 2" || fail "empty: exit $rc"
wellformed "empty" empty.svg

run --flamechart "$I/flamechart/flames.txt" > fc.svg
wellformed "flamechart" fc.svg
geometry "flamechart" fc.svg "$I/flamechart/flames.txt"
run "$I/flamechart/flames.txt" > fg.svg
a=$(grep -c '^<g>' fc.svg); b=$(grep -c '^<g>' fg.svg)
[ "$a" -ge "$b" ] && pass "flame chart keeps time order ($a frames, merged graph $b)" || fail "flamechart $a < $b"

for f in "$I"/fractional-samples/*.txt; do
	n=$(basename "$f" .txt)
	run "$f" > "frac-$n.svg"
	wellformed "fractional-samples/$n" "frac-$n.svg"
	geometry "fractional-samples/$n" "frac-$n.svg" "$f"
done
check_grep "tricky stack: '<...>' names escaped" '&lt;alloc::vec::Vec&lt;T&gt; as alloc::vec::SpecExtend&lt;T, I&gt;&gt;::from_iter' frac-tricky-stack.svg
run "$I/fractional-samples/zero-fractionals.txt" > /dev/null
[ ! -s err.txt ] && pass "zero fractions ('6.', '2.0') are valid counts" || fail "zero fractions warned" "$(cat err.txt)"

run "$I/multiple-inputs/"*.txt > multi.svg
run "$I/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt" > unsorted.svg
check_same "two inputs = their concatenation" unsorted.svg multi.svg
LC_ALL=C sort "$I/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt" > sorted.txt
run sorted.txt > sorted.svg
check_same "unsorted input = sorted input" sorted.svg unsorted.svg

run "$I/narrow-blocks/narrow-blocks.txt" > narrow.svg
wellformed "narrow-blocks" narrow.svg
geometry "narrow-blocks" narrow.svg "$I/narrow-blocks/narrow-blocks.txt"

base_in=$I/fractional-samples/no-fractionals.txt
for f in "$I"/nameattr/*.txt; do
	n=$(basename "$f" .txt)
	run --nameattr "$f" "$base_in" > "na-$n.svg"; rc=$?
	[ $rc = 0 ] || fail "nameattr/$n: exit $rc"
	wellformed "nameattr/$n" "na-$n.svg"
	check_grep "nameattr/$n: main is a link" '<a xlink:href="https://github.com/jonhoo/inferno" target="_blank"' "na-$n.svg"
	grep -q 'invalid' "$f" && { grep -q 'ignored 1 invalid attribute' err.txt && pass "nameattr/$n: invalid attribute warned" || fail "nameattr/$n: no warning" "$(cat err.txt)"; }
done
check_grep "nameattr: id attribute" '<g id="test"><title>noploop' na-nameattr.svg
check_grep "nameattr duplicates: the last one wins, no repeated attribute" '<g id="test2"><title>noploop' na-nameattr_duplicate_attributes.svg

cp "$I/palette-map/palette.map" pal.map
run --colors java --palette pal.map "$I/colors/async-profiler-collapsed-part.txt" > pal.svg
col=$(sed -n 's/^start_thread->//p' pal.map)
check_grep "palette map: pinned colour used ($col)" "<title>start_thread \\([^)]*\\)</title><rect [^>]*fill=\"$(printf '%s' "$col" | sed 's/[()]/\\&/g')\"" pal.svg
check_grep "palette map: pinned colour kept in the file" '^GCTaskThread::run->rgb\(243,216,41\)$' pal.map
check_grep "palette map: new names added" '^java_start\(Thread\*\)->rgb' pal.map
cp "$I/palette-map/palette_invalid.map" bad.map
run --palette bad.map "$I/base/flames.txt" > badpal.svg; rc=$?
[ $rc = 0 ] && pass "invalid palette map lines skipped" || fail "invalid map: exit $rc"
check_grep "invalid palette map lines counted" 'ignored [0-9]+ invalid lines' err.txt
