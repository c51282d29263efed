# t7726: scorch report == perf report where two rules of perf's were
# missed on a big system-wide recording (issue #16):
# - a tid used again (pids wrap on a busy machine) is a new thread to
#   perf: each FORK makes a new struct thread. Its entries' tie order
#   (callers above callees only within one thread) and -s pid's name
#   (the comm that thread ended with) follow it. A crafted perf.data:
#   pid 700 "work" takes a sample of a 5-deep chain and exits; a new
#   process takes pid 700, is named "work2" and takes three samples.
#   Before, the two were one thread: the tie order and -s pid differed.
# - perf makes .plt symbols only for an object it loaded symbols of: a
#   stripped static-pie's .plt (its IFUNCs, memcpy and strlen) stays
#   unnamed, where scorch named it "@plt". Recorded here.
. "$ROOT/tests/report-matrix.sh"
if ! need perf python3; then
	skip "report == perf report on a reused tid" "perf or python3 missing"
	return 0 2>/dev/null || exit 0
fi
cat > gen.py <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ['ROOT'], 'tests'))
import hostile_perfdata as H
USER, EXIT, PID = 0xfffffffffffffe00, 4, 700


def task(rtype, t):
    return H.rec(rtype, struct.pack('<IIIIQ', PID, 1, PID, 1, t) + H.sample_id(PID, PID, t))


def smp(t, chain):
    ips = [USER] + chain
    return H.rec(H.SAMPLE, struct.pack('<QIIQQQ', chain[0], PID, PID, t, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=2)


data = H.comm(PID, 'work', 1)
data += smp(10, [0x1000, 0x2000, 0x3000, 0x4000, 0x5000])
data += task(EXIT, 20)
data += task(H.FORK, 30) + H.comm(PID, 'work2', 31)
data += smp(40, [0x9000, 0xa000])
data += smp(41, [0x8000, 0xb000, 0xc000])
data += smp(42, [0x9066000000000084, 0xb000])  # user, above 2^63: [.]
H.file_mode(sys.argv[1], data)
PY
export HOME=$TMP/home
mkdir -p "$HOME"
if python3 gen.py reuse.data; then
	report_matrix "reused tid" reuse.data
else
	fail "write the crafted recording"
fi

if ! need gcc || ! gcc -O1 -fno-builtin -static-pie -s -o ifunc "$ROOT/tests/workloads/ifunc.c" 2> cc.err; then
	skip "report == perf report on a stripped static-pie" "gcc -static-pie failed (libc.a missing?): $(head -1 cc.err 2>/dev/null)"
	return 0 2>/dev/null || exit 0
fi
if ! perf --buildid-dir "$PWD/cache" record -q -F 2999 -g -o plt.data ./ifunc 0.3 > /dev/null 2> rec.err; then
	skip "report == perf report on a stripped static-pie" "perf record failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
"$SCORCH" report --no-children -g none plt.data > plt.txt 2> /dev/null
check_grep "report shows the static-pie's unnamed addresses" ' ifunc +\[\.\] 0x' plt.txt
check_fails "the .plt frames are not named @plt" grep -q '@plt' plt.txt
report_matrix "stripped static-pie" plt.data --buildid-dir "$PWD/cache"
perf --buildid-dir "$PWD/cache" script -i plt.data > plt-script.txt 2> /dev/null
"$SCORCH" fold --format=perf-script plt-script.txt > pipeline.folded 2> /dev/null
"$SCORCH" fold --buildid-dir "$PWD/cache" plt.data > data.folded 2> /dev/null
check_same "fold of the static-pie equals the pipeline" pipeline.folded data.folded
