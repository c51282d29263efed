# t1002: `scorch header` prints what `perf report --header-only` prints,
# field by field, for hostname, os release, perf version, arch, nrcpus,
# cpudesc, cpuid, total memory, cmdline and the event lines, on our cases
# (header.txt) and on every external file perf 6.1 reads (oracle
# *.header.txt, made with -I). The layout lines and the whole non-detail
# output of our cases must match too, except "captured on" (the mtime).
# Our cases: the fixtures always, the shared corpus when present.
. "$ROOT/tests/lib-corpus.sh"
fields='^# (hostname|os release|perf version|arch|nrcpus online|nrcpus avail|cpudesc|cpuid|total memory|cmdline|event) :'

headers() {
	local c
	for c in fp dwarf cpp_fp pipe_fp zstd_fp multi offcpu; do
		"$SCORCH" header "$C/$c/perf.data" > out.txt 2> err.txt
		grep -E "$fields" "$C/$c/header.txt" > exp.txt
		grep -E "$fields" out.txt > act.txt
		check_same "$L $c: header fields as perf report --header-only" exp.txt act.txt
		grep -v '^# captured on' "$C/$c/header.txt" > exp.txt
		grep -v '^# captured on' out.txt > act.txt
		check_same "$L $c: whole header as perf report --header-only (but the mtime)" exp.txt act.txt
	done

	# -I details of a case: topology, NUMA, cache lines present.
	"$SCORCH" header -I "$C/fp/perf.data" > out.txt
	check_grep "$L -I prints the CPU topology" '^# sibling threads : ' out.txt
	check_grep "$L -I prints the NUMA nodes" '^# node0 meminfo  : total = [0-9]+ kB' out.txt
	check_grep "$L -I prints the caches" '^#  L1 Data +[0-9]+K \[' out.txt
	check_fails "$L not a perf.data file: exit 1" "$SCORCH" header "$C/fp/header.txt"
	"$SCORCH" header "$C/fp/header.txt" > /dev/null 2> err.txt
	check_grep "$L not a perf.data file: message names the file" 'header.txt: not a perf.data file' err.txt
}
shared_corpus corpus/external/oracle-perf6.1
each_root headers
shared_corpus || return 0
C=$SHARED/corpus
O=$C/external/oracle-perf6.1

find "$O" -name '*.header.txt' | LC_ALL=C sort > oracles.txt
while read -r h; do
	rel=${h#"$O"/}; rel=${rel%.header.txt}
	"$SCORCH" header -I "$C/external/$rel" > out.txt 2> err.txt
	grep -E "$fields" "$h" > exp.txt
	grep -E "$fields" out.txt > act.txt
	case $rel in
	*armv7.perf_3.14-3.8)
		# Its CPUDESC section is empty (size 0): perf 6.1 prints
		# "(null)" and stops processing features there, so it shows
		# total memory 0 and an empty cmdline although the file holds
		# them. scorch marks CPUDESC unreadable and reads on.
		check_grep "${rel##*/}: empty CPUDESC reported unreadable" '^# cpudesc : \(unreadable\)' act.txt
		check_grep "${rel##*/}: total memory after it still read" '^# total memory : 2049120 kB' act.txt
		grep -v -E '^# (cpudesc|total memory|cmdline) :' exp.txt > e2.txt; mv e2.txt exp.txt
		grep -v -E '^# (cpudesc|total memory|cmdline) :' act.txt > a2.txt; mv a2.txt act.txt ;;
	esac
	check_same "${rel##*/}: header fields as perf 6.1" exp.txt act.txt
	grep -E '^# (data offset|data size|feat offset|header version)' "$h" > exp.txt
	grep -E '^# (data offset|data size|feat offset|header version)' out.txt > act.txt
	check_same "${rel##*/}: layout lines as perf 6.1" exp.txt act.txt
done < oracles.txt

# 136-byte attrs (perf 6.5+ files that perf 6.1 refuses) still print.
"$SCORCH" header "$C/external/perfparser/tests/auto/perfdata/cpp-inlining/cpp-inlining.perf.data" > out.txt 2>&1
check_grep "attr size 136 (perf 6.1 refuses the file): events listed" '^# event : name = cpu_core/cycles:Pu/, .* size = 136' out.txt
check_fails "not a perf.data file: exit 1" "$SCORCH" header "$C/README.md"
"$SCORCH" header "$C/README.md" > /dev/null 2> err.txt
check_grep "not a perf.data file: message names the file" 'README.md: not a perf.data file' err.txt
