# t7102: scorch diff matches difffolded.pl's results (inferno's expected
# files; Perl prints in hash order, so compared as sorted line sets), the
# difffolded.pl drop-in name, --svg, and usage errors.
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
"$SCORCH" diff --normalize --strip-hex "$D/before.txt" "$D/after.txt" > ns.txt 2>/dev/null
"$SCORCH" diff -ns "$D/before.txt" "$D/after.txt" > ns2.txt 2>/dev/null
check_same "long options = -ns" ns.txt ns2.txt
LC_ALL=C sort -c def.txt 2>/dev/null && pass "output sorted (deterministic)" || fail "output not sorted"

ln -s "$SCORCH" difffolded.pl
./difffolded.pl -n "$D/before.txt" "$D/after.txt" > dropin.txt 2>/dev/null
check_same_sorted "difffolded.pl drop-in -n" "$R/normalize.txt" dropin.txt
./difffolded.pl -ns "$D/before.txt" "$D/after.txt" > dropin2.txt 2>/dev/null
check_same "difffolded.pl drop-in -ns" ns.txt dropin2.txt

"$SCORCH" diff "$D/bad_before.txt" "$D/after.txt" > bad.txt 2> bad.err; rc=$?
[ $rc = 0 ] && pass "malformed line skipped, exit 0" || fail "exit $rc"
check_grep "one warning names the bad line" 'ignored 1 line with invalid format \(first at .*bad_before.txt:3\)' bad.err

check_fails "one file is a usage error" "$SCORCH" diff "$D/before.txt"
"$SCORCH" diff "$D/before.txt" > /dev/null 2>&1; [ $? = 2 ] && pass "usage error exits 2" || fail "usage exit"
check_fails "missing file" "$SCORCH" diff /nonexistent "$D/after.txt"

# the differential graph: scorch diff | scorch flame = scorch diff --svg
"$SCORCH" diff "$D/before.txt" "$D/after.txt" | "$SCORCH" flame --title "Differential Flame Graph" > piped.svg 2>/dev/null
"$SCORCH" diff --svg "$D/before.txt" "$D/after.txt" > direct.svg 2>/dev/null
check_same "diff --svg = diff | flame" piped.svg direct.svg
if need xmllint; then check "differential SVG well-formed" xmllint --noout direct.svg; fi
check_grep "frames that grew are red" 'fill="rgb\(255,[0-9]+,[0-9]+\)"' direct.svg
check_grep "frames that shrank are blue" 'fill="rgb\([0-9]+,[0-9]+,255\)"' direct.svg
check_grep "widths come from AFTER (total 80)" '<title>all \(80 samples, 100%' direct.svg
check_grep "tooltip shows the change" '<title>__fget_light \(12 samples, 15.00%; \+15.00%\)</title>' direct.svg
"$SCORCH" diff --svg --negate "$D/before.txt" "$D/after.txt" > neg.svg 2>/dev/null
check_grep "--negate flips the change" '<title>__fget_light \(12 samples, 15.00%; -15.00%\)</title>' neg.svg
if need python3; then
	check "differential graph geometry" python3 "$ROOT/tests/browser/svgcheck.py" direct.svg
fi
"$SCORCH" diff "$D/before.txt" "$D/after.txt" --svg > late.svg 2>/dev/null
check_same "scorch diff A B --svg (options after the files)" direct.svg late.svg
