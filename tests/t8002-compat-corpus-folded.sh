# t8002: for the seven corpus recordings, folding their perf script text is
# byte-identical to stackcollapse-perf.pl's output (default and --all).
for c in fp dwarf cpp_fp pipe_fp zstd_fp multi offcpu; do
	d=$SHARED/corpus/$c
	if [ ! -f "$d/perf-script.txt" ]; then
		skip "$c" "no $d/perf-script.txt"
		continue
	fi
	"$SCORCH" fold "$d/perf-script.txt" > $c.folded 2> $c.err
	check_same "$c: fold = stackcollapse.folded" "$d/stackcollapse.folded" $c.folded
	"$SCORCH" fold --all "$d/perf-script.txt" > $c-all.folded 2> $c-all.err
	check_same "$c: fold --all = stackcollapse-all.folded" "$d/stackcollapse-all.folded" $c-all.folded
done
# multi: the second event type is left out with the Perl script's message
"$SCORCH" fold "$SHARED/corpus/multi/perf-script.txt" > /dev/null 2> multi.err
check_grep "multi: names the filtered event" '^Filtering for events of type: task-clock' multi.err
# --event-filter picks the other event instead
"$SCORCH" fold --event-filter=task-clock "$SHARED/corpus/multi/perf-script.txt" > tc.folded 2> tc.err
check "multi: --event-filter=task-clock gives stacks" test -s tc.folded
if cmp -s tc.folded multi.folded; then fail "multi: task-clock differs from cpu-clock"; else pass "multi: task-clock differs from cpu-clock"; fi
check "multi: no filter message with an explicit filter" test ! -s tc.err
