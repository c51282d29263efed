# t7403: scorch record follows every thread and child of a command
# (inherit), attaches to running processes (-p) and threads (-t), and
# keeps to the cpus of --cpu.
. "$ROOT/tests/lib-record.sh"

if ! build_workload threads -pthread || ! build_workload forks || ! build_corpus_workloads; then
	fail "build the test workloads"
	return 0
fi

# every thread of a multi-threaded command
"$SCORCH" record -q -F 997 -g -o th.data -- ./threads 4 0.6 > th.out 2> err.txt
check "threads: exit 0" test $? -eq 0
check_perf_quiet "threads: perf reads the file without warnings" th.data
perf script -i th.data -F tid 2> /dev/null | awk '{print $1}' | sort -u > seen-tids.txt
awk '{print $2}' th.out | sort -u > want-tids.txt
check "threads: 5 threads reported by the workload" test "$(wc -l < want-tids.txt)" -eq 5
check_same "threads: every thread has samples" want-tids.txt seen-tids.txt
perf script -i th.data -F comm 2> /dev/null | awk '{print $1}' | sort -u > comms.txt
check_grep "threads: thread names (COMM) are kept" '^wk-3$' comms.txt
perf script -i th.data 2> /dev/null | "$SCORCH" fold > th.folded
check_grep "threads: thread stacks resolve (burn_odd)" 'thread_body;burn_odd;burn ' th.folded

# every child and grandchild of a forking command
"$SCORCH" record -q -F 997 -g -o fk.data -- ./forks 3 0.4 > fk.out 2> err.txt
check "forks: exit 0" test $? -eq 0
check_perf_quiet "forks: perf reads the file without warnings" fk.data
perf script -i fk.data -F pid 2> /dev/null | awk '{print $1}' | sort -u > seen-pids.txt
sed -n '2,$p' fk.out | awk '{print $2}' | sort -u > want-pids.txt
check "forks: 4 children reported by the workload" test "$(wc -l < want-pids.txt)" -eq 4
check "forks: every child and the grandchild has samples" \
	test -z "$(comm -23 want-pids.txt seen-pids.txt)"
perf script -i fk.data 2> /dev/null | "$SCORCH" fold > fk.folded
check_grep "forks: child stacks resolve" 'main;child_work;burn ' fk.folded
check_grep "forks: grandchild stacks resolve" 'main;grandchild_work;burn ' fk.folded

# --no-inherit: the command only, not its children
"$SCORCH" record -q -F 997 -g --no-inherit -o ni.data -- ./forks 2 0.3 > ni.out 2> err.txt
check "--no-inherit: exit 0" test $? -eq 0
perf script -i ni.data -F pid 2> /dev/null | awk '{print $1}' | sort -u > ni-pids.txt
parent=$(sed -n '1s/pid //p' ni.out)
check "--no-inherit: no child has samples" test -z "$(grep -vx "$parent" ni-pids.txt)"

# -p: a running process, until it exits; its maps come from /proc
./work_fp 4 > /dev/null &   # long enough for a sanitizer build on a loaded machine to attach
pid=$!
sleep 0.3
"$SCORCH" record -q -F 997 -g -p $pid -o p.data 2> err.txt
check "-p: stops when the process exits, status 0" test $? -eq 0
wait $pid
check_perf_quiet "-p: perf reads the file without warnings" p.data
perf script -i p.data -F pid 2> /dev/null | awk '{print $1}' | sort -u > p-pids.txt
check "-p: samples of that process only" test "$(cat p-pids.txt)" = "$pid"
perf script -i p.data 2> /dev/null | "$SCORCH" fold > p.folded
check_grep "-p: synthesized maps resolve its frames" '^work_fp;.*main;top_one;mid_y;leaf_b;spin ' p.folded
perf script -i p.data --show-task-events --show-mmap-events 2> /dev/null > p-events.txt
check_grep "-p: synthesized COMM for the running process" "PERF_RECORD_COMM: work_fp:$pid/$pid" p-events.txt
check_grep "-p: synthesized MMAP2 of its binary" "PERF_RECORD_MMAP2 $pid/$pid: .* r-xp .*/work_fp" p-events.txt

# -t: one thread of a running process
./threads 2 4 > t.out &   # 4 s: time for a loaded machine to attach
tpid=$!
for i in $(seq 40); do   # until both threads exist (at most 2 s)
	[ "$(ls /proc/$tpid/task 2> /dev/null | wc -l)" -ge 3 ] && break
	sleep 0.05
done
tid=$(ls /proc/$tpid/task | sort -n | sed -n 2p)
"$SCORCH" record -q -F 997 -g -t "$tid" -o t.data 2> err.txt
check "-t: stops when the thread is gone, status 0" test $? -eq 0
wait $tpid
perf script -i t.data -F tid 2> /dev/null | awk '{print $1}' | sort -u > t-tids.txt
check "-t: samples of that thread only" test "$(cat t-tids.txt)" = "$tid"

# --cpu: only samples from the cpus given
for i in 1 2 3; do   # a loaded machine may keep the threads off cpu 0
	"$SCORCH" record -q -F 997 -g --cpu 0 -o c.data -- ./threads 4 0.5 > /dev/null 2> err.txt
	rc=$?
	perf script -i c.data -F cpu 2> /dev/null | tr -d ' []' | sort -u > cpus.txt
	[ -s cpus.txt ] && break
done
check "--cpu 0: exit 0" test $rc -eq 0
check "--cpu 0: every sample is from cpu 0 (and there are some)" test "$(cat cpus.txt)" = "000"
check_fails "--cpu 9999 is refused" "$SCORCH" record --cpu 9999 -- true
check_fails "--cpu x is refused" "$SCORCH" record --cpu x -- true
