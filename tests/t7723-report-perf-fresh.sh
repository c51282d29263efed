# t7723: as t7720, on recordings made here with the workload binaries in
# place: frame pointers (-g), DWARF (--call-graph dwarf; and C++
# exceptions, tests/workloads/throw.cpp, on one point), two events in one file, a tracepoint with call chains (sched:sched_switch), a
# system-wide recording (-a -g) and a pipe (perf record -o -); perf report is the oracle, on the same
# file and build-id cache. The system-wide one is compared on fewer
# combinations (it holds every task of the machine: slow to report twice
# per combination). For the file of tracepoints alone perf's default sort
# is -s trace (the events' fields as perf script prints them).
. "$ROOT/tests/report-matrix.sh"
if ! need perf gcc; then
	skip "report == perf report on fresh recordings" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$ROOT/tests/workloads/work.c" &&
gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o work_nofp "$ROOT/tests/workloads/work.c" ||
	{ fail "build the workloads"; return 0; }
# rec NAME PERF-RECORD-ARGS...: perf.data NAME.data, cache cache-NAME
rec() {
	local n=$1
	shift
	perf --buildid-dir "$PWD/cache-$n" record -q -o "$n.data" "$@" > /dev/null 2> "rec-$n.err" && return 0
	skip "report == perf report ($n)" "perf record failed: $(head -1 "rec-$n.err")"
	return 1
}
if rec fp -F 997 -g ./work_fp 0.2; then
	report_matrix "fresh fp" fp.data --buildid-dir "$PWD/cache-fp"
fi
if rec dwarf -F 299 --call-graph dwarf,8192 ./work_nofp 0.2; then
	report_matrix "fresh dwarf" dwarf.data --buildid-dir "$PWD/cache-dwarf"
fi
# C++ exceptions, DWARF: main's cold part (main.cold) gives inline rows
# named main, which perf's call graphs merge with main's own frames by
# name. Whole outputs are not compared here: where a node's kids mix
# inline rows and addresses, perf's lookups among them depend on its
# objects' heap addresses (docs/scorch-report.md), so some recordings
# split or order a kid otherwise. Checked where perf merges the two:
# main under __libc_start_call_main (or main (inlined), whichever chain
# came first) and the largest kid below it as perf's
if g++ -O2 -g -o throw "$ROOT/tests/workloads/throw.cpp" 2> /dev/null &&
	rec throw -F 999 --call-graph dwarf ./throw 0.4; then
	mains() { # the first entry's graph: 3 lines after __libc_start_call_main
		awk '/^ +[0-9.]+%/ { n++ } n == 1 && at && k < 3 { print; k++ }
			n == 1 && /^ +__libc_start_call_main$/ { at = 1 }' "$1" |
			sed 's/main (inlined)$/main/'
	}
	perf --buildid-dir "$PWD/cache-throw" report -i throw.data --stdio > throw-perf.txt 2> /dev/null
	"$SCORCH" report --buildid-dir "$PWD/cache-throw" -i throw.data --stdio > throw-scorch.txt 2> /dev/null
	mains throw-perf.txt > mains-perf.txt
	mains throw-scorch.txt > mains-scorch.txt
	# perf's own lookup can miss too and list the two apart: then which
	# it does depends on its heap addresses, and the check says so
	awk '/^ +[0-9.]+%/ { n++ } n == 1' throw-perf.txt > first-perf.txt
	if [ "$(grep -cE -- '--[0-9.]+%--main( \(inlined\))?$' first-perf.txt)" -ge 2 ]; then
		skip "fresh dwarf c++ exceptions: main and its cold part one kid, as perf's" \
			"perf lists main (or main (inlined)) as two kids in this recording: its lookup among the kids missed (it compares objects by heap address, docs/scorch-report.md)"
	else
		check "fresh dwarf c++ exceptions: main and its cold part one kid, as perf's: $(tr -s ' ' < mains-perf.txt | tr '\n' ' ')" \
			test -s mains-perf.txt -a "$(cat mains-perf.txt)" = "$(cat mains-scorch.txt)"
	fi
fi
if rec multi -e cpu-clock,task-clock -F 499 -g ./work_fp 0.2; then
	report_matrix "fresh multi-event" multi.data --buildid-dir "$PWD/cache-multi"
fi
# pipe mode: perf settles children before the attrs arrive, so none
# (keys without symbols: a pipe carries no build ids for the vdso)
if perf record -q -F 997 -g -o - ./work_fp 0.2 > pipe.data 2> rec-pipe.err; then
	for o in "-s comm -g none" "-n -s comm,pid -g none" "--children -s pid -g none"; do
		report_same "fresh pipe" pipe.data "$o"
	done
else
	skip "report == perf report (pipe)" "perf record -o - failed: $(head -1 rec-pipe.err)"
fi
busy_cpus_start
if rec tp -e sched:sched_switch -g -- sh -c 'for i in 1 2 3; do sleep 0.01; ./work_fp 0.02 > /dev/null; done'; then
	busy_cpus_stop
	report_matrix "fresh tracepoint" tp.data --buildid-dir "$PWD/cache-tp"
fi
busy_cpus_stop
# The system-wide one on the combinations issue #16 lists but two:
# -s srcline (names perf gives objects addr2line fails on differ) and
# -s sym alone (no comm key: perf makes no collapse, so a second entry
# its first tree makes for a key it holds prints apart; scorch's replay
# of that tree needs the collapse), both known differences
# (docs/scorch-report.md, COMPARED WITH PERF).
if rec sys -a -g -F 199 -- ./work_fp 0.2; then
	for o in "" "--no-children" "-g graph" "-g fractal" "-g flat" "-g folded" "-g none" \
		"-g caller" "-g callee" "-s comm" "-s pid" "-s dso" "-s cpu" "-s parent" \
		"-s symbol_size" "-s dso,sym" "-s comm,pid" "-s sym,dso,comm" "-n" "--percent-limit 2" \
		"-G" "--max-stack 3"; do
		report_same "fresh system-wide" sys.data "$o" --buildid-dir "$PWD/cache-sys"
	done
fi
