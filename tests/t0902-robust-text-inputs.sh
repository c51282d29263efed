# t0902: text commands over the wrong kind of input and hostile names.
# diff used to take a perf.data or perf script file as an empty profile
# (exit 0, one "ignored lines" warning); it now folds it first.
# flame output of hostile names (markup, quotes, control bytes, broken
# UTF-8, huge counts, deep stacks) stays well-formed XML. Recorded input:
# the fixtures always, the shared corpus when present.
. "$ROOT/tests/lib-corpus.sh"

: > empty.folded
diffs() {
	local REF=$C/fp/stackcollapse.folded
	# (since: perf.data and perf script text are folded first, as fold does)
	"$SCORCH" fold "$C/fp/perf.data" > fp.folded 2> /dev/null
	"$SCORCH" diff fp.folded "$REF" > want 2> /dev/null
	"$SCORCH" diff "$C/fp/perf.data" "$REF" > out 2> err; rc=$?
	check "$L diff, perf.data as BEFORE: exit 0" test $rc -eq 0
	check_same "$L diff, perf.data as BEFORE: folded as scorch fold folds it" want out
	"$SCORCH" fold "$C/fp/perf-script.txt" > ps.folded 2> /dev/null
	"$SCORCH" diff "$REF" ps.folded > want 2> /dev/null
	"$SCORCH" diff "$REF" "$C/fp/perf-script.txt" > out 2> err; rc=$?
	check "$L diff, perf script text as AFTER: exit 0" test $rc -eq 0
	check_same "$L diff, perf script text as AFTER: folded as scorch fold folds it" want out
	"$SCORCH" diff empty.folded "$REF" > out 2> err; rc=$?
	check "$L diff, empty BEFORE is an empty profile: exit 0" test $rc -eq 0 -a -s out -a ! -s err
}
shared_corpus
each_root diffs

# hostile names through flame (and diff --svg)
{
	printf 'main;<script>alert("x")</script>;f&g 10\n'
	printf "a;'q';\"dq\" 5\n"
	printf 'ctl\001\002\033[31m;tab\there 3\n'
	printf 'bad\377\376utf8;\303(;\342\202 4\n'
	printf '\357\277\276;sur\355\240\200 2\n'
	printf 'a]]>b;<!--c-->;<![CDATA[ 2\n'
	printf 'a;;;b 1\n;leading 1\ntrailing; 1\n'
	printf 'big 18446744073709551615\nbig 18446744073709551615\n'
	printf 'crlf;x 7\r\n'
	printf 'nul\000byte 3\n'
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "d%d;", i; print "leaf 1" }'
	awk 'BEGIN { s = ""; for (i = 0; i < 20000; i++) s = s "x"; print s " 1" }'
} > hostile.folded
if need xmllint; then
	for o in "" --inverted --hash "--colors java" "--title <&>\"'" "--subtitle ]]>" --flamechart; do
		# shellcheck disable=SC2086
		"$SCORCH" flame $o hostile.folded > h.svg 2> err; rc=$?
		if [ $rc -eq 0 ] && xmllint --noout h.svg 2> xml.err; then pass "flame $o: hostile names, well-formed SVG"
		else fail "flame $o: hostile names, well-formed SVG" "rc=$rc $(head -3 xml.err err)"; fi
	done
	"$SCORCH" diff --svg hostile.folded hostile.folded > d.svg 2> err
	check "diff --svg of hostile names: well-formed SVG" xmllint --noout d.svg
else
	skip "hostile names through xmllint" "xmllint not installed"
fi

# heatmap subsecond on standard input: perf.data (pipe mode, as
# "perf record -o - | scorch heatmap subsecond") was taken for text and
# refused; now both kinds give what the same file by name gives
stdins() {
	local P=$C/pipe_fp/perf.data
	"$SCORCH" heatmap subsecond --cells "$P" > byname.tsv 2>/dev/null
	cat "$P" | "$SCORCH" heatmap subsecond --cells - > bypipe.tsv 2> err; rc=$?
	check "$L subsecond, pipe-mode perf.data on a pipe: exit 0" test $rc -eq 0 -a -s bypipe.tsv
	check_same "$L subsecond, perf.data on stdin = by name" byname.tsv bypipe.tsv
	"$SCORCH" script "$C/fp/perf.data" > fp.txt 2>/dev/null
	"$SCORCH" heatmap subsecond --cells fp.txt > byname.tsv 2>/dev/null
	cat fp.txt | "$SCORCH" heatmap subsecond --cells > bypipe.tsv 2>/dev/null
	check_same "$L subsecond, perf script text on stdin = by name" byname.tsv bypipe.tsv
}
each_root stdins

# flame with nothing to draw names its one input
"$SCORCH" flame empty.folded > out 2> err; rc=$?
check "flame, empty input: exit 2 (as flamegraph.pl) with an SVG" test $rc -eq 2 -a -s out
check_grep "flame, empty input: message names the file" '^scorch flame: empty\.folded: no stack counts found' err
"$SCORCH" flame < empty.folded > out 2> err
check_grep "flame, empty stdin: message says <stdin>" '^scorch flame: <stdin>: no stack counts found' err
