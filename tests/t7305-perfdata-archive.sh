# t7305: scorch archive round trip: archive a recording's build-id cache,
# then fold it with HOME pointing at a clean directory, from the tar given
# to --buildid-dir and from the tar unpacked into ~/.debug: identical to
# the reference (the fixtures always, the shared corpus when present). A
# damaged or hostile tar is refused with a message, nothing written
# outside scorch's private directory.
. "$ROOT/tests/lib-corpus.sh"

archives() {
	rm -rf home1 home2 home3; mkdir -p home1 home2/.debug home3
	HOME=$TMP/home1 "$SCORCH" archive --buildid-dir "$C/fp/buildid" -o fp.tar "$C/fp/perf.data" 2> archive.err
	check "$L archive writes a tar" test -s fp.tar
	check "$L tar(1) reads it" tar tf fp.tar
	HOME=$TMP/home3 "$SCORCH" fold --buildid-dir fp.tar "$C/fp/perf.data" > tar.folded 2>/dev/null
	check_same "$L fold --buildid-dir fp.tar == stackcollapse.folded" "$C/fp/stackcollapse.folded" tar.folded
	tar xf fp.tar -C home2/.debug
	HOME=$TMP/home2 "$SCORCH" fold "$C/fp/perf.data" > home.folded 2>/dev/null
	check_same "$L tar unpacked into a clean ~/.debug: fold identical" "$C/fp/stackcollapse.folded" home.folded
	HOME=$TMP/home2 "$SCORCH" script "$C/fp/perf.data" > home.script 2>/dev/null
	check_same "$L ... and script identical" "$C/fp/perf-script.txt" home.script

	# cpp_fp: the libstdc++ and ld.so objects are packed too
	HOME=$TMP/home1 "$SCORCH" archive --buildid-dir "$C/cpp_fp/buildid" -o cpp.tar "$C/cpp_fp/perf.data" 2>/dev/null
	HOME=$TMP/home3 "$SCORCH" fold --buildid-dir cpp.tar "$C/cpp_fp/perf.data" > cpp.folded 2>/dev/null
	check_same "$L cpp_fp round trip" "$C/cpp_fp/stackcollapse.folded" cpp.folded
	if need zstd; then
		zstd -q -f cpp.tar -o cpp.tar.zst
		HOME=$TMP/home3 "$SCORCH" fold --buildid-dir cpp.tar.zst "$C/cpp_fp/perf.data" > zst.folded 2>/dev/null
		check_same "$L zstd-compressed archive" "$C/cpp_fp/stackcollapse.folded" zst.folded
	else
		skip "$L zstd-compressed archive" "no zstd tool"
	fi
	if need bzip2; then
		bzip2 -k -f fp.tar
		HOME=$TMP/home3 "$SCORCH" fold --buildid-dir fp.tar.bz2 "$C/fp/perf.data" > bz.folded 2>/dev/null
		check_same "$L bzip2-compressed archive (perf archive's format)" "$C/fp/stackcollapse.folded" bz.folded
	else
		skip "$L bzip2-compressed archive" "no bzip2 tool"
	fi

	# hostile and damaged tars (GNU tar -P keeps the names as given)
	rm -rf unpack escaped; mkdir -p unpack; echo x > esc
	tar cf dotdot.tar -P --transform 's|^esc$|../escaped|' esc
	tar cf abs.tar -P --transform "s|^esc\$|$TMP/escaped|" esc
	for t in dotdot abs; do
		TMPDIR=$TMP/unpack "$SCORCH" fold --buildid-dir $t.tar "$C/fp/perf.data" > /dev/null 2> $t.err; rc=$?
		check "$L a tar with a $t name is refused (exit 1)" test $rc -eq 1
		check_grep "$L ... naming the entry" "$t\\.tar: .*unsafe name '(\\.\\./|$TMP/)escaped'" $t.err
		check "$L ... and nothing escaped" test ! -e "$TMP/escaped" -a ! -e "$TMP/unpack/escaped"
	done
	head -c 700 fp.tar > short.tar
	check_fails "$L a truncated tar is refused" "$SCORCH" fold --buildid-dir short.tar "$C/fp/perf.data"
	"$SCORCH" fold --buildid-dir short.tar "$C/fp/perf.data" 2> short.err > /dev/null
	check_grep "$L the message names the tar" 'short\.tar' short.err
}
shared_corpus
each_root archives

# a real `perf archive` (.tar.bz2) of a fresh recording, the binary then
# moved away: scorch reads the archive directly in a clean HOME
if need perf gcc bzip2; then
	mkdir -p phome clean
	gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$ROOT/tests/workloads/work.c"
	if HOME=$TMP/phome perf record -q -F 997 -g -o r.data ./work_fp 0.2 > /dev/null 2>&1 &&
	   HOME=$TMP/phome perf archive r.data > /dev/null 2>&1; then
		HOME=$TMP/phome "$SCORCH" fold r.data > before.folded 2>/dev/null
		mv work_fp work_fp.moved
		HOME=$TMP/clean "$SCORCH" fold --buildid-dir r.data.tar.bz2 r.data > after.folded 2>/dev/null
		check_same "perf archive's tar.bz2 read directly, binary moved away" before.folded after.folded
		check_grep "... with the binary's symbols" ';main;top_one;mid_x;leaf_a;spin ' after.folded
	else
		skip "perf archive round trip" "perf record/archive failed"
	fi
else
	skip "perf archive round trip" "perf, gcc or bzip2 missing"
fi
