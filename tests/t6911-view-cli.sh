# t6911: scorch view's command line and page: view_assets.c is generated
# from view.js and view.css; -o FILE and standard output give the same
# page; a failed run leaves no file behind; --diff wants two inputs; the
# title is escaped; a frame name never appears as markup (the profile is
# base64 in the page; decoded, it holds the names byte for byte); fold's
# naming options (--tid, --all, ...) give fold's stacks.
sh "$ROOT/src/render/view2c.sh" > gen.c
check_same "view_assets.c is generated from view.js and view.css (run src/render/view2c.sh)" \
	"$ROOT/src/render/view_assets.c" gen.c

printf '%s\n' 'main;a;b 3' 'main;</script><b>x</b> 2' 'p;"q'"'"'&amp 1' > in.folded
check "view -o FILE" "$SCORCH" view in.folded -o out.html
"$SCORCH" view < in.folded > stdout.html 2>/dev/null
check_same "standard input and output give the same page" out.html stdout.html
"$SCORCH" view - -o dash.html < in.folded 2>/dev/null
check_same "- reads standard input" out.html dash.html

n=$(grep -c '</script>' out.html)
check "the page closes exactly its two script elements" test "$n" -eq 2
check_fails "no frame name appears as markup" grep -q '<b>x</b>' out.html
python3 "$ROOT/tests/viewpage.py" out.html names > names.txt || fail "decode the page's data"
check_grep "the data holds the names as given" '^</script><b>x</b>$' names.txt
check_grep "quotes and & kept" "^\"q'&amp\$" names.txt
awk 'BEGIN { for (i = 0; i < 300; i++) print "main;f" i ";g" i " " i + 1 }' > many.folded
"$SCORCH" view many.folded -o many.html 2>/dev/null
check_grep "a bigger profile is gzip'd" 'id="scv-data" data-enc="gzip"' many.html
python3 - many.html > many.txt <<'PY' || fail "decode the gzip'd data"
import base64, gzip, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'id="scv-data" data-enc="gzip">\s*([A-Za-z0-9+/=\s]*?)\s*</script>', page)
d = gzip.decompress(base64.b64decode(m.group(1)))
print(d[:4].decode(), d.count(b"g299"))
PY
check_grep "and inflates to the encoding" '^SCV1 1$' many.txt

"$SCORCH" view --title '<i>T</i> & "u"' in.folded -o t.html 2>/dev/null
check_grep "the title is escaped" '<title>&lt;i&gt;T&lt;/i&gt; &amp; &quot;u&quot;</title>' t.html
check_fails "the title is not markup" grep -q '<i>T</i>' t.html

check_fails "a missing input fails" "$SCORCH" view missing.folded -o bad.html
check "and leaves no output file" test ! -e bad.html
check "nor a temporary one" test -z "$(ls -A | grep tmp)"
printf 'x' > out2.html
check_fails "binary input fails" "$SCORCH" view "$SCORCH" -o out2.html
check_same "and leaves an existing output untouched" out2.html <(printf 'x')
# binary bytes whose first line has perf script's header shape (scorch's
# own binary had one): still binary, as perf script prints no NUL
printf 'bin\0ary 123/123 1.000000: 1 cycles:\n\001\002\003 4\n' > crafted.bin
check_fails "a binary with a perf script header's shape fails" "$SCORCH" view crafted.bin -o c.html
check_fails "and for flame too" "$SCORCH" flame crafted.bin
"$SCORCH" view --diff in.folded > /dev/null 2> usage.err
check "--diff with one input is a usage error (2)" test $? -eq 2
check_grep "and says so" 'two inputs' usage.err
check "--diff with two inputs" "$SCORCH" view --diff in.folded in.folded -o d.html
check_grep "--help lists --diff" '--diff' <("$SCORCH" view --help)
"$SCORCH" view --colors nope in.folded > /dev/null 2> pal.err
check "an unknown --colors palette is a usage error (2)" test $? -eq 2
check_grep "and names the palettes" 'known: hot' pal.err

# the naming options are fold's: the page's stacks (decoded from its
# data, every node's self as a folded line) equal `scorch fold`'s with
# the same options, for perf.data and for perf script text
. "$ROOT/tests/lib-corpus.sh"
if fixtures; then
	for c in fp dwarf; do
		o="--buildid-dir $FIX/$c/buildid"
		for n in "--tid" "--all" "--pid --addrs" "--no-inline" "--inline --kernel"; do
			"$SCORCH" fold $o $n "$FIX/$c/perf.data" 2>/dev/null | sort > want.txt
			"$SCORCH" view $o $n "$FIX/$c/perf.data" -o n.html 2>/dev/null
			python3 "$ROOT/tests/viewpage.py" n.html stacks > got.txt 2>&1
			check "view $n of the $c fixture: stacks to compare" test -s want.txt
			check_same "view $n of the $c fixture: the page's stacks are scorch fold $n's" want.txt got.txt
		done
		"$SCORCH" fold --tid "$FIX/$c/perf-script.txt" 2>/dev/null | sort > want.txt
		"$SCORCH" view --tid "$FIX/$c/perf-script.txt" -o n.html 2>/dev/null
		python3 "$ROOT/tests/viewpage.py" n.html stacks > got.txt 2>&1
		check_same "view --tid of the $c fixture's perf script text: fold --tid's stacks" want.txt got.txt
	done
	"$SCORCH" view --buildid-dir "$FIX/fp/buildid" "$FIX/fp/perf.data" -o plain.html 2>/dev/null
	"$SCORCH" view --tid --buildid-dir "$FIX/fp/buildid" "$FIX/fp/perf.data" -o tid.html 2>/dev/null
	python3 "$ROOT/tests/viewpage.py" plain.html stacks > plain.txt 2>&1
	python3 "$ROOT/tests/viewpage.py" tid.html stacks > tid.txt 2>&1
	check_fails "and --tid changes them (the check can tell)" cmp -s plain.txt tid.txt
fi
check_grep "--help lists the naming options" '--event-filter EVENT' <("$SCORCH" view --help)
