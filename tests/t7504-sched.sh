# t7504: scorch sched latency / timehist equal perf sched latency / timehist
# on ../shared/heatmap/sched and on a recording made here (task names,
# switch counts, run times and delays; perf's INFO line aside, see docs).
SD=$SHARED/heatmap/sched
noinfo() { grep -v '^  INFO: ' "$1"; }

"$SCORCH" sched latency "$SD/perf.data" > lat.txt 2> lat.err
noinfo "$SD/latency.txt" > lat.exp
noinfo lat.txt > lat.got
check_same "sched/perf.data: latency table equals perf sched latency" lat.exp lat.got
check_grep "sched/perf.data: context switch bugs counted (23)" 'context switch bugs \(23 out of 47\)' lat.txt
"$SCORCH" sched latency -s max "$SD/perf.data" > latmax.txt
noinfo "$SD/latency-sort-max.txt" > latmax.exp
noinfo latmax.txt > latmax.got
check_same "sched/perf.data: latency -s max equals perf sched latency -s max" latmax.exp latmax.got
check_fails "bad --sort key fails" "$SCORCH" sched latency --sort nosuch "$SD/perf.data"
"$SCORCH" sched timehist "$SD/perf.data" > th.txt 2> th.err
check_same "sched/perf.data: timehist equals perf sched timehist" "$SD/timehist.txt" th.txt
"$SCORCH" sched timehist -w "$SD/perf.data" > thw.txt
check_same "sched/perf.data: timehist -w equals perf sched timehist -w" "$SD/timehist-wakeups.txt" thw.txt
# the scheduler-delay heat map input is timehist's sch delay column
awk 'NR > 3 { split($1, t, "."); d = $(NF - 1); split(d, m, ".");
	printf "%s%s %d\n", t[1], t[2], m[1] * 1000 + m[2] }' th.txt > delay.txt
check_same "sched/perf.data: sch delay column gives timehist-schdelay-us.txt" "$SD/timehist-schdelay-us.txt" delay.txt

# a fresh recording: a busy loop in the background and a sleep, as in the shared one
if need perf && perf --buildid-dir "$TMP/.debug" sched record -q -o rec.data -- sh -c '(i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done) & sleep 0.1; wait' \
	> /dev/null 2> rec.err && [ -s rec.data ]; then
	perf --buildid-dir "$TMP/.debug" sched latency -i rec.data > plat.txt 2>/dev/null
	"$SCORCH" sched latency rec.data > slat.txt
	noinfo plat.txt > plat.exp; noinfo slat.txt > slat.got
	check_same "fresh recording: latency equals perf sched latency" plat.exp slat.got
	n=$(grep -c ' ms |' slat.got)
	if [ "$n" -ge 3 ]; then pass "fresh recording: $n task rows"; else fail "fresh recording: $n task rows"; fi
	perf --buildid-dir "$TMP/.debug" sched timehist -i rec.data > pth.txt 2>/dev/null
	"$SCORCH" sched timehist rec.data > sth.txt
	check_same "fresh recording: timehist equals perf sched timehist" pth.txt sth.txt
	perf --buildid-dir "$TMP/.debug" sched timehist -w -i rec.data > pthw.txt 2>/dev/null
	"$SCORCH" sched timehist -w rec.data > sthw.txt
	check_same "fresh recording: timehist -w equals perf sched timehist -w" pthw.txt sthw.txt
else
	skip "fresh perf sched recording" "perf sched record failed here: $(head -c 200 rec.err)"
fi

# errors
check_fails "no sched events fails" "$SCORCH" sched latency "$SHARED/heatmap/block.perf.data"
"$SCORCH" sched latency "$SHARED/heatmap/block.perf.data" 2> nosched.err
check_grep "no sched events: message names the file and the events" 'block.perf.data: .*sched:sched_switch' nosched.err
check_fails "missing file fails" "$SCORCH" sched latency nosuch.data
check_fails "unknown mode fails" "$SCORCH" sched map "$SD/perf.data"
head -c 20000 "$SD/perf.data" > trunc.data
check_fails "truncated file without formats fails cleanly" "$SCORCH" sched latency trunc.data
