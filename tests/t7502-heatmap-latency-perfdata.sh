# t7502: scorch heatmap latency on perf.data. Recordings made here: any
# pair of tracepoints (wakeup to switch-in by pid=next_pid) equals the
# same pairing done on perf script's text of the file; errors; block I/O
# pairs (issue -> complete by dev and sector) of dd oflag=direct on a loop
# device equal a direct computation from perf script. With ../shared: the
# reference block recordings' pairs equal the reference awk pairs and
# their cells trace2heatmap.pl's.
if ! need perf; then skip "perf.data heat maps" "perf missing"; return 0; fi

# A fresh sched recording: a shell sleeping ten times, system-wide
perf --buildid-dir "$TMP/.debug" record -q -e sched:sched_waking -e sched:sched_switch -a -o sched.data \
	-- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.01; done' > /dev/null 2> sched.rec.err ||
	{ fail "perf record of sched tracepoints" "$(head -3 sched.rec.err)"; return 0; }
perf --buildid-dir "$TMP/.debug" script -i sched.data 2> /dev/null > sched.txt

# Any pair of tracepoints: wakeup to switch-in by pid=next_pid, against the
# same pairing done on the file's perf script text (a later start of the
# same key replaces the earlier one); wake.count: "pairs starts-left
# ends-without-start"
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t); split(t, p, "."); us = p[1] p[2]; break }
	if ($0 ~ /sched:sched_waking:/) { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { k = substr($i, 5); st[k] = us; has[k] = 1 } }
	else if ($0 ~ /sched:sched_switch:/) { for (i = 1; i <= NF; i++) if ($i ~ /^next_pid=/) { k = substr($i, 10)
		if (has[k] == 1) { printf "%s %d\n", us, us - st[k]; delete has[k]; np++ } else nostart++ } } }
	END { for (k in has) if (has[k] == 1) left++; printf "%d pairs; %d start events never ended, %d end events had no start\n", np, left, nostart > "wake.count" }' sched.txt > wake.exp
"$SCORCH" heatmap latency --pairs --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	sched.data > wake.pairs 2> wake.err
if [ -s wake.exp ]; then check_same "--start/--end/--key A=B: wakeup-to-run pairs equal perf script's ($(wc -l < wake.exp))" wake.exp wake.pairs
else fail "--start/--end/--key A=B: wakeup-to-run pairs equal perf script's" "perf script shows no wakeup pair"; fi
check_grep "unmatched starts and ends are counted in one warning" ": $(cat wake.count)" wake.err
# two rows: on a quiet machine every wakeup may take a few us, below the
# default 50 rows' resolution
"$SCORCH" heatmap latency --cells --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	sched.data --unitslabel=us --rows 2 > wake.cells 2>/dev/null
rc=$?
"$SCORCH" heatmap latency --cells --rows 2 --unitslabel=us --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	sched.data > wake.cells2 2>/dev/null
n=$(tail -n +2 wake.cells | awk '{ s += $3 } END { print s + 0 }')
if [ $rc = 0 ] && [ "$n" = "$(wc -l < wake.exp)" ] && cmp -s wake.cells wake.cells2; then
	pass "options may follow the file; the wakeup map draws every pair ($n)"
else fail "options may follow the file; the wakeup map draws every pair" "exit $rc, $n of $(wc -l < wake.exp) pairs in cells, same as options first: $(cmp -s wake.cells wake.cells2 && echo yes || echo no)"; fi

# perf.data on standard input (a pipe, as from perf record -o -)
cat sched.data | "$SCORCH" heatmap latency --pairs --start sched:sched_waking --end sched:sched_switch \
	--key pid=next_pid > stdin.pairs 2> stdin.err
if [ -s wake.pairs ]; then check_same "perf.data through a pipe on stdin: same pairs" wake.pairs stdin.pairs
else fail "perf.data through a pipe on stdin: same pairs" "no pairs from the file"; fi
awk 'BEGIN { for (i = 0; i < 500; i++) print 1000000 + i * 7001, 10 + (i * 37) % 900 }' > lat.txt
"$SCORCH" heatmap latency --unitstime=us --unitslabel=us --quirks --cells lat.txt > file.tsv
cat lat.txt | "$SCORCH" heatmap latency --unitstime=us --unitslabel=us --quirks --cells > stdin.tsv
if [ "$(wc -l < file.tsv)" -gt 10 ]; then check_same "text through a pipe on stdin still reads as text" file.tsv stdin.tsv
else fail "text through a pipe on stdin still reads as text" "$(wc -l < file.tsv) lines from the file"; fi

# Bad requests
check_fails "unknown start event fails" "$SCORCH" heatmap latency --start block:nope sched.data
"$SCORCH" heatmap latency --start block:nope sched.data 2> nope.err
check_grep "unknown event: message names it" 'block:nope was not recorded' nope.err
check_fails "unknown key field fails" "$SCORCH" heatmap latency --start sched:sched_waking \
	--end sched:sched_switch --key pid,nosuch sched.data
perf --buildid-dir "$TMP/.debug" record -q -F 99 -o cpu.data -- sleep 0.05 > /dev/null 2>&1
check_fails "perf.data without tracepoints fails" "$SCORCH" heatmap latency cpu.data --start a:b
# a truncated copy has lost its event formats (they sit after the data):
# a clear message, not a crash
head -c $(( $(wc -c < sched.data) / 2 )) sched.data > trunc.data
check_fails "truncated file fails" "$SCORCH" heatmap latency --pairs --start sched:sched_waking \
	--end sched:sched_switch --key pid=next_pid trunc.data
"$SCORCH" heatmap latency --pairs --start sched:sched_waking --end sched:sched_switch --key pid=next_pid trunc.data 2> trunc.err
check_grep "truncated file: message names the file and the missing formats" 'trunc.data: .*(tracing data|offset 0x)' trunc.err

# A fresh recording: dd with oflag=direct on a loop device (ext4) while
# perf records the block tracepoints; pairs and cells against perf script.
record_block() {
	need perf losetup mkfs.ext4 || return 1
	truncate -s 32M img && loop=$(losetup -f --show img 2>/dev/null) || return 1
	mkfs.ext4 -q "$loop" && mkdir -p mnt && mount "$loop" mnt || { losetup -d "$loop"; return 1; }
	perf --buildid-dir "$TMP/.debug" record -q --synth=no -e block:block_rq_issue -e block:block_rq_complete -a \
		-o /dev/shm/t7502-$$.data -- dd if=/dev/zero of=mnt/f bs=4k count=400 oflag=direct >/dev/null 2>&1
	local rc=$?
	umount mnt; losetup -d "$loop"
	mv /dev/shm/t7502-$$.data rec.data 2>/dev/null
	return $rc
}
if record_block && [ -s rec.data ]; then
	# independent pairing from perf script: key (dev, sector), keep the
	# latest issue, microseconds truncated as perf script prints them
	perf --buildid-dir "$TMP/.debug" script -i rec.data -F time,event,trace --ns 2>/dev/null | awk '
		{ gsub(/:/, "", $1); split($1, t, "."); us = t[1] * 1000000 + int(substr(t[2], 1, 6)) }
		$2 ~ /issue/ { iss[$3, $7] = us; has[$3, $7] = 1 }
		$2 ~ /complete/ && has[$3, $6] { printf "%.0f %.0f\n", us, us - iss[$3, $6]; delete has[$3, $6] }' > rec.exp
	"$SCORCH" heatmap latency --pairs rec.data > rec.pairs 2> rec.err
	if [ ! -s rec.exp ]; then
		skip "fresh recording" "perf captured no block request pairs this time (busy machine?)"
	else
		check_same "fresh recording: pairs equal the perf script computation ($(wc -l < rec.exp) pairs)" rec.exp rec.pairs
		# cells: default bucketing computed directly from those pairs (row
		# height max/50; when every request took under 50 us that is 0 and
		# scorch asks for --steplat, as trace2heatmap.pl would divide by
		# zero: both then use rows of 1 us)
		step=$(awk '{ if ($2 > max) max = $2 } END { s = int(max / 50); print (s > 0 ? s : 1) }' rec.exp)
		awk -v step="$step" 'NR == FNR { if (FNR == 1 || $1 < t0) t0 = $1; next }
			{ c = int(($1 - t0) / 1000000); r = int($2 / step); n[c "\t" r]++ }
			END { for (k in n) print k "\t" n[k] }' rec.exp rec.exp | sort > rec.cells.exp
		"$SCORCH" heatmap latency --cells --steplat "$step" rec.data | tail -n +2 | cut -f1-3 | sort > rec.cells
		check_same "fresh recording: cells equal a direct computation" rec.cells.exp rec.cells
		n=$(awk '{ s += $3 } END { print s + 0 }' rec.cells)
		if [ "$n" -ge 400 ]; then pass "fresh recording: $n pairs, at least dd's 400 writes"; else fail "fresh recording: only $n pairs"; fi
	fi
else
	skip "fresh block I/O recording" "no loop device, mkfs.ext4 or block tracepoints here (needs root)"
fi
rm -f /dev/shm/t7502-$$.data

# The reference block recordings (../shared/heatmap)
need_shared heatmap/block.perf.data heatmap/block-extra heatmap/sched/perf.data || return 0
H=$SHARED/heatmap

"$SCORCH" heatmap latency --pairs "$H/block.perf.data" > block.pairs 2> block.err
check_same "block.perf.data: pairs equal block.lat_us.txt" "$H/block.lat_us.txt" block.pairs
check "block.perf.data: no pairing warning (every issue completed)" test ! -s block.err
"$SCORCH" heatmap latency --pairs --unit ns "$H/block.perf.data" | tr ' ' '\t' > block.ns
cut -f1,2 "$H/block.lat_ns.tsv" > block.ns.exp
check_same "block.perf.data: ns pairs equal block.lat_ns.tsv" block.ns.exp block.ns
"$SCORCH" heatmap latency --pairs "$H/block-extra/block-dd300.perf.data" > dd300.pairs
check_same "block-dd300: pairs equal its lat_us.txt" "$H/block-extra/block-dd300.lat_us.txt" dd300.pairs

"$SCORCH" heatmap latency --quirks --cells --stepsec=0.1 --maxlat=2000 --grid "$H/block.perf.data" > b01.tsv
check_same "block.perf.data: --stepsec=0.1 --maxlat=2000 cells equal trace2heatmap.pl's" \
	"$H/block.heatmap-stepsec0.1-maxlat2000-grid.cells.tsv" b01.tsv
"$SCORCH" heatmap latency --quirks --cells "$H/block.perf.data" > bdef.tsv
check_same "block.perf.data: default --quirks map is empty like trace2heatmap.pl's" \
	"$H/block.heatmap-default.cells.tsv" bdef.tsv
"$SCORCH" heatmap latency --cells "$H/block.perf.data" | cut -f1-3 > bfull.tsv
grep -v '^#' "$H/block.heatmap-default.fullmap.tsv" | cut -f1-3 > bfull.exp
check_same "block.perf.data: default cells equal the full internal map" bfull.exp bfull.tsv
"$SCORCH" heatmap latency "$H/block.perf.data" > block.svg
if need xmllint; then check "block SVG passes xmllint" xmllint --noout block.svg; fi

"$SCORCH" heatmap latency --pairs --key sector "$H/block.perf.data" > sector.pairs
check_same "--key sector alone pairs the same requests here" "$H/block.lat_us.txt" sector.pairs
cat "$H/block.perf.data" | "$SCORCH" heatmap latency --pairs > stdin.pairs 2> stdin.err
check_same "block.perf.data through a pipe on stdin: same pairs" "$H/block.lat_us.txt" stdin.pairs
"$SCORCH" heatmap latency --pairs --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	"$H/sched/perf.data" > wake.pairs 2> wake.err
check_grep "sched/perf.data: unmatched starts and ends are counted in one warning" '14 pairs; 3 start events never ended, 33 end events had no start' wake.err

