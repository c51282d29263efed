# t4001-unwind-corpus: DWARF unwinding of the `dwarf` case (the fixtures
# always, the shared corpus and its big-endian copy when present) gives
# perf's stacks, inline frames included, with HOME empty and only the
# case's build-id cache as symbol source.
. "$ROOT/tests/lib-corpus.sh"
run() { HOME=$TMP/home "$SCORCH" "$@"; }

unwinds() {
	local case_dir=$C/dwarf a b n
	run fold --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > fold.txt 2> fold.err
	check_same "$L fold == stackcollapse.folded (perf's inline rows included)" \
		"$case_dir/stackcollapse.folded" fold.txt
	if [ -s fold.err ]; then fail "$L fold prints no warning" "$(cat fold.err)"; else pass "$L fold prints no warning"; fi

	# --no-inline: none of the frames perf shows as (inlined); the frames
	# below stay unwound to _start
	run fold --no-inline --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > noinl.txt
	sed -n 's/^\s*[0-9a-f]* \([^ +]*\)+0x[0-9a-f]* (inlined)$/\1/p' "$case_dir/perf-script.txt" | sort -u > inl.txt
	if [ -s inl.txt ] && ! grep -qFf <(sed 's/.*/;&;/' inl.txt) noinl.txt; then
		pass "$L --no-inline drops the inlined frames ($(tr '\n' ' ' < inl.txt))"
	else
		fail "$L --no-inline drops the inlined frames" "inlined: $(cat inl.txt); $(head -3 noinl.txt)"
	fi
	check "$L --no-inline keeps every stack rooted at _start" \
		awk '$0 !~ /^work_nofp;_start;/ { exit 1 }' noinl.txt
	a=$(total fold.txt); b=$(total noinl.txt)
	if [ "$a" = "$b" ]; then pass "$L --no-inline keeps the total weight"; else fail "$L --no-inline keeps the total weight" "$a != $b"; fi

	# the text path agrees: folding perf's own perf script text gives the same
	"$SCORCH" fold --format=perf-script "$case_dir/perf-script.txt" > text.txt
	check_same "$L fold of perf.data == fold of perf's script text" text.txt fold.txt

	run script --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > script.txt 2> script.err
	check_same "$L script == perf-script.txt (unwound frames, (inlined) rows)" \
		"$case_dir/perf-script.txt" script.txt

	# without the build-id cache nothing can be unwound: the sampled pc only,
	# and one summary warning naming the missing binaries
	run fold --buildid-dir "$TMP/nothing" "$case_dir/perf.data" > bare.txt 2> bare.err
	check "$L no binaries: still exits 0" test -s bare.txt
	check_grep "$L no binaries: one summary warning" 'DWARF samples stopped.*no binary for' bare.err
	n=$(grep -c 'DWARF samples' bare.err)
	if [ "$n" = 1 ]; then pass "$L no binaries: the warning is printed once"; else fail "$L no binaries: the warning is printed once" "$n times"; fi
}
shared_corpus corpus/big-endian/dwarf/perf.data.be
each_root unwinds
if shared_corpus; then
	run fold --buildid-dir "$SHARED/corpus/dwarf/buildid" "$SHARED/corpus/big-endian/dwarf/perf.data.be" > be.txt 2>&1
	check_same "big-endian copy folds like the original" "$SHARED/corpus/dwarf/stackcollapse.folded" be.txt
fi
