# t0903: a bad option value is a usage error: exit 2, one message and the
# --help hint, for every command. Regression: a command that returned at a
# bad value left opt_next's getopt tables allocated, so under the
# sanitizer build LeakSanitizer turned exit 2 into a leak report.
# Inputs: the fixtures always, the shared corpus when present.
. "$ROOT/tests/lib-corpus.sh"

usage() { # DESC CMD...: exit 2 and the hint on stderr
	local desc=$1; shift
	"$@" > out 2> err; local rc=$?
	if [ $rc -eq 2 ] && grep -q "^Try 'scorch [a-z-]* --help'" err && ! grep -q Sanitizer err
	then pass "$desc"; else fail "$desc" "rc=$rc $(head -5 err)"; fi
}
usage2() { # as usage, without the hint (the filter's message says what to write)
	local desc=$1; shift
	"$@" > out 2> err; local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l < err)" -eq 1 ]; then pass "$desc"; else fail "$desc" "rc=$rc $(head -3 err)"; fi
}

usages() {
	local F=$C/fp/stackcollapse.folded P=$C/fp/perf.data
	usage "$L flame --width 0" "$SCORCH" flame --width 0 "$F"
	usage "$L flame --factor nan" "$SCORCH" flame --factor nan "$F"
	usage "$L flame --minwidth -1" "$SCORCH" flame --minwidth -1 "$F"
	usage "$L heatmap latency --minlat nan" "$SCORCH" heatmap latency --minlat nan "$F"
	usage "$L heatmap subsecond --rows 0" "$SCORCH" heatmap subsecond --rows 0 "$P"
	usage "$L fold --jobs 0" "$SCORCH" fold --jobs 0 "$F"
	usage "$L fold --format nosuch" "$SCORCH" fold --format nosuch "$F"
	usage "$L report --sort ," "$SCORCH" report --sort , "$P"
	usage "$L diff, unknown option" "$SCORCH" diff --bogus "$F" "$F"
	usage "$L offcpu --unit parsecs" "$SCORCH" offcpu --unit parsecs "$C/offcpu/perf.data"
	usage "$L sched, unknown subcommand" "$SCORCH" sched nosuch -i "$P"
	usage "$L dump, two files" "$SCORCH" dump "$P" "$P"
	# fold of a perf.data took a bad --time or --cpu for an input error (exit 1)
	usage2 "$L fold --time ,, (perf.data): exit 2, as script" "$SCORCH" fold --time ,, "$P"
	usage2 "$L fold --cpu 3-1 (perf.data): exit 2" "$SCORCH" fold --cpu 3-1 "$P"
	usage2 "$L script --time ,,: exit 2" "$SCORCH" script --time ,, "$P"
	usage2 "$L report --cpu x: exit 2" "$SCORCH" report --cpu x "$P"

	# --kallsyms or --vdso naming a file that is not there was silently ignored
	# (hex addresses where the user asked for symbols): exit 1 naming it
	for cmd in fold script report offcpu; do
		"$SCORCH" $cmd --kallsyms no-such.kallsyms "$C/offcpu/perf.data" > out 2> err; rc=$?
		if [ $rc -eq 1 ] && grep -q '^scorch [a-z]*: --kallsyms no-such\.kallsyms: no such file$' err
		then pass "$L $cmd --kallsyms MISSING: exit 1 naming it"; else fail "$L $cmd --kallsyms MISSING" "rc=$rc $(cat err)"; fi
	done
	"$SCORCH" fold --vdso no-such.vdso "$P" > out 2> err; rc=$?
	check "$L fold --vdso MISSING: exit 1" test $rc -eq 1
	check_grep "$L fold --vdso MISSING: message names it" '^scorch fold: --vdso no-such\.vdso: no such file$' err
	# --kallsyms naming a file without one kernel symbol (a perf.data, empty):
	# the kernel frames stay hex, so one warning says why
	: > empty.kallsyms
	"$SCORCH" fold --kallsyms empty.kallsyms "$C/offcpu/perf.data" > out 2> err; rc=$?
	check "$L fold --kallsyms EMPTY: exit 0, output kept" test $rc -eq 0 -a -s out
	check_grep "$L fold --kallsyms EMPTY: one warning naming it" '^scorch fold: warning: empty\.kallsyms: no kernel symbols' err
	check "$L fold --kallsyms EMPTY: said once" test "$(grep -c 'no kernel symbols' err)" -eq 1
}
shared_corpus
each_root usages
