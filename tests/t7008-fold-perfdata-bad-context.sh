# t7008: a call chain holding a value above PERF_CONTEXT_MAX that names
# no context (0xffffffffffffffff was seen in system-wide recordings):
# perf reports "invalid callchain context" and drops the whole chain, so
# perf script prints the sample with no frames and the pipeline folds it
# to the process name alone. scorch used to skip the value and keep the
# frames. Oracle: perf script of a crafted file (one mmap, samples with
# good and bad chains), folded by scorch's text collapser (byte-identical
# to stackcollapse-perf.pl, t8001); scorch script against perf script.
if ! need perf python3; then
	skip "bad call chain context" "perf or python3 missing"
	return 0
fi
cat > gen.py <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import hostile_perfdata as h
USER, KERNEL = 0xfffffffffffffe00, 0xffffffffffffff80
def smp(t, ips):
    return h.rec(h.SAMPLE, struct.pack('<QIIQQQ', 0x400100, 1, 1, t, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=2)
data = h.comm(1, 'ctx', 1) + h.mmap(1, 0x400000, 0x1000, '/ctx/a.out', 2)
chains = [[USER, 0x400100, 0x400200],                 # good
          [USER, 0x400110, 0xffffffffffffffff, 0x400200],  # -1: dropped
          [KERNEL, 0xffffffffffffffff, USER, 0x400300],     # in the kernel part
          [USER, 0x400120, 0xfffffffffffff800, 0x400200],  # PERF_CONTEXT_GUEST
          [USER, 0x400130, 0xfffffffffffff001, 0x400200],  # PERF_CONTEXT_MAX
          [USER, 0x400140, 0xfffffffffffff000, 0x400200]]  # an address
for i, c in enumerate(chains):
    data += smp(3 + i, c)
h.file_mode(sys.argv[2], data)
PY
python3 gen.py "$ROOT/tests/hostile_perfdata.py" ctx.data
perf script -i ctx.data > perf-script.txt 2> /dev/null
"$SCORCH" fold --format=perf-script perf-script.txt > pipeline.folded 2> /dev/null
check_grep "perf drops bad chains (the process name alone)" '^ctx 4$' pipeline.folded
"$SCORCH" fold ctx.data > data.folded 2> /dev/null
check_same "perf.data fold equals the pipeline" pipeline.folded data.folded
"$SCORCH" script ctx.data > scorch-script.txt 2> /dev/null
check_same "scorch script prints the frames perf script prints" perf-script.txt scorch-script.txt
