# t7408: one command from a program to its flame graph: scorch record
# --svg/--folded writes perf.data and, from it, the folded stacks and SVG
# (the same as scorch fold and scorch flame of the file).
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp"
	return 0
fi

"$SCORCH" record -q -F 997 -g -o one.data --svg one.svg --folded one.folded -- ./work_fp 0.5 > /dev/null 2> err.txt
rc=$?
check "--svg --folded: exit 0" test $rc -eq 0
check_perf_quiet "the perf.data is written as usual" one.data
"$SCORCH" fold one.data > fold.folded 2> /dev/null
check_same "--folded equals scorch fold of the file" fold.folded one.folded
check_grep "--folded has the workload's stacks" '^work_fp;.*main;top_one;mid_x;leaf_a;spin [0-9]+$' one.folded
"$SCORCH" flame one.data > flame.svg 2> /dev/null
check_same "--svg equals scorch flame of the recording" flame.svg one.svg
"$SCORCH" flame one.folded | grep -v '<title>\|id="title"' > flame-text.svg 2> /dev/null
grep -v '<title>\|id="title"' one.svg > one-untitled.svg
check_same "--svg draws the folded stacks (labels aside)" flame-text.svg one-untitled.svg
if need xmllint; then
	check "--svg is well-formed XML" xmllint --noout one.svg
else
	skip "--svg is well-formed XML" "xmllint not installed"
fi
check_grep "--svg draws the frames" '<title>spin \(' one.svg
"$SCORCH" record -q -F 997 -g -o two.data --svg two.svg -- sh -c 'exit 5' 2> /dev/null
check "--svg keeps the command's exit status (5)" test $? -eq 5
check "--svg of a recording without samples is still an SVG" grep -q '<svg' two.svg
