# t0903: a bad option value is a usage error: exit 2, one message and the
# --help hint, for every command. Regression: a command that returned at a
# bad value left opt_next's getopt tables allocated, so under the
# sanitizer build LeakSanitizer turned exit 2 into a leak report.

C=$SHARED/corpus
F=$C/fp/stackcollapse.folded
P=$C/fp/perf.data
usage() { # DESC CMD...: exit 2 and the hint on stderr
	local desc=$1; shift
	"$@" > out 2> err; local rc=$?
	if [ $rc -eq 2 ] && grep -q "^Try 'scorch [a-z-]* --help'" err && ! grep -q Sanitizer err
	then pass "$desc"; else fail "$desc" "rc=$rc $(head -5 err)"; fi
}
usage "flame --width 0" "$SCORCH" flame --width 0 "$F"
usage "flame --factor nan" "$SCORCH" flame --factor nan "$F"
usage "flame --minwidth -1" "$SCORCH" flame --minwidth -1 "$F"
usage "heatmap latency --minlat nan" "$SCORCH" heatmap latency --minlat nan "$F"
usage "heatmap subsecond --rows 0" "$SCORCH" heatmap subsecond --rows 0 "$P"
usage "fold --jobs 0" "$SCORCH" fold --jobs 0 "$F"
usage "fold --format nosuch" "$SCORCH" fold --format nosuch "$F"
usage "report --sort ," "$SCORCH" report --sort , "$P"
usage "diff, unknown option" "$SCORCH" diff --bogus "$F" "$F"
usage "offcpu --unit parsecs" "$SCORCH" offcpu --unit parsecs "$C/offcpu/perf.data"
usage "sched, unknown subcommand" "$SCORCH" sched nosuch -i "$P"
usage "dump, two files" "$SCORCH" dump "$P" "$P"
