# t7303: scorch report --sort comm,dso,sym equals perf report --stdio
# --no-children -n -g none on every corpus case, except the closing
# random "Tip" block (perf picks it at random); other key orders work.
. "$ROOT/tests/lib-corpus.sh"

for c in fp cpp_fp pipe_fp zstd_fp multi offcpu dwarf; do
	"$SCORCH" report --sort comm,dso,sym $(srcs $c) "$C/$c/perf.data" > $c.txt 2> $c.err
	head -n -3 "$C/$c/report-comm-dso-sym.txt" > $c.ref
	head -n -3 $c.txt > $c.cut
	check_same "$c: report == report-comm-dso-sym.txt (but the tip)" $c.ref $c.cut
done

"$SCORCH" report --sort sym $(srcs fp) "$C/fp/perf.data" > sym.txt 2>/dev/null
check_grep "--sort sym: spin row" '^ +97\.49% +2916  \[\.\] spin$' sym.txt
"$SCORCH" report --sort dso,comm $(srcs fp) "$C/fp/perf.data" > dso.txt 2>/dev/null
check_grep "--sort dso,comm: work_fp row" '^ +97\.53% +2917  work_fp +work_fp$' dso.txt
"$SCORCH" report --sort pid,sym $(srcs fp) "$C/fp/perf.data" > pid.txt 2>/dev/null
check_grep "--sort pid,sym: tid:comm column" '  16514:work_fp  \[\.\] spin$' pid.txt
check_fails "--sort with an unknown key is a usage error" "$SCORCH" report --sort comm,bogus "$C/fp/perf.data"
check_fails "--sort with a key twice is a usage error" "$SCORCH" report --sort sym,sym "$C/fp/perf.data"
