# t7727: scorch report == perf report where perf's first entry tree
# makes a second entry for a key it holds (issue #16; found on a big
# system-wide recording, where garbage frame-pointer chains give
# unresolved addresses all over the 64-bit range). perf compares two
# unresolved addresses by their 64-bit difference, which is no order
# once they span 2^63: a lookup can take a wrong turn, miss the entry
# and make another, which the collapse merges into the first in tree
# order (so the entry shows that node's level, thread and longest
# chain) and which changes the tree's shape (so ties fall otherwise).
# scorch replays those lookups. Crafted recordings: one task takes 60
# samples of chains of up to 6 addresses drawn from 30 random ones (an
# LCG: the same files on any machine); seeds where a report that did
# not replay the lookups differed from perf's. perf's collapse can miss
# too and then prints a key twice (seed 58 here): not reproduced, not
# tested.
. "$ROOT/tests/report-matrix.sh"
if ! need perf python3; then
	skip "report == perf report with perf's missed lookups" "perf or python3 missing"
	return 0 2>/dev/null || exit 0
fi
cat > gen.py <<'PY'
"""gen.py OUT SEED: pid 700 ("work") takes 60 samples of user chains
drawn from 30 random unresolved addresses."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ['ROOT'], 'tests'))
import hostile_perfdata as H
USER, PID, NSAMP, NPOOL = 0xfffffffffffffe00, 700, 60, 30
x = int(sys.argv[2])


def rand():
    global x
    x = (x * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
    return x


def smp(t, chain):
    ips = [USER] + chain
    return H.rec(H.SAMPLE, struct.pack('<QIIQQQ', chain[0], PID, PID, t, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=2)


pool = [rand() & ~0xf for _ in range(NPOOL)]
data = H.comm(PID, 'work', 1)
for i in range(NSAMP):
    chain = []
    for _ in range(1 + (rand() >> 33) % 6):
        a = pool[(rand() >> 33) % NPOOL]
        if a not in chain:
            chain.append(a)
    data += smp(10 + i, chain)
H.file_mode(sys.argv[1], data)
PY
export HOME=$TMP/home
mkdir -p "$HOME"
for seed in 8 9 13 21 23 27; do
	if ! python3 gen.py "s$seed.data" $seed; then
		fail "write the crafted recording (seed $seed)"
		continue
	fi
	for opts in "" "-g caller" "-n" "-s comm,dso,sym" "-G"; do
		perf report -i "s$seed.data" --stdio $opts 2> /dev/null | head -n -3 > perf.txt
		# shellcheck disable=SC2086
		"$SCORCH" report $opts "s$seed.data" 2> /dev/null | head -n -3 > scorch.txt
		check_grep "seed $seed${opts:+ $opts}: perf reported the samples" '^ +[0-9.]+% ' perf.txt
		check_same "seed $seed${opts:+ $opts}: report == perf report" perf.txt scorch.txt
	done
done
