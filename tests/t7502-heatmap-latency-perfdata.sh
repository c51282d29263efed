# t7502: scorch heatmap latency on perf.data: block I/O pairs (issue ->
# complete by dev and sector) equal the reference awk pairs, cells equal
# trace2heatmap.pl's, and a fresh recording made here (dd oflag=direct on a
# loop device) equals a direct computation from its perf script output.
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

# perf.data on standard input (a pipe, as from perf record -o -)
cat "$H/block.perf.data" | "$SCORCH" heatmap latency --pairs > stdin.pairs 2> stdin.err
check_same "perf.data through a pipe on stdin: same pairs" "$H/block.lat_us.txt" stdin.pairs
cat "$H/trace2heatmap/synthetic-us.txt" | "$SCORCH" heatmap latency --unitstime=us --unitslabel=us --quirks --cells > stdin.tsv
check_same "text through a pipe on stdin still reads as text" "$H/trace2heatmap/syn-A-default.cells.tsv" stdin.tsv

# Any pair of tracepoints: wakeup to switch-in by pid=next_pid, against the
# same pairing done on the file's perf script text
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t); split(t, p, "."); us = p[1] p[2]; break }
	if ($0 ~ /sched:sched_waking:/) { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { k = substr($i, 5); st[k] = us; has[k] = 1 } }
	else if ($0 ~ /sched:sched_switch:/) { for (i = 1; i <= NF; i++) if ($i ~ /^next_pid=/) { k = substr($i, 10)
		if (has[k]) { printf "%s %d\n", us, us - st[k]; delete has[k] } } } }' "$H/sched/script.txt" > wake.exp
"$SCORCH" heatmap latency --pairs --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	"$H/sched/perf.data" > wake.pairs 2> wake.err
check_same "--start/--end/--key A=B: wakeup-to-run pairs equal perf script's" wake.exp wake.pairs
check_grep "unmatched starts and ends are counted in one warning" '14 pairs; 3 start events never ended, 33 end events had no start' wake.err
"$SCORCH" heatmap latency --cells --start sched:sched_waking --end sched:sched_switch --key pid=next_pid \
	"$H/sched/perf.data" --unitslabel=us > wake.cells 2>/dev/null
check "options may follow the file; the wakeup map draws ($(tail -n +2 wake.cells | wc -l) cells)" test -s wake.cells

# Other pairs and bad requests
check_fails "unknown start event fails" "$SCORCH" heatmap latency --start block:nope "$H/block.perf.data"
"$SCORCH" heatmap latency --start block:nope "$H/block.perf.data" 2> nope.err
check_grep "unknown event: message names it" 'block:nope was not recorded' nope.err
check_fails "unknown key field fails" "$SCORCH" heatmap latency --key dev,nosuch "$H/block.perf.data"
"$SCORCH" heatmap latency --pairs --key sector "$H/block.perf.data" > sector.pairs
check_same "--key sector alone pairs the same requests here" "$H/block.lat_us.txt" sector.pairs
check_fails "perf.data without tracepoints fails" "$SCORCH" heatmap latency "$SHARED/heatmap/flamescope/perf.test01" --start a:b
# a truncated copy has lost its event formats (they sit after the data):
# a clear message, not a crash
head -c 400000 "$H/block.perf.data" > trunc.data
check_fails "truncated file fails" "$SCORCH" heatmap latency --pairs trunc.data
"$SCORCH" heatmap latency --pairs trunc.data 2> trunc.err
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
		return 0 2>/dev/null || exit 0
	fi
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
else
	skip "fresh block I/O recording" "no loop device, mkfs.ext4 or block tracepoints here (needs root)"
fi
rm -f /dev/shm/t7502-$$.data
