# t1008: the inputs the fuzzers once crashed on (kept in fuzz/seeds as
# regression seeds), run through the commands as a user runs them: each
# ends with exit 0, 1 or 2, no signal and no sanitizer report (this file
# matters most in the ASan+UBSan run of the suite).
found=0
for f in "$ROOT"/fuzz/seeds/commands-*.data; do
	[ -f "$f" ] || continue
	found=1
	n=$(basename "$f")
	for c in "script -i" "fold" "offcpu --all" "sched timehist -i" "export --format pprof" \
		"export --format speedscope --timeline"; do
		# shellcheck disable=SC2086
		"$SCORCH" $c "$f" > out.txt 2> err.txt
		rc=$?
		if [ $rc -le 2 ] && ! grep -q 'ERROR: AddressSanitizer\|runtime error:' err.txt; then
			pass "$n: scorch $c ends cleanly (exit $rc)"
		else
			fail "$n: scorch $c ends cleanly" "exit $rc: $(grep -m3 'ERROR\|runtime error\|#[0-3] ' err.txt)"
		fi
	done
done
check "regression seeds are there" test $found = 1
