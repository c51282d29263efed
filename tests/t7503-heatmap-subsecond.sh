# t7503: scorch heatmap subsecond: cell counts equal per-(second, offset)
# counts computed independently from perf script text (made here: a
# program, idle and non-idle swapper samples, samples on exact slice
# boundaries); the HTML page is well-formed and, in a real browser, a
# two-cell selection shows exactly the folded stacks of that time range.
# With ../shared, on FlameScope's own input: they equal FlameScope's except
# where its float modulo moves exact slice boundaries one row down.

# in.txt: perf script text, 100.013 s to 104.999999 s
awk 'function sample(comm, pid, cpu, t, stack,   n, f, i) {
		printf "%s %5d [%03d] %.6f: cpu-clock: \n", comm, pid, cpu, t
		n = split(stack, f, ";")
		for (i = n; i >= 1; i--) printf "\t    %x %s (/usr/bin/%s)\n", 4096 + i * 16, f[i], comm
		print ""
	}
	BEGIN {
		print "# a perf script header line"
		for (s = 0; s < 5; s++) for (k = 0; k < 20; k++) {
			t = 100 + s + k * 0.05 + 0.013
			sample("app", 42, k % 2, t, "main;work;leaf_" (k % 3))
			if (k % 4 == 0) sample("swapper", 0, 1, t + 0.002, "secondary_startup_64;cpu_startup_entry;do_idle;cpu_idle;native_safe_halt")
			if (k % 9 == 0) sample("swapper", 0, 1, t + 0.004, "secondary_startup_64;irq_exit;run_timer")
		}
		sample("app", 42, 0, 102.24, "main;boundary")
		sample("app", 42, 0, 103.44, "main;boundary")
		sample("app", 42, 0, 104.999999, "main;lastus")
	}' > in.txt

# Independent count: event lines carry " SEC.USEC: event:"; idle samples
# (swapper in an idle function) are left out; rows from integer microseconds.
count_cells() { # ROWS FILE
	awk -v rows="$1" '
	function flush() { if (have && !idle) n[c "\t" r]++; have = 0 }
	/^#/ { next }
	/^[^\t ]/ || /^ +[^ 0-9a-f]/ {
		if (!match($0, / [0-9]+\.[0-9]+: /)) next
		flush()
		ts = substr($0, RSTART + 1, RLENGTH - 3); split(ts, p, ".")
		if (first == "") first = p[1]
		c = p[1] - first; r = int(int(p[2]) * rows / 1000000)
		have = 1; sw = ($0 ~ /swapper/); idle = 0; next
	}
	sw && /(cpuidle|cpu_idle|cpu_bringup_and_idle|native_safe_halt)/ { idle = 1 }
	END { flush(); for (k in n) print k "\t" n[k] }' "$2" | sort -n
}

for rows in 10 50; do
	count_cells $rows in.txt > exp$rows.tsv
	"$SCORCH" heatmap subsecond --cells --rows $rows in.txt > got$rows.tsv 2> err$rows.txt
	awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $5 }' got$rows.tsv | sort -n > got$rows.ccc
	if [ "$(wc -l < exp$rows.tsv)" -ge $rows ]; then check_same "rows=$rows: cells equal an independent count" exp$rows.tsv got$rows.ccc
	else fail "rows=$rows: cells equal an independent count" "only $(wc -l < exp$rows.tsv) cells counted"; fi
done
check_grep "rows=50: 102.24 s lands in the 240 ms row (exact boundary)" '^2	37	12	240	1$' got50.tsv
check_grep "rows=50: 103.44 s lands in the 440 ms row (exact boundary)" '^3	27	22	440	1$' got50.tsv

# A last timestamp on a whole second (FlameScope crashes): one more column.
printf 'a 1 [000] 10.500000: 1 cpu-clock:\n\tffffffff81000000 f (/x)\n\na 1 [000] 12.000000: 1 cpu-clock:\n\tffffffff81000000 g (/x)\n\n' > whole.txt
"$SCORCH" heatmap subsecond --cells whole.txt > whole.tsv
check_grep "whole-second last sample is drawn in its own column" '^2	49	0	0	1$' whole.tsv

# Samples centuries apart: the page stays small (labels are thinned)
printf 'a 1 [000] 10.500000: 1 cpu-clock:\n\tffffffff81000000 f (/x)\n\na 1 [000] 9000000000.000000: 1 cpu-clock:\n\tffffffff81000000 g (/x)\n\n' > far.txt
"$SCORCH" heatmap subsecond far.txt > far.html
check "far-apart samples: the page stays small ($(wc -c < far.html) bytes)" test "$(wc -c < far.html)" -lt 100000

# HTML: well-formed, self-contained
"$SCORCH" heatmap subsecond --all in.txt > page.html
if need xmllint; then check "page passes xmllint" xmllint --noout page.html; else skip "xmllint" "missing"; fi
check "page is self-contained (no external src/href)" bash -c "! grep -Eq '(src|href)=\"(https?:)?//' page.html"

# Real browser: select cells and compare the page's folded stacks with
# scorch fold over the samples of the same range.
browser=$(command -v chromium || command -v chromium-browser || true)
select_dom() { # HASH OUT
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chr" \
		--dump-dom "file://$TMP/page.html#$1" > "$2" 2>/dev/null
}
folded_of() { # the text of <pre id="folded">, unescaped
	awk '{ buf = buf $0 "\n" } END { i = index(buf, "<pre id=\"folded\">"); if (!i) exit
		rest = substr(buf, i + 17); j = index(rest, "</pre>"); printf "%s", substr(rest, 1, j - 1) }' "$1" |
		sed '/^$/d; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'
}
# perf script samples with START <= t <= END, as text, for scorch fold
range_script() { # START END FILE
	awk -v a="$1" -v b="$2" '
	/^#/ { next }
	/^[^\t ]/ && match($0, / [0-9]+\.[0-9]+: /) { t = substr($0, RSTART + 1, RLENGTH - 3) + 0; keep = (t >= a && t <= b) }
	keep' "$3"
}
if [ -n "$browser" ]; then
	select_dom "select=0,0,4,49" all.dom
	folded_of all.dom > all.folded
	"$SCORCH" fold in.txt > all.exp 2>/dev/null
	check_same "browser: whole-range selection equals scorch fold" all.exp all.folded
	range=$(grep -o '<span id="range">[^<]*' all.dom | sed 's/.*>//')
	if [ -n "$range" ] && awk -v a="${range%,*}" -v b="${range#*,}" 'BEGIN { exit !(a <= 100.013 && b >= 104.999999) }'; then
		pass "browser: the page shows the selected range ($range: every sample)"
	else fail "browser: the page shows the selected range" "'$range' does not hold 100.013 to 104.999999"; fi
	select_dom "select=3,20,1,30" sub.dom     # end before start: swapped
	folded_of sub.dom > sub.folded
	range=$(grep -o '<span id="range">[^<]*' sub.dom | sed 's/.*>//')
	range_script "${range%,*}" "${range#*,}" in.txt > sub.txt
	"$SCORCH" fold sub.txt > sub.exp 2>/dev/null
	if [ -s sub.exp ]; then check_same "browser: range $range equals scorch fold of that range" sub.exp sub.folded
	else fail "browser: range $range equals scorch fold of that range" "no sample in '$range'"; fi
	n=$(grep -c 'cpu-clock:' sub.txt)
	check "browser: the sub-range holds its $n samples" test "$(awk '{ s += $NF } END { print s + 0 }' sub.folded)" = "$n"
	check_grep "browser: the flame graph is drawn" '<rect x="10" y="[0-9.]+" width="1180"' sub.dom
else
	skip "real-browser selection" "chromium not installed"
fi

# Errors
check_fails "no samples fails" "$SCORCH" heatmap subsecond /dev/null
check_fails "two inputs fail" "$SCORCH" heatmap subsecond in.txt in.txt
check_fails "unknown mode fails" "$SCORCH" heatmap nosuch

# FlameScope's own input and output (../shared)
need_shared heatmap/flamescope || return 0
FS=$SHARED/heatmap/flamescope
IN=$FS/perf.test01
for rows in 10 50; do
	count_cells $rows "$IN" > exp$rows.tsv
	"$SCORCH" heatmap subsecond --cells --rows $rows "$IN" > got$rows.tsv 2> err$rows.txt
	awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $5 }' got$rows.tsv | sort -n > got$rows.ccc
	check_same "perf.test01 rows=$rows: cells equal an independent count" exp$rows.tsv got$rows.ccc
	# against FlameScope: same columns and counts; rows differ only for the
	# samples exactly on a boundary (5086.200000 and 5106.400000: cols 10, 30)
	tail -n +2 "$FS/perf.test01.flamescope-rows$rows.cells.tsv" | cut -f1,5 > fs$rows.cc
	tail -n +2 got$rows.tsv | cut -f1,5 > got$rows.cc
	check_same "perf.test01 rows=$rows: columns and counts equal FlameScope's" fs$rows.cc got$rows.cc
	diffcols=$(paste <(tail -n +2 "$FS/perf.test01.flamescope-rows$rows.cells.tsv") <(tail -n +2 got$rows.tsv) |
		awk '$3 != $8 { printf "%s%s", s, $1; s = "," }')
	check "perf.test01 rows=$rows: rows differ from FlameScope only at the exact boundaries (cols $diffcols)" \
		test "$diffcols" = "10,30"
done
check_grep "rows=50: 5086.2 s lands in the 200 ms row (FlameScope: 180)" '^10	39	10	200	1$' got50.tsv
