# t7506: scorch heatmap subsecond on a perf.data recorded here: cell counts
# equal per-(second, offset) counts computed from perf script's times, and
# in a real browser a selected range shows exactly `scorch fold --time`
# of that range on the same file.
need perf cc || { skip "subsecond perf.data" "perf or cc missing"; return 0 2>/dev/null || exit 0; }
cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work "$ROOT/tests/workloads/offcpu_sleep.c" &&
	perf --buildid-dir "$TMP/.debug" record -q -F 997 -g -o cpu.data ./work > /dev/null 2> rec.err
if [ ! -s cpu.data ]; then
	skip "subsecond perf.data" "perf record failed: $(head -c 200 rec.err)"
else
	# independent count from perf script --ns times (idle kept: --all)
	perf --buildid-dir "$TMP/.debug" script -i cpu.data -F time --ns 2>/dev/null | awk '
		{ t = $1; sub(/:$/, "", t); split(t, p, "."); if (first == "") first = p[1]
		  r = int(substr(p[2], 1, 9) * 50 / 1000000000); n[(p[1] - first) "\t" r]++ }
		END { for (k in n) print k "\t" n[k] }' | sort > exp.tsv
	"$SCORCH" heatmap subsecond --all --cells cpu.data > got.tsv 2> got.err
	awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $5 }' got.tsv | sort > got.ccc
	check_same "perf.data: cells equal per-(second, offset) counts from perf script" exp.tsv got.ccc
	n=$(awk '{ s += $3 } END { print s + 0 }' got.ccc)
	if [ "$n" -ge 20 ]; then pass "perf.data: $n samples in cells"; else fail "perf.data: only $n samples"; fi

	"$SCORCH" heatmap subsecond --all cpu.data > page.html
	if need xmllint; then check "perf.data page passes xmllint" xmllint --noout page.html; fi
	browser=$(command -v chromium || command -v chromium-browser || true)
	if [ -n "$browser" ]; then
		# select from the first cell to the median cell
		first=$(awk -F'\t' 'NR == 2 { print $1 "," $3 }' got.tsv)
		mid=$(awk -F'\t' 'NR > 1 { c[NR] = $1 "," $3 } END { print c[int((NR + 2) / 2)] }' got.tsv)
		timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chr" \
			--dump-dom "file://$TMP/page.html#select=$first,$mid" > dom.html 2>/dev/null
		range=$(grep -o '<span id="range">[^<]*' dom.html | sed 's/.*>//')
		awk '{ buf = buf $0 "\n" } END { i = index(buf, "<pre id=\"folded\">"); if (!i) exit
			rest = substr(buf, i + 17); j = index(rest, "</pre>"); printf "%s", substr(rest, 1, j - 1) }' dom.html |
			sed '/^$/d; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' > page.folded
		"$SCORCH" fold --time "$range" cpu.data > fold.folded 2> fold.err
		check_same "browser: range $range equals scorch fold --time" fold.folded page.folded
		check "browser: the range is not empty" test -s page.folded
	else
		skip "browser range selection" "chromium missing"
	fi
fi
