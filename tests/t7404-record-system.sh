# t7404: scorch record -a (all cpus) while another process runs: that
# process's kernel and user frames resolve, every process running before
# the recording is described, and LOST records are counted and reported.
. "$ROOT/tests/lib-record.sh"

if ! build_workload syscalls || ! build_corpus_workloads; then
	fail "build the test workloads"
	return 0
fi

./syscalls 3 &
other=$!
sleep 0.2
"$SCORCH" record -F 997 -a -g -o all.data -- sleep 2 2> err.txt
check "-a -- sleep 2: exit status of sleep (0)" test $? -eq 0
wait $other
check_perf_quiet "-a: perf reads the file without warnings" all.data

perf report --header-only -i all.data > header.txt 2>&1
check_grep "-a: samples carry the cpu" 'sample_type = IP\|TID\|TIME\|CALLCHAIN\|CPU\|PERIOD' header.txt
perf script -i all.data --pid "$other" 2> /dev/null > other.txt
check_grep "-a: the other process has samples" "^ *syscalls +$other " other.txt
check_grep "-a: its user frames resolve" '^[[:space:]]+[0-9a-f]+ do_syscalls\+0x[0-9a-f]+ \(.*/syscalls\)$' other.txt
check_grep "-a: its kernel frames resolve" '^[[:space:]]+ffff[0-9a-f]+ [a-z_][a-z0-9_.]*\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\)$' other.txt
check_grep "-a: system call frames under it" '(ksys_write|__x64_sys_write|__x64_sys_getppid|do_syscall_64)\+' other.txt
check_fails "-a: no unresolved kernel frame of it" grep -q '\[unknown\] (\[kernel\.kallsyms\])' other.txt
perf script -i all.data --show-task-events 2> /dev/null | grep -c 'PERF_RECORD_COMM' > ncomm.txt
check "-a: COMM records for the processes already running (/proc)" test "$(cat ncomm.txt)" -gt 10
perf script -i all.data -F cpu 2> /dev/null | tr -d ' []' | sort -u | wc -l > ncpu.txt
check "-a: samples from every cpu" test "$(cat ncpu.txt)" -eq "$(getconf _NPROCESSORS_ONLN)"

# LOST records: a ring buffer of 2 pages cannot keep 8 KiB stack samples
"$SCORCH" record -F 4000 --call-graph dwarf -m 2 -o lost.data -- ./work_nofp 0.5 > /dev/null 2> lost-err.txt
check "small ring: the recording still succeeds" test $? -eq 0
check_grep "small ring: lost samples are reported" 'lost [0-9]+ samples in [0-9]+ LOST records' lost-err.txt
ours=$(sed -n 's/.*lost [0-9]* samples in \([0-9]*\) LOST records.*/\1/p' lost-err.txt)
theirs=$(perf report --stats -i lost.data 2> /dev/null | awk '/LOST events:/ {print $3; exit}')
check "small ring: perf counts the same LOST records ($ours)" test "${ours:-x}" = "${theirs:-y}"
perf report --header-only -i lost.data > /dev/null 2> lost-perf.txt
check "small ring: the file is still complete" test ! -s lost-perf.txt
