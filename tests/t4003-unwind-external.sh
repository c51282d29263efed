# t4003-unwind-external: hotspot's perfparser DWARF recordings of static
# binaries that are not here: no crash, exit 0, each sample folds to what
# its call chain and sampled pc give, and one summary warning at most.
dir=$SHARED/corpus/external/perfparser/tests/auto/perfdata
mkdir -p home
for f in vector_static_gcc/perf.data vector_static_clang/perf.data \
	vector_static_gcc/perf.data.zstd fork_static_gcc/perf.data.zstd \
	parallel_static_gcc/perf.data.zstd cpp-inlining/cpp-inlining.perf.data \
	contentsize.data vector_static_gcc/perf.lbr.data; do
	[ -f "$dir/$f" ] || { skip "$f" "not in the corpus"; continue; }
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/none" "$dir/$f" > out.txt 2> err.txt
	rc=$?
	if [ $rc -eq 0 ]; then pass "$f: exit 0"; else fail "$f: exit 0" "status $rc: $(head -3 err.txt)"; fi
	n=$(grep -c 'DWARF samples' err.txt)
	if [ "$n" -le 1 ]; then pass "$f: at most one unwinding warning"
	else fail "$f: at most one unwinding warning" "$(head -5 err.txt)"; fi
	check "$f: every sample is folded" test -s out.txt
done
# the summary names a missing binary
HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/none" "$dir/vector_static_gcc/perf.data" 2>&1 >/dev/null |
	grep 'DWARF samples' > w.txt
check_grep "the warning names the absent static binary" 'no binary for .*vector_static_gcc' w.txt
