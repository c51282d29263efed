# t8001: scorch fold matches stackcollapse-perf.pl on FlameGraph's 13 test
# inputs with each of the 6 option sets upstream's harness uses (78 files;
# line order is not significant there, so compare sorted).
# These are FlameGraph's reference files: on a clone without ../shared the
# file is skipped (t7003 tests the same folding rules on inputs of its own).
need_shared flamegraph-tests/test/results || return 0
dir=$SHARED/flamegraph-tests/test
for f in "$dir"/perf-*.txt; do
	b=$(basename "$f" .txt)
	for o in pid tid kernel jit all addrs; do
		"$SCORCH" fold --$o "$f" > "$b-$o.out" 2> "$b-$o.err"
		check_same_sorted "$b --$o" "$dir/results/$b-collapsed-$o.txt" "$b-$o.out"
	done
done
