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
import struct, sys, subprocess, resource

ATTR_SIZE = 112
SAMPLE_TYPE = 1 | 2 | 4 | 32 | 256          # ip, tid, time, callchain, period
MMAP, COMM, SAMPLE, ROUND, HEADER_ATTR = 1, 3, 9, 3 + 65, 64
DEPTH = 20


def attr():
    flags = (1 << 0) | (1 << 8) | (1 << 9) | (1 << 13) | (1 << 18)
    a = struct.pack('<IIQQQQQ', 0, ATTR_SIZE, 0, 4000, SAMPLE_TYPE, 0, flags)
    return a + bytes(ATTR_SIZE - len(a))


def rec(rtype, body, misc=0):
    body += bytes(-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def sid(pid, t):
    return struct.pack('<IIQ', pid, pid, t)


def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def sample(pid, t, chain):
    ips = [0xfffffffffffffe00] + chain          # PERF_CONTEXT_USER
    return rec(SAMPLE, struct.pack('<QIIQQQ', chain[0], pid, pid, t, 1, len(ips)) +
               struct.pack('<%dQ' % len(ips), *ips), misc=2)


def generate(out, n, distinct):
    out.write(b'PERFILE2' + struct.pack('<Q', 16) + rec(HEADER_ATTR, attr()))
    out.write(rec(COMM, struct.pack('<II', 1000, 1000) + cstr('work') + sid(1000, 1)) +
              rec(MMAP, struct.pack('<IIQQQ', 1000, 1000, 0x400000, 0x4000000, 0) +
                  cstr('/t7055/gone') + sid(1000, 2), misc=2))
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
    if not cmd:
        with open(outpath, 'wb') as o:
            generate(o, n, kind == 'distinct')
        sys.exit(0)
    with open(outpath, 'wb') as o:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=o,
                             stderr=subprocess.DEVNULL)
        generate(p.stdin, n, kind == 'distinct')
        p.stdin.close()
        rc = p.wait()
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
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
