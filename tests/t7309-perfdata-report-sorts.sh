# t7309: scorch report against perf report itself for every kind of
# --sort list (one key, several, pid, symbol not last) on a fresh
# recording of a shell that runs work_fp, with perf's own build-id cache:
# same rows, order, widths and padding (the random tip excepted).
if ! need perf gcc; then
	skip "report sorts" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$ROOT/tests/workloads/work.c" ||
	{ fail "build work_fp"; return 0; }
if ! perf --buildid-dir cache record -q -F 997 -g -o r.data -- sh -c './work_fp 0.3 > /dev/null' 2> rec.err; then
	skip "report sorts" "perf record failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
for s in comm,dso,sym sym dso comm pid pid,sym sym,dso,comm dso,sym comm,pid; do
	perf --buildid-dir cache report -i r.data --stdio --no-children -n -g none --sort $s 2>/dev/null |
		head -n -3 > perf.$s
	"$SCORCH" report --no-children -n -g none --buildid-dir cache --sort $s r.data 2>/dev/null | head -n -3 > scorch.$s
	check_same "--sort $s == perf report --sort $s" perf.$s scorch.$s
done
