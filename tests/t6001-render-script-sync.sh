# t6001: the viewer script compiled into scorch (src/render/flame_js.c) is
# the one in src/render/flame.js, and every SVG carries it intact.
sh "$ROOT/src/render/js2c.sh" > gen.c
check_same "flame_js.c is generated from flame.js (run src/render/js2c.sh)" "$ROOT/src/render/flame_js.c" gen.c
if grep -q ']]>' "$ROOT/src/render/flame.js"; then fail "flame.js must not contain ]]>"; else pass "flame.js fits in CDATA"; fi
printf 'a;b 1\n' | "$SCORCH" flame > g.svg 2>/dev/null
sed -n '/<!\[CDATA\[/,/\]\]>/p' g.svg | sed '1d;$d' > embedded.js
check_same "SVG embeds the script verbatim" "$ROOT/src/render/flame.js" embedded.js
if need node; then
	check "script parses (node --check)" node --check "$ROOT/src/render/flame.js"
else
	skip "script parses" "node not installed"
fi
