# t7009: a JIT symbol whose name starts with whitespace (a perf-PID.map
# line "ADDR SIZE  name") folds as `perf script | stackcollapse-perf.pl`
# folds it: the Perl frame regex's \s* after the address takes the
# leading whitespace. scorch's perf.data path used to keep it (" lead").
# Oracle: perf script of a crafted file (an anonymous mapping, samples
# in it, the map in /tmp where perf looks), folded by scorch's text
# collapser (byte-identical to stackcollapse-perf.pl, t8001). The pid is
# above any pid_max, so the map file cannot be a real process's.
if ! need perf python3; then
	skip "JIT names with leading space" "perf or python3 missing"
	return 0
fi
pid=4194999
map=/tmp/perf-$pid.map
cat > gen.py <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import hostile_perfdata as h
pid, base, USER = int(sys.argv[3]), 0x7f0000000000, 0xfffffffffffffe00
def smp(t, ips):
    return h.rec(h.SAMPLE, struct.pack('<QIIQQQ', ips[1], pid, pid, t, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=2)
data = h.comm(pid, 'jit', 1)
data += h.rec(h.MMAP, struct.pack('<IIQQQ', pid, pid, base, 0x10000, 0) +
              h.cstr('//anon') + h.sample_id(pid, pid, 2), misc=2)
data += smp(3, [USER, base + 0x210, base + 0x310])
data += smp(4, [USER, base + 0x110, base + 0x210, base + 0x310])
h.file_mode(sys.argv[2], data)
PY
python3 gen.py "$ROOT/tests/hostile_perfdata.py" jit.data $pid
printf '7f0000000100 100 \tleaf\n7f0000000200 100  lead\n7f0000000300 100 normal\n' > "$map"
perf script -i jit.data > perf-script.txt 2> /dev/null
"$SCORCH" fold --format=perf-script perf-script.txt > pipeline.folded 2> /dev/null
"$SCORCH" fold jit.data > data.folded 2> /dev/null
rm -f "$map"
check_grep "perf script shows the JIT names" ' lead\+0x10 \(/tmp/perf-[0-9]+\.map\)' perf-script.txt
check_grep "the pipeline strips the leading whitespace" '^jit;normal;lead;leaf 1$' pipeline.folded
check_same "perf.data fold equals the pipeline" pipeline.folded data.folded
