# t0101: the installed man pages, one per command as `scorch --help` lists
# it: `make install PREFIX=...` puts scorch-CMD.1 under the command's name
# (man finds it), its NAME line is the command's whole summary from the
# command table, its DESCRIPTION is docs/scorch-CMD.md's, and every option
# that `scorch help CMD` lists has an entry: the same column ("-o, --output
# FILE") as a tag, followed by a description.

if [ -n "${BUILD_DIR:-}" ] && [ -x "$BUILD_DIR/scorch" ]; then
	build=$BUILD_DIR
else
	build=$(dirname "$SCORCH")
fi
if ! make -s -C "$ROOT" BUILD="$build" SAN="${BUILD_SAN:-}" install PREFIX="$TMP/p" > install.log 2>&1; then
	fail "make install PREFIX=..." "$(tail -5 install.log)"
	return 0
fi
mandir=$TMP/p/share/man

# roff text to plain: font escapes out, \- and \e back
plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/^\\&//'; }
# first N words of a text on stdin, whitespace collapsed
words() { tr -s ' \t\n' '   ' | sed 's/^ //' | cut -d' ' -f1-"$1"; }

"$SCORCH" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1' > commands.txt
check "scorch --help lists commands" test -s commands.txt
while read -r c summary; do
	page=$mandir/man1/scorch-$c.1
	if [ ! -f "$page" ]; then
		fail "scorch-$c.1 installed under the command's name" \
			"$(ls "$mandir/man1" | tr '\n' ' ')"
		continue
	fi
	pass "scorch-$c.1 installed under the command's name"
	if need man; then
		found=$(man -M "$mandir" -w "scorch-$c" 2>&1)
		if [ "$found" = "$page" ]; then pass "man scorch-$c finds the page"
		else fail "man scorch-$c finds the page" "$found"; fi
	fi

	# NAME: "scorch-CMD \- summary", the summary whole
	name=$(sed -n '/^\.SH NAME/{n;p;q}' "$page" | plain)
	if [ "$name" = "scorch-$c - $summary" ]; then
		pass "scorch-$c NAME line is the whole summary"
	else
		fail "scorch-$c NAME line is the whole summary" "page: '$name'; --help: '$summary'"
	fi
	if need lexgrog; then
		what=$(lexgrog "$page" 2>&1)
		if [ "$what" = "$page: \"scorch-$c - $summary\"" ]; then pass "whatis entry of scorch-$c complete"
		else fail "whatis entry of scorch-$c complete" "$what"; fi
	fi

	# DESCRIPTION: the page opens with the docs' description
	md=$ROOT/docs/scorch-$c.md
	want=$(sed -n '/^## DESCRIPTION/,/^## /p' "$md" | sed '1d;/^## /d;/^```/,/^```/d' |
		sed -e 's/`//g' -e 's/\*\*//g' | words 12)
	got=$(sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$page" | grep -v '^\.' | plain | words 12)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "scorch-$c DESCRIPTION from docs/scorch-$c.md"
	else
		fail "scorch-$c DESCRIPTION from docs/scorch-$c.md" "page: '$got'; docs: '$want'"
	fi

	# OPTIONS: each column of --help is a .TP tag with a description
	"$SCORCH" help "$c" | sed -n '/^options:/,$p' | sed '1d' |
		sed -n 's/^ *\(-.*\)$/\1/p' | sed 's/  .*//' > columns.txt
	awk '/^\.TP/ { getline tag; getline text
		if (text != "" && text !~ /^\./) print tag }' "$page" | plain > tags.txt
	missing=$(grep -vxF -f tags.txt columns.txt)
	if [ -s columns.txt ] && [ -z "$missing" ]; then
		pass "scorch-$c describes every option of --help ($(wc -l < columns.txt))"
	else
		fail "scorch-$c describes every option of --help" "missing or without text: $missing"
	fi
done < commands.txt

page=$mandir/man1/scorch.1
check "scorch.1 installed" test -f "$page"
name=$(sed -n '/^\.SH NAME/{n;p;q}' "$page" | plain)
top=$("$SCORCH" --help | sed -n 3p)
if [ -n "$top" ] && [ "$name" = "scorch - $top" ]; then pass "scorch.1 NAME line is the whole summary"
else fail "scorch.1 NAME line is the whole summary" "page: '$name'"; fi
{ echo scorch.1; awk '{ print "scorch-" $1 ".1" }' commands.txt; } > pages.txt
extra=$(ls "$mandir/man1" | grep -vxF -f pages.txt)
if [ -z "$extra" ]; then pass "no page for a name that is not a command"
else fail "no page for a name that is not a command" "$extra"; fi
