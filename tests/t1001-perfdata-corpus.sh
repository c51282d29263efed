# t1001: every perf.data file of the fixtures (tests/fixtures.sh) and of
# the shared corpus (when present) is read without a crash, and per event
# the sample count and the first and last sample times equal what perf
# 6.1's `perf script` shows (the case's perf-script.txt, or for other
# people's recordings external/oracle-perf6.1/*.script.txt.gz, also where
# perf warned (*.err) but printed samples). Files perf 6.1 refuses or
# stops in (*.err) are read anyway: scorch must say what it found.
. "$ROOT/tests/lib-corpus.sh"

# perf script text -> "event NAME: samples N [first T last T]", sorted.
script_stats() {
	awk '
	/PERF_RECORD_/ || /^\t/ || NF < 3 { next }
	{
		ev = ""; t = ""; start = 0
		for (i = 2; i <= NF; i++) if ($i ~ /^-?[0-9]+(\/-?[0-9]+)?$/) { start = i; break }
		if (!start) next
		for (i = start + 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/ || $i ~ /^[0-9]+$/) continue
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1); continue }
			if ($i ~ /:$/) { ev = substr($i, 1, length($i) - 1); break }
		}
		if (ev == "") next
		n[ev]++
		if (t != "") {
			if (!(ev in first) || t + 0 < first[ev] + 0) first[ev] = t
			if (!(ev in last) || t + 0 > last[ev] + 0) last[ev] = t
		}
	}
	END {
		for (e in n) {
			s = "event " e ": samples " n[e]
			if (e in first) s = s " first " first[e] " last " last[e]
			print s
		}
	}' | LC_ALL=C sort
}

scorch_stats() {
	"$SCORCH" dump --stats "$1" 2>/dev/null | grep '^event ' | grep -v 'samples 0$' | LC_ALL=C sort
}

# no_crash MIN FILE...: dump and header -I of every file exit cleanly
no_crash() {
	local min=$1 f rc n=0 crashed=""; shift
	for f in "$@"; do
		n=$((n + 1))
		"$SCORCH" dump "$f" > /dev/null 2> err.txt
		rc=$?
		if [ $rc -ge 2 ] || grep -qE 'runtime error|Sanitizer' err.txt ||
		   { [ $rc -eq 1 ] && ! grep -q "$f" err.txt; }; then
			crashed="$crashed ${f#"$C"/}(rc=$rc)"
		fi
		"$SCORCH" header -I "$f" > /dev/null 2> err.txt
		rc=$?
		if [ $rc -ge 2 ] || grep -qE 'runtime error|Sanitizer' err.txt; then
			crashed="$crashed header:${f#"$C"/}(rc=$rc)"
		fi
	done
	if [ -z "$crashed" ] && [ "$n" -ge "$min" ]; then
		pass "$L: all $n files: dump and header -I exit cleanly (0, or 1 with a message naming the file)"
	else
		fail "$L: all files read without a crash ($n files)" "$crashed"
	fi
}

# Our recordings: compare with the case's perf-script.txt.
ours() {
	local c
	for c in fp dwarf cpp_fp pipe_fp zstd_fp multi offcpu; do
		script_stats < "$C/$c/perf-script.txt" > exp.txt
		scorch_stats "$C/$c/perf.data" > act.txt
		check_same "$L $c: samples per event, first and last time as perf script" exp.txt act.txt
	done
}
shared_corpus corpus/external/oracle-perf6.1
each_root ours
if fixtures; then
	C=$FIX L=fixture no_crash 7 "$FIX"/*/perf.data
fi
shared_corpus || return 0
C=$SHARED/corpus
O=$C/external/oracle-perf6.1

# External files perf 6.1 reads: compare with the oracle, also where perf
# warned (*.err) as long as it printed samples (the piped Intel PT file:
# perf 6.1 stops after its MMAPs; it is checked with the refused ones).
find "$O" -name '*.script.txt.gz' | LC_ALL=C sort > oracles.txt
while read -r g; do
	rel=${g#"$O"/}; rel=${rel%.script.txt.gz}
	f=$C/external/$rel
	gzip -dc "$g" | script_stats > exp.txt
	[ -f "${g%.txt.gz}.err" ] && [ ! -s exp.txt ] && continue
	scorch_stats "$f" > act.txt
	case $rel in
	*intel_pt*)
		# perf script adds events decoded from the trace; keep the
		# events that have SAMPLE records in the file.
		awk -F: 'NR == FNR { k[$1]; next } ($1 in k)' act.txt exp.txt > exp2.txt
		mv exp2.txt exp.txt
		check "${rel##*/}: events with SAMPLE records in perf's output" test -s exp.txt ;;
	esac
	check_same "${rel##*/}: samples per event, first and last time as perf 6.1" exp.txt act.txt
done < oracles.txt

# Files perf 6.1 refuses or stops in: scorch reads them and says what it found.
for e in $(find "$O" -name '*.script.err' | LC_ALL=C sort); do
	rel=${e#"$O"/}; rel=${rel%.script.err}
	f=$C/external/$rel
	"$SCORCH" dump --stats "$f" > out.txt 2> err.txt
	rc=$?
	if [ $rc -lt 2 ] && grep -q '^records: [1-9]' out.txt; then
		pass "${rel##*/} (perf 6.1: $(head -1 "$e")): read, $(grep -c '^event' out.txt) events, $(grep '^records' out.txt)"
	else
		fail "${rel##*/}: read although perf 6.1 refuses it" "rc=$rc $(cat err.txt out.txt)"
	fi
done

# Every file (recordings, big-endian copies, crash inputs): no crash, a
# clear message when not readable.
find "$C" -type f \( -name 'perf.data*' -o -name '*.data' -o -name '*.data.*' \
	-o -name 'poc-*' -o -name 'clusterfuzz-*' -o -name '*.perf.data' \) \
	! -name '*.txt' ! -name '*.gz' ! -name '*.err' ! -name '*.zlib' \
	! -name '*.git-stale' ! -name '*.pb_text' ! -name '*.buildids' | LC_ALL=C sort > all.txt
mapfile -t all < all.txt
no_crash 81 "${all[@]}"
