# t7407: scorch record's errors: permission (perf_event_paranoid and the
# fix named), events the machine lacks, unknown events, bad options; none
# leaves a half-written file behind.
. "$ROOT/tests/lib-record.sh"

"$SCORCH" record -e no-such-event -o e.data -- true 2> err.txt
check "unknown event: exit 1" test $? -eq 1
check_grep "unknown event: named, with the known ones" "unknown event 'no-such-event' \(known: cpu-clock" err.txt
check "unknown event: no file written" test ! -e e.data

if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	skip "hardware events are refused without a PMU" "this machine has a cpu PMU"
else
	"$SCORCH" record -e instructions -o e.data -- true 2> err.txt
	check "missing hardware event: exit 1" test $? -eq 1
	check_grep "missing hardware event: clear message" "event 'instructions' is not supported by this machine: it has no hardware PMU" err.txt
	"$SCORCH" record -q -e cycles -o e.data -- true 2> err.txt
	check "cycles falls back to cpu-clock (exit 0)" test $? -eq 0
	check_grep "... and says so" 'cycles event is not supported .*falling back to cpu-clock' err.txt
	perf report --header-only -i e.data 2>&1 | grep -q 'event : name = cpu-clock'
	check "... and the file names cpu-clock" test $? -eq 0
	"$SCORCH" record -q -o d.data -- true 2> err.txt
	check "the default event falls back quietly" test ! -s err.txt
fi

if [ "$(id -u)" = 0 ] && need setpriv && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SCORCH" record -a -o - -- /bin/true 2> err.txt > a.data
	check "no permission for -a: exit 1" test $? -eq 1
	check_grep "no permission: names kernel.perf_event_paranoid and its value" \
		"kernel.perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid)" err.txt
	check_grep "no permission: names the fixes (CAP_PERFMON, sysctl)" 'CAP_PERFMON.*sysctl -w kernel.perf_event_paranoid=' err.txt
	if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
		# -o -: the file is opened by this (root) shell, as $TMP is 0700
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SCORCH" record -q -F 997 -e cpu-clock -g -o - -- /bin/true > u.data 2> err.txt
		check "paranoid 2, a command: user space only still works" test $? -eq 0
		perf report --header-only -i u.data 2>&1 | grep -q 'exclude_kernel = 1'
		check "... and the event excludes the kernel" test $? -eq 0
		check_grep "... with a warning naming the setting" 'perf_event_paranoid is 2: recording user space only' err.txt
	fi
else
	skip "permission messages" "needs root, setpriv and perf_event_paranoid >= 1"
fi

check_fails "nothing to record is a usage error" "$SCORCH" record
"$SCORCH" record > /dev/null 2>&1
check "... exit 2" test $? -eq 2
"$SCORCH" record -F abc -- true > /dev/null 2>&1
check "bad -F: exit 2" test $? -eq 2
"$SCORCH" record -m 3 -- true > /dev/null 2>&1
check "-m not a power of two: exit 2" test $? -eq 2
"$SCORCH" record -p 1 -a -- true > /dev/null 2>&1
check "-p with -a: exit 2" test $? -eq 2
"$SCORCH" record -F 1000000 -o f.data -- true 2> err.txt
check "-F above the kernel maximum: exit 1" test $? -eq 1
check_grep "... naming kernel.perf_event_max_sample_rate" 'perf_event_max_sample_rate' err.txt
"$SCORCH" record -p 999999999 -o p.data 2> err.txt
check "-p of a missing process: exit 1" test $? -eq 1
check_grep "... with a message" 'no such process: 999999999' err.txt
"$SCORCH" record -o /nonexistent-dir/x.data -- true 2> err.txt
check "unwritable output: exit 1" test $? -eq 1
check_grep "... naming the file" '/nonexistent-dir/x.data: No such file or directory' err.txt
"$SCORCH" record --svg x.svg -o - -- true > /dev/null 2>&1
check "--svg with -o -: exit 2" test $? -eq 2
"$SCORCH" record --help > help.txt
check "--help: exit 0" test $? -eq 0
check_grep "--help lists --call-graph" '--call-graph MODE' help.txt
