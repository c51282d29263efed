# t7725: scorch report's srcline sort key (-s srcline, alone, with other
# keys and in -F) equals perf report --stdio's on the fixture recordings
# fp, dwarf, cpp_fp, multi and offcpu and on two made here (a non-PIE
# executable with frame pointers, whose addresses perf shifts by its
# 0x400000, and a DWARF-unwound PIE), perf 6.1 the oracle on the same
# file and build-id cache: file:line of the sampled address from DWARF
# (the line addr2line -i gave each inline row of a DWARF-unwound chain),
# "??:0" where the file names the function but no line, sym+offset of the
# recorded address for the kernel, [vdso] and frame-pointer chains, the
# column sized and cut as perf sizes it; and as binutils 2.40 names the
# file of a DWARF 5 line table row before its sequence's first file
# change: the unit's own file (tmpl.cpp:1933 where the line is
# stl_tree.h's), which scorch reproduces. One case is perf's, not
# scorch's, and skips saying so: perf 6.1 dies of SIGPIPE when a binary
# of the recording is gone (its addr2line child exits at once).
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/report-matrix.sh"
if ! need perf python3 gcc; then
	skip "report -s srcline == perf report" "perf, python3 or gcc missing"
	return 0 2>/dev/null || exit 0
fi
SRCLINE_MATRIX=(
	"-s srcline"
	"--no-children -s srcline -g none"
	"-s srcline,sym"
	"--no-children -s dso,srcline"
	"--no-children -s srcline -g caller"
	"-F overhead,srcline -s dso"
)
srcline_same() {
	local label=$1 file=$2 o=$3 rc
	shift 3
	local what="$label: report $o == perf report"
	# shellcheck disable=SC2086
	perf "$@" report -i "$file" --stdio $o > perf.raw 2> perf.err
	rc=$?
	if [ "$rc" = 141 ] || { [ "$rc" != 0 ] && grep -q 'could not read first record' perf.err; }; then
		skip "$what" "perf exits $rc: its addr2line child for a binary that is gone exits, and perf dies writing to it (SIGPIPE) $(grep -m1 -o 'addr2line [^:]*' perf.err)"
		return
	fi
	head -n -3 perf.raw > perf.out
	# shellcheck disable=SC2086
	"$SCORCH" report "$@" $o "$file" 2> /dev/null | head -n -3 > scorch.out
	if [ ! -s perf.out ]; then
		fail "$what" "perf printed nothing: $(head -1 perf.err)"
		return
	fi
	check_same "$what" perf.out scorch.out
}
srcline_matrix() {
	local c o
	for c in fp dwarf cpp_fp multi offcpu; do
		for o in "${SRCLINE_MATRIX[@]}"; do
			srcline_same "$L $c" "$C/$c/perf.data" "$o" --buildid-dir "$C/$c/buildid"
		done
	done
}
if fixtures; then C=$FIX L=fixture srcline_matrix; fi
export HOME=$TMP/home
mkdir -p "$HOME"
if gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -no-pie -fno-pie -o work_np "$ROOT/tests/workloads/work.c" &&
	gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o work_nofp "$ROOT/tests/workloads/work.c"; then
	for r in "np -F 997 -g ./work_np 0.2" "dw -F 299 --call-graph dwarf,8192 ./work_nofp 0.2"; do
		set -- $r
		n=$1
		shift
		if ! perf --buildid-dir "$PWD/cache-$n" record -q -o "$n.data" "$@" > /dev/null 2> "rec-$n.err"; then
			skip "report -s srcline == perf report (fresh $n)" "perf record failed: $(head -1 "rec-$n.err")"
			continue
		fi
		for o in "${SRCLINE_MATRIX[@]}"; do
			srcline_same "fresh $n" "$n.data" "$o" --buildid-dir "$PWD/cache-$n"
		done
	done
else
	fail "build the workloads"
fi
