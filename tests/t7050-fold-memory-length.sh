# t7050: scorch fold's memory follows what a recording holds (processes
# alive at a time, unique stacks, objects), not its length (issue #13: a
# recording of the same workload 10x longer raises peak RSS by <= 10%).
# A synthetic system-wide-like recording in pipe mode: a shell with 200
# maps forks a child each millisecond that execs, maps two objects,
# takes 6 samples and exits; 16,000 children, then 160,000 (streamed,
# never on disk). Before exited processes' maps and threads were
# dropped, every child kept a copy of the shell's maps: 10x the children
# took ~9x the memory. The peak RSS is scorch's own (getrusage of the
# child); no timing is measured. The folded result is checked against
# the generator (6 samples a child) and, with perf, against perf
# script's text folded by scorch's text collapser (t8001: identical to
# stackcollapse-perf.pl).
if ! need python3; then
	skip "memory against recording length" "python3 missing"
	return 0 2>/dev/null || exit 0
fi
cat > gen.py <<'PY'
"""Synthetic system-wide-like recording in pipe mode on stdout: a shell
(pid 1, 200 maps) forks N children, one a millisecond; each execs
"work", maps two objects, takes 6 samples (6 chains) and exits."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ['ROOT'], 'tests'))
import hostile_perfdata as H
rec, cstr, MMAP, COMM, SAMPLE = H.rec, H.cstr, H.MMAP, H.COMM, H.SAMPLE
EXIT, ROUND = 4, 3 + 65
FORK = H.FORK
sid = lambda pid, t: H.sample_id(pid, pid, t)


def comm(pid, name, t, exec_=False):
    return rec(COMM, struct.pack('<II', pid, pid) + cstr(name) + sid(pid, t), misc=0x2000 if exec_ else 0)


def task(kind, pid, ppid, t):
    return rec(kind, struct.pack('<IIIIQ', pid, ppid, pid, ppid, t) + sid(pid, t))


def sample(pid, t, chain):
    return H.sample(pid, chain[0], t, chain)


STACKS = [[0x400100 + 0x10 * k, 0x7f0000000100, 0x400200] for k in range(3)] + \
         [[0x400300 + 0x10 * k, 0x400200] for k in range(3)]


def generate(out, n):
    out.write(H.pipe_header())
    head = [comm(1, 'sh', 1)]
    for k in range(200):
        head.append(H.mmap(1, 0x10000000 + k * 0x10000, 0x1000, '/t7050/lib%d.so' % k, 2))
    out.write(b''.join(head))
    t = 1000
    batch = []
    for i in range(n):
        pid = 1000 + i
        t += 1000000
        batch.append(task(FORK, pid, 1, t) + comm(pid, 'work', t + 1, True) +
                     H.mmap(pid, 0x400000, 0x10000, '/t7050/work', t + 2) +
                     H.mmap(pid, 0x7f0000000000, 0x10000, '/t7050/libc.so', t + 3) +
                     b''.join(sample(pid, t + 10 + j, st) for j, st in enumerate(STACKS)) +
                     task(EXIT, pid, 1, t + 100))
        if i % 100 == 99:
            batch.append(rec(ROUND, b''))
            out.write(b''.join(batch))
            batch = []
    batch.append(rec(ROUND, b''))
    out.write(b''.join(batch))


if __name__ == '__main__':
    # gen.py N FILE: the stream into FILE
    # gen.py N OUT CMD...: CMD fed the stream on stdin, its output in
    # OUT; prints "peak-RSS-KB exit-status" of CMD
    n, outpath, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    H.feed(lambda out: generate(out, n), outpath, cmd)
PY
N=16000
read -r rss1 rc1 < <(python3 gen.py $N fold1.out "$SCORCH" fold -)
read -r rss10 rc10 < <(python3 gen.py $((N * 10)) fold10.out "$SCORCH" fold -)
check "fold of $N children succeeds" test "$rc1" = 0
check "fold of $((N * 10)) children succeeds" test "$rc10" = 0
total() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
check "every sample of $N children folded" test "$(total fold1.out)" = $((N * 6))
check "every sample of $((N * 10)) children folded" test "$(total fold10.out)" = $((N * 60))
if grep -q __asan_init "$SCORCH" 2>/dev/null; then
	skip "peak RSS of 10x the children within 10%" "sanitizer build (quarantine, shadow memory)"
elif [ "$rss10" -le $((rss1 + rss1 / 10)) ]; then
	pass "peak RSS of 10x the children within 10% (${rss1} KB, ${rss10} KB)"
else
	fail "peak RSS of 10x the children within 10%" "${rss1} KB for $N children, ${rss10} KB for $((N * 10))"
fi
if need perf; then
	python3 gen.py 3000 small.data
	perf script -i small.data > small.txt 2> perf.err
	"$SCORCH" fold --format=perf-script small.txt > ref.folded 2>/dev/null
	"$SCORCH" fold small.data > small.folded 2>/dev/null
	check_same "fold of 3000 children as perf script | collapse" ref.folded small.folded
else
	skip "fold of 3000 children as perf script | collapse" "perf missing"
fi
