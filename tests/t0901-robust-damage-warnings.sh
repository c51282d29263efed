# t0901: every perf.data command says the same thing about the same damage:
# records before it are kept, one line "scorch CMD: warning: FILE: at offset
# 0x..: ... (kept what was read before)", exit 0; damage before anything
# usable is an error without "warning", exit 1. Regression for header,
# dump, offcpu, sched and heatmap, which printed the damage like an error
# while exiting 0; and heatmap latency, which called a fatal "no events"
# a warning and then failed on "no data" without naming the file.
# Damaged copies of the fixtures always, of the shared corpus when present.
. "$ROOT/tests/lib-corpus.sh"

# u16 FILE OFFSET: the little-endian 16-bit number at OFFSET
u16() { od -An -tu2 -j "$2" -N 2 "$1" | tr -d ' '; }

warnings() {
	local src=$C/offcpu/perf.data s p r2 r3 size1
	# the last sample claims 65535 bytes: the rest of the data section is damage
	s=$("$SCORCH" dump "$src" | grep ' PERF_RECORD_SAMPLE' | tail -1 | sed 's/^0x\([0-9a-f]*\) .*/\1/')
	cp "$src" big.data; chmod u+w big.data
	printf '\377\377' | dd of=big.data bs=1 seek=$((16#$s + 6)) conv=notrunc status=none

	kept="^scorch [a-z-]+: warning: big\.data: at offset 0x$s: SAMPLE \(9\): size 65535 but only [0-9]+ bytes left \(truncated file\?\) \(kept what was read before\)$"
	run() { # NAME ARGS...: exit status, output and the damage warning
		local name="$L $1"; shift
		"$SCORCH" "$@" > out 2> err; local rc=$?
		if [ $rc -eq 0 ] && [ -s out ] && grep -Eq "$kept" err; then
			pass "$name: output kept, one damage warning, exit 0"
		else
			fail "$name: output kept, one damage warning, exit 0" "rc=$rc $(cat err)"
		fi
	}
	run "dump --stats" dump --stats big.data
	run "fold" fold big.data
	run "script" script big.data
	run "report" report big.data
	run "offcpu" offcpu big.data
	run "sched latency" sched latency -i big.data
	run "sched timehist" sched timehist -i big.data
	run "heatmap subsecond" heatmap subsecond --cells big.data

	# header of a pipe-mode file: damage among the header records (the
	# third record cut after 48 bytes; the first cut after 84)
	p=$C/pipe_fp/perf.data
	size1=$(u16 "$p" 22)
	r2=$((16 + size1)); r3=$((r2 + $(u16 "$p" $((r2 + 6)))))
	head -c $((r3 + 48)) "$p" > cut.data
	"$SCORCH" header cut.data > out 2> err; rc=$?
	check "$L header, pipe cut after two records: exit 0 with the header" test $rc -eq 0 -a -s out
	check_grep "$L header, pipe cut: a kept-warning naming file and offset" \
		"^scorch header: warning: cut\\.data: at offset $(printf 0x%x $r3): HEADER_FEATURE \\(80\\): .*\\(kept what was read before\\)\$" err
	head -c 100 "$p" > cut2.data
	"$SCORCH" header cut2.data > out 2> err; rc=$?
	check "$L header, pipe cut inside the first record: exit 1, no output" test $rc -eq 1 -a ! -s out
	check_grep "$L header, pipe cut inside the first record: error naming file and offset" \
		"^scorch header: cut2\\.data: at offset 0x10: HEADER_ATTR \\(64\\): size $size1 but only 84 bytes left" err

	"$SCORCH" heatmap latency --start sched:sched_switch --end sched:sched_switch \
		--key prev_pid --pairs big.data > out 2> err; rc=$?
	check "$L heatmap latency --pairs on damage: exit 0" test $rc -eq 0
	check_grep "$L heatmap latency on damage: kept-warning" "$kept" err

	# heatmap subsecond on perf script text: skipped lines are one plain warning
	"$SCORCH" script "$C/fp/perf.data" > s.txt 2>/dev/null
	{ head -30 s.txt; echo 'junk line'; tail -n +31 s.txt; } > junk.txt
	"$SCORCH" heatmap subsecond --cells junk.txt > out 2> err; rc=$?
	check "$L heatmap subsecond, a junk line in text: exit 0" test $rc -eq 0 -a -s out
	check_grep "$L heatmap subsecond, junk line: one warning naming file and line" \
		'^scorch heatmap: warning: junk\.txt: line 31: 1 unrecognized line\(s\) skipped$' err
}
shared_corpus
each_root warnings

# heatmap latency: messages name the input
printf 'not a latency\nline\n' > words.txt
"$SCORCH" heatmap latency words.txt > out 2> err; rc=$?
check "heatmap latency, no pairs: exit 1" test $rc -eq 1
check_grep "heatmap latency, no pairs: message names the file" '^scorch heatmap: words\.txt: no data' err
