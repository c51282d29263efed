# t1005: directory-format perf.data (perf record --threads: DIR/data holds
# the header, DIR/data.N the per-thread record streams) is read whole:
# the same per-event sample counts and first/last times as perf script.
# Recorded fresh here; skipped when perf cannot record on this machine.

if ! need perf || ! perf record -q --threads -F 499 -g -o thr.data -- \
	sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' > /dev/null 2>&1 ||
	[ ! -f thr.data/data ]; then
	skip "directory-format perf.data" "perf record --threads does not work here"
	return 0 2>/dev/null || exit 0
fi
perf script -i thr.data 2> /dev/null | awk '
	/^\t/ || NF < 3 { next }
	{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1); break }
	  for (j = i + 1; j <= NF; j++) if ($j ~ /:$/ && $j !~ /^[0-9]/) { ev = substr($j, 1, length($j) - 1); break }
	  n[ev]++; if (!(ev in f)) f[ev] = t; l[ev] = t }
	END { for (e in n) print "event " e ": samples " n[e] " first " f[e] " last " l[e] }' | sort > exp.txt
"$SCORCH" dump --stats thr.data > out.txt 2> err.txt
grep '^event' out.txt | grep -v 'samples 0$' | sort > act.txt
if [ -s exp.txt ]; then
	check_same "perf record --threads directory: samples and times as perf script" exp.txt act.txt
else
	skip "perf record --threads directory" "perf script printed no samples"
fi
ls thr.data/data.* > parts.txt 2> /dev/null
check_grep "the recording has per-thread data.N files" 'data\.[0-9]' parts.txt
