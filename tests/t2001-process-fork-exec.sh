# t2001: the process model on a fresh recording of a shell that forks and
# execs work_fp twice: each exec'd child is named work_fp with its own
# symbols (fork copies the parent's maps, the exec's MMAPs replace them),
# the shell keeps its name, and scorch script's comm/tid columns agree
# with perf script's for every sample.
if ! need perf gcc; then
	skip "fork/exec recording" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$ROOT/tests/workloads/work.c"
if ! perf --buildid-dir cache record -q -F 997 -g -o fe.data -- sh -c './work_fp 0.3 > /dev/null; ./work_fp 0.3 > /dev/null' 2> rec.err; then
	skip "fork/exec recording" "perf record failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
"$SCORCH" fold --pid --buildid-dir cache fe.data > fe.folded 2> fold.err
n=$(grep -c '^work_fp-[0-9]*;.*main;top_one;mid_x;leaf_a;spin ' fe.folded)
check "both exec'd children resolve their own symbols" test "$(grep '^work_fp-' fe.folded | cut -d';' -f1 | sort -u | wc -l)" -ge 2 -a "$n" -ge 2
check "no child sample is named after the shell with work_fp symbols" test -z "$(grep '^sh-[0-9]*;.*;spin ' fe.folded)"
perf --buildid-dir cache script -i fe.data -F comm,tid 2>/dev/null | awk '{ print $1, $2 }' > perf.ids
"$SCORCH" script --buildid-dir cache fe.data 2>/dev/null | grep -v '^\s' | grep -v '^$' |
	awk '{ print $1, $2 }' > scorch.ids
check_same "comm and tid of every sample as perf script" perf.ids scorch.ids
perf --buildid-dir cache script -i fe.data > perf-full.txt 2>/dev/null
"$SCORCH" script --buildid-dir cache fe.data > scorch-full.txt 2>/dev/null
check_same "whole script output == perf script (kernel frames too)" perf-full.txt scorch-full.txt
# --pid/--tid: the real ids, as the text path folds perf script -F with pid
F=comm,pid,tid,time,period,event,ip,sym,symoff,dso
for o in pid tid; do
	perf --buildid-dir cache script -i fe.data -F $F 2>/dev/null | "$SCORCH" fold --$o > text.$o 2>/dev/null
	"$SCORCH" fold --$o --buildid-dir cache fe.data > data.$o 2>/dev/null
	check_same "fold --$o == fold --$o of perf script -F $F" text.$o data.$o
done
