# t7621: speedscope exports open in the real speedscope app: the offline
# app of the speedscope npm package, in Debian's chromium (headless,
# driven by playwright-core), loads each file as its command line tool
# does (#localProfilePath=), shows the active profile's name, reports no
# import error, page error or alert, and its sandwich view's totals give
# back the profile's total (the validator's, which t7620 checks against
# perf script). Inputs: folded text (plain and hostile names), a
# per-thread export of a recording (nanoseconds), a multi-process one
# (sample counts) and a --timeline (evented) one. Skips only when
# chromium, node or npm are missing.
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-speedscope.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then skip "speedscope app checks" "no chromium at $chromium"; return 0; fi
speedscope_npm || return 0
APP=$SSDIR/node_modules/speedscope/dist/release/index.html

# app FILE.json LABEL: validate, then list it for the app with the
# active profile's name and total
app() {
	local f=$1 label=$2 name total unit
	node "$SSDIR/speedscope-check.js" validate "$SSSCHEMA" "$f"
	local val=${f%.json}.val
	check "$label: valid" grep -qx ok "$val"
	name=$(awk -F'\t' '$1 == "active" { print $2 }' "$val")
	total=$(awk -F'\t' '$1 == "active" { print $4 }' "$val")
	unit=$(grep -o '"unit":"[a-z]*"' "$f" | head -1 | cut -d'"' -f4)
	[ -n "$name" ] || { fail "$label: an active profile" "$(cat "$val")"; return 0; }
	printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$PWD/$f" "$unit" "$total" "$name" >> list.tsv
}

printf 'main;a;b 30\nmain;a;c 10\nmain;d 40\n' > small.folded
"$SCORCH" export --format speedscope -o small.json small.folded
app small.json "folded"
printf 'ma"in;b\\ack;ctl\001\037x;bad\377\300\257 3\nma"in;tab\tx;\342\200\250 4\n' > hostile.folded
"$SCORCH" export --format speedscope -o hostile.json hostile.folded
app hostile.json "hostile folded"

recordings() {
	"$SCORCH" export --format speedscope $(srcs fp) -o fp.json "$C/fp/perf.data" 2>/dev/null
	app fp.json "$L fp"
	"$SCORCH" export --format speedscope --timeline $(srcs fp) -o fpt.json "$C/fp/perf.data" 2>/dev/null
	app fpt.json "$L fp --timeline"
	"$SCORCH" export --format speedscope $(srcs offcpu) -o offcpu.json "$C/offcpu/perf.data" 2>/dev/null
	app offcpu.json "$L offcpu"
}
if fixtures; then C=$FIX L=fixture recordings; fi

timeout 120 node "$SSDIR/speedscope-check.js" browser "$APP" list.tsv > app.tap 2>&1
rc=$?
sed "s/^\(not \)\{0,1\}ok - /&$T: /" app.tap | grep -E '^(ok|not ok|#)'
[ $rc -eq 0 ] || grep -q '^not ok' app.tap || fail "browser run failed (status $rc)" "$(tail -5 app.tap)"
