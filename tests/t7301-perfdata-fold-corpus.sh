# t7301: scorch fold perf.data on every frame-pointer corpus case equals
# stackcollapse-perf.pl over perf script (stackcollapse.folded, and with
# --all stackcollapse-all.folded), with HOME empty and only the symbol
# sources the corpus README names; big-endian copies fold identically.
. "$ROOT/tests/lib-corpus.sh"

for c in fp cpp_fp pipe_fp zstd_fp multi offcpu; do
	o=$(srcs $c)
	"$SCORCH" fold $o "$C/$c/perf.data" > $c.folded 2> $c.err
	check_same "$c: fold == stackcollapse.folded" "$C/$c/stackcollapse.folded" $c.folded
	"$SCORCH" fold --all $o "$C/$c/perf.data" > $c.all 2> $c.err
	check_same "$c: fold --all == stackcollapse-all.folded" "$C/$c/stackcollapse-all.folded" $c.all
done

for c in fp multi; do
	"$SCORCH" fold $(srcs $c) "$C/big-endian/$c/perf.data.be" > be-$c.folded 2>/dev/null
	check_same "big-endian $c folds as the original" "$C/$c/stackcollapse.folded" be-$c.folded
done

# perf.data on standard input (format detected by magic)
"$SCORCH" fold $(srcs fp) - < "$C/fp/perf.data" > stdin.folded 2>/dev/null
check_same "fp from stdin" "$C/fp/stackcollapse.folded" stdin.folded
"$SCORCH" fold $(srcs pipe_fp) - < "$C/pipe_fp/perf.data" > pstdin.folded 2>/dev/null
check_same "pipe_fp from stdin" "$C/pipe_fp/stackcollapse.folded" pstdin.folded

# filters: --event picks one event of multi; --time and --cpu narrow
"$SCORCH" fold $(srcs multi) --event task-clock "$C/multi/perf.data" > task.folded 2>/dev/null
"$SCORCH" fold $(srcs multi) --event-filter task-clock "$C/multi/perf.data" > task2.folded 2>/dev/null
check_same "multi: --event task-clock == --event-filter task-clock" task2.folded task.folded
check_grep "multi: task-clock samples present" '^work_fp;' task.folded
"$SCORCH" fold $(srcs fp) --time 2390.3712,2390.3713 "$C/fp/perf.data" > one.folded 2>/dev/null
check "fp: --time selecting one sample gives one stack" test "$(awk '{s+=$NF} END {print s}' one.folded)" = 1003009
"$SCORCH" fold $(srcs fp) --time +0,+0.5 "$C/fp/perf.data" > half.folded 2>/dev/null
n=$(awk '{s+=$NF} END {print s}' half.folded)
check "fp: --time +0,+0.5 keeps about half a second" test "$n" -gt 400000000 -a "$n" -lt 600000000
"$SCORCH" fold $(srcs offcpu) --cpu 1 "$C/offcpu/perf.data" > cpu1.folded 2>/dev/null
"$SCORCH" fold $(srcs offcpu) --cpu 0 "$C/offcpu/perf.data" > cpu0.folded 2>/dev/null
check "offcpu: --cpu 0 and --cpu 1 split the samples" test \
	"$(cat cpu0.folded cpu1.folded | awk '{s+=$NF} END {print s}')" = \
	"$(awk '{s+=$NF} END {print s}' "$C/offcpu/stackcollapse.folded")"
"$SCORCH" fold $(srcs offcpu) --comm sleep,work_fp "$C/offcpu/perf.data" > comm.folded 2>/dev/null
check "offcpu: --comm keeps only those processes" test -z "$(grep -v -e '^sleep;' -e '^work_fp;' comm.folded)"
check_fails "bad --time is a usage error" "$SCORCH" fold --time 12 "$C/fp/perf.data"

# a real pipe: pipe-mode data folds; file-mode data is copied to a
# temporary file and folds as the file does; a copy that fails says why
cat "$C/pipe_fp/perf.data" | "$SCORCH" fold $(srcs pipe_fp) - > pipe.folded 2>/dev/null
check_same "pipe_fp through a pipe" "$C/pipe_fp/stackcollapse.folded" pipe.folded
cat "$C/fp/perf.data" | "$SCORCH" fold $(srcs fp) - > filepipe.folded 2>/dev/null
check_same "file-mode perf.data through a pipe folds as the file" "$C/fp/stackcollapse.folded" filepipe.folded
cat "$C/fp/perf.data" | TMPDIR=/nonexistent "$SCORCH" fold - > /dev/null 2> filepipe.err
check "file-mode perf.data through a pipe, no temporary file: exit status 1, not a signal" test "${PIPESTATUS[1]}" = 1
check_grep "... with a message naming <stdin> and the reason" '<stdin>: file-mode perf.data on a pipe: cannot copy it to a temporary file to read it: No such file' filepipe.err
