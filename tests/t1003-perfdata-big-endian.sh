# t1003: big-endian perf.data written by perf itself (perf 6.1 for s390x,
# perf inject -b; see corpus/big-endian/README.md) reads the same as the
# little-endian original: every SAMPLE (event, cpumode, pid/tid, ip,
# period, time, callchain, user regs and stack copy), MMAP/MMAP2 and COMM
# record. Header: the features perf wrote correctly match, and the ones it
# copied in the wrong byte order are reported unreadable, not printed.
# Only on the shared corpus: these files need perf built for a big-endian
# machine to make, which the fixtures cannot do here.
. "$ROOT/tests/lib-corpus.sh"
shared_corpus corpus/big-endian/fp/perf.data.be corpus/big-endian/dwarf/perf.data.be corpus/big-endian/multi/perf.data.be || return 0
B=$C/big-endian
pat='PERF_RECORD_(SAMPLE|MMAP2?|COMM)[ :]'

for c in fp dwarf multi; do
	"$SCORCH" dump "$C/$c/perf.data" | grep -E "$pat" | sed 's/^[^ ]* [^ ]* //' > le.txt
	"$SCORCH" dump "$B/$c/perf.data.be" 2> err.txt | grep -E "$pat" | sed 's/^[^ ]* [^ ]* //' > be.txt
	n=$(wc -l < le.txt)
	if [ "$n" -gt 100 ] && cmp -s le.txt be.txt; then
		pass "$c: all $n samples, mmaps and comms of the big-endian copy equal the original"
	else
		fail "$c: big-endian records equal the original ($n lines)" "$(diff le.txt be.txt | head)"
	fi
	"$SCORCH" dump --stats "$C/$c/perf.data" | grep '^event' > le.txt
	"$SCORCH" dump --stats "$B/$c/perf.data.be" 2> /dev/null | grep '^event' > be.txt
	check_same "$c: per-event counts and times of the big-endian copy" le.txt be.txt

	"$SCORCH" header "$B/$c/perf.data.be" > out.txt 2> err.txt
	grep '^# event :' "$B/$c/header.txt" > exp.txt
	grep '^# event :' out.txt > act.txt
	check_same "$c: big-endian event lines as perf prints them" exp.txt act.txt
	grep -E '^# (data offset|data size|feat offset)' "$B/$c/header.txt" > exp.txt
	grep -E '^# (data offset|data size|feat offset)' out.txt > act.txt
	check_same "$c: big-endian layout lines as perf prints them" exp.txt act.txt
	grep -E '^# (cmdline|time of first sample|time of last sample) :' "$C/$c/header.txt" | sed 's/-o [^ ]* //' > exp.txt
	grep -E '^# (time of first sample|time of last sample) :' out.txt > act.txt
	grep -E '^# (time of first sample|time of last sample) :' exp.txt > exp2.txt
	check_same "$c: sample time (written correctly in big-endian) as the original" exp2.txt act.txt
	check_grep "$c: cmdline (written correctly) read" '^# cmdline : .*perf inject -b' out.txt
	bad=0
	for f in hostname 'os release' 'perf version' arch cpudesc 'total memory'; do
		grep -q "^# $f : (unreadable)\$" out.txt || bad=1
	done
	if [ $bad -eq 0 ] && ! grep -q '(null)' out.txt; then
		pass "$c: features copied in the wrong byte order shown as unreadable"
	else
		fail "$c: wrong-order features shown as unreadable" "$(head -20 out.txt)"
	fi
	check_grep "$c: the reason is on stderr" 'feature HOSTNAME unreadable .*written in the other byte order' err.txt
done
