# t6002: every flame graph is well-formed XML (xmllint), for every inferno
# flamegraph input, every corpus stackcollapse.folded, and names full of
# markup, quotes and invalid UTF-8; no name can open an element or script.
if ! need xmllint; then skip "xmllint checks" "xmllint not installed"; return 0; fi
bad=""
n=0
for f in $(find "$SHARED/inferno-tests/flamegraph" -name '*.txt' ! -path '*/nameattr/*' | sort) \
	"$SHARED"/corpus/*/stackcollapse.folded; do
	"$SCORCH" flame "$f" > out.svg 2>/dev/null
	xmllint --noout out.svg 2>/dev/null || bad="$bad $f"
	n=$((n + 1))
done
if [ -z "$bad" ] && [ $n -gt 20 ]; then pass "$n inputs give well-formed SVG"; else fail "malformed SVG" "$bad"; fi

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
