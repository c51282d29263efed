# t1001: every perf.data file of the shared corpus is read without a crash,
# and per event the sample count and the first and last sample times equal
# what perf 6.1's `perf script` shows (external/oracle-perf6.1/*.script.txt.gz,
# or the case's perf-script.txt). Files perf 6.1 refuses (*.err) are read
# anyway: scorch must say what it found.

C=$SHARED/corpus
O=$C/external/oracle-perf6.1

# perf script text -> "event NAME: samples N [first T last T]", sorted.
script_stats() {
	awk '
	/PERF_RECORD_/ || /^\t/ || NF < 3 { next }
	{
		ev = ""; t = ""; start = 0
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+(\/[0-9]+)?$/) { start = i; break }
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

# Our recordings: compare with the case's perf-script.txt.
for c in fp dwarf cpp_fp pipe_fp zstd_fp multi offcpu; do
	script_stats < "$C/$c/perf-script.txt" > exp.txt
	scorch_stats "$C/$c/perf.data" > act.txt
	check_same "$c: samples per event, first and last time as perf script" exp.txt act.txt
done

# External files perf 6.1 reads: compare with the oracle.
find "$O" -name '*.script.txt.gz' | LC_ALL=C sort > oracles.txt
while read -r g; do
	rel=${g#"$O"/}; rel=${rel%.script.txt.gz}
	f=$C/external/$rel
	[ -f "${g%.txt.gz}.err" ] && continue
	gzip -dc "$g" | script_stats > exp.txt
	scorch_stats "$f" > act.txt
	case $rel in
	*intel_pt*)
		# perf script adds events decoded from the trace; keep the
		# events that have SAMPLE records in the file.
		awk -F: 'NR == FNR { k[$1]; next } ($1 in k)' act.txt exp.txt > exp2.txt
		mv exp2.txt exp.txt ;;
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
n=0; crashed=""
while read -r f; do
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
done < all.txt
if [ -z "$crashed" ] && [ "$n" -gt 80 ]; then
	pass "all $n corpus files: dump and header -I exit cleanly (0, or 1 with a message naming the file)"
else
	fail "all corpus files read without a crash ($n files)" "$crashed"
fi
