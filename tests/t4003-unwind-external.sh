# t4003-unwind-external: hotspot's perfparser DWARF recordings of static
# binaries that are not here (third-party files in ../shared): no crash,
# exit 0, every sample is folded (the folded weights add up to the
# samples' periods as perf script reads them), and one summary warning at
# most.
p=corpus/external/perfparser/tests/auto/perfdata
files="vector_static_gcc/perf.data vector_static_clang/perf.data
	vector_static_gcc/perf.data.zstd fork_static_gcc/perf.data.zstd
	parallel_static_gcc/perf.data.zstd cpp-inlining/cpp-inlining.perf.data
	contentsize.data vector_static_gcc/perf.lbr.data"
need_shared "$p" || return 0
dir=$SHARED/$p
mkdir -p home

# periods FILE: the sum of the periods of FILE's samples, every event, as
# perf script reads them; when perf cannot read FILE (perf 6.1 refuses
# cpp-inlining's hybrid PMU attrs), as scorch dump reads the records.
periods() {
	if HOME=$TMP/home perf script --symfs=/nonexistent -G -F period -i "$1" > periods.txt 2> /dev/null; then
		awk '{ s += $1 } END { print s + 0 }' periods.txt
	else
		"$SCORCH" dump "$1" 2> /dev/null |
			awk '/PERF_RECORD_SAMPLE/ { for (i = 1; i < NF; i++) if ($i == "period") s += $(i + 1) }
			     END { print s + 0 }'
	fi
}

for f in $files; do
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/none" "$dir/$f" > out.txt 2> err.txt
	rc=$?
	if [ $rc -eq 0 ]; then pass "$f: exit 0"; else fail "$f: exit 0" "status $rc: $(head -3 err.txt)"; fi
	n=$(grep -c 'DWARF samples' err.txt)
	if [ "$n" -le 1 ]; then pass "$f: at most one unwinding warning"
	else fail "$f: at most one unwinding warning" "$(head -5 err.txt)"; fi
	want=$(periods "$dir/$f")
	got=$(awk '{ s += $NF } END { print s + 0 }' out.txt)
	if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then pass "$f: every sample is folded (weight $got)"
	else fail "$f: every sample is folded" "folded weight $got, sample periods $want"; fi
done
# the summary names a missing binary
HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/none" "$dir/vector_static_gcc/perf.data" 2>&1 >/dev/null |
	grep 'DWARF samples' > w.txt
check_grep "the warning names the absent static binary" 'no binary for .*vector_static_gcc' w.txt
