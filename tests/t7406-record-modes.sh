# t7406: output modes and the command's life: pipe mode (-o -), zstd (-z),
# perf.data moved to perf.data.old, exit status passed through, Ctrl-C
# (SIGINT) still writes a complete file, several events, -c periods.
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp"
	return 0
fi

# pipe mode
"$SCORCH" record -q -F 997 -g -o - -- ./work_fp 0.4 > pipe.data 2> pipe-err.txt
check "-o -: exit 0" test $? -eq 0
check_grep "-o -: the workload's stdout goes to stderr" '^done ' pipe-err.txt
check "-o -: pipe header (magic, size 16)" test "$(head -c 16 pipe.data | od -An -t x1 | tr -d ' \n')" = 50455246494c45321000000000000000
perf script -i - < pipe.data > pipe-script.txt 2> perf-err.txt
check "-o -: perf script reads the stream without warnings" test ! -s perf-err.txt
perf report --header-only -i pipe.data > pipe-header.txt 2>&1
check_grep "-o -: features travel as records (hostname)" "^# hostname : $(uname -n)\$" pipe-header.txt
check_grep "-o -: event name travels too" '^# event : name = cpu-clock' pipe-header.txt
"$SCORCH" fold < pipe-script.txt > pipe.folded
check_grep "-o -: stacks resolve" '^work_fp;.*main;top_one;mid_x;leaf_a;spin ' pipe.folded
"$SCORCH" record -q -F 997 -g -o - -- ./work_fp 0.2 2> /dev/null | perf script -i - > piped.txt 2> piped-err.txt
check "-o - | perf script -i -: no warnings" test ! -s piped-err.txt
check_grep "-o - | perf script -i -: samples" 'cpu-clock' piped.txt

"$SCORCH" record -F 997 -g -o - -- ./work_fp 2 2> epipe-err.txt | head -c 1000 > /dev/null
check "-o - | head: a reader that goes away is an error (exit 1)" test "${PIPESTATUS[0]}" -eq 1
check_grep "... reported as such" 'write: Broken pipe' epipe-err.txt

# a FIFO given with -o gets the pipe format (it cannot be rewritten)
mkfifo rec.fifo
perf script -i - < rec.fifo > fifo-script.txt 2> fifo-err.txt &
reader=$!
"$SCORCH" record -q -F 997 -g -o rec.fifo -- ./work_fp 0.2 > /dev/null 2>&1
check "-o FIFO: exit 0" test $? -eq 0
wait $reader
check "-o FIFO: perf script reads it as a stream without warnings" test ! -s fifo-err.txt
check_grep "-o FIFO: samples" 'cpu-clock' fifo-script.txt

# zstd
"$SCORCH" record -q -z -F 997 -g -o z.data -- ./work_fp 0.4 > /dev/null 2>&1
check "-z: exit 0" test $? -eq 0
check_perf_quiet "-z: perf reads the compressed file without warnings" z.data
perf report --header-only -i z.data > z-header.txt 2>&1
check_grep "-z: COMPRESSED feature (zstd, level 1)" '^# compressed : Zstd, level = 1, ratio = [0-9]+' z-header.txt
perf report --stats -i z.data 2> /dev/null > z-stats.txt
check_grep "-z: data travels in COMPRESSED records" 'COMPRESSED events: +[1-9]' z-stats.txt
perf script -i z.data 2> /dev/null | "$SCORCH" fold > z.folded
check_grep "-z: stacks resolve" '^work_fp;.*main;top_one;mid_y;leaf_b;spin ' z.folded
"$SCORCH" record -q -z9 -F 997 -g -o z9.data -- ./work_fp 0.2 > /dev/null 2>&1
perf report --header-only -i z9.data 2>&1 | grep -q 'level = 9'
check "-z9: level 9 recorded" test $? -eq 0
check_fails "-z23 is refused" "$SCORCH" record -z23 -- true
"$SCORCH" record -q -z -F 499 --call-graph dwarf -o zd.data -- ./work_nofp 0.3 > /dev/null 2>&1
check_perf_quiet "-z with dwarf samples: perf reads it without warnings" zd.data
"$SCORCH" record -q -z -m 1 -F 997 -g -o zm.data -- ./work_fp 0.2 > /dev/null 2>&1
check_perf_quiet "-z with a one-page ring: chunks fit perf's buffer" zm.data

# default output and perf.data.old
"$SCORCH" record -q -F 997 -o perf.data -- true
"$SCORCH" record -q -F 997 -- ./work_fp 0.1 > /dev/null 2>&1
check "default output: perf.data written" test -s perf.data
check "an existing perf.data becomes perf.data.old" test -s perf.data.old
perf report --header-only -i perf.data.old 2>&1 | grep -q 'cmdline : .*-- true'
check "perf.data.old is the previous recording" test $? -eq 0

# exit status
"$SCORCH" record -q -o st.data -- sh -c 'exit 7' 2> /dev/null
check "the command's exit status (7) is passed through" test $? -eq 7
"$SCORCH" record -q -o st.data -- sh -c 'kill -USR1 $$' 2> /dev/null
check "a command killed by signal 10 gives 138" test $? -eq 138
check_perf_quiet "the file of a failed command is complete" st.data
"$SCORCH" record -q -o st.data -- ./no-such-program 2> st-err.txt
check "a command that cannot run gives 127" test $? -eq 127
check_grep "... with a message naming it" 'cannot run ./no-such-program' st-err.txt

# SIGINT stops cleanly
"$SCORCH" record -q -F 997 -g -o int.data -- ./work_fp 20 > /dev/null 2>&1 &
rec=$!
sleep 1
kill -INT $rec
wait $rec
rc=$?
check "SIGINT: scorch ends (the workload got SIGTERM: 143)" test $rc -eq 143
check_perf_quiet "SIGINT: the file is complete and perf reads it" int.data
perf script -i int.data 2> /dev/null | grep -c 'cpu-clock' > nint.txt
check "SIGINT: the samples so far are in it" test "$(cat nint.txt)" -gt 10
"$SCORCH" record -q -a -o int-a.data > /dev/null 2>&1 &
rec=$!
sleep 0.5
kill -INT $rec
wait $rec
check "SIGINT with -a and no command: exit 0" test $? -eq 0
check_perf_quiet "SIGINT with -a: the file is complete" int-a.data

# several events, periods
"$SCORCH" record -q -e cpu-clock,task-clock -F 499 -g -o multi.data -- ./work_fp 0.3 > /dev/null 2>&1
check_perf_quiet "two events: perf reads the file without warnings" multi.data
perf script -i multi.data -F event 2> /dev/null | sort | uniq -c | awk '{print $2}' > events.txt
printf 'cpu-clock:\ntask-clock:\n' > want-events.txt
check_same "two events: samples of both" want-events.txt events.txt
perf report --header-only -i multi.data > multi-header.txt 2>&1
check_grep "two events: IDENTIFIER sampled" 'sample_type = IP\|TID\|TIME\|CALLCHAIN\|PERIOD\|IDENTIFIER' multi-header.txt
"$SCORCH" record -q -e page-faults -c 1 -g -o pf.data -- ./work_fp 0.1 > /dev/null 2>&1
perf script -i pf.data -F event,period 2> /dev/null | sort -u > pf.txt
check_grep "-c 1 -e page-faults: period 1 per sample" '^ +1 +page-faults:' pf.txt
