# t7006: scorch fold --jobs N folds one perf script file in pieces with
# N threads and prints the same bytes, warnings included, as one thread:
# two event types (the first one seen wins, the filter message names the
# other), weird lines (one warning, first line number right), a last
# sample without its blank line; and inputs --jobs does not apply to.
c=$SHARED/corpus
if [ ! -f "$c/multi/perf-script.txt" ]; then
	skip "--jobs" "no corpus"
	return 0
fi
for i in 1 2 3 4 5 6; do cat "$c/multi/perf-script.txt" "$c/fp/perf-script.txt"; done > big.txt
printf 'weird line one\n' >> big.txt
cat "$c/offcpu/perf-script.txt" >> big.txt
for i in 1 2; do cat "$c/fp/perf-script.txt"; done >> big.txt
printf 'weird line two\nab 1 [0] 9.0: 5 cpu-clock:\n\t1 f (x)\n' >> big.txt
"$SCORCH" fold big.txt > j1.out 2> j1.err
for j in 2 3 7; do
	"$SCORCH" fold --jobs $j big.txt > j$j.out 2> j$j.err
	check_same "--jobs $j: same stacks" j1.out j$j.out
	check_same "--jobs $j: same messages" j1.err j$j.err
done
check_grep "messages: the filtered event" '^Filtering for events of type: task-clock' j1.err
check_grep "messages: weird lines counted once" 'ignored 2 unrecognized lines' j1.err
"$SCORCH" fold -j 2 --all --pid big.txt > a2.out 2> /dev/null
"$SCORCH" fold --all --pid big.txt > a1.out 2> /dev/null
check_same "--jobs 2 --all --pid" a1.out a2.out
"$SCORCH" fold -j 2 --event-filter=task-clock big.txt > t2.out 2> /dev/null
"$SCORCH" fold --event-filter=task-clock big.txt > t1.out 2> /dev/null
check_same "--jobs 2 --event-filter" t1.out t2.out
# not applicable: stdin, several files, small files: one thread, same result
"$SCORCH" fold -j 2 < big.txt > in.out 2> /dev/null
check_same "--jobs with stdin" j1.out in.out
"$SCORCH" fold -j 2 "$c/fp/perf-script.txt" > small.out
check_same "--jobs on a small file" "$c/fp/stackcollapse.folded" small.out
check_fails "--jobs 0 is a usage error" "$SCORCH" fold --jobs 0 big.txt
rm -f big.txt
