# t3303: kernel symbols from a kallsyms of another boot (KASLR moved the
# kernel) are shifted so that _text lands where the recording's kernel
# MMAP says it was, as perf relocates them: folding fp (and the all-kernel
# offcpu stacks) with a shifted copy of the case's kallsyms gives the
# reference output. The fixtures always, the shared corpus when present.
. "$ROOT/tests/lib-corpus.sh"
if ! need python3; then
	skip "shifted kallsyms" "python3 missing"
	return 0 2>/dev/null || exit 0
fi

kaslr() {
	local c k o
	for c in fp offcpu; do
		k=$C/$c/kallsyms
		[ -f "$k" ] || k=$(echo "$C/$c/buildid/[kernel.kallsyms]"/*/kallsyms)
		python3 - "$k" <<'PY' > shifted.kallsyms
import sys, os
p = sys.argv[1]
with open(p, 'rb') as f:
    head = f.read(4096)
if not head.startswith(b'ffff') and not head.startswith(b'0000'):   # a link stored as text
    p = os.path.normpath(os.path.join(os.path.dirname(p), head.decode().strip()))
for line in open(p):
    a, rest = line.split(' ', 1)
    v = (int(a, 16) + 0x2a00000) & 0xffffffffffffffff
    sys.stdout.write('%016x %s' % (v, rest))
PY
		check "$L $c: shifted kallsyms written" test -s shifted.kallsyms
		check_grep "$L $c: the reference has kernel frames" '_\[k\]' "$C/$c/stackcollapse-all.folded"
		o=$(srcs $c | sed 's/ --kallsyms [^ ]*//')
		"$SCORCH" fold $o --kallsyms shifted.kallsyms "$C/$c/perf.data" > shifted.folded 2>/dev/null
		check_same "$L $c: fold with a KASLR-shifted kallsyms == stackcollapse.folded" "$C/$c/stackcollapse.folded" shifted.folded
		"$SCORCH" script $o --kallsyms shifted.kallsyms "$C/$c/perf.data" > shifted.txt 2>/dev/null
		check_same "$L $c: script with a KASLR-shifted kallsyms == perf-script.txt" "$C/$c/perf-script.txt" shifted.txt
	done
}
shared_corpus
each_root kaslr
