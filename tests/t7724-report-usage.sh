# t7724: scorch report's option errors are usage errors (exit 2, one
# message), as perf report refuses them: a sort key perf 6.1 lacks (tid),
# a -g token it does not know, a bad -F or -s list given together, a --max-stack or --percent-limit that is no
# number, a key given twice.
. "$ROOT/tests/lib-corpus.sh"
usage_checks() {
	local f=$C/fp/perf.data a
	for a in "-s tid" "-s sym,sym" "-F bogus" "-F sym -s bogus" "-F bogus -s dso" "-g nonsense" "-g graph,x,y" "-g address" "--max-stack x" "--max-stack -1" "--percent-limit x"; do
		# shellcheck disable=SC2086
		"$SCORCH" report $a "$f" > out.txt 2> err.txt
		rc=$?
		check "$L report $a: exit 2" test "$rc" = 2
		check "$L report $a: one message, nothing on stdout" test "$(grep -c 'scorch report:' err.txt)" = 1 -a ! -s out.txt
	done
}
if fixtures; then C=$FIX L=fixture usage_checks; fi
