# t7302: scorch script equals perf script (default fields) byte for byte
# on every recorded case (dwarf too, through the unwinder), with HOME
# empty and only the case's own symbol sources: the fixtures always, the
# shared corpus when present; its big-endian copies print the same.
. "$ROOT/tests/lib-corpus.sh"

scripts() {
	local c
	for c in fp cpp_fp pipe_fp zstd_fp multi offcpu dwarf; do
		"$SCORCH" script $(srcs $c) "$C/$c/perf.data" > $c.txt 2> $c.err
		check_same "$L $c: script == perf-script.txt" "$C/$c/perf-script.txt" $c.txt
	done
	"$SCORCH" script $(srcs pipe_fp) - < "$C/pipe_fp/perf.data" > stdin.txt 2>/dev/null
	check_same "$L pipe_fp from stdin" "$C/pipe_fp/perf-script.txt" stdin.txt

	# script output folded by the text path equals the perf.data path
	"$SCORCH" script $(srcs cpp_fp) "$C/cpp_fp/perf.data" | "$SCORCH" fold > text.folded 2>/dev/null
	"$SCORCH" fold $(srcs cpp_fp) "$C/cpp_fp/perf.data" > data.folded 2>/dev/null
	check_same "$L cpp_fp: fold(script) == fold(perf.data)" text.folded data.folded

	# missing binaries: [unknown] frames as perf, never an error
	"$SCORCH" script "$C/fp/perf.data" > nosyms.txt 2> nosyms.err
	check "$L no symbol sources: exit 0" test $? -eq 0
	check_grep "$L no symbol sources: [unknown] in the binary's dso" '^\s+[0-9a-f]+ \[unknown\] \(/tmp/[^ ]*/work_fp\)$' nosyms.txt
	check "$L no symbol sources: same number of lines as perf" test "$(wc -l < nosyms.txt)" = "$(wc -l < "$C/fp/perf-script.txt")"
	check_fails "$L missing file fails" "$SCORCH" script no-such-file.data
}
shared_corpus corpus/big-endian/fp/perf.data.be corpus/big-endian/multi/perf.data.be
each_root scripts

if shared_corpus; then
	C=$SHARED/corpus
	for c in fp multi; do
		"$SCORCH" script $(srcs $c) "$C/big-endian/$c/perf.data.be" > be-$c.txt 2>/dev/null
		check_same "big-endian $c: script == perf-script.txt" "$C/$c/perf-script.txt" be-$c.txt
	done
fi
