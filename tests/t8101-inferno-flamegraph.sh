# t8101: flame graphs of inferno-shaped test inputs, each folder fed with
# the options its name stands for; every output is well-formed and its
# geometry checks out. The inputs are written here (own/, same folders,
# file names and features as inferno's flamegraph tests) and, when
# ../shared is there, are inferno's own test inputs (data only; the SVGs
# are ours).
have_xml=0; need xmllint && have_xml=1
have_py=0; need python3 && have_py=1
wellformed() {
	if [ $have_xml = 1 ]; then check "$P$1: well-formed" xmllint --noout "$2"; fi
}
geometry() {
	if [ $have_py = 1 ]; then check "$P$1: geometry" python3 "$ROOT/tests/browser/svgcheck.py" "${@:2}"; fi
}
run() { "$SCORCH" flame "$@" 2>err.txt; }

# make_inputs DIR: the inputs written here
make_inputs() {
	local d=$1 i
	mkdir -p "$d"/austin "$d"/bad-lines "$d"/base "$d"/colors "$d"/differential "$d"/empty "$d"/flamechart \
		"$d"/fractional-samples "$d"/multiple-inputs "$d"/unsorted-input "$d"/narrow-blocks "$d"/nameattr "$d"/palette-map
	{ printf '# austin: 3.3.0\n# interval: 100\n# mode: wall\n\n'
	  printf 'P10;T10;app.py:<module>:1;<frozen importlib._bootstrap>:_find_and_load:1007;lib.py:load:12 40\n'
	  printf 'P10;T10;app.py:<module>:1;app.py:main:30;app.py:work:8 160\n'
	  printf 'P10;T10;app.py:<module>:1;app.py:main:30;json/decoder.py:decode:337 25\n'; } > "$d/austin/flames.txt"
	printf '%s\n' 'tool;_start;main;run 30' 'tool;main 5' 'NOT A FOLDED LINE' 'tool;main;read_[k] 2' \
		'tool;main;run 10' 'ANOTHER BAD 3.x' 'idle;[unknown] 4' > "$d/bad-lines/bad-lines.txt"
	awk 'BEGIN { for (i = 0; i < 120; i++) print "app;main;f" i % 7 ";g" i % 11 ";h" i, 1 + i % 13 }' > "$d/base/flames.txt"
	awk 'BEGIN { for (i = 0; i < 30; i++) {
		s = "start_thread;java_start(Thread*);" (i % 3 ? "JavaThread::run();JavaThread::thread_main_inner()" : "GCTaskThread::run()")
		s = s ";Lcom/example/Worker;::step" i % 4 "_[j];Interpreter_[j];memcpy_[k]"
		print s, 1 + i } }' > "$d/colors/async-profiler-collapsed-part.txt"
	printf '%s\n' 'prog;main;grow 10 40' 'prog;main;shrink 40 10' 'prog;main;same 20 20' \
		'prog;_start;main;grow 5 9' 'prog;new 0 6' 'prog;gone 7 0' > "$d/differential/perf-cycles-instructions-01-collapsed-all-diff.txt"
	: > "$d/empty/empty.txt"
	awk 'BEGIN { for (i = 0; i < 60; i++) print "app;main;" (int(i / 5) % 2 ? "load;read" : "compute;step" i % 3), 1 + i % 4 }' \
		> "$d/flamechart/flames.txt"
	printf '%s\n' 'tool;_start;main;run 31' 'tool;main 6' 'tool;main;read_[k] 1' 'noploop;main 274' \
		'noploop;[unknown] 2' > "$d/fractional-samples/no-fractionals.txt"
	printf '%s\n' 'tool;_start;main;run 31.25' 'tool;main 6.1' 'tool;main;read_[k] 1.4' 'noploop;main 274.321' \
		'noploop;[unknown] 2.567' > "$d/fractional-samples/fractional.txt"
	printf '%s\n' 'tool;_start;main;run 31.0' 'tool;main 6.' 'tool;main;read_[k] 1' 'noploop;main 274' \
		'noploop;[unknown] 2.0' > "$d/fractional-samples/zero-fractionals.txt"
	printf '%s\n' 'tool;main;<impl core::fmt::Debug for [T; _]>::fmt 19.5' 'tool;main 6.25' \
		'noploop;a frame with spaces 3.5' > "$d/fractional-samples/with-space.txt"
	printf '%s\n' 'rustc;<alloc::vec::Vec<T> as alloc::vec::SpecExtend<T, I>>::from_iter;memcpy@GLIBC_2.2.5 3' \
		> "$d/fractional-samples/tricky-stack.txt"
	awk 'BEGIN { for (i = 0; i < 100; i++) print "srv;loop;h" (i * 37) % 23 ";w" i % 5, 1 + (i * 7) % 9 }' > "$d/multiple-inputs/part-1.txt"
	awk 'BEGIN { for (i = 0; i < 100; i++) print "srv;io;h" (i * 11) % 17 ";r" i % 6, 1 + (i * 5) % 8 }' > "$d/multiple-inputs/part-2.txt"
	cat "$d/multiple-inputs/part-1.txt" "$d/multiple-inputs/part-2.txt" > "$d/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt"
	printf '%s\n' 'big;main;work 100000' 'big;main;tiny_a 1' 'big;main;tiny_b 2' 'big;x;y;z 3' \
		'big;main;work;deep 40000' 'small 1' > "$d/narrow-blocks/narrow-blocks.txt"
	local a='main	class=scorch	title=foo	g_extra=stroke-width="1" stroke="green"	href=https://example.org/scorch	target=_blank	a_extra=rel="external" hreflang="en"'
	printf '%s\ntool\ttitle=bar\tclass=flames\nnoploop\tid=test\n' "$a" > "$d/nameattr/nameattr.txt"
	printf '%s\tclass=scorch2\ntool\ttitle=bar\nnoploop\tid=test\tid=test2\tg_extra=id="test3"\n' "$a" \
		> "$d/nameattr/nameattr_duplicate_attributes.txt"
	printf '%s\n\ntool\ttitle=bar\nnoploop\tid=test\n' "$(printf '%s' "$a" | sed 's/\t/\t\t/')" > "$d/nameattr/nameattr_empty_attribute.txt"
	printf '\n%s\ntool\ttitle=bar\nnoploop\tid=test\n' "$a" > "$d/nameattr/nameattr_empty_first_line.txt"
	printf '%s\ntool\ttitle=bar\nnoploop\tid=test\n' "$(printf '%s' "$a" | sed 's/\t/\tinvalid=font-weight: bold;\t/')" \
		> "$d/nameattr/nameattr_invalid_attribute.txt"
	printf '%s\n' 'GCTaskThread::run->rgb(243,216,41)' 'memcpy_[k]->rgb(10,200,30)' 'start_thread->rgb(241,156,40)' \
		> "$d/palette-map/palette.map"
	printf '%s\n' '->rgb(255,230,55)' 'a::b->invalid(244,125,43)' 'c::d-----rgb(244,125,43)' 'e::f->rgb(243,216)' \
		'g::h->' 'Interp_[j]-rgb(237,180,35)' 'main->rgb(243,120,41)' > "$d/palette-map/palette_invalid.map"
}

# suite PREFIX DIR LINK: every check on the inputs in DIR; LINK is the
# href the nameattr files give main
suite() {
	P=$1 I=$2 link=$3
	run --colors python "$I/austin/flames.txt" > austin.svg
	wellformed "austin (python palette)" austin.svg
	[ ! -s err.txt ] && pass "${P}austin: '#' metadata lines ignored silently" || fail "${P}austin warned" "$(cat err.txt)"
	check_grep "${P}austin: frozen importlib frames yellow (stdlib)" '&lt;frozen importlib._bootstrap&gt;:_find_and_load:1007 \([^)]*\)</title><rect [^>]*fill="rgb\(([0-9]+),\1,[0-9]+\)"' austin.svg

	run "$I/bad-lines/bad-lines.txt" > bad.svg; rc=$?
	[ $rc = 0 ] && pass "${P}bad-lines: drawn, exit 0" || fail "${P}bad-lines exit $rc"
	check_grep "${P}bad-lines: one warning with the count" 'ignored 2 lines with invalid format \(first at .*bad-lines.txt:3\)' err.txt
	geometry "bad-lines" bad.svg

	bad=
	for p in hot mem io java js perl python rust red green blue aqua yellow purple orange wakeup chain; do
		run --colors "$p" "$I/base/flames.txt" > "base-$p.svg" || bad="$bad $p"
	done
	[ -z "$bad" ] && pass "${P}base: every palette exits 0" || fail "${P}base: every palette exits 0" "failed:$bad"
	wellformed "base --colors rust" base-rust.svg
	run --colors java "$I/colors/async-profiler-collapsed-part.txt" > java.svg
	wellformed "async-profiler part, java palette" java.svg
	check_grep "${P}java: C++ frames yellow" 'JavaThread::run\(\) \([^)]*\)</title><rect [^>]*fill="rgb\(([0-9]+),\1,[0-9]+\)"' java.svg

	run "$I/differential/perf-cycles-instructions-01-collapsed-all-diff.txt" > diff.svg
	wellformed "differential" diff.svg
	check_grep "${P}differential: red and white frames" 'fill="rgb\(255,' diff.svg
	run --negate "$I/differential/perf-cycles-instructions-01-collapsed-all-diff.txt" > diffneg.svg
	check_grep "${P}differential --negate: blue frames" 'fill="rgb\([0-9]+,[0-9]+,255\)"' diffneg.svg
	geometry "differential" diff.svg

	run "$I/empty/empty.txt" > empty.svg; rc=$?
	[ $rc = 2 ] && grep -q 'No samples' empty.svg && pass "${P}empty: No samples, exit 2" || fail "${P}empty: exit $rc"
	wellformed "empty" empty.svg

	run --flamechart "$I/flamechart/flames.txt" > fc.svg
	wellformed "flamechart" fc.svg
	geometry "flamechart" fc.svg "$I/flamechart/flames.txt"
	run "$I/flamechart/flames.txt" > fg.svg
	a=$(grep -c '^<g>' fc.svg); b=$(grep -c '^<g>' fg.svg)
	[ "$a" -gt 0 ] && [ "$a" -ge "$b" ] && pass "${P}flame chart keeps time order ($a frames, merged graph $b)" || fail "${P}flamechart $a < $b"

	for f in "$I"/fractional-samples/*.txt; do
		n=$(basename "$f" .txt)
		run "$f" > "frac-$n.svg"
		wellformed "fractional-samples/$n" "frac-$n.svg"
		geometry "fractional-samples/$n" "frac-$n.svg" "$f"
	done
	check_grep "${P}tricky stack: '<...>' names escaped" '&lt;alloc::vec::Vec&lt;T&gt; as alloc::vec::SpecExtend&lt;T, I&gt;&gt;::from_iter' frac-tricky-stack.svg
	run "$I/fractional-samples/zero-fractionals.txt" > /dev/null
	[ ! -s err.txt ] && pass "${P}zero fractions ('6.', '2.0') are valid counts" || fail "${P}zero fractions warned" "$(cat err.txt)"

	run "$I/multiple-inputs/"*.txt > multi.svg
	run "$I/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt" > unsorted.svg
	if grep -q '<title>' multi.svg; then check_same "${P}two inputs = their concatenation" unsorted.svg multi.svg
	else fail "${P}two inputs = their concatenation" "no frames drawn"; fi
	LC_ALL=C sort "$I/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt" > sorted.txt
	run sorted.txt > sorted.svg
	check_same "${P}unsorted input = sorted input" sorted.svg unsorted.svg

	run "$I/narrow-blocks/narrow-blocks.txt" > narrow.svg
	wellformed "narrow-blocks" narrow.svg
	geometry "narrow-blocks" narrow.svg "$I/narrow-blocks/narrow-blocks.txt"

	base_in=$I/fractional-samples/no-fractionals.txt
	for f in "$I"/nameattr/*.txt; do
		n=$(basename "$f" .txt)
		run --nameattr "$f" "$base_in" > "na-$n.svg"; rc=$?
		[ $rc = 0 ] || fail "${P}nameattr/$n: exit $rc"
		wellformed "nameattr/$n" "na-$n.svg"
		check_grep "${P}nameattr/$n: main is a link" "<a xlink:href=\"$link\" target=\"_blank\"" "na-$n.svg"
		grep -q 'invalid' "$f" && { grep -q 'ignored 1 invalid attribute' err.txt && pass "${P}nameattr/$n: invalid attribute warned" || fail "${P}nameattr/$n: no warning" "$(cat err.txt)"; }
	done
	check_grep "${P}nameattr: id attribute" '<g id="test"><title>noploop' na-nameattr.svg
	check_grep "${P}nameattr duplicates: the last one wins, no repeated attribute" '<g id="test2"><title>noploop' na-nameattr_duplicate_attributes.svg

	cp "$I/palette-map/palette.map" pal.map
	run --colors java --palette pal.map "$I/colors/async-profiler-collapsed-part.txt" > pal.svg
	col=$(sed -n 's/^start_thread->//p' pal.map)
	check_grep "${P}palette map: pinned colour used ($col)" "<title>start_thread \\([^)]*\\)</title><rect [^>]*fill=\"$(printf '%s' "$col" | sed 's/[()]/\\&/g')\"" pal.svg
	check_grep "${P}palette map: pinned colour kept in the file" '^GCTaskThread::run->rgb\(243,216,41\)$' pal.map
	check_grep "${P}palette map: new names added" '^java_start\(Thread\*\)->rgb' pal.map
	cp "$I/palette-map/palette_invalid.map" bad.map
	run --palette bad.map "$I/base/flames.txt" > badpal.svg; rc=$?
	[ $rc = 0 ] && pass "${P}invalid palette map lines skipped" || fail "${P}invalid map: exit $rc"
	check_grep "${P}invalid palette map lines counted" 'ignored [0-9]+ invalid lines' err.txt
}

make_inputs "$TMP/own"
suite "own: " "$TMP/own" https://example.org/scorch
need_shared inferno-tests/flamegraph || return 0
suite "" "$SHARED/inferno-tests/flamegraph" https://github.com/jonhoo/inferno
