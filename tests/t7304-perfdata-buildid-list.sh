# t7304: scorch buildid-list equals perf buildid-list --with-hits on the
# recorded cases (pipe mode and -z: but perf's random temporary vdso name)
# and, without --with-hits, lists the BUILD_ID table in its order (the
# fixtures always, the shared corpus when present).
. "$ROOT/tests/lib-corpus.sh"

lists() {
	local c
	for c in fp cpp_fp multi offcpu dwarf; do
		"$SCORCH" buildid-list --with-hits "$C/$c/perf.data" > $c.txt 2> $c.err
		check_same "$L $c: buildid-list --with-hits == buildid-list.txt" "$C/$c/buildid-list.txt" $c.txt
	done
	for c in pipe_fp zstd_fp; do
		"$SCORCH" buildid-list "$C/$c/perf.data" > $c.txt 2> $c.err
		sed 's#/tmp/perf-vdso\.so-[A-Za-z0-9]*$#[vdso]#' "$C/$c/buildid-list.txt" > $c.ref
		check_same "$L $c: buildid-list (no BUILD_ID table: hits, blank ids)" $c.ref $c.txt
	done
	"$SCORCH" buildid-list "$C/cpp_fp/perf.data" > all.txt
	if [ "$L" = fixture ]; then
		check_same "$L without --with-hits: the BUILD_ID table as perf buildid-list" "$C/cpp_fp/buildid-table.txt" all.txt
	else
		check_grep "without --with-hits: [vdso] of the table listed" '^e025128345ce65b719dab776555f2b64ee0204a1 \[vdso\]$' all.txt
		check "without --with-hits: six objects" test "$(wc -l < all.txt)" = 6
	fi
	check_fails "$L missing file fails" "$SCORCH" buildid-list nonexistent.data
}
shared_corpus
each_root lists
