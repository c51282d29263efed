# t7422: a sample filter (--time, --cpu, --comm, --event) that leaves
# nothing says so in one line; for --time it gives the file's time range
# (as perf script prints times), so a user who guessed wrong can fix it.
. "$ROOT/tests/lib-record.sh"

if ! build_workload work; then
	fail "build the test workload"
	return 0
fi
"$SCORCH" record -q -e cpu-clock -F 499 -g -o w.data -- ./work 0.3 > /dev/null 2> err.txt
check "record: exit 0" test $? -eq 0
first=$(perf script -i w.data -F time 2> /dev/null | head -1 | tr -d ' :')
last=$(perf script -i w.data -F time 2> /dev/null | tail -1 | tr -d ' :')
n=$(perf script -i w.data -F time 2> /dev/null | wc -l)

for cmd in fold script report; do
	in=w.data
	[ $cmd = fold ] || in="-i w.data"
	"$SCORCH" $cmd --time 1,2 $in > out.txt 2> err.txt
	check "$cmd --time outside the file: exit 0" test $? -eq 0
	check "$cmd --time outside the file: one warning line" test "$(wc -l < err.txt)" -eq 1
	check_grep "$cmd --time outside the file: names the range $first to $last" \
		"no sample in --time 1,2: the $n samples span $first to $last s" err.txt
done
"$SCORCH" fold --comm nosuch w.data > out.txt 2> err.txt
check_grep "fold --comm that matches nothing: says so" \
	"no sample matches --comm nosuch \(of $n samples\)" err.txt
"$SCORCH" script --cpu 1000 -i w.data > out.txt 2> err.txt
check_grep "script --cpu that matches nothing: says so" "no sample matches --cpu 1000" err.txt
# a filter that keeps something is quiet
"$SCORCH" fold --time "$first,$last" w.data > out.txt 2> err.txt
check "a filter that keeps samples: no warning" test ! -s err.txt
check "a filter that keeps samples: output" test -s out.txt
