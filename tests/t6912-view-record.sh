# t6912: scorch record --html: the recording's explorer page is written
# beside perf.data; decoded (python, from the format in
# src/render/view_data.h), its total is what scorch fold folds of the
# recording, its sample rows weigh the same, and the work_fp binary's
# frames carry that object as their module (and spin its source line in
# work.c, as grep finds it). --html with -o - is refused.
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp"
	return 0
fi
"$SCORCH" record -F 499 -g -o rec.data --html rec.html -- ./work_fp 0.3 > out.txt 2> err.txt
rc=$?
if [ $rc -ne 0 ] && grep -qi 'perf_event_open\|permission\|paranoid' err.txt; then
	skip "record --html" "cannot record here: $(head -1 err.txt)"
	return 0
fi
check "scorch record --html exits 0" test $rc -eq 0
check "and writes the page" test -s rec.html
"$SCORCH" fold rec.data > rec.folded 2>/dev/null
python3 "$ROOT/tests/viewpage.py" rec.html summary > summary.txt || fail "decode the page"
awk -F'\t' '/^(total|rows) / { print; next }
	$2 ~ /\/work_fp$/ { n = substr($1, 7); print "module " n; print "source " n " " $3 }' summary.txt > page.txt
want=$(awk '{ s += $NF } END { print s + 0 }' rec.folded)
check_grep "the page's total is scorch fold's ($want)" "^total $want\$" page.txt
check_grep "its sample rows weigh the same" "^rows $want\$" page.txt
check_grep "frames of work_fp name it as their module" '^module .+' page.txt
n=$(grep -n '^__attribute__((noinline)) void spin(' "$ROOT/tests/workloads/work.c" | cut -d: -f1)
check_grep "and spin's source is work.c:$n, where it is defined" "^source spin (.*/)?work\.c:$n\$" page.txt
check_fails "--html with -o - is refused" "$SCORCH" record -g -o - --html x.html -- true
