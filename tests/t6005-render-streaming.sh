# t6005: input is merged as it streams: memory follows distinct stacks,
# not input size, and a 1M-unique-stack-like input gives a bounded SVG.
if [ ! -x /usr/bin/time ]; then skip "memory checks" "/usr/bin/time not installed"; return 0; fi
rss() { /usr/bin/time -o rss.txt -f %M "$@" > /dev/null 2>&1; tail -1 rss.txt; }
# 40 MB of the same few stacks, through a pipe
small=$(printf 'main;parse;lex 7\n' | rss "$SCORCH" flame)
big=$(yes 'main;parse;lex;next_token;read_byte 7' | head -c 40000000 | rss "$SCORCH" flame)
if [ "$big" -lt $((small + 8192)) ]; then
	pass "40 MB of repeated stacks: RSS ${big} KB (baseline ${small} KB)"
else
	fail "memory grows with input size: ${big} KB vs ${small} KB"
fi
# many distinct stacks: the SVG stays bounded (narrow frames merged)
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "main;f%d;g%d;h%d 1\n", i % 100, i, i }' > many.folded
"$SCORCH" flame many.folded > many.svg 2>/dev/null
size=$(stat -c %s many.svg)
frames=$(grep -c '^<g><title>' many.svg)
if [ "$size" -lt 2000000 ] && [ "$frames" -lt 20000 ]; then
	pass "100k distinct stacks: bounded SVG ($size bytes, $frames frames)"
else
	fail "SVG not bounded: $size bytes, $frames frames"
fi
check_grep "totals kept after merging narrow frames" '<title>all \(100,000 samples, 100%\)' many.svg
"$SCORCH" flame --minwidth 0 many.folded > all.svg 2>/dev/null
n=$(grep -c '^<g><title>' all.svg)
[ "$n" = 200102 ] && pass "--minwidth 0 draws every frame ($n)" || fail "--minwidth 0 drew $n frames"
