# t6003: every frame's x, y and width (and title) equal flamegraph.pl's.
# 1. hand-computed cases; 2. synthetic inputs with self time at every depth,
# against tests/flamegeom.py's model of flamegraph.pl's rules (written from
# the notes, not from scorch: sort the lines, merge adjacent ones, x from the
# running total), in every mode; 3. with ../shared: flamegraph.pl's own
# geometry (flamegraph-tests/geometry: 64 files, 23 inputs in the modes
# default/reverse/inverted, one flame chart), the model against it too, and
# held-out inputs (other shared folded files) against the model, and against
# flamegraph.pl itself when FLAMEGRAPH_PL names one.
if ! need python3; then skip "geometry checks" "python3 not installed"; return 0; fi
geo() { python3 "$ROOT/tests/flamegeom.py" "$@"; }

# 1. by hand. 1180 px for the counts: 4 units = 295 px each.
printf 'a 5\na;b 5\n' > ab.folded
"$SCORCH" flame ab.folded > ab.svg 2>/dev/null
check_grep "a 5 / a;b 5: b at x=600, after a's own samples" \
	'<title>b \(5 samples, 50.00%\)</title><rect x="600" y="37" width="590"' ab.svg
printf 'a;b 1\na;b-x 1\na;b;c 2\n' > split.folded
"$SCORCH" flame split.folded > split.svg 2>/dev/null
check_grep "b's own line sorts before b-x: b's self frame at x=10" \
	'<title>b \(1 samples, 25.00%\)</title><rect x="10" y="53" width="295"' split.svg
check_grep "b-x between b's own line and b's children" \
	'<title>b-x \(1 samples, 25.00%\)</title><rect x="305" y="53" width="295"' split.svg
check_grep "b's children a second b frame at x=600" \
	'<title>b \(2 samples, 50.00%\)</title><rect x="600" y="53" width="590"' split.svg
check_grep "c under the second b" \
	'<title>c \(2 samples, 50.00%\)</title><rect x="600" y="37" width="590"' split.svg
printf 'm;a 1\nm 2\nm;a 1\n' > chart.folded
"$SCORCH" flame --flamechart chart.folded > chart.svg 2>/dev/null
n=$(grep -c '<title>a (1 samples' chart.svg)
[ "$n" = 2 ] && pass "flame chart: a line ending at m separates the two a frames" \
	|| fail "flame chart: $n frames 'a (1 samples'"
check_grep "flame chart: second a after m's own 2 samples (x=895)" \
	'<title>a \(1 samples, 25.00%\)</title><rect x="895" ' chart.svg

# 2. synthetic inputs against the model
printf 'main 3\nmain;parse 2\nmain;parse;lex 4\nmain;parse;lex;next 1\nmain;run 6\nmain;run;step 2\nmain;run;step;inner 3\n 7\nidle 1\n' > depth.folded
printf 'a;b 3\na;b-x 2\na;b;c 4\na;b;c;d 1\na;b2 1\na;b.part.0;z 2\na;b:q 1\na;b;c-y 2\n' > names.folded
printf 'a;b;c 1.5\na;b 2.25\na 0.1\na;b;c;d 0.2\nx;y 3.3\nx 0.7\n' > frac.folded
printf 'a;b 0\na;b;c 4\na 2\na;;c 3\na;d; 2\nq;r 0\n' > empty.folded
printf 'a;b 1\na 2\na;b 1\nc;d 3\nc 0.5\nc;d 0.25\na;b 1.1\n' > mixed.folded # fractional midway
printf 'a 5 7\na;b 3 1\na;b;c 2 6\nd;e 4 4\nd 1 0\n' > diff.folded
printf 'm;a 2\nm 1\nm;a 3\nm;a;b 1\nm 2\nm;c 1\nm;a 1\n' > time.folded
printf ' 5\n;; 2\na 1\n' > root.folded # the root's own lines first (empty stacks)
awk 'BEGIN { s = "f0"; for (d = 1; d <= 14; d++) { print s, d; print s ";g" d, 2 * d;
	print s ";h" d ";k", 1; s = s ";f" d } }' > deep.folded
for f in root depth names frac mixed empty diff time deep; do
	for opts in "" --reverse --inverted --flamechart "--width 500 --minwidth 2" "--minwidth 10%" \
		"--reverse --inverted"; do
		# shellcheck disable=SC2086
		geo model $opts $f.folded | LC_ALL=C sort > exp.tsv
		# shellcheck disable=SC2086
		"$SCORCH" flame $opts $f.folded > out.svg 2>/dev/null
		geo svg out.svg | LC_ALL=C sort > act.tsv
		if [ -s exp.tsv ]; then check_same "$f ${opts:-default}: every frame as flamegraph.pl's rules place it" exp.tsv act.tsv
		else fail "$f ${opts:-default}: model gave no frames"; fi
	done
done
# --colors chain rewrites stacks (a last "--" frame; "_[w]" after ";--;").
# Known difference: flamegraph.pl sorts the lines before that rewrite, so
# where a rewritten name sorts differently against a sibling (b / b-x, or a
# root line with --reverse) its order can differ; these inputs have none.
printf 'a;b 5\nw;x;--;c;d 3\nw;x;--;c 2\nw;--;;--;e 1\nq;--;r;--; 2\nz;--;--;y 1\n 4\na;b; 1\n' > chain.folded
for f in chain depth diff; do
	for opts in "" --flamechart; do
		# shellcheck disable=SC2086
		geo model --chain $opts $f.folded | LC_ALL=C sort > exp.tsv
		# shellcheck disable=SC2086
		"$SCORCH" flame --colors chain $opts $f.folded > out.svg 2>/dev/null
		geo svg out.svg | LC_ALL=C sort > act.tsv
		check_same "$f --colors chain ${opts}: stacks rewritten as flamegraph.pl does" exp.tsv act.tsv
	done
done
printf 'a;b 5\n' | "$SCORCH" flame --colors chain > chain.svg 2>/dev/null
check_grep "chain: a stack without a waker gets a last -- frame" '<title>-- \(5 samples' chain.svg

# 3. flamegraph.pl's own geometry
need_shared flamegraph-tests/geometry || return 0
G=$SHARED/flamegraph-tests/geometry
unescape() { python3 -c 'import html, sys
for line in sys.stdin.buffer.read().decode("utf-8", "surrogateescape").splitlines()[1:]:
    f = line.split("\t"); f[0] = html.unescape(f[0])
    sys.stdout.buffer.write(("\t".join(f) + "\n").encode("utf-8", "surrogateescape"))'; }
input_of() { # NAME -> its folded input (see the geometry README)
	local name=$1 d rest
	case $name in
	inferno-*)
		rest=${name#inferno-}
		for d in "$SHARED"/inferno-tests/flamegraph/*/; do
			d=${d%/}
			case $rest in "$(basename "$d")"-*)
				[ -f "$d/${rest#"$(basename "$d")"-}.txt" ] && echo "$d/${rest#"$(basename "$d")"-}.txt" ;;
			esac
		done ;;
	*) echo "$SHARED/flamegraph-tests/test/results/$name.txt" ;;
	esac
}
n=0
for tsv in "$G"/*.tsv; do
	b=$(basename "$tsv" .tsv)
	name=${b%.*} mode=${b##*.}
	in=$(input_of "$name")
	if [ ! -f "$in" ]; then fail "$b: input of the reference" "no input for $name"; continue; fi
	opt=
	[ "$mode" = default ] || opt=--$mode
	unescape < "$tsv" | LC_ALL=C sort > ref.tsv
	"$SCORCH" flame $opt "$in" > out.svg 2>/dev/null
	geo svg out.svg | LC_ALL=C sort > act.tsv
	check_same "$b: x, y, width of every frame = flamegraph.pl's" ref.tsv act.tsv
	geo model $opt "$in" | LC_ALL=C sort > model.tsv
	check_same "$b: the model used above agrees with flamegraph.pl" ref.tsv model.tsv
	n=$((n + 1))
done
[ "$n" -ge 64 ] && pass "all $n reference files compared" || fail "only $n reference files"

# held-out inputs: shared folded files outside the geometry folder, without
# "#" lines (scorch skips them as comments, flamegraph.pl draws them: see
# docs/scorch-flame.md)
held=()
for f in austin/flames.txt colors/async-profiler-collapsed-part.txt grey-frames/grey-frames.txt \
	unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt bad-lines/bad-lines.txt; do
	[ -f "$SHARED/inferno-tests/flamegraph/$f" ] && held+=("$SHARED/inferno-tests/flamegraph/$f")
done
for f in "$SHARED"/corpus/*/stackcollapse.folded; do [ -f "$f" ] && held+=("$f"); done
[ "${#held[@]}" -ge 8 ] && pass "${#held[@]} held-out inputs" || fail "held-out inputs missing" "${held[*]}"
i=0
for f in "${held[@]}"; do
	label=$(basename "$(dirname "$f")")-$(basename "$f" .txt)
	label=${label%.folded}
	grep -v '^#' "$f" > "$label.folded"
	held[i]=$label.folded
	i=$((i + 1))
done
for in in "${held[@]}"; do
	label=${in%.folded}
	for opt in "" --reverse --flamechart; do
		geo model $opt "$in" | LC_ALL=C sort > exp.tsv
		"$SCORCH" flame $opt "$in" > out.svg 2>/dev/null
		geo svg out.svg | LC_ALL=C sort > act.tsv
		check_same "held-out $label ${opt:-default}: as the model" exp.tsv act.tsv
	done
done
# ... and against flamegraph.pl itself, when one is named
pl=${FLAMEGRAPH_PL:-}
if [ -z "$pl" ] || ! head -1 "$pl" 2>/dev/null | grep -q perl || ! need perl; then
	skip "held-out inputs against flamegraph.pl" "set FLAMEGRAPH_PL to FlameGraph's flamegraph.pl"
	return 0
fi
for in in "${held[@]}" depth.folded names.folded frac.folded empty.folded diff.folded time.folded deep.folded; do
	for opt in "" --reverse --inverted --flamechart; do
		PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl "$pl" $opt "$in" > pl.svg 2>/dev/null
		geo svg pl.svg | LC_ALL=C sort > exp.tsv
		"$SCORCH" flame $opt "$in" > out.svg 2>/dev/null
		geo svg out.svg | LC_ALL=C sort > act.tsv
		check_same "held-out $(basename "$in") ${opt:-default}: as flamegraph.pl draws it" exp.tsv act.tsv
	done
done
