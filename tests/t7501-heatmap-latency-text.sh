# t7501: scorch heatmap latency on "time latency" text (trace2heatmap.pl
# drop-in). On inputs made here: every cell (count, acc, column total,
# labels, colour) equals an awk model of trace2heatmap.pl's bucketing
# (../shared/heatmap/README.md 1.3-1.4; scorch draws the last column and
# top band, --quirks hides them), the SVG draws those cells, edge cases,
# errors. With ../shared: cells equal trace2heatmap.pl's drawn cells
# (--quirks) and its full internal map.
US="--unitstime=us --unitslabel=us"

# model [--quirks] [ROWS] < "time_us latency_us" text: the cells as
# scorch heatmap latency --cells prints them (columns 1-8), by the rules of
# trace2heatmap.pl: start = first time, step = int(maxlat / rows), one
# column per second; colour rgb(255, 240-240r, 220-220r), r = count / the
# largest count of any cell.
model() {
	local q=0 rows=50
	[ "${1:-}" = --quirks ] && { q=1; shift; }
	[ -n "${1:-}" ] && rows=$1
	awk -v q=$q -v rows="$rows" '
		NR == 1 && /[a-zA-Z]/ { next }
		NF < 2 { next }
		{ n++; t[n] = $1; l[n] = $2; if (n == 1) start = $1; if ($2 > big) big = $2 }
		END {
			step = int(big / rows); lastrow = int(big / step)
			for (i = 1; i <= n; i++) {
				c = int((t[i] - start) / 1e6); r = int(l[i] / step)
				m[c, r]++; if (m[c, r] > most) most = m[c, r]
				if (c > lastcol) lastcol = c; if (r > toprow) toprow = r
			}
			for (c = 0; c <= lastcol; c++) {
				if (q && c == lastcol) continue
				tot = 0; acc = 0
				for (r = 0; r <= toprow; r++) if (!(q && r >= lastrow)) tot += m[c, r]
				for (r = 0; r <= toprow; r++) {
					if ((q && r >= lastrow) || !m[c, r]) continue
					acc += m[c, r]; f = m[c, r] / most
					printf "%d\t%d\t%d\t%d\t%d\t%d\t%d-%dus\trgb(255,%.0f,%.0f)\n", c, r, m[c, r], acc, tot, c,
						r * step, (r + 1) * step, 240 - 240 * f, 220 - 220 * f
				}
			}
		}'
}

# gen.txt: 1000 requests over 10 s, most below 1 ms, a few up to 20 ms
awk 'BEGIN { print "TIMEus LATus"
	for (i = 0; i < 1000; i++) print 5000000 + i * 10007, 100 + (i * 7919) % 997 * ((i * 13) % 7 == 0 ? 20 : 1) }' > gen.txt
model < gen.txt > gen.exp
"$SCORCH" heatmap latency $US --cells gen.txt > gen.tsv 2> gen.err
tail -n +2 gen.tsv | cut -f1-8 > gen.got
if [ "$(wc -l < gen.exp)" -gt 50 ]; then check_same "generated input: every cell equals the model" gen.exp gen.got
else fail "generated input: every cell equals the model" "model has $(wc -l < gen.exp) cells"; fi
model --quirks < gen.txt > genq.exp
"$SCORCH" heatmap latency $US --quirks --cells gen.txt | tail -n +2 | cut -f1-8 > genq.got
check_same "generated input: --quirks hides the last column and the top band" genq.exp genq.got

# SVG: well-formed, one rect per cell, hover details
"$SCORCH" heatmap latency $US --grid --accstats gen.txt > gen.svg
if need xmllint; then check "SVG passes xmllint" xmllint --noout gen.svg; else skip "xmllint" "xmllint missing"; fi
# the hover text of every cell, from the model
awk -F '\t' '{ printf "<title>time %ss, range %s, count: %d, colpct: %d%%, acc: %d, acc pct: %d%%</title>\n",
	$6, $7, $3, int(100 * $3 / $5), $4, int(100 * $4 / $5) }' gen.exp > titles.exp
grep -o '<rect class="cell"[^>]*><title>[^<]*</title>' gen.svg | sed 's/.*<title>/<title>/' > titles.got
if [ "$(wc -l < titles.exp)" = "$(grep -c '<rect class="cell"' gen.svg)" ]; then pass "SVG has one rect per cell ($(wc -l < titles.exp))"
else fail "SVG has one rect per cell" "$(grep -c '<rect class="cell"' gen.svg) rects, $(wc -l < titles.exp) cells"; fi
check_same "SVG hover texts name time, range, count and percentages of every cell" titles.exp titles.got
check_grep "SVG has the details line and handlers" 'onmouseover="s\(this\)" onmouseout="c\(\)"' gen.svg

# Real browser: hovering a cell shows its time, range and count
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chr" \
		--dump-dom "file://$TMP/gen.svg#hover=1" > hover.dom 2>/dev/null
	want=$(sed -n '2s/<title>\(.*\)<\/title>/\1/p' titles.exp)
	if [ -n "$want" ] && grep -qF "id=\"details\"" hover.dom && grep -qF ">$want<" hover.dom; then
		pass "browser: hover shows the cell's time, range and count"
	else fail "browser: hover shows the cell's time, range and count" "want '$want': $(grep -o 'id="details"[^<]*' hover.dom)"; fi
else
	skip "browser hover" "chromium missing"
fi

# Edge cases: e5 colours by the largest count of all cells (10 in the
# hidden last column: a 1-count cell is rgb(255, 240-24, 220-22)).
{ printf '0 10\n1 10\n'; for i in 1 2 3 4 5 6 7 8 9 10; do echo 2.5 10; done; echo 2.6 40; } > e5.txt
"$SCORCH" heatmap latency --steplat=10 --quirks --cells e5.txt > e5.tsv
check_grep "e5: pale colour from the hidden column's count" 'rgb\(255,216,198\)' e5.tsv
# e3: a first line with a letter is a header and is dropped; short lines skipped
printf '0 0.5 x\n0.5 99.9\n1.2\n1.3 50.0 junk\n2.1 100\n3 100\n' > e3.txt
"$SCORCH" heatmap latency --cells e3.txt > e3.tsv 2> e3.err
check "e3: header and short line skipped" test "$(tail -n +2 e3.tsv | awk '{s+=$3} END {print s}')" = 4
# e4: non-numeric lines are skipped with one warning (trace2heatmap.pl counts them as 0 0)
printf 'time lat\n0 10\nfoo bar\n1 20\n2 30\n3 40\n' > e4.txt
"$SCORCH" heatmap latency --rows=4 --cells e4.txt > e4.tsv 2> e4.err
check_grep "e4: warning names file and line" 'e4.txt: line 3: 1 line\(s\) without two numbers skipped' e4.err
check "e4: 4 pairs kept" test "$(tail -n +2 e4.tsv | awk '{s+=$3} END {print s}')" = 4
# e1: unsorted input: columns from the smallest time (no negative columns)
printf '10.5 5\n10.2 5\n11.5 5\n12.5 5\n13.5 5\n8.2 15\n' > e1.txt
"$SCORCH" heatmap latency --steplat=5 --cells e1.txt > e1.tsv
check "e1: unsorted input, all 6 pairs in non-negative columns" \
	test "$(tail -n +2 e1.tsv | awk '$1 >= 0 {s+=$3} END {print s}')" = 6

# Crafted input: bucket semantics computed independently with awk.
cat > craft.txt <<'X'
TIME LAT
100.0 0
100.4 9
100.99 10
101.0 19.9
101.5 20
102.25 35
103.0 40
X
# minlat 0, maxlat 40, rows 4 -> step 10; col = int(t - 100); row = int(lat / 10)
awk 'NR > 1 { c = int($1 - 100); r = int($2 / 10); n[c "\t" r]++ } END { for (k in n) print k "\t" n[k] }' craft.txt | sort > craft.exp
"$SCORCH" heatmap latency --rows=4 --cells craft.txt | tail -n +2 | cut -f1-3 | sort > craft.got
check_same "crafted input: cells equal an independent bucketing" craft.exp craft.got
"$SCORCH" heatmap latency --rows=4 --quirks --cells craft.txt | tail -n +2 | cut -f1-3 | sort > craft.q
awk '$1 < 3 && $2 < 4' craft.exp > craft.qexp
check_same "crafted input: --quirks hides column 3 and row 4" craft.qexp craft.q

# Errors: clear messages, non-zero exit, never a crash
check_fails "empty input fails" "$SCORCH" heatmap latency /dev/null
"$SCORCH" heatmap latency /dev/null 2> empty.err
check_grep "empty input: message" 'no data' empty.err
printf '0 1\n1 2\n' > tiny.txt
check_fails "row resolution too high fails" "$SCORCH" heatmap latency tiny.txt
check_fails "bad --unitstime fails" "$SCORCH" heatmap latency --unitstime=sec tiny.txt
printf '0 1\n100000 2\n' > wide.txt
check_fails "too many columns fails" "$SCORCH" heatmap latency --rows=1 wide.txt
check_fails "missing file fails" "$SCORCH" heatmap latency does-not-exist.txt

# Drop-in name: one-dash long options, unique prefixes, stdin
ln -s "$SCORCH" trace2heatmap.pl
./trace2heatmap.pl -unitstime=us -unitsl=us -quirks -cells < gen.txt > dropin.tsv
tail -n +2 dropin.tsv | cut -f1-8 > dropin.got
check_same "trace2heatmap.pl drop-in (one dash, prefix, stdin)" genq.exp dropin.got

# trace2heatmap.pl's own cells, on the reference inputs
need_shared heatmap/trace2heatmap heatmap/block.lat_us.txt heatmap/sched/timehist-schdelay-us.txt || return 0
H=$SHARED/heatmap
T2H=$H/trace2heatmap

# cols 1-3 of a cells/fullmap file (the fullmap's every internal cell)
ccc() { grep -v '^#' "$1" | cut -f1-3; }

latency_case() { # NAME INPUT EXPECTED_PREFIX OPTIONS...
	local name=$1 in=$2 exp=$3; shift 3
	if "$SCORCH" heatmap latency "$@" --quirks --cells "$in" > "$name.quirks.tsv" 2> "$name.err"; then
		check_same "$name: --quirks cells equal trace2heatmap.pl's drawn cells" "$exp.cells.tsv" "$name.quirks.tsv"
	else
		fail "$name: --quirks exit status" "$(cat "$name.err")"
	fi
	"$SCORCH" heatmap latency "$@" --cells "$in" > "$name.tsv" 2> "$name.err"
	ccc "$exp.fullmap.tsv" > "$name.exp-full"
	ccc "$name.tsv" > "$name.got-full"
	check_same "$name: cells equal the full internal map" "$name.exp-full" "$name.got-full"
}

latency_case synA "$T2H/synthetic-us.txt" "$T2H/syn-A-default" $US
latency_case synB "$T2H/synthetic-us.txt" "$T2H/syn-B-maxlat8000-grid" $US --maxlat=8000 --grid
latency_case synC "$T2H/synthetic-us.txt" "$T2H/syn-C-min100-max1100-step50-stepsec0.5-accstats" \
	$US --minlat=100 --maxlat=1100 --steplat=50 --stepsec=0.5 --accstats
latency_case synD "$T2H/synthetic-us.txt" "$T2H/syn-D-rows20-box10-maxcol5" $US --rows=20 --boxsize=10 --maxcol=5 --title=D
latency_case blockdef "$H/block.lat_us.txt" "$H/block.heatmap-default" $US
latency_case block01 "$H/block.lat_us.txt" "$H/block.heatmap-stepsec0.1-maxlat2000-grid" $US --stepsec=0.1 --maxlat=2000 --grid
latency_case schdelay "$H/sched/timehist-schdelay-us.txt" "$H/sched/timehist-schdelay-heatmap" $US --stepsec=0.05 \
	--title="Scheduler delay (perf sched timehist)"
latency_case upstream "$T2H/upstream-example/example-trace.txt" "$T2H/upstream-example/example-heatmap-regenerated" \
	$US --maxlat=2000 --grid

# The recording shorter than one column: trace2heatmap.pl draws nothing, scorch draws it.
n=$(tail -n +2 blockdef.tsv | wc -l)
if [ "$n" -gt 0 ]; then pass "block default: scorch draws the short recording ($n cells)"; else fail "block default: nothing drawn"; fi

./trace2heatmap.pl -unitstime=us -unitsl=us -quirks -cells < "$T2H/synthetic-us.txt" > dropin.tsv
check_same "trace2heatmap.pl drop-in (one dash, prefix, stdin), on synthetic-us.txt" "$T2H/syn-A-default.cells.tsv" dropin.tsv
