# t6002: every flame graph is well-formed XML (xmllint), for a big
# generated profile in every layout, every inferno flamegraph input and
# every corpus stackcollapse.folded (when ../shared is there), and names
# full of markup, quotes and invalid UTF-8; no name can open an element or
# script.
if ! need xmllint; then skip "xmllint checks" "xmllint not installed"; return 0; fi
# many frames, deep stacks, long names, differential counts, through
# every layout option (made here)
awk 'BEGIN { srand(7)
	for (i = 0; i < 400; i++) {
		d = 1 + int(rand() * 60); s = "main"
		for (j = 0; j < d; j++) s = s ";f" int(rand() * 30) (rand() < 0.1 ? "_a_rather_long_function_name_" j : "")
		print s, 1 + int(rand() * 100)
	} }' > big.folded
awk '{ print $0, int($NF / 2) }' big.folded > big-diff.folded
bad= n=0
for o in "" --reverse --inverted --flamechart "--width 300" "--minwidth 0" "--colors java"; do
	# shellcheck disable=SC2086
	"$SCORCH" flame $o big.folded > out.svg 2>/dev/null && xmllint --noout out.svg 2>/dev/null || bad="$bad [$o]"
	n=$((n + 1))
done
"$SCORCH" flame big-diff.folded > out.svg 2>/dev/null && xmllint --noout out.svg 2>/dev/null || bad="$bad [diff]"
if [ -z "$bad" ] && [ $(grep -c '<title>' out.svg) -gt 100 ]; then pass "$((n + 1)) layouts of a big profile give well-formed SVG"
else fail "$((n + 1)) layouts of a big profile give well-formed SVG" "malformed:$bad"; fi

# every inferno flamegraph input and corpus reference (../shared)
if need_shared inferno-tests/flamegraph corpus/fp/stackcollapse.folded; then
	bad=""
	n=0
	for f in $(find "$SHARED/inferno-tests/flamegraph" -name '*.txt' ! -path '*/nameattr/*' | sort) \
		"$SHARED"/corpus/*/stackcollapse.folded; do
		"$SCORCH" flame "$f" > out.svg 2>/dev/null
		xmllint --noout out.svg 2>/dev/null || bad="$bad $f"
		n=$((n + 1))
	done
	if [ -z "$bad" ] && [ $n -gt 20 ]; then pass "$n inputs give well-formed SVG"; else fail "malformed SVG" "$bad"; fi
fi

# hostile names
printf '%s\n' \
	'main;<script>alert(1)</script>;x 10' \
	'main;a&b;"quoted" '"'"'single'"'"' 5' \
	'main;]]>;<![CDATA[x 3' \
	'main;--;-->;<!-- c --> 2' \
	'main;<svg onload=alert(1)>;end 4' > evil.folded
printf 'main;\xff\xfe\xfd;bad\xc3 7\nmain;caf\xc3\xa9;\xe2\x82 1\nmain;\x01\x02ctl 2\n' >> evil.folded
# surrogates, U+FFFE/U+FFFF, beyond U+10FFFF, overlong: none may reach the XML
printf 'main;\xed\xa0\x80;\xef\xbf\xbe;\xef\xbf\xbf;\xf4\x90\x80\x80;\xc0\xaf;\xe0\x80\x80 3\n' >> evil.folded
"$SCORCH" flame --title '<b>&"t"</b>' --subtitle "]]><script>" --nametype '<x>' --fonttype 'A;}*{fill:red}' \
	--countname '"&' --notes 'a -- b --> <c>' evil.folded > evil.svg 2>/dev/null
check "hostile names: well-formed" xmllint --noout evil.svg
# only the one script element we write, and no element from the input
scripts=$(xmllint --xpath 'count(//*[local-name()="script"])' evil.svg 2>/dev/null)
[ "$scripts" = 1 ] && pass "exactly one <script> element" || fail "script elements: $scripts"
svgs=$(xmllint --xpath 'count(//*[local-name()="svg"])' evil.svg 2>/dev/null)
[ "$svgs" = 1 ] && pass "no injected <svg>" || fail "svg elements: $svgs"
handlers=$(xmllint --xpath 'count(//@*[starts-with(local-name(),"on")])' evil.svg 2>/dev/null)
[ "$handlers" = 0 ] && pass "no event-handler attributes" || fail "on* attributes: $handlers"
check_grep "--fonttype cannot add CSS rules" 'font-family:A    fill red ;' evil.svg
check_grep "name text escaped" '&lt;script&gt;alert\(1\)&lt;/script&gt;' evil.svg
check_grep "invalid UTF-8 shown as U+FFFD" $'<title>\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \\(7 ' evil.svg
check_grep "valid UTF-8 kept" $'caf\xc3\xa9' evil.svg
check_grep "notes cannot close the comment" '<!-- NOTES: a - - b - -&gt; &lt;c&gt; -->' evil.svg

# truncated labels never cut a multi-byte character
printf 'r;%s 1\nr;x 2000\n' "$(printf '\xc3\xa9%.0s' $(seq 1 40))" > utf.folded
"$SCORCH" flame --width 400 utf.folded > utf.svg 2>/dev/null
check "narrow UTF-8 labels: well-formed" xmllint --noout utf.svg
if LC_ALL=C grep -a '<text' utf.svg | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
	pass "labels are valid UTF-8"; else fail "labels are not valid UTF-8"; fi
