# t7101: scorch flame options, input handling, exit status and the
# flamegraph.pl drop-in name.
printf 'main;parse;lex 30\nmain;parse 10\nmain;eval;add_[k] 20\nmain;eval;mul 40\n' > in.folded
F() { "$SCORCH" flame "$@" 2>err.txt; }
title_of() { grep -o '<text id="title"[^>]*>[^<]*' "$1" | sed 's/.*>//'; }

F in.folded > def.svg
[ "$(title_of def.svg)" = "Flame Graph" ] && pass "default title" || fail "title: $(title_of def.svg)"
check_grep "default width" '<svg version="1.1" width="1200" height="[0-9]+"' def.svg
check_grep "kernel annotation hidden in names" '<title>add \(20 samples' def.svg

F --title 'My <app>' --subtitle 'run 2' in.folded > t.svg
check_grep "--title (escaped)" '<text id="title"[^>]*>My &lt;app&gt;</text>' t.svg
check_grep "--subtitle" '<text id="subtitle"[^>]*>run 2</text>' t.svg
F --inverted in.folded > inv.svg
[ "$(title_of inv.svg)" = "Icicle Graph" ] && pass "--inverted title" || fail "inverted title"
check_grep "--inverted: root at the top" '<title>all \(100 samples, 100%\)</title><rect x="10" y="36" ' inv.svg
F --flamechart in.folded > fc.svg
[ "$(title_of fc.svg)" = "Flame Chart" ] && pass "--flamechart title" || fail "flamechart title"
F --width 600 --height 20 --fontsize 10 --fontwidth 0.5 --fonttype 'Courier New' in.folded > geo.svg
check_grep "--width" '<svg version="1.1" width="600" ' geo.svg
check_grep "--height: frame rects 19px" 'height="19" fill=' geo.svg
check_grep "--fontsize/--fonttype" 'font-family:Courier New; font-size:10px' geo.svg
check_grep "image height from depth, --height and --fontsize" 'height="140" viewBox="0 0 600 140"' geo.svg
F --countname bytes --nametype 'Func:' --factor 1000 in.folded > cn.svg
check_grep "--countname and --factor" '<title>mul \(40,000 bytes, 40.00%\)</title>' cn.svg
check_grep "--nametype" 'data-nametype="Func:"' cn.svg
F --total 200 in.folded > tot.svg
check_grep "--total: widths relative to a larger total" '<title>main \(100 samples, 50.00%\)</title><rect x="10" y="[0-9.]+" width="590"' tot.svg
F --total 10 in.folded > tot2.svg
check_grep "--total below the sum is ignored" '<title>main \(100 samples, 100.00%\)' tot2.svg
F --reverse in.folded > rev.svg
check_grep "--reverse: leaf functions at the root" '<title>lex \(30 samples, 30.00%\)</title><rect x="[0-9.]+" y="69"' rev.svg
F --minwidth 50% in.folded > mw.svg
n=$(grep -c '^<g><title>' mw.svg)
[ "$n" = 3 ] && pass "--minwidth 50%: only all, main, eval (40+20 >= 50)" || fail "--minwidth 50% drew $n frames"
check_fails "--minwidth rejects junk" "$SCORCH" flame --minwidth 5px in.folded
check_fails "--width rejects junk" "$SCORCH" flame --width abc in.folded
check_fails "unknown option" "$SCORCH" flame --nosuch in.folded
F --notes 'build 42' --encoding ISO-8859-1 --search-color 'rgb(1,2,3)' in.folded > misc.svg
check_grep "--notes" '<!-- NOTES: build 42 -->' misc.svg
check_grep "--encoding" '<\?xml version="1.0" encoding="ISO-8859-1" standalone="no"\?>' misc.svg
check_grep "--search-color" 'data-searchcolor="rgb\(1,2,3\)"' misc.svg
printf 'a;very_long_function_name_that_does_not_fit 99\na;x 1\n' > long.folded
F --width 200 long.folded > right.svg
F --width 200 --truncate-text-left long.folded > left.svg
check_grep "labels truncated on the right by default" '>very_long_function_na[a-z_]*\.\.</text>' right.svg
check_grep "--truncate-text-left keeps the end" '>\.\.[a-z_]*_does_not_fit</text>' left.svg

# input handling
F < in.folded > stdin.svg
check_same "stdin = file" def.svg stdin.svg
head -2 in.folded > p1; tail -2 in.folded > p2
F p1 p2 > two.svg
check_same "several files merge" def.svg two.svg
LC_ALL=C sort -r in.folded > rsorted
F rsorted > unsorted.svg
check_same "input order does not matter" def.svg unsorted.svg
printf 'main;x 5\r\nnot a folded line\n\nmain;y 2\nalso bad\n' > bad.folded
F bad.folded > bad.svg; rc=$?
[ $rc = 0 ] && pass "malformed lines skipped, exit 0" || fail "exit $rc"
check_grep "one warning counting malformed lines" '^scorch flame: warning: ignored 2 lines with invalid format \(first at bad.folded:2\)$' err.txt
[ "$(wc -l < err.txt)" = 1 ] && pass "exactly one warning line" || fail "warnings: $(cat err.txt)"
check_grep "CRLF lines accepted" '<title>x \(5 samples' bad.svg

: > empty.folded
F empty.folded > empty.svg; rc=$?
[ $rc = 2 ] && pass "empty input: exit 2" || fail "empty input: exit $rc"
check_grep "empty input: SVG says No samples" 'No samples' empty.svg
if need xmllint; then check "empty input: well-formed" xmllint --noout empty.svg; fi
printf 'junk\nmore junk\n' | F > junk.svg; rc=$?
[ $rc = 2 ] && grep -q 'No samples' junk.svg && pass "only junk: No samples, exit 2" || fail "junk: exit $rc"
printf 'a 0\n' | F > zero.svg; rc=$?
[ $rc = 2 ] && pass "zero total: exit 2" || fail "zero total: exit $rc"
check_fails "missing file fails" "$SCORCH" flame /nonexistent/x.folded
F /nonexistent/x.folded > /dev/null
check_grep "missing file named in the message" '/nonexistent/x.folded: No such file' err.txt

# drop-in name and Perl-style options
ln -s "$SCORCH" flamegraph.pl
./flamegraph.pl -title=Perl --inv in.folded > dropin.svg 2>/dev/null
[ "$(title_of dropin.svg)" = "Perl" ] && pass "flamegraph.pl: -title=X" || fail "drop-in title: $(title_of dropin.svg)"
check_grep "flamegraph.pl: --inv prefix means --inverted" '<title>all \(100 samples, 100%\)</title><rect x="10" y="36" ' dropin.svg
./flamegraph.pl --color=java in.folded > java.svg 2>/dev/null && pass "flamegraph.pl: --color=java prefix" || fail "--color=java"

# nameattr
printf 'mul\ttitle=multiply\thref=https://example.com/mul\ttarget=_blank\ntextattr\tonclick=evil\nlex\tclass=hot\tg_extra=stroke="red" onmouseover="evil()"\n' > na.txt
F --nameattr na.txt in.folded > na.svg
check_grep "--nameattr: link frame" '<a xlink:href="https://example.com/mul" target="_blank"><title>multiply</title>' na.svg
check_grep "--nameattr: class and extra attributes" '<g class="hot" stroke="red">' na.svg
if grep -q 'evil' na.svg; then fail "--nameattr: handlers dropped"; else pass "--nameattr: handlers dropped"; fi

# options may follow the files, as Getopt::Long allows
"$SCORCH" flame in.folded --title Late > late.svg 2>/dev/null
[ "$(title_of late.svg)" = "Late" ] && pass "options after the input file" || fail "late option: $(title_of late.svg)"
./flamegraph.pl in.folded -title=PerlLate > late2.svg 2>/dev/null
[ "$(title_of late2.svg)" = "PerlLate" ] && pass "flamegraph.pl: -title=X after the file" || fail "drop-in late option"
