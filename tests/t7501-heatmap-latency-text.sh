# t7501: scorch heatmap latency on "time latency" text (trace2heatmap.pl
# drop-in): cells equal trace2heatmap.pl's drawn cells (--quirks) and its
# full internal map (default: scorch draws the last column and top band).
H=$SHARED/heatmap
T2H=$H/trace2heatmap
US="--unitstime=us --unitslabel=us"

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

# SVG: well-formed, one rect per cell, hover details
"$SCORCH" heatmap latency $US --grid --accstats "$T2H/synthetic-us.txt" > synA.svg
if need xmllint; then check "SVG passes xmllint" xmllint --noout synA.svg; else skip "xmllint" "xmllint missing"; fi
cells=$(tail -n +2 synA.tsv | wc -l); rects=$(grep -c '<rect class="cell"' synA.svg)
if [ "$cells" = "$rects" ]; then pass "SVG has one rect per cell ($rects)"; else fail "SVG rects $rects != cells $cells"; fi
check_grep "SVG hover text names time, range and count" '<title>time 0s, range 0-419us, count: 15, colpct: 15%, acc: 15, acc pct: 15%</title>' synA.svg
check_grep "SVG has the details line and handlers" 'onmouseover="s\(this\)" onmouseout="c\(\)"' synA.svg

# Real browser: hovering a cell shows its time, range and count
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chr" \
		--dump-dom "file://$TMP/synA.svg#hover=1" > hover.dom 2>/dev/null
	check_grep "browser: hover shows the cell's time, range and count" \
		'id="details"[^>]*>time 0s, range 419-838us, count: 42, colpct: 42%, acc: 57, acc pct: 57%<' hover.dom
else
	skip "browser hover" "chromium missing"
fi

# Edge cases (trace2heatmap/edge): e5 colours by the largest count of all cells.
"$SCORCH" heatmap latency --steplat=10 --quirks --cells "$T2H/edge/e5.txt" > e5.tsv
check_grep "e5: pale colour from the hidden column's count" 'rgb\(255,216,198\)' e5.tsv
# e3: a first line with a letter is a header and is dropped; short lines skipped
"$SCORCH" heatmap latency --cells "$T2H/edge/e3.txt" > e3.tsv 2> e3.err
check "e3: header and short line skipped" test "$(tail -n +2 e3.tsv | awk '{s+=$3} END {print s}')" = 4
# e4: non-numeric lines are skipped with one warning (trace2heatmap.pl counts them as 0 0)
"$SCORCH" heatmap latency --rows=4 --cells "$T2H/edge/e4.txt" > e4.tsv 2> e4.err
check_grep "e4: warning names file and line" 'e4.txt: line 3: 1 line\(s\) without two numbers skipped' e4.err
check "e4: 4 pairs kept" test "$(tail -n +2 e4.tsv | awk '{s+=$3} END {print s}')" = 4
# e1: unsorted input: columns from the smallest time (no negative columns)
"$SCORCH" heatmap latency --steplat=5 --cells "$T2H/edge/e1.txt" > e1.tsv
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
./trace2heatmap.pl -unitstime=us -unitsl=us -quirks -cells < "$T2H/synthetic-us.txt" > dropin.tsv
check_same "trace2heatmap.pl drop-in (one dash, prefix, stdin)" "$T2H/syn-A-default.cells.tsv" dropin.tsv
