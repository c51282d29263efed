# t7102: scorch diff on inputs made here (every stack of either file once,
# "stack BEFORE AFTER", missing counts 0; -n scales BEFORE to AFTER's
# total; -s writes hex numbers as 0x...), the difffolded.pl drop-in name,
# --svg, and usage errors; and, when ../shared is there, difffolded.pl's
# results (inferno's expected files; Perl prints in hash order, so compared
# as sorted line sets).
printf '%s\n' 'all;read;vfs_read 24' 'all;write;vfs_write 6' 'all;poll 6' \
	'all;[unknown];0x7f3a1c 2' 'all;[unknown];0xAB12 2' > before.txt
printf '%s\n' 'all;read;vfs_read 20' 'all;read;__fget_light 12' 'all;write;vfs_write 40' \
	'all;idle 4' 'all;[unknown];0x55e0 4' > after.txt
printf '%s\n' 'all;read;vfs_read 20' 'all;write;vfs_write 10' 'not a folded line' 'all;poll 6' > bad_before.txt

# expect [-n] [-s]: the diff of before.txt and after.txt, computed by awk
expect() {
	awk -v norm="$1" -v hex="$2" '
		FNR == 1 { f++ }
		{ n = $NF; k = $0; sub(/ [^ ]*$/, "", k)
		  if (hex) gsub(/0x[0-9a-fA-F]+/, "0x...", k)
		  c[k, f] += n; t[f] += n; seen[k] = 1 }
		END { for (k in seen) {
			b = c[k, 1] + 0
			if (norm) b = int(b * t[2] / t[1])
			print k, b, c[k, 2] + 0 } }' before.txt after.txt | LC_ALL=C sort
}
"$SCORCH" diff before.txt after.txt > def.txt 2>/dev/null
expect 0 0 > def.exp
check_same "default: every stack once, BEFORE AFTER, 0 when missing" def.exp def.txt
"$SCORCH" diff -n before.txt after.txt > norm.txt 2>/dev/null
expect 1 0 > norm.exp
check_same_sorted "-n scales BEFORE to AFTER's total (x2)" norm.exp norm.txt
"$SCORCH" diff -s before.txt after.txt > strip.txt 2>/dev/null
expect 0 1 > strip.exp
check_same_sorted "-s: hex numbers become 0x..." strip.exp strip.txt
"$SCORCH" diff --normalize --strip-hex before.txt after.txt > ns.txt 2>/dev/null
"$SCORCH" diff -ns before.txt after.txt > ns2.txt 2>/dev/null
expect 1 1 > ns.exp
check_same_sorted "--normalize --strip-hex" ns.exp ns.txt
check_same "long options = -ns" ns.txt ns2.txt
if [ -s def.txt ] && LC_ALL=C sort -c def.txt 2>/dev/null; then pass "output sorted (deterministic)"
else fail "output sorted (deterministic)" "$(head -5 def.txt)"; fi

ln -s "$SCORCH" difffolded.pl
./difffolded.pl -ns before.txt after.txt > dropin2.txt 2>/dev/null
check_same "difffolded.pl drop-in -ns" ns.txt dropin2.txt

"$SCORCH" diff bad_before.txt after.txt > bad.txt 2> bad.err; rc=$?
[ $rc = 0 ] && pass "malformed line skipped, exit 0" || fail "malformed line skipped, exit 0" "exit $rc"
check_grep "one warning names the bad line" 'ignored 1 line with invalid format \(first at .*bad_before.txt:3\)' bad.err
check_grep "the lines around the bad one are kept" '^all;poll 6 0$' bad.txt

check_fails "one file is a usage error" "$SCORCH" diff before.txt
"$SCORCH" diff before.txt > /dev/null 2>&1; [ $? = 2 ] && pass "usage error exits 2" || fail "usage exit"
check_fails "missing file" "$SCORCH" diff /nonexistent after.txt

# the differential graph: scorch diff | scorch flame = scorch diff --svg
"$SCORCH" diff before.txt after.txt | "$SCORCH" flame --title "Differential Flame Graph" > piped.svg 2>/dev/null
"$SCORCH" diff --svg before.txt after.txt > direct.svg 2>/dev/null
if [ -s direct.svg ]; then check_same "diff --svg = diff | flame" piped.svg direct.svg
else fail "diff --svg = diff | flame" "diff --svg wrote nothing"; fi
if need xmllint; then check "differential SVG well-formed" xmllint --noout direct.svg; fi
check_grep "frames that grew are red" '<title>vfs_write [^<]*</title><rect [^>]*fill="rgb\(255,[0-9]+,[0-9]+\)"' direct.svg
check_grep "frames that shrank are blue" '<title>vfs_read [^<]*</title><rect [^>]*fill="rgb\([0-9]+,[0-9]+,255\)"' direct.svg
check_grep "widths come from AFTER (total 80)" '<title>all \(80 samples, 100%' direct.svg
check_grep "tooltip shows the change" '<title>__fget_light \(12 samples, 15.00%; \+15.00%\)</title>' direct.svg
"$SCORCH" diff --svg --negate before.txt after.txt > neg.svg 2>/dev/null
check_grep "--negate flips the change" '<title>__fget_light \(12 samples, 15.00%; -15.00%\)</title>' neg.svg
if need python3; then
	check "differential graph geometry" python3 "$ROOT/tests/browser/svgcheck.py" direct.svg
fi
"$SCORCH" diff before.txt after.txt --svg > late.svg 2>/dev/null
check_same "scorch diff A B --svg (options after the files)" direct.svg late.svg

# difffolded.pl's own results on inferno's inputs
need_shared inferno-tests/diff-folded || return 0
D=$SHARED/inferno-tests/diff-folded
R=$D/results
"$SCORCH" diff "$D/before.txt" "$D/after.txt" > def.txt 2>/dev/null
check_same_sorted "default = difffolded.pl" "$R/default.txt" def.txt
"$SCORCH" diff -n "$D/before.txt" "$D/after.txt" > norm.txt 2>/dev/null
check_same_sorted "-n = difffolded.pl -n" "$R/normalize.txt" norm.txt
"$SCORCH" diff -s "$D/before.txt" "$D/after.txt" > strip.txt 2>/dev/null
check_same_sorted "-s = difffolded.pl -s" "$R/strip_hex.txt" strip.txt
"$SCORCH" diff "$D/before_fractionals.txt" "$D/after.txt" > frac.txt 2>/dev/null
check_same_sorted "fractional counts = difffolded.pl (Perl numbers)" "$R/fractionals.difffolded.txt" frac.txt
./difffolded.pl -n "$D/before.txt" "$D/after.txt" > dropin.txt 2>/dev/null
check_same_sorted "difffolded.pl drop-in -n" "$R/normalize.txt" dropin.txt
"$SCORCH" diff "$D/bad_before.txt" "$D/after.txt" > bad.txt 2> bad.err
check_grep "one warning names the bad line (inferno's bad_before.txt)" 'ignored 1 line with invalid format \(first at .*bad_before.txt:3\)' bad.err
