# t7301: scorch fold perf.data on every frame-pointer case equals
# stackcollapse-perf.pl over perf script (stackcollapse.folded, and with
# --all stackcollapse-all.folded), with HOME empty and only the case's own
# symbol sources; on the fixtures (tests/fixtures.sh) always and on the
# shared corpus when present; its big-endian copies fold identically.
. "$ROOT/tests/lib-corpus.sh"

folds() {
	local c o
	for c in fp cpp_fp pipe_fp zstd_fp multi offcpu; do
		o=$(srcs $c)
		"$SCORCH" fold $o "$C/$c/perf.data" > $c.folded 2> $c.err
		check_same "$L $c: fold == stackcollapse.folded" "$C/$c/stackcollapse.folded" $c.folded
		"$SCORCH" fold --all $o "$C/$c/perf.data" > $c.all 2> $c.err
		check_same "$L $c: fold --all == stackcollapse-all.folded" "$C/$c/stackcollapse-all.folded" $c.all
	done

	# perf.data on standard input (format detected by magic)
	"$SCORCH" fold $(srcs fp) - < "$C/fp/perf.data" > stdin.folded 2>/dev/null
	check_same "$L fp from stdin" "$C/fp/stackcollapse.folded" stdin.folded
	"$SCORCH" fold $(srcs pipe_fp) - < "$C/pipe_fp/perf.data" > pstdin.folded 2>/dev/null
	check_same "$L pipe_fp from stdin" "$C/pipe_fp/stackcollapse.folded" pstdin.folded

	# filters: --event picks one event of multi; --time and --cpu narrow
	"$SCORCH" fold $(srcs multi) --event task-clock "$C/multi/perf.data" > task.folded 2>/dev/null
	"$SCORCH" fold $(srcs multi) --event-filter task-clock "$C/multi/perf.data" > task2.folded 2>/dev/null
	check_same "$L multi: --event task-clock == --event-filter task-clock" task2.folded task.folded
	# the task-clock weight is the sum of perf script's task-clock periods
	exp=$(samples "$C/multi/perf-script.txt" | awk '$3 ~ /^task-clock/ { s += $2 } END { printf "%d", s }')
	check "$L multi: task-clock samples present, all of them ($exp)" test "$(total task.folded)" = "$exp" -a "$exp" -gt 0

	# --time: one sample (bounds halfway to its neighbours), then the
	# first part of the file relative to its first sample
	samples "$C/fp/perf-script.txt" > times.txt
	set -- $(awk 'NR == 9 { a = $1 } NR == 10 { t = $1; p = $2 } NR == 11 { b = $1 }
		END { printf "%.7f %.7f %d", (a + t) / 2, (t + b) / 2, p }' times.txt)
	"$SCORCH" fold $(srcs fp) --time "$1,$2" "$C/fp/perf.data" > one.folded 2>/dev/null
	check "$L fp: --time selecting one sample gives that sample's weight ($3)" test "$(total one.folded)" = "$3"
	set -- $(awk 'NR == 1 { f = $1 } { n++; t[n] = $1; p[n] = $2 }
		END { h = int(n / 2); for (i = 1; i <= h; i++) s += p[i]
		      printf "%.7f %d", (t[h] + t[h + 1]) / 2 - f, s }' times.txt)
	"$SCORCH" fold $(srcs fp) --time "+0,+$1" "$C/fp/perf.data" > half.folded 2>/dev/null
	check "$L fp: --time +0,+$1 keeps the first half of the samples ($2)" test "$(total half.folded)" = "$2"

	"$SCORCH" fold $(srcs offcpu) --cpu 1 "$C/offcpu/perf.data" > cpu1.folded 2>/dev/null
	"$SCORCH" fold $(srcs offcpu) --cpu 0 "$C/offcpu/perf.data" > cpu0.folded 2>/dev/null
	check "$L offcpu: --cpu 0 and --cpu 1 split the samples" test \
		"$(cat cpu0.folded cpu1.folded | awk '{s+=$NF} END {print s}')" = \
		"$(total "$C/offcpu/stackcollapse.folded")"
	"$SCORCH" fold $(srcs offcpu) --comm sleep,work_fp "$C/offcpu/perf.data" > comm.folded 2>/dev/null
	check "$L offcpu: --comm keeps only those processes" test -s comm.folded -a -z "$(grep -v -e '^sleep;' -e '^work_fp;' comm.folded)"
	check_fails "$L bad --time is a usage error" "$SCORCH" fold --time 12 "$C/fp/perf.data"

	# a real pipe: pipe-mode data folds; file-mode data is copied to a
	# temporary file and folds as the file does; a copy that fails says why
	cat "$C/pipe_fp/perf.data" | "$SCORCH" fold $(srcs pipe_fp) - > pipe.folded 2>/dev/null
	check_same "$L pipe_fp through a pipe" "$C/pipe_fp/stackcollapse.folded" pipe.folded
	cat "$C/fp/perf.data" | "$SCORCH" fold $(srcs fp) - > filepipe.folded 2>/dev/null
	check_same "$L file-mode perf.data through a pipe folds as the file" "$C/fp/stackcollapse.folded" filepipe.folded
	cat "$C/fp/perf.data" | TMPDIR=/nonexistent "$SCORCH" fold - > /dev/null 2> filepipe.err
	check "$L file-mode perf.data through a pipe, no temporary file: exit status 1, not a signal" test "${PIPESTATUS[1]}" = 1
	check_grep "$L ... with a message naming <stdin> and the reason" '<stdin>: file-mode perf.data on a pipe: cannot copy it to a temporary file to read it: No such file' filepipe.err
}
shared_corpus corpus/big-endian/fp/perf.data.be corpus/big-endian/multi/perf.data.be
each_root folds

if shared_corpus; then
	C=$SHARED/corpus
	for c in fp multi; do
		"$SCORCH" fold $(srcs $c) "$C/big-endian/$c/perf.data.be" > be-$c.folded 2>/dev/null
		check_same "big-endian $c folds as the original" "$C/$c/stackcollapse.folded" be-$c.folded
	done
fi
