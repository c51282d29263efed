# t7405: tracepoints (-e sched:sched_switch -a -g): perf script decodes
# scorch's file with no warning, every sample shows its decoded fields, and
# the tracing data (header_page, header_event, the event format texts) is
# byte for byte what perf record writes for the same event.
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp"
	return 0
fi

"$SCORCH" record -e sched:sched_switch -a -g -o tp.data -- ./work_fp 0.3 > /dev/null 2> err.txt
check "sched:sched_switch -a -g: exit 0" test $? -eq 0
check_perf_quiet "perf decodes the tracepoint file without warnings" tp.data

perf report --header-only -i tp.data > header.txt 2>&1
check_grep "event desc names the tracepoint" '^# event : name = sched:sched_switch, .*type = 2, .*sample_type = IP\|TID\|TIME\|CALLCHAIN\|CPU\|PERIOD\|RAW' header.txt
check_fails "TRACING_DATA is not missing" grep -q 'missing features:.*TRACING_DATA' header.txt

perf script -i tp.data -F comm,tid,event,trace 2> /dev/null > script.txt
total=$(grep -c 'sched:sched_switch:' script.txt)
decoded=$(grep -cE 'sched:sched_switch: +prev_comm=.* prev_pid=[0-9]+ .*==> next_comm=.* next_pid=[0-9]+ next_prio=' script.txt)
check "samples recorded ($total)" test "$total" -gt 5
check "every sample shows its decoded fields ($decoded of $total)" test "$decoded" -eq "$total"
check_grep "the workload's switches are there" 'prev_comm=work_fp ' script.txt
perf script -i tp.data 2> /dev/null > full.txt
check_grep "kernel call chains resolve (__schedule)" '^[[:space:]]+ffff[0-9a-f]+ __schedule\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\)$' full.txt

# the tracing data against perf's own
if perf record -q -e sched:sched_switch -a -g -o perf.data -- sleep 0.1 > /dev/null 2>&1; then
	tracing_data tp.data > ours.bin
	tracing_data perf.data > perfs.bin
	check "scorch's file has tracing data" test -s ours.bin
	# up to the end of the last format text; kallsyms, printk formats and
	# saved_cmdlines follow and may change between two runs
	cut_at() {
		local at
		at=$(grep -boa 'print fmt: ' "$1" | tail -1 | cut -d: -f1)
		tail -c +$((at + 1)) "$1" | head -1 | wc -c | awk -v a="$at" '{print a + $1}'
	}
	n1=$(cut_at ours.bin); n2=$(cut_at perfs.bin)
	head -c "$n1" ours.bin > ours-formats.bin
	head -c "$n2" perfs.bin > perfs-formats.bin
	check "the format texts reach sched_switch's print fmt ($n1 bytes)" grep -qa 'field:char prev_comm' ours-formats.bin
	check_same "tracing data formats equal perf record's" perfs-formats.bin ours-formats.bin
	tail -c +$((n1 + 1)) ours.bin | head -c 8 | od -An -t u4 | awk '{print $1}' > kallsyms-size.txt
	check "kallsyms section is empty, as perf writes it" test "$(cat kallsyms-size.txt)" = 0
else
	skip "tracing data equals perf record's" "perf record of sched:sched_switch failed"
fi

# pipe mode carries the tracing data in a HEADER_TRACING_DATA record
"$SCORCH" record -q -e sched:sched_switch -a -o - -- sleep 0.1 2> /dev/null > tp-pipe.data
perf script -i - < tp-pipe.data > pipe-script.txt 2> pipe-err.txt
check "pipe mode: perf decodes it without warnings" test ! -s pipe-err.txt
check_grep "pipe mode: fields decoded" 'prev_comm=.*next_pid=' pipe-script.txt
check_fails "unknown tracepoint is refused" "$SCORCH" record -e sched:no_such_event -a -- true
"$SCORCH" record -e sched:no_such_event -a -- true 2> tp-err.txt
check_grep "unknown tracepoint: message names it" 'unknown tracepoint sched:no_such_event' tp-err.txt
