# t7504: scorch sched latency / timehist equal perf sched latency / timehist
# on a recording made here (task names, switch counts, run times and
# delays; perf's INFO line aside, see docs) and, with ../shared, on
# ../shared/heatmap/sched.
noinfo() { grep -v '^  INFO: ' "$1"; }

# a fresh recording: a busy loop in the background and a sleep
if ! need perf; then skip "fresh perf sched recording" "perf missing"; return 0; fi
if perf --buildid-dir "$TMP/.debug" sched record -q -o rec.data -- sh -c '(i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done) & sleep 0.1; wait' \
	> /dev/null 2> rec.err && [ -s rec.data ]; then
	perf --buildid-dir "$TMP/.debug" sched latency -i rec.data > plat.txt 2>/dev/null
	"$SCORCH" sched latency rec.data > slat.txt
	noinfo plat.txt > plat.exp; noinfo slat.txt > slat.got
	check_same "fresh recording: latency equals perf sched latency" plat.exp slat.got
	n=$(grep -c ' ms |' slat.got)
	if [ "$n" -ge 3 ]; then pass "fresh recording: $n task rows"; else fail "fresh recording: $n task rows"; fi
	perf --buildid-dir "$TMP/.debug" sched latency -s max -i rec.data > platmax.txt 2>/dev/null
	"$SCORCH" sched latency -s max rec.data > slatmax.txt
	noinfo platmax.txt > platmax.exp; noinfo slatmax.txt > slatmax.got
	check_same "fresh recording: latency -s max equals perf sched latency -s max" platmax.exp slatmax.got
	check_fails "bad --sort key fails" "$SCORCH" sched latency --sort nosuch rec.data
	perf --buildid-dir "$TMP/.debug" sched timehist -i rec.data > pth.txt 2>/dev/null
	"$SCORCH" sched timehist rec.data > sth.txt
	check_same "fresh recording: timehist equals perf sched timehist" pth.txt sth.txt
	perf --buildid-dir "$TMP/.debug" sched timehist -w -i rec.data > pthw.txt 2>/dev/null
	"$SCORCH" sched timehist -w rec.data > sthw.txt
	check_same "fresh recording: timehist -w equals perf sched timehist -w" pthw.txt sthw.txt
	check_fails "unknown mode fails" "$SCORCH" sched nosuch rec.data
	head -c $(( $(wc -c < rec.data) / 2 )) rec.data > trunc.data
	check_fails "truncated file without formats fails cleanly" "$SCORCH" sched latency trunc.data
else
	fail "fresh perf sched recording" "perf sched record failed here: $(head -c 200 rec.err)"
fi

# errors
# a tracepoint recording without sched events, and one without tracepoints
perf --buildid-dir "$TMP/.debug" record -q -e raw_syscalls:sys_enter -o tp.data -- sleep 0.01 > /dev/null 2>&1
check_fails "no sched events fails" "$SCORCH" sched latency tp.data
"$SCORCH" sched latency tp.data 2> nosched.err
check_grep "no sched events: message names the file and the events" 'tp.data: .*sched:sched_switch' nosched.err
perf --buildid-dir "$TMP/.debug" record -q -F 99 -o cpu.data -- sleep 0.05 > /dev/null 2>&1
"$SCORCH" sched latency cpu.data 2> notp.err
check_grep "no tracepoints: message names the file and says how to record" 'cpu.data: .*perf sched record' notp.err
check_fails "missing file fails" "$SCORCH" sched latency nosuch.data

# perf sched's outputs on the reference recording (../shared)
need_shared heatmap/sched || return 0
SD=$SHARED/heatmap/sched
"$SCORCH" sched latency "$SD/perf.data" > lat.txt 2> lat.err
noinfo "$SD/latency.txt" > lat.exp
noinfo lat.txt > lat.got
check_same "sched/perf.data: latency table equals perf sched latency" lat.exp lat.got
check_grep "sched/perf.data: context switch bugs counted (23)" 'context switch bugs \(23 out of 47\)' lat.txt
"$SCORCH" sched latency -s max "$SD/perf.data" > latmax.txt
noinfo "$SD/latency-sort-max.txt" > latmax.exp
noinfo latmax.txt > latmax.got
check_same "sched/perf.data: latency -s max equals perf sched latency -s max" latmax.exp latmax.got
"$SCORCH" sched timehist "$SD/perf.data" > th.txt 2> th.err
check_same "sched/perf.data: timehist equals perf sched timehist" "$SD/timehist.txt" th.txt
"$SCORCH" sched timehist -w "$SD/perf.data" > thw.txt
check_same "sched/perf.data: timehist -w equals perf sched timehist -w" "$SD/timehist-wakeups.txt" thw.txt
# the scheduler-delay heat map input is timehist's sch delay column
awk 'NR > 3 { split($1, t, "."); d = $(NF - 1); split(d, m, ".");
	printf "%s%s %d\n", t[1], t[2], m[1] * 1000 + m[2] }' th.txt > delay.txt
check_same "sched/perf.data: sch delay column gives timehist-schdelay-us.txt" "$SD/timehist-schdelay-us.txt" delay.txt
