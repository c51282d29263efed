# t7303: scorch report --sort comm,dso,sym equals perf report --stdio
# --no-children -n -g none on every recorded case (the fixtures always,
# the shared corpus when present), except the closing random "Tip" block
# (perf picks it at random); other key orders work.
. "$ROOT/tests/lib-corpus.sh"

# same_report DESC REF OUT: equal but for the last three lines (the tip)
same_report() {
	head -n -3 "$2" > ref.cut
	head -n -3 "$3" > out.cut
	check_same "$1" ref.cut out.cut
}

reports() {
	local c s
	for c in fp cpp_fp pipe_fp zstd_fp multi offcpu dwarf; do
		"$SCORCH" report --no-children -n -g none --sort comm,dso,sym $(srcs $c) "$C/$c/perf.data" > $c.txt 2> $c.err
		same_report "$L $c: report == report-comm-dso-sym.txt (but the tip)" "$C/$c/report-comm-dso-sym.txt" $c.txt
	done
	if [ "$L" = fixture ]; then
		# other key orders, against perf report with the same keys
		for s in sym dso,comm pid,sym; do
			"$SCORCH" report --no-children -n -g none --sort $s $(srcs fp) "$C/fp/perf.data" > s.txt 2>/dev/null
			same_report "$L --sort $s == perf report --sort $s" "$C/fp/report-$(echo $s | tr , -).txt" s.txt
		done
	else
		"$SCORCH" report --no-children -n -g none --sort sym $(srcs fp) "$C/fp/perf.data" > sym.txt 2>/dev/null
		check_grep "--sort sym: spin row" '^ +97\.49% +2916  \[\.\] spin$' sym.txt
		"$SCORCH" report --no-children -n -g none --sort dso,comm $(srcs fp) "$C/fp/perf.data" > dso.txt 2>/dev/null
		check_grep "--sort dso,comm: work_fp row" '^ +97\.53% +2917  work_fp +work_fp$' dso.txt
		"$SCORCH" report --no-children -n -g none --sort pid,sym $(srcs fp) "$C/fp/perf.data" > pid.txt 2>/dev/null
		check_grep "--sort pid,sym: tid:comm column" '  16514:work_fp  \[\.\] spin$' pid.txt
	fi
	check_fails "$L --sort with an unknown key is a usage error" "$SCORCH" report --sort comm,bogus "$C/fp/perf.data"
	check_fails "$L --sort with a key twice is a usage error" "$SCORCH" report --sort sym,sym "$C/fp/perf.data"
}
shared_corpus
each_root reports
