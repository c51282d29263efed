# t7509: `scorch sched latency` says what a recording lacks: one made with
# `scorch record --offcpu` has no sched_stat_runtime, so every Runtime is
# 0; the warning names the events to record, and a recording of those
# gives perf sched latency's run times.
case $(uname -m) in x86_64|aarch64) ;; *) skip "sched latency needs" "workload needs x86_64 or aarch64"; return 0 ;; esac
wl=scn$$
if ! cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o $wl \
	"$ROOT/tests/workloads/offcpu_sleep.c"; then
	fail "build the workload"
	return 0
fi
export HOME=$TMP
# both recordings beside busy_cpus spinners: on a quiet machine of this
# kind the switches back in from the idle task are not recorded (lib.sh)
busy_cpus_start
"$SCORCH" record --offcpu -q -N -o off.data -- ./$wl > /dev/null 2> err.txt
rc=$?
busy_cpus_stop
check "record --offcpu: exit 0" test $rc -eq 0
"$SCORCH" sched latency off.data > lat.txt 2> err.txt
check "sched latency on it: exit 0" test $? -eq 0
check_grep "it says every Runtime is 0 for want of sched_stat_runtime" \
	'no sched:sched_stat_runtime events, so every Runtime is 0' err.txt
events=$(sed -n 's/.*scorch record -a -e \([^ ]*\).*/\1/p' err.txt)
check "it names the events to record ($events)" test -n "$events"
"$SCORCH" sched --help > help.txt
check_grep "sched --help names sched_stat_runtime" 'sched_stat_runtime' help.txt

busy_cpus_start
"$SCORCH" record -q -N -a -e "${events:-sched:sched_switch}" -o sl.data -- ./$wl > /dev/null 2> err.txt
rc=$?
busy_cpus_stop
check "record with those events: exit 0" test $rc -eq 0
"$SCORCH" sched latency sl.data > sl.txt 2> err.txt
check "sched latency: no warning" test ! -s err.txt
perf sched latency -i sl.data 2> /dev/null | grep "^ *$wl:" > want.txt
grep "^ *$wl:" sl.txt > got.txt
check "the workload has a run time" test -n "$(grep -v '|      0.000 ms |' got.txt)"
check_same "the workload's row is perf sched latency's" want.txt got.txt
