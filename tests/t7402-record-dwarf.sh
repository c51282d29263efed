# t7402: scorch record --call-graph dwarf on work_nofp (no frame pointers):
# perf reads and unwinds the file without a warning, the attr asks for the
# user registers and stack as perf's does, the ground truth comes out of
# the unwound stacks, and scorch fold of the file equals perf script of it
# folded by scorch.
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp and work_nofp"
	return 0
fi

tries=$(record_shares dwarf.folded 3 "$SCORCH" record -F 499 --call-graph dwarf -o rec.data -- ./work_nofp 2)
check "scorch record --call-graph dwarf exits 0" test -n "$tries"
mv rec.data dwarf.data
check_shares_vs_perf "dwarf: ground truth shares (try ${tries:-?} of 3)" dwarf.folded \
	-F 499 --call-graph dwarf -o perf-ref.data -- ./work_nofp 2
check_perf_quiet "perf reads the dwarf file without warnings" dwarf.data

perf report --header-only -i dwarf.data > header.txt 2>&1
check_grep "attr: REGS_USER and STACK_USER sampled" \
	'sample_type = IP\|TID\|TIME\|CALLCHAIN\|PERIOD\|REGS_USER\|STACK_USER' header.txt
check_grep "attr: x86_64 user register mask and 8192-byte stack" \
	'exclude_callchain_user = 1.*sample_regs_user = 0xff0fff, sample_stack_user = 8192' header.txt

perf script -i dwarf.data 2> /dev/null > script.txt
check_grep "perf unwinds user frames below spin" '^[[:space:]]+[0-9a-f]+ leaf_a\+0x[0-9a-f]+ \(.*/work_nofp\)' script.txt

check_fold_same "dwarf: scorch fold of the file equals perf script | scorch fold" dwarf.data

"$SCORCH" record -q -F 199 --call-graph dwarf,4096 -o d4k.data -- ./work_nofp 0.2 > /dev/null 2>&1
perf report --header-only -i d4k.data > h2.txt 2>&1
check_grep "--call-graph dwarf,4096 sets the stack size" 'sample_stack_user = 4096' h2.txt
check_fails "--call-graph dwarf,70000 is refused" "$SCORCH" record --call-graph dwarf,70000 -- true
check_fails "--call-graph lbr is refused" "$SCORCH" record --call-graph lbr -- true
