# t7104: flame and diff read perf.data and perf script text as well as
# folded stacks (folding them as `scorch fold` does), label the counts of
# a recording by its event (cpu-clock periods are nanoseconds: shown as
# µs, not as samples) and title the graph with the event and command;
# `record --svg` does the same and takes --title/--countname. Plain
# folded text keeps flamegraph.pl's labels. Errors leave no SVG behind.
. "$ROOT/tests/lib-record.sh"

if ! build_workload work; then
	fail "build the test workload"
	return 0
fi
"$SCORCH" record -q -e cpu-clock -F 499 -g -o w.data --svg rec.svg -- ./work 0.3 > /dev/null 2> err.txt
check "record --svg: exit 0" test $? -eq 0
mu=$(printf '\302\265s')

# flame perf.data = fold | flame with the event's labels
"$SCORCH" flame w.data > a.svg 2> err.txt
check "flame perf.data: exit 0" test $? -eq 0
check "flame perf.data: no warning" test ! -s err.txt
"$SCORCH" fold w.data | "$SCORCH" flame --title "cpu-clock: ./work 0.3" \
	--countname "$mu" --factor 0.001 > want.svg
check_same "flame perf.data: the graph of its folded stacks, labelled" want.svg a.svg
check_grep "flame perf.data: titled with the event and the command" \
	'<text id="title"[^>]*>cpu-clock: \./work 0\.3<' a.svg
total=$("$SCORCH" fold w.data | awk '{ s += $NF } END { printf "%d", s / 1000 + 0.5 }')
total=$(echo "$total" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
check_grep "flame perf.data: counts in µs ($total µs in all)" "<title>all \($total $mu, 100%\)" a.svg
check "flame perf.data: not called samples" test -z "$(grep -o '<title>all ([0-9,]* samples' a.svg)"

# record --svg draws the same graph
check_same "record --svg: the same graph as flame perf.data" a.svg rec.svg
"$SCORCH" record -q -e cpu-clock -F 499 -g -o t.data --svg t.svg --title "My run" \
	--countname ns -- ./work 0.2 > /dev/null 2> err.txt
check_grep "record --title: used" '<text id="title"[^>]*>My run<' t.svg
check_grep "record --countname: used, counts unscaled" '<title>all \([0-9,]* ns, 100%\)' t.svg
"$SCORCH" record -q --title x -o t2.data -- true > /dev/null 2>&1
check "record --title without --svg: usage error" test $? -eq 2

# perf script text: folded first, labelled by the event it names
perf script -i w.data 2> /dev/null > w.txt
"$SCORCH" flame w.txt > b.svg 2> err.txt
check "flame perf script text: exit 0" test $? -eq 0
"$SCORCH" fold w.txt | "$SCORCH" flame --title "cpu-clock" --countname "$mu" \
	--factor 0.001 > want-b.svg
check_same "flame perf script text: the graph of its folded stacks" want-b.svg b.svg
"$SCORCH" flame < w.txt > c.svg
check_same "flame perf script text on stdin: the same" want-b.svg c.svg
"$SCORCH" flame < w.data > d.svg
check_same "flame perf.data on stdin: the same as the file" a.svg d.svg

"$SCORCH" record -q -e cpu-clock -F 499 -g -o - -- ./work 0.2 2> /dev/null | "$SCORCH" flame > pipe.svg 2> err.txt
check "record -o - | flame: exit 0" test $? -eq 0
check_grep "record -o - | flame: labelled by the event" \
	"<title>all \([0-9,]+ $mu, 100%\)" pipe.svg

# diff: either side may be perf.data
"$SCORCH" record -q -e cpu-clock -F 499 -g -o v.data -- ./work 0.2 > /dev/null 2>&1
"$SCORCH" fold w.data > w.folded
"$SCORCH" fold v.data > v.folded
"$SCORCH" diff w.folded v.folded > want-diff.txt
"$SCORCH" diff w.data v.data > diff.txt 2> err.txt
check "diff perf.data perf.data: exit 0" test $? -eq 0
check_same "diff perf.data: as diff of their folded stacks" want-diff.txt diff.txt
"$SCORCH" diff --svg w.folded v.data > diff.svg 2> err.txt
check_grep "diff --svg with a recording AFTER: counts in µs" "<title>all \([0-9,]* $mu" diff.svg

# plain folded text keeps flamegraph.pl's labels
printf 'a;b 5\na 3\n' | "$SCORCH" flame > p.svg
check_grep "folded text: 'samples'" '<title>all \(8 samples, 100%\)' p.svg
check_grep "folded text: 'Flame Graph'" '<text id="title"[^>]*>Flame Graph<' p.svg

# errors: one line, no SVG
gzip -c w.folded > w.gz
"$SCORCH" flame w.gz > e.svg 2> err.txt
check "flame binary input: exit 1" test $? -eq 1
check "flame binary input: nothing written" test ! -s e.svg
check "flame binary input: one line" test "$(wc -l < err.txt)" -eq 1
# compressed bytes whose first "line" ends in " 7": still compressed data
# (a real gzip of w.folded did this once in CI)
printf '\037\213\010\000\001\002\003\004\000\003ab 7\n' > lucky.gz
for c in flame view diff; do
	if [ $c = diff ]; then "$SCORCH" diff lucky.gz lucky.gz > e.out 2> err.txt
	else "$SCORCH" $c lucky.gz > e.out 2> err.txt; fi
	check "$c gzip bytes like a folded line: exit 1" test $? -eq 1
	check "$c gzip bytes like a folded line: nothing written" test ! -s e.out
	check_grep "$c gzip bytes like a folded line: says gzip, how to unpack" \
		"lucky.gz: gzip-compressed data; decompress it first \(zcat FILE" err.txt
done
"$SCORCH" record -q -e cpu-clock -c 1000000000 -o none.data -- true > /dev/null 2>&1
"$SCORCH" flame none.data > n.svg 2> err.txt
check "flame perf.data without samples: exit 2" test $? -eq 2
check "flame perf.data without samples: no SVG" test ! -s n.svg
"$SCORCH" diff w.gz v.data > e.txt 2> err.txt
check "diff binary input: exit 1" test $? -eq 1
