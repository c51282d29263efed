# t7511: a system-wide tracepoint recording written to a pipe (`perf
# record -e sched:sched_switch -a -g -o -`): the file has no build-id
# table, so the kernel's symbols come from /proc/kallsyms as perf 6.1
# takes them (its last resort without a build id), and perf script
# prints such a tracepoint's chain as "ip sym" (pipe mode sets the fields
# up as the attr arrives: no offset, no object). scorch script prints
# what perf script prints; scorch offcpu names the kernel frames.
if ! need perf; then skip "pipe-mode tracepoint chains" "perf missing"; return 0; fi
if [ ! -r /proc/kallsyms ] || ! grep -qv '^0* ' /proc/kallsyms; then
	skip "pipe-mode tracepoint chains" "/proc/kallsyms unreadable or zeroed here"
	return 0
fi
busy_cpus_start
perf record -q -e sched:sched_switch -a -g -o - -- sh -c 'sleep 0.05; sleep 0.05' > pipe.data 2> rec.err
rc=$?
busy_cpus_stop
if [ $rc -ne 0 ] || [ ! -s pipe.data ]; then
	fail "perf record -a -g -o - (pipe mode)" "$(head -3 rec.err)"
	return 0
fi
# the paragraphs of the recorded command's samples (other tasks of a busy
# machine may run binaries replaced meanwhile; not what this test is about)
sleeps() { awk -v RS= -v ORS='\n\n' '/^ *sleep +[0-9]/'; }
perf script -i pipe.data 2> /dev/null | sleeps > want.txt
"$SCORCH" script -i pipe.data 2> err.txt | sleeps > got.txt
check "the recording has samples of sleep ($(grep -c 'sched:sched_switch:' want.txt))" test -s want.txt
check_same "scorch script = perf script on sleep's samples (ip sym chains)" want.txt got.txt
check "perf names kernel frames here" grep -q '^	 *ffffffff[0-9a-f]* [a-z_]' want.txt
"$SCORCH" offcpu pipe.data > off.folded 2> off.err
check "offcpu: stacks" test -s off.folded
check "offcpu: no unnamed kernel frames ([[kernel.kallsyms]])" test -z "$(grep -F '[[kernel.kallsyms]]' off.folded)"
check_grep "offcpu: sleep's nap in the kernel, named" '^sleep;.*;schedule;__schedule [0-9]+$' off.folded
