# t3303: kernel symbols from a kallsyms of another boot (KASLR moved the
# kernel) are shifted so that _text lands where the recording's kernel
# MMAP says it was, as perf relocates them: folding fp with a shifted
# copy of its kallsyms gives the reference output.
C=$SHARED/corpus
export HOME=$TMP/home
mkdir -p "$HOME"
if ! need python3; then
	skip "shifted kallsyms" "python3 missing"
	return 0 2>/dev/null || exit 0
fi
python3 - "$C/fp/buildid/[kernel.kallsyms]/48dc540c8b76393804ca8088dbfa7d42911a9444/kallsyms" "$C" <<'PY' > shifted.kallsyms
import sys, os
p = sys.argv[1]
with open(p, 'rb') as f:
    head = f.read(4096)
if not head.startswith(b'ffff'):            # a link stored as text
    p = os.path.normpath(os.path.join(os.path.dirname(p), head.decode().strip()))
for line in open(p):
    a, rest = line.split(' ', 1)
    v = (int(a, 16) + 0x2a00000) & 0xffffffffffffffff
    sys.stdout.write('%016x %s' % (v, rest))
PY
check "shifted kallsyms written" test -s shifted.kallsyms
"$SCORCH" fold --buildid-dir "$C/fp/buildid" --kallsyms shifted.kallsyms "$C/fp/perf.data" > shifted.folded 2>/dev/null
check_same "fold with a KASLR-shifted kallsyms == stackcollapse.folded" "$C/fp/stackcollapse.folded" shifted.folded
"$SCORCH" script --buildid-dir "$C/fp/buildid" --kallsyms shifted.kallsyms "$C/fp/perf.data" > shifted.txt 2>/dev/null
check_same "script with a KASLR-shifted kallsyms == perf-script.txt" "$C/fp/perf-script.txt" shifted.txt
