# t6910: the `scorch view` explorer in a real browser (Debian's chromium,
# headless, driven by playwright-core from npm, installed here on first
# use, as t6901 does): the page opens from file:// with no request
# anywhere else and no console error; its total is scorch fold's; a click
# zooms (breadcrumbs); a regex search's matched samples equal what python
# counts over the folded lines (each sample once); the top functions'
# first self value equals python's largest self; searches on a generated
# profile (one frame, a few, many), their part of a zoom, n stepping on;
# the URL hash restores zoom and search after a reload; focus/merge/hide
# of a function and
# collapsing recursion and [unknown] runs; drafts of merge/hide draw the
# whole tree's pixels, merges drafted one by one give the transformed
# stacks, a draft is made whole when idle; the sandwich's callers and callees;
# screenshots of each view (PNG decoded in node) are not blank, and a
# cleared canvas's is; a 5000-frame stack draws and zooms with
# a viewport-sized canvas; hostile names stay text; --diff and Swap;
# perf.data of the -g fixtures: a function's tooltip gives its source
# (work.c and the line grep finds its definition on), an inlined one's
# too, marked inlined; folded input has none.
# Skips only when chromium or node are missing.
. "$ROOT/tests/lib-corpus.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then skip "browser checks" "no chromium at $chromium"; return 0; fi
if ! need node npm python3; then skip "browser checks" "node/npm/python3 not installed"; return 0; fi
dir=$ROOT/tests/browser
if [ ! -d "$dir/node_modules/playwright-core" ]; then
	( cd "$dir" && timeout 300 npm install --no-save --no-audit --no-fund --loglevel=error playwright-core ) > npm.log 2>&1
	if [ ! -d "$dir/node_modules/playwright-core" ]; then
		fail "npm install playwright-core" "$(tail -5 npm.log)"
		return 0
	fi
fi

# inputs: a small profile with recursion and hostile names, a deep stack,
# and a before/after pair
printf '%s\n' 'main;a;b 30' 'main;a;c 10' 'main;d 40' 'main;A;x 20' 'main;a;b;a;b 7' \
	'main;<img src=x onerror="window.__pwned=1">;&lt&gt"q'"'"' 5' \
	'main;</script><script>window.__pwned=1</script> 3' 'other;b 11' 'other;Bz;b 2' \
	'main;r;r;r;x 4' 'main;[unknown];[unknown];y 2' > main.folded
printf 'main;bad\377\376name 1\n' >> main.folded   # invalid UTF-8
awk 'BEGIN { s = ""; for (i = 0; i < 10000; i++) s = s "w"; print "main;" s " 1" }' >> main.folded
awk 'BEGIN { s = "f0"; for (i = 1; i < 5000; i++) s = s ";f" i; print s " 5"; print "main;x 1" }' > deep.folded
printf '%s\n' 'm;old 4' 'm;same 5' > before.folded
printf '%s\n' 'm;same 6' 'm;new 9' > after.folded
check "view writes the page" "$SCORCH" view main.folded -o main.html
"$SCORCH" flame main.folded > main.svg 2>/dev/null
check "view of a deep stack" "$SCORCH" view deep.folded -o deep.html
check "view --diff" "$SCORCH" view --diff before.folded after.folded -o diff.html
# 1000 functions: the table sorts and shows its first 200 of them
awk -v STACKS=3000 -v NAMES=1000 -v MIN=2 -v MAX=6 -f "$ROOT/bench/view-gen.awk" > gen.folded
check "view of a generated profile" "$SCORCH" view gen.folded -o gen.html
: > empty.folded
check "view of an empty profile" "$SCORCH" view empty.folded -o empty.html
"$SCORCH" diff before.folded after.folded > diff.txt 2>/dev/null
cases= sources=
if fixtures; then
	for c in fp offcpu; do # offcpu: a system-wide recording, many threads
		[ -f "$FIX/$c/perf.data" ] || continue
		o="--buildid-dir $FIX/$c/buildid"
		"$SCORCH" fold $o "$FIX/$c/perf.data" > $c.folded 2>/dev/null
		"$SCORCH" fold --tid $o "$FIX/$c/perf.data" > $c-tid.folded 2>/dev/null
		if "$SCORCH" view $o "$FIX/$c/perf.data" -o $c.html 2>/dev/null; then
			cases="$cases $c"
		else
			fail "view of the $c fixture's perf.data"
		fi
	done
	# sources: fp's functions as compiled, dwarf's with inlined rows
	for c in fp dwarf; do
		[ -f "$FIX/$c/perf.data" ] || continue
		o="--buildid-dir $FIX/$c/buildid"
		"$SCORCH" fold $o "$FIX/$c/perf.data" > src-$c.folded 2>/dev/null
		if "$SCORCH" view $o "$FIX/$c/perf.data" -o src-$c.html 2>/dev/null; then
			sources="$sources $c"
		else
			fail "view of the $c fixture's perf.data (sources)"
		fi
	done
fi

# the expected values, from the folded lines
python3 - "$SCORCH" "$FIX" "$ROOT/tests/workloads/work.c" "$sources" $cases > expect.json <<'PY'
import json, re, sys
def lines(path):
    for ln in open(path, encoding="utf-8", errors="surrogateescape"):
        ln = ln.rstrip("\n")
        stack, _, n = ln.rpartition(" ")
        yield stack.split(";"), int(n)
def facts(path, regex):
    total = matched = 0
    selfs = {}
    for frames, n in lines(path):
        total += n
        if any(re.search(regex, f) for f in frames):
            matched += n
        selfs[frames[-1]] = selfs.get(frames[-1], 0) + n
    return total, matched, max(selfs.values())
t, m, s = facts("main.folded", "^[ab]$")
with_a = sum(n for frames, n in lines("main.folded") if "a" in frames)
svg = open("main.svg", encoding="utf-8").read()
colors = {k: re.search(r"<title>" + k + r" \(.*?fill=\"(rgb\([0-9,]+\))\"", svg).group(1)
          for k in ("b", "c", "d", "x")}
e = {"main": {"html": "main.html", "folded": "main.folded", "total": t, "regex": "^[ab]$", "matched": m, "topself": s,
              "path": ["main", "a", "b"], "withA": with_a, "colors": colors,
              "hostile": ["main", "<img src=x onerror=\"window.__pwned=1\">", "&lt&gt\"q'"],
              "badUtf8": ["main", "bad\ufffd\ufffdname"], "long": ["main", "w" * 10000]},
     "deep": {"html": "deep.html", "total": 6, "depth": 5000,
              "deepPath": ["f%d" % i for i in range(5000)]},
     "diff": {"html": "diff.html", "before": 9, "after": 15, "grew": "new", "shrank": "same",
              "lines": [[l.split(" ")[0].split(";")[1], int(l.split(" ")[1]), int(l.split(" ")[2])]
                        for l in open("diff.txt").read().splitlines()]},
     "empty": "empty.html", "perf": []}
gself, gtotal = {}, {}
for frames, n in lines("gen.folded"):
    gself[frames[-1]] = gself.get(frames[-1], 0) + n
    for f in set(frames):
        gtotal[f] = gtotal.get(f, 0) + n
e["gen"] = {"html": "gen.html", "self": sorted(gself.values(), reverse=True)[:200],
            "total": sorted(gtotal.values(), reverse=True)[:200], "nfun": len(gtotal)}
# searches over one name, ten, a third of them: each sample once, and
# the part under proc-3 (the zoom)
e["gen"]["searches"] = []
for rx in ("method_7$", "method_1[0-9]$", "Class0[0-9]"):
    m = zm = zt = 0
    for frames, n in lines("gen.folded"):
        hit = any(re.search(rx, f) for f in frames)
        m += n if hit else 0
        if frames[0] == "proc-3":
            zt += n
            zm += n if hit else 0
    e["gen"]["searches"].append([rx, m, zm, zt])
scorch, fix, work = sys.argv[1], sys.argv[2], sys.argv[3]
# where work.c defines a function: the line of "NAME(" opening a
# definition (the line grep -n finds)
defs = {}
for no, ln in enumerate(open(work, encoding="utf-8"), 1):
    dm = re.match(r"^(?:__attribute__\(\(\w+\)\) )?(?:static )?\w+ \**(\w+)\(", ln)
    if dm:
        defs.setdefault(dm.group(1), no)
# each function's widest path (root first, ending at it) in the folded
# stacks, to hover it
def widest(path, name):
    paths = {}
    for frames, n in lines(path):
        if name in frames:
            k = tuple(frames[:frames.index(name) + 1])
            paths[k] = paths.get(k, 0) + n
    return list(max(paths, key=paths.get)) if paths else None
e["sources"] = []
for c in sys.argv[4].split():
    want = {}
    for name in ("spin", "leaf_a", "main", "seconds_now"):
        p = widest("src-" + c + ".folded", name + "_[i]") or widest("src-" + c + ".folded", name)
        if p and name in defs:
            want[p[-1]] = {"line": "work.c:%d" % defs[name], "path": p}
    e["sources"].append({"name": c, "html": "src-" + c + ".html", "want": want})
for c in sys.argv[5:]:
    t, m, s = facts(c + ".folded", "^[a-m]")
    tids = {}
    for frames, n in lines(c + "-tid.folded"):
        tid = re.search(r"/(-?[0-9]+)$", frames[0])
        if tid:
            tids[tid.group(1)] = tids.get(tid.group(1), 0) + n
    dsos = {}  # perf script's frame lines: "addr sym+0xoff (dso)"
    try:
        for ln in open(fix + "/" + c + "/perf-script.txt", encoding="utf-8", errors="replace"):
            fm = re.match(r"^\s+[0-9a-f]+ (.+?)(\+0x[0-9a-f]+)? \((.*)\)$", ln)
            if fm:
                dsos.setdefault(fm.group(1), set()).add(fm.group(3))
    except OSError:
        pass
    e["perf"].append({"name": c, "html": c + ".html", "folded": c + ".folded", "total": t, "regex": "^[a-m]", "matched": m,
                      "topself": s, "tids": tids, "scorch": scorch,
                      "dsos": {k: sorted(v) for k, v in dsos.items()},
                      "foldArgs": ["--buildid-dir", fix + "/" + c + "/buildid",
                                   fix + "/" + c + "/perf.data"]})
json.dump(e, sys.stdout)
PY
timeout 120 node "$dir/view-browser.js" expect.json > out.tap 2>&1
rc=$?
sed "s/^\(not \)\{0,1\}ok - /&browser: /" out.tap | grep -E '^(ok|not ok|#)'
[ $rc -eq 0 ] || grep -q '^not ok' out.tap || fail "browser run failed (status $rc)" "$(tail -5 out.tap)"
