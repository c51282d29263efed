# tests/lib-sched.sh: a fresh `perf sched record` for the t752N sched tests
# (sourced after tests/lib.sh). perf run on the same file is the oracle;
# the tests rely on nothing in the recording but its sched events.

. "$ROOT/tests/lib-record.sh"   # build_workload; HOME under $TMP

# sched_record [OUT [OPTIONS...]]: OUT (default rec.data) in the current
# directory, `perf sched record OPTIONS` of
# tests/workloads/threads (a main thread and 4 spinning threads that
# rename themselves) beside a spinner per CPU (perf on this kind of VM
# records no switch out of the idle task: see busy_cpus_start). True when
# OUT has sched_switch events; otherwise prints a skip (no perf) or a
# fail line and returns 1. OUT's .out file (rec.out) holds the workload's
# "pid P" and a "tid T" line per thread.
sched_record() {
	local rc out=${1:-rec.data}
	[ $# -gt 0 ] && shift
	if ! need perf gcc; then skip "fresh perf sched recording" "perf or gcc missing"; return 1; fi
	if ! build_workload threads -pthread; then fail "build tests/workloads/threads.c"; return 1; fi
	busy_cpus_start
	perf sched record -q "$@" -o "$out" -- sh -c 'echo "pid $$"; exec ./threads 4 0.2' > "${out%.data}.out" 2> rec.err
	rc=$?
	busy_cpus_stop
	if [ $rc -ne 0 ] || ! perf script -i "$out" 2> /dev/null | grep -q 'sched:sched_switch:'; then
		fail "perf sched record $* of a 4-thread workload" "exit $rc: $(head -c 300 rec.err)"
		return 1
	fi
	return 0
}

# nr_switches FILE: the sched_switch events of FILE as perf script counts them
nr_switches() { perf script -i "$1" 2> /dev/null | grep -c 'sched:sched_switch:'; }

# sched_record_lossy OUT: `perf sched record -m 1 -g` (a one-page ring,
# call chains) of 200 forks and execs beside the spinners: events are
# likely lost, FORK records race the tasks' first switches, and tids are
# seen woken before their FORK. True when OUT has sched_switch events.
sched_record_lossy() {
	local rc out=$1
	need perf || return 1
	busy_cpus_start
	perf sched record -q -m 1 -g -o "$out" -- sh -c 'for i in $(seq 200); do /bin/true; done' > /dev/null 2> rec.err
	rc=$?
	busy_cpus_stop
	if [ $rc -ne 0 ] || ! perf script -i "$out" 2> /dev/null | grep -q 'sched:sched_switch:'; then
		fail "perf sched record -m 1 -g of 200 forks" "exit $rc: $(head -c 300 rec.err)"
		return 1
	fi
	return 0
}
