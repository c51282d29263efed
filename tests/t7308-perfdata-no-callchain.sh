# t7308: a recording without call chains (perf record without -g): scorch
# script prints perf script's one-line samples (raw address, symbol,
# dso), scorch report matches perf report (the dso column widened for an
# unresolved row, as perf does), and scorch fold gives "comm;symbol"
# weighted by period (stackcollapse-perf.pl would fold nothing: perf
# script prints no blank line between such samples).
if ! need perf gcc; then
	skip "no-callchain recording" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$ROOT/tests/workloads/work.c" ||
	{ fail "build work_fp"; return 0; }
if ! perf --buildid-dir cache record -q -F 997 -o nog.data ./work_fp 0.3 > /dev/null 2> rec.err; then
	skip "no-callchain recording" "perf record failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
perf --buildid-dir cache script -i nog.data 2>/dev/null | grep -v kernel.kallsyms > perf.txt
"$SCORCH" script --buildid-dir cache nog.data 2>/dev/null | grep -v kernel.kallsyms > scorch.txt
check_same "script == perf script (one line per sample)" perf.txt scorch.txt
perf --buildid-dir cache report -i nog.data --stdio --no-children -n -g none --sort comm,dso,sym 2>/dev/null |
	head -n -3 | grep -v kernel.kallsyms > perf-report.txt
"$SCORCH" report -n --buildid-dir cache nog.data 2>/dev/null | head -n -3 | grep -v kernel.kallsyms > scorch-report.txt
check_same "report == perf report" perf-report.txt scorch-report.txt
"$SCORCH" fold --buildid-dir cache nog.data > nog.folded 2>/dev/null
check_grep "fold: comm;symbol weighted by period" '^work_fp;spin [0-9]{6,}$' nog.folded
