# t7004: scorch fold on perf script text recorded here and now by perf
# itself (perf record -g of the corpus work.c): the work.c call paths
# come out; perf script's pid/tid fields give comm-PID and comm-PID/TID
# roots; -F+srcline input with --srcline gives func:file:line frames;
# the same text through a pipe, from a file, and split in two files
# folds to the same bytes.
. "$ROOT/tests/lib-record.sh"

if ! need perf gcc || ! build_corpus_workloads; then
	skip "fresh perf recording" "perf or gcc missing"
	return 0
fi
if ! hi perf record -q -F 997 -g -o rec.data -- ./work_fp 1.5 > /dev/null 2>&1; then
	skip "fresh perf recording" "perf record failed here (permissions?)"
	return 0
fi
perf script -i rec.data > script.txt 2> /dev/null
"$SCORCH" fold script.txt > fp.folded 2> err.txt
check "fold of fresh perf script: no warnings" test ! -s err.txt
# the four work.c paths (their time shares are the recording tests' job:
# on a loaded machine they drift, the folding does not)
for path in 'top_one;mid_x;leaf_a;spin' 'top_one;mid_x;leaf_b;spin' \
	'top_one;mid_y;leaf_b;spin' 'main;recurse;recurse;recurse'; do
	check_grep "work.c path $path folded" "$path" fp.folded
done
check_grep "root is the comm" '^work_fp;' fp.folded
# counts are sums of periods (ns of cpu-clock) when perf prints the period
check_grep "counts are periods" ' [0-9]{7,}$' fp.folded

perf script -i rec.data > script.txt 2> /dev/null
cat script.txt | "$SCORCH" fold > pipe.folded
"$SCORCH" fold script.txt > file.folded
check_same "pipe and file give the same bytes" file.folded pipe.folded
n=$(grep -n '^$' script.txt | awk -F: 'NR == 50 { print $1 }')
head -n "$n" script.txt > part1.txt
tail -n +"$((n + 1))" script.txt > part2.txt
"$SCORCH" fold part1.txt part2.txt > split.folded
check_same "two halves as two inputs: same bytes" file.folded split.folded

pid=$(perf script -i rec.data -F pid 2> /dev/null | awk 'NF { print $1; exit }')
perf script -i rec.data -F comm,pid,tid,time,period,event,ip,sym,dso 2> /dev/null > ids.txt
"$SCORCH" fold --pid ids.txt > pid.folded
check_grep "--pid: comm-PID roots" "^work_fp-$pid;" pid.folded
"$SCORCH" fold --tid ids.txt > tid.folded
check_grep "--tid: comm-PID/TID roots" "^work_fp-$pid/$pid;" tid.folded
"$SCORCH" fold --pid script.txt > pidq.folded
check_grep "--pid with only a tid printed: comm-?" '^work_fp-\?;' pidq.folded

perf script -i rec.data -F+srcline > src.txt 2> /dev/null
"$SCORCH" fold --srcline src.txt > src.folded 2> src.err
check_grep "--srcline: frames carry work.c:LINE" ';spin:work\.c:[0-9]+ ' src.folded
check "--srcline: no unrecognized lines" test ! -s src.err
"$SCORCH" fold src.txt > nosrc.folded 2> nosrc.err
check_grep "srcline input without --srcline: one warning" 'ignored [0-9]+ unrecognized lines' nosrc.err
