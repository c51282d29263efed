# t7421: samples of an exiting task recorded system-wide carry pid/tid
# -1; `scorch script` prints them as perf script does (":-1    -1 ..."),
# and `scorch fold` folds them as `perf script | stackcollapse-perf.pl`
# does (the text collapser is that script's twin, proven byte-identical).
. "$ROOT/tests/lib-record.sh"

if ! build_workload threads -pthread; then
	fail "build the test workload"
	return 0
fi

# compare DESC FILE: script's -1 lines and the whole fold agree with perf
compare() {
	local desc=$1 f=$2
	perf script -i "$f" 2> /dev/null > perf.txt
	grep -- '^ *:-1 ' perf.txt > perf-m1.txt
	check "$desc: the recording has pid -1 samples ($(wc -l < perf-m1.txt))" test -s perf-m1.txt
	"$SCORCH" script -i "$f" 2> /dev/null | grep -- '^ *:-1 ' > scorch-m1.txt
	check_same "$desc: scorch script prints pid -1 as perf script does" perf-m1.txt scorch-m1.txt
	# only the -1 stacks: on a busy machine other processes' stacks can
	# differ for reasons of their own (binaries replaced meanwhile)
	"$SCORCH" fold < perf.txt 2> /dev/null | grep -E '^:(-1|4294967295)' > want.folded
	"$SCORCH" fold "$f" 2> /dev/null | grep -E '^:(-1|4294967295)' > got.folded
	check_same "$desc: fold perf.data = perf script | stackcollapse-perf.pl on the -1 samples ($(wc -l < want.folded) stacks)" want.folded got.folded
}

# Fresh: every thread that exits switches out for the last time with its
# pid already released, so sched_switch records it as pid/tid -1.
"$SCORCH" record -q -a -g -e sched:sched_switch -o sw.data -- ./threads 12 0.05 > /dev/null 2> err.txt
check "fresh -a sched_switch recording: exit 0" test $? -eq 0
compare "sched_switch" sw.data

# Constructed: a system-wide cpu-clock recording whose every 7th sample is
# given pid/tid -1 (the kernel does this for a task sampled late in exit).
"$SCORCH" record -q -a -g -e cpu-clock -F 999 -o cc.data -- ./threads 4 0.3 > /dev/null 2> err.txt
check "fresh -a cpu-clock recording: exit 0" test $? -eq 0
python3 - cc.data m1.data <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
attr_size, a_off, a_sz, d_off, d_sz = struct.unpack_from('<QQQQQ', b, 16)
sample_type = struct.unpack_from('<Q', b, a_off + 24)[0]
assert sample_type & 1 and sample_type & 2 and not sample_type & (1 << 16)
off, n = d_off, 0
while off + 8 <= d_off + d_sz:
    typ, misc, size = struct.unpack_from('<IHH', b, off)
    if size < 8:
        break
    if typ == 9:          # PERF_RECORD_SAMPLE: ip, then pid, tid
        n += 1
        if n % 7 == 0:
            struct.pack_into('<ii', b, off + 16, -1, -1)
    off += size
open(sys.argv[2], 'wb').write(b)
PY
check "constructed: patched" test -s m1.data
compare "constructed cpu-clock" m1.data
