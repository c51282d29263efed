# t7722: as t7720, on the shared corpus recordings fp, cpp_fp and multi.
# The corpus keeps its build-id links as files holding the link text,
# which perf 6.1 does not follow: the test copies each cache and makes
# them links again, and gives both tools that copy.
# Not here: the corpus dwarf case (perf 6.1 here stops unwinding at
# __libc_start_call_main with this machine's libc), offcpu (its kernel is
# another boot's: perf cannot place its kernel frames).
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/report-matrix.sh"
if ! need perf; then
	skip "report == perf report on the corpus" "perf missing"
	return 0 2>/dev/null || exit 0
fi
# relink DIR: the .build-id entries of DIR made symbolic links again
relink() {
	local f
	find "$1/.build-id" -type f | while read -r f; do
		ln -sfn "$(cat "$f")" "$f.l" && mv -f "$f.l" "$f"
	done
}
corpus_matrix() {
	local c
	for c in fp cpp_fp multi; do
		rm -rf "cache-$c"
		cp -r "$C/$c/buildid" "cache-$c" && chmod -R u+w "cache-$c" && relink "cache-$c" ||
			{ fail "$L $c: copy the build-id cache"; continue; }
		report_matrix "$L $c" "$C/$c/perf.data" --buildid-dir "$PWD/cache-$c"
	done
}
if shared_corpus; then C=$SHARED/corpus L=corpus corpus_matrix; fi
