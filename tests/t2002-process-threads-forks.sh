# t2002: threads and forks in the process model: a multi-threaded
# workload (threads named wk-N, sharing one address space, one of them
# loading nothing of its own) and a forking one (children copy the
# parent's maps without exec) fold and print as perf script shows them.
if ! need perf gcc; then
	skip "threads/forks recording" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
for w in threads forks; do
	gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread \
		-o $w "$ROOT/tests/workloads/$w.c" || { skip "$w" "build failed"; continue; }
	if ! perf --buildid-dir cache record -q -F 499 -g -o $w.data ./$w 3 0.3 > /dev/null 2> rec.err; then
		skip "$w recording" "perf record failed: $(head -1 rec.err)"
		continue
	fi
	perf --buildid-dir cache script -i $w.data > perf.$w 2>/dev/null
	"$SCORCH" script --buildid-dir cache $w.data > scorch.$w 2>/dev/null
	check_same "$w: script == perf script" perf.$w scorch.$w
	"$SCORCH" fold --buildid-dir cache $w.data > data.$w 2>/dev/null
	"$SCORCH" fold < perf.$w > text0.$w 2>/dev/null
	check_same "$w: fold(perf.data) == fold(perf script)" text0.$w data.$w
done
check_grep "threads: each thread under its own name" '^wk-1;.*thread_body' data.threads
check_grep "forks: children resolve through the copied maps" ';child_work' data.forks
