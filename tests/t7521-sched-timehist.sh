# t7521: scorch sched timehist -s/-S (summary), -V, --state, -C, -p and -t
# equal perf sched timehist's output byte for byte (perf 6.1, run here on
# the same file, is the oracle): on a fresh perf sched record of a
# 4-thread workload, on ../shared/heatmap/sched (also against its stored
# outputs) and on the offcpu cases of the fixtures and corpus (system-wide
# sched_switch with kernel call chains).
. "$ROOT/tests/lib-sched.sh"
. "$ROOT/tests/lib-corpus.sh"

# same_as_perf DESC FILE [OPTIONS...]
same_as_perf() {
	local desc=$1 f=$2; shift 2
	perf sched timehist "$@" -i "$f" > p.txt 2> /dev/null
	"$SCORCH" sched timehist "$@" "$f" > s.txt 2> s.err
	check_same "$desc" p.txt s.txt
}

if sched_record; then
	pid=$(awk '$1 == "pid" { print $2; exit }' rec.out)
	tids=$(awk '$1 == "tid" && $2 != '"$pid"' { print $2 }' rec.out | head -2 | paste -sd, -)
	tid=${tids%%,*}
	for o in "-s" "--summary" "-S" "-V" "--state" "-C 0" "--cpu 1" "-p $pid" "-t $tid" \
		"-s --state" "-S --state" "-V -w --state" "-S -C 0 -V" "-s -C 1" "-s -p $pid" \
		"-S -t $tids" "-w -p $pid" "-S -V --state -w -C 1 -t $pid,$tid"; do
		# shellcheck disable=SC2086
		same_as_perf "fresh recording: timehist $o equals perf's" rec.data $o
	done
	"$SCORCH" sched timehist -s rec.data > s.txt
	# (by tid: a thread may switch before or after it renames itself)
	check_grep "fresh recording: -s lists the workload's threads" "\\[$tid/$pid\\]" s.txt
	check_fails "-s and -w together fail, as in perf" "$SCORCH" sched timehist -s -w rec.data
	check_fails "-C that is not a CPU list fails" "$SCORCH" sched timehist -C x rec.data
	check_fails "-p that is not a list fails" "$SCORCH" sched timehist -p 1,,2 rec.data
	check_fails "latency takes no --state" "$SCORCH" sched latency --state rec.data
	check_fails "--max-stack that is not a number fails" "$SCORCH" sched timehist --max-stack x rec.data
fi

# rows with kernel call chains (recorded with -g): perf resolves up to
# --max-stack + 2 frames, leaves out schedule and __schedule, and maps
# only MMAP records (user frames stay [unknown])
if sched_record recg.data -g; then
	for o in "" "-w --state" "--max-stack 3 -C 0"; do
		# shellcheck disable=SC2086
		same_as_perf "fresh recording with call chains: timehist $o equals perf's" recg.data $o
	done
fi

# lost events ("lost N events on cpu C" lines, -s too), tasks forked anew
# (a tid woken before its FORK is a new task after it, as in perf)
if sched_record_lossy lossy.data; then
	for o in "" "-s" "-S -V --state -w" "-C 0 --max-stack 1"; do
		# shellcheck disable=SC2086
		same_as_perf "lossy recording: timehist $o equals perf's" lossy.data $o
	done
	perf sched latency -i lossy.data 2> /dev/null | grep -v '^  INFO: ' > plat.txt
	"$SCORCH" sched latency lossy.data 2> /dev/null | grep -v '^  INFO: ' > slat.txt
	check_same "lossy recording: latency equals perf sched latency (INFO lines aside)" plat.txt slat.txt
fi

offcpu_timehist() {
	local o
	for o in "-s" "-s --state -C 0" "" "-V --state -w" "-C 1 --max-stack 2" "--no-call-graph" "-S -p 0"; do
		# shellcheck disable=SC2086
		same_as_perf "$L offcpu: timehist $o equals perf's" "$C/offcpu/perf.data" $o
	done
}
each_root offcpu_timehist

need_shared heatmap/sched || return 0
SD=$SHARED/heatmap/sched
for o in "-s" "-S" "-V" "--state" "-s --state" "-S -C 0" "-V -w --state -C 1" "-p 22691" "-s -t 22693,22694"; do
	# shellcheck disable=SC2086
	same_as_perf "heatmap/sched: timehist $o equals perf's" "$SD/perf.data" $o
done
"$SCORCH" sched timehist -s "$SD/perf.data" > sum.txt
check_same "heatmap/sched: -s equals the stored timehist-summary.txt" "$SD/timehist-summary.txt" sum.txt
"$SCORCH" sched timehist -V "$SD/perf.data" > vis.txt
check_same "heatmap/sched: -V equals the stored timehist-cpu-visual.txt" "$SD/timehist-cpu-visual.txt" vis.txt
