# t7520: scorch sched map equals perf sched map byte for byte (perf 6.1,
# run here on the same file, is the oracle; without --compact perf draws
# a column per CPU of the machine it runs on, as scorch does): on a fresh
# perf sched record of a 4-thread workload, on the offcpu cases of the
# fixtures and the corpus (sched_switch only, -a) and on
# ../shared/heatmap/sched.
. "$ROOT/tests/lib-sched.sh"
. "$ROOT/tests/lib-corpus.sh"

# same_as_perf DESC FILE [OPTIONS...]
same_as_perf() {
	local desc=$1 f=$2; shift 2
	perf sched map "$@" -i "$f" > p.txt 2> /dev/null
	"$SCORCH" sched map "$@" "$f" > s.txt 2> s.err
	check_same "$desc" p.txt s.txt
}

if sched_record; then
	for o in "" "--compact" "--cpus 0" "--cpus 1" "--cpus 0-1" "--compact --cpus 1" "--color-cpus 0" "--compact --color-cpus 1"; do
		# shellcheck disable=SC2086
		same_as_perf "fresh recording: map $o equals perf sched map $o" rec.data $o
	done
	"$SCORCH" sched map rec.data > s.txt
	n=$(nr_switches rec.data)
	check "fresh recording: a line per sched_switch ($n)" test "$(wc -l < s.txt)" -eq "$n"
	check "fresh recording: no warning" test ! -s s.err
	check_fails "--cpus that is not a CPU list fails" "$SCORCH" sched map --cpus 1-x rec.data
	"$SCORCH" sched map --cpus 9999 rec.data 2> cpus.err
	check_grep "--cpus beyond 4095: the message quotes the list" "not a CPU list.*9999" cpus.err
	check_fails "--color-pids that is not a list fails" "$SCORCH" sched map --color-pids a rec.data
	check_fails "map takes no --sort" "$SCORCH" sched map --sort max rec.data
	# on a terminal: the CPU of --color-cpus in red, the tasks of
	# --color-pids in blue (perf 6.1 crashes on --color-pids and colours
	# every task blue on a terminal, so it is no oracle here)
	if need script; then
		tid=$(awk '/=> /{ n = split($NF, a, ":"); if (a[n] > 0) { print a[n]; exit } }' s.txt)
		script -qc "$SCORCH sched map --color-cpus 0 --color-pids $tid rec.data" /dev/null > tty.txt 2>&1
		check_grep "terminal: --color-cpus 0 paints CPU 0's star red" "$(printf '\033\\[41m\\*\033\\[m')" tty.txt
		check_grep "terminal: --color-pids $tid paints its task blue" "$(printf '\033\\[34m[A-Z][0-9] => [^:]*:%s\033\\[m' "$tid")" tty.txt
		check "piped: no colours" test "$(grep -c "$(printf '\033')" s.txt)" -eq 0
	else
		skip "terminal colours" "script (bsdutils) missing"
	fi
fi

# lost events (perf's closing INFO line), tasks forked anew
if sched_record_lossy lossy.data; then
	same_as_perf "lossy recording: map equals perf sched map" lossy.data
	same_as_perf "lossy recording: map --compact --cpus 0 equals perf's" lossy.data --compact --cpus 0
fi

# errors
perf record -q -e raw_syscalls:sys_enter -o tp.data -- sleep 0.01 > /dev/null 2>&1
"$SCORCH" sched map tp.data 2> nosched.err
check "no sched events: fails" test $? -ne 0
check_grep "no sched events: message names the file and the event" 'tp.data: .*sched:sched_switch' nosched.err
check_fails "missing file fails" "$SCORCH" sched map nosuch.data

# the system-wide sched_switch recordings of the fixtures and the corpus
offcpu_map() {
	same_as_perf "$L offcpu: map equals perf sched map" "$C/offcpu/perf.data"
	same_as_perf "$L offcpu: map --compact equals perf's" "$C/offcpu/perf.data" --compact
}
each_root offcpu_map

need_shared heatmap/sched || return 0
SD=$SHARED/heatmap/sched
same_as_perf "heatmap/sched: map equals perf sched map" "$SD/perf.data"
same_as_perf "heatmap/sched: map --compact --cpus 1 equals perf's" "$SD/perf.data" --compact --cpus 1
if [ "$(getconf _NPROCESSORS_CONF)" = 2 ]; then
	"$SCORCH" sched map "$SD/perf.data" > ref.txt
	check_same "heatmap/sched: map equals the stored map.txt (made on 2 CPUs)" "$SD/map.txt" ref.txt
else
	skip "heatmap/sched: stored map.txt" "it has 2 CPU columns; this machine has $(getconf _NPROCESSORS_CONF)"
fi
