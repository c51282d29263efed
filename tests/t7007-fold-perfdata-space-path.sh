# t7007: scorch fold of perf.data names frames of an object whose path
# holds a space as `perf script | stackcollapse-perf.pl` does. The Perl
# frame regex /(.+) \((.*)\)/ takes any object name; scorch's perf.data
# path used to split "sym (dso)" with \S* and drop such frames, so the
# stacks lost the workload's functions. Oracle: scorch's text collapser
# over perf script of the same file (byte-identical to
# stackcollapse-perf.pl, t8001).
. "$ROOT/tests/lib-record.sh"

dir="$TMP/dir with space"
mkdir -p "$dir"
if ! need perf gcc || ! gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-o "$dir/work_fp" "$ROOT/tests/workloads/work.c"; then
	skip "recording of a path with a space" "perf or gcc missing"
	return 0
fi
if ! hi perf record -q -F 997 -g -o rec.data -- "$dir/work_fp" 0.3 > /dev/null 2>&1; then
	skip "recording of a path with a space" "perf record failed here (permissions?)"
	return 0
fi
perf script -i rec.data > script.txt 2> /dev/null
"$SCORCH" fold --format=perf-script script.txt > pipeline.folded 2> /dev/null
check_grep "perf script names the object with its space" \
	' \(/.*/dir with space/work_fp\)$' script.txt
check_grep "the pipeline keeps the workload's frames" ';leaf_a;spin ' pipeline.folded
"$SCORCH" fold rec.data > data.folded 2> err.txt
check "fold of perf.data: no warnings" test ! -s err.txt
check_grep "perf.data fold keeps the workload's frames" ';leaf_a;spin ' data.folded
check_same "perf.data fold equals the pipeline" pipeline.folded data.folded
"$SCORCH" fold --all rec.data > data-all.folded 2> /dev/null
"$SCORCH" fold --all --format=perf-script script.txt > pipeline-all.folded 2> /dev/null
check_same "--all: perf.data fold equals the pipeline" pipeline-all.folded data-all.folded
