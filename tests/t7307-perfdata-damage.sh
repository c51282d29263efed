# t7307: damaged perf.data in the perf.data commands: a truncated file is
# folded, printed and reported up to the damage with one warning naming
# the file, the offset and the record type, exit status 0 (fp of the
# fixtures always, of the shared corpus when present); a file that is not
# perf.data fails with a message.
. "$ROOT/tests/lib-corpus.sh"

damage() {
	local cmd n s
	# cut 20 bytes into the sample in the middle of the data section (a
	# cut at a record boundary would be a different warning)
	n=$("$SCORCH" dump "$C/fp/perf.data" | grep -c ' PERF_RECORD_SAMPLE')
	s=$("$SCORCH" dump "$C/fp/perf.data" | grep ' PERF_RECORD_SAMPLE' | sed -n "$((n / 2))p" | sed 's/^0x\([0-9a-f]*\) .*/\1/')
	head -c $((16#$s + 20)) "$C/fp/perf.data" > trunc.data
	for cmd in fold script report; do
		"$SCORCH" $cmd --buildid-dir "$C/fp/buildid" trunc.data > $cmd.out 2> $cmd.err
		check "$L $cmd: truncated file: exit 0" test $? -eq 0
		check "$L $cmd: truncated file: output kept" test -s $cmd.out
		check_grep "$L $cmd: truncated file: warning with offset and record" 'warning: trunc\.data: at offset 0x[0-9a-f]+: SAMPLE' $cmd.err
	done
	check "$L fold: truncated file: fewer samples than the whole file" awk -v a="$(total fold.out)" \
		-v b="$(total "$C/fp/stackcollapse.folded")" 'BEGIN { exit !(a > 0 && a < b) }'
}
shared_corpus
each_root damage

printf 'not a perf.data file at all\n' > junk.data
check_fails "script: not perf.data fails" "$SCORCH" script junk.data
check_fails "report: not perf.data fails" "$SCORCH" report junk.data
check_fails "buildid-list: not perf.data fails" "$SCORCH" buildid-list junk.data
check_fails "archive: not perf.data fails" "$SCORCH" archive -o junk.tar junk.data
"$SCORCH" script junk.data 2> junk.err
check_grep "the message names the file" 'junk\.data' junk.err
