# t7055: scorch fold's memory does not grow with the distinct addresses
# that resolve to no symbol (issue #13: peak RSS <= 64 MiB on a
# system-wide recording, whose unresolved addresses -- stripped or
# missing binaries, JIT code -- were nine in ten of its ~100k frames).
# Folded, such an address is named from its object alone ("[name]"),
# so it is no frame of its own (unless --addrs or a model asks for the
# address). A synthetic pipe-mode recording: one process maps a binary
# that does not exist and takes N samples of 20 user addresses each,
# drawn once from 2,000 addresses and once all distinct (400,000).
# Before, every distinct address was a frame (~230 bytes in the
# interning maps): ~90 MB more for the second; the address memo alone
# is bounded. The peak RSS is scorch's own (getrusage of the child); no
# timing is measured. The folded result is checked against the
# generator (one stack of N samples) and, with perf, against perf
# script's text folded by scorch's text collapser (t8001: identical to
# stackcollapse-perf.pl).
if ! need python3; then
	skip "memory against unresolved addresses" "python3 missing"
	return 0 2>/dev/null || exit 0
fi
cat > gen.py <<'PY'
"""Synthetic pipe-mode recording on stdout: pid 1000 ("work") maps
/t7055/gone (absent) and takes N samples of 20 user addresses each."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ['ROOT'], 'tests'))
import hostile_perfdata as H
rec, cstr, MMAP, COMM, SAMPLE = H.rec, H.cstr, H.MMAP, H.COMM, H.SAMPLE
EXIT, ROUND = 4, 3 + 65
DEPTH = 20


def sample(pid, t, chain):
    return H.sample(pid, chain[0], t, chain)


def generate(out, n, distinct):
    out.write(H.pipe_header())
    out.write(rec(COMM, struct.pack('<II', 1000, 1000) + cstr('work') + H.sample_id(1000, 1000, 1)) +
              rec(MMAP, struct.pack('<IIQQQ', 1000, 1000, 0x400000, 0x4000000, 0) +
                  cstr('/t7055/gone') + H.sample_id(1000, 1000, 2), misc=2))
    batch = []
    x = 12345
    for i in range(n):
        chain = []
        for j in range(DEPTH):
            if distinct:
                k = i * DEPTH + j
            else:
                x = (x * 1103515245 + 12345) & 0x7fffffff
                k = x % 2000
            chain.append(0x400000 + 16 * k)
        batch.append(sample(1000, 1000 + i, chain))
        if i % 500 == 499:
            batch.append(rec(ROUND, b''))
            out.write(b''.join(batch))
            batch = []
    batch.append(rec(ROUND, b''))
    out.write(b''.join(batch))


if __name__ == '__main__':
    # gen.py N few|distinct FILE: the stream into FILE
    # gen.py N few|distinct OUT CMD...: CMD fed the stream on stdin, its
    # output in OUT; prints "peak-RSS-KB exit-status" of CMD
    n, kind, outpath, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    H.feed(lambda out: generate(out, n, kind == 'distinct'), outpath, cmd)
PY
N=20000
stack="work$(printf ';[gone]%.0s' $(seq 20))"
read -r rss_few rc_few < <(python3 gen.py $N few few.out "$SCORCH" fold -)
read -r rss_all rc_all < <(python3 gen.py $N distinct all.out "$SCORCH" fold -)
check "fold of 2,000 addresses succeeds" test "$rc_few" = 0
check "fold of 400,000 addresses succeeds" test "$rc_all" = 0
echo "$stack $N" > expect.out
check_same "2,000 unresolved addresses fold to one stack of $N samples" expect.out few.out
check_same "400,000 unresolved addresses fold to one stack of $N samples" expect.out all.out
if grep -q __asan_init "$SCORCH" 2>/dev/null; then
	skip "peak RSS of 400,000 addresses within 40 MB of 2,000's" "sanitizer build (quarantine, shadow memory)"
elif [ "$rss_all" -le $((rss_few + 40 * 1024)) ]; then
	pass "peak RSS of 400,000 addresses within 40 MB of 2,000's (${rss_few} KB, ${rss_all} KB)"
else
	fail "peak RSS of 400,000 addresses within 40 MB of 2,000's" "${rss_few} KB, ${rss_all} KB"
fi
if need perf; then
	python3 gen.py 3000 distinct small.data
	perf script -i small.data > small.txt 2> perf.err
	"$SCORCH" fold --format=perf-script small.txt > ref.folded 2>/dev/null
	"$SCORCH" fold small.data > small.folded 2>/dev/null
	echo "$stack 3000" > expect3000.out
	check_same "fold of 3000 samples: one stack" expect3000.out small.folded
	check_same "fold of 3000 samples as perf script | collapse" ref.folded small.folded
else
	skip "fold of 3000 samples as perf script | collapse" "perf missing"
fi
