# t6004: colours: deterministic by default (same name, same colour, in
# any graph), flamegraph.pl's values, palettes, --hash, --random, --cp map.
fill_of() { grep -o "<title>$1 ([^<]*</title><rect [^>]*fill=\"rgb([0-9,]*)\"" "$2" | head -1 | sed 's/.*fill="//; s/"$//'; }
printf 'main;Perl_pp_leavesub 5\nmain;__split_vma 3\n' > a.folded
printf 'other;x;__split_vma 9\nother;Perl_pp_leavesub;y 1\n' > b.folded
"$SCORCH" flame a.folded > a.svg 2>/dev/null
"$SCORCH" flame b.folded > b.svg 2>/dev/null
[ "$(fill_of Perl_pp_leavesub a.svg)" = "rgb(212,35,8)" ] && pass "default colour = flamegraph.pl's (Perl_pp_leavesub)" || fail "Perl_pp_leavesub: $(fill_of Perl_pp_leavesub a.svg)"
[ "$(fill_of __split_vma a.svg)" = "rgb(237,150,36)" ] && pass "default colour = flamegraph.pl's (__split_vma)" || fail "__split_vma: $(fill_of __split_vma a.svg)"
[ "$(fill_of __split_vma a.svg)" = "$(fill_of __split_vma b.svg)" ] && pass "same name, same colour across graphs" || fail "colour differs across graphs"
"$SCORCH" flame a.folded > a2.svg 2>/dev/null
check_same "output is deterministic" a.svg a2.svg

# each palette exits 0 and draws both frames with a fill
bad= n=0
for p in hot mem io wakeup chain java js perl python rust red green blue aqua yellow purple orange; do
	if ! "$SCORCH" flame --colors "$p" a.folded > "p-$p.svg" 2>/dev/null; then bad="$bad $p:exit"; continue; fi
	fills=$(grep -c '<title>\(Perl_pp_leavesub\|__split_vma\) ([^<]*</title><rect [^>]*fill="rgb(' "p-$p.svg")
	[ "$fills" = 2 ] || { bad="$bad $p:fills=$fills"; continue; }
	n=$((n + 1))
done
if [ -z "$bad" ] && [ $n = 17 ]; then pass "all 17 palettes render"
else fail "all 17 palettes render" "$n rendered; failed:$bad"; fi
"$SCORCH" flame --colors blue a.folded > blue.svg 2>/dev/null
check_grep "blue palette" 'fill="rgb\(([0-9]+),\1,2[0-5][0-9]\)"' blue.svg
check_grep "grey background for basic palettes" 'stop-color="#f8f8f8"' blue.svg
"$SCORCH" flame --colors mem a.folded > mem.svg 2>/dev/null
check_grep "mem: green background" 'stop-color="#e0ffe0"' mem.svg
"$SCORCH" flame --bgcolors '#102030' a.folded > bg.svg 2>/dev/null
check_grep "--bgcolors #rrggbb" 'stop-color="#102030"' bg.svg
check_fails "--bgcolors rejects junk" "$SCORCH" flame --bgcolors 'red"/><script>' a.folded
check_fails "--colors rejects unknown palette" "$SCORCH" flame --colors nope a.folded
"$SCORCH" flame --hash a.folded > h1.svg 2>/dev/null
"$SCORCH" flame --hash a.folded > h2.svg 2>/dev/null
check_same "--hash is deterministic" h1.svg h2.svg
check "--random renders" "$SCORCH" flame --random a.folded

# grey frames for "-" and "--" separators
printf 'cksum;- 6\ncksum;_start;main;-- 31\ncksum;main;cksum 19\nnoploop;main 274\n' > grey.folded
"$SCORCH" flame grey.folded > grey.svg 2>/dev/null
[ "$(fill_of -- grey.svg)" = "rgb(160,160,160)" ] && pass "'--' frames are dark grey" || fail "--: $(fill_of -- grey.svg)"
[ "$(fill_of - grey.svg)" = "rgb(200,200,200)" ] && pass "'-' frames are grey" || fail "-: $(fill_of - grey.svg)"

# --cp: read palette.map, keep its colours, add new names, write it sorted
printf 'Perl_pp_leavesub->rgb(1,2,3)\nbroken line\n' > palette.map
"$SCORCH" flame --cp a.folded > cp.svg 2> cp.err
[ "$(fill_of Perl_pp_leavesub cp.svg)" = "rgb(1,2,3)" ] && pass "--cp uses palette.map colours" || fail "--cp: $(fill_of Perl_pp_leavesub cp.svg)"
check_grep "--cp warns about the invalid map line" 'ignored 1 invalid line' cp.err
check_grep "--cp adds new names to the map" '^__split_vma->rgb\(237,150,36\)$' palette.map
LC_ALL=C sort -c palette.map 2>/dev/null && pass "palette.map is sorted" || fail "palette.map not sorted" "$(cat palette.map)"
"$SCORCH" flame --palette my.map b.folded > /dev/null 2>&1
check_grep "--palette FILE writes FILE" '^__split_vma->' my.map

# differential colours: red grows, blue shrinks
printf 'a;grow 1 10\na;shrink 10 1\na;same 5 5\n' > d.folded
"$SCORCH" flame d.folded > d.svg 2>/dev/null
[ "$(fill_of grow d.svg)" = "rgb(255,0,0)" ] && pass "growth is red" || fail "grow: $(fill_of grow d.svg)"
[ "$(fill_of shrink d.svg)" = "rgb(0,0,255)" ] && pass "shrinkage is blue" || fail "shrink: $(fill_of shrink d.svg)"
[ "$(fill_of same d.svg)" = "rgb(255,255,255)" ] && pass "no change is white" || fail "same: $(fill_of same d.svg)"
"$SCORCH" flame --negate d.folded > dn.svg 2>/dev/null
[ "$(fill_of grow dn.svg)" = "rgb(0,0,255)" ] && pass "--negate swaps red and blue" || fail "negate: $(fill_of grow dn.svg)"
check_grep "differential tooltip shows the delta" '<title>grow \(10 samples, 62.50%; \+56.25%\)</title>' d.svg
check_grep "differential frames carry before and after counts" '<g data-before="1" data-after="10"><title>grow ' d.svg
check_grep "inclusive before/after on parents" '<g data-before="16" data-after="16"><title>a ' d.svg
