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
python3 - rec.html > page.txt <<'PY' || fail "decode the page"
import base64, gzip, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'id="scv-data"( data-enc="gzip")?>\s*([A-Za-z0-9+/=\s]*?)\s*</script>', page)
d = base64.b64decode(m.group(2))
if m.group(1):
    d = gzip.decompress(d)
p = 4
def v():
    global p
    x = s = 0
    while True:
        b = d[p]; p += 1
        x |= (b & 127) << s; s += 7
        if not b & 128:
            return x
ncols = v()
strs = []
for _ in range(v()):
    n = v(); strs.append(d[p:p + n].decode("utf-8", "replace")); p += n
frames = []
for _ in range(v()):
    name, mod, flags, rgb, src = v(), v(), v(), v(), v()
    line = v() if src else 0  # source file + 1, then its line
    frames.append((strs[name], strs[mod - 1] if mod else "", flags,
                   "%s:%d" % (strs[src - 1], line) if src else ""))
total = 0
for _ in range(v()):
    up2, f = v(), v()
    if up2 & 1:
        total += v()
rows = 0
while True:
    tag = v()
    if tag == 0:
        break
    n = v(); end = p + n
    if tag == 2:
        for _ in range(v()):
            v(); v(); v(); rows += v()
    p = end
print("total", total)
print("rows", rows)
for name, mod, flags, src in frames:
    if mod.endswith("/work_fp"):
        print("module", name)
        print("source", name, src)
PY
want=$(awk '{ s += $NF } END { print s + 0 }' rec.folded)
check_grep "the page's total is scorch fold's ($want)" "^total $want\$" page.txt
check_grep "its sample rows weigh the same" "^rows $want\$" page.txt
check_grep "frames of work_fp name it as their module" '^module .+' page.txt
n=$(grep -n '^__attribute__((noinline)) void spin(' "$ROOT/tests/workloads/work.c" | cut -d: -f1)
check_grep "and spin's source is work.c:$n, where it is defined" "^source spin (.*/)?work\.c:$n\$" page.txt
check_fails "--html with -o - is refused" "$SCORCH" record -g -o - --html x.html -- true
