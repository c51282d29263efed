# t7720: scorch report equals perf report --stdio byte for byte on the
# fixture recordings fp, dwarf and cpp_fp (t7721: multi, offcpu), perf being the
# oracle run here on the same file and build-id cache, for the matrix of
# tests/report-matrix.sh: the default (children and call graphs), each -g
# mode and order, -G, -n, --percent-limit, --max-stack, each sort key
# alone and in combinations. Compared: everything but perf's random tip
# (the last three lines); perf 6.1 names the rest line of a fractal graph
# "[...]" or "[...] (inlined)" at random (uninitialised memory): taken as
# "[...]".
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/report-matrix.sh"
if ! need perf; then
	skip "report == perf report on the fixtures" "perf missing"
	return 0 2>/dev/null || exit 0
fi
fixtures_matrix() {
	local c
	for c in ${REPORT_CASES:-fp dwarf cpp_fp}; do
		report_matrix "$L $c" "$C/$c/perf.data" --buildid-dir "$C/$c/buildid"
	done
}
if fixtures; then C=$FIX L=fixture fixtures_matrix; fi
